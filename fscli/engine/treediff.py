"""The pure part of trees as code: diff a desired :class:`TreeSpec` against the current one.

:func:`diff` turns (current state, desired state) into a :class:`Plan` of changes (``+``
add, ``~`` change with old -> new, ``-`` remove, the last only with ``prune``), checking
the desired tree first: QOS and partitions it uses must be defined, and, merged with what
the store keeps, it must stay consistent. It works on plain data, so it is tested without
a database; the store (:mod:`fscli.store.tree_plan`) reads the current state, adds what
only the database knows (which QOS other clusters or jobs still use, the ids of the rows
a plan removes) and writes the plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import PARTITION_SETTINGS, Partition
from fscli.engine.timestr import format_mins
from fscli.engine.treespec import (
    QOS_FIELDS,
    ROOT,
    AssocSettings,
    ClusterSpec,
    QosSpec,
    TreeSpec,
    UserAssocSpec,
)
from fscli.engine.tres import format_tres
from fscli.errors import Conflict, InvalidValue


def diff(
    current: TreeSpec,
    spec: TreeSpec,
    *,
    exists: bool,
    prune: bool = False,
    create_missing: bool = False,
    clean: bool = False,
) -> Plan:
    """Check ``spec`` and diff it against ``current`` (the cluster as stored, or, when it
    does not ``exist`` yet, a bare cluster with the store's QOS) into a plan.

    ``create_missing`` (flat-file loads, which cannot define QOS or partitions): QOS
    and partitions the tree names but the store lacks are added with default settings,
    and the cluster keeps its nodes, CPUs and TRES, which the file does not carry.
    ``clean`` (``load ... clean``): every account, user and association of the cluster
    is removed first, then the tree's are added, in one plan. Without ``prune``, what
    the file leaves out stays as it is: ``spec`` takes it over from ``current``.
    """
    used = _used_by_associations(spec)  # what follows changes none of them
    if create_missing:
        _add_missing(spec, current, used)
        _keep_cluster_size(spec.cluster, current.cluster)
    if not prune:  # what the file leaves out stays as it is
        for name, qos in current.qos.items():
            spec.qos.setdefault(name, qos)
        for name, part in current.partitions.items():
            spec.partitions.setdefault(name, part)
        for key, value in current.priority.items():
            spec.priority.setdefault(key, value)
    _check_references(spec, used)
    changes: list[Change] = []
    for kind, old, new in (
        ("qos", current.qos, spec.qos),
        ("partition", current.partitions, spec.partitions),
        ("priority", current.priority, spec.priority),
    ):
        for name in sorted(set(old) | set(new)):
            change = _compare(kind, name, old.get(name), new.get(name))
            if change:
                changes.append(change)
    change = _compare(
        "cluster", spec.cluster.name, current.cluster if exists else None, spec.cluster
    )
    if change:
        changes.append(change)
    if clean:
        current, wiped = TreeSpec(cluster=current.cluster), current
        changes += _removals(wiped, current)
    changes += _tree_changes(current, spec, prune)
    return Plan(spec, changes, exists, clean)


def _keep_cluster_size(cluster: ClusterSpec, current: ClusterSpec) -> None:
    """The cluster's nodes, CPUs and TRES as ``current`` has them: a flat file's
    ``Cluster -`` line carries none of them (sacctmgr keeps no cluster size), so loading
    one, even the cluster's own dump, leaves them."""
    cluster.nodes, cluster.cpus, cluster.tres = current.nodes, current.cpus, dict(current.tres)


def _show(value: Any) -> str:
    if value is None or value == [] or value == {}:
        return "-"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def _settings_fields(item: AssocSettings) -> dict[str, str]:
    out = {
        "fairshare": "parent" if item.shares_parent else str(item.shares),
        "qos": _show(item.qos),
        "default_qos": _show(item.default_qos),
        "priority": _show(item.priority),
    }
    for defn in limitdefs.ASSOC_LIMITS if item.limits else ():
        if defn.name in item.limits:
            out[defn.name] = limitdefs.format_limit(defn, item.limits[defn.name])
    return out


def _fields(kind: str, item: Any) -> dict[str, str]:
    """What the plan compares and shows, as text, per kind of object."""
    if kind == "account":
        return {
            "parent": item.parent,
            "description": item.description,
            "organization": item.organization,
            **_settings_fields(item),
        }
    if kind == "cluster":
        return {
            "nodes": _show(item.nodes),
            "cpus": _show(item.cpus),
            "tres": format_tres(item.tres) if item.tres else "-",
            **_settings_fields(item),
        }
    if kind == "assoc":
        return _settings_fields(item)
    if kind == "user":
        return {
            "default_account": item.default_account,
            "admin_level": item.admin_level,
            "coordinator_of": _show(item.coordinator_of),
        }
    if kind == "qos":
        out = {k: _show(getattr(item, k)) for k in QOS_FIELDS}
        for defn in limitdefs.QOS_LIMITS:
            if defn.name in item.limits:
                out[defn.name] = limitdefs.format_limit(defn, item.limits[defn.name])
        return out
    if kind == "partition":
        out = {k: _show(getattr(item, k)) for k in PARTITION_SETTINGS}
        out["tres"] = format_tres(item.tres) if item.tres else "-"
        out["max_time"] = format_mins(item.max_time) if item.max_time is not None else "-"
        return out
    return {"value": item}  # priority setting


@dataclass
class Change:
    op: str  # "+", "~", "-"
    kind: str  # qos, partition, priority, cluster, account, user, assoc
    name: str
    diff: list[tuple[str, str, str]] = field(default_factory=list)  # (field, old, new)
    item: Any = None  # the spec object (add/change)
    _detail: str | None = field(default=None, repr=False, compare=False)

    def detail(self) -> str:
        """The diff as text (shown in the plan and kept in the history record)."""
        if self._detail is None:
            if self.op == "~":
                self._detail = " ".join(f"{k}: {old} -> {new}" for k, old, new in self.diff)
            elif self.op == "+":
                self._detail = " ".join(
                    f"{k}={new}" for k, _, new in self.diff if new not in ("-", "")
                )
            else:
                self._detail = ""
        return self._detail

    def text(self) -> str:
        detail = self.detail()
        return f"{self.op} {self.kind} {self.name}" + (f": {detail}" if detail else "")


def _added(kind: str, name: str, new: Any) -> Change:
    return Change("+", kind, name, [(k, "", v) for k, v in _fields(kind, new).items()], new)


def _compare(kind: str, name: str, old: Any, new: Any) -> Change | None:
    """The change turning ``old`` into ``new`` (either may be None), or None if equal."""
    if old == new:
        return None
    if old is None:
        return _added(kind, name, new)
    if new is None:
        return Change("-", kind, name, [], old)
    before, after = _fields(kind, old), _fields(kind, new)
    diff = [(k, before.get(k, "-"), v) for k, v in after.items() if before.get(k, "-") != v]
    diff += [(k, v, "-") for k, v in before.items() if k not in after and v != "-"]
    return Change("~", kind, name, diff, new) if diff else None


@dataclass
class Plan:
    spec: TreeSpec
    changes: list[Change]
    cluster_exists: bool
    clean: bool = False  # every association of the cluster is removed, then re-added
    removed_assoc_ids: list[int] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # what pruning leaves, and why
    # (kind, name) -> fields of the global record ("account": description, organization;
    # "user": admin_level) of an account or user the plan adds to or removes from this
    # cluster that another cluster also has: read only for a sacctmgr script
    # (store.tree_plan.read_records)
    records: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        out = {"+": 0, "~": 0, "-": 0}
        for change in self.changes:
            out[change.op] += 1
        return out


def _assoc_name(user: str, assoc: UserAssocSpec) -> str:
    return f"{user}/{assoc.account}" + (f"/{assoc.partition}" if assoc.partition else "")


def _compare_assoc(
    user: str, old: UserAssocSpec | None, new: UserAssocSpec, added: dict[tuple, Change]
) -> Change | None:
    """:func:`_compare` of a user association of ``user``, whose item is (user, the
    association). An added one's diff and its text are those of the first one ``added``
    with the same settings (a tree of 100,000 has a handful of kinds): made once, shared
    (a change's diff is only read)."""
    name = _assoc_name(user, new)
    if old is not None or new.limits:
        change = _compare("assoc", name, old, new)
        if change:
            change.item = (user, new)
        return change
    settings = (new.shares, new.default_qos, new.priority, *new.qos)
    first = added.get(settings)
    if first is None:
        first = added[settings] = _added("assoc", name, new)
    return Change("+", "assoc", name, first.diff, (user, new), first.detail())


def _tree_changes(current: TreeSpec, spec: TreeSpec, prune: bool) -> list[Change]:
    changes: list[Change] = []
    for name in spec.account_order()[1:]:
        change = _compare("account", name, current.accounts.get(name), spec.accounts[name])
        if change:
            changes.append(change)
    # users whose settings and associations are all unchanged: most of a re-apply, where
    # the store's read hands back the tree's own object for each (a test of identity
    # each, and no sort of their names: 50,000 users, 40 ms less)
    old_users = current.users
    same = {uname for uname, user in spec.users.items() if old_users.get(uname) is user}
    added: dict[tuple, Change] = {}  # settings -> the first association added with them
    for uname in sorted(spec.users.keys() - same):
        user = spec.users[uname]
        old_user = old_users.get(uname)
        if old_user is None:  # most of a first apply: the user and all its associations
            change = _added("user", uname, user)
            old_assocs = {}
        elif old_user == user:  # nothing to look into
            same.add(uname)
            continue
        else:
            change = _compare("user", uname, old_user, user)
            old_assocs = {a.key: a for a in old_user.associations}
        if change:
            changes.append(change)
        for assoc in user.associations:
            old = old_assocs.get(assoc.key) if old_assocs else None
            change = _compare_assoc(uname, old, assoc, added)
            if change:
                changes.append(change)
    if not prune:
        merged = False  # the file alone was checked when it was read
        for uname, user in current.users.items():  # users must keep a valid default account
            if uname not in spec.users:
                spec.users[uname] = user
                merged = True
        for name, acct in current.accounts.items():
            if name not in spec.accounts:
                spec.accounts[name] = acct
                merged = True
        for uname in current.users.keys() - same:
            new_keys = {a.key for a in spec.users[uname].associations}
            kept = [a for a in current.users[uname].associations if a.key not in new_keys]
            if kept:
                spec.users[uname].associations += kept
                merged = True
        if merged:
            _check_tree(spec)
        return changes
    return changes + _removals(current, spec)


def _removals(current: TreeSpec, spec: TreeSpec) -> list[Change]:
    """Removing the user associations, users and accounts (leaves first) ``spec`` lacks."""
    changes: list[Change] = []
    for uname in sorted(current.users):
        new_keys = {a.key for a in spec.users[uname].associations} if uname in spec.users else set()
        for assoc in current.users[uname].associations:
            if assoc.key not in new_keys:
                changes.append(Change("-", "assoc", _assoc_name(uname, assoc), [], (uname, assoc)))
        if uname not in spec.users:
            changes.append(Change("-", "user", uname, [], current.users[uname]))
    for name in reversed(current.account_order()[1:]):
        if name not in spec.accounts:
            changes.append(Change("-", "account", name, [], current.accounts[name]))
    return changes


def _check_tree(spec: TreeSpec) -> None:
    """A merged tree (file + what the store keeps) must still be consistent."""
    problems = spec.problems()
    if problems:
        first = problems[0]
        raise Conflict(
            f"{'.'.join(map(str, first.path))}: {first.message} "
            "(with the store's other accounts and users; use --prune?)"
        )


def referenced(spec: TreeSpec) -> tuple[set[str], set[str]]:
    """(QOS names, partition names) the tree uses."""
    return _with_partitions(spec, _used_by_associations(spec))


def _with_partitions(spec: TreeSpec, used: tuple[set[str], set[str]]) -> tuple[set[str], set[str]]:
    """:func:`referenced`, given what the associations use (``used``)."""
    return used[0] | {p.qos for p in spec.partitions.values() if p.qos}, used[1]


def _used_by_associations(spec: TreeSpec) -> tuple[set[str], set[str]]:
    """(QOS names, partition names) the cluster's, accounts' and users' associations use:
    one pass over 100,000 of them, made once per plan."""
    qos: set[str] = set()
    parts: set[str] = set()
    items: list[AssocSettings] = [spec.cluster, *spec.accounts.values()]
    for user in spec.users.values():
        items += user.associations
    for item in items:
        if item.qos:  # most have none: no generator for them
            qos.update(q.lstrip("+-") for q in item.qos)
        if item.default_qos:
            qos.add(item.default_qos)
        if item.__class__ is UserAssocSpec and item.partition:
            parts.add(item.partition)
    return qos, parts


def _add_missing(spec: TreeSpec, current: TreeSpec, used: tuple[set[str], set[str]]) -> None:
    qos, parts = _with_partitions(spec, used)
    for name in qos - set(spec.qos) - set(current.qos):
        spec.qos[name] = QosSpec(name=name)
    for name in parts - set(spec.partitions) - set(current.partitions):
        spec.partitions[name] = Partition(name=name)


def _check_references(spec: TreeSpec, used: tuple[set[str], set[str]]) -> None:
    qos, parts = _with_partitions(spec, used)
    for kind, names, known in (("QOS", qos, spec.qos), ("partition", parts, spec.partitions)):
        missing = sorted(names - set(known))
        if missing:
            raise InvalidValue(
                f"{kind} '{missing[0]}' is used but not defined: add it under "
                f"{'qos' if kind == 'QOS' else 'partitions'}:"
            )
    for uname, user in spec.users.items():
        for acct in user.coordinator_of:
            if acct != ROOT and acct not in spec.accounts:
                raise InvalidValue(
                    f"user '{uname}' coordinates account '{acct}', which does not exist"
                )


def sets_qos(change: Change) -> bool:
    """Whether a change writes an association's QOS list or DefaultQOS."""
    return (
        change.kind in ("cluster", "account", "assoc")
        and change.op != "-"
        and any(key in ("qos", "default_qos") for key, _, _ in change.diff)
    )
