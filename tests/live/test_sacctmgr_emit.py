"""``fscli apply TREE --prune --emit sacctmgr``, run on the real sacctmgr, pair after pair.

One chain of seeded trees (``tests/live/emit_trees.py``): the live cluster holds tree A
(the previous pair's B), with a second cluster ``other`` beside it that shares a QOS, an
account and users. Each pair imports the live accounting database into a new fscli store
(:func:`import_live`), emits the script that takes it to the next tree B, and runs every
line with the real sacctmgr: each must exit 0 and say nothing on stderr. Then the real ``sacctmgr dump`` of both
clusters and the QOS must be what fscli holds once it applies B itself, and B planned
against the database imported again must change nothing.

``FSCLI_LIVE_PAIRS`` sets how many pairs run (100 by default), ``FSCLI_LIVE_EMIT_SEED``
the chain's seed. A chain of 100 pairs or more must have run every kind of line in
:data:`TRAPS`.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml
from click.testing import CliRunner

import fscli
from fscli.cli.main import cli
from fscli.io import flatfile
from tests.live import emit_trees
from tests.live.differential import reset_real

PAIRS = int(os.environ.get("FSCLI_LIVE_PAIRS", "100"))
SEED = int(os.environ.get("FSCLI_LIVE_EMIT_SEED", "0"))
QOS_FORMAT = "name,description,priority,maxjobspu"
AT = "2026-05-01T00:00:00"
TRAPS = {
    "default account moved": re.compile(r"set defaultaccount="),
    "account moved": re.compile(r"set parent="),
    "user association deleted": re.compile(r"delete user where name=\S+ account="),
    "user deleted from this cluster only": re.compile(
        r"delete user where name=frank account=common .*cluster=live"
    ),
    "user deleted": re.compile(r"delete user where name=\S+$"),
    "account deleted from this cluster only": re.compile(r"delete account .*cluster=live"),
    "account deleted": re.compile(r"delete account where name=\S+$"),
    "QOS deleted": re.compile(r"delete qos"),
    "QOS kept for the other cluster": re.compile(r"# qos shared: kept"),
    "texts of an account the other cluster has": re.compile(
        r"modify account where name=common set"
    ),
    "text with spaces": re.compile(r"='[^']* [^']*'"),
    "coordinator removed": re.compile(r"delete coordinator"),
    "a limit or setting cleared": re.compile(r"=-1"),
}
"""Lines the chain must have run: the traps of a hand-written script."""


def sacctmgr(*words: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sacctmgr", *words], capture_output=True, text=True, check=False)


@dataclass(frozen=True)
class Real:
    """The accounting database as the real sacctmgr shows it: both clusters' dumps and
    the QOS (the ``show qos`` lines of :data:`QOS_FORMAT`)."""

    live: str
    other: str
    qos: list[str]


def read_real(where: Path) -> Real:
    dumps = []
    for cluster in (emit_trees.CLUSTER, "other"):
        path = where / f"{cluster}.cfg"
        answer = sacctmgr("-i", "dump", cluster, f"file={path}")
        assert answer.returncode == 0, answer.stderr
        dumps.append(path.read_text())
    answer = sacctmgr("-P", "-n", "show", "qos", f"format={QOS_FORMAT}")
    assert answer.returncode == 0, answer.stderr
    return Real(dumps[0], dumps[1], sorted(answer.stdout.splitlines()))


def fscli_qos(store) -> list[str]:
    """The store's QOS as the ``show qos`` lines :data:`QOS_FORMAT` asks for."""
    return sorted(
        f"{q.name}|{q.description}|{q.priority}|{q.limits.get('MaxJobsPerUser', '')}"
        for q in store.tree_spec(emit_trees.CLUSTER).qos.values()
    )


GLOBAL_FIELDS = re.compile(r":(Description|Organization|AdminLevel)=('[^']*'|[^:]*)")


def associations(dump: str) -> list[str]:
    """A dump's lines without what belongs to the global account and user records
    (texts, admin level): what a script for another cluster must leave as it is."""
    return [GLOBAL_FIELDS.sub("", line) for line in dump.splitlines()]


def import_live(db: Path, real: Real):
    """A new fscli store at ``db`` holding the accounting database ``real``: each
    cluster's ``sacctmgr dump`` loaded as ``fscli load`` does, and the QOS of ``show
    qos``. To be replaced by ``fscli import slurm`` once it exists."""
    from fscli.engine.treespec import QosSpec

    qos = {}
    for line in real.qos:
        name, description, priority, max_jobs = line.split("|")
        limits = {"MaxJobsPerUser": int(max_jobs)} if max_jobs else {}
        qos[name] = QosSpec(
            name=name, description=description, priority=int(priority), limits=limits
        )
    store = fscli.open_store(str(db))
    for cluster, dump in ((emit_trees.CLUSTER, real.live), ("other", real.other)):
        spec = flatfile.parse(dump, cluster=cluster)
        spec.qos = dict(qos)
        store.apply_tree(spec, loading=True, at=AT)
    return store


def emit(db: Path, tree_file: Path) -> str:
    """The script ``fscli apply TREE --prune --emit sacctmgr`` prints."""
    result = CliRunner().invoke(
        cli, ["--db", str(db), "apply", str(tree_file), "--prune", "--emit", "sacctmgr"]
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def run_script(text: str) -> list[str]:
    """Each line with the real sacctmgr; the lines that did not exit 0 or said anything
    on stderr (sacctmgr takes some refused changes back with exit code 0), with what they
    printed."""
    failed = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        words = shlex.split(line)
        assert words[:2] == ["sacctmgr", "-i"], line
        answer = sacctmgr(*words[1:])
        if answer.returncode != 0 or answer.stderr:
            failed.append(f"{line}: rc {answer.returncode}: {answer.stdout}{answer.stderr}")
    return failed


def test_emitted_scripts_take_the_live_cluster_from_tree_to_tree(live_slurm):
    reset_real()
    try:
        _chain()
    finally:  # the next live test finds the fresh cluster, not the chain's last tree
        reset_real()


def _chain() -> None:
    for call in emit_trees.OTHER_SETUP:
        answer = sacctmgr("-i", *shlex.split(call))
        assert answer.returncode == 0, f"{call}: {answer.stdout}{answer.stderr}"
    rng = random.Random(SEED)
    tree = emit_trees.empty()
    with tempfile.TemporaryDirectory(prefix="fscli-emit-") as tmp:
        where = Path(tmp)
        real = read_real(where)
        other = real.other
        lines = 0
        seen = dict.fromkeys(TRAPS, 0)
        before: Path | None = None  # the last pair's tree, which the cluster now holds
        context = ""
        for pair in range(PAIRS + 1):
            db = where / f"a{pair}.db"
            store = import_live(db, real)
            if before is not None:  # imported again, the tree the script made: no change
                plan = store.plan_tree(before.read_text(), prune=True)
                assert [c.text() for c in plan.changes] == [], context
            store.close()
            if pair == PAIRS:
                break
            new = emit_trees.random_tree(rng) if pair == 0 else emit_trees.edit(rng, tree)
            tree_file = where / f"b{pair}.yaml"
            tree_file.write_text(yaml.safe_dump(new, sort_keys=True))
            context = f"pair {pair} (seed {SEED}):\nA = {tree}\nB = {new}\n"
            text = emit(db, tree_file)
            context += f"script:\n{text}"
            failed = run_script(text)
            assert not failed, context + "failed:\n" + "\n".join(failed)
            lines += text.count("\n")
            for trap, pattern in TRAPS.items():
                seen[trap] += sum(1 for line in text.splitlines() if pattern.search(line))
            with fscli.open_store(str(db)) as store:
                store.apply_tree(tree_file.read_text(), prune=True, at=AT)
                want = Real(
                    flatfile.write(store.tree_spec(emit_trees.CLUSTER)),
                    flatfile.write(store.tree_spec("other")),
                    fscli_qos(store),
                )
            real = read_real(where)
            assert real == want, context
            assert associations(real.other) == associations(other), context
            db.unlink()
            tree, before = new, tree_file
    print(f"{PAIRS} pairs, {lines} script lines; " + ", ".join(f"{n} {k}" for k, n in seen.items()))
    if PAIRS >= 100:
        assert all(seen.values()), seen
