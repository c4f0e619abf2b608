"""sshare's and sprio's one API call each (``fscli.api.views``): what a selection holds,
and that a piece at a time and all at once are the same rows."""

from __future__ import annotations

import pytest

from fscli.api import open_store
from fscli.api import views as api
from fscli.api.when import moment

AT = "2026-05-01T00:00:00"


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from tests.conftest import Fscli

    fscli = Fscli(str(tmp_path_factory.mktemp("views") / "store.db"))
    fscli.ok("demo", at=AT)
    with open_store(fscli.db) as store:
        yield store


def _now() -> int:
    """``AT`` as epoch seconds, read when the test runs (under the suite's TZ)."""
    return moment(AT)


def _pieced(selection: api.ShareSelection, size: int) -> list[tuple[str, str | None]]:
    return [
        pair for piece in selection.pieces(size) for pair in zip(piece["account"], piece["user"])
    ]


def test_over_and_sort_are_judged_before_the_pieces(demo):
    query = api.ShareQuery(all_users=True, over=True, sort="-RawUsage")
    selection = api.select_shares(demo, None, _now(), query)
    assert [(r.account, r.user) for r in selection.rows] == [
        ("accounta", None),
        ("accountc", None),
        ("accountc", "user2"),
        ("accounte", None),
        ("labs", None),
        ("lab2", None),
    ]
    assert _pieced(selection, 4) == [(r.account, r.user) for r in selection.rows]


def test_pieces_in_sshare_order_are_the_kept_rows(demo):
    query = api.ShareQuery(accounts=("lab1", "accountb"), all_users=True)
    selection = api.select_shares(demo, None, _now(), query)
    assert _pieced(selection, 1) == [
        ("accountb", None),
        ("accountb", "user1"),
        ("lab1", None),
        ("lab1", "ana"),
        ("lab1", "ben"),
    ]
    assert _pieced(selection, 1) == [(r.account, r.user) for r in selection.rows]


def test_the_jobs_go_through_again_only_for_a_column_that_shows_them(demo):
    short = api.select_shares(demo, None, _now(), api.ShareQuery(columns={"Account"}))
    assert short.run_minutes == {} and short.tres_usage == {}
    assert "run_minutes" not in vars(short.answer) and "tres_usage" not in vars(short.answer)
    every = api.select_shares(demo, None, _now(), api.ShareQuery(columns=None))
    assert every.tres_usage is every.answer.tres_usage


def test_explain_holds_the_one_row_and_its_derivation(demo):
    selection = api.explain_share(demo, None, _now(), api.ShareQuery(), "user1/accountb")
    assert [(r.account, r.user) for r in selection.rows] == [("accountb", "user1")]
    assert selection.explained is not None
    assert selection.explained[0] == "user user1 (account accountb) — algorithm fair_tree"
    assert _pieced(selection, 10) == [("accountb", "user1")]
