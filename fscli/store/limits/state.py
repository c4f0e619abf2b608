"""The limit checker's view of the store, read for one request only.

A check needs the user's associations and their ancestors up to root, every QOS and
partition, and counts of the running and pending jobs under the associations and QOS
whose limits count jobs. :func:`load` reads just those associations (a few indexed
queries, whatever the size of the tree); :func:`attach_jobs` hands the checker a
callback that counts jobs with one aggregate query (``GROUP BY``, restricted to the
subtrees and QOS the check names) instead of loading every job, and computes decayed
usage only when a GrpTRESMins or GrpWall limit is in force.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from fscli.engine.config import PriorityConfig
from fscli.engine.job_states import ACTIVE_STATES
from fscli.engine.limits.check import WALL, LimitsState
from fscli.engine.limits.counting import (
    JobGroup,
    JobScope,
    held_run_seconds,
    job_billable,
    usage_factor,
)
from fscli.engine.limits.target import ASSOC, Target
from fscli.engine.model import Assoc, Job, Partition, Qos
from fscli.engine.runmins import NOT_HELD
from fscli.engine.submit import MemoryDefaults
from fscli.engine.timestr import INFINITE_MINUTES
from fscli.engine.tres import parse_tres
from fscli.store import snapshot
from fscli.store.sql import IN_LIST, in_list, rows

USAGE_LIMITS = ("GrpTRESMins", "GrpWall")


def _matching(target: Target, n: int) -> tuple[str, dict]:
    """SQL condition (parameters suffixed ``n``) for the associations a :class:`Target`
    names (``Target.matches``)."""
    if target.user is None:
        return f'("user" IS NULL AND account = :account{n})', {f"account{n}": target.account}
    terms, params = [f'"user" = :user{n}'], {f"user{n}": target.user}
    for column in ("account", "partition"):
        value = getattr(target, column)
        if value is not None:
            terms.append(f'"{column}" = :{column}{n}')
            params[f"{column}{n}"] = value
    return "(" + " AND ".join(terms) + ")", params


def load(
    conn,
    cluster: str | None,
    user: str | None = None,
    account: str | None = None,
    targets: Iterable[Target] = (),
) -> LimitsState:
    """The checker's state holding every association of ``user``, the association of
    ``account``, those ``targets`` name, and all their ancestors; every QOS and partition."""
    cid = snapshot.cluster_id_for(conn, cluster)
    named = [t for t in targets if t.kind == ASSOC]
    if user is not None:
        named.append(Target(ASSOC, user=user))
    if account is not None:
        named.append(Target(ASSOC, account=account))
    wanted = [_matching(t, n) for n, t in enumerate(named)]
    where = (" OR ".join(w[0] for w in wanted), {k: v for w in wanted for k, v in w[1].items()})
    assocs = list(snapshot.load_assocs(conn, cid, where)) if wanted else []
    have = {x.id for x in assocs}
    todo = {x.parent_id for x in assocs} - have - {None}
    while todo:
        found = snapshot.load_assocs(conn, cid, in_list("id", "id", sorted(todo)))
        assocs += found
        have |= {x.id for x in found}
        todo = {x.parent_id for x in found} - have - {None}
    state = LimitsState(
        assocs,
        list(snapshot.load_qos(conn).values()),
        list(snapshot.load_partitions(conn, cid).values()),
    )
    set_config(state, PriorityConfig.from_mapping(snapshot.load_config(conn, cid)))
    return state


def set_config(state: LimitsState, passes: PriorityConfig) -> None:
    """The settings the checker reads, from ``passes`` (the stored ones, or a what-if's)."""
    state.enforce = passes.enforce
    state.enforce_part_limits = passes.enforce_part_limits
    state.calc_period = passes.calc_period
    state.calc_anchor = passes.calc_anchor
    state.billing_weights = passes.billing_weights
    state.priority_flags = passes.flags
    state.memory = MemoryDefaults.of(passes)


def attach_jobs(
    conn,
    cluster: str | None,
    state: LimitsState,
    now: int,
    started: Sequence[Job] = (),
    config: PriorityConfig | None = None,
    usage: Callable[[], Decayed] | None = None,
) -> Callable[[JobScope], list[JobGroup]]:
    """Let ``state`` count the store's jobs while ``conn`` is open (call after any what-if:
    the usage limits then in force decide whether decayed usage is computed); returns
    the counter it set as ``state.count_jobs``, for a caller that wraps it.

    ``started``: pending jobs a scheduling pass starts before this check (``job why``),
    counted as running from ``now``; the caller may add to the list between checks.
    ``config``: the settings (and their history) the usage is decayed under, when not
    the stored ones (a what-if's ``--with-config``). ``usage``: where the decayed usage
    comes from, when not computed here from the whole cluster (the pass cache's, for the
    stored settings: :mod:`fscli.api.limits_usage`)."""
    cluster_id = snapshot.cluster_id_for(conn, cluster)
    tree = _Tree(conn, cluster_id, state.assocs)

    as_running: dict[int, Job] = {}

    def count(scope: JobScope) -> list[JobGroup]:
        found = _count_jobs(conn, cluster_id, tree, scope, state)
        if not started:
            return found
        for job in started[len(as_running) :]:  # the list only grows
            as_running[job.id] = replace(job, state="running")
        return found + _started_groups(tree, scope, state, list(as_running.values()))

    state.count_jobs = count
    holders = [x.limits for x in state.assocs] + [q.limits for q in state.qos]
    if not any(name in limits for limits in holders for name in USAGE_LIMITS):
        return count
    if usage is None:
        found = decayed_usage(usage_state(conn, cluster, now), now, config)
    else:
        found = usage()
    state.qos_usage_mins = found.per_qos
    tree.parents.update(found.parents)
    state.usage_mins = {}
    parents, loaded = tree.parents, tree.loaded
    above: dict[int | None, int | None] = {}  # a parent's nearest loaded association
    for aid, mins in found.per_assoc.items():
        if aid in loaded:
            holder: int | None = aid
        else:  # most are users of a few accounts: climb from each account once
            parent = parents.get(aid)
            if parent not in above:
                above[parent] = tree.nearest(parent)
            holder = above[parent]
        if holder is None:  # under no loaded association: no checked limit counts it
            continue
        into = state.usage_mins.setdefault(holder, {})
        for name, amount in mins.items():
            into[name] = into.get(name, 0.0) + amount
    return count


def _started_groups(
    tree: _Tree, scope: JobScope, state: LimitsState, started: Sequence[Job]
) -> list[JobGroup]:
    """``started`` (as running) as :func:`job_groups` counts them, each under its own
    association when that is the checked user's, else under its account (as
    :func:`_count_jobs` groups)."""
    groups = state.groups_of(started, scope)
    for group in groups:
        own = group.user == scope.user and group.assoc_id in tree.loaded
        group.assoc_id = tree.nearest(group.assoc_id if own else tree.parent(group.assoc_id))
    return groups


class _Tree:
    """The loaded associations, and the cluster's account tree read when first needed."""

    def __init__(self, conn, cluster_id: int, loaded: list[Assoc]) -> None:
        self.conn = conn
        self.cluster_id = cluster_id
        self.loaded = {x.id: x for x in loaded}
        self._parents: dict[int, int | None] | None = None

    @property
    def parents(self) -> dict[int, int | None]:
        """Parent of every non-user association of the cluster (and of the loaded ones)."""
        if self._parents is None:
            found = rows(
                self.conn,
                'SELECT id, parent_id FROM association WHERE cluster_id = :cid AND "user" IS NULL',
                {"cid": self.cluster_id},
            )
            self._parents = {
                **dict(found),
                **{x.id: x.parent_id for x in self.loaded.values()},
            }
        return self._parents

    def parent(self, aid: int | None) -> int | None:
        """The parent of any association of the store (one query, remembered)."""
        if aid is None:
            return None
        if aid not in self.parents:
            found = rows(self.conn, "SELECT parent_id FROM association WHERE id = :id", {"id": aid})
            self.parents[aid] = found[0][0] if found else None
        return self.parents[aid]

    def nearest(self, aid: int | None) -> int | None:
        """``aid`` if loaded, else its nearest loaded ancestor (None: none known)."""
        while aid is not None and aid not in self.loaded:
            aid = self.parents.get(aid)
        return aid

    def subtree(self, roots: Iterable[int]) -> set[int]:
        """The non-user associations at or below ``roots``."""
        children: dict[int | None, list[int]] = {}
        for child, parent in self.parents.items():
            children.setdefault(parent, []).append(child)
        out, todo = set(), list(roots)
        while todo:
            node = todo.pop()
            if node not in out:
                out.add(node)
                todo += children.get(node, ())
        return out


def _scope_filter(tree: _Tree, scope: JobScope) -> tuple[str, dict] | None:
    """SQL condition on jobs ``j`` for the jobs ``scope`` counts (a superset), with its
    parameters; None when that is all."""
    counted = [tree.loaded[i] for i in scope.assoc_ids]
    if any(x.parent_id is None for x in counted):
        return None
    users = [x.id for x in counted if x.user is not None]
    roots = [x.id for x in counted if x.user is None]
    accounts = tree.subtree(roots) if roots else set()
    if len(accounts) + len(users) > IN_LIST:  # past one IN list, scan the cluster's jobs
        return None
    terms = [in_list("j.assoc_id", "assoc", users + sorted(accounts))]
    if accounts:
        under, params = in_list("parent_id", "parent", sorted(accounts))
        terms.append((f"j.assoc_id IN (SELECT id FROM association WHERE {under})", params))
    if scope.qos:
        parts = sorted(scope.partitions)
        terms.append(in_list("j.qos", "qos", sorted(scope.qos)))
        terms.append(in_list('j."partition"', "part", parts))
        for n, part in enumerate(parts):  # a list of partitions starting with this one
            pattern = part.replace("/", "//").replace("%", "/%").replace("_", "/_") + ",%"
            terms.append((f"j.\"partition\" LIKE :like{n} ESCAPE '/'", {f"like{n}": pattern}))
    return (
        "(" + " OR ".join(t[0] for t in terms) + ")",
        {k: v for t in terms for k, v in t[1].items()},
    )


def _count_jobs(
    conn, cluster_id: int, tree: _Tree, scope: JobScope, state: LimitsState
) -> list[JobGroup]:
    """The running and pending jobs ``scope`` counts, summed in SQL per association (the
    checked user's own; everyone else's account), state, TRES text and, when counted QOS
    need them, QOS, partition, user and account.

    When the scope reads billing, running jobs are grouped by CPU and node count and
    partition too, so that one job's billing TRES holds for every job of a group: billing
    is truncated per job, sums cannot give it. A billing in the TRES text never counts:
    slurmctld computes it (as usage does). When the scope reads run-minutes, running jobs
    are grouped by QOS (:func:`_run_seconds`).
    """
    running = "j.state = 'running'"
    params: dict = {"cid": cluster_id, "user": scope.user}
    # name -> SQL expression: the keys grouped by, then the values summed
    cols = {
        "owner": 'CASE WHEN a."user" IS NULL OR a."user" = :user THEN a.id ELSE a.parent_id END',
        "state": "j.state",
        "tres": "j.tres",
    }
    if scope.qos or scope.billing:
        cols["partition"] = 'j."partition"'
    if scope.qos:
        cols["qos"] = "j.qos"
        cols["mine"] = 'CASE WHEN j."user" = :user THEN 1 ELSE 0 END'
        cols["account"] = "coalesce(j.account, a.account)"
    elif scope.run_mins:
        cols["qos"] = f"CASE WHEN {running} THEN j.qos END"
    if scope.billing:
        cols["billed_cpus"] = f"CASE WHEN {running} THEN j.cpus END"
        cols["billed_nodes"] = f"CASE WHEN {running} THEN j.nodes END"
    values = {"cpus": "j.cpus", "nodes": "j.nodes"}
    if scope.run_mins:
        fractional, more = in_list(
            "j.qos",
            "fractional",
            sorted(q.name for q in state.qos if not usage_factor(q).is_integer()),
        )
        params.update(more)
        one_by_one = f"({running} AND (j.time_limit IS NULL OR {fractional}))"
        cols["one_by_one"] = f"CASE WHEN {one_by_one} THEN 1 ELSE 0 END"
        for name, column in (
            ("start", "j.start"),
            ("time_limit", "j.time_limit"),
            ("partition", 'j."partition"'),
        ):
            cols[f"job_{name}"] = f"CASE WHEN {one_by_one} THEN {column} END"
        params["until"] = scope.charged_until
        started = "CASE WHEN j.start IS NULL OR j.start >= :until THEN 0 ELSE :until - j.start END"
        to_run = f"(j.time_limit * 60 - ({started}))"
        to_hold = (
            f"(CASE WHEN {one_by_one} THEN 0 WHEN {running} AND {to_run} > 0 "
            f"THEN {to_run} ELSE 0 END)"
        )
        values.update(
            left=to_hold, cpu_left=f"j.cpus * {to_hold}", node_left=f"j.nodes * {to_hold}"
        )
    in_states, more = in_list("j.state", "state", ACTIVE_STATES)
    params.update(more)
    where = f"j.cluster_id = :cid AND {in_states}"
    if scope.now is not None:
        ended, more = _ended(running, state.partitions, scope.now)
        where += f" AND NOT {ended}"
        params.update(more)
    clause = _scope_filter(tree, scope)
    if clause is not None:
        where += f" AND {clause[0]}"
        params.update(clause[1])
    names = list(cols)
    # every name quoted: some are reserved words ("partition", "state"...)
    inner = ", ".join(f'{sql} AS "{name}"' for name, sql in {**cols, **values}.items())
    keys = ", ".join(f'"{name}"' for name in names)
    sums = ", ".join(f'sum("{name}")' for name in values)
    found = rows(
        conn,
        f"SELECT {keys}, count(*), {sums} FROM (SELECT {inner} FROM job AS j "
        f"JOIN association AS a ON a.id = j.assoc_id WHERE {where}) AS sub GROUP BY {keys}",
        params,
    )
    parts: dict[str | None, Partition] = {p.name: p for p in state.partitions}
    qos_by_name = {q.name: q for q in state.qos}
    parsed: dict[str, dict[str, int]] = {}
    out = []
    for row in found:
        key = dict(zip(names, row))
        owner, state_name, text = key["owner"], key["state"], key["tres"]
        partition = key["partition"].split(",")[0] if key.get("partition") else None
        qos, account = key.get("qos"), key.get("account")
        user = scope.user if key.get("mine") else None
        # SUM gives Decimal on PostgreSQL and MariaDB: the engine counts in ints
        count, cpus, nodes, *left = (int(x) for x in row[len(names) :])
        is_running = state_name == "running"
        if text and text not in parsed:
            parsed[text] = {k: v for k, v in parse_tres(text).items() if k != "billing"}
        extra = parsed[text] if text else {}
        tres: dict[str, int] = {}
        if is_running:
            if scope.billing:
                billing = job_billable(
                    int(key["billed_cpus"]),
                    int(key["billed_nodes"]),
                    extra,
                    parts.get(partition),
                    state.billing_weights,
                    state.priority_flags,
                )
                extra = {**extra, "billing": int(billing)}
            tres = {"cpu": cpus, "node": nodes, **{k: v * count for k, v in extra.items()}}
        group = JobGroup(
            tree.nearest(owner), is_running, count, tres, {}, qos, partition, user, account
        )
        if scope.run_mins and is_running:
            group.run_secs = _run_seconds(
                scope, key, tres, extra, left, parts, qos_by_name.get(qos or "")
            )
        out.append(group)
    return out


def _ended(running: str, partitions: Iterable[Partition], now: int) -> tuple[str, dict]:
    """SQL condition on jobs ``j``: a running job that reached its end by ``now``, its
    start plus its time limit or else its first partition's MaxTime
    (:func:`fscli.engine.limits.counting.running_end`, the rule in SQL), never NULL."""
    cases: list[str] = []
    params: dict[str, Any] = {"ended_now": now}
    for n, part in enumerate(p for p in partitions if p.max_time is not None):
        pattern = part.name.replace("/", "//").replace("%", "/%").replace("_", "/_") + ",%"
        cases.append(
            f'WHEN j."partition" = :end_part{n} OR j."partition" LIKE :end_like{n} '
            f"ESCAPE '/' THEN :end_max{n}"
        )
        params.update({f"end_part{n}": part.name, f"end_like{n}": pattern})
        params[f"end_max{n}"] = part.max_time
    by_partition = f"CASE {' '.join(cases)} END, " if cases else ""
    limit = f"coalesce(j.time_limit, {by_partition}{INFINITE_MINUTES})"
    return (
        f"({running} AND j.start IS NOT NULL AND {limit} < {INFINITE_MINUTES} "
        f"AND j.start + {limit} * 60 <= :ended_now)",
        params,
    )


def _run_seconds(
    scope: JobScope,
    key: dict,
    tres: dict[str, int],
    extra: dict[str, int],
    left: list[int],
    parts: dict[str | None, Partition],
    qos: Qos | None,
) -> dict[str, int]:
    """TRES-seconds of run time one group of running jobs holds.

    Rows of jobs alike in start, time limit, partition and QOS (``one_by_one``: their
    QOS's UsageFactor is fractional, which truncates per job and per pass, or they have no
    time limit and hold their partition's MaxTime) go through
    :func:`fscli.engine.limits.counting.held_run_seconds`, which holds the same seconds for each
    such job of the group. For the others
    SQL summed ``left``, the seconds a job holds with UsageFactor 1 (its time limit less
    its run time up to the last pass), and the ``*_left`` sums times the CPUs and nodes:
    a whole factor just multiplies them, exactly as held_run_seconds would.
    """
    if key["one_by_one"]:
        partition = key["job_partition"].split(",")[0] if key["job_partition"] else None
        return held_run_seconds(
            scope, tres, key["job_start"], key["job_time_limit"], parts.get(partition), qos
        )
    factor = int(usage_factor(qos))
    jobs_left, cpu_left, node_left = left
    own = {"cpu": cpu_left, "node": node_left}
    return {
        name: factor * (extra[name] * jobs_left if name in extra else own[name])
        for name, amount in tres.items()
        if amount and name not in NOT_HELD
    }


def usage_state(conn, cluster: str | None, now: int):
    """The cluster's state as its decayed usage needs it: associations without their
    limits, the charges made up to ``now`` and the jobs whose run time is charged."""
    from fscli.engine.cluster_state import CHARGED
    from fscli.store.state import load_state

    state = load_state(conn, cluster, now, jobs=False, settings=False)
    state.jobs = snapshot.load_jobs(conn, state.cluster_id, states=CHARGED)
    return state


class Decayed(NamedTuple):
    """What GrpTRESMins and GrpWall count of a whole cluster at one moment: the decayed
    minutes per association (charged to itself) and per QOS (:func:`_decayed_minutes`),
    and every association's parent, which takes each association's minutes up to the
    checked ones. Plain dicts: the pass cache keeps them as they are."""

    per_assoc: dict[int, dict[str, float]]
    per_qos: dict[str, dict[str, float]]
    parents: dict[int, int | None]


def decayed_usage(cs, now: int, config: PriorityConfig | None = None) -> Decayed:
    """:class:`Decayed` of the cluster state ``cs`` at ``now``, decayed under ``config``
    when given (a what-if's settings), else under the stored ones."""
    if config is not None:
        cs = replace(cs, config=config)
    per_assoc, per_qos = _decayed_minutes(cs, now)
    return Decayed(per_assoc, per_qos, {x.id: x.parent_id for x in cs.assocs})


def _decayed_minutes(cs, now: int):
    """Decayed TRES-minutes and wall minutes per association and per QOS at ``now``, as
    slurmctld keeps them: each job's decayed run time (times its QOS UsageFactor) times
    each TRES it holds, and as wall time (:func:`fscli.engine.usage.tres_seconds`, the
    numbers sshare's GrpTRESRaw shows). An association's billing is its RawUsage (charged
    usage included); a QOS's is its jobs' billing TRES. A usage reset clears them all.
    """

    from fscli.engine.cluster_state import charged_allocations, job_qos, raw_usage_of, reset_at
    from fscli.engine.usage import Charges, raw_usage, tres_seconds

    jobs = charged_allocations(cs, now)
    in_qos = [
        (qos.name, run, alloc)
        for qos, run, alloc in ((job_qos(cs, job)[0], run, alloc) for job, run, alloc in jobs)
        if qos is not None
    ]
    qos_names = sorted({name for name, _, _ in in_qos})
    qos_key = {name: key for key, name in enumerate(qos_names)}  # tres_seconds sums per int key
    qos_runs = [(run._replace(assoc_id=qos_key[name]), alloc) for name, run, alloc in in_qos]

    def minutes(runs) -> dict[int, dict[str, float]]:
        seconds = tres_seconds(
            [(run, {**alloc, WALL: 1}) for run, alloc in runs], now, cs.config, reset_at(cs)
        )
        return {
            key: {name: amount / 60.0 for name, amount in usage.items()}
            for key, usage in seconds.items()
        }

    per_assoc = minutes((run, alloc) for _, run, alloc in jobs)
    # the runs made once, not again for the RawUsage: a quarter of the work
    for aid, raw in raw_usage_of(cs, now, [run for _, run, _ in jobs]).items():
        per_assoc.setdefault(aid, {})["billing"] = raw / 60.0
    per_qos = minutes(qos_runs)
    qos_billing = raw_usage(Charges(), now, cs.config, [run for run, _ in qos_runs], reset_at(cs))
    for key, raw in qos_billing.items():
        per_qos.setdefault(key, {})["billing"] = raw / 60.0
    return per_assoc, {qos_names[key]: usage for key, usage in per_qos.items()}


def default_account(conn, cluster: str | None, user: str) -> str | None:
    """The user's default account on the cluster (what sbatch uses without ``-A``)."""
    from fscli.store.user_defaults import default_of

    return default_of(conn, snapshot.cluster_id_for(conn, cluster), user)
