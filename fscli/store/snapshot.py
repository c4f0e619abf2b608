"""Read paths: load the store into engine dataclasses with SQLAlchemy Core.

One query per table, rows as tuples (no ORM entities: loading 100k rows through the
ORM costs several times more). Every view (sshare, sprio, limits, exports) starts here.
"""

from __future__ import annotations

from sqlalchemy import func, or_, select

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import (
    SHARES_PARENT,
    Assoc,
    Charge,
    ClusterInfo,
    Job,
    Partition,
    Qos,
)
from fscli.engine.tres import parse_tres
from fscli.engine.usage import Charges
from fscli.store import tables as t
from fscli.store.assoc_fields import loaded_limits, qos_list

_ASSOC_COLS = [getattr(t.association.c, d.attr) for d in limitdefs.ASSOC_LIMITS]
_QOS_COLS = [getattr(t.qos.c, d.attr) for d in limitdefs.QOS_LIMITS]


def _plain_rows(conn, query) -> list[tuple]:
    """All rows as the DBAPI driver returns them: plain tuples, no per-row Row objects
    (half the cost of loading 100k rows). Only for columns that need no result
    processing: integers, floats, text, and booleans read as truth values."""
    result = conn.execute(query)
    try:
        return result.cursor.fetchall()
    finally:
        result.close()


def load_assocs(conn, cluster_id: int, where=None) -> list[Assoc]:
    """The cluster's associations (only those matching the Core clause ``where`` if given).

    Limits come from a second query over just the rows that set one, so that the main
    query stays narrow (most associations set none).
    """
    table = t.association.c
    # All of a cluster: "cluster_id + 0" keeps SQLite from walking ix_association_key and
    # fetching each row by id (twice the cost of scanning the table). Rows come in id
    # order, the order of the charges (see _charges_query).
    in_cluster = (table.cluster_id + 0 if where is None else table.cluster_id) == cluster_id
    query = (
        select(
            table.id,
            table.parent_id,
            table.account,
            table.user,
            table.partition,
            table.shares_raw,
            table.shares_parent,
            table.priority,
            table.qos,
            table.default_qos,
        )
        .where(in_cluster)
        .order_by(table.id)
    )
    limited = select(table.id, *_ASSOC_COLS).where(
        in_cluster, or_(*(c.is_not(None) for c in _ASSOC_COLS))
    )
    if where is not None:
        query, limited = query.where(where), limited.where(where)
    limits = {
        row[0]: loaded_limits(limitdefs.ASSOC_LIMITS, row[1:]) for row in conn.execute(limited)
    }
    rows = _plain_rows(conn, query)
    qos_lists = {text: tuple(qos_list(text)) for text in {row[8] for row in rows}}
    return [
        Assoc(
            aid,
            parent,
            account,
            user,
            part,
            SHARES_PARENT if is_parent else (1 if raw is None else raw),
            prio,
            qos_lists[qos],
            dqos,
            limits.get(aid) or {},
        )
        for aid, parent, account, user, part, raw, is_parent, prio, qos, dqos in rows
    ]


def load_qos(conn) -> dict[str, Qos]:
    table = t.qos.c
    query = select(
        table.name,
        table.priority,
        table.flags,
        table.usage_factor,
        table.limit_factor,
        table.usage_threshold,
        table.grace_time,
        *_QOS_COLS,
    )
    out = {}
    for row in conn.execute(query):
        name, prio, flags, uf, lf, ut, grace = row[:7]
        out[name] = Qos(
            name=name,
            priority=prio or 0,
            flags=frozenset(f for f in (flags or "").split(",") if f),
            usage_factor=1.0 if uf is None else uf,
            limit_factor=lf,
            usage_threshold=ut,
            grace_time=grace,
            limits=loaded_limits(limitdefs.QOS_LIMITS, row[7:]),
        )
    return out


def load_partitions(conn, cluster_id: int) -> dict[str, Partition]:
    table = t.partition.c
    query = select(
        table.name,
        table.nodes,
        table.cpus,
        table.tres,
        table.priority_job_factor,
        table.priority_tier,
        table.qos,
        table.max_time,
        table.max_nodes,
        table.min_nodes,
        table.billing_weights,
        table.def_mem_per_cpu,
        table.def_mem_per_node,
        table.max_mem_per_cpu,
    ).where(table.cluster_id == cluster_id)
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
    ) in conn.execute(query):
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
    c = t.cluster.c
    row = conn.execute(select(c.name, c.nodes, c.cpus, c.tres).where(c.id == cluster_id)).one()
    return ClusterInfo(
        name=row[0], nodes=row[1], cpus=row[2], tres=parse_tres(row[3]) if row[3] else {}
    )


def load_config(conn, cluster_id: int) -> dict[str, str]:
    """The cluster's settings (each cluster has its own slurm.conf)."""
    c = t.config.c
    return dict(conn.execute(select(c["key"], c.value).where(c.cluster_id == cluster_id)).all())


def _charges_query(conn, cluster_id: int, until: int | None):
    """The cluster's charges grouped by association, by time within one (a scan of the
    covering index ``ix_usage_assoc_at_amount``): the engine sums each association's
    charges in this one order, whatever order they were written in, on every backend."""
    u = t.usage.c
    query = select(u.assoc_id, u.at, u.amount).order_by(u.assoc_id, u.at, u.amount)
    if conn.execute(select(func.count()).select_from(t.cluster)).scalar() != 1:
        # several clusters: keep this one's charges. An IN (subquery), not a join: SQLite
        # then reads the index in order for each of the cluster's associations, where the
        # join's plan sorts every charge again. (With one cluster all charges are its own,
        # and a plain scan costs less still.)
        a = t.association.c
        query = query.where(u.assoc_id.in_(select(a.id).where(a.cluster_id == cluster_id)))
    return query if until is None else query.where(u.at <= until)


def load_charges(conn, cluster_id: int, until: int | None = None) -> list[Charge]:
    return [
        Charge(aid, at, amount)
        for aid, at, amount in conn.execute(_charges_query(conn, cluster_id, until)).all()
    ]


def load_charge_table(conn, cluster_id: int, until: int | None = None) -> Charges:
    """The same charges as columns (no object per charge: what usage decay reads fastest)."""
    rows = _plain_rows(conn, _charges_query(conn, cluster_id, until))
    return Charges([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])


def load_jobs(
    conn, cluster_id: int | None = None, states: tuple[str, ...] | None = None, loose: bool = False
) -> list[Job]:
    """Jobs by id: the cluster's (all when ``cluster_id`` is None), with ``loose`` also
    those stored without a cluster (LSF jobs), in ``states`` if given."""
    table = t.job.c
    query = select(
        table.id,
        table.user,
        table.account,
        table.assoc_id,
        table.partition,
        table.qos,
        table.state,
        table.submit,
        table.eligible,
        table.start,
        table.end,
        table.cpus,
        table.nodes,
        table.tres,
        table.time_limit,
        table.nice,
        table.site_factor,
        table.queue,
        table.slots,
        table.cputime,
        table.admin_priority,
    )
    if cluster_id is not None:
        here = table.cluster_id == cluster_id
        query = query.where(or_(here, table.cluster_id.is_(None)) if loose else here)
    if states:
        query = query.where(table.state.in_(states))
    out = []
    for r in conn.execute(query.order_by(table.id)):
        out.append(
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
            )
        )
    return out


def cluster_id_for(conn, name: str | None, demo_hint: bool = True) -> int:
    """The cluster a command works on (``--cluster`` in the spec): the one named, else the
    store's only one. ``conn``: a Core connection or an ORM session (``Admin.cluster``)."""
    from fscli.errors import NotFound, UsageProblem

    c = t.cluster.c
    rows = conn.execute(select(c.id, c.name).order_by(c.name)).all()
    if name:
        for cid, cname in rows:
            if cname == name.lower():
                return cid
        raise NotFound(f"cluster '{name}' does not exist: add it with 'fscli cluster add {name}'")
    if len(rows) == 1:
        return rows[0][0]
    if not rows:
        raise NotFound(
            "the store holds no cluster yet: add one with 'fscli cluster add NAME'"
            + (" (or try 'fscli demo')" if demo_hint else "")
        )
    raise UsageProblem(
        f"the store holds several clusters ({', '.join(r[1] for r in rows)}): "
        "choose one with --cluster"
    )


def load_listed_jobs(conn, cluster: str | None, filters: dict[str, set[str]]) -> list:
    """Jobs of the cluster plus LSF jobs stored without one (all jobs when the store has no
    cluster), as engine jobs, filtered by user/account/state/partition/queue."""
    has_cluster = conn.scalar(select(func.count()).select_from(t.cluster))
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


def load_queue(conn, cluster_id: int, states: tuple[str, ...] = ("pending",)) -> list[Job]:
    """The Slurm jobs of the cluster in ``states`` (sprio: pending, and running with
    CALCULATE_RUNNING), by id, with what the priority needs (no run times, LSF fields).

    Leaner than ``snapshot.load_jobs`` for a queue of 100,000 jobs: fewer columns, and each
    distinct partition list and TRES text is parsed once (jobs share the parsed values,
    which are read-only).
    """
    j = t.job.c
    query = (
        select(
            j.id,
            j.user,
            j.account,
            j.assoc_id,
            j.partition,
            j.qos,
            j.state,
            j.submit,
            j.eligible,
            j.cpus,
            j.nodes,
            j.tres,
            j.time_limit,
            j.nice,
            j.site_factor,
            j.admin_priority,
        )
        .where(j.cluster_id == cluster_id, j.state.in_(states), j.queue.is_(None))
        .order_by(j.id)
    )
    parts: dict[str | None, tuple[str, ...]] = {}
    tres: dict[str | None, dict[str, int]] = {None: {}}
    out = []
    for (
        job_id,
        user,
        account,
        assoc_id,
        part,
        qos,
        state,
        submit,
        eligible,
        cpus,
        nodes,
        tres_text,
        limit,
        nice,
        site,
        admin,
    ) in conn.execute(query).all():
        if part not in parts:
            parts[part] = tuple(p for p in (part or "").split(",") if p)
        if tres_text not in tres:
            tres[tres_text] = parse_tres(tres_text)
        out.append(
            Job(
                id=job_id,
                user=user,
                account=account,
                assoc_id=assoc_id,
                partitions=parts[part],
                qos=qos,
                state=state,
                submit=submit,
                eligible=eligible,
                cpus=cpus,
                nodes=nodes,
                tres=tres[tres_text],
                time_limit=limit,
                nice=nice or 0,
                site_factor=site or 0,
                admin_priority=admin,
            )
        )
    return out


def cluster_names(conn) -> list[str]:
    """Every cluster's name, sorted."""
    return list(conn.execute(select(t.cluster.c.name).order_by(t.cluster.c.name)).scalars())


def job_state(conn, job_id: int) -> str | None:
    """The job's state, None when the store has no such job."""
    return conn.execute(select(t.job.c.state).where(t.job.c.id == job_id)).scalar()
