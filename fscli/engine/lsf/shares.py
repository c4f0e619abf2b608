"""Who holds shares in a fairshare queue: USER_SHARES entries, user groups, and the
share tree they resolve to."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from fscli.errors import InvalidValue, NotFound, did_you_mean

USER, GROUP, EACH, DEFAULT, OTHERS = "user", "group", "group@", "default", "others"
SHARE_KINDS = (USER, GROUP, EACH, DEFAULT, OTHERS)


@dataclass(frozen=True, slots=True)
class ShareEntry:
    """One ``[name, shares]`` pair of USER_SHARES; ``kind`` is one of :data:`SHARE_KINDS`."""

    name: str
    shares: int
    kind: str = USER

    @property
    def label(self) -> str:
        """The name as written in USER_SHARES (``group@`` for per-member shares)."""
        return f"{self.name}@" if self.kind == EACH else self.name


@dataclass(slots=True)
class UserGroup:
    """An lsb.users group: members are user or group names; ``shares`` (USER_SHARES of the
    group) make it a level of a hierarchical share tree instead of one collective holder."""

    name: str
    members: tuple[str, ...] = ()
    shares: tuple[ShareEntry, ...] = ()


@dataclass(slots=True)
class LsfQueue:
    """A queue: no ``shares`` means first come first served; ``params`` override lsb.params."""

    name: str
    priority: int = 1
    shares: tuple[ShareEntry, ...] = ()
    params: dict[str, str] = field(default_factory=dict)
    description: str = ""


@dataclass(slots=True)
class ShareNode:
    """A holder of shares at one level: its usage is the sum over ``users``; ``children`` is
    the next level of a hierarchical tree (empty for a user or a collective group)."""

    name: str
    kind: str
    shares: int
    users: frozenset[str]
    children: list[ShareNode] = field(default_factory=list)


def group_users(
    name: str, groups: Mapping[str, UserGroup], _path: tuple[str, ...] = ()
) -> frozenset[str]:
    """All users of a group, through its subgroups."""
    if name in _path:
        raise InvalidValue(f"user group '{name}' contains itself ({' -> '.join(_path + (name,))})")
    group = groups.get(name)
    if group is None:
        raise NotFound(f"unknown user group '{name}'{did_you_mean(name, groups)}")
    users: set[str] = set()
    for member in group.members:
        if member in groups:
            users |= group_users(member, groups, _path + (name,))
        else:
            users.add(member)
    return frozenset(users)


def resolve_shares(
    entries: Sequence[ShareEntry], groups: Mapping[str, UserGroup], universe: Iterable[str]
) -> list[ShareNode]:
    """Turn USER_SHARES into the holders of one level.

    Users and groups named explicitly come first; ``group@`` gives each member not named
    explicitly its own holder; ``default`` gives each remaining user of ``universe`` its own
    holder; ``others`` is one holder for all remaining users. A group with USER_SHARES of its
    own gets its members resolved as its children (a share tree).
    """
    nodes: list[ShareNode] = []
    covered: set[str] = set()
    for entry in entries:
        if entry.kind == USER:
            nodes.append(ShareNode(entry.name, USER, entry.shares, frozenset({entry.name})))
            covered.add(entry.name)
        elif entry.kind == GROUP:
            members = group_users(entry.name, groups)
            sub = groups[entry.name].shares
            children = resolve_shares(sub, groups, members) if sub else []
            nodes.append(ShareNode(entry.name, GROUP, entry.shares, members, children))
            covered |= members
    for entry in entries:
        if entry.kind == EACH:
            fresh = sorted(group_users(entry.name, groups) - covered)
            nodes += [ShareNode(u, USER, entry.shares, frozenset({u})) for u in fresh]
            covered.update(fresh)
    rest = sorted(set(universe) - covered)
    for entry in entries:
        if entry.kind == DEFAULT:
            nodes += [ShareNode(u, USER, entry.shares, frozenset({u})) for u in rest]
            rest = []
    for entry in entries:
        if entry.kind == OTHERS:
            nodes.append(ShareNode(OTHERS, OTHERS, entry.shares, frozenset(rest)))
    return nodes
