"""``fscli report``: sreport's text, numbers and options over jobs stored with job submit.

Three jobs on cluster c1 (64 CPUs) on 2026-11-27: alice 4 CPUs 01:00-03:00 (physics), bob
2 CPUs 05:00-05:30 (chem), bob 1 CPU from 23:00, still running at --at (physics).
"""

from __future__ import annotations

import json

import pytest

AT = "2026-11-28T10:00:00"
DASHES = "-" * 80


def build_jobs(fscli) -> None:
    fscli.ok("cluster", "add", "c1", "cpus=64", "nodes=4")
    fscli.ok("account", "add", "physics,chem")
    fscli.ok("user", "add", "alice", "account=physics")
    fscli.ok("user", "add", "bob", "account=physics,chem")
    for user, account, cpus, start, end in (
        ("alice", "physics", "4", "2026-11-27T01:00:00", "end=2026-11-27T03:00:00"),
        ("bob", "chem", "2", "2026-11-27T05:00:00", "end=2026-11-27T05:30:00"),
        ("bob", "physics", "1", "2026-11-27T23:00:00", "time=1-0"),
    ):
        state = "state=completed" if end.startswith("end") else "state=running"
        fscli.ok(
            "job", "submit", f"user={user}", f"account={account}", f"cpus={cpus}", state,
            f"submit={start}", f"start={start}", end, at=AT,
        )  # fmt: skip


@pytest.fixture
def jobs(fscli, template):
    return template(fscli, build_jobs)


def _header(
    title: str, unit: str, span: str = "2026-11-27T00:00:00 - 2026-11-27T23:59:59 (86400 secs)"
) -> list[str]:
    return [DASHES, f"{title} {span}", f"Usage reported in {unit}", DASHES]


def test_account_utilization_by_user_is_sreports_text(jobs):
    out = jobs.ok("report", "cluster", "AccountUtilizationByUser", at=AT).stdout
    assert out.splitlines() == [
        *_header("Cluster/Account/User Utilization", "CPU Minutes"),
        "  Cluster         Account     Login     Proper Name     Used   Energy ",
        "--------- --------------- --------- --------------- -------- -------- ",
        "       c1            root                                600        0 ",
        "       c1            chem                                 60        0 ",
        "       c1            chem       bob                       60        0 ",
        "       c1         physics                                540        0 ",
        "       c1         physics     alice                      480        0 ",
        "       c1         physics       bob                       60        0 ",
    ]


def test_user_utilization_by_account_parsable_in_percent(jobs):
    """-P: '|' between fields; Percent: of the cluster's 64 CPUs x 86400 s."""
    out = jobs.ok("report", "cluster", "UserUtilizationByAccount", "-P", "-t", "percent", at=AT)
    assert out.stdout.splitlines() == [
        *_header("Cluster/User/Account Utilization", "Percentage of Total"),
        "Cluster|Login|Proper Name|Account|Used|Energy",
        "c1|alice||physics|0.52%|0.00%",
        "c1|bob||chem|0.07%|0.00%",
        "c1|bob||physics|0.07%|0.00%",
    ]


def test_top_usage_groups_accounts_per_tres(jobs):
    out = jobs.ok("report", "user", "TopUsage", "Group", "--tres", "node,cpu", at=AT).stdout
    assert out.splitlines() == [
        *_header("Top 10 Users", "TRES Minutes"),
        "  Cluster     Login     Proper Name         Account      TRES Name     Used ",
        "--------- --------- --------------- --------------- -------------- -------- ",
        "       c1     alice                         physics            cpu      480 ",
        "       c1     alice                         physics           node      120 ",
        "       c1       bob                   chem, physics            cpu      120 ",
        "       c1       bob                   chem, physics           node       90 ",
    ]


def test_window_topcount_hours_and_noheader(jobs):
    """start=/end= round to the hour; the running job counts up to --at; -p -n: rows only."""
    out = jobs.ok(
        "report", "user", "top", "TopCount=1", "start=2026-11-27T22:40", "end=now",
        "-t", "hours", "-p", "-n", at=AT,
    ).stdout  # fmt: skip
    assert out == "c1|bob||physics|11|0|\n"  # 23:00 to 10:00, one CPU


def test_header_names_the_rounded_window(jobs):
    out = jobs.ok("report", "cluster", "UserU", "start=2026-11-27T00:31", "end=2026-11-27T05:29",
                  "Users=alice", "-t", "s", at=AT).stdout  # fmt: skip
    assert out.splitlines()[1] == (
        "Cluster/User/Account Utilization 2026-11-27T01:00:00 - 2026-11-27T04:59:59 (14400 secs)"
    )
    assert (
        out.splitlines()[-1]
        == "       c1     alice                         physics    28800        0 "
    )


def test_json_gives_seconds_and_shares(jobs):
    out = jobs.ok("report", "cluster", "AccountUtilizationByUser", "--json", at=AT).stdout
    body = json.loads(out)
    meta = body["meta"]
    assert (meta["start"], meta["end"], meta["seconds"], meta["tres"]) == (
        "2026-11-27T00:00:00Z",
        "2026-11-28T00:00:00Z",
        86400,
        ["cpu"],
    )
    assert [(r["Account"], r["Login"], r["Used"]["cpu"]) for r in body["report"]] == [
        ("root", None, 36000),
        ("chem", None, 3600),
        ("chem", "bob", 3600),
        ("physics", None, 32400),
        ("physics", "alice", 28800),
        ("physics", "bob", 3600),
    ]
    assert body["report"][4]["Percent"] == {"cpu": round(28800 / (64 * 86400) * 100, 4)}


@pytest.mark.parametrize(
    "args, message",
    [
        (("cluster", "Nope"), "unknown cluster report 'Nope'"),
        (("cluster", "AccountUtilizationByUser", "-t", "weeks"), "unknown time format 'weeks'"),
        (("cluster", "AccountUtilizationByUser", "start=yesterdayish"), "invalid start time"),
        (("cluster", "AccountUtilizationByUser", "TopCount=3"), "unknown condition 'TopCount=3'"),
        (("user", "TopUsage", "TopCount=0"), "invalid TopCount '0'"),
        (("user", "TopUsage", "colour=red"), "unknown condition 'colour=red'"),
        (("user", "TopUsage", "--tres", "node", "-t", "hourper"), "TRES node usage is no longer"),
    ],
)
def test_bad_input_is_one_line(jobs, args, message):
    assert message in jobs.fails("report", *args, at=AT).stderr
