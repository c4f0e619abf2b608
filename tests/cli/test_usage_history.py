"""History is not re-priced: slurmctld charges each job once, at the billing and decay in
force then. A change of TRESBillingWeights or PriorityDecayHalfLife applies from its
moment on; ``usage import`` charges the billing sacct recorded (AllocTRES ``billing=``).

Every expected number is worked out here from Slurm's formulas (billing = Σ weight ×
TRES; a pass multiplies usage by D**seconds with D = 1 - 0.693 / half-life), never
copied from fscli's output.
"""

from __future__ import annotations

import pytest

D = "2026-05-01T"
MINUTE = 60


def build_one(fscli) -> None:
    """Account a with user u1, partition p; 1-minute passes."""
    fscli.ok("-Q", "cluster", "add", "c")
    fscli.ok("-Q", "account", "add", "a")
    fscli.ok("-Q", "user", "add", "u1", "account=a")
    fscli.ok("-Q", "partition", "add", "p")
    fscli.ok("-Q", "config", "set", "PriorityCalcPeriod=1")


@pytest.fixture
def one(fscli, template):
    """The store :func:`build_one` leaves, copied from its template."""
    return template(fscli, build_one)


def raw(fscli, at: str) -> int:
    """u1's RawUsage as sshare -P prints it (a whole number)."""
    out = fscli.ok("sshare", "-n", "-P", "-o", "User,RawUsage", "-u", "u1", at=at).stdout
    (row,) = [line for line in out.splitlines() if line.startswith("u1|")]
    return int(row.split("|")[1])


def completed(fscli, start: str, end: str, cpus: int, mem: str) -> None:
    fscli.ok(
        "-Q",
        "job",
        "submit",
        "user=u1",
        "partition=p",
        f"cpus={cpus}",
        f"mem={mem}",
        "state=completed",
        f"start={D}{start}",
        f"end={D}{end}",
        at=f"{D}09:00:00",
    )


def decay(half_life_minutes: int) -> float:
    return 1.0 - 0.693 / (half_life_minutes * MINUTE)


def test_billing_weights_change_leaves_past_usage_as_it_was(one):
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=0")  # no decay: billing × seconds
    completed(one, "10:00:00", "11:00:00", cpus=4, mem="8G")  # before the change
    completed(one, "11:30:00", "12:30:00", cpus=2, mem="2G")  # started before, ends after
    old = 4 * 3600 + 2 * 3600  # no weights: billing = the CPUs
    assert raw(one, f"{D}12:00:00") == 4 * 3600 + 2 * 1800
    result = one.ok("config", "set", "TRESBillingWeights=CPU=1.0,Mem=0.5G", at=f"{D}12:00:00")
    assert result.stderr == "set TRESBillingWeights=CPU=1.0,Mem=0.5G on c\n"
    # the moment of the change: the past as it was
    assert raw(one, f"{D}12:00:00") == 4 * 3600 + 2 * 1800
    # slurmctld computes a job's billing once, at its start: the job running across the
    # change keeps the old billing to its end
    assert raw(one, f"{D}12:45:00") == old
    completed(one, "13:00:00", "13:30:00", cpus=4, mem="8G")  # after: the new weights
    new_billing = 4 * 1.0 + 8 * 0.5  # 8 GB at 0.5 per GB
    assert raw(one, f"{D}14:00:00") == old + new_billing * 1800
    # the history holds the replaced value
    assert (
        "config set|TRESBillingWeights@c|TRESBillingWeights=- -> CPU=1.0,Mem=0.5G"
        in one.ok("history", "-P").stdout
    )


def test_half_life_change_decays_the_past_under_the_old_one_up_to_it(one):
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=10")
    one.ok("-Q", "usage", "add", "user=u1", "account=a", "raw=1000000", f"at={D}10:00:00")
    d10, d20 = decay(10), decay(20)
    assert raw(one, f"{D}10:20:00") == int(1e6 * d10**1200)
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=20", at=f"{D}10:30:00")
    assert raw(one, f"{D}10:30:00") == int(1e6 * d10**1800)
    # a view of the past decays as the cluster did then
    assert raw(one, f"{D}10:20:00") == int(1e6 * d10**1200)
    one.ok("-Q", "usage", "add", "user=u1", "account=a", "raw=500000", f"at={D}10:45:00")
    expected = 1e6 * d10**1800 * d20**1800 + 5e5 * d20**900
    assert raw(one, f"{D}11:00:00") == int(expected)


def test_half_life_change_while_a_job_runs(one):
    """A running job is charged, pass by pass, x·D**x with the D of each pass, and what it
    was charged decays under the half-life of each later pass."""
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=10")
    completed(one, "10:00:30", "10:40:20", cpus=3, mem="1G")
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=30", at=f"{D}10:20:00")
    start, end, change, at = 36030, 38420, 37200, 39600  # seconds since the day's midnight

    def d(moment: int) -> float:  # a pass at the change's moment ran before it
        return decay(10) if moment <= change else decay(30)

    # charges (the pass they count from, amount): x·D**x at each pass of the run, and the
    # rest at the end, counted from the pass before it
    charges, prev = [], start
    for moment in range(36060, end + 1, MINUTE):
        charges.append((moment, 3 * (moment - prev) * d(moment) ** (moment - prev)))
        prev = moment
    charges.append((prev, 3 * (end - prev) * d(end) ** (end - prev)))
    expected = 0.0
    for since, amount in charges:
        for moment in range(since + MINUTE, at + 1, MINUTE):  # each later pass decays it
            amount *= d(moment) ** MINUTE
        expected += amount
    assert raw(one, f"{D}11:00:00") == int(expected)


SACCT = """\
JobID|User|Account|Partition|QOS|Start|End|AllocTRES|State
7|u1|a|p|normal|2026-05-01T10:00:00|2026-05-01T10:30:00|cpu=4,mem=8G,node=1,billing=10|COMPLETED
8|u1|a|p|normal|2026-05-01T10:00:00|Unknown|cpu=2,mem=2G,node=1,billing=3|RUNNING
"""


def test_usage_import_charges_the_billing_sacct_recorded(one, tmp_path):
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=0", "TRESBillingWeights=CPU=1.0")
    path = tmp_path / "sacct.txt"
    path.write_text(SACCT)
    one.ok("usage", "import", str(path), "--format", "sacct")
    # job 7: billing 10 for 1800 s (the weights would give 4); job 8: billing 3, running,
    # charged up to the pass at 11:00 (the weights would give 2)
    assert raw(one, f"{D}11:00:30") == 10 * 1800 + 3 * 3600
    # a later change of the weights re-prices neither
    one.ok("-Q", "config", "set", "TRESBillingWeights=CPU=5.0", at=f"{D}11:00:30")
    assert raw(one, f"{D}11:30:00") == 10 * 1800 + 3 * 5400


def test_partition_billing_weights_change_leaves_its_past_jobs_as_they_were(one):
    """slurm.conf sets TRESBillingWeights on the partition's line: a change there applies
    from its moment on too (the jobs that started before keep their billing)."""
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=0")
    one.ok("-Q", "partition", "modify", "p", "set", "TRESBillingWeights=CPU=2.0")
    completed(one, "10:00:00", "11:00:00", cpus=4, mem="8G")  # billing 4 × 2
    completed(one, "11:30:00", "12:30:00", cpus=1, mem="1G")  # runs across the change
    one.ok("-Q", "partition", "modify", "p", "set", "TRESBillingWeights=CPU=3.0", at=f"{D}12:00:00")
    completed(one, "13:00:00", "13:10:00", cpus=4, mem="8G")  # billing 4 × 3
    assert raw(one, f"{D}14:00:00") == 8 * 3600 + 2 * 3600 + 12 * 600
    one.ok("-Q", "partition", "delete", "p", at=f"{D}14:00:00")  # no weights left: the CPUs
    assert raw(one, f"{D}14:00:00") == 8 * 3600 + 2 * 3600 + 12 * 600
