"""LSF fairshare in the store: lsb.params values, queues, user groups, and the read path.

Writes (inside the caller's transaction, every change logged): :func:`set_params`,
:func:`unset_params`, queue and group add/modify/delete. Values arrive as the text the
user typed; they are validated here with the engine's parameter rules and the USER_SHARES
parser, and stored canonically: ``lsf_queue.fairshare`` as ``USER_SHARES[...]``,
``lsf_queue.params`` as ``NAME=VALUE`` words, ``lsf_group.members`` space-separated and
``lsf_group.shares`` as ``[name, shares] ...`` pairs.

Reads (Core): :func:`load_lsf` (params, queues, groups as engine objects) and
:func:`load_lsf_usage` (the jobs the dynamic priority counts, and the known users).
The store's usage records name an association, not a queue: a charge to a user's
association counts as that user's finished CPU time (ended at the charge) in every LSF
queue, decayed by HIST_HOURS like any finished job.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import delete, func, select

from fscli.engine.lsf.params import params_text, parse_params_text, validate_param
from fscli.engine.lsf.share_text import (
    format_share_pairs,
    format_user_shares,
    parse_share_pairs,
    parse_user_shares,
)
from fscli.engine.lsf.shares import EACH, GROUP, USER, LsfQueue, UserGroup, group_users
from fscli.engine.model import Job
from fscli.errors import Conflict, InvalidValue, NotFound, UsageProblem, did_you_mean
from fscli.store import models as m
from fscli.store.admin import Admin
from fscli.store.checks import check_name
from fscli.store.tables import ACTIVE_STATES

PARAM_DEFAULT = "default"
"""The value that removes a queue's override of a parameter (``HIST_HOURS=default``)."""


# --------------------------------------------------------------------------- text forms


def _members(text: str | None) -> tuple[str, ...]:
    return tuple((text or "").split())


PRIORITY_MAX = 2**31 - 1  # a queue's priority column is 32-bit on every backend


def _priority(text: str) -> int:
    try:
        value = int(str(text).strip())
    except ValueError:
        raise InvalidValue(f"invalid priority '{text}': expected a whole number >= 1") from None
    if value < 1:
        raise InvalidValue(f"invalid priority '{text}': must be >= 1")
    if value > PRIORITY_MAX:
        raise InvalidValue(f"invalid priority '{text}': at most {PRIORITY_MAX}")
    return value


# --------------------------------------------------------------------------- read path


@dataclass
class LsfSetup:
    """lsb.params values that were set, queues in scan order (priority descending, then
    name), and user groups by name."""

    params: dict[str, str] = field(default_factory=dict)
    queues: dict[str, LsfQueue] = field(default_factory=dict)
    groups: dict[str, UserGroup] = field(default_factory=dict)

    def queue(self, name: str) -> LsfQueue:
        found = self.queues.get(name) or self.queues.get(name.lower())
        if found is None:
            raise NotFound(f"LSF queue '{name}' does not exist{did_you_mean(name, self.queues)}")
        return found


def load_lsf(conn) -> LsfSetup:
    groups = {}
    rows = conn.execute(select(m.LsfGroup.name, m.LsfGroup.members, m.LsfGroup.shares)).all()
    names = [r[0] for r in rows]
    for name, members, shares in rows:
        entries = parse_share_pairs(shares, names) if shares else ()
        groups[name] = UserGroup(name, _members(members), entries)
    queues = {}
    query = select(m.LsfQueue.name, m.LsfQueue.priority, m.LsfQueue.fairshare, m.LsfQueue.params)
    for name, prio, fairshare, params in conn.execute(query):
        entries = parse_user_shares(fairshare, names) if fairshare else ()
        queues[name] = LsfQueue(name, prio, entries, parse_params_text(params))
    ordered = dict(sorted(queues.items(), key=lambda kv: (-kv[1].priority, kv[0])))
    params = dict(conn.execute(select(m.LsfParam.key, m.LsfParam.value)).all())
    return LsfSetup(params, ordered, groups)


def load_lsf_usage(conn, cluster: str | None, queues) -> tuple[list[Job], list[str]]:
    """LSF jobs, plus usage charges as finished jobs in each of ``queues``; and all users
    the store knows (``default``/``others`` expand over them)."""
    from fscli.store import snapshot

    jobs = [job for job in snapshot.load_jobs(conn) if job.queue is not None]
    users = set(conn.execute(select(m.User.name)).scalars())
    if conn.execute(select(func.count()).select_from(m.Cluster)).scalar() or cluster:
        cid = snapshot.cluster_id_for(conn, cluster)
        owner = {a.id: a.user for a in snapshot.load_assocs(conn, cid) if a.user}
        charges = [c for c in snapshot.load_charges(conn, cid) if c.assoc_id in owner]
        jobs += [
            Job(
                id=-1,
                user=owner[c.assoc_id],
                queue=q.name,
                state="completed",
                start=c.at,
                end=c.at,
                cputime=c.amount,
                slots=0,
            )
            for q in queues
            for c in charges
        ]
    users |= {job.user for job in jobs}
    return jobs, sorted(users)


# --------------------------------------------------------------------------- parameters


def set_params(admin: Admin, values: dict[str, str]) -> list[str]:
    """Set lsb.params values (validated: known names, numbers in range)."""
    if not values:
        raise UsageProblem("nothing to set: give NAME=VALUE words (e.g. HIST_HOURS=5)")
    checked = dict(validate_param(k, v) for k, v in values.items())
    for key, value in checked.items():
        admin.s.merge(m.LsfParam(key=key, value=value))
    detail = " ".join(f"{k}={v}" for k, v in checked.items())
    admin.log("set lsf params", "lsb.params", detail)
    return [f"set LSF parameters: {detail}"]


def unset_params(admin: Admin, names: list[str]) -> list[str]:
    """Back to LSF's defaults."""
    from fscli.engine.lsf.params import canonical_param

    if not names:
        raise UsageProblem("name the parameter(s) to unset")
    keys = [canonical_param(n) for n in names]
    admin.s.execute(delete(m.LsfParam).where(m.LsfParam.key.in_(keys)))
    admin.log("unset lsf params", "lsb.params", " ".join(keys))
    return [f"unset LSF parameters (back to defaults): {' '.join(keys)}"]


# --------------------------------------------------------------------------- queues


def _group_names(admin: Admin) -> list[str]:
    return list(admin.s.scalars(select(m.LsfGroup.name)))


def _queue_row(admin: Admin, name: str) -> m.LsfQueue:
    row = admin.s.scalar(select(m.LsfQueue).where(m.LsfQueue.name == name.lower()))
    if row is None:
        known = list(admin.s.scalars(select(m.LsfQueue.name)))
        raise NotFound(f"LSF queue '{name}' does not exist{did_you_mean(name, known)}")
    return row


def _apply_queue(admin: Admin, row: m.LsfQueue, values: dict[str, str]) -> str:
    """Validate and apply ``priority``, ``fairshare`` and parameter overrides; the detail."""
    params = parse_params_text(row.params)
    said = []
    for key, text in values.items():
        if key == "priority":
            row.priority = _priority(text)
            said.append(f"priority={row.priority}")
        elif key == "fairshare":
            clear = text.strip().lower() in ("", "none")
            row.fairshare = (
                None if clear else format_user_shares(parse_user_shares(text, _group_names(admin)))
            )
            said.append(f"fairshare={row.fairshare or 'none'}")
        elif text.strip().lower() == PARAM_DEFAULT:
            from fscli.engine.lsf.params import canonical_param

            params.pop(canonical_param(key), None)
            said.append(f"{canonical_param(key)}={PARAM_DEFAULT}")
        else:
            canon, value = validate_param(key, text)
            params[canon] = value
            said.append(f"{canon}={value}")
    row.params = params_text(params) or None
    return " ".join(said)


def add_queue(admin: Admin, name: str, values: dict[str, str]) -> list[str]:
    name = check_name("LSF queue", name)
    if admin.s.scalar(select(m.LsfQueue).where(m.LsfQueue.name == name)) is not None:
        raise Conflict(f"LSF queue '{name}' already exists")
    row = m.LsfQueue(name=name, priority=1)
    detail = _apply_queue(admin, row, values)
    admin.s.add(row)
    admin.log("add lsf queue", name, detail)
    return [f"added LSF queue {name}" + (f": {detail}" if detail else "")]


def modify_queue(admin: Admin, names: list[str], values: dict[str, str]) -> list[str]:
    if not names:
        raise UsageProblem("name the LSF queue(s) to modify")
    if not values:
        raise UsageProblem("nothing to set: give KEY=VALUE words after 'set'")
    lines = []
    for row in [_queue_row(admin, n) for n in names]:
        detail = _apply_queue(admin, row, values)
        admin.log("modify lsf queue", row.name, detail)
        lines.append(f"modified LSF queue {row.name}: {detail}")
    return lines


def delete_queue(admin: Admin, names: list[str]) -> list[str]:
    """Refused while pending or running jobs use the queue; finished jobs stay as history."""
    if not names:
        raise UsageProblem("name the LSF queue(s) to delete")
    lines = []
    for row in [_queue_row(admin, n) for n in names]:
        active = admin.s.scalar(
            select(func.count())
            .select_from(m.Job)
            .where(m.Job.queue == row.name, m.Job.state.in_(ACTIVE_STATES))
        )
        if active:
            raise Conflict(
                f"LSF queue '{row.name}' has {active} pending or running job(s): cancel them first"
            )
        admin.s.delete(row)
        admin.log("delete lsf queue", row.name)
        lines.append(f"deleted LSF queue {row.name}")
    return lines


# --------------------------------------------------------------------------- user groups


def _group_row(admin: Admin, name: str) -> m.LsfGroup:
    row = admin.s.scalar(select(m.LsfGroup).where(m.LsfGroup.name == name.lower()))
    if row is None:
        raise NotFound(f"unknown user group '{name}'{did_you_mean(name, _group_names(admin))}")
    return row


def _check_groups(admin: Admin) -> None:
    """Every group's shares name its own members, and no group contains itself."""
    groups = load_lsf(admin.s.connection()).groups
    for group in groups.values():
        group_users(group.name, groups)
        for entry in group.shares:
            if entry.kind in (USER, GROUP, EACH) and entry.name not in group.members:
                raise InvalidValue(
                    f"user group '{group.name}': '{entry.label}' in its shares "
                    "is not one of its members"
                )


def _apply_group(admin: Admin, row: m.LsfGroup, values: dict[str, str]) -> str:
    said = []
    if "members" in values:
        members = [
            check_name("group member", n) for n in values["members"].replace(",", " ").split()
        ]
        if not members:
            raise InvalidValue(f"user group '{row.name}' needs at least one member")
        if len(set(members)) != len(members):
            raise InvalidValue(f"user group '{row.name}': a member is listed twice")
        row.members = " ".join(members)
        said.append(f"members={','.join(members)}")
    if "shares" in values:
        text = values["shares"].strip()
        clear = text.lower() in ("", "none")
        known = set(_group_names(admin)) | {row.name}
        row.shares = None if clear else format_share_pairs(parse_share_pairs(text, known))
        said.append(f"shares={row.shares or 'none'}")
    admin.s.flush()
    _check_groups(admin)
    return " ".join(said)


def add_group(admin: Admin, name: str, values: dict[str, str]) -> list[str]:
    name = check_name("user group", name)
    if admin.s.scalar(select(m.LsfGroup).where(m.LsfGroup.name == name)) is not None:
        raise Conflict(f"user group '{name}' already exists")
    if "members" not in values:
        raise UsageProblem("give the group's members: members=user1,user2,...")
    row = m.LsfGroup(name=name, members="")
    admin.s.add(row)
    detail = _apply_group(admin, row, values)
    admin.log("add lsf group", name, detail)
    return [f"added user group {name}: {detail}"]


def modify_group(admin: Admin, name: str, values: dict[str, str]) -> list[str]:
    if not values:
        raise UsageProblem("nothing to set: give members=... or shares=... after 'set'")
    row = _group_row(admin, name)
    detail = _apply_group(admin, row, values)
    admin.log("modify lsf group", row.name, detail)
    return [f"modified user group {row.name}: {detail}"]


def delete_group(admin: Admin, names: list[str]) -> list[str]:
    """Refused while a queue's USER_SHARES or another group names the group."""
    if not names:
        raise UsageProblem("name the user group(s) to delete")
    rows = [_group_row(admin, n) for n in names]
    setup = load_lsf(admin.s.connection())
    gone = {row.name for row in rows}
    for queue in setup.queues.values():
        for entry in queue.shares:
            if entry.kind in (GROUP, EACH) and entry.name in gone:
                raise Conflict(f"user group '{entry.name}' is used by LSF queue '{queue.name}'")
    for group in setup.groups.values():
        used = gone.intersection(group.members)
        if used and group.name not in gone:
            raise Conflict(f"user group '{min(used)}' is a member of group '{group.name}'")
    lines = []
    for row in rows:
        admin.s.delete(row)
        admin.log("delete lsf group", row.name)
        lines.append(f"deleted user group {row.name}")
    return lines
