"""``nest_order``: slurmdbd's nested-set order of siblings, kept as one number a row."""

from __future__ import annotations

import json

import pytest

from fscli.store import nest
from tests.backends import EVERY_BACKEND, once, store_for


def test_each_run_of_one_parent_goes_first_in_its_own_order():
    # a call adding (parent 1) x, y, (parent 2) z, (parent 1) w below order -3
    orders, low = nest.call_orders([1, 1, 2, 1], -3)
    assert orders == [-5, -4, -6, -7]  # w's run lands before x, y under parent 1
    assert low == -7


def test_siblings_without_an_order_come_last_newest_first():
    key = nest.sibling_key({1: -2, 2: None, 3: -5, 4: None})
    assert sorted([1, 2, 3, 4], key=key) == [3, 1, 4, 2]


@once
@pytest.mark.parametrize("backend", EVERY_BACKEND)
def test_0009_keeps_the_order_the_ids_and_the_batches_gave(backend, tmp_path):
    """Newest first, except ids added together (the setting it replaces), which keep
    their own order; the setting goes."""
    from sqlalchemy import select, text

    from fscli.store import tables as t
    from fscli.store.db import create_engine_for, open_engine, resolve_url, upgrade

    db = store_for(backend, tmp_path / "old.db")
    engine = create_engine_for(resolve_url(db))
    upgrade(engine, "0007")
    q = "`" if engine.dialect.name == "mysql" else '"'
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO cluster (id, name) VALUES (1, 'c')"))
        conn.execute(text("INSERT INTO account (name) VALUES ('root'), ('a'), ('b'), ('x')"))
        rows = [(1, "root", None), (2, "a", 1), (3, "b", 1), (4, "x", 1)]
        for aid, acct, parent in rows:
            conn.execute(
                text(
                    "INSERT INTO association (id, cluster_id, account, parent_id, shares_parent)"
                    " VALUES (:i, 1, :a, :p, false)"
                ),
                {"i": aid, "a": acct, "p": parent},
            )
        conn.execute(
            text(f"INSERT INTO cluster_config (cluster_id, {q}key{q}, value) VALUES (1, :k, :v)"),
            {"k": "fscli:sacctmgr:batches", "v": json.dumps([[2, 3]])},
        )
    engine.dispose()
    engine = open_engine(db)
    try:
        with engine.connect() as conn:
            orders = nest.nest_orders(conn, 1)
            children = sorted([2, 3, 4], key=nest.sibling_key(orders))
            assert children == [4, 2, 3]  # x newest; a and b as added together
            assert None not in orders.values()
            left = conn.execute(select(t.config.c.key)).scalars().all()
            assert "fscli:sacctmgr:batches" not in left
    finally:
        engine.dispose()
