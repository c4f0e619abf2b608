"""Read paths: a cluster's charges, whatever the order they were written in."""

from __future__ import annotations

from fscli.store import snapshot
from fscli.store.db import open_engine

CHARGES = [  # (cluster, account, raw, at), written in this order
    ("c1", "b", 5, "2026-01-03T00:00:00"), ("c2", "b", 7, "2026-01-01T00:00:00"),
    ("c1", "a", 2, "2026-01-02T00:00:00"), ("c1", "b", 3, "2026-01-01T00:00:00"),
    ("c1", "a", 1, "2026-01-02T00:00:00"), ("c2", "a", 9, "2026-01-05T00:00:00"),
]
DAY = 86400
JAN1 = 1767225600  # 2026-01-01T00:00:00Z


def test_charges_are_the_clusters_own_by_association_time_and_amount(fscli, store):
    for cluster in ("c1", "c2"):
        fscli.ok("cluster", "add", cluster)
        fscli.ok("--cluster", cluster, "account", "add", "b", "a")  # b gets the lower id
    for cluster, account, raw, at in CHARGES:
        fscli.ok("--cluster", cluster, "usage", "add", f"account={account}", f"raw={raw}",
                 f"at={at}")
    engine = open_engine(store)
    try:
        with engine.connect() as conn:
            cids = {name: snapshot.cluster_id_for(conn, name) for name in ("c1", "c2")}
            ids = {(name, a.account): a.id for name, cid in cids.items()
                   for a in snapshot.load_assocs(conn, cid)}
            c1 = snapshot.load_charge_table(conn, cids["c1"])
            c1_jan2 = snapshot.load_charge_table(conn, cids["c1"], until=JAN1 + DAY)
            c2 = snapshot.load_charges(conn, cids["c2"])
    finally:
        engine.dispose()
    b1, a1 = ids[("c1", "b")], ids[("c1", "a")]
    assert b1 < a1
    assert (list(c1.assoc_id), list(c1.at), list(c1.amount)) == (
        [b1, b1, a1, a1], [JAN1, JAN1 + 2 * DAY, JAN1 + DAY, JAN1 + DAY], [3.0, 5.0, 1.0, 2.0])
    assert (list(c1_jan2.assoc_id), list(c1_jan2.at), list(c1_jan2.amount)) == (
        [b1, a1, a1], [JAN1, JAN1 + DAY, JAN1 + DAY], [3.0, 1.0, 2.0])
    assert [(c.assoc_id, c.at, c.amount) for c in c2] == [
        (ids[("c2", "b")], JAN1, 7.0), (ids[("c2", "a")], JAN1 + 4 * DAY, 9.0)]
