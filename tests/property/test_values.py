"""TRES strings, Slurm time strings, moments and limit values under hostile input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.engine import timestr, tres
from fscli.engine.limits import definitions as limitdefs
from fscli.errors import InvalidValue
from tests.property.strategies import failed, hostile, near, outcome

# each property runs tens to hundreds of examples, many of them commands on a store
pytestmark = pytest.mark.slow

FAST = settings(deadline=None, max_examples=150)

TRES_NAMES = st.one_of(
    st.sampled_from(tres.DEFAULT_TRES),
    st.builds(
        "{}{}".format,
        st.sampled_from(tres.PREFIX_TYPES),
        st.from_regex(r"[a-z0-9_.+-]{1,8}(:[a-z0-9_.+-]{1,6})?", fullmatch=True),
    ),
)
TRES_AMOUNT = st.integers(0, tres.MAX_VALUE)
TRES_DICTS = st.dictionaries(TRES_NAMES, TRES_AMOUNT, min_size=1, max_size=5)
TRES_TEXT = TRES_DICTS.map(tres.format_tres)
DURATION_SECS = st.integers(0, timestr.MAX_DURATION_SECS)
EPOCHS = st.integers(timestr.MIN_EPOCH, timestr.MAX_EPOCH)


# ------------------------------------------------------------------ TRES


@FAST
@given(st.one_of(hostile, near(TRES_TEXT), near("cpu=4,mem=8G,gres/gpu:a100=2")))
def test_tres_parse_gives_amounts_or_one_clean_error(text):
    got = outcome(tres.parse_tres, text)
    if not failed(got):
        assert all(name == tres.normalize_name(name) for name in got)
        assert all(
            isinstance(v, int) and (v == tres.CLEAR or 0 <= v <= tres.MAX_VALUE)
            for v in got.values()
        )


@FAST
@given(TRES_DICTS, st.booleans())
def test_tres_format_then_parse_is_identity(amounts, units):
    assert tres.parse_tres(tres.format_tres(amounts, units=units)) == amounts


@FAST
@given(st.one_of(hostile, near(TRES_TEXT)))
def test_tres_canonical_form_is_a_fixed_point(text):
    got = outcome(tres.parse_tres, text, allow_clear=False)
    if not failed(got):
        canonical = tres.format_tres(got)
        assert tres.format_tres(tres.parse_tres(canonical)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "cpu=" + "9" * 400,
        "mem=" + "9" * 400 + "G",
        "cpu=1e5",
        "node=" + "9" * 5000,
        "cpu=" + "9" * 20,
    ],
)
def test_tres_amounts_too_large_are_clean_errors(text):
    # Regression: float('9'*400) is inf and int(inf) raised OverflowError; 5000 digits
    # raised ValueError; 20 digits lost precision and overflowed a 64-bit column.
    with pytest.raises(InvalidValue):
        tres.parse_tres(text)


def test_tres_big_counts_are_exact():
    big = tres.MAX_VALUE
    assert tres.parse_tres(f"cpu={big},billing={big - 1}") == {"cpu": big, "billing": big - 1}


# ------------------------------------------------------------------ durations


@FAST
@given(st.one_of(hostile, near(DURATION_SECS.map(timestr.format_secs)), near("1-02:03:04")))
def test_duration_gives_seconds_or_one_clean_error(text):
    secs = outcome(timestr.parse_duration_secs, text)
    if not failed(secs):
        assert secs is None or 0 <= secs <= timestr.MAX_DURATION_SECS
        mins = timestr.parse_duration_mins(text)
        assert mins is None or mins * 60 - 60 < secs <= mins * 60


@FAST
@given(DURATION_SECS)
def test_duration_format_then_parse_is_identity(secs):
    assert timestr.parse_duration_secs(timestr.format_secs(secs)) == secs
    mins = secs // 60
    assert timestr.parse_duration_mins(timestr.format_mins(mins)) == mins


@pytest.mark.parametrize("text", ["9" * 5000, "9" * 30, "1-" + "9" * 5000, "99999999999:00"])
def test_durations_too_long_are_clean_errors(text):
    # Regression: 5000 digits raised ValueError; 30 digits came back as an imprecise
    # float-rounded minute count that no BigInteger column holds.
    with pytest.raises(InvalidValue):
        timestr.parse_duration_secs(text)


def test_minutes_round_up_exactly():
    assert (
        timestr.parse_duration_mins(str(timestr.MAX_DURATION_SECS // 60))
        == timestr.MAX_DURATION_SECS // 60
    )


# ------------------------------------------------------------------ moments


@FAST
@given(
    st.one_of(
        hostile,
        near(EPOCHS.map(timestr.format_when)),
        near("now-2days"),
        near("2026-05-01T12:00:00+02:00"),
    )
)
def test_moment_gives_epoch_seconds_or_one_clean_error(text):
    when = outcome(timestr.parse_when, text, 1_800_000_000)
    if not failed(when):
        assert timestr.MIN_EPOCH <= when <= timestr.MAX_EPOCH
        timestr.format_when(when)  # every accepted moment can be printed


@FAST
@given(EPOCHS)
def test_moment_format_then_parse_is_identity(epoch):
    assert timestr.parse_when(timestr.format_when(epoch), 0) == epoch
    assert timestr.parse_when(timestr.utc_iso(epoch), 0) == epoch


@pytest.mark.parametrize(
    "text",
    [
        "0001-01-01T00:00:00",
        "now+" + "9" * 5000,
        "now+" + "9" * 30 + "weeks",
        "now-" + "9" * 15 + "days",
    ],
)
def test_moments_out_of_range_are_clean_errors(text):
    # Regression: year 1 local time raised ValueError in astimezone(); huge offsets
    # raised ValueError (5000 digits) or gave moments no datetime can print.
    with pytest.raises(InvalidValue):
        timestr.parse_when(text, 1_800_000_000)


# ------------------------------------------------------------------ limits

LIMITS = st.sampled_from(limitdefs.LIMITS)


def valid_limit(defn: limitdefs.LimitDef) -> st.SearchStrategy:
    if defn.kind == "count":
        return st.integers(0, 0xFFFFFFFE)
    if defn.kind == "minutes":
        return st.integers(0, timestr.MAX_DURATION_SECS // 60)
    return TRES_DICTS


@FAST
@given(LIMITS, st.one_of(hostile, near(TRES_TEXT), near("7-00:00:00"), near("4294967294")))
def test_limit_value_or_one_clean_error(defn, text):
    got = outcome(limitdefs.parse_limit, defn, text)
    if not failed(got) and got is not limitdefs.CLEAR:
        kinds = {"count": int, "minutes": int, "tres": dict, "tres_mins": dict}
        assert isinstance(got, kinds[defn.kind])
        limitdefs.format_limit(defn, limitdefs.apply_change(defn, None, got))


@FAST
@given(LIMITS.flatmap(lambda d: st.tuples(st.just(d), valid_limit(d))))
def test_limit_format_then_parse_is_identity(pair):
    defn, value = pair
    assert limitdefs.parse_limit(defn, limitdefs.format_limit(defn, value)) == value
