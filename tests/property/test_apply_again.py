"""Applying a tree makes the cluster match it: planning the same tree again finds nothing to
change. The note an apply that changed things leaves (:mod:`fscli.store.unchanged`) stands
on this, for any tree that applies, onto a new cluster or over another tree."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.api import open_store
from fscli.io import yamltree
from tests.property.strategies import failed, near, outcome
from tests.store.test_unchanged import DUMPED, EXAMPLE, TREE

# each property runs tens to hundreds of examples, many of them commands on a store
pytestmark = pytest.mark.slow

AT = "2026-05-01T00:00:00"
BASES = (TREE, EXAMPLE, DUMPED)
VALUES = (
    "0",
    "3",
    "parent",
    "[normal]",
    "[-qhigh, +qlow]",
    "normal",
    "UNLIMITED",
    "cpu=4,mem=2G",
    "1-00:00:00",
    "90",
    "Operator",
    "phys",
    "''",
)


@st.composite
def revalued(draw) -> str:
    """A base tree with the value of one ``key: value`` line replaced by a likely one."""
    lines = draw(st.sampled_from(BASES)).splitlines(keepends=True)
    at = draw(st.sampled_from([i for i, line in enumerate(lines) if ": " in line]))
    key = lines[at][: lines[at].index(": ") + 2]
    lines[at] = key + draw(st.sampled_from(VALUES)) + "\n"
    return "".join(lines)


@settings(deadline=None, max_examples=30)
@given(
    st.sampled_from(BASES),
    st.one_of(revalued(), near(st.sampled_from(BASES))),
    st.booleans(),
    st.booleans(),
)
def test_a_tree_applied_plans_nothing_more(base, text, over, prune):
    """Also after a pruning apply, planned again pruning or not: its note answers both."""
    if failed(outcome(yamltree.load, text)):
        return
    with tempfile.TemporaryDirectory() as tmp, open_store(str(Path(tmp, "s.db"))) as store:
        if over:
            store.apply_tree(base, at=AT)
        if failed(outcome(store.apply_tree, text, at=AT, prune=prune)):
            return
        for again in sorted({False, prune}):
            plan = store.plan_tree(text, prune=again)
            assert [change.text() for change in plan.changes] == [], again


@settings(deadline=None, max_examples=30)
@given(st.sampled_from(BASES), st.one_of(revalued(), near(st.sampled_from(BASES))))
def test_the_store_read_beside_a_tree_is_the_store_read_alone(base, text):
    """A plan reads the store beside the tree it compares with: a user whose rows match
    one of the tree's is that object. What it reads equals what the store holds either
    way, whether the tree matches the store or not."""
    from fscli.store.tree_plan import cluster_id, read_spec

    if failed(outcome(yamltree.load, text)):
        return
    with tempfile.TemporaryDirectory() as tmp, open_store(str(Path(tmp, "s.db"))) as store:
        store.apply_tree(base, at=AT)
        for _ in range(2):  # the tree beside the store it does not match, then it applied
            tree = yamltree.load(text)
            with store.reading() as conn:
                cid = cluster_id(conn, tree.cluster.name)
                if cid is not None:
                    assert read_spec(conn, cid, known=tree.users) == read_spec(conn, cid)
                    assert tree == yamltree.load(text)  # the tree itself is left alone
            if failed(outcome(store.apply_tree, text, at=AT)):
                return
