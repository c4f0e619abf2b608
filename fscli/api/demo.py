"""The demo cluster (``fscli demo``): Slurm's classic fair-share example (accounts A-F,
users 1-5), plus a branch whose users have FairShare=parent, two weeks of usage and a
handful of pending jobs, built through the same write surface as every command."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fscli.api.store import Store
from fscli.api.when import When, moment

if TYPE_CHECKING:
    from fscli.api.writes import Writes

DEMO_CLUSTER = "demo"
NODES, CPUS = 50, 1600
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


def charge_demo_usage(tx: Writes, now: int) -> None:
    """Spread usage over the fourteen days before ``now``."""
    for user, account, per_day in DEMO_USAGE:
        for day in range(14, 0, -1):
            tx.add_usage(account, per_day, now - day * DAY, user=user, cluster=DEMO_CLUSTER)


def build_demo(tx: Writes) -> None:
    """Create the demo cluster's tree through the write surface every command uses."""
    # an earlier demo's, with the jobs it submitted ([] when there is none)
    tx.delete_cluster(DEMO_CLUSTER, active_jobs_too=True)
    tx.add_cluster(DEMO_CLUSTER, nodes=NODES, cpus=CPUS)
    for name, parent, shares in ACCOUNTS:
        tx.add_account(name, cluster=DEMO_CLUSTER, parent=parent, fairshare=shares)
    for name, account, user_shares in USERS:
        tx.add_user(name, account, cluster=DEMO_CLUSTER, fairshare=user_shares)


def demo_jobs(tx: Writes, now: int) -> list[str]:
    """For ``fscli demo``: priority weights (unless some are set), a partition (unless the
    cluster has one) and a handful of pending jobs of the demo users, submitted over the
    last two days so that age, fair-share, size and QOS all differ."""
    lines = []
    if not any(k.startswith("PriorityWeight") for k in tx.settings(DEMO_CLUSTER)):
        lines += tx.set_config(
            {
                "PriorityWeightAge": "1000",
                "PriorityWeightFairshare": "10000",
                "PriorityWeightJobSize": "1000",
                "PriorityWeightPartition": "1000",
                "PriorityWeightQOS": "1000",
                "PriorityMaxAge": "4320",
            },
            cluster=DEMO_CLUSTER,
            source="demo",
        )
    if not tx.partition_names(DEMO_CLUSTER):
        lines += tx.add_partition("batch", cluster=DEMO_CLUSTER, nodes=NODES, cpus=CPUS)
    for user, cpus, nodes, hours_ago in [
        ("user1", 64, 2, 40),
        ("user2", 16, 1, 30),
        ("user3", 256, 8, 20),
        ("user4", 8, 1, 10),
        ("user5", 32, 1, 5),
        ("ana", 128, 4, 2),
    ]:
        submit = now - hours_ago * 3600
        lines += tx.submit_job(
            user=user, cpus=cpus, nodes=nodes, submit=submit, cluster=DEMO_CLUSTER
        )[1]
    return lines


def build(store: Store, at: When = None) -> None:
    """(Re)build the demo cluster in ``store`` as of ``at``, in one transaction."""
    now = moment(at)
    with store.transaction(at=now) as tx:
        build_demo(tx)
        charge_demo_usage(tx, now)
        demo_jobs(tx, now)
