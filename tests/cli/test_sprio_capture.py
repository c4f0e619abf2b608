"""The real sprio capture (Slurm 22.05.8) rebuilt through fscli commands only.

The scenario of tests/data/golden/slurm-22.05/sprio/notes.md: cluster, partitions, QOS,
accounts and users added with fscli, the slurm.conf priority settings with ``config set``,
the two finished jobs and the running blocker submitted with their times (their usage
makes the Fair Tree ranks of the capture), the eight pending jobs from the captured
squeue. "Now" is fixed with ``--at``: 33 s after the submissions, which is the capture's
AGE column (0.0003819 of PriorityMaxAge=1-0) within its 7-decimal resolution. sprio 22.05
shows the factors of the last priority pass, so a pass is anchored at that moment
(``PriorityCalcAnchor``): it charges the blocker's 38 s x 64 CPUs = 2432, sshare's RawUsage.
"""

from __future__ import annotations

import pytest

from tests.conftest import DATA

CAPTURE = DATA / "golden/slurm-22.05/sprio/fairtree"
NOW = "2026-11-21T15:38:38"
FULL_FORMAT = "%.8i|%r|%u|%Y|%y|%A|%a|%B|%b|%F|%f|%J|%j|%P|%p|%Q|%q|%N|%S|%T|%t"
CONFIG = [
    "PriorityType=priority/multifactor",
    "PriorityCalcPeriod=1",
    "PriorityDecayHalfLife=0",
    "PriorityUsageResetPeriod=NONE",
    "PriorityMaxAge=1-0",
    "PriorityFavorSmall=NO",
    "PriorityWeightAge=1000",
    "PriorityWeightFairshare=10000",
    "PriorityWeightJobSize=1000",
    "PriorityWeightPartition=1000",
    "PriorityWeightQOS=1000",
    "PriorityWeightAssoc=100",
    f"PriorityCalcAnchor={NOW}",
]


def _squeue_jobs() -> list[dict[str, str]]:
    lines = (CAPTURE / "squeue_all.txt").read_text().splitlines()
    head = lines[0].split("|")
    return [dict(zip(head, line.split("|"))) for line in lines[1:]]


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    from tests.conftest import Fscli

    fscli = Fscli(str(tmp_path_factory.mktemp("sprio") / "store.db"))
    fscli.ok("cluster", "add", "oracle", "nodes=1", "cpus=64")
    for name, factor in (("low", 10), ("high", 100)):
        fscli.ok(
            "partition",
            "add",
            name,
            "nodes=1",
            "cpus=64",
            "tres=mem=64000",
            f"priorityjobfactor={factor}",
        )
    for name, prio in (("qlow", 10), ("qmed", 50), ("qhigh", 100)):
        fscli.ok("qos", "add", name, f"priority={prio}")
    qos = "qos=normal,qhigh,qlow,qmed"
    fscli.ok("account", "add", "px", "fairshare=60", qos)
    fscli.ok("account", "add", "py", "fairshare=40", qos)
    fscli.ok("user", "add", "root", "account=root")
    fscli.ok("user", "add", "user1,user2", "account=px")
    fscli.ok("user", "add", "user3,user4", "account=py")
    fscli.ok("config", "set", *CONFIG)
    for job_id, user, cpus in (("1", "user1", "16"), ("2", "user3", "8")):
        fscli.ok(
            "job",
            "submit",
            f"id={job_id}",
            f"user={user}",
            "partition=low",
            f"cpus={cpus}",
            "state=completed",
            "start=2026-11-21T15:35:47",
            "end=2026-11-21T15:36:47",
            at=NOW,
        )
    for job in _squeue_jobs():
        times = ["state=running", f"start={job['START_TIME']}"] if job["ST"] == "R" else []
        fscli.ok(
            "job",
            "submit",
            f"id={job['JOBID']}",
            f"user={job['USER']}",
            f"account={job['ACCOUNT']}",
            f"partition={job['PARTITION']}",
            f"qos={job['QOS']}",
            f"cpus={job['CPUS']}",
            f"nice={job['NICE']}",
            f"submit={job['SUBMIT_TIME']}",
            *times,
            at=NOW,
        )
    return fscli


@pytest.mark.parametrize(
    "name, options",
    [
        ("sprio_l.txt", ["-l"]),
        ("sprio_l_n.txt", ["-l", "-n"]),
        ("sprio_w.txt", ["-w"]),
        ("sprio_w_n.txt", ["-w", "-n"]),
        ("sprio_default.txt", []),
        ("sprio_o_full.txt", ["-o", FULL_FORMAT]),
        ("sprio_o_full_n.txt", ["-n", "-o", FULL_FORMAT]),
    ],
)
def test_text_equals_the_capture(oracle, name, options):
    result = oracle.ok("sprio", *options, at=NOW)
    assert result.stdout == (CAPTURE / name).read_text()
    assert result.stderr == ""


def test_priorities_equal_squeue(oracle):
    out = oracle.ok("sprio", "-h", "-o", "%i %Y", at=NOW).stdout
    expected = {j["JOBID"]: j["PRIORITY"] for j in _squeue_jobs() if j["ST"] == "PD"}
    assert dict(line.split() for line in out.splitlines()) == expected


def test_age_grows_with_at(oracle):
    """An hour later the age factor is 3634/86400 of 1000 = 42 for every job."""
    out = oracle.ok("sprio", "-h", "-o", "%i %A", at="2026-11-21T16:38:38").stdout
    assert {line.split()[1] for line in out.splitlines()} == {"42"}


def test_selections(oracle):
    out = oracle.ok("sprio", "-h", "-u", "user1,user4", "-p", "high", at=NOW).stdout
    assert [line.split()[:3] for line in out.splitlines()] == [
        ["5", "high", "user1"],
        ["11", "high", "user4"],
    ]
    out = oracle.ok("sprio", "-h", "-j", "4,7", "-o", "%i", at=NOW).stdout
    assert out.split() == ["4", "7"]
    out = oracle.ok("sprio", "-h", "8", "9", "-S", "-y", "-o", "%i %Y", at=NOW).stdout
    assert out.splitlines() == ["8 5725", "9 5016"]


def test_explain(oracle):
    out = oracle.ok("sprio", "--explain", "4", at=NOW).stdout
    assert out.splitlines() == [
        "job 4 in partition low (user user1, account px, QOS normal)",
        "age: waited 00:00:33 (since eligible, to the last pass) of PriorityMaxAge 1-00:00:00 "
        "-> 0.000381944 x 1000 = 0.38",
        "assoc: association priority 0 of max 0 -> 0 x 100 = 0.00",
        "fair-share: association 5 (user1/px) -> 0.6 x 10000 = 6000.00",
        "job size: (1/1 nodes + 4/64 CPUs) / 2 -> 0.53125 x 1000 = 531.25",
        "partition: PriorityJobFactor 10 of max 100 -> 0.1 x 1000 = 100.00",
        "qos: normal priority 0 of max 100 -> 0 x 1000 = 0.00",
        "priority: 6631.63 -> 6631",
    ]
    err = oracle.fails("sprio", "--explain", "3", at=NOW, code=1).stderr
    assert err == "fscli: error: job 3 is running: sprio lists pending jobs only\n"
    err = oracle.fails("sprio", "--explain", "99", at=NOW, code=1).stderr
    assert err == "fscli: error: job 99 does not exist\n"
