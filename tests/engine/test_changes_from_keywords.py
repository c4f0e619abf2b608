"""Python keywords read as the same sacctmgr words (engine.assoc_changes, qos_changes)."""

from __future__ import annotations

import pytest

from fscli.engine import assoc_changes, qos_changes
from fscli.engine.assoc_changes import QosEdit
from fscli.engine.limits import definitions as limitdefs
from fscli.errors import InvalidValue


def test_association_keywords_parse_as_words_do():
    changes = assoc_changes.from_settings(
        fairshare=40,
        priority=5,
        qos=["Normal", "high"],
        default_qos="HIGH",
        MaxJobs=10,
        grptres={"cpu": 512, "mem": "4G"},
        MaxWall="2-0",
    )
    assert (changes.shares, changes.priority, changes.qos, changes.default_qos) == (
        40,
        5,
        QosEdit("=", ["normal", "high"]),
        "high",
    )
    assert changes.limits == {
        "MaxJobs": 10,
        "GrpTRES": {"cpu": 512, "mem": 4096},
        "MaxWallDurationPerJob": 2880,
    }


def test_none_and_minus_one_clear_and_parent_is_a_word():
    changes = assoc_changes.from_settings(fairshare="parent", MaxJobs=None, default_qos=-1)
    assert changes.shares == "parent"
    assert changes.limits == {"MaxJobs": limitdefs.CLEAR}
    assert changes.default_qos == ""
    assert assoc_changes.from_settings(fairshare=-1).shares == 1  # sacctmgr's reset


def test_qos_add_and_remove_are_the_plus_and_minus_words():
    assert assoc_changes.from_settings(qos_add="high").qos == QosEdit("+=", ["high"])
    assert assoc_changes.from_settings(qos_remove=["a", "b"]).qos == QosEdit("-=", ["a", "b"])
    with pytest.raises(InvalidValue, match="give one of qos, qos_add and qos_remove"):
        assoc_changes.from_settings(qos="a", qos_add="b")


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"fairshare": "lots"}, "invalid fairshare 'lots': expected an integer or \"parent\""),
        ({"MaxJobs": "ten"}, "invalid value for MaxJobs: 'ten' is not a whole number"),
        ({"GrpTRES": "cpu=x"}, "invalid GrpTRES: invalid value 'x' for TRES cpu"),
        ({"shares_of_bob": 3}, "unknown association setting 'shares_of_bob'"),
    ],
)
def test_bad_association_keywords_are_refused(settings, message):
    with pytest.raises(InvalidValue) as caught:
        assoc_changes.from_settings(**settings)
    assert caught.value.message.startswith(message)


def test_qos_keywords_parse_as_words_do():
    changes = qos_changes.from_settings(
        priority=100,
        flags_add=["DenyOnLimit"],
        usage_factor=2,
        grace_time="00:05:00",
        MaxTRESPerUser={"cpu": 64},
    )
    assert changes.values == {"priority": 100, "usage_factor": 2.0, "grace_time": 300}
    assert changes.flags == ("+=", ["DenyOnLimit"])
    assert changes.limits == {"MaxTRESPerUser": {"cpu": 64}}
    with pytest.raises(InvalidValue, match="invalid UsageThreshold '2': must be from 0.0 to 1.0"):
        qos_changes.from_settings(usage_threshold=2)
    with pytest.raises(InvalidValue, match="unknown QOS setting 'colour'"):
        qos_changes.from_settings(colour="red")


def test_a_cleared_tres_is_described_as_minus_one_for_a_qos_as_for_an_association():
    # QosChanges.describe (the "modified QOS" line and its history entry) printed mem=-1M
    qos = qos_changes.from_settings(GrpTRES="mem=-1,cpu=4", MaxWall=None)
    assert qos.describe() == "GrpTRES=mem=-1,cpu=4 MaxWallDurationPerJob=-1"
    assoc = assoc_changes.from_settings(GrpTRES="mem=-1,cpu=4", GrpTRESMins="cpu=60")
    assert assoc.describe() == ["GrpTRES=mem=-1,cpu=4", "GrpTRESMins=cpu=60"]


def test_flags_add_and_remove_are_the_plus_and_minus_words_and_only_one_is_taken():
    assert qos_changes.from_settings(flags_remove="NoDecay").flags == ("-=", ["NoDecay"])
    # the second used to replace the first silently: flags=DenyOnLimit was never applied
    with pytest.raises(InvalidValue, match="give one of flags, flags_add and flags_remove"):
        qos_changes.from_settings(flags="DenyOnLimit", flags_add="NoDecay")


@pytest.mark.parametrize("value", [None, -1, "-1", ""])
def test_usage_factor_is_never_cleared_so_a_what_if_always_sets_a_number(value):
    """UsageFactor takes no "clear" (``limits unset`` writes 1): every QOS change, the
    ``limits check --with`` ones included, carries a number, and the what-if sets it as is
    (no None to stand in for)."""
    from fscli.engine.limits.whatif import _qos_whatif
    from fscli.engine.model import Qos

    with pytest.raises(InvalidValue, match="invalid UsageFactor"):
        qos_changes.from_settings(usage_factor=value)
    with pytest.raises(InvalidValue, match="invalid UsageFactor"):
        qos_changes.set_word(qos_changes.QosChanges(), "usagefactor", "=", str(value))
    qos = Qos("normal", usage_factor=2.0)
    _qos_whatif(qos, qos_changes.from_settings(usage_factor=0, description="d"))
    assert qos.usage_factor == 0.0
