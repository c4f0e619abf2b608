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


def test_usage_at_several_moments_is_each_moments_own(store):
    """The usage chart's moments come from one read of the store; each moment's numbers
    are what sshare says at that moment (a charge made later does not count)."""
    from fscli.api.shares import shares_over
    from fscli.engine.timestr import parse_when

    first, second = "2026-05-01T00:00:00", "2026-05-02T00:00:00"
    with open_store(store) as api:
        with api.transaction(at=first) as tx:
            tx.add_cluster("one")
            tx.add_account("a")
            tx.add_user("u", "a")
            tx.add_usage("a", 1000, user="u")
        with api.transaction(at=second) as tx:
            tx.add_usage("a", 500, user="u")
        moments = [parse_when(t, 0) for t in (first, second, "2026-05-20T00:00:00")]
        moments.insert(0, moments[0] - 3600)
        series = shares_over(api, None, moments)

        def numbers(answer):
            return [
                (r.assoc_id, r.raw_usage, r.effective_usage, r.fairshare, r.level_fs)
                for r in answer.rows
            ]

        assert [a.at for a in series] == moments
        # every moment's usage is made before the snapshot lets its charges go
        assert all(a.state is series[0].state for a in series)
        assert len(series[0].state.charges) == 0
        for answer, at in zip(series, moments):
            assert numbers(answer) == numbers(api.shares(at=at))
        user_usage = [next(r.raw_usage for r in a.rows if r.user == "u") for a in series]
        assert user_usage[:2] == [0, 1000]
        assert 1000 < user_usage[2] < 1500 and user_usage[3] < user_usage[2]
