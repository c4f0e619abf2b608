"""``fscli demo`` — build (or rebuild) a demo cluster and show what fscli does.

The tree is the one of Slurm's classic fair-share example (accounts A-F, users 1-5),
plus a second branch whose users have FairShare=parent. On a terminal every table fits
100 columns.
"""

from __future__ import annotations

import click

from fscli.api.demo import ACCOUNTS, DEMO_CLUSTER, USERS


@click.command()
@click.pass_obj
def demo(app) -> None:
    """Build a demo cluster in a demo store and show it.

    Without --db (or FSCLI_DB) the demo gets a store of its own, demo.db beside the default
    store, so that your own store stays yours: its last lines say how to reach it.

    \b
    Example:
      fscli demo
      fscli --db /tmp/demo.db demo
    """
    from fscli.api.demo import build
    from fscli.api.names import demo_store_path

    own_store = app.db is None
    if own_store:
        app.db = str(demo_store_path())
    build(app.store, app.now)
    app.say(
        f"built cluster '{DEMO_CLUSTER}' ({len(ACCOUNTS)} accounts, {len(USERS)} users, "
        "usage over the last two weeks, pending jobs)"
    )
    app.cluster_name = DEMO_CLUSTER
    for section in show_sections():
        section(app)
    show_hint(app, own_store)


def show_tree(app) -> None:
    from fscli.cli.assoc import emit_assocs
    from fscli.cli.output import Output

    emit_assocs(
        app, Output(), ["Account", "User", "Share"], tree=True, cluster=DEMO_CLUSTER, explicit=True
    )


# sshare -l columns the demo leaves out so that its table fits 100 columns (the demo
# has no TRES limits or running jobs; NormUsage is EffectvUsage's classic twin)
WIDE_SSHARE = ("NormUsage", "GrpTRESMins", "GrpTRESRaw", "TRESRunMins")


def show_sshare(app) -> None:
    from fscli.render.sshare import Extras, default_fields, table_cells
    from fscli.render.tables import show

    answer = app.store.shares(DEMO_CLUSTER, app.now)
    fields = [f for f in default_fields(answer.algorithm, long=True) if f.name not in WIDE_SSHARE]
    columns, cells, right = table_cells(
        answer.rows, fields, Extras(answer.cluster, answer.tres_names)
    )
    show(columns, cells, f"sshare -a -l ({answer.algorithm}, without TRES columns)", True, right)


def show_sprio(app) -> None:
    from fscli.render.sprio import default_format, show_table

    result = app.store.priorities(DEMO_CLUSTER, app.now)
    fmt = default_format(result.config, users=True)
    show_table(
        result.columns, result.config, fmt, title=f"Job priority on {result.cluster} (sprio)"
    )


def show_hint(app, own_store: bool) -> None:
    """Commands to go on with, that work as printed (pasted in any shell, in any order):
    they name the demo store, and its cluster when the store may hold others."""
    import shlex

    from fscli.api.names import shown_location

    rows = app.store.priorities(DEMO_CLUSTER, app.now).rows
    job = rows[0].job_id if rows else "JOBID"
    where = shlex.quote(shown_location(app.db))
    prefix = f"fscli --db {where}" + ("" if own_store else f" --cluster {DEMO_CLUSTER}")
    if own_store:
        app.say(f"the demo store is {app.db} (your own store is untouched)")
    app.say(
        f"next: {prefix} sshare --explain user2/accountc\n"
        f"      {prefix} sprio --explain {job}\n"
        f"      {prefix} tree"
    )


def show_sections() -> list:
    """What ``fscli demo`` shows, in order, each ``section(app)`` (add new views here)."""
    return [
        show_tree,
        show_sshare,
        show_sprio,
    ]
