"""slurm.conf, config values and LSF USER_SHARES strings under hostile input."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.engine import config
from fscli.engine.lsf.share_text import (
    format_share_pairs,
    format_user_shares,
    parse_share_pairs,
    parse_user_shares,
)
from fscli.engine.lsf.shares import DEFAULT, EACH, GROUP, OTHERS, USER, ShareEntry
from fscli.errors import InvalidValue
from fscli.io.slurmconf import parse_slurm_conf
from tests.io.test_slurmconf import CAPTURE_CONF
from tests.property.strategies import failed, hostile, near, outcome

# each property runs tens to hundreds of examples, many of them commands on a store
pytestmark = pytest.mark.slow

SETTINGS = settings(deadline=None, max_examples=150)
CONF_KEYS = st.sampled_from(sorted(config.KEYS))
CONF_LINE = st.builds("{}={}\n".format, CONF_KEYS, hostile)


@SETTINGS
@given(st.one_of(hostile, near(CAPTURE_CONF), CONF_LINE.map(lambda line: CAPTURE_CONF + line)))
def test_slurm_conf_parses_or_one_clean_error(text):
    conf = outcome(parse_slurm_conf, text)
    if not failed(conf):
        for key, value in conf.used.items():
            # normalized values are a fixed point of validation
            assert config.validate(key, value) == (key, value)
        config.PriorityConfig.from_mapping(conf.used)


@SETTINGS
@given(
    CONF_KEYS,
    st.one_of(
        hostile,
        st.sampled_from(
            ["CPU=1.0,Mem=0.25G", "7-0", "1e400", "nan", "-inf", "1e-400", "NO_FAIR_TREE"]
        ),
    ),
)
def test_config_values_validate_or_one_clean_error(key, text):
    got = outcome(config.validate, key, text)
    if not failed(got):
        canon, value = got
        assert config.validate(canon, value) == got
        conf = config.PriorityConfig.from_mapping({canon: value})
        weights = (*conf.tres_weights.values(), *conf.billing_weights.values())
        assert all(math.isfinite(w) and w >= 0 for w in weights)


@pytest.mark.parametrize("text", ["CPU=nanG", "CPU=1e400", "Mem=1e400G", "GRES/gpu=-nanK"])
def test_billing_weights_must_be_finite(text):
    # Regression: float('nan') >= 0 is False, so NaN and infinite weights were accepted
    # and every billing and priority computed from them became NaN.
    with pytest.raises(InvalidValue):
        config.validate("TRESBillingWeights", text)


NAMES = st.from_regex(r"[a-z][a-z0-9_.-]{0,7}", fullmatch=True)
GROUPS = ("grp1", "grp2")


@st.composite
def entries(draw) -> tuple[ShareEntry, ...]:
    out = {}
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from((USER, GROUP, EACH, DEFAULT, OTHERS)))
        name = {
            GROUP: draw(st.sampled_from(GROUPS)),
            EACH: draw(st.sampled_from(GROUPS)),
            DEFAULT: DEFAULT,
            OTHERS: OTHERS,
        }.get(kind) or draw(NAMES)
        if name in GROUPS and kind == USER or name in (DEFAULT, OTHERS) and kind == USER:
            continue
        out.setdefault(name, ShareEntry(name, draw(st.integers(1, 10**9)), kind))
    return tuple(out.values()) or (ShareEntry(DEFAULT, 1, DEFAULT),)


@SETTINGS
@given(
    st.one_of(
        hostile,
        near("USER_SHARES[[user1, 2000] [grp1@, 10] [default, 1000]]"),
        entries().map(format_user_shares).flatmap(near),
        near("([user1, 2000] [grp1@, 10] [default, 1000])"),
        entries().map(format_share_pairs).flatmap(near),
    )
)
def test_user_shares_parse_or_one_clean_error(text):
    # Both parsers read every text: USER_SHARES[...] for one, bare or parenthesized pairs
    # for the other, so each sees near-valid input of its own.
    got = outcome(parse_user_shares, text, GROUPS)
    if not failed(got):
        assert parse_user_shares(format_user_shares(got), GROUPS) == got
    pairs = outcome(parse_share_pairs, text, GROUPS)
    if not failed(pairs):
        assert parse_share_pairs(format_share_pairs(pairs), GROUPS) == pairs


@SETTINGS
@given(entries())
def test_user_shares_format_then_parse_is_identity(shares):
    assert parse_user_shares(format_user_shares(shares), GROUPS) == shares
    assert parse_share_pairs(f"({format_share_pairs(shares)})", GROUPS) == shares


@pytest.mark.parametrize(
    "text", ["USER_SHARES[[a, " + "9" * 5000 + "]]", "USER_SHARES[[a, 99999999999999999999]]"]
)
def test_user_shares_too_large_are_clean_errors(text):
    # Regression: a share with thousands of digits raised ValueError.
    with pytest.raises(InvalidValue) as err:
        parse_user_shares(text)
    assert err.value.message == (
        "invalid USER_SHARES: share for 'a' is out of range: "
        "expected at most 10 digits at character 17"
    )
