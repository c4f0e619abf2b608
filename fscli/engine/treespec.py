"""A whole cluster's accounting tree as plain data.

:class:`TreeSpec` is the common currency of the tree formats: the YAML tree
(:mod:`fscli.io.yamltree`), sacctmgr dump/load flat files (:mod:`fscli.io.flatfile`),
and the store's apply/export. It holds *desired state*, not changes: a limit that is
absent is unset, ``shares`` is always a number (``SHARES_PARENT`` for
``FairShare=parent``).

Conventions (the same as :mod:`fscli.engine.model`):

- limits are dicts keyed by the canonical names of :mod:`fscli.engine.limits.definitions`
  (``"GrpTRES"``, ``"MaxWallDurationPerJob"``...); TRES limits are ``dict[str, int]``
  with memory in MB, wall limits are minutes, counts are ints;
- ``qos`` lists are sorted; an item may carry a ``+``/``-`` prefix, which is how
  Slurm records a user association's change relative to its parent's list
  (``QOS='-qhigh'`` in a dump);
- collections are dicts keyed by name; writers iterate them sorted, so output never
  depends on insertion order;
- partitions are the engine's :class:`~fscli.engine.model.Partition`;
- the ``root`` account is implicit: its association's settings live on
  :class:`ClusterSpec`; top-level accounts have ``parent == "root"`` and users may
  hold associations with account ``root``.

Loaders fill Slurm's defaults (description = name, organization = parent or name,
default account = first association), so consumers never see "unset" for those.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import SHARES_PARENT, Partition
from fscli.errors import InvalidValue, did_you_mean

ROOT = "root"
ADMIN_LEVELS = ("None", "Operator", "Administrator")
QOS_FLAGS = (
    "DenyOnLimit",
    "EnforceUsageThreshold",
    "NoDecay",
    "NoReserve",
    "OverPartQOS",
    "PartitionMaxNodes",
    "PartitionMinNodes",
    "PartitionTimeLimit",
    "RequiresReservation",
    "UsageFactorSafe",
)
MAX_SHARES = SHARES_PARENT - 1
"""The largest FairShare number: the next one is how Slurm stores ``parent``."""


@dataclass(kw_only=True)
class AssocSettings:
    """What every association carries: root (cluster), account, or user association."""

    shares: int = 1
    limits: dict[str, Any] = field(default_factory=dict)
    qos: list[str] = field(default_factory=list)
    default_qos: str | None = None
    priority: int | None = None

    def __post_init__(self) -> None:
        self.qos = sorted(self.qos) if self.qos else []  # most set none: 45 ns less each

    @property
    def shares_parent(self) -> bool:
        return self.shares == SHARES_PARENT


@dataclass(kw_only=True)
class ClusterSpec(AssocSettings):
    """The cluster and its root association (the ``Cluster - 'name'`` line)."""

    name: str
    nodes: int | None = None
    cpus: int | None = None
    tres: dict[str, int] = field(default_factory=dict)


@dataclass(kw_only=True)
class AccountSpec(AssocSettings):
    """An account and its association (one cluster, so one association per account)."""

    name: str
    parent: str = ROOT
    description: str = ""
    organization: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        # sacctmgr's defaults (`_set_acct_up` in src/sacctmgr/file_functions.c), of the
        # names as stored: in lower case (lower_names)
        self.description = self.description or self.name.lower()
        self.organization = self.organization or default_organization(
            self.name.lower(), self.parent.lower()
        )


@dataclass(kw_only=True)
class UserAssocSpec(AssocSettings):
    """One association of a user: an account and optionally a partition."""

    account: str
    partition: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        """Sort/identity key: plain association before partition ones."""
        return (self.account, self.partition or "")


_ASSOC_KEY = vars(UserAssocSpec)["key"].fget
"""UserAssocSpec.key as a plain function: the sort key of every user's associations
(100,000 in a big tree: half the cost of a lambda that reads the property)."""


NO_DEFAULT = "(null)"
"""A user's ``default_account`` on a cluster where it has none (its default's association
was deleted, as sacctmgr allows): what ``sacctmgr dump`` writes for it."""


@dataclass(kw_only=True)
class UserSpec:
    name: str
    default_account: str = ""
    admin_level: str = "None"
    coordinator_of: list[str] = field(default_factory=list)
    associations: list[UserAssocSpec] = field(default_factory=list)

    def __post_init__(self) -> None:
        # sacctmgr: with no DefaultAccount the first account given becomes the default
        if not self.default_account and self.associations:
            self.default_account = self.associations[0].account
        self.associations.sort(key=_ASSOC_KEY)
        self.coordinator_of = sorted(set(self.coordinator_of)) if self.coordinator_of else []


@dataclass(kw_only=True)
class QosSpec:
    name: str
    description: str = ""
    priority: int = 0
    flags: list[str] = field(default_factory=list)
    usage_factor: float = 1.0
    limit_factor: float | None = None
    usage_threshold: float | None = None
    grace_time: int | None = None  # seconds
    limits: dict[str, Any] = field(default_factory=dict)


QOS_FIELDS = (
    "description",
    "priority",
    "flags",
    "usage_factor",
    "limit_factor",
    "usage_threshold",
    "grace_time",
)
"""A :class:`QosSpec`'s settings besides its name and limits, in the order files write them."""

MAX_NUMBER = 0xFFFFFFFE
"""Slurm's largest 32-bit value that is not INFINITE: the most any number of a tree (and a
QOS's factors) may be."""
QOS_RANGES = {
    "usage_factor": ("UsageFactor", 0.0, float(MAX_NUMBER)),
    "limit_factor": ("LimitFactor", 0.0, float(MAX_NUMBER)),
    "usage_threshold": ("UsageThreshold", 0.0, 1.0),
}
"""A QOS's numbers: field -> (Slurm's name, lowest, highest). The one rule every front end
checks them by (:func:`check_qos_number`): ``qos add/modify``, ``fscli sacctmgr``,
``limits set``, YAML trees and the Python API."""


def check_qos_number(field_name: str, value: float, text: str | None = None) -> float:
    """``value`` if it is in the QOS field's range (:data:`QOS_RANGES`), else
    :class:`InvalidValue` naming ``text`` (as given; default the value). NaN and infinity
    are in no range: usage charged with them would break every fair-share number."""
    key, low, high = QOS_RANGES[field_name]
    if not low <= value <= high:
        shown = text if text is not None else str(value)
        raise InvalidValue(f"invalid {key} '{shown}': must be from {low} to {high}")
    return value


def check_qos_numbers(qos: Iterable[QosSpec]) -> None:
    """:func:`check_qos_number` of each QOS's numbers (a tree given as objects, which no
    reader checked)."""
    for item in qos:
        for field_name in QOS_RANGES:
            value = getattr(item, field_name)
            if value is not None:
                try:
                    check_qos_number(field_name, value)
                except InvalidValue as err:
                    raise InvalidValue(f"QOS '{item.name}': {err.message}") from None


@dataclass(frozen=True)
class Problem:
    """A consistency problem; ``path`` names the offending field, e.g.
    ``("users", "alice", "associations", 0, "account")``."""

    path: tuple[Any, ...]
    message: str


@dataclass(kw_only=True)
class TreeSpec:
    cluster: ClusterSpec
    accounts: dict[str, AccountSpec] = field(default_factory=dict)
    users: dict[str, UserSpec] = field(default_factory=dict)
    qos: dict[str, QosSpec] = field(default_factory=dict)
    partitions: dict[str, Partition] = field(default_factory=dict)
    priority: dict[str, str] = field(default_factory=dict)

    def children_map(self) -> dict[str, list[str]]:
        """parent name -> names of its sub-accounts, sorted (``"root"`` for the top)."""
        kids: dict[str, list[str]] = {}
        for acct in sorted(self.accounts):
            kids.setdefault(self.accounts[acct].parent, []).append(acct)
        return kids

    def account_order(self) -> list[str]:
        """``root`` then every account depth-first, siblings alphabetical (dump order)."""
        kids = self.children_map()
        order: list[str] = []
        stack = [ROOT]
        while stack:
            name = stack.pop()
            order.append(name)
            stack.extend(reversed(kids.get(name, [])))
        return order

    def user_assocs_by_account(self) -> dict[str, list[tuple[str, UserAssocSpec]]]:
        """account -> [(user, association)] sorted by user then partition."""
        result: dict[str, list[tuple[str, UserAssocSpec]]] = {}
        for uname in sorted(self.users):
            for assoc in sorted(self.users[uname].associations, key=lambda a: a.key):
                result.setdefault(assoc.account, []).append((uname, assoc))
        return result

    def problems(self) -> list[Problem]:
        """Everything that makes this tree inconsistent, in a stable order."""
        found: list[Problem] = []
        known = set(self.accounts) | {ROOT}
        for name in sorted(self.accounts):
            acct = self.accounts[name]
            if name == ROOT:
                found.append(Problem(("accounts", name), "'root' is created with the cluster"))
            elif acct.parent not in known:
                found.append(
                    Problem(
                        ("accounts", name, "parent"),
                        f"parent account '{acct.parent}' does not exist",
                    )
                )
        found.extend(self._cycles())
        # the users' problems in the order of their names; most have none, so only the
        # names of those that do are sorted (50,000 users: 10 ms less)
        check = functools.partial(self._user_problems, known=known)
        flagged = [item for item in zip(self.users, map(check, self.users.values())) if item[1]]
        for _, problems in sorted(flagged):
            found.extend(problems)
        return found

    def _cycles(self) -> list[Problem]:
        reaches_root: set[str] = {ROOT}
        found: list[Problem] = []
        reported: set[str] = set()
        for start in sorted(self.accounts):
            chain: list[str] = []
            name = start
            while name not in reaches_root and name in self.accounts and name not in chain:
                chain.append(name)
                name = self.accounts[name].parent
            if name in chain and name not in reported:
                loop = chain[chain.index(name) :]
                reported.update(loop)
                text = " -> ".join([*loop, name])
                found.append(Problem(("accounts", name, "parent"), f"parent cycle: {text}"))
            elif name in reaches_root:
                reaches_root.update(chain)
        return found

    def _user_problems(self, user: UserSpec, known: set[str]) -> list[Problem]:
        assocs = user.associations
        accounts = {a.account for a in assocs}
        if (  # most users: no problem, found without building the list below
            (user.default_account in accounts or user.default_account == NO_DEFAULT)
            and known.issuperset(accounts)
            and known.issuperset(user.coordinator_of)
            and (len(accounts) == len(assocs) or len({a.key for a in assocs}) == len(assocs))
        ):
            return []
        found: list[Problem] = []
        base = ("users", user.name)
        seen: set[tuple[str, str]] = set()
        for i, assoc in enumerate(user.associations):
            if assoc.account not in known:
                found.append(
                    Problem(
                        (*base, "associations", i, "account"),
                        f"account '{assoc.account}' does not exist",
                    )
                )
            if assoc.key in seen:
                where = f" partition '{assoc.partition}'" if assoc.partition else ""
                found.append(
                    Problem(
                        (*base, "associations", i),
                        f"association with account '{assoc.account}'{where} is given twice",
                    )
                )
            seen.add(assoc.key)
        if not user.associations:
            found.append(Problem((*base, "associations"), "a user needs at least one association"))
        elif user.default_account not in {a.account for a in user.associations} | {NO_DEFAULT}:
            found.append(
                Problem(
                    (*base, "default_account"),
                    f"default account '{user.default_account}' is not one of the "
                    "user's associations",
                )
            )
        for acct in user.coordinator_of:
            if acct not in known:
                found.append(
                    Problem(
                        (*base, "coordinator_of"),
                        f"coordinator of account '{acct}', which does not exist",
                    )
                )
        return found


def default_organization(name: str, parent: str) -> str:
    """sacctmgr's default Organization: the parent's name, or the account's own under root."""
    return name if parent == ROOT else parent


def parse_shares(text: Any) -> int:
    """``FairShare`` value: an integer from 0 to :data:`MAX_SHARES` or ``parent`` (kept as
    ``SHARES_PARENT``; sacctmgr dump files write it as that number, which
    :mod:`fscli.io.flatfile` maps before this)."""
    raw = str(text).strip()
    if raw.lower() == "parent":
        return SHARES_PARENT
    try:
        value = int(raw)
    except ValueError:
        raise InvalidValue(
            f"invalid fairshare '{text}': expected an integer or \"parent\""
        ) from None
    if not 0 <= value <= MAX_SHARES:
        raise InvalidValue(
            f"invalid fairshare '{text}': expected an integer from 0 to {MAX_SHARES} or \"parent\""
        )
    return value


def parse_priority(text: Any) -> int:
    """An association's ``Priority``: a whole number >= 0."""
    try:
        value = int(str(text).strip())
    except ValueError:
        raise InvalidValue(f"invalid priority '{text}': expected a whole number >= 0") from None
    if not 0 <= value <= 0xFFFFFFFE:
        raise InvalidValue(f"invalid priority '{text}': expected a whole number >= 0")
    return value


def parse_limit_value(key: str, value: Any, scope: str) -> tuple[str, Any]:
    """(canonical name, stored value) for one limit of an association or QOS.

    A tree describes state, so ``-1`` (clear) has no meaning here: leave the key out.
    """
    defn = limitdefs.lookup(key)
    if defn is None or scope not in defn.scopes:
        names = [n for d in limitdefs.LIMITS if scope in d.scopes for n in (d.name, *d.aliases)]
        what = "association" if scope == limitdefs.ASSOC else "QOS"
        raise InvalidValue(f"unknown {what} limit '{key}'{did_you_mean(key, names)}")
    parsed = limitdefs.parse_limit(defn, str(value))
    cleared = parsed is limitdefs.CLEAR or (
        isinstance(parsed, dict) and any(v < 0 for v in parsed.values())
    )
    if cleared:
        raise InvalidValue(
            f"invalid {defn.name} '{value}': -1/UNLIMITED clears a limit; "
            "leave the limit out instead"
        )
    return defn.name, parsed


def parse_qos_list(items: list[str]) -> list[str]:
    """Sorted, de-duplicated QOS names; ``+name``/``-name`` deltas kept as written."""
    result: set[str] = set()
    for item in items:
        name = str(item).strip()
        if not name or not name.lstrip("+-"):
            raise InvalidValue(f"invalid QOS list item '{item}': empty name")
        result.add(name)
    return sorted(result)


def parse_admin_level(text: str) -> str:
    """``None``/``Operator``/``Administrator`` (case-insensitive; ``Admin`` accepted)."""
    raw = str(text).strip().lower()
    aliases = {
        "none": "None",
        "notset": "None",
        "not set": "None",
        "operator": "Operator",
        "admin": "Administrator",
        "administrator": "Administrator",
    }
    if raw not in aliases:
        raise InvalidValue(
            f"invalid admin level '{text}': expected one of {', '.join(ADMIN_LEVELS)}"
        )
    return aliases[raw]


def parse_qos_flag(text: str) -> str:
    lowered = {f.lower(): f for f in QOS_FLAGS}
    flag = lowered.get(str(text).strip().lower())
    if flag is None:
        raise InvalidValue(f"unknown QOS flag '{text}'{did_you_mean(str(text), QOS_FLAGS)}")
    return flag


def lower_names(spec: TreeSpec) -> TreeSpec:
    """``spec`` with its names in lower case, as sacctmgr and every other fscli path store
    them: the cluster, accounts, users and QOS, and every reference to them (parents,
    associations' accounts, default accounts, coordinators, QOS lists and DefaultQOS,
    partitions' QOS). Partition names keep their case, as Slurm keeps it. Changed in
    place (the objects stay the same ones) and returned; two names that differ only in
    case are refused. A tree already in lower case is left as it is, quickly."""
    if _all_lower(spec):
        return spec
    spec.cluster.name = spec.cluster.name.lower()
    _lower_settings(spec.cluster)
    spec.accounts = _lowered_keys(spec.accounts, "account")
    for acct in spec.accounts.values():
        acct.name, acct.parent = acct.name.lower(), acct.parent.lower()
        _lower_settings(acct)
    spec.users = _lowered_keys(spec.users, "user")
    for user in spec.users.values():
        user.name = user.name.lower()
        user.default_account = user.default_account.lower()
        user.coordinator_of = sorted({a.lower() for a in user.coordinator_of})
        for assoc in user.associations:
            assoc.account = assoc.account.lower()
            _lower_settings(assoc)
        user.associations.sort(key=_ASSOC_KEY)
    spec.qos = _lowered_keys(spec.qos, "QOS")
    for qos in spec.qos.values():
        qos.name = qos.name.lower()
    for part in spec.partitions.values():
        if part.qos:
            part.qos = part.qos.lower()
    return spec


def _all_lower(spec: TreeSpec) -> bool:
    """Whether every name and reference :func:`lower_names` lowers is lower case already
    (one pass over one string: 100,000 users take milliseconds)."""
    texts = [spec.cluster.name, *spec.accounts, *spec.qos]
    texts += (a.parent for a in spec.accounts.values())
    texts += (p.qos or "" for p in spec.partitions.values())
    holders: list[AssocSettings] = [spec.cluster, *spec.accounts.values()]
    for name, user in spec.users.items():
        texts.append(name)
        texts.append(user.default_account)
        texts += user.coordinator_of
        texts += (a.account for a in user.associations)
        holders += user.associations
    for holder in holders:
        texts += holder.qos
        texts.append(holder.default_qos or "")
    joined = "\0".join(texts)
    return joined == joined.lower()


def _lower_settings(item: AssocSettings) -> None:
    item.qos = sorted(q.lower() for q in item.qos)
    if item.default_qos:
        item.default_qos = item.default_qos.lower()


def _lowered_keys(items: dict[str, Any], kind: str) -> dict[str, Any]:
    """``items`` keyed by their lower-case names; two that differ only in case refused."""
    out: dict[str, Any] = {}
    given: dict[str, str] = {}
    for name, item in items.items():
        low = name.lower()
        if low in out:
            raise InvalidValue(
                f"{kind} '{low}' is given twice: '{given[low]}' and '{name}' "
                "(names are stored in lower case)"
            )
        out[low], given[low] = item, name
    return out
