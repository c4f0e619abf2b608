"""The rows the pass cache keeps (``fscli.engine.share_table``): taken out of a result as
plain columns, through ``marshal`` and back, they are the result's rows, whole, in
pieces and as columns, GrpTRESMins filled in from the limits."""

from __future__ import annotations

import marshal

import pytest

from fscli.engine.fairshare import ShareRow
from fscli.engine.model import SHARES_PARENT, Assoc
from fscli.engine.share_table import ShareTable, parents_of, table_of, with_grp_tres_mins
from tests.engine.adapt import compute

GRP = {"cpu": 600, "billing": 9000}


def tree() -> list[Assoc]:
    return [
        Assoc(1, None, "root"),
        Assoc(2, 1, "zoo", shares=10, limits={"GrpTRESMins": GRP, "MaxJobs": 4}),
        Assoc(3, 1, "bio", shares=30, limits={"MaxJobs": 2}),
        Assoc(4, 3, "bio", "zed", shares=1),
        Assoc(5, 3, "bio", "amy", partition="gpu", shares=1),
        Assoc(6, 3, "genomics", shares=SHARES_PARENT),
        Assoc(7, 6, "genomics", "bob", shares=1, limits={"GrpTRESMins": {"cpu": 5}}),
        Assoc(8, 2, "zoo", "cat", shares=1),
    ]


@pytest.mark.parametrize("algorithm", ["fair_tree", "classic", "depth_oblivious", "linear"])
def test_the_kept_table_gives_back_the_results_rows(algorithm):
    assocs = tree()
    result = compute(assocs, {4: 10.0, 5: 20.5, 7: 30.25, 8: 40.0}, algorithm)
    table = marshal.loads(marshal.dumps(table_of(result), 2))  # as the pass cache keeps it
    assert len(table) == len(ShareRow._fields) - 1  # all but GrpTRESMins
    kept = ShareTable(with_grp_tres_mins(table, {a.id: a.limits for a in assocs}))
    assert len(kept) == 8
    assert kept.rows == result.rows
    assert [r.grp_tres_mins for r in kept.rows] == [None] * 5 + [{"cpu": 5}, GRP, None]
    assert [row.raw_shares for row in kept.rows][:2] == [None, 30]  # root's blank
    pieces = [list(piece) for piece in ShareTable(kept_columns(kept)).row_chunks(3)]
    assert pieces == [result.rows[0:3], result.rows[3:6], result.rows[6:8]]
    columns = list(ShareTable(kept_columns(kept)).column_chunks(5))
    assert [len(c["account"]) for c in columns] == [5, 3]
    assert [list(c["level_fs"]) for c in columns] == [
        list(c["level_fs"]) for c in result.column_chunks(5)
    ]


def kept_columns(kept: ShareTable) -> list[list]:
    return [list(column) for column in zip(*kept.rows)]


def test_grp_tres_mins_blank_without_limits_and_for_others_ids():
    result = compute(tree(), {}, "classic")
    table = table_of(result)
    assert [r.grp_tres_mins for r in ShareTable(with_grp_tres_mins(table, {})).rows] == [None] * 8
    filled = with_grp_tres_mins(table, {99: {"GrpTRESMins": GRP}, 8: {"MaxJobs": 1}})
    assert filled[-1] == [None] * 8
    assert ShareRow._fields[-1] == "grp_tres_mins"


@pytest.mark.parametrize("algorithm", ["fair_tree", "classic"])
def test_the_rows_tell_each_associations_parent(algorithm):
    """FairShare=parent (genomics) changes whose shares count, not the tree."""
    assocs = tree()
    deep = [Assoc(9, 6, "deep", shares=2), Assoc(10, 9, "deep", "eve"), Assoc(11, 1, "root", "r")]
    result = compute(assocs + deep, {10: 5.0}, algorithm)
    assert parents_of(table_of(result)) == {a.id: a.parent_id for a in assocs + deep}
