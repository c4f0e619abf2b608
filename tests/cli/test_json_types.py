"""Every ``--json`` carries numbers as numbers (docs/json.md): no count, duration or TRES
list is text, in any command, on a store where such values are set."""

from __future__ import annotations

import json
import re

import pytest

from fscli.cli.reference import JSON_EXAMPLES, json_store

NUMBER = re.compile(r"-?\d+(\.\d+)?")
DURATION = re.compile(r"(\d+-)?\d\d:\d\d:\d\d|UNLIMITED")
TRES_TEXT = re.compile(r"[\w/:]+=[^,\s]+(,[\w/:]+=[^,\s]+)*")
TEXT_KEYS = {
    "Target",
    "Detail",
    "Old",
    "New",
    "TRESBillingWeights",
    "fairshare",
    "Fairshare",
    "Flags",
    "QOSRaw",
}
"""Keys whose values are text by nature (a history line, its target and the old and new
values it keeps as the commands take them, Slurm's weights,
an LSF share list): a number or ``key=value`` there is no number in disguise."""


def strings(value, key: str = ""):
    """(key, text) of every string in ``value``, at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, key)
    elif isinstance(value, str):
        yield key, value


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    run = json_store(str(tmp_path_factory.mktemp("json") / "json.db"))
    run(["qos", "add", "long", "MaxWall=2-0", "MaxTRESPerUser=cpu=64,mem=512G", "GraceTime=60"])
    run(["partition", "add", "big", "nodes=2", "cpus=128", "MaxTime=1-12", "tres=mem=1T"])
    run(["job", "submit", "user=user1", "partition=big", "time=3:00:00", "mem=4G"])
    return run


@pytest.mark.parametrize("words", JSON_EXAMPLES, ids=" ".join)
def test_no_number_is_text(run, words):
    doc = json.loads(run([*words, "--json"]))
    bad = [
        (key, text)
        for key, text in strings(doc)
        if key not in TEXT_KEYS
        and (NUMBER.fullmatch(text) or DURATION.fullmatch(text) or TRES_TEXT.fullmatch(text))
    ]
    assert bad == []


def test_units_of_the_new_values(run):
    qos = {q["Name"]: q for q in json.loads(run(["qos", "list", "--json"]))["qos"]}["long"]
    assert (qos["MaxWallDurationPerJob"], qos["MaxTRESPerUser"], qos["GraceTime"]) == (
        2880,  # minutes
        {"cpu": 64, "mem": 524288},  # memory in MB
        3600,  # seconds (GraceTime=60 reads as a time string: 60 minutes)
    )
    assert (qos["UsageFactor"], qos["GrpJobs"]) == (1.0, None)
    parts = json.loads(run(["partition", "list", "--json"]))["partitions"]
    big = next(p for p in parts if p["Partition"] == "big")
    assert (big["MaxTime"], big["TRES"]) == (2160, {"mem": 1048576})
    jobs = json.loads(run(["job", "list", "partition=big", "--json"]))["jobs"]
    assert [(j["TimeLimit"], j["TRES"], j["Start"]) for j in jobs] == [(180, {"mem": 4096}, None)]
