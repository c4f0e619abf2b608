"""``fscli demo`` — build (or rebuild) a demo cluster and show what fscli does.

The tree is the one of Slurm's classic fair-share example (accounts A-F, users 1-5),
plus a second branch whose users have FairShare=parent.
"""

from __future__ import annotations

import click

DEMO_CLUSTER = "demo"
# (account, parent, shares)
ACCOUNTS = [
    ("accounta", "root", 40), ("accountb", "accounta", 30), ("accountc", "accounta", 10),
    ("accountd", "root", 60), ("accounte", "accountd", 25), ("accountf", "accountd", 35),
    ("labs", "root", 20), ("lab1", "labs", 50), ("lab2", "labs", 50),
]
# (user, account, shares or "parent")
USERS = [
    ("user1", "accountb", 1), ("user2", "accountc", 1), ("user3", "accountc", 1),
    ("user4", "accounte", 1), ("user5", "accountf", 1),
    ("ana", "lab1", "parent"), ("ben", "lab1", "parent"), ("cy", "lab2", "parent"),
]


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
    """Build a demo cluster in the current store and show it.

    \b
    Example:
      fscli --db /tmp/demo.db demo
    """
    from fscli.cli.assoc import emit_assocs
    from fscli.cli.output import Output
    from fscli.store.admin import Admin

    with app.transaction() as session:
        build_demo(Admin(session, app.now, app.actor))
    app.say(f"built cluster '{DEMO_CLUSTER}' ({len(ACCOUNTS)} accounts, {len(USERS)} users)")
    emit_assocs(app, Output(), ["Account", "User", "Share"], tree=True, cluster=DEMO_CLUSTER,
                explicit=True)
    app.say(f"next: fscli --cluster {DEMO_CLUSTER} assoc list -P   or   "
            f"fscli --cluster {DEMO_CLUSTER} user add zoe account=lab2 fairshare=parent")
