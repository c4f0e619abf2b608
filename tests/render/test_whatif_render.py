"""What-if rendering of two sides whose associations differ (``--with tree.yaml``)."""

from __future__ import annotations

from fscli.engine.fairshare import ShareRow
from fscli.render.sshare import Extras, Field
from fscli.render.whatif import aligned, aligned_pieces, priority_lines, share_json, share_lines


def row(assoc_id: int, account: str, user: str | None, depth: int, shares: int) -> ShareRow:
    return ShareRow(assoc_id, account, user, None, depth, shares, 0.5, 0.0, 0.0, 0.0, 1.0, 1.0)


ROOT = row(1, "root", None, 0, 1)
BEFORE = [ROOT, row(2, "a", None, 1, 10), row(3, "a", "u", 2, 1), row(4, "b", None, 1, 5)]
AFTER = [ROOT, row(7, "b", None, 1, 6), row(8, "c", None, 1, 2), row(2, "a", None, 1, 10)]


def test_aligned_keeps_the_after_order_and_rows_only_before_where_they_were():
    old, new = aligned(BEFORE, AFTER)
    assert [r and r.assoc_id for r in old] == [1, 4, None, 2, 3]
    assert [r and r.assoc_id for r in new] == [1, 7, 8, 2, None]


def test_a_side_without_the_association_is_blank():
    pieces = [aligned_pieces(*aligned(BEFORE, AFTER))]
    fields = [Field("Account", -10), Field("User", -5), Field("RawShares", 5)]
    ranks = ({3: 1}, {})
    lines = "".join(share_lines(pieces, fields, "P", True, (Extras(), Extras()), ranks))
    assert lines.splitlines() == [
        "Account|User|RawShares|RawShares(after)|Rank|Rank(after)|RankChange",
        "root||1|1|||",
        " b||5|6|||",
        " c|||2|||",
        " a||10|10|||",
        "  a|u|1||1||",
    ]
    doc = share_json(*aligned(BEFORE, AFTER), (Extras(), Extras()), ranks)
    assert [(d["account"], d["before"] is None, d["after"] is None) for d in doc] == [
        ("root", False, False),
        ("b", False, False),
        ("c", True, False),
        ("a", False, False),
        ("a", False, True),
    ]
    assert (doc[4]["rank"], doc[4]["rank_after"], doc[4]["rank_change"]) == (1, None, None)


def test_a_queue_without_pending_jobs_prints_the_header_alone():
    # each column as wide as its title: no row to widen it (it used to raise TypeError)
    assert "".join(priority_lines([], None, True)) == (
        "JOBID PARTITION USER PRIORITY PRIORITY(after) Rank Rank(after) RankChange\n"
    )
    assert "".join(priority_lines([], None, False)) == ""
