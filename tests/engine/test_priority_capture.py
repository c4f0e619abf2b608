"""The real sprio capture (Slurm 22.05.8): same jobs, config and fair-share -> same output.

Everything is read from the captured files: jobs from squeue, node counts from scontrol,
QOS and association priorities from sacctmgr, partitions from scontrol, the priority
config from ``scontrol show config``, fair-share factors from sshare. Only the moment of
the last priority calculation is not captured: it is recovered from the AGE column
(0.0003819 of PriorityMaxAge=1-0 is 33 s), within the capture's 7-decimal resolution, and
anchors the passes (``PriorityCalcAnchor``): the age is counted to the last pass, as the
controller set it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest

from fscli.engine import config as cfg
from fscli.engine.model import Assoc, ClusterInfo, Job, Partition, Qos
from fscli.render.sprio import render
from tests.engine.adapt import compute_priorities

CAPTURE = Path(__file__).parents[1] / "data/golden/slurm-22.05/sprio/fairtree"
FULL_FORMAT = "%.8i|%r|%u|%Y|%y|%A|%a|%B|%b|%F|%f|%J|%j|%P|%p|%Q|%q|%N|%S|%T|%t"
AGE_NORMALIZED = 0.0003819  # every row of sprio_l_n.txt


def _text(name: str) -> str:
    return (CAPTURE / name).read_text()


def _table(name: str) -> list[dict[str, str]]:
    lines = _text(name).splitlines()
    head = lines[0].split("|")
    return [dict(zip(head, line.split("|"))) for line in lines[1:] if line]


def _utc(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp())


def load_config() -> cfg.PriorityConfig:
    values = {}
    for line in _text("scontrol_show_config_priority.txt").splitlines():
        key, _, value = (part.strip() for part in line.partition("="))
        if key.lower() in {k.lower() for k in cfg.KEYS}:
            value = "" if value == "(null)" else value
            canon, norm = cfg.validate(key, value)
            values[canon] = norm
    return cfg.PriorityConfig.from_mapping(values)


def load_partitions() -> dict[str, Partition]:
    parts = {}
    for block in _text("scontrol_show_partition.txt").split("\n\n"):
        fields = dict(re.findall(r"(\w+)=(\S+)", block))
        if "PartitionName" in fields:
            parts[fields["PartitionName"]] = Partition(
                name=fields["PartitionName"],
                nodes=int(fields["TotalNodes"]),
                cpus=int(fields["TotalCPUs"]),
                priority_job_factor=int(fields["PriorityJobFactor"]),
            )
    return parts


def load_qos() -> dict[str, Qos]:
    return {
        r["Name"]: Qos(r["Name"], priority=int(r["Priority"]))
        for r in _table("sacctmgr_show_qos_P.txt")
    }


def load_assocs() -> dict[int, Assoc]:
    return {
        int(r["ID"]): Assoc(
            id=int(r["ID"]),
            parent_id=int(r["ParentID"]) if r["ParentID"] else None,
            account=r["Account"],
            user=r["User"] or None,
            priority=int(r["Priority"]) if r["Priority"] else None,
        )
        for r in _table("sacctmgr_show_assoc_P.txt")
    }


def load_fs_factors(assocs: dict[int, Assoc]) -> dict[int, float]:
    by_name = {(a.account, a.user): a.id for a in assocs.values() if a.user}
    factors = {}
    for line in _text("sshare_a_l.txt").splitlines()[2:]:
        words = line.split()
        if (words[0], words[1]) in by_name:
            factors[by_name[(words[0], words[1])]] = float(words[7])
    return factors


def load_jobs() -> list[Job]:
    nodes = {
        int(j): int(n)
        for j, n in re.findall(
            r"JobId=(\d+).*?NumNodes=(\d+)", _text("scontrol_show_job.txt"), re.DOTALL
        )
    }
    states = {"PD": "pending", "R": "running"}
    return [
        Job(
            id=int(r["JOBID"]),
            user=r["USER"],
            account=r["ACCOUNT"],
            partitions=tuple(r["PARTITION"].split(",")),
            qos=r["QOS"],
            state=states[r["ST"]],
            submit=_utc(r["SUBMIT_TIME"]),
            cpus=int(r["CPUS"]),
            nodes=nodes[int(r["JOBID"])],
            nice=int(r["NICE"]),
        )
        for r in _table("squeue_all.txt")
    ]


@pytest.fixture(scope="module")
def capture():
    config = load_config()
    jobs = load_jobs()
    assocs = load_assocs()
    submit = max(j.submit for j in jobs if j.state == "pending")
    now = submit + round(AGE_NORMALIZED * config.max_age)
    config = replace(config, calc_anchor=now)
    result = compute_priorities(
        jobs,
        assocs,
        load_qos(),
        load_partitions(),
        ClusterInfo("oracle"),
        config,
        load_fs_factors(assocs),
        now,
    )
    return config, jobs, result


def test_config_read_from_capture(capture):
    config, _, _ = capture
    assert config.max_age == 86400
    assert config.weights["PriorityWeightFairshare"] == 10000
    assert config.flags == frozenset()


def test_rows_are_the_pending_jobs_in_id_order(capture):
    _, jobs, result = capture
    pending = sorted(j.id for j in jobs if j.state == "pending")
    assert [r.job_id for r in result.rows] == pending
    assert result.warnings == []


def test_priority_matches_squeue(capture):
    _, _, result = capture
    squeue = {int(r["JOBID"]): int(r["PRIORITY"]) for r in _table("squeue_all.txt")}
    assert {r.job_id: r.priority for r in result.rows} == {
        j: p for j, p in squeue.items() if j in {r.job_id for r in result.rows}
    }


def test_factors_match_sprio_l_n(capture):
    _, _, result = capture
    lines = _text("sprio_l_n.txt").splitlines()[1:]
    expected = {int(w[0]): [float(x) for x in w[4:10]] for w in map(str.split, lines)}
    for row in result.rows:
        got = [row.factors[n] for n in ("age", "assoc", "fairshare", "jobsize", "partition", "qos")]
        assert got == pytest.approx(expected[row.job_id], abs=5e-8)


def test_normalized_priority_matches_to_14_digits(capture):
    _, _, result = capture
    fields = [line.split("|") for line in _text("sprio_o_full.txt").splitlines()[1:]]
    expected = {int(f[0]): float(f[4]) for f in fields}  # the %y column
    for row in result.rows:
        assert row.normalized_priority == pytest.approx(expected[row.job_id], abs=1e-14)


@pytest.mark.parametrize(
    "name, options",
    [
        ("sprio_l.txt", {"long": True}),
        ("sprio_l_n.txt", {"long": True, "normalized": True}),
        ("sprio_w.txt", {"weights": True}),
        ("sprio_w_n.txt", {"weights": True, "normalized": True}),
        ("sprio_default.txt", {}),
        ("sprio_o_full.txt", {"fmt": FULL_FORMAT}),
        ("sprio_o_full_n.txt", {"fmt": FULL_FORMAT, "normalized": True}),
    ],
)
def test_rendered_text_equals_capture(capture, name, options):
    config, _, result = capture
    assert render(result.rows, config, **options) == _text(name)
