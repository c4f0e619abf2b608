"""The demo cluster (``fscli demo``): Slurm's classic fair-share example (accounts A-F,
users 1-5), plus a branch whose users have FairShare=parent, two weeks of usage and a
handful of pending jobs, built through the same write surface as every command."""

from __future__ import annotations

from fscli.api.store import Store, When, moment

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
    from fscli.store.assoc_fields import AssocChanges

    # an earlier demo's, with the jobs it submitted ([] when there is none)
    admin.delete_cluster(DEMO_CLUSTER, active_jobs_too=True)
    admin.add_cluster(DEMO_CLUSTER, nodes=50, cpus=1600)
    cluster = admin.cluster(DEMO_CLUSTER)
    for name, parent, shares in ACCOUNTS:
        admin.add_accounts(cluster, [name], parent, None, None, AssocChanges(shares=shares))
    for name, account, shares in USERS:
        admin.add_users(cluster, [name], [account], None, None, None, AssocChanges(shares=shares))


def demo_jobs(admin, cluster, now: int) -> list[str]:
    """For ``fscli demo``: priority weights (unless some are set), a partition (unless the
    cluster has one) and a handful of pending jobs of the demo users, submitted over the
    last two days so that age, fair-share, size and QOS all differ."""
    from fscli.store.jobs import JobInput, Jobs
    from fscli.store.resources import add_partition
    from fscli.store.snapshot import load_config

    lines = []
    if not any(
        k.startswith("PriorityWeight") for k in load_config(admin.s.connection(), cluster.id)
    ):
        lines += admin.set_config(
            cluster,
            {
                "PriorityWeightAge": "1000",
                "PriorityWeightFairshare": "10000",
                "PriorityWeightJobSize": "1000",
                "PriorityWeightPartition": "1000",
                "PriorityWeightQOS": "1000",
                "PriorityMaxAge": "4320",
            },
            source="demo",
        )
    if not admin.partition_names(cluster):
        lines += add_partition(
            admin, cluster, "batch", {"nodes": cluster.nodes, "cpus": cluster.cpus}
        )
    jobs = Jobs(admin, cluster)
    for user, cpus, nodes, hours_ago in [
        ("user1", 64, 2, 40),
        ("user2", 16, 1, 30),
        ("user3", 256, 8, 20),
        ("user4", 8, 1, 10),
        ("user5", 32, 1, 5),
        ("ana", 128, 4, 2),
    ]:
        lines += jobs.submit(
            JobInput(user=user, cpus=cpus, nodes=nodes, submit=now - hours_ago * 3600)
        )[1]
    return lines


def build(store: Store, at: When = None) -> None:
    """(Re)build the demo cluster in ``store`` as of ``at``, in one transaction."""
    now = moment(at)
    with store.transaction(at=now) as admin:
        build_demo(admin)
        charge_demo_usage(admin, now)
        demo_jobs(admin, admin.cluster(DEMO_CLUSTER), now)
