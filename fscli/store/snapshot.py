"""Read paths: load the store into engine dataclasses.

One query per table, rows as the driver's plain tuples (no ORM entities, no per-row Row
objects: loading 100k rows through the ORM costs several times more). Queries are SQL
text (:mod:`fscli.store.sql`), so that the same code reads a plain ``sqlite3``
connection (the views on an SQLite file: no SQLAlchemy import) and a SQLAlchemy
connection or session (servers, write sessions). Every view (sshare, sprio, limits,
exports) starts here.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import (
    SHARES_PARENT,
    Assoc,
    AssocColumns,
    Charge,
    ClusterInfo,
    Job,
    Partition,
    Qos,
)
from fscli.engine.tres import parse_tres
from fscli.store.assoc_fields import ANY_LIMIT, LIMIT_COLUMNS, loaded_limits, qos_list
from fscli.store.sql import batches, in_list, rows, scalar

if TYPE_CHECKING:
    from collections.abc import Sequence

    from fscli.engine.priority import QueueColumns
    from fscli.engine.usage import Charges

NO_LIMITS: dict = {}
"""The limits of every association that sets none: one dict, never changed (what-ifs copy
an association's limits before changing them), not 100,000 empty ones."""
_ASSOC_COLS = ", ".join(LIMIT_COLUMNS)
_QOS_COLS = ", ".join(d.attr for d in limitdefs.QOS_LIMITS)


def load_assocs(
    conn,
    cluster_id: int,
    where: tuple[str, dict] | None = None,
    *,
    by_parent: bool = False,
    settings: bool = True,
) -> Sequence[Assoc]:
    """The cluster's associations (only those matching ``where`` if given: an SQL condition
    on the association table and its parameters), by id, or with ``by_parent`` each
    parent's children together, by id (for the fair-share passes: see below).

    Limits come from a second query over just the rows that set one, so that the main
    query stays narrow (most associations set none): the partial index
    ``ix_association_limits`` holds those rows (migration 0006), where the query read
    every row of the table (20-50 ms at 100,000 associations). Without ``settings`` the
    associations hold no limits, QOS list or default QOS: the tree as fair-share and job
    priority read it (sprio), 35 ms less at 100,000 associations; read by parent, those
    rows come in order from the index ``ix_association_tree`` (migration 0007, SQLite),
    without a sort (40 ms less), and they come as columns
    (:class:`~fscli.engine.model.AssocColumns`), made into objects only if asked for: the
    fair-share pass reads the columns. (Columns, not the rows: the rows' values then lie
    side by side in memory, as in objects made a batch of rows at a time.)

    Why ``by_parent``: the fair-share engine and sshare's rows walk the tree, siblings
    after siblings. Python places the objects made from the rows in the order they come;
    in id order, which years of ``user add`` leave unrelated to the tree, every step of
    that walk lands somewhere else in memory. At 100,000 associations (``sshare -a -P``,
    ``benchmarks/sshare_scale.py``'s shuffled store) the fair-share pass, the rows and
    their text took 0.55 s over objects made in id order, 0.35 s over objects made by
    parent, for 0.05 s more in SQLite's sort of the rows.
    """
    # All of a cluster: "cluster_id + 0" keeps SQLite from walking ix_association_key and
    # fetching each row by id (twice the cost of scanning the table). By parent without
    # settings, SQLite walks ix_association_tree, which holds every column read here in
    # this order; with settings (columns it lacks) "parent_id + 0" keeps it from walking
    # ix_association_parent and fetching each row: a scan and one sort cost half as much.
    tree_index = by_parent and not settings and where is None
    order = "parent_id, id" if tree_index else "parent_id + 0, id" if by_parent else "id"
    in_cluster = "cluster_id + 0 = :cid" if where is None else "cluster_id = :cid"
    params = {"cid": cluster_id}
    if where is not None:
        in_cluster = f"{in_cluster} AND ({where[0]})"
        params.update(where[1])
    limits = assoc_limits(conn, in_cluster, params) if settings else {}
    # (one shared object per account name and parent id would hold 9 MB less at 100,000
    # associations, but the fair-share pass over objects spread that way is 7% slower)
    # The shares are worked out by the query (Assoc.shares: one column, not two, and no
    # Python step per row), and without settings no column is read for them: at 100,000
    # associations every column read costs 4-5 ms, one holding only NULLs too.
    sql = (
        'SELECT id, parent_id, account, "user", "partition", '
        f"CASE WHEN shares_parent THEN {SHARES_PARENT} ELSE COALESCE(shares_raw, 1) END, "
        f"priority{', qos, default_qos' if settings else ''} FROM association "
        f"WHERE {in_cluster} ORDER BY {order}"
    )
    if not settings:
        columns: tuple[list, ...] = ([], [], [], [], [], [], [])
        for batch in batches(conn, sql, params):
            for k, column in enumerate(columns):
                column.extend(map(itemgetter(k), batch))
        return AssocColumns(columns, ((), None, NO_LIMITS))
    qos_lists: dict[str | None, tuple[str, ...]] = {}
    out = []
    for batch in batches(conn, sql, params):
        for text in {row[7] for row in batch} - qos_lists.keys():
            qos_lists[text] = tuple(qos_list(text))
        out += [
            Assoc(
                aid,
                parent,
                account,
                user,
                part,
                shares,
                prio,
                qos_lists[qos],
                dqos,
                limits.get(aid, NO_LIMITS),
            )
            for aid, parent, account, user, part, shares, prio, qos, dqos in batch
        ]
    return out


def cluster_limits(conn, cluster_id: int) -> dict[int, dict]:
    """:func:`assoc_limits` of every association of the cluster (those that set one)."""
    return assoc_limits(conn, "cluster_id + 0 = :cid", {"cid": cluster_id})


def assoc_limits(conn, where: str, params: dict) -> dict[int, dict]:
    """Association id -> its limits, of the associations matching ``where`` (an SQL
    condition and its parameters) that set any: most set none, and read apart from the
    rest of their row, through the partial index of just the rows that set one
    (``ix_association_limits``), the limits' columns cost nothing for them."""
    return {
        row[0]: loaded_limits(limitdefs.ASSOC_LIMITS, row[1:])
        for row in rows(
            conn,
            f"SELECT id, {_ASSOC_COLS} FROM association WHERE {where} AND ({ANY_LIMIT})",
            params,
        )
    }


def load_qos(conn) -> dict[str, Qos]:
    out = {}
    for row in rows(
        conn,
        "SELECT name, priority, flags, usage_factor, limit_factor, usage_threshold, "
        "grace_time, preempt, preempt_mode, preempt_exempt_time, min_prio_thresh, "
        f"description, {_QOS_COLS} FROM qos",
    ):
        name, prio, flags, uf, lf, ut, grace = row[:7]
        preempt, mode, exempt, thresh, description = row[7:12]
        out[name] = Qos(
            name=name,
            priority=prio or 0,
            flags=frozenset(f for f in (flags or "").split(",") if f),
            usage_factor=1.0 if uf is None else uf,
            limit_factor=lf,
            usage_threshold=ut,
            grace_time=grace,
            limits=loaded_limits(limitdefs.QOS_LIMITS, row[12:]),
            description=description,
            preempt=tuple(q for q in (preempt or "").split(",") if q),
            preempt_mode=mode or None,
            preempt_exempt_time=exempt,
            min_prio_thresh=thresh,
        )
    return out


def load_partitions(conn, cluster_id: int) -> dict[str, Partition]:
    out = {}
    for (
        name,
        nodes,
        cpus,
        tres,
        pjf,
        tier,
        qos,
        max_time,
        max_nodes,
        min_nodes,
        bw,
        mem_cpu,
        mem_node,
        max_mem,
    ) in rows(
        conn,
        "SELECT name, nodes, cpus, tres, priority_job_factor, priority_tier, qos, max_time, "
        "max_nodes, min_nodes, billing_weights, def_mem_per_cpu, def_mem_per_node, "
        'max_mem_per_cpu FROM "partition" WHERE cluster_id = :cid',
        {"cid": cluster_id},
    ):
        out[name] = Partition(
            name=name,
            nodes=nodes,
            cpus=cpus,
            tres=parse_tres(tres) if tres else {},
            priority_job_factor=1 if pjf is None else pjf,
            priority_tier=1 if tier is None else tier,
            qos=qos,
            max_time=max_time,
            max_nodes=max_nodes,
            min_nodes=min_nodes,
            billing_weights=bw,
            def_mem_per_cpu=mem_cpu,
            def_mem_per_node=mem_node,
            max_mem_per_cpu=max_mem,
        )
    return out


def load_cluster(conn, cluster_id: int) -> ClusterInfo:
    (row,) = rows(
        conn, "SELECT name, nodes, cpus, tres FROM cluster WHERE id = :cid", {"cid": cluster_id}
    )
    return ClusterInfo(
        name=row[0], nodes=row[1], cpus=row[2], tres=parse_tres(row[3]) if row[3] else {}
    )


def load_config(conn, cluster_id: int) -> dict[str, str]:
    """The cluster's settings (each cluster has its own slurm.conf)."""
    return dict(
        rows(
            conn,
            'SELECT "key", value FROM cluster_config WHERE cluster_id = :cid',
            {"cid": cluster_id},
        )
    )


def load_config_history(conn, cluster_id: int) -> list[tuple[str, int, str]]:
    """The cluster's replaced settings as ``(key, replaced at, value)``
    (:meth:`fscli.engine.config.PriorityConfig.from_mapping`); usually none."""
    return [
        (key, int(replaced_at), value)
        for key, replaced_at, value in rows(
            conn,
            'SELECT "key", replaced_at, value FROM cluster_config_history WHERE cluster_id = :cid',
            {"cid": cluster_id},
        )
    ]


def load_priority_config(conn, cluster_id: int):
    """The cluster's :class:`fscli.engine.config.PriorityConfig`, with the history of the
    settings usage depends on."""
    from fscli.engine.config import PriorityConfig

    return PriorityConfig.from_mapping(
        load_config(conn, cluster_id), load_config_history(conn, cluster_id)
    )


def _charges_query(conn, cluster_id: int, until: int | None) -> tuple[str, dict]:
    """The cluster's charges grouped by association, by time within one (a scan of the
    covering index ``ix_usage_assoc_at_amount``): the engine sums each association's
    charges in this one order, whatever order they were written in, on every backend."""
    where, params = [], {}
    if scalar(conn, "SELECT count(*) FROM cluster") != 1:
        # several clusters: keep this one's charges. An IN (subquery), not a join: SQLite
        # then reads the index in order for each of the cluster's associations, where the
        # join's plan sorts every charge again. (With one cluster all charges are its own,
        # and a plain scan costs less still.)
        where.append("assoc_id IN (SELECT id FROM association WHERE cluster_id = :cid)")
        params["cid"] = cluster_id
    if until is not None:
        where.append("at <= :until")
        params["until"] = until
    sql = 'SELECT assoc_id, at, amount FROM "usage"'
    if where:
        sql += " WHERE " + " AND ".join(where)
    return sql + " ORDER BY assoc_id, at, amount", params


def load_charges(conn, cluster_id: int, until: int | None = None) -> list[Charge]:
    return [
        Charge(aid, at, amount)
        for aid, at, amount in rows(conn, *_charges_query(conn, cluster_id, until))
    ]


def load_charge_table(conn, cluster_id: int, until: int | None = None) -> Charges:
    """The same charges as columns (no object per charge: what usage decay reads fastest).
    Lists, not typed arrays: arrays hold 15 MB less at 200,000 charges, but every read of
    one makes a new number object, and the decay takes a quarter longer (49 ms, not 41)."""
    from fscli.engine.usage import Charges  # not for the views that read no usage

    columns: tuple[list, list, list] = ([], [], [])
    for batch in batches(conn, *_charges_query(conn, cluster_id, until)):
        for k, column in enumerate(columns):
            column.extend(map(itemgetter(k), batch))
    return Charges(*columns)


def load_jobs(
    conn,
    cluster_id: int | None = None,
    states: tuple[str, ...] | None = None,
    loose: bool = False,
    job_id: int | None = None,
) -> list[Job]:
    """Jobs by id: the cluster's (all when ``cluster_id`` is None), with ``loose`` also
    those stored without a cluster (LSF jobs), in ``states`` if given (``job_id``: that
    job only)."""
    where, params = [], {}
    if job_id is not None:
        where.append("id = :job_id")
        params["job_id"] = job_id
    if cluster_id is not None:
        here = "cluster_id = :cid"
        where.append(f"({here} OR cluster_id IS NULL)" if loose else here)
        params["cid"] = cluster_id
    if states:
        clause, more = in_list("state", "state", states)
        where.append(clause)
        params.update(more)
    sql = (
        'SELECT id, "user", account, assoc_id, "partition", qos, state, submit, eligible, '
        'start, "end", cpus, nodes, tres, time_limit, nice, site_factor, queue, slots, '
        "cputime, admin_priority, billing FROM job"
    )
    if where:
        sql += " WHERE " + " AND ".join(where)
    return [
        Job(
            id=r[0],
            user=r[1],
            account=r[2],
            assoc_id=r[3],
            partitions=tuple(p for p in (r[4] or "").split(",") if p),
            qos=r[5],
            state=r[6],
            submit=r[7],
            eligible=r[8],
            start=r[9],
            end=r[10],
            cpus=r[11],
            nodes=r[12],
            tres=parse_tres(r[13]) if r[13] else {},
            time_limit=r[14],
            nice=r[15] or 0,
            site_factor=r[16] or 0,
            queue=r[17],
            slots=r[18] or 1,
            cputime=r[19],
            admin_priority=r[20],
            billing=r[21],
        )
        for r in rows(conn, sql + " ORDER BY id", params)
    ]


def cluster_id_for(conn, name: str | None, demo_hint: bool = True) -> int:
    """The cluster a command works on (``--cluster`` in the spec): the one named, else the
    store's only one. ``conn``: any read connection, or an ORM session (``Admin.cluster``)."""
    from fscli.errors import NotFound, UsageProblem

    found = rows(conn, "SELECT id, name FROM cluster ORDER BY name")
    if name:
        for cid, cname in found:
            if cname == name.lower():
                return cid
        raise NotFound(f"cluster '{name}' does not exist: add it with 'fscli cluster add {name}'")
    if len(found) == 1:
        return found[0][0]
    if not found:
        raise NotFound(
            "the store holds no cluster yet: add one with 'fscli cluster add NAME'"
            + (" (or try 'fscli demo')" if demo_hint else "")
        )
    raise UsageProblem(
        f"the store holds several clusters ({', '.join(r[1] for r in found)}): "
        "choose one with --cluster"
    )


def load_listed_jobs(conn, cluster: str | None, filters: dict[str, set[str]]) -> list:
    """Jobs of the cluster plus LSF jobs stored without one (all jobs when the store has no
    cluster), as engine jobs, filtered by user/account/state/partition/queue."""
    has_cluster = scalar(conn, "SELECT count(*) FROM cluster")
    if not has_cluster and not cluster:
        jobs = load_jobs(conn)
    else:
        jobs = load_jobs(conn, cluster_id_for(conn, cluster), loose=True)
    for key, wanted in filters.items():
        if key == "partition":
            jobs = [j for j in jobs if wanted & set(j.partitions)]
        else:
            jobs = [j for j in jobs if (getattr(j, key) or "") in wanted]
    return jobs


def load_queue(
    conn,
    cluster_id: int,
    states: tuple[str, ...] = ("pending",),
    where: tuple[str, dict] | None = None,
) -> QueueColumns:
    """The Slurm jobs of the cluster in ``states`` (sprio: pending, and running with
    CALCULATE_RUNNING), with what the priority needs (no run times, LSF fields), as
    columns for :func:`fscli.engine.priority.compute_priorities` (which sorts them by id);
    only those matching ``where`` if given (an SQL condition on the job table and its
    parameters: sprio's ``-j``/``-u``, read from the store, not picked afterwards).

    Leaner than ``snapshot.load_jobs`` for a queue of 100,000 jobs: fewer columns, no Job
    object per row (60 ms), and each distinct partition list and TRES text parsed once
    (jobs share the parsed values, which are read-only). The rows become columns a
    batch at a time: 100,000 rows turned at once took 35 ms, a thousand at a time 10
    (a batch's rows are still in the CPU's caches).
    """
    from fscli.engine.priority import QueueColumns

    in_states, params = in_list("state", "state", states)
    params["cid"] = cluster_id
    if where is not None:
        in_states = f"{in_states} AND ({where[0]})"
        params.update(where[1])
    # of one state, the state is not read back as 100,000 copies of its text (9 of 155 ms)
    only = states[0] if len(states) == 1 else None
    sql = (
        'SELECT id, "user", account, assoc_id, "partition", qos, submit, eligible, cpus, '
        f"nodes, tres, time_limit, nice, site_factor, admin_priority{'' if only else ', state'} "
        f"FROM job WHERE cluster_id = :cid AND {in_states} AND queue IS NULL"
    )
    columns: list[list] = [[] for _ in range(15 if only else 16)]
    for batch in batches(conn, sql, params, size=1000):
        for column, values in zip(columns, zip(*batch)):
            column.extend(values)
    state = [only] * len(columns[0]) if only else columns.pop()
    ids, user, account, assoc, part_texts, qos, submit, eligible, cpus, nodes = columns[:10]
    tres_texts, limit, nice, site, admin = columns[10:]
    parts = {text: tuple(p for p in (text or "").split(",") if p) for text in set(part_texts)}
    tres = {text: {} if text is None else parse_tres(text) for text in set(tres_texts)}
    return QueueColumns(
        ids,
        user,
        account,
        assoc,
        list(map(parts.__getitem__, part_texts)),
        qos,
        state,
        submit,
        eligible,
        cpus,
        nodes,
        list(map(tres.__getitem__, tres_texts)),
        limit,
        nice,
        site,
        admin,
    )


def cluster_names(conn) -> list[str]:
    """Every cluster's name, sorted."""
    return [r[0] for r in rows(conn, "SELECT name FROM cluster ORDER BY name")]


def stored_users(conn, names: Sequence[str]) -> set[str]:
    """Those of ``names`` the store has as users (users are global, not per cluster)."""
    where, params = in_list("name", "n", names)
    return {r[0] for r in rows(conn, f"SELECT name FROM user_account WHERE {where}", params)}


def job_state(conn, job_id: int) -> str | None:
    """The job's state, None when the store has no such job."""
    return scalar(conn, "SELECT state FROM job WHERE id = :id", {"id": job_id})


def account_parents(conn, cluster_id: int) -> dict[str, str | None]:
    """Each account association of the cluster: its account name and its parent's."""
    found = rows(
        conn,
        "SELECT a.account, p.account FROM association AS a LEFT JOIN association AS p "
        'ON p.id = a.parent_id WHERE a.cluster_id = :cid AND a."user" IS NULL',
        {"cid": cluster_id},
    )
    return dict(found)
