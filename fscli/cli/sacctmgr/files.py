"""``sacctmgr dump CLUSTER file=F`` and ``sacctmgr load file=F [clean] [cluster=C]``.

The file format is fscli's (:mod:`fscli.io.flatfile`): what real ``sacctmgr dump``
writes, except memory, written as whole megabytes (``mem=64000M``) where Slurm writes
``62.50G``, which its own load cannot read back. ``dump`` echoes each line it writes on
stderr as sacctmgr does. ``load`` prints sacctmgr's tables of what it adds (accounts,
account associations, users, user associations, as the file gives them) and applies
the file through fscli's tree planner in one transaction.
"""

from __future__ import annotations

import re
import time

from fscli.cli.sacctmgr.context import Run
from fscli.cli.sacctmgr.grammar import first, word
from fscli.render.sacctmgr import Column, table

DUMP_KEYS = (("cluster", (("Cluster", 1),)), ("file", (("File", 1),)))
LOAD_KEYS = (("file", (("File", 1),)), ("cluster", (("Cluster", 3),)))
ASSOC_FORMAT = (
    "Share,GrpTRESM,GrpTRESR,GrpTRES,GrpJ,GrpJobsA,GrpMEM,GrpN,GrpS,GrpW,MaxTRESM,"
    "MaxTRES,MaxTRESPerN,MaxJ,MaxS,MaxN,MaxW,QOS,DefaultQOS"
)
RULE = "-" * 51 + "\n\n"
ASSOC_RULE = "-" * 62 + "\n\n"


def dump(run: Run, words: list[str]) -> int:
    from fscli.api.sacctmgr_reads import dump_text

    values: dict[str, str] = {}
    problems = ""
    for raw in words:
        w = word(raw)
        key = "cluster" if w.bare else first(w.key or "", DUMP_KEYS)
        if key is None:
            problems += f" Unknown option: {raw}\n"
        elif key in values:
            problems += (
                f" Can only do one cluster at a time.  Already doing {values[key]}\n"
                if key == "cluster"
                else f" File name already set to {values[key]}\n"
            )
        else:
            values[key] = w.raw if w.bare else w.value
    if problems:
        run.err(problems)
        return 1
    name = values.get("cluster") or run.opts.cluster
    if not name:
        run.err(" We need a cluster to dump.\n")
        return 1
    text = dump_text(run.app.store, name.lower())
    if text is None:
        run.err(f" Cluster {name} doesn't exist.\n")
        return 1
    path = values.get("file")
    if not path:
        path = f"./{name}.cfg"
        run.out(f" No filename given, using {path}.\n")
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        run.err(f" Can't open file {path}, {exc.strerror}\n")
        return 1
    run.err(
        "".join(f"sacctmgr: {line}\n" for line in text.splitlines() if not line.startswith("#"))
    )
    return 0


def load(run: Run, words: list[str]) -> int:
    values: dict[str, str] = {}
    clean = False
    problems = ""
    for raw in words:
        w = word(raw)
        if w.bare and first(raw, (("clean", (("clean", 3),)),)):
            clean = True
            continue
        key = "file" if w.bare else first(w.key or "", LOAD_KEYS)
        if key is None:
            problems += f" Unknown option: {raw}\n"
        elif key in values:
            problems += (
                f" File name already set to {values[key]}\n"
                if key == "file"
                else f" Can only do one cluster at a time.  Already doing {values[key]}\n"
            )
        else:
            values[key] = w.raw if w.bare else w.value
    if problems:
        run.err(problems)
        return 1
    if "file" not in values:
        run.err(" No filename given, specify one with file=''\n")
        return 1
    try:
        with open(values["file"], encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        run.err(f' Unable to read "{words[0]}": {exc.strerror}\n')
        return 1
    return _load_text(run, text, values.get("cluster"), clean)


_NOT_KEPT = re.compile(
    r":\s*(DefaultWCKey|WCKeys|Classification)\s*=\s*('[^']*'|\"[^\"]*\"|[^:#]*)", re.I
)
_LINE_ERROR = re.compile(r"line\((\d+)\) (.*)", re.DOTALL)
_CLUSTER_LINE = re.compile(r"^\s*(?:cluster|machine)\s*-\s*['\"]?([^'\":\s]+)", re.I | re.M)
_PARENT_LINE = re.compile(r"^\s*parent\s*-\s*['\"]?([^'\":\s]+)", re.I | re.M)


def _without_unkept(run: Run, text: str) -> str:
    """The file without the options fscli keeps nothing for (WCKeys, a cluster's
    classification), each skipped with a warning naming its line, so that every line a
    real dump writes loads."""
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.lstrip().startswith("#"):
            for found in _NOT_KEPT.finditer(line):
                run.err(
                    f"sacctmgr: line({number}): skipped {found.group(0)[1:].strip()}: "
                    "fscli keeps no WCKeys or cluster classification\n"
                )
            lines[number - 1] = _NOT_KEPT.sub("", line)
    return "\n".join(lines)


def _load_text(run: Run, text: str, cluster: str | None, clean: bool) -> int:
    from fscli.errors import InvalidValue
    from fscli.io import flatfile

    text = _without_unkept(run, text)
    named = _CLUSTER_LINE.search(text)
    try:
        spec = flatfile.parse(text)
    except InvalidValue as exc:
        found = _LINE_ERROR.match(exc.message)
        if named and found and int(found.group(1)) > text[: named.start()].count("\n") + 1:
            run.out(f"For cluster {(cluster or named.group(1)).lower()}\n")
        if found:
            problem = re.sub(r" \(.*\)$", "", found.group(2))
            run.err(
                f" {problem}\n Problem with line({found.group(1)})\n"
                " Problem with requests: Unspecified error\n"
            )
        else:
            run.err(f" {exc.message}\n")
        return 1
    if cluster:
        spec.cluster.name = cluster.lower()
    order = ["root"] + [p.lower() for p in _PARENT_LINE.findall(text) if p.lower() != "root"]

    def body(tx) -> None:
        started = time.monotonic()
        before = tx.view([spec.cluster.name])
        accounts, users = tx.accounts(), tx.users()
        run.out(f"For cluster {spec.cluster.name}\n")
        added = _added(spec, order, before, accounts, users, clean)
        plan = tx.plan_load(spec, clean)
        if not any(added.values()):
            tx.commit(plan)
            run.out(" Nothing new added.\n")
            return
        run.out(_tables(spec, added, clean or not before))
        tx.commit(plan)
        usec = int((time.monotonic() - started) * 1e6)
        run.err(f"sacctmgr: Done adding cluster in usec={usec}\n")

    return run.write(body)


def _added(spec, order: list[str], before, accounts, users, clean: bool) -> dict[str, list]:
    """What the load adds, in the file's order: accounts, account associations, users,
    user associations (after ``clean``, every association but root's is new; accounts
    and users, which outlive a cluster, are new only if the store had none of that name)."""
    # A cluster comes with its root user's association, so clean never lists that one.
    have = (
        {("root", "root", None)}
        if clean
        else {(v.account, v.user, v.assoc.partition) for v in before}
    )
    new_accounts = [a for a in spec.accounts if a not in accounts]
    account_assocs = [a for a in spec.accounts if (a, None, None) not in have]
    new_users = [u for u in spec.users if u not in users]
    by_account: dict[str, list] = {}  # one pass over the users, not one per account
    for u, user in spec.users.items():
        for a in user.associations:
            if (a.account, u, a.partition) not in have:
                by_account.setdefault(a.account, []).append((u, a))
    user_assocs = [pair for account in order for pair in by_account.get(account, ())]
    return {
        "accounts": new_accounts,
        "account_assocs": account_assocs,
        "users": new_users,
        "user_assocs": user_assocs,
    }


def _tables(spec, added: dict[str, list], new_cluster: bool) -> str:
    from fscli.cli.sacctmgr.columns import columns, format_items

    out = ""
    assoc_cols = columns(format_items([ASSOC_FORMAT]))
    if new_cluster:
        root_cols = columns(["Account", "ParentName"]) + assoc_cols
        out += table(root_cols, [["root", ""] + _assoc_cells(assoc_cols, spec.cluster)], None)
        out += ASSOC_RULE
    if added["accounts"]:
        cols = columns(["Name", "Description", "Organization", "QOS"])
        out += (
            "Accounts\n"
            + table(
                cols,
                [
                    [a, spec.accounts[a].description, spec.accounts[a].organization, ""]
                    for a in added["accounts"]
                ],
                None,
            )
            + RULE
        )
    if added["account_assocs"]:
        cols = columns(["Account", "ParentName"]) + assoc_cols
        rows = [
            [a, spec.accounts[a].parent] + _assoc_cells(assoc_cols, spec.accounts[a])
            for a in added["account_assocs"]
        ]
        out += "Account Associations\n" + table(cols, rows, None) + ASSOC_RULE
    if added["users"]:
        cols = columns(["Name", "DefaultA", "DefaultW", "QOS", "Admin", "Coord"])
        rows = [
            [
                u,
                spec.users[u].default_account,
                "",
                "",
                spec.users[u].admin_level if spec.users[u].admin_level != "None" else "Not Set",
                ",".join(spec.users[u].coordinator_of),
            ]
            for u in added["users"]
        ]
        out += "Users\n" + table(cols, rows, None) + RULE
    if added["user_assocs"]:
        cols = columns(["User", "Account"]) + assoc_cols
        rows = [[u, a.account] + _assoc_cells(assoc_cols, a) for u, a in added["user_assocs"]]
        out += "User Associations\n" + table(cols, rows, None) + ASSOC_RULE
    return out


def _assoc_cells(cols: list[Column], settings) -> list[str]:
    """An association of the file (its own settings, nothing inherited) as cells."""
    from fscli.cli.sacctmgr.columns import LIMITS, SINGLE
    from fscli.engine.model import SHARES_PARENT
    from fscli.render.sacctmgr import limit_text

    cells = []
    for col in cols:
        if col.title == "Share":
            cells.append("parent" if settings.shares == SHARES_PARENT else str(settings.shares))
        elif col.title in LIMITS:
            name = LIMITS[col.title]
            cells.append(limit_text(name, settings.limits.get(name)))
        elif col.title in SINGLE:
            name, tres = SINGLE[col.title]
            cells.append(str((settings.limits.get(name) or {}).get(tres, "")))
        elif col.title == "QOS":
            cells.append(",".join(settings.qos))
        elif col.title == "Def QOS":
            cells.append(settings.default_qos or "")
        else:
            cells.append("")
    return cells
