"""Read paths: a cluster's charges, whatever the order they were written in."""

from __future__ import annotations

from fscli.store import snapshot
from fscli.store.db import open_engine

CHARGES = [  # (cluster, account, raw, at), written in this order
    ("c1", "b", 5, "2026-01-03T00:00:00"),
    ("c2", "b", 7, "2026-01-01T00:00:00"),
    ("c1", "a", 2, "2026-01-02T00:00:00"),
    ("c1", "b", 3, "2026-01-01T00:00:00"),
    ("c1", "a", 1, "2026-01-02T00:00:00"),
    ("c2", "a", 9, "2026-01-05T00:00:00"),
]
DAY = 86400
JAN1 = 1767225600  # 2026-01-01T00:00:00Z


def test_charges_are_the_clusters_own_by_association_time_and_amount(fscli, store):
    for cluster in ("c1", "c2"):
        fscli.ok("cluster", "add", cluster)
        fscli.ok("--cluster", cluster, "account", "add", "b", "a")  # b gets the lower id
    for cluster, account, raw, at in CHARGES:
        fscli.ok(
            "--cluster", cluster, "usage", "add", f"account={account}", f"raw={raw}", f"at={at}"
        )
    engine = open_engine(store)
    try:
        with engine.connect() as conn:
            cids = {name: snapshot.cluster_id_for(conn, name) for name in ("c1", "c2")}
            ids = {
                (name, a.account): a.id
                for name, cid in cids.items()
                for a in snapshot.load_assocs(conn, cid)
            }
            c1 = snapshot.load_charge_table(conn, cids["c1"])
            c1_jan2 = snapshot.load_charge_table(conn, cids["c1"], until=JAN1 + DAY)
            c2 = snapshot.load_charges(conn, cids["c2"])
    finally:
        engine.dispose()
    b1, a1 = ids[("c1", "b")], ids[("c1", "a")]
    assert b1 < a1
    assert (list(c1.assoc_id), list(c1.at), list(c1.amount)) == (
        [b1, b1, a1, a1],
        [JAN1, JAN1 + 2 * DAY, JAN1 + DAY, JAN1 + DAY],
        [3.0, 5.0, 1.0, 2.0],
    )
    assert (list(c1_jan2.assoc_id), list(c1_jan2.at), list(c1_jan2.amount)) == (
        [b1, a1, a1],
        [JAN1, JAN1 + DAY, JAN1 + DAY],
        [3.0, 1.0, 2.0],
    )
    assert [(c.assoc_id, c.at, c.amount) for c in c2] == [
        (ids[("c2", "b")], JAN1, 7.0),
        (ids[("c2", "a")], JAN1 + 4 * DAY, 9.0),
    ]


def test_a_clusters_job_list_holds_its_jobs_and_the_loose_lsf_ones_by_id(fscli):
    """LSF jobs stored without a cluster are listed with every cluster's jobs, in id order;
    another cluster's jobs are not."""
    at = "2026-01-05T00:00:00"
    fscli.ok("lsf", "queue", "add", "q")
    fscli.ok("job", "submit", "user=x", "queue=q", at=at)  # 1: no cluster in the store yet
    for cluster in ("c1", "c2"):
        fscli.ok("cluster", "add", cluster)
        fscli.ok("--cluster", cluster, "account", "add", "a")
        fscli.ok("--cluster", cluster, "user", "add", "u", "account=a")
    fscli.ok("--cluster", "c1", "job", "submit", "user=u", at=at)  # 2
    fscli.ok("--cluster", "c2", "job", "submit", "user=u", at=at)  # 3
    fscli.ok("job", "submit", "user=y", "queue=q", at=at)  # 4: two clusters, none chosen
    fscli.ok("--cluster", "c1", "job", "submit", "user=u", at=at)  # 5
    for cluster, ids in (("c1", ["1", "2", "4", "5"]), ("c2", ["1", "3", "4"])):
        rows = fscli.ok("--cluster", cluster, "job", "list", "-P", "-n").stdout.splitlines()
        assert [(r.split("|")[0], r.split("|")[5]) for r in rows] == [
            (i, "q" if i in ("1", "4") else "") for i in ids
        ], cluster
