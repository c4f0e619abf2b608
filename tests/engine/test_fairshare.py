"""Fair-share engine: tree handling, FairShare=parent, ties, errors, explanations, scale."""

from __future__ import annotations

import gc
import math
import operator
import random

import pytest

from fscli.engine.fairshare import NO_VAL, ShareRow, share_columns
from fscli.engine.fsexplain import explain
from fscli.engine.model import SHARES_PARENT, Assoc, AssocColumns
from fscli.engine.tree import display_order
from fscli.errors import InvalidValue
from fscli.heap import bulk
from tests.engine.adapt import compute

P = SHARES_PARENT


def small_tree() -> list[Assoc]:
    return [
        Assoc(1, None, "root"),
        Assoc(2, 1, "zoo", shares=10),
        Assoc(3, 1, "bio", shares=30),
        Assoc(4, 3, "bio", "zed", shares=1),
        Assoc(5, 3, "bio", "amy", shares=1),
        Assoc(6, 3, "genomics", shares=2),
        Assoc(7, 6, "genomics", "bob", shares=1),
        Assoc(8, 2, "zoo", "cat", shares=1),
    ]


def test_sshare_order_depth_and_usage_aggregation() -> None:
    result = compute(small_tree(), {4: 10.0, 5: 20.0, 7: 30.0, 8: 40.0, 3: 5.0}, "classic")
    order = [(r.account, r.user, r.depth) for r in result.rows]
    assert order == [
        ("root", None, 0),
        ("bio", None, 1),
        ("bio", "amy", 2),
        ("bio", "zed", 2),
        ("genomics", None, 2),
        ("genomics", "bob", 3),
        ("zoo", None, 1),
        ("zoo", "cat", 2),
    ]
    raw = {r.assoc_id: r.raw_usage for r in result.rows}
    # an account's own charges (usage of removed users) count, plus all descendants
    assert raw[3] == 65.0 and raw[6] == 30.0 and raw[1] == 105.0
    assert result.row(5).norm_usage == pytest.approx(20 / 105)
    assert result.rows[0].norm_usage is None and result.rows[0].raw_shares is None


def test_fair_tree_ranks_and_factor_dict() -> None:
    result = compute(small_tree(), {4: 10.0, 5: 20.0, 7: 30.0, 8: 40.0}, "fair_tree")
    # root children: bio S=.75 U=60/100 LF=1.25; zoo S=.25 U=.4 LF=.625 -> bio first
    # bio children: amy S=.25 U=20/60, zed S=.25 U=10/60, genomics S=.5 U=.5 -> zed, genomics, amy
    assert result.fs_factor == {4: 1.0, 7: 0.75, 5: 0.5, 8: 0.25}
    assert result.row(4).level_fs == pytest.approx(1.5)
    assert result.row(3).fairshare is None
    assert result.user_count == 4


def test_no_usage_anywhere_gives_inf_and_zero_norms() -> None:
    result = compute(small_tree(), {}, "fair_tree")
    assert all(r.level_fs == math.inf for r in result.rows[1:])
    assert all(r.norm_usage == 0.0 for r in result.rows[1:])
    classic = compute(small_tree(), {}, "classic")
    assert classic.row(4).fairshare == 1.0  # UE 0 -> 2^0


def test_parent_shares_account_children_compete_with_its_siblings() -> None:
    assocs = [
        Assoc(1, None, "root"),
        Assoc(2, 1, "a", shares=10),
        Assoc(3, 2, "a", "u1", shares=1),
        Assoc(4, 2, "grp", shares=P),
        Assoc(5, 4, "grp", "u2", shares=1),
        Assoc(6, 4, "grp", "u3", shares=P),
    ]
    usage = {3: 30.0, 5: 10.0, 6: 60.0}
    ft = compute(assocs, usage, "fair_tree")
    # u2 is re-parented to a: level shares of a's fs-children = u1 1 + u2 1 (parents count 0)
    assert ft.row(5).norm_shares == 0.5
    assert ft.row(5).effective_usage == pytest.approx(10 / 100)
    assert ft.row(6).level_fs is None and ft.row(4).level_fs is None
    assert ft.row(6).norm_shares == ft.row(2).norm_shares
    # u3 (parent user, LF inf) ranks first; then u2 (LF 5), then u1 (LF 1/0.6)
    assert ft.fs_factor == {6: 1.0, 5: 2 / 3, 3: 1 / 3}
    classic = compute(assocs, usage, "classic")
    for field in ("norm_shares", "effective_usage", "fairshare"):
        assert getattr(classic.row(6), field) == getattr(classic.row(2), field)
        assert getattr(classic.row(4), field) == getattr(classic.row(2), field)
    assert classic.row(6).raw_usage == 60.0 and classic.row(4).raw_usage == 70.0


def test_equal_levelfs_ties_share_rank_and_names_break_order() -> None:
    assocs = [
        Assoc(1, None, "root"),
        Assoc(2, 1, "a", shares=1),
        Assoc(3, 2, "a", "bo", shares=1),
        Assoc(4, 2, "a", "al", shares=1),
        Assoc(5, 2, "a", "cy", shares=2),
    ]
    result = compute(assocs, {3: 1.0, 4: 1.0, 5: 4.0}, "fair_tree")
    # al and bo tie (LF 1.5) and share rank 3; cy gets 3 - 2 = 1
    assert result.fs_factor == {4: 1.0, 3: 1.0, 5: 1 / 3}
    order = [result.tree.assocs[k].user for k in result.ranked_children[result.tree.index[2]]]
    assert order == ["al", "bo", "cy"]


def test_dampening_and_zero_shares() -> None:
    assocs = [
        Assoc(1, None, "root"),
        Assoc(2, 1, "a", shares=1),
        Assoc(3, 2, "a", "u", shares=1),
        Assoc(4, 1, "z", shares=0),
        Assoc(5, 4, "z", "v", shares=0),
    ]
    usage = {3: 50.0, 5: 50.0}
    plain = compute(assocs, usage, "classic")
    damped = compute(assocs, usage, "classic", dampening=4)
    assert plain.fs_factor[3] == pytest.approx(2**-0.5)
    assert damped.fs_factor[3] == pytest.approx(2 ** (-0.5 / 4))
    assert plain.row(4).fairshare == 0.0 and plain.fs_factor[5] == 0.0
    assert plain.row(5).effective_usage == plain.row(4).effective_usage  # siblings hold 0 shares
    ft = compute(assocs, usage, "fair_tree")
    assert ft.row(4).level_fs == 0.0 and ft.fs_factor[5] == 0.5


@pytest.mark.parametrize(
    "assocs,usage,message",
    [
        ([Assoc(1, None, "root"), Assoc(2, None, "other")], {}, "exactly one root"),
        ([Assoc(1, None, "root"), Assoc(2, 9, "a")], {}, "unknown parent id 9"),
        ([Assoc(1, None, "root"), Assoc(1, 1, "a")], {}, "appears twice"),
        ([Assoc(1, None, "root"), Assoc(2, 3, "a"), Assoc(3, 2, "b")], {}, "not below the root"),
        ([Assoc(1, None, "root"), Assoc(2, 1, "a", "u"), Assoc(3, 2, "b")], {}, "user association"),
        ([Assoc(1, None, "root")], {7: 1.0}, "unknown association id 7"),
        ([Assoc(1, None, "root")], {1: -1.0}, "negative usage"),
    ],
)
def test_bad_trees_raise_one_clear_error(assocs, usage, message) -> None:
    with pytest.raises(InvalidValue, match=message):
        compute(assocs, usage)


def test_bad_algorithm_and_unknown_row() -> None:
    with pytest.raises(InvalidValue, match="unknown algorithm 'fifo'"):
        compute(small_tree(), {}, "fifo")
    with pytest.raises(InvalidValue, match="not in the tree"):
        compute(small_tree(), {}).row(99)


def test_explain_fair_tree_path_and_rank() -> None:
    result = compute(small_tree(), {4: 10.0, 5: 20.0, 7: 30.0, 8: 40.0}, "fair_tree")
    text = "\n".join(explain(result, 7))
    assert "level 1: account bio under root" in text
    assert "S = 30 / 40 = 0.750000" in text
    assert "U = 60 / 100 = 0.600000" in text
    assert "LevelFS = S / U = 1.250000" in text
    assert "sibling order (LevelFS high to low, '=' tied): bio/ 1.250000, zoo/ 0.625000" in text
    assert "level 2: account genomics under account bio" in text
    assert "level 3: user bob (account genomics) under account genomics" in text
    assert "rank 3 of 4 users in depth-first order -> FairShare = 3 / 4 = 0.750000" in text


def test_explain_classic_product_and_recursion() -> None:
    result = compute(small_tree(), {4: 10.0, 5: 20.0, 7: 30.0, 8: 40.0}, "classic")
    lines = explain(result, 7)
    text = "\n".join(lines)
    assert "NormShares S = 30/40 x 2/4 x 1/1 = 0.375000" in text
    assert "account bio: UN = 60 / 100 = 0.600000; UE = UN = 0.600000 (child of root)" in text
    assert (
        "account genomics: UN = 30 / 100 = 0.300000; UE = UN + (UE_parent - UN) x 2/4 = "
        "0.300000 + (0.600000 - 0.300000) x 2/4 = 0.450000"
    ) in text
    # bob: UE = 0.3 + (0.45 - 0.3) x 1/1 = 0.45; F = 2^(-0.45 / 0.375) = 2^-1.2
    assert lines[-1] == "FairShare = 2^(-(UE / S) / d) = 2^(-(0.450000 / 0.375000) / 1) = 0.435275"
    linear = compute(small_tree(), {4: 10.0}, "linear")
    assert explain(linear, 4)[-1].startswith("FairShare = (S - UE + 1) / 2 = ")
    assert "depth_oblivious" in explain(compute(small_tree(), {4: 1.0}, "depth_oblivious"), 1)[0]


def synthetic(n_accounts: int, users_per: int, seed: int = 7):
    rng = random.Random(seed)
    assocs = [Assoc(1, None, "root")]
    usage = {}
    for a in range(n_accounts):
        parent = 1 if a < 50 else rng.randrange(2, len(assocs) + 1)
        while assocs[parent - 1].user is not None:
            parent = rng.randrange(2, len(assocs) + 1)
        acc_id = len(assocs) + 1
        assocs.append(Assoc(acc_id, parent, f"acct{a}", shares=rng.choice([1, 5, 10, P])))
        for u in range(users_per):
            uid = len(assocs) + 1
            assocs.append(Assoc(uid, acc_id, f"acct{a}", f"user{u}", shares=rng.randint(0, 9)))
            usage[uid] = float(rng.randint(0, 10_000))
    return assocs, usage


@pytest.mark.parametrize("algorithm", ["fair_tree", "classic", "depth_oblivious", "linear"])
def test_large_tree_every_user_gets_a_factor(algorithm: str) -> None:
    assocs, usage = synthetic(2000, 9)
    result = compute(assocs, usage, algorithm)
    assert len(result.rows) == len(assocs) == 20_001
    assert len(result.fs_factor) == 18_000
    assert all(0.0 <= f <= 1.0 for f in result.fs_factor.values())
    if algorithm == "fair_tree":
        ranks = sorted(round(f * 18_000) for f in result.fs_factor.values())
        assert ranks[-1] == 18_000 and ranks[0] >= 1


def test_deep_chain_needs_no_recursion() -> None:
    depth = 5000
    assocs = [Assoc(1, None, "root")] + [Assoc(i, i - 1, f"a{i}") for i in range(2, depth + 1)]
    assocs.append(Assoc(depth + 1, depth, f"a{depth}", "u"))
    for algorithm in ("fair_tree", "classic"):
        result = compute(assocs, {depth + 1: 5.0}, algorithm)
        assert result.rows[-1].depth == depth
        assert result.fs_factor[depth + 1] == (1.0 if algorithm == "fair_tree" else 0.5)


def reference_fair_tree(result) -> dict[int, float]:
    """Fair Tree ranking written plainly (recursive), to check the engine's fast paths."""
    tree, rows = result.tree, result.by_index

    def sort_value(k: int) -> float:
        if tree.shares[k] == P:
            return math.inf if tree.users[k] is not None else NO_VAL
        return rows[k].level_fs

    def name_key(k: int) -> tuple:
        a = tree.assocs[k]
        return (0, a.user, a.partition or "") if a.user is not None else (1, a.account)

    ranked: list[tuple[int, bool]] = []

    def visit(p: int, parent_tied: bool) -> None:
        kids = sorted(tree.fs_children[p], key=lambda k: (-sort_value(k), name_key(k)))
        prev = NO_VAL
        for j, k in enumerate(kids):
            tied = prev == sort_value(k) or (j == 0 and parent_tied)
            prev = sort_value(k)
            if tree.users[k] is not None:
                ranked.append((k, tied))
            else:
                visit(k, tied)

    visit(tree.root, False)
    out, rank, total = {}, len(ranked), len(ranked)
    for j, (k, tied) in enumerate(ranked):
        if not tied:
            rank = total - j
        out[tree.ids[k]] = rank / total
    return out


@pytest.mark.parametrize("seed", range(6))
def test_fair_tree_ranks_match_a_plain_reference_with_ties_and_parents(seed: int) -> None:
    assocs, usage = synthetic(120, 4, seed)
    rng = random.Random(seed)
    usage = {k: rng.choice([0.0, 100.0, 100.0, 250.0]) for k in usage}  # many ties
    result = compute(assocs, usage, "fair_tree")
    assert result.fs_factor == reference_fair_tree(result)
    # RawUsage: own charges plus every descendant's (whole numbers: exact in any order)
    subtree = {a.id: usage.get(a.id, 0.0) for a in assocs}
    for a, _ in reversed(display_order(assocs)):
        if a.parent_id is not None:
            subtree[a.parent_id] += subtree[a.id]
    assert {r.assoc_id: r.raw_usage for r in result.rows} == subtree
    # rows in sshare's order, the same as the plain display-order walk of the tree
    assert [(r.assoc_id, r.depth) for r in result.rows] == [
        (a.id, depth) for a, depth in display_order(assocs)
    ]


def test_user_rows_sort_by_user_then_partition() -> None:
    assocs = [
        Assoc(1, None, "root"),
        Assoc(2, 1, "a"),
        Assoc(3, 2, "a", "bo", "zz"),
        Assoc(4, 2, "a", "bo2"),
        Assoc(5, 2, "a", "bo"),
        Assoc(6, 2, "a", "b", "p"),
        Assoc(7, 2, "a", "bo", "aa"),
        Assoc(8, 2, "aa"),
    ]
    rows = compute(assocs, {}, "fair_tree").rows
    assert [(r.user, r.partition) for r in rows] == [
        (None, None),
        (None, None),
        ("b", "p"),
        ("bo", None),
        ("bo", "aa"),
        ("bo", "zz"),
        ("bo2", None),
        (None, None),
    ]
    assert [r.assoc_id for r in rows] == [a.id for a, _ in display_order(assocs)]


def test_rows_are_built_on_first_use() -> None:
    result = compute(small_tree(), {4: 10.0}, "fair_tree")
    assert "rows" not in vars(result) and "by_index" not in vars(result)
    assert result.fs_factor[4] == 0.25  # job priority needs no rows
    assert result.rows[0].account == "root" and result.row(4) is result.by_index[3]


CHUNKED = (200, 9)
"""The tree the chunk tests cut: 1 + 200 + 1,800 = 2,001 associations."""


@pytest.mark.parametrize("size", [1, 2, 7, 2_001, 3_000])  # the last two: all rows at once
def test_row_chunks_are_the_rows_in_pieces_made_as_they_come(size: int) -> None:
    assocs, usage = synthetic(*CHUNKED)
    assocs.insert(0, assocs.pop(1))  # the root is not the first position: blanked where it is
    result = compute(assocs, usage, "classic")
    pieces = result.row_chunks(size)
    first = next(pieces)
    assert "rows" not in vars(result) and "by_index" not in vars(result)
    chunks = [first, *pieces]
    assert [len(c) for c in chunks[:-1]] == [size] * (len(chunks) - 1)
    assert 0 < len(chunks[-1]) <= size
    assert [row for chunk in chunks for row in chunk] == result.rows
    assert len(result.rows) == 2_001
    assert result.rows[0].raw_shares is None and result.rows[0].norm_usage is None
    assert sum(r.raw_shares is None or r.norm_usage is None for r in result.rows) == 1
    # once the rows are made, the pieces are slices of them (the same objects)
    again = [row for chunk in result.row_chunks(size) for row in chunk]
    assert all(map(operator.is_, again, result.rows))


@pytest.mark.parametrize("size", [1, 2, 7, 2_001, 3_000])
def test_column_chunks_are_the_row_chunks_as_columns(size: int) -> None:
    """sshare -P's pieces come as columns, made without rows: field for field the rows'."""
    assocs, usage = synthetic(*CHUNKED)
    assocs.insert(0, assocs.pop(1))  # the root is not the first position: blanked where it is
    assocs[5].limits = {"GrpTRESMins": {"cpu": 60}}
    result = compute(assocs, usage, "fair_tree")
    pieces = [
        {name: list(column) for name, column in p.items()} for p in result.column_chunks(size)
    ]
    assert "rows" not in vars(result) and "by_index" not in vars(result)
    rows = result.rows
    expected = [share_columns(rows[k : k + size]) for k in range(0, len(rows), size)]
    assert pieces == [{name: list(column) for name, column in e.items()} for e in expected]
    assert pieces[0]["raw_shares"][0] is None and pieces[0]["norm_usage"][0] is None
    assert [{"cpu": 60}] == [t for p in pieces for t in p["grp_tres_mins"] if t]
    # once the rows are made, the pieces are their columns
    assert list(result.column_chunks(size)) == expected


def test_raw_usage_is_each_usage_value_bit_for_bit() -> None:
    """The engine copies the usage into tree order: a copy keeps every value's bits, the
    sign of a zero included, and leaves the unknown and the unused out."""
    assocs = [
        Assoc(1, None, "root"),
        Assoc(5, 1, "a"),
        Assoc(3, 5, "a", "u"),
        Assoc(2, 5, "a", "v"),
    ]
    usage = {2: -0.0, 3: 0.1 + 0.2, 1: 1e-300}
    rows = {r.assoc_id: r for r in compute(assocs, usage, "fair_tree").rows}
    assert math.copysign(1.0, rows[2].raw_usage) == -1.0 and rows[3].raw_usage == 0.1 + 0.2
    assert rows[5].raw_usage == 0.1 + 0.2 and rows[1].raw_usage == 1e-300 + (0.1 + 0.2)


def test_share_columns_of_no_rows_are_empty_columns() -> None:
    columns = share_columns([])
    assert list(columns) == [
        "assoc_id",
        "account",
        "user",
        "partition",
        "depth",
        "raw_shares",
        "norm_shares",
        "raw_usage",
        "norm_usage",
        "effective_usage",
        "fairshare",
        "level_fs",
        "grp_tres_mins",
    ]
    assert not any(columns.values())


def test_bulk_pauses_the_collector_and_restores_it() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    with bulk():
        assert not gc.isenabled()
        built = [[k] for k in range(1000)]
    assert gc.isenabled()
    # what the block built is frozen: later collections no longer scan it
    assert gc.get_freeze_count() >= frozen + len(built)
    gc.disable()
    try:
        with bulk():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def _old_divide(num: list, den: list, if_zero: float, zero: float = 0.0) -> list[float]:
    """fairshare._divide before its one-pass form (zeros found, replaced, put back), verbatim
    but for the helpers it called, inlined."""
    zeros = [i for i, v in enumerate(den) if v == zero]
    if zeros:
        den = list(den)
        for i in zeros:
            den[i] = 1
    out = list(map(operator.truediv, num, den))
    for i in zeros:
        out[i] = if_zero
    return out


@pytest.mark.parametrize("seed", range(30))
def test_divide_is_the_zero_replacing_division_bit_for_bit(seed: int) -> None:
    from fscli.engine.fairshare import _divide

    rng = random.Random(seed)
    size = rng.choice([0, 1, 7, 300])
    ints = rng.random() < 0.3  # share counts, as the level shares divide them
    values: list = [0, 1, 3, 2**40] if ints else [0.0, -0.0, 1.5, 1e-300, math.inf, math.nan]
    num = [rng.choice([0.0, -0.0, 2.5, 1e308, math.nan, math.inf, 7]) for _ in range(size)]
    den = [rng.choice(values) for _ in range(size)]
    if rng.random() < 0.3:
        den = [d if d else rng.choice(values[1:]) for d in den]  # no zero divisor
    if_zero = rng.choice([0.0, math.inf])
    zero = 0 if ints else 0.0
    got, expected = _divide(num, den, if_zero, zero), _old_divide(num, den, if_zero, zero)
    assert list(map(repr, got)) == list(map(repr, expected))


def as_columns(assocs: list[Assoc]) -> AssocColumns:
    """``assocs`` as the store reads them for the fair-share pass: their first seven
    fields as columns; every one holds the same QOS, default QOS and limits."""
    names = ("id", "parent_id", "account", "user", "partition", "shares", "priority")
    columns = [[getattr(a, name) for a in assocs] for name in names]
    return AssocColumns(columns, ((), None, {}))


@pytest.mark.parametrize("algorithm", ["fair_tree", "classic"])
@pytest.mark.parametrize("seed", range(4))
def test_columns_compute_what_the_objects_do(algorithm: str, seed: int) -> None:
    """The fair-share pass over columns gives every number and row the objects give, and
    makes no object to do so."""
    assocs, usage = synthetic(300, 5, seed)
    rng = random.Random(seed)
    rng.shuffle(assocs)
    for a in rng.sample(assocs, 40):
        if a.user is not None:
            a.partition = rng.choice(["gpu", "cpu"])  # users sort by (user, partition)
    columns = as_columns(assocs)
    result = compute(columns, usage, algorithm)
    made = compute(assocs, usage, algorithm)
    assert columns._objects is None  # none made by the pass

    def printed(answer) -> list[dict]:  # the pieces' columns but GrpTRESMins (the limits')
        fields = [f for f in ShareRow._fields if f != "grp_tres_mins"]
        return [{f: p[f] for f in fields} for p in answer.column_chunks(500)]

    assert printed(result) == printed(made)
    assert columns._objects is None  # nor by the pieces sshare prints
    assert result.rows == made.rows and result.fs_factor == made.fs_factor


def test_columns_become_objects_once_and_stay_changed() -> None:
    assocs = small_tree()
    columns = as_columns(assocs)
    assert len(columns) == 8 and columns.field("user")[3] == "zed"
    assert columns.field("limits") == [{}] * 8 and columns.field("qos") == [()] * 8
    assert columns._objects is None
    assert columns == assocs and assocs == columns and columns != assocs[:7]
    first = columns[3]
    assert first == Assoc(4, 3, "bio", "zed", shares=1) and columns[3] is first
    assert columns[1:3] == assocs[1:3] and list(columns) == assocs
    first.shares = 5
    assert columns.field("shares")[3] == 5 and compute(columns, {}).row(4).raw_shares == 5
    with pytest.raises(ValueError, match="make no Assoc"):
        AssocColumns([[1], [None]], ())


def test_objects_come_in_as_columns_read_from_them() -> None:
    """``AssocColumns.of``: the adapter for associations made as objects (a what-if's
    tree): each field read from the objects, a change to one seen; columns pass as they
    are."""
    assocs = small_tree()
    columns = as_columns(assocs)
    assert AssocColumns.of(columns) is columns
    adapted = AssocColumns.of(iter(assocs))
    assert len(adapted) == 8 and adapted == columns and list(adapted) == assocs
    assert adapted.field("user") == columns.field("user")
    assert adapted.objects() == assocs and adapted.objects() is adapted.objects()
    assocs[3].shares = 7
    assert adapted.field("shares")[3] == 7 and compute(adapted, {}).row(4).raw_shares == 7
