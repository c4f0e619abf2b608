"""``fscli sshare`` end to end: stores built with fscli commands, output compared with
Slurm's own numbers (seed documents, Slurm's expect tests 24.1/24.4, real 22.05 captures)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import yaml

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
AT = "2026-05-01T12:00:00"
TOL = 1e-6


def build(
    fscli, assocs: list[dict], algorithm_flags: str | None = None, usage_file: Path | None = None
) -> None:
    """Build a tree with fscli commands; each user's RawUsage is set as of AT.

    ``assocs``: dicts with account, parent (accounts), user, shares, raw_usage. Accounts
    with the same parent and shares, and users with the same account and shares, are
    added by one command. ``usage_file``: import RawUsage from a real sshare -P capture
    instead of ``usage set``.
    """
    fscli.ok("-Q", "cluster", "add", "t")
    groups: dict[tuple, list[str]] = {}
    for rec in assocs:  # parents come before children in every case file
        if rec.get("user") is None and rec["account"] != "root":
            key = ("account", f"parent={rec['parent']}", f"fairshare={rec['shares']}")
            groups.setdefault(key, []).append(rec["account"])
    for rec in assocs:
        if rec.get("user") is not None:
            key = ("user", f"account={rec['account']}", f"fairshare={rec['shares']}")
            groups.setdefault(key, []).append(rec["user"])
    for (kind, *words), names in groups.items():
        fscli.ok("-Q", kind, "add", ",".join(names), *words)
    if usage_file is not None:
        fscli.ok("-Q", "usage", "import", str(usage_file), "--format", "sshare", at=AT)
    for rec in assocs:
        if rec.get("user") is not None and rec.get("raw_usage") and usage_file is None:
            fscli.ok(
                "-Q",
                "usage",
                "set",
                f"user={rec['user']}",
                f"account={rec['account']}",
                f"raw={rec['raw_usage']}",
                f"at={AT}",
            )
    if algorithm_flags:
        fscli.ok("-Q", "config", "set", f"PriorityFlags={algorithm_flags}")


def cli_main():
    from fscli.cli.main import cli

    return cli


def sshare(fscli, *args: str) -> list[str]:
    return fscli.ok("sshare", *args, at=AT).stdout.splitlines()


# -- documented worked examples -------------------------------------------------------

DOC_TREE = [
    {"account": "a", "parent": "root", "shares": 40},
    {"account": "b", "parent": "a", "shares": 30},
    {"account": "c", "parent": "a", "shares": 10},
    {"account": "d", "parent": "root", "shares": 60},
    {"account": "e", "parent": "d", "shares": 25},
    {"account": "f", "parent": "d", "shares": 35},
    {"account": "b", "user": "user1", "shares": 1, "raw_usage": 20},
    {"account": "c", "user": "user2", "shares": 1, "raw_usage": 25},
    {"account": "c", "user": "user3", "shares": 1},
    {"account": "e", "user": "user4", "shares": 1, "raw_usage": 25},
    {"account": "f", "user": "user5", "shares": 1},
]


def doc_store(fscli) -> None:
    """Seed 000's example: usages 0.20/0.25/0.25 of a machine total of 100 (30 to root)."""
    build(fscli, DOC_TREE, "NO_FAIR_TREE")
    fscli.ok("-Q", "usage", "add", "account=root", "raw=30", f"at={AT}")


def user_factors(lines: list[str]) -> list[str]:
    return [line.split("|")[6] for line in lines if line.split("|")[1].startswith("user")]


def test_seed_000_classic_worked_numbers(fscli, template):
    template(fscli, doc_store)
    lines = sshare(fscli, "-a", "-P", "-n")
    assert user_factors(lines) == ["0.408479", "0.022097", "0.125000", "0.500000", "0.749154"]
    assert lines[0] == "root|||1.000000|100|1.000000|0.500000"
    assert lines[3] == "   b|user1|1|0.300000|20|0.387500|0.408479"


def test_seed_004_linear_worked_numbers(fscli, template):
    template(fscli, doc_store)
    lines = sshare(fscli, "-a", "-P", "-n", "--algorithm", "linear")
    assert user_factors(lines) == ["0.456250", "0.387500", "0.450000", "0.500000", "0.602083"]
    assert lines[0] == "root|||1.000000|100|1.000000|0.500000"


# -- Slurm's own expect tests ---------------------------------------------------------


def _testsuite(name: str) -> dict:
    return yaml.safe_load((GOLDEN / "slurm-testsuite" / f"{name}.yaml").read_text())


@pytest.mark.parametrize("name,flags", [("test24.1", "NO_FAIR_TREE"), ("test24.4", None)])
def test_slurm_testsuite_every_field(fscli, name, flags):
    case = _testsuite(name)
    assocs = [dict(a) for a in case["associations"]]
    build(fscli, assocs, flags)
    lines = sshare(fscli, "-a", "-l", "-p", "-n")
    got = [line.lstrip(" ").lower() for line in lines]
    for expected in case["expected_rows"]["rows"]:
        # the test's strings stop at GrpTRESMins, or carry a cpu-only TRESRunMins
        prefix = expected.lower().rstrip("|").removesuffix("|cpu=0")
        assert any(g.startswith(prefix + "|") for g in got), (expected, got)
    assert len(lines) == len(assocs)


# -- real Slurm 22.05 captures --------------------------------------------------------

CAPTURES = [
    ("slurm-22.05/classic_doc/classic", "NO_FAIR_TREE"),
    ("slurm-22.05/classic_doc/fairtree", None),
    ("slurm-22.05/classic_doc/depth_oblivious", "DEPTH_OBLIVIOUS"),
    ("slurm-22.05/sprio/fairtree", None),
]


def _capture_tree(folder: Path) -> list[dict]:
    lines = (folder / "sacctmgr_show_assoc_P.txt").read_text().splitlines()
    head = lines[0].split("|")
    records = [dict(zip(head, line.split("|"))) for line in lines[1:]]
    records = [r for r in records if r["Cluster"] == records[0]["Cluster"]]
    by_id = {r["ID"]: r for r in records}
    out = []
    for r in records:
        if r["ParentID"] == "0" and not r["User"]:
            continue  # root
        rec = {"account": r["Account"], "shares": r["Share"]}
        if r["User"]:
            rec["user"] = r["User"]
        else:
            rec["parent"] = by_id[r["ParentID"]]["Account"]
        out.append(rec)
    return out


def _close(got: str, want: str) -> bool:
    if want in ("", "inf") or got in ("", "inf"):
        return got == want
    return math.isclose(float(got), float(want), abs_tol=TOL)


@pytest.mark.parametrize("folder,flags", CAPTURES, ids=[c[0] for c in CAPTURES])
def test_real_slurm_capture(fscli, folder, flags):
    build(fscli, _capture_tree(GOLDEN / folder), flags, GOLDEN / folder / "sshare_a_l_P.txt")
    want = (GOLDEN / folder / "sshare_a_l_P.txt").read_text().splitlines()
    got = sshare(fscli, "-a", "-l", "-P")
    assert got[0] == want[0]
    assert len(got) == len(want)
    numeric = ("NormShares", "NormUsage", "EffectvUsage", "FairShare", "LevelFS")
    cols = want[0].split("|")
    for g_line, w_line in zip(got[1:], want[1:]):
        g, w = dict(zip(cols, g_line.split("|"))), dict(zip(cols, w_line.split("|")))
        for col in ("Account", "User", "RawShares", "RawUsage", "GrpTRESMins"):
            assert g[col] == w[col], (col, g_line, w_line)
        for col in numeric:
            if col in w:
                assert _close(g[col], w[col]), (col, g_line, w_line)


def test_real_slurm_capture_rebuilt_from_its_jobs(fscli):
    """The sprio capture's sshare -l, every column, from the jobs that made it (its notes):
    RawUsage comes from the charged run time, TRESRunMins from the running blocker job.

    The capture's PriorityCalcPeriod is 1 minute with no decay; the phase of its passes
    is recovered from user4's RawUsage: 2432 = 64 CPUs x 38 s, so a pass fell 38 s after
    job 3 started (and the counter shows its 365-day limit less those 38 s).
    """
    folder = GOLDEN / "slurm-22.05/sprio/fairtree"
    build(fscli, _capture_tree(folder))
    fscli.ok(
        "-Q",
        "config",
        "set",
        "PriorityDecayHalfLife=0",
        "PriorityCalcPeriod=1",
        "PriorityCalcAnchor=1970-01-01T00:00:38Z",
    )
    for words in (  # JobID 1, 2, 3 of the notes' sacct table
        (
            "user=user1",
            "account=px",
            "cpus=16",
            "state=completed",
            "start=2026-11-21T15:35:47Z",
            "end=2026-11-21T15:36:47Z",
        ),
        (
            "user=user3",
            "account=py",
            "cpus=8",
            "state=completed",
            "start=2026-11-21T15:35:47Z",
            "end=2026-11-21T15:36:47Z",
        ),
        (
            "user=user4",
            "account=py",
            "cpus=64",
            "time=365-00:00:00",
            "state=running",
            "start=2026-11-21T15:38:00Z",
        ),
    ):
        fscli.ok("-Q", "job", "submit", *words, "submit=2026-11-21T15:35:00Z")
    want = (folder / "sshare_a_l_P.txt").read_text().splitlines()
    got = fscli.ok("sshare", "-a", "-l", "-P", at="2026-11-21T15:39:21Z").stdout.splitlines()
    assert got[0] == want[0] and len(got) == len(want)
    cols = want[0].split("|")
    for g_line, w_line in zip(got[1:], want[1:]):
        g, w = dict(zip(cols, g_line.split("|"))), dict(zip(cols, w_line.split("|")))
        for col in cols:
            if col in ("NormShares", "NormUsage", "EffectvUsage", "FairShare", "LevelFS"):
                assert _close(g[col], w[col]), (col, g_line, w_line)
            else:
                assert g[col] == w[col], (col, g_line, w_line)
    assert "cpu=33638359," in got[1]  # root holds the blocker's run time too
    # one pass later the job has given back 60 more seconds: 64 CPU-minutes
    later = fscli.ok("sshare", "-a", "-l", "-P", "-n", at="2026-11-21T15:39:38Z").stdout
    assert later.splitlines()[0].endswith(
        "|cpu=33638295,mem=0,energy=0,node=525598,billing=33638295,fs/disk=0,vmem=0,pages=0"
    )


def one_job(fscli, config: str, *job: str) -> None:
    """Account a, its user u, one setting, one job of u's with 2 CPUs and 1 GiB."""
    fscli.ok("-Q", "cluster", "add", "t")
    fscli.ok("-Q", "account", "add", "a")
    fscli.ok("-Q", "user", "add", "u", "account=a")
    fscli.ok("-Q", "config", "set", config)
    fscli.ok("-Q", "job", "submit", "user=u", "account=a", "cpus=2", "mem=1G", *job)


def test_tres_run_minutes_need_limits_enforced(fscli):
    one_job(
        fscli, "PriorityCalcPeriod=1", "time=10", "state=running", f"start={AT}", f"submit={AT}"
    )
    rows = sshare(fscli, "-a", "-P", "-n", "-o", "Account,User,TRESRunMins")
    assert rows == [
        "root||cpu=20,mem=10240,energy=0,node=10,billing=20,fs/disk=0,vmem=0,pages=0",
        " a||cpu=20,mem=10240,energy=0,node=10,billing=20,fs/disk=0,vmem=0,pages=0",
        "  a|u|cpu=20,mem=10240,energy=0,node=10,billing=20,fs/disk=0,vmem=0,pages=0",
    ]
    table = "\n".join(sshare(fscli, "-a", "-l"))
    assert "cpu=20,mem=10240,node=10,billing=20" in table  # the rich table drops the zeros
    fscli.ok("-Q", "config", "set", "AccountingStorageEnforce=associations")
    rows = sshare(fscli, "-a", "-P", "-n", "-o", "User,TRESRunMins")
    zeros = "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0"
    assert rows == [f"|{zeros}", f"|{zeros}", f"u|{zeros}"]


def test_grp_tres_raw_from_jobs_billing_from_raw_usage(fscli):
    one_job(
        fscli,
        "PriorityDecayHalfLife=0",
        "time=60",
        "state=completed",
        "start=2026-05-01T11:00:00",
        "end=2026-05-01T11:30:00",
        "submit=2026-05-01T11:00:00",
    )
    # a charge made without a job is billing usage only
    fscli.ok("-Q", "usage", "add", "user=u", "account=a", "raw=600", "at=2026-05-01T11:45:00")
    rows = sshare(fscli, "-a", "-P", "-n", "-o", "User,RawUsage,GrpTRESRaw")
    want = "cpu=60,mem=30720,energy=0,node=30,billing=70,fs/disk=0,vmem=0,pages=0"
    assert rows == [f"|4200|{want}", f"|4200|{want}", f"u|4200|{want}"]
    doc = json.loads(fscli.ok("sshare", "--json", "-u", "u", at=AT).stdout)
    counts = {"cpu": 60, "mem": 30720, "energy": 0, "node": 30, "billing": 70}
    counts |= {"fs/disk": 0, "vmem": 0, "pages": 0}
    assert [r["GrpTRESRaw"] for r in doc["shares"]] == [counts] * 3  # numbers, not text


# -- options ---------------------------------------------------------------------------


def test_row_selection_and_format(fscli, template):
    template(fscli, doc_store)
    assert [ln.split("|")[:2] for ln in sshare(fscli, "-P", "-n", "-o", "Account,User")] == [
        ["root", ""],
        [" a", ""],
        ["  b", ""],
        ["  c", ""],
        [" d", ""],
        ["  e", ""],
        ["  f", ""],
    ]
    assert sshare(fscli, "-P", "-n", "-o", "Acc,U", "-u", "user2,user5") == [
        "root|",
        " a|",
        "  b|",
        "  c|",
        "   c|user2",
        " d|",
        "  e|",
        "  f|",
        "   f|user5",
    ]
    assert sshare(fscli, "-a", "-p", "-A", "c", "-o", "A,User,RawU,Eff") == [
        "Account|User|RawUsage|EffectvUsage|",
        "  c||25|0.300000|",
        "   c|user2|25|0.275000|",
        "   c|user3|0|0.150000|",
    ]


@pytest.mark.parametrize(
    "filters",
    [(), ("-a",), ("-a", "-U"), ("-A", "c,f", "-a"), ("-u", "user2,user5"), ("-U", "-u", "-1")],
)
def test_parsable_rows_made_a_piece_at_a_time_are_the_whole_answer(
    fscli, monkeypatch, filters, template
):
    """-p/-P make and write the rows in pieces (here of 2 rows, so that the filters empty
    some of them): the text is the one the whole list of rows gives, as --json keeps it."""
    template(fscli, doc_store)
    whole = json.loads(fscli.ok("sshare", "--json", *filters, at=AT).stdout)["shares"]
    monkeypatch.setattr("fscli.render.sshare.CHUNK", 2)
    lines = sshare(fscli, "-P", "-n", "-o", "Account,User,RawUsage,FairShare", *filters)
    assert lines == [
        "|".join(
            [
                " " * r["depth"] + r["Account"],
                r["User"] or "",
                str(int(r["RawUsage"])),
                "" if r["FairShare"] is None else f"{r['FairShare']:f}",
            ]
        )
        for r in whole
    ]
    assert len(lines) > 2


def test_users_only_and_the_field_list(fscli, tmp_path, template):
    template(fscli, doc_store)
    assert sshare(fscli, "-P", "-n", "-U", "-o", "Account,User", "-A", "c", "-a") == [
        "   c|user2",
        "   c|user3",
    ]
    assert sshare(fscli, "-P", "-n", "-U") == []  # no user rows asked for
    never = tmp_path / "never" / "read.db"  # -e answers before any store is opened
    out = fscli.ok("--db", str(never), "sshare", "-e").stdout
    assert not never.parent.exists()
    assert out.splitlines() == [
        "Account           Cluster           EffectvUsage      FairShare        ",
        "GrpTRESMins       GrpTRESRaw        ID                LevelFS          ",
        "NormShares        NormUsage         Partition         RawShares        ",
        "RawUsage          TRESRunMins       User             ",
    ]


def test_default_is_an_aligned_table_with_sshare_columns_when_piped(fscli, template):
    """Into a pipe: plain aligned text, every value whole, numbers right-aligned."""
    template(fscli, doc_store)
    assert sshare(fscli, "-A", "d") == [
        "Account  User  RawShares  NormShares  RawUsage  EffectvUsage  FairShare",
        " d                    60    0.600000        25      0.250000   0.749154",
    ]


def test_default_is_a_rich_table_on_a_terminal(fscli, monkeypatch, template):
    template(fscli, doc_store)
    monkeypatch.setattr("fscli.render.tables.is_terminal", lambda stream: True)
    result = fscli.runner.invoke(
        cli_main(),
        ["--db", fscli.db, "--at", AT, "sshare", "-A", "d"],
        env={"COLUMNS": "100", "NO_COLOR": "1"},
    )
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line).strip() for line in result.stdout.splitlines()]
    assert lines[0] == "Fair-share on t (classic)"
    assert lines[2].split() == [
        "Account",
        "User",
        "RawShares",
        "NormShares",
        "RawUsage",
        "EffectvUsage",
        "FairShare",
    ]
    assert lines[4].split() == ["d", "60", "0.600000", "25", "0.250000", "0.749154"]


def test_a_table_wider_than_the_terminal_becomes_records_never_cut(fscli, monkeypatch, template):
    template(fscli, doc_store)
    monkeypatch.setattr("fscli.render.tables.is_terminal", lambda stream: True)
    result = fscli.runner.invoke(
        cli_main(),
        ["--db", fscli.db, "--at", AT, "sshare", "-A", "d", "-l"],
        env={"COLUMNS": "40", "NO_COLOR": "1"},
    )
    assert "…" not in result.stdout
    assert result.stdout.split("\n\n")[0].splitlines() == [
        "     Account:  d",
        "        User: ",
        "   RawShares: 60",
        "  NormShares: 0.600000",
        "    RawUsage: 25",
        "   NormUsage: 0.250000",
        "EffectvUsage: 0.250000",
        "   FairShare: 0.749154",
        " GrpTRESMins: ",
        " TRESRunMins: ",
    ]
    assert result.stderr == (
        "fscli: the table is wider than the terminal (40 columns): one "
        "record per row; -P prints a row a line, -o picks columns\n"
    )


def test_json(fscli, template):
    template(fscli, doc_store)
    doc = json.loads(fscli.ok("sshare", "--json", "-u", "user1", at=AT).stdout)
    assert doc["meta"]["algorithm"] == "classic"
    user1 = [r for r in doc["shares"] if r["User"] == "user1"][0]
    assert user1["Account"] == "b" and user1["RawUsage"] == 20.0 and user1["depth"] == 3
    assert user1["FairShare"] == pytest.approx(0.408479, abs=1e-6)


def test_fair_tree_json_inf_and_algorithm_override(fscli):
    build(fscli, DOC_TREE)
    doc = json.loads(fscli.ok("sshare", "--json", "-a", at=AT).stdout)
    assert doc["meta"]["algorithm"] == "fair_tree"
    assert [r["LevelFS"] for r in doc["shares"] if r["User"] == "user3"] == ["inf"]
    classic = sshare(fscli, "-a", "-P", "-n", "--algorithm", "classic", "-u", "user1")
    assert classic[0] == "root|||1.000000|70|1.000000|0.500000"


def test_explain(fscli, template):
    template(fscli, doc_store)
    out = "\n".join(sshare(fscli, "--explain", "user2/c"))
    assert "user user2 (account c) — algorithm classic" in out
    assert "0.022097" in out
    out = "\n".join(sshare(fscli, "--explain", "user2", "--algorithm", "fair_tree"))
    assert "algorithm fair_tree" in out and "rank" in out
    assert fscli.fails("sshare", "--explain", "nobody", code=1, at=AT).stderr == (
        "fscli: error: no association 'nobody' on cluster t (use ACCOUNT or USER/ACCOUNT)\n"
    )
    # an empty name is no association either (it printed the whole table)
    assert fscli.fails("sshare", "--explain", "", code=1, at=AT).stderr == (
        "fscli: error: no association '' on cluster t (use ACCOUNT or USER/ACCOUNT)\n"
    )


def test_decay_one_half_life_and_reset(fscli):
    fscli.ok("-Q", "cluster", "add", "t")
    fscli.ok("-Q", "account", "add", "a")
    fscli.ok("-Q", "user", "add", "u", "account=a")
    fscli.ok("-Q", "usage", "add", "user=u", "account=a", "raw=1000000", "at=2026-05-01T00:00:00")
    same_moment = fscli.ok(
        "sshare", "-a", "-P", "-n", "-o", "User,RawUsage", at="2026-05-01T00:00:00"
    ).stdout.splitlines()
    assert same_moment[-1] == "u|1000000"
    later = fscli.ok(
        "sshare", "-a", "-P", "-n", "-o", "User,RawUsage", at="2026-05-08T00:00:00"
    ).stdout.splitlines()
    d = 1 - 0.693 / 604800  # Slurm's per-second decay; passes every 5 minutes
    assert later[-1] == f"u|{int(1000000 * d**604800)}"
    assert later[-1] == "u|500073"
    fscli.ok("-Q", "config", "set", "PriorityUsageResetPeriod=WEEKLY")
    # 2026-05-03 is a Sunday: the usage of May 1st is gone after it
    assert (
        fscli.ok(
            "sshare", "-a", "-P", "-n", "-o", "User,RawUsage", at="2026-05-02T23:59:00"
        ).stdout.splitlines()[-1]
        != "u|0"
    )
    assert (
        fscli.ok(
            "sshare", "-a", "-P", "-n", "-o", "User,RawUsage", at="2026-05-03T00:01:00"
        ).stdout.splitlines()[-1]
        == "u|0"
    )


def test_charges_sum_in_one_order_whatever_order_they_were_written(fscli):
    """0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 are different doubles: summed in the order the
    rows were written, two users with the same charges would get different LevelFS and no
    tie. The store hands them over by (association, time, amount), so they tie."""
    fscli.ok("-Q", "cluster", "add", "t")
    fscli.ok("-Q", "account", "add", "a")
    fscli.ok("-Q", "user", "add", "u1,u2", "account=a")
    for user, amounts in (("u1", ("0.1", "0.2", "0.3")), ("u2", ("0.3", "0.2", "0.1"))):
        for amount in amounts:
            fscli.ok("-Q", "usage", "add", f"user={user}", "account=a", f"raw={amount}", at=AT)
    rows = fscli.ok(
        "sshare", "-a", "-P", "-n", "-o", "User,LevelFS,FairShare", at=AT
    ).stdout.splitlines()
    assert rows[-2:] == ["u1|1.000000|1.000000", "u2|1.000000|1.000000"]


@pytest.mark.parametrize(
    "args,message",
    [
        (("--algorithm", "fairtree2"), "unknown algorithm 'fairtree2'"),
        (("-o", "Account,Bogus"), 'Invalid field requested: "Bogus"'),
    ],
)
def test_bad_options(fscli, args, message, template):
    template(fscli, doc_store)
    result = fscli.fails("sshare", *args, at=AT)
    assert message in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("-a", "-l", "-P"),
        ("-a", "-l", "-p", "--algorithm", "classic"),
        ("-a", "-P", "-o", "Account,User,GrpTRESMins"),
        ("-a", "-o", "grp"),  # a prefix of GrpTRESMins, in the table
        ("-a", "-P", "-o", "User, GrpTRESMins%12"),
        ("-a", "--json"),
    ],
)
def test_grp_tres_mins_is_shown_wherever_a_column_shows_it(fscli, args):
    """The associations are read without their limits unless a column shows them: every
    way of asking for GrpTRESMins shows the limit."""
    fscli.ok("-Q", "cluster", "add", "t")
    fscli.ok("-Q", "account", "add", "a", "GrpTRESMins=cpu=600")
    fscli.ok("-Q", "user", "add", "u1", "account=a", "GrpTRESMins=cpu=60,mem=100")
    out = fscli.ok("sshare", *args, at=AT).stdout
    if "--json" in args:
        mins = {r["User"] or r["Account"]: r["GrpTRESMins"] for r in json.loads(out)["shares"]}
        assert (mins["a"], mins["u1"]) == ({"cpu": 600}, {"cpu": 60, "mem": 100})
    else:
        assert "cpu=600" in out and "cpu=60,mem=100" in out


def test_columns_without_limits_are_those_read_with_them(fscli, store, template):
    """Store.shares without the associations' settings: every column the same, but
    GrpTRESMins (then None)."""
    from fscli.api.store import Store

    template(fscli, doc_store)
    fscli.ok("-Q", "account", "modify", "a", "set", "GrpTRESMins=cpu=600", "MaxJobs=4")
    with Store(store) as api:
        full, lean = (api.shares(at=AT, settings=settings) for settings in (True, False))
    assert [r.grp_tres_mins for r in lean.rows] == [None] * len(lean.rows)
    assert {"cpu": 600} in [r.grp_tres_mins for r in full.rows]
    assert [r._replace(grp_tres_mins=None) for r in full.rows] == lean.rows
    assert all(not a.limits and not a.qos for a in lean.state.assocs)
