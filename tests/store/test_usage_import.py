"""sacct job ids on their way into the store's 64-bit job ids."""

from __future__ import annotations

HEADER = "JobID|User|Account|AllocCPUS|Start|End|State\n"
RUN = "|u|a|1|2026-02-01T01:00:00|2026-02-01T02:00:00|COMPLETED\n"


def _store(fscli):
    fscli.ok("cluster", "add", "c1")
    fscli.ok("account", "add", "a")
    fscli.ok("user", "add", "u", "account=a")


def test_a_non_ascii_digit_job_id_gets_a_new_id(fscli, tmp_path):
    _store(fscli)
    jobs = tmp_path / "jobs.txt"
    jobs.write_text(HEADER + "7" + RUN + "\u00b2" + RUN, encoding="utf-8")
    fscli.ok("usage", "import", str(jobs), "--format", "sacct")
    rows = [line.split("|") for line in fscli.ok("job", "list", "-P").stdout.splitlines()]
    assert [(r[0], r[1], r[6]) for r in rows] == [
        ("JobID", "User", "State"),
        ("7", "u", "completed"),
        ("8", "u", "completed"),
    ]


def test_a_job_id_past_64_bits_is_refused(fscli, tmp_path):
    _store(fscli)
    jobs = tmp_path / "jobs.txt"
    jobs.write_text(HEADER + "9" * 20 + RUN)
    failed = fscli.fails("usage", "import", str(jobs), "--format", "sacct", code=1)
    assert failed.stderr == (
        "fscli: error: job id 99999999999999999999 is too large (at most 9223372036854775807)\n"
    )
    listed = fscli.ok("job", "list", "-P").stdout.splitlines()
    assert (len(listed), listed[0].split("|")[0]) == (1, "JobID")  # the header only


def test_a_job_without_id_after_the_largest_id_is_refused(fscli, tmp_path):
    _store(fscli)
    jobs = tmp_path / "jobs.txt"
    jobs.write_text(HEADER + "9223372036854775807" + RUN + "x" + RUN)
    failed = fscli.fails("usage", "import", str(jobs), "--format", "sacct", code=1)
    assert failed.stderr == (
        "fscli: error: no new job id left for the 1 job(s) without a "
        "numeric JobID after job 9223372036854775807 (job ids go up to "
        "9223372036854775807)\n"
    )
    listed = fscli.ok("job", "list", "-P").stdout.splitlines()
    assert (len(listed), listed[0].split("|")[0]) == (1, "JobID")  # the header only
