"""USER_SHARES[[name, shares] ...]: parsing, every error with its position, round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.engine.lsf.share_text import (
    format_share_pairs,
    format_user_shares,
    parse_share_pairs,
    parse_user_shares,
)
from fscli.engine.lsf.shares import DEFAULT, EACH, GROUP, OTHERS, USER, ShareEntry
from fscli.errors import InvalidValue

GROUPS = ("grpA", "grpB")


def test_all_kinds_of_names():
    text = "USER_SHARES[[user1, 2000] [grpA, 50] [grpB@, 10] [default, 1000] [others, 5]]"
    assert parse_user_shares(text, GROUPS) == (
        ShareEntry("user1", 2000, USER),
        ShareEntry("grpA", 50, GROUP),
        ShareEntry("grpB", 10, EACH),
        ShareEntry("default", 1000, DEFAULT),
        ShareEntry("others", 5, OTHERS),
    )


def test_whitespace_and_fairshare_prefix_are_tolerated():
    text = "  FAIRSHARE = user_shares [ [ user1 ,2000 ][default,1000]\t]  "
    assert parse_user_shares(text) == (
        ShareEntry("user1", 2000),
        ShareEntry("default", 1000, DEFAULT),
    )


def test_group_names_only_with_known_groups():
    assert parse_user_shares("USER_SHARES[[grpA, 1]]")[0].kind == USER
    assert parse_user_shares("USER_SHARES[[grpA, 1]]", GROUPS)[0].kind == GROUP


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("USER_SHARES[[a, 1] [b, 2]", "unbalanced brackets: '[' is never closed at character 12"),
        ("USER_SHARES[[a, 1]] ]", "unbalanced brackets: ']' has no matching '[' at character 21"),
        ("USER_SHARES[a, 1]]", "unbalanced brackets: ']' has no matching '[' at character 18"),
        ("USER_SHARES[]", "expected at least one [name, shares] pair at character 13"),
        ("USER_SHARES", "expected '[' after USER_SHARES at character 12"),
        ("[[a, 1]]", "expected 'USER_SHARES[[name, shares] ...]' at character 1"),
        ("USER_SHARES[[a]]", "missing share for 'a' (expected ', shares') at character 15"),
        ("USER_SHARES[[a 1]]", "missing share for 'a' (expected ', shares') at character 16"),
        ("USER_SHARES[[a, ]]", "missing share for 'a' at character 17"),
        ("USER_SHARES[[, 1]]", "missing name in a [name, shares] pair at character 14"),
        (
            "USER_SHARES[[a, x]]",
            "share for 'a' is 'x': expected a whole number > 0 at character 17",
        ),
        (
            "USER_SHARES[[a, 1.5]]",
            "share for 'a' is '1.5': expected a whole number > 0 at character 17",
        ),
        ("USER_SHARES[[a, 0]]", "share for 'a' is 0: must be > 0 at character 17"),
        ("USER_SHARES[[a, -2]]", "share for 'a' is -2: must be > 0 at character 17"),
        (
            "USER_SHARES[[a, 1] [b, 2] [ a, 3]]",
            "'a' is listed twice (first at character 14) at character 29",
        ),
        (
            "USER_SHARES[[default, 1] [default, 3]]",
            "'default' is listed twice (first at character 14) at character 27",
        ),
        (
            "USER_SHARES[[grpA, 1] [grpA@, 2]]",
            "'grpA' is listed twice (first at character 14) at character 24",
        ),
        (
            "USER_SHARES[[grpX@, 1]]",
            "unknown user group 'grpX' in 'grpX@' (did you mean 'grpB'?) at character 14",
        ),
        (
            "USER_SHARES[[Grpa@, 1]]",
            "unknown user group 'Grpa' in 'Grpa@' (did you mean 'grpA'?) at character 14",
        ),
        (
            "USER_SHARES[[a, 1] b]",
            "expected '[' to open a [name, shares] pair, found 'b' at character 20",
        ),
        (
            "USER_SHARES[[a, 1 2]]",
            "expected ']' to close the pair for 'a', found '2' at character 19",
        ),
        ("USER_SHARES[[a, 1]] more", "unexpected 'more' after the last pair at character 21"),
    ],
)
def test_errors_name_the_problem_and_position(text, message):
    with pytest.raises(InvalidValue) as caught:
        parse_user_shares(text, GROUPS)
    assert str(caught.value) == f"invalid USER_SHARES: {message}"
    assert "\n" not in str(caught.value)


def test_lsb_users_pairs():
    assert parse_share_pairs("([u1, 10] [default, 5])") == (
        ShareEntry("u1", 10),
        ShareEntry("default", 5, DEFAULT),
    )
    assert parse_share_pairs("[grpA@, 2]", GROUPS) == (ShareEntry("grpA", 2, EACH),)
    with pytest.raises(InvalidValue, match=r"'\(' is never closed at character 1"):
        parse_share_pairs("([u1, 1]")
    with pytest.raises(InvalidValue, match="expected at least one"):
        parse_share_pairs("  ")


def test_format():
    entries = (
        ShareEntry("user1", 2000),
        ShareEntry("grpB", 10, EACH),
        ShareEntry("default", 1000, DEFAULT),
    )
    assert format_share_pairs(entries) == "[user1, 2000] [grpB@, 10] [default, 1000]"
    assert format_user_shares(entries) == "USER_SHARES[[user1, 2000] [grpB@, 10] [default, 1000]]"


_names = st.text("abcdefghijklmnopqrstuvwxyz0123456789_.-", min_size=1, max_size=9).filter(
    lambda n: n not in ("default", "others")
)
_entry = st.one_of(
    st.builds(ShareEntry, _names, st.integers(1, 10**6), st.just(USER)),
    st.builds(
        ShareEntry, st.sampled_from(GROUPS), st.integers(1, 10**6), st.sampled_from((GROUP, EACH))
    ),
    st.builds(
        lambda n, k: ShareEntry(k, n, k), st.integers(1, 10**6), st.sampled_from((DEFAULT, OTHERS))
    ),
)


@settings(max_examples=60)
@given(st.lists(_entry, min_size=1, max_size=8, unique_by=lambda e: e.name))
def test_round_trip(entries):
    text = format_user_shares(entries)
    assert parse_user_shares(text, GROUPS) == tuple(entries)
    assert format_user_shares(parse_user_shares(text, GROUPS)) == text
