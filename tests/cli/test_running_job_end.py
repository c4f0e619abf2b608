"""A job stored as running ends at its start plus its time limit (its own, else its
partition's MaxTime): usage charges it, and the limits and TRESRunMins count it, until
then, not at any later ``--at`` (issue 31, item 2)."""

from __future__ import annotations

import pytest

START = "2026-05-01T12:00:00"


def build_site(fscli) -> None:
    """Account chem (GrpTRES=cpu=8, GrpJobs=1) and no decay, so usage is exact."""
    fscli.ok("cluster", "add", "c1")
    fscli.ok("config", "set", "PriorityDecayHalfLife=0", "AccountingStorageEnforce=limits")
    fscli.ok("account", "add", "chem", "GrpTRES=cpu=8", "GrpJobs=1")
    fscli.ok("user", "add", "bob", "account=chem")
    fscli.ok("partition", "add", "p1", "nodes=4", "cpus=64")
    fscli.ok("partition", "add", "short", "nodes=4", "cpus=64", "maxtime=30:00")
    fscli.ok("user", "add", "bob", "account=chem", "partition=short")


@pytest.fixture
def site(fscli, template):
    """The store :func:`build_site` leaves, copied from its template."""
    return template(fscli, build_site)


def _submit(fscli, *words: str) -> None:
    fscli.ok(
        f"--at={START}",
        "job",
        "submit",
        "user=bob",
        "account=chem",
        "cpus=8",
        "state=running",
        f"start={START}",
        *words,
    )


def _raw_usage(fscli, at: str) -> str:
    rows = fscli.ok(f"--at={at}", "sshare", "-a", "-l", "-P").stdout.splitlines()
    head = rows[0].split("|")
    chem = next(r.split("|") for r in rows if r.split("|")[:2] == [" chem", ""])
    return f"{chem[head.index('RawUsage')]} {chem[head.index('TRESRunMins')].split(',')[0]}"


def test_a_running_job_ends_at_its_time_limit(site):
    _submit(site, "partition=p1", "time=1:00:00")
    assert _raw_usage(site, "2026-05-01T12:30:00") == "14400 cpu=240"
    assert _raw_usage(site, "2026-05-01T13:30:00") == "28800 cpu=0"
    assert _raw_usage(site, "2026-06-01T00:00:00") == "28800 cpu=0"
    check = ("limits", "check", "user=bob", "account=chem", "partition=p1", "cpus=4")
    assert site.ok("--at=2026-05-01T12:59:59", *check).stdout.startswith("pend:")
    assert site.ok("--at=2026-05-01T13:00:00", *check).stdout.startswith("run:")
    assert site.ok("--at=2026-05-08T00:00:00", *check).stdout.startswith("run:")


def test_without_a_time_limit_the_partitions_max_time(site):
    _submit(site, "partition=short")
    assert _raw_usage(site, "2026-05-01T12:10:00") == "4800 cpu=160"
    assert _raw_usage(site, "2026-05-02T00:00:00") == "14400 cpu=0"
    check = ("limits", "check", "user=bob", "account=chem", "partition=p1", "cpus=1")
    assert site.ok("--at=2026-05-01T12:29:00", *check).stdout.startswith("pend:")
    assert site.ok("--at=2026-05-01T12:30:00", *check).stdout.startswith("run:")


def test_an_unlimited_job_runs_on(site):
    _submit(site, "partition=p1", "time=UNLIMITED")
    assert _raw_usage(site, "2026-05-01T14:00:00").startswith("57600 ")
    check = ("limits", "check", "user=bob", "account=chem", "partition=p1", "cpus=1")
    assert site.ok("--at=2027-01-01T00:00:00", *check).stdout.startswith("pend:")
