"""Usage charges read from the store: each cluster sees only its own (one or several)."""

from __future__ import annotations

from fscli.api import open_store

AT = "2026-05-01T00:00:00"


def raw_usage(store, cluster: str) -> list[tuple]:
    return [(r.account, r.user, r.raw_usage) for r in store.shares(cluster, at=AT)]


def test_charges_stay_with_their_cluster(store):
    with open_store(store) as api:
        with api.transaction(at=AT) as tx:
            tx.add_cluster("one")
            tx.add_account("a", cluster="one")
            tx.add_user("u", "a", cluster="one")
            tx.add_usage("a", 1000, user="u", cluster="one")
        assert raw_usage(api, "one") == [("root", None, 1000), ("a", None, 1000), ("a", "u", 1000)]
        with api.transaction(at=AT) as tx:
            tx.add_cluster("two")
            tx.add_account("a", cluster="two")
            tx.add_user("u", "a", cluster="two")
            tx.add_usage("a", 7, user="u", cluster="two")
        assert raw_usage(api, "one") == [("root", None, 1000), ("a", None, 1000), ("a", "u", 1000)]
        assert raw_usage(api, "two") == [("root", None, 7), ("a", None, 7), ("a", "u", 7)]
