"""``fscli demo`` — build (or rebuild) a demo cluster and show what fscli does.

The tree is the one of Slurm's classic fair-share example (accounts A-F, users 1-5),
plus a second branch whose users have FairShare=parent. On a terminal every table fits
100 columns.
"""

from __future__ import annotations

import click

DEMO_CLUSTER = "demo"
# (account, parent, shares)
ACCOUNTS = [
    ("accounta", "root", 40),
    ("accountb", "accounta", 30),
    ("accountc", "accounta", 10),
    ("accountd", "root", 60),
    ("accounte", "accountd", 25),
    ("accountf", "accountd", 35),
    ("labs", "root", 20),
    ("lab1", "labs", 50),
    ("lab2", "labs", 50),
]
# (user, account, shares or "parent")
USERS = [
    ("user1", "accountb", 1),
    ("user2", "accountc", 1),
    ("user3", "accountc", 1),
    ("user4", "accounte", 1),
    ("user5", "accountf", 1),
    ("ana", "lab1", "parent"),
    ("ben", "lab1", "parent"),
    ("cy", "lab2", "parent"),
]


# (user, account, billing TRES-seconds per day) charged daily over the last two weeks
DEMO_USAGE = [
    ("user1", "accountb", 96_000),
    ("user2", "accountc", 120_000),
    ("user4", "accounte", 120_000),
    ("ana", "lab1", 30_000),
    ("cy", "lab2", 60_000),
]
DAY = 86_400


def charge_demo_usage(admin, now: int) -> None:
    """Spread usage over the fourteen days before ``now`` through the usage service."""
    cluster = admin.cluster(DEMO_CLUSTER)
    for user, account, per_day in DEMO_USAGE:
        for day in range(14, 0, -1):
            admin.add_usage(cluster, user, account, float(per_day), now - day * DAY)


def build_demo(admin) -> None:
    """Create the demo cluster's tree through the same services the commands use."""
    from sqlalchemy import select

    from fscli.store import models as m
    from fscli.store.assoc_fields import AssocChanges

    if admin.s.scalar(select(m.Cluster).where(m.Cluster.name == DEMO_CLUSTER)) is not None:
        admin.delete_cluster(DEMO_CLUSTER)
    admin.add_cluster(DEMO_CLUSTER, nodes=50, cpus=1600)
    cluster = admin.cluster(DEMO_CLUSTER)
    for name, parent, shares in ACCOUNTS:
        admin.add_accounts(cluster, [name], parent, None, None, AssocChanges(shares=shares))
    for name, account, shares in USERS:
        admin.add_users(cluster, [name], [account], None, None, None, AssocChanges(shares=shares))


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
    from fscli.cli.sprio import demo_jobs
    from fscli.store.db import demo_path
    from fscli.store.usage_admin import UsageAdmin

    own_store = app.db is None
    if own_store:
        app.db = str(demo_path())

    with app.transaction() as session:
        admin = UsageAdmin(session, app.now, app.actor)
        build_demo(admin)
        charge_demo_usage(admin, app.now)
        demo_jobs(admin, admin.cluster(DEMO_CLUSTER), app.now)
    app.say(
        f"built cluster '{DEMO_CLUSTER}' ({len(ACCOUNTS)} accounts, {len(USERS)} users, "
        "usage over the last two weeks, pending jobs)"
    )
    app.cluster_name = DEMO_CLUSTER
    for section in show_sections():
        section(app)
    if own_store:
        import shlex

        app.say(
            f"the demo store is {app.db} (your own store is untouched); to explore it:\n"
            f"      export FSCLI_DB={shlex.quote(app.db)}"
        )


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
    from fscli.cli.sprio import show_sprio as sprio_table

    sprio_table(app, DEMO_CLUSTER, long=False, users=True)


def show_hint(app) -> None:
    app.say(
        f"next: fscli --cluster {DEMO_CLUSTER} sshare --explain user2/accountc\n"
        f"      fscli --cluster {DEMO_CLUSTER} sprio --explain JOBID\n"
        f"      fscli --cluster {DEMO_CLUSTER} tree"
    )


def show_sections() -> list:
    """What ``fscli demo`` shows, in order, each ``section(app)`` (add new views here)."""
    return [
        show_tree,
        show_sshare,
        show_sprio,
        show_hint,
    ]
