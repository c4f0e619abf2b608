"""Trees as code: plan a cluster's tree against the store, and apply it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fscli.errors import InvalidValue

if TYPE_CHECKING:
    from fscli.api.store import Store
    from fscli.api.when import When
    from fscli.engine.treediff import Plan
    from fscli.engine.treespec import TreeSpec
    from fscli.store.session import Write


def as_spec(spec: TreeSpec | str, source: str = "tree.yaml") -> TreeSpec:
    """A TreeSpec as it is, or one read from YAML text (the format of ``fscli apply``);
    errors in the text name ``source``."""
    if isinstance(spec, str):
        from fscli.io import yamltree

        return yamltree.load(spec, source=source)
    return spec


def plan_tree(store: Store, spec: TreeSpec | str, prune: bool = False) -> Plan:
    """What applying ``spec`` would change (``+`` add, ``~`` change, ``-`` remove, and
    ``kept``: what pruning leaves and why), validated, without writing anything."""
    from fscli.store.tree_plan import make_plan

    with store.reading() as conn:
        return make_plan(conn, as_spec(spec), prune=prune)


def apply_tree(
    store: Store,
    spec: TreeSpec | str,
    prune: bool = False,
    dry_run: bool = False,
    at: When = None,
    loading: bool = False,
    clean: bool = False,
    on_plan: Callable[[Plan], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    source: str = "tree.yaml",
    cluster: str | None = None,
    quick: bool = False,
    records: bool = False,
    inside: Callable[[Any], None] | None = None,
) -> Plan:
    """Make the cluster match ``spec`` in one transaction and return the plan applied.

    A dry run applies the plan as the real run does, every check included, and rolls
    back: the two cannot disagree on what fails. ``loading`` (a sacctmgr dump file): QOS
    and partitions the file names but the store lacks are added, and a DefaultQOS outside
    a QOS list is kept, as sacctmgr accepts it; ``clean`` removes the cluster's accounts
    and users first. ``on_plan`` sees the plan before it is written. YAML text is read
    with errors naming ``source``; ``cluster``, if given, is the cluster it must be for.

    ``quick`` (YAML text, on an SQLite store): the text an earlier apply left the store's
    very content matching is not read again (:mod:`fscli.store.unchanged`): the empty plan
    returned then holds only the cluster's name as its spec. An apply that finds nothing
    to change, or writes its changes, is remembered for that; a pruning one that keeps
    nothing back (``Plan.kept``) also for applying the text with or without pruning.
    ``records``: the plan also holds the stored records of the accounts and users it adds
    or removes that other clusters have (``Plan.records``, for a sacctmgr script).
    ``inside`` is called with the transaction's connection once the plan is written to
    it, before it commits (or, for a dry run, rolls back): a what-if reads the store as
    the apply leaves it there (:mod:`fscli.api.whatif`).
    """
    text = spec if quick and isinstance(spec, str) and not (loading or clean) else None
    if text is not None:
        plan = _unchanged(store, text, cluster, prune)
        if plan is not None:  # known without SQLAlchemy, the tree or the planner
            if on_plan is not None:
                on_plan(plan)
            return plan
    from fscli.api.when import moment
    from fscli.engine.treespec import lower_names
    from fscli.store.tree_plan import make_plan, read_records

    spec = lower_names(as_spec(spec, source))
    if cluster and cluster.lower() != spec.cluster.name:
        raise InvalidValue(f"{source} is for cluster '{spec.cluster.name}', not '{cluster}'")
    with store.writing(dry_run) as write:
        plan = make_plan(write.conn, spec, prune=prune, create_missing=loading, clean=clean)
        if records:
            read_records(write.conn, plan)
        if on_plan is not None:
            on_plan(plan)
        if plan.changes:  # SQLAlchemy writes them: a plan without any needs none of it
            from fscli.store.tree_sync import apply_plan

            apply_plan(
                write.session(),
                plan,
                moment(at),
                store.actor,
                progress,
                check_default_qos=not loading,
            )
        if inside is not None and plan.changes:
            write.session().flush()
            inside(write.session())
        elif inside is not None:
            inside(write.conn)
        if text is not None and not plan.kept and not (plan.changes and dry_run):
            _remember(write, text, spec.cluster.name, prune)
    return plan


def _unchanged(store: Store, text: str, cluster: str | None, prune: bool) -> Plan | None:
    """The empty plan of a tree text known to change nothing in the store as it is now
    (for ``cluster``, if given; ``prune``: applied pruning), else None."""
    from fscli.store.unchanged import unchanged

    if store.read_only:  # the apply refuses to run at all
        return None
    name = unchanged(store.db, text, prune)
    if name is None or (cluster and cluster.lower() != name):
        return None
    from fscli.engine.treediff import Plan
    from fscli.engine.treespec import ClusterSpec, TreeSpec

    return Plan(TreeSpec(cluster=ClusterSpec(name=name)), [], cluster_exists=True)


def _remember(write: Write, text: str, cluster: str, prune: bool) -> None:
    """Note the empty plan of ``text`` against the content the transaction holds once the
    plan is written, every change flushed (SQLite only): applying a tree makes the cluster
    match it, so applying it again plans nothing (with ``prune``, also applying it without:
    the pruning plan, which finds nothing to change, takes the store's every object of the
    cluster into account). Not after a dry run that changes things: its transaction rolls
    back, and the digest would be for nothing; nor after a pruning plan that keeps a QOS
    back: planned again, it keeps it back again."""
    from fscli.store.unchanged import remember

    conn = write.sqlite()
    if conn is not None:
        remember(conn, text, cluster, prune)


def tree_spec(store: Store, cluster: str | None = None) -> TreeSpec:
    """The cluster as a tree spec (QOS, partitions, settings, accounts, users): what
    ``fscli export`` writes as YAML and ``fscli dump`` as a sacctmgr flat file, and what
    :func:`apply_tree` of it on an empty store rebuilds."""
    from fscli.heap import bulk
    from fscli.store.snapshot import cluster_id_for
    from fscli.store.tree_plan import read_spec

    with store.reading() as conn, bulk():
        return read_spec(conn, cluster_id_for(conn, cluster))
