"""Time ``fscli apply``/``load`` of a generated tree: 10,000 accounts, 100,000 user associations.

Targets (issue 21, a 2-core machine): ``export`` <= 2 s, apply into an empty store <= 3 s,
re-apply (empty plan) <= 1 s, load of the equivalent flat file <= 3 s (``fscli load``; ``fscli
sacctmgr load``, which also lists what it adds as sacctmgr does, is timed too). Each command runs
REPEAT times (a fresh store for the runs that start empty); the figures are the minimum
wall time and the minimum CPU time (user + sys of the child). The re-apply is timed
three times: right after the apply that wrote the tree (which notes it), reading the tree
(no note of it in the cache: after a write by another program, say; that apply notes
it), and known unchanged from that note (:mod:`fscli.store.unchanged`). Prints figures;
asserts nothing.

Usage: python benchmarks/trees_scale.py [ACCOUNTS] [USER_ASSOCIATIONS] [REPEAT]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import timed

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fscli.engine.treespec import (
    AccountSpec,
    ClusterSpec,
    QosSpec,
    TreeSpec,
    UserAssocSpec,
    UserSpec,
)
from fscli.io import flatfile, yamltree


def generate(accounts: int, assocs: int) -> TreeSpec:
    """100 top-level accounts, the rest 100 per parent; two associations per user."""
    spec = TreeSpec(cluster=ClusterSpec(name="big", qos=["normal"]))
    spec.qos["normal"] = QosSpec(name="normal")
    for i in range(accounts):
        parent = "root" if i < 100 else f"a{(i - 100) // 100:05d}"
        spec.accounts[f"a{i:05d}"] = AccountSpec(
            name=f"a{i:05d}",
            parent=parent,
            shares=1 + i % 50,
            limits={"MaxJobs": 10} if i % 7 == 0 else {},
        )
    for j in range(assocs):
        name = f"u{j // 2:06d}"
        assoc = UserAssocSpec(account=f"a{(j * 7919) % accounts:05d}", shares=1 + j % 5)
        user = spec.users.get(name)
        if user is None:
            spec.users[name] = UserSpec(name=name, associations=[assoc])
        else:
            user.associations.append(assoc)
    return spec


def main() -> None:
    accounts = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    assocs = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp, "cache")
        os.environ["XDG_CACHE_HOME"] = str(cache)  # the notes of unchanged trees
        spec = generate(accounts, assocs)
        tree, flat = Path(tmp, "big.yaml"), Path(tmp, "big.cfg")
        tree.write_text(yamltree.dump(spec))
        flat.write_text(flatfile.write(spec))
        print(
            f"{accounts} accounts, {assocs} user associations "
            f"(YAML {tree.stat().st_size / 1e6:.1f} MB, flat {flat.stat().st_size / 1e6:.1f} MB)"
        )
        db, db2, empty = Path(tmp, "a.db"), Path(tmp, "b.db"), Path(tmp, "empty.db")
        fscli = [sys.executable, "-m", "fscli", "-Q"]
        # a migrated, empty store to copy
        subprocess.run(
            [*fscli, "--db", str(empty), "db", "upgrade"],
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=REPO,
        )

        def fresh(path: Path):
            return lambda: shutil.copyfile(empty, path)

        def report(label: str, args: tuple[str, ...], setup=None) -> None:
            wall, cpu = timed([*fscli, *args], repeat, cwd=REPO, setup=setup)
            print(f"{label:<40} {wall:7.2f} s wall {cpu:7.2f} s cpu (min of {repeat})")

        apply = ("--db", str(db), "apply", str(tree))

        def applied() -> None:
            """A fresh store, the tree applied to it, no other note."""
            shutil.rmtree(cache, ignore_errors=True)
            fresh(db)()
            subprocess.run([*fscli, *apply], check=True, stdout=subprocess.DEVNULL, cwd=REPO)

        report("apply into an empty store", apply, fresh(db))
        report("apply again, right after", apply, applied)
        report(
            "apply again (empty plan, read)",
            apply,
            lambda: shutil.rmtree(cache, ignore_errors=True),
        )
        report("apply again (empty plan, noted)", ("--db", str(db), "apply", str(tree)))
        report("export --format yaml", ("--db", str(db), "export", "-o", str(Path(tmp, "e.yaml"))))
        report("dump", ("--db", str(db), "dump", f"file={Path(tmp, 'e.cfg')}"))
        report(
            "load flat file into an empty store", ("--db", str(db2), "load", str(flat)), fresh(db2)
        )
        report("load again (empty plan)", ("--db", str(db2), "load", str(flat)))
        report("load clean (wipe, then load)", ("--db", str(db2), "load", str(flat), "clean"))
        sacctmgr_load = ("--db", str(db2), "sacctmgr", "-i", "load", f"file={flat}")
        report("sacctmgr load into an empty store", sacctmgr_load, fresh(db2))
        report("sacctmgr load clean", (*sacctmgr_load, "clean"))


if __name__ == "__main__":
    main()
