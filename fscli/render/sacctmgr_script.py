"""A tree plan said in sacctmgr's words: the script that brings a live cluster there.

``fscli apply TREE.yaml --emit sacctmgr`` (and ``load ... --emit sacctmgr``) renders the
very :class:`~fscli.engine.treediff.Plan` that ``apply`` commits, as ``sacctmgr -i``
command lines, each argument quoted for a POSIX shell. The order is the one in which real
sacctmgr 22.05 accepts every line (tested on a live slurmdbd, ``tests/live``):

1. QOS added and modified (associations may name them next);
2. where an account's new DefaultQOS needs it, its users' own QOS lists widened first
   (sacctmgr takes back, exit code 0, an account DefaultQOS a user's own list lacks);
3. the root association, then accounts in the new tree's order, parents before children:
   added, moved (``set parent=``) and modified; in the new tree's order a new parent is
   already where it ends up, never below the account it takes in;
4. users' associations added (a new user's first line is its default account's, with
   ``defaultaccount=``) and modified;
5. default accounts moved and admin levels set, before any association is deleted:
   sacctmgr deletes a user's default association silently when it is the only one a
   command deletes, and leaves the user with none (``DefaultAccount='(null)'``);
6. coordinators added and removed;
7. deletions: user associations one per line, a user's default one alone and last
   (slurmdbd refuses a delete that takes a default association along with any other),
   then accounts leaves first (sacctmgr deletes an account's whole subtree, so a parent
   first would leave its children's lines nothing to delete), then QOS.

Every line that names an association says ``cluster=`` (and ``partition=''`` for one
without a partition, which sacctmgr otherwise reads as all of the account's): a script
for one cluster never touches another's associations. Users, accounts and QOS are global
in Slurm: a user or account leaving this cluster loses only this cluster's associations
while another cluster has it, and the plan only removes a QOS nothing else uses
(``Plan.kept``). The records an account or user has elsewhere (``Plan.records``) decide
whether an added one's texts or admin level need a line of their own, as sacctmgr's
``add`` keeps an existing record's, and whether a leaving one's record goes too.

What sacctmgr does not hold (partitions, priority settings: slurm.conf; a cluster's size)
is listed as comments at the end. A plan that changes nothing renders as nothing.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import SHARES_PARENT
from fscli.engine.treediff import Change, Plan
from fscli.engine.treespec import ROOT, AssocSettings, QosSpec, UserAssocSpec
from fscli.engine.tres import format_tres

CLEAR = "-1"
"""What sacctmgr takes to unset a limit, a priority or a DefaultQOS."""
NOT_SACCTMGR = ("partition", "priority")
"""Kinds of change that live in slurm.conf, not in the accounting database."""
CLUSTER_SIZE = ("nodes", "cpus", "tres")


@dataclass(frozen=True)
class Command:
    """One sacctmgr call: its words after ``sacctmgr -i``, and the plan change it says."""

    words: tuple[str, ...]
    change: Change

    @property
    def argv(self) -> list[str]:
        return ["sacctmgr", "-i", *self.words]

    def line(self) -> str:
        return " ".join(_quote(word) for word in self.argv)


@dataclass
class Script:
    """The commands of a plan in the order they must run, and what sacctmgr cannot do."""

    cluster: str
    commands: list[Command]
    not_sacctmgr: list[Change]
    kept: list[str]

    def text(self) -> str:
        """The script as shell lines; the empty string for a plan that changes nothing."""
        lines = [command.line() for command in self.commands]
        lines += [f"# not sacctmgr's (slurm.conf): {c.text()}" for c in self.not_sacctmgr]
        lines += [f"# {line}" for line in self.kept]
        return "".join(line + "\n" for line in lines)

    def as_json(self) -> dict[str, Any]:
        """The plan's operations, each with the sacctmgr commands that carry it out."""
        operations: list[dict[str, Any]] = []
        index: dict[int, dict[str, Any]] = {}
        for command in self.commands:
            op = index.get(id(command.change))
            if op is None:
                op = index[id(command.change)] = _operation(command.change)
                operations.append(op)
            op["commands"].append(command.argv)
        return {
            "cluster": self.cluster,
            "operations": operations,
            "not_sacctmgr": [_operation(c) for c in self.not_sacctmgr],
            "kept": list(self.kept),
        }


def _operation(change: Change) -> dict[str, Any]:
    return {
        "op": change.op,
        "kind": change.kind,
        "name": change.name,
        "changes": [
            {"field": k, "old": old, "new": new}
            for k, old, new in change.diff
            if change.op != "+" or new not in ("-", "")  # an add's unset fields: none
        ],
        "commands": [],
    }


def _quote(word: str) -> str:
    """``key=value`` with the value quoted for the shell (``Description='Big Lab'``)."""
    key, sep, value = word.partition("=")
    if sep and shlex.quote(key) == key:
        return f"{key}={shlex.quote(value) if value else chr(39) * 2}"
    return shlex.quote(word)


def script(plan: Plan) -> Script:
    """The sacctmgr commands that carry out ``plan``, in the order they must run."""
    return _Renderer(plan).render()


class _Renderer:
    def __init__(self, plan: Plan):
        self.plan = plan
        self.cluster = plan.spec.cluster.name
        self.out: list[Command] = []
        self.by: dict[tuple[str, str], list[Change]] = {}
        for change in plan.changes:
            self.by.setdefault((change.op, change.kind), []).append(change)

    def emit(self, change: Change, *words: str) -> None:
        self.out.append(Command(tuple(words), change))

    def modify(self, change: Change, entity: str, where: list[str], words: list[str]) -> None:
        """``modify ENTITY where ... set ...``, unless there is nothing to set."""
        if words:
            self.emit(change, "modify", entity, "where", *where, "set", *words)

    def delete(self, change: Change, entity: str, where: list[str]) -> None:
        self.emit(change, "delete", entity, "where", *where)

    def render(self) -> Script:
        if self.plan.clean:  # load ... clean: what the cluster had goes, then comes back
            self.deletions()
        self.qos()
        self.widen_user_lists()
        self.accounts()
        self.user_assocs()
        self.user_settings()
        self.coordinators()
        if not self.plan.clean:
            self.deletions()
        size = [c for c in self.by.get(("~", "cluster"), []) if _size_only(c)]
        skipped = [c for c in self.plan.changes if c.kind in NOT_SACCTMGR] + size
        return Script(self.cluster, self.out, skipped, list(self.plan.kept))

    # ------------------------------------------------------------ 1. QOS
    def qos(self) -> None:
        for change in self.by.get(("+", "qos"), []):
            self.emit(change, "add", "qos", change.name, *_qos_words(change.item, None))
        for change in self.by.get(("~", "qos"), []):
            words = _qos_words(change.item, _changed(change))
            self.modify(change, "qos", [f"name={change.name}"], words)

    # ------------------------------------------------------------ 2. accounts
    def widen_user_lists(self) -> None:
        """sacctmgr takes back an account's new DefaultQOS (exit code 0, a message on
        stderr) while a user association of the account has a QOS list of its own
        without it. Such a list first takes that QOS (and the plan's new list, which
        also keeps the old DefaultQOS allowed) where the plan gives the list the QOS or
        removes the association later; the user's own line then sets the planned list."""
        defaults = {
            c.name: c.item.default_qos
            for c in self.by.get(("~", "account"), [])
            if "default_qos" in _changed(c) and c.item.default_qos
        }
        if not defaults:
            return
        for change in [*self.by.get(("~", "assoc"), []), *self.by.get(("-", "assoc"), [])]:
            uname, assoc = change.item
            wanted = defaults.get(assoc.account)
            old = _old_list(change, "qos") if change.op == "~" else assoc.qos
            new = assoc.qos if change.op == "~" else [wanted]
            if wanted and old and wanted not in old and wanted in new:
                both = ",".join(sorted({*old, *new}))
                self.modify(change, "user", self.assoc_where(uname, assoc), [f"qos={both}"])

    def accounts(self) -> None:
        where = f"cluster={self.cluster}"
        root = [f"name={ROOT}", where]
        for change in self.by.get(("+", "cluster"), []):  # with its root association
            self.emit(change, "add", "cluster", self.cluster)
            self.modify(change, "account", root, _assoc_words(change.item, None))
        for change in self.by.get(("~", "cluster"), []):
            self.modify(change, "account", root, _assoc_words(change.item, _changed(change)))
        changes = {c.name: c for op in "+~" for c in self.by.get((op, "account"), [])}
        for name in self.plan.spec.account_order()[1:]:
            found = changes.get(name)
            if found is None:
                continue
            change = found
            acct = change.item
            texts = [f"description={acct.description}", f"organization={acct.organization}"]
            if change.op == "+":
                self.emit(
                    change,
                    "add",
                    "account",
                    name,
                    where,
                    f"parent={acct.parent}",
                    *texts,
                    *_assoc_words(acct, None),
                )
                stored = self.stored("account", name)
                if stored is not None and stored != {
                    "description": acct.description,
                    "organization": acct.organization,
                }:  # sacctmgr keeps an existing account's texts
                    self.modify(change, "account", [f"name={name}"], texts)
                continue
            changed = _changed(change)
            words = [f"parent={acct.parent}"] if "parent" in changed else []
            words += _assoc_words(acct, changed)
            self.modify(change, "account", [f"name={name}", where], words)
            texts = [w for w in texts if w.partition("=")[0] in changed]
            self.modify(change, "account", [f"name={name}"], texts)

    # ------------------------------------------------------------ 3. associations
    def user_assocs(self) -> None:
        new_users = {c.name: c.item for c in self.by.get(("+", "user"), [])}
        added = self.by.get(("+", "assoc"), [])
        firsts: dict[str, Change] = {}  # a new user -> its default account's association
        for change in added:
            uname, assoc = change.item
            user = new_users.get(uname)
            if user is not None and uname not in firsts and assoc.account == user.default_account:
                firsts[uname] = change
        for uname, change in firsts.items():
            user = new_users[uname]
            level = (
                []
                if self.stored("user", uname) or user.admin_level == "None"
                else [f"adminlevel={user.admin_level}"]
            )
            self.add_assoc(change, f"defaultaccount={user.default_account}", *level)
        for change in added:
            if firsts.get(change.item[0]) is not change:
                self.add_assoc(change)
        for change in self.by.get(("~", "assoc"), []):
            uname, assoc = change.item
            words = _assoc_words(assoc, _changed(change))
            self.modify(change, "user", self.assoc_where(uname, assoc), words)

    def stored(self, kind: str, name: str) -> dict[str, str] | None:
        """The global record of an account or user the plan adds to or removes from the
        cluster, as the store holds it, if another cluster has it too; else None."""
        return self.plan.records.get((kind, name))

    def add_assoc(self, change: Change, *extra: str) -> None:
        uname, assoc = change.item
        self.emit(
            change,
            "add",
            "user",
            uname,
            f"account={assoc.account}",
            *([f"partition={assoc.partition}"] if assoc.partition else []),
            f"cluster={self.cluster}",
            *extra,
            *_assoc_words(assoc, None),
        )

    def assoc_where(self, uname: str, assoc: UserAssocSpec) -> list[str]:
        """The words that pick exactly this association (``partition=`` with no value picks
        the one without a partition, not all of the account's)."""
        return [
            f"name={uname}",
            f"account={assoc.account}",
            f"partition={assoc.partition or ''}",
            f"cluster={self.cluster}",
        ]

    # ------------------------------------------------------------ 4. defaults, admin level
    def user_settings(self) -> None:
        for change in self.by.get(("~", "user"), []):
            changed = _changed(change)
            if "default_account" in changed:
                where = [f"name={change.name}", f"cluster={self.cluster}"]
                self.modify(
                    change, "user", where, [f"defaultaccount={change.item.default_account}"]
                )
            if "admin_level" in changed:
                self.admin_level(change)
        for change in self.by.get(("+", "user"), []):
            stored = self.stored("user", change.name)
            if stored and change.item.admin_level != stored["admin_level"]:
                self.admin_level(change)  # sacctmgr's add keeps an existing user's

    def admin_level(self, change: Change) -> None:
        self.modify(
            change, "user", [f"name={change.name}"], [f"adminlevel={change.item.admin_level}"]
        )

    # ------------------------------------------------------------ 5. coordinators
    def coordinators(self) -> None:
        for op in "+~":
            for change in self.by.get((op, "user"), []):
                old = _old_list(change, "coordinator_of") if op == "~" else []
                new = change.item.coordinator_of
                for acct in new:
                    if acct not in old:
                        self.emit(
                            change, "add", "coordinator", f"names={change.name}", f"accounts={acct}"
                        )
                for acct in old:
                    if acct not in new:
                        self.delete(
                            change, "coordinator", [f"names={change.name}", f"accounts={acct}"]
                        )

    # ------------------------------------------------------------ 6. deletions
    def deletions(self) -> None:
        """User associations one by one, a user's default one alone and last (sacctmgr
        refuses a delete that takes a default association along with any other), accounts
        leaves first, QOS. A user or account that no other cluster has loses its record
        too (the global delete, as the store drops it), else only this cluster's rows."""
        where = f"cluster={self.cluster}"
        leaving = {c.name: c for c in self.by.get(("-", "user"), [])}
        last: dict[str, Change] = {}  # a leaving user -> its default association's removal
        for change in self.by.get(("-", "assoc"), []):
            uname, assoc = change.item
            user = leaving.get(uname)
            if (
                user is not None
                and uname not in last
                and assoc.account == user.item.default_account
            ):
                last[uname] = change
                continue
            self.delete(change, "user", self.assoc_where(uname, assoc))
        for uname, change in leaving.items():
            if self.stored("user", uname) is None:
                self.delete(change, "user", [f"name={uname}"])
            elif uname in last:
                self.delete(last[uname], "user", self.assoc_where(*last[uname].item))
        for change in self.by.get(("-", "account"), []):  # leaves first (the plan's order)
            scope = [where] if self.stored("account", change.name) else []
            self.delete(change, "account", [f"name={change.name}", *scope])
        for change in self.by.get(("-", "qos"), []):
            self.delete(change, "qos", [f"name={change.name}"])


def _changed(change: Change) -> dict[str, str]:
    """Field -> old text of a ``~`` change."""
    return {k: old for k, old, _ in change.diff}


def _old_list(change: Change, key: str) -> list[str]:
    old = _changed(change).get(key, "-")
    return [] if old == "-" else old.split(",")


def _size_only(change: Change) -> bool:
    return any(k in CLUSTER_SIZE for k, _, _ in change.diff)


def _limit_word(defn, value: Any, old: str | None) -> str:
    """``Name=value``; unset: ``-1``. A TRES limit is a list sacctmgr merges into the one
    stored: each TRES it no longer has is cleared by name (``cpu=8,mem=-1``); there is
    no ``-1`` for the whole list."""
    if defn.kind not in ("tres", "tres_mins"):
        text = CLEAR if value is None else limitdefs.format_limit(defn, value)
        return f"{defn.name}={text}"
    have = value or {}
    gone = [p.partition("=")[0] for p in (old or "").split(",") if "=" in p]
    parts = [format_tres(have, units=False)] if have else []  # MB: sacctmgr refuses 62.50G
    parts += [f"{name}={CLEAR}" for name in gone if name not in have]
    return f"{defn.name}={','.join(parts)}"


def _assoc_words(item: AssocSettings, changed: dict[str, str] | None) -> list[str]:
    """An association's settings as ``key=value`` words: those set (``changed`` None: an
    add), or those ``changed`` names, unset ones cleared."""

    def wanted(key: str) -> bool:
        return key in changed if changed is not None else False

    words = []
    if wanted("fairshare") or (changed is None and item.shares != 1):
        words.append(f"fairshare={'parent' if item.shares == SHARES_PARENT else item.shares}")
    if wanted("qos") or (changed is None and item.qos):
        words.append(f"qos={','.join(item.qos)}")
    if wanted("default_qos") or (changed is None and item.default_qos):
        words.append(f"defaultqos={item.default_qos or CLEAR}")
    if wanted("priority") or (changed is None and item.priority is not None):
        words.append(f"priority={CLEAR if item.priority is None else item.priority}")
    for defn in limitdefs.ASSOC_LIMITS:
        value = item.limits.get(defn.name)
        if wanted(defn.name) or (changed is None and value is not None):
            words.append(_limit_word(defn, value, (changed or {}).get(defn.name)))
    return words


def _qos_words(qos: QosSpec, changed: dict[str, str] | None) -> list[str]:
    """A QOS's settings as words: its description and what differs from sacctmgr's
    defaults (an add), or those ``changed`` names."""
    defaults = QosSpec(name=qos.name)

    def wanted(key: str) -> bool:
        if changed is not None:
            return key in changed
        # sacctmgr's add describes a QOS by its name unless told: always told
        return key == "description" or getattr(qos, key) != getattr(defaults, key)

    words = []
    if wanted("description"):
        words.append(f"description={qos.description}")
    if wanted("priority"):
        words.append(f"priority={qos.priority}")
    if wanted("flags"):
        words.append(f"flags={','.join(qos.flags) or CLEAR}")
    for key, word in (("usage_factor", "usagefactor"), ("limit_factor", "limitfactor")):
        if wanted(key):
            value = getattr(qos, key)
            words.append(f"{word}={CLEAR if value is None else _number(value)}")
    if wanted("usage_threshold"):
        value = qos.usage_threshold
        words.append(f"usagethreshold={CLEAR if value is None else _number(value)}")
    if wanted("grace_time"):
        words.append(f"gracetime={qos.grace_time or 0}")
    for defn in limitdefs.QOS_LIMITS:
        value = qos.limits.get(defn.name)
        if (changed is not None and defn.name in changed) or (
            changed is None and value is not None
        ):
            words.append(_limit_word(defn, value, (changed or {}).get(defn.name)))
    return words


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))
