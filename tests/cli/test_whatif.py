"""What-if (--with, --with-config, whatif shares|decay): every kind of change is made for
real on a copy of the store, and the what-if's after-columns must be exactly what the
plain view prints there; nothing is ever written to the store the what-if reads."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.backends import BACKEND
from tests.conftest import Fscli, build_science

AT = "2026-06-01T00:00:00"
EARLY = "2026-01-01T00:00:00"  # before every charge: a setting made then re-prices everything


def build_site(fscli) -> None:
    """The science tree with usage, a partition, a QOS, priority weights and jobs."""
    build_science(fscli)
    f = fscli
    f.ok("usage", "add", "user=alice", "account=physics", "raw=360000", at="2026-05-20T00:00:00")
    f.ok("usage", "add", "user=bob", "account=chem", "raw=100000", at="2026-05-25T00:00:00")
    f.ok("usage", "add", "user=carol", "account=chem", "raw=20000", at="2026-05-25T00:00:00")
    f.ok("partition", "add", "normal", "cpus=64")
    f.ok("qos", "add", "high", "priority=100")
    f.ok("limits", "set", "account=chem", "qos+=high")
    f.ok(
        "config",
        "set",
        "PriorityWeightFairshare=10000",
        "PriorityWeightAge=1000",
        "PriorityWeightQOS=5000",
        "PriorityWeightAssoc=1000",
        at=EARLY,
    )
    submit = ("job", "submit", "partition=normal", "cpus=4", "time=1:00:00")
    f.ok(*submit, "user=alice", "account=physics", "count=2", at="2026-05-31T00:00:00")
    f.ok(*submit, "user=bob", "account=chem", at="2026-05-31T12:00:00")
    f.ok(*submit, "user=carol", "account=chem", "qos=high", at="2026-05-31T18:00:00")
    f.ok(*submit, "user=carol", "account=chem", "state=running", at="2026-05-31T22:00:00")


@pytest.fixture
def site(fscli, template) -> Fscli:
    """The store :func:`build_site` leaves, copied from its template."""
    return template(fscli, build_site)


SQLITE_ONLY = (
    "compared with the real change on a `db backup` copy and read row by row with sqlite3: "
    "SQLite stores (the what-if reads through the same API on every backend)"
)


def copy_of(f: Fscli, tmp_path: Path) -> Fscli:
    if BACKEND != "sqlite":
        pytest.skip(SQLITE_ONLY)
    target = tmp_path / "copy.db"
    f.ok("db", "backup", str(target))
    return Fscli(str(target))


def store_bytes(f: Fscli) -> str:
    """Every row of the store (what a write would change), as one digest; the files
    themselves change when SQLite merely checkpoints its write-ahead log."""
    import sqlite3

    if BACKEND != "sqlite":
        pytest.skip(SQLITE_ONLY)
    conn = sqlite3.connect(f"file:{f.db}?mode=ro", uri=True)
    try:
        return hashlib.sha256("\n".join(conn.iterdump()).encode()).hexdigest()
    finally:
        conn.close()


def parsable(text: str) -> list[dict[str, str]]:
    header, *lines = text.splitlines()
    names = header.split("|")
    return [dict(zip(names, line.split("|"))) for line in lines]


def after_columns(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The what-if's rows as the plain view prints them after the change."""
    out = []
    for row in rows:
        kept = {k: v for k, v in row.items() if "(" not in k and not k.startswith("Rank")}
        kept.update(
            {
                k[: -len("(after)")]: v
                for k, v in row.items()
                if k.endswith("(after)") and k != "Rank(after)"
            }
        )
        out.append(kept)
    return out


SSHARE = ("sshare", "-a", "-l", "-P")

# (--with/--with-config arguments, the real change: command words and its --at)
KINDS = [
    (
        ["--with", "account=chem fairshare=60"],
        ("limits", "set", "account=chem", "fairshare=60"),
        AT,
    ),
    (
        ["--with", "account=chem fairshare=+50"],
        ("limits", "set", "account=chem", "fairshare=60"),
        AT,
    ),
    (
        ["--with", "user=bob account=chem fairshare=+200%"],
        ("limits", "set", "user=bob", "account=chem", "fairshare=3"),
        AT,
    ),
    (
        ["--with", "account=physics fairshare=-50%", "--with", "account=chem fairshare=5"],
        None,  # two changes: made one after the other below
        AT,
    ),
    (["--with", "qos=normal usagefactor=2"], ("limits", "set", "qos=normal", "usagefactor=2"), AT),
    (
        ["--with-config", "PriorityDecayHalfLife=1-0"],
        ("config", "set", "PriorityDecayHalfLife=1-0"),
        "2026-05-28T00:00:00",
    ),
    (
        ["--with-config", "PriorityDecayHalfLife=1-0", "--as-if-always"],
        ("config", "set", "PriorityDecayHalfLife=1-0"),
        EARLY,
    ),
    (
        ["--with-config", "PriorityFlags=NO_FAIR_TREE"],
        ("config", "set", "PriorityFlags=NO_FAIR_TREE"),
        AT,
    ),
]


@pytest.mark.parametrize("args, real, real_at", KINDS)
def test_sshare_with_prints_what_the_real_change_prints(site, tmp_path, args, real, real_at):
    view_at = AT if real_at != "2026-05-28T00:00:00" else real_at
    copy = copy_of(site, tmp_path)
    if real is None:
        copy.ok("limits", "set", "account=physics", "fairshare=15", at=AT)
        copy.ok("limits", "set", "account=chem", "fairshare=5", at=AT)
    else:
        copy.ok(*real, at=real_at)
    before = store_bytes(site)
    whatif = site.ok(*SSHARE, *args, at=view_at).stdout
    assert store_bytes(site) == before
    rows = parsable(whatif)
    fields = [k for k in rows[0] if "(" not in k and not k.startswith("Rank")]
    plain = parsable(copy.ok(*SSHARE, "-o", ",".join(fields), at=view_at).stdout)
    assert after_columns(rows) == plain
    assert parsable(site.ok(*SSHARE, "-o", ",".join(fields), at=view_at).stdout) == [
        {k: v for k, v in row.items() if k in fields} for row in rows
    ]


TREE = """cluster:
  name: c1
  qos: [normal]
accounts:
  science:
    fairshare: 40
    children:
      chem:
        fairshare: 25
        limits:
          GrpTRES: cpu=100
        qos: [+high]
      bio:
        fairshare: 20
  physics:
    fairshare: 30
users:
  alice:
    associations:
    - account: physics
  bob:
    associations:
    - account: chem
      fairshare: 3
  dave:
    associations:
    - account: bio
"""
"""The site's tree with an account added (bio, user dave), one moved (physics to the
root), shares and a limit changed."""


@pytest.fixture
def tree_file(tmp_path) -> str:
    path = tmp_path / "tree.yaml"
    path.write_text(TREE)
    return str(path)


def test_sshare_with_tree_prints_what_the_real_apply_prints(site, tmp_path, tree_file):
    copy = copy_of(site, tmp_path)
    copy.ok("apply", tree_file, at=AT)
    before = store_bytes(site)
    rows = parsable(site.ok(*SSHARE, "--with", tree_file, at=AT).stdout)
    assert store_bytes(site) == before
    fields = [k for k in rows[0] if "(" not in k and not k.startswith("Rank")]
    assert parsable(copy.ok(*SSHARE, "-o", ",".join(fields), at=AT).stdout) == after_columns(rows)
    plain = parsable(site.ok(*SSHARE, "-o", ",".join(fields), at=AT).stdout)
    old = {(r["Account"].strip(), r["User"]): r for r in plain}
    for row in rows:  # the side before: as it is, blank for the associations only after
        was = old.get((row["Account"].strip(), row["User"]))
        blank = {k: "" for k in fields if k not in ("Account", "User")}
        side = {k: row[k] for k in fields if k not in ("Account", "User")}
        assert side == ({k: was[k] for k in side} if was else blank), row
    ranks = {r["User"]: (r["Rank"], r["Rank(after)"], r["RankChange"]) for r in rows if r["User"]}
    assert ranks == {
        "alice": ("1", "4", "-3"),
        "dave": ("", "1", ""),
        "bob": ("3", "2", "+1"),
        "carol": ("2", "3", "-1"),
    }
    assert [r["Account"] for r in rows] == [
        "root",
        " physics",
        "  physics",
        " science",
        "  bio",
        "   bio",
        "  chem",
        "   chem",
        "   chem",
    ]


def test_sshare_with_tree_json_and_words_after_it(site, tmp_path, tree_file):
    args = ("sshare", "-a", "--json", "--with", tree_file, "--with", "account=bio fairshare=+5")
    doc = json.loads(site.ok(*args, at=AT).stdout)
    assert doc["meta"]["with"] == [tree_file, "account=bio fairshare=+5"]
    bio = [r for r in doc["shares"] if r["account"] == "bio" and r["user"] is None][0]
    assert (bio["before"], bio["after"]["RawShares"]) == (None, 25)
    dave = [r for r in doc["shares"] if r["user"] == "dave"][0]
    assert (dave["rank"], dave["rank_after"], dave["rank_change"]) == (None, 1, None)


def test_sprio_with_tree_prints_what_the_real_apply_prints(site, tmp_path, tree_file):
    copy = copy_of(site, tmp_path)
    copy.ok("apply", tree_file, at=AT)
    rows = parsable(site.ok("sprio", "-P", "--with", tree_file, at=AT).stdout)
    real = sprio_priorities(copy)
    assert {(int(r["JOBID"]), r["PARTITION"]): int(r["PRIORITY(after)"]) for r in rows} == real
    assert real != sprio_priorities(site)


@pytest.mark.parametrize(
    "text, message",
    [
        (None, "--with nope.yaml: cannot read the tree file: No such file or directory"),
        ("cluster:\n  name: other\n", "is for cluster 'other', not 'c1'"),
        ("cluster:\n  name: c1\naccounts:\n  x:\n    fairshar: 1\n", "fairshar"),
    ],
)
def test_bad_tree_is_one_line(site, tmp_path, text, message):
    path = "nope.yaml"
    if text is not None:
        path = str(tmp_path / "bad.yaml")
        Path(path).write_text(text)
    assert message in site.fails("sshare", "--with", path, at=AT).stderr


def test_halflife_from_now_and_as_if_always_differ(site):
    """From --at on, usage charged before keeps its decay; as if always, it is re-decayed."""
    args = (*SSHARE, "-o", "Account,User,RawUsage", "--with-config", "PriorityDecayHalfLife=1-0")
    now = parsable(site.ok(*args, at=AT).stdout)
    always = parsable(site.ok(*args, "--as-if-always", at=AT).stdout)
    assert [r["RawUsage"] for r in now] == [r["RawUsage(after)"] for r in now]
    assert [(r["User"], r["RawUsage"], r["RawUsage(after)"], r["RankChange"]) for r in always] == [
        ("", "184056", "14799", ""),
        ("", "184056", "14799", ""),
        ("", "74317", "14711", ""),
        ("bob", "50007", "782", "+1"),
        ("carol", "24310", "13929", "-1"),
        ("", "109738", "88", ""),
        ("alice", "109738", "88", "0"),
    ]


def sprio_priorities(f: Fscli, at: str = AT) -> dict[tuple[int, str], int]:
    doc = json.loads(f.ok("sprio", "--json", at=at).stdout)
    return {(j["job_id"], j["partition"]): j["priority"] for j in doc["jobs"]}


SPRIO_KINDS = [
    (["--with", "qos=normal priority=+200"], ("limits", "set", "qos=normal", "priority=200")),
    (["--with", "qos=normal priority=50"], ("limits", "set", "qos=normal", "priority=50")),
    (
        ["--with", "user=alice account=physics priority=20"],
        ("limits", "set", "user=alice", "account=physics", "priority=20"),
    ),
    (["--with", "account=chem fairshare=+100"], ("limits", "set", "account=chem", "fairshare=110")),
    (["--with-config", "PriorityWeightAge=+9000"], ("config", "set", "PriorityWeightAge=10000")),
]


@pytest.mark.parametrize("args, real", SPRIO_KINDS)
def test_sprio_with_prints_what_the_real_change_prints(site, tmp_path, args, real):
    copy = copy_of(site, tmp_path)
    copy.ok(*real, at=AT)
    before = store_bytes(site)
    rows = parsable(site.ok("sprio", "-P", *args, at=AT).stdout)
    assert store_bytes(site) == before
    assert {(int(r["JOBID"]), r["PARTITION"]): int(r["PRIORITY(after)"]) for r in rows} == (
        sprio_priorities(copy)
    )
    assert {(int(r["JOBID"]), r["PARTITION"]): int(r["PRIORITY"]) for r in rows} == (
        sprio_priorities(site)
    )
    assert all(int(r["Rank"]) - int(r["Rank(after)"]) == int(r["RankChange"]) for r in rows)
    assert changed_something(rows)


def changed_something(rows) -> bool:
    return any(r["PRIORITY"] != r["PRIORITY(after)"] for r in rows)


def test_sprio_with_text_and_json(site):
    text = site.ok("sprio", "--with", "account=chem fairshare=+100", at=AT)
    assert text.stderr == "with account=chem fairshare=+100\n"
    assert text.stdout.splitlines() == [
        "JOBID PARTITION USER  PRIORITY PRIORITY(after) Rank Rank(after) RankChange",
        "    1 normal    alice    10142            3476    2           3         -1",
        "    2 normal    alice    10142            3476    2           3         -1",
        "    3 normal    bob       3404            6738    4           2         +2",
        "    4 normal    carol    11702           15035    1           1          0",
    ]
    doc = json.loads(site.ok("sprio", "--json", "--with", "qos=high priority=0", at=AT).stdout)
    assert doc["meta"]["with"] == ["qos=high priority=0"]
    carol = doc["jobs"][-1]
    assert (carol["job_id"], carol["priority"], carol["priority_after"]) == (4, 11702, 6702)
    assert (carol["rank"], carol["rank_after"], carol["rank_change"]) == (1, 3, -2)


def test_sshare_with_text_json_and_ranks(site):
    args = ("sshare", "-a", "--with", "account=chem fairshare=+50")
    text = site.ok(*args, at=AT)
    assert text.stderr == "with account=chem fairshare=+50\n"
    lines = text.stdout.splitlines()
    assert lines[0].split() == [
        "Account", "User", "RawShares", "RawShares(after)", "NormShares", "NormShares(after)",
        "RawUsage", "RawUsage(after)", "EffectvUsage", "EffectvUsage(after)", "FairShare",
        "FairShare(after)", "Rank", "Rank(after)", "RankChange",
    ]  # fmt: skip
    assert lines[5].split() == [
        "chem", "bob", "1", "1", "0.500000", "0.500000", "50007", "50007", "0.672888",
        "0.672888", "0.333333", "0.666667", "3", "2", "+1",
    ]  # fmt: skip
    doc = json.loads(site.ok(*args, "--json", at=AT).stdout)
    assert doc["meta"]["with"] == ["account=chem fairshare=+50"]
    chem = [r for r in doc["shares"] if r["account"] == "chem" and r["user"] is None][0]
    assert (chem["before"]["RawShares"], chem["after"]["RawShares"]) == (10, 60)
    alice = [r for r in doc["shares"] if r["user"] == "alice"][0]
    assert (alice["rank"], alice["rank_after"], alice["rank_change"]) == (1, 3, -2)
    assert alice["after"]["FairShare"] == pytest.approx(1 / 3)


BAD = [
    (["--with", "account=chem fairshar=5"], "limits set", ("account=chem", "fairshar=5")),
    (["--with", "account=nope fairshare=5"], "limits set", ("account=nope", "fairshare=5")),
    (["--with", "account=chem fairshare=abc"], "limits set", ("account=chem", "fairshare=abc")),
    (["--with", "qos=nope priority=5"], "limits set", ("qos=nope", "priority=5")),
    (["--with", "account=chem usagefactor=2"], "limits set", ("account=chem", "usagefactor=2")),
    (["--with", "user=zed fairshare=5"], "limits set", ("user=zed", "fairshare=5")),
    (
        ["--with", "user=zed account=chem priority=5"],
        "limits set",
        ("user=zed", "account=chem", "priority=5"),
    ),
    (
        ["--with", "user=bob account=physics fairshare=5"],
        "limits set",
        ("user=bob", "account=physics", "fairshare=5"),
    ),
]


@pytest.mark.parametrize("args, command, words", BAD)
def test_bad_with_fails_as_the_write_fails(site, args, command, words):
    whatif = site.fails("sshare", *args, at=AT).stderr
    real = site.fails(*command.split(), *words, at=AT).stderr
    assert whatif.replace("sshare --with", "limits set") == real


@pytest.mark.parametrize(
    "args, message",
    [
        (["--with-config", "PriorityDecayHalfLif=1"], "did you mean PriorityDecayHalfLife"),
        (["--with-config", "PriorityWeightAge=lots"], "PriorityWeightAge"),
        (["--with", "account=chem fairshare=-200%"], "-200% of 10 is -10: a value below 0"),
        # -1 would read as sacctmgr's "clear": the shares silently reset, not refused
        (["--with", "account=chem fairshare=-11"], "-11 of 10 is -1: a value below 0"),
        (["--as-if-always"], "--as-if-always needs --with-config"),
        (["--with", "account=chem fairshare=1", "--explain", "chem"], "leave out --explain"),
        (["--with", "cluster=other fairshare=1"], "--with names cluster 'other'"),
    ],
)
def test_bad_what_if_is_one_line(site, args, message):
    assert message in site.fails("sshare", *args, at=AT).stderr


def test_relative_values_are_never_a_write(site):
    """``+50`` in a write is the number 50 (as sacctmgr reads it), never 50 more."""
    site.ok("limits", "set", "account=chem", "fairshare=+50", at=AT)
    rows = parsable(site.ok("sshare", "-P", "-o", "Account,RawShares", at=AT).stdout)
    assert {"Account": "  chem", "RawShares": "50"} in rows


# -- solvers -------------------------------------------------------------------------
def shares_row(f: Fscli, assoc: str, at: str = AT):
    import fscli

    with fscli.open_store(f.db, read_only=True) as store:
        return store.shares(at=at).row(assoc)


@pytest.mark.parametrize(
    "assoc, target, attr, value",
    [
        ("chem", "LevelFS=1", "level_fs", 1.0),
        ("bob/chem", "FairShare=0.6", "fairshare", 0.6),
        ("physics", "LevelFS=1.5", "level_fs", 1.5),
    ],
)
def test_whatif_shares_answer_reaches_the_target_and_one_less_does_not(
    site, tmp_path, assoc, target, attr, value
):
    before = store_bytes(site)
    row = parsable(site.ok("whatif", "shares", assoc, "--target", target, "-P", at=AT).stdout)[0]
    assert store_bytes(site) == before
    needed = int(row["Needed"])
    user, _, account = assoc.rpartition("/")
    where = (f"user={user}", f"account={account}") if user else (f"account={account}",)
    for shares, reaches in ((needed, True), (needed - 1, False)):
        folder = tmp_path / str(shares)
        folder.mkdir()
        copy = copy_of(site, folder)
        copy.ok("limits", "set", *where, f"fairshare={shares}", at=AT)
        assert (getattr(shares_row(copy, assoc), attr) >= value) is reaches, shares


def test_whatif_shares_cannot_reach(site):
    error = site.fails("whatif", "shares", "alice", "--target", "FairShare=2", at=AT).stderr
    assert "no RawShares up to 2147483646 brings FairShare of alice to 2.0" in error


def test_whatif_decay_answer_is_the_first_moment_at_the_target(site):
    from fscli.engine.timestr import parse_when

    before = store_bytes(site)
    row = parsable(
        site.ok("whatif", "decay", "chem", "--target", "RawUsage=5000", "-P", at=AT).stdout
    )[0]
    assert store_bytes(site) == before
    when = parse_when(row["When"].rstrip("Z"), 0)
    assert (
        shares_row(site, "chem", when).raw_usage
        <= 5000
        < shares_row(site, "chem", when - 1).raw_usage
    )
    assert row == {
        "Assoc": "chem",
        "RawUsage": "74317",
        "Target": "RawUsage=5000",
        "When": "2026-06-28T06:20:00Z",
        "In": "27-06:20:00",
        "Then": str(int(shares_row(site, "chem", when).raw_usage)),
    }


def test_tree_with_draws_as_it_is_then_what_the_real_change_draws(site, tmp_path):
    copy = copy_of(site, tmp_path)
    copy.ok("limits", "set", "account=chem", "fairshare=60", at=AT)
    before = store_bytes(site)
    lines = site.ok("tree", "science", "--with", "account=chem fairshare=+50", at=AT).stdout
    assert store_bytes(site) == before
    as_is = site.ok("tree", "science", at=AT).stdout.splitlines()
    real = copy.ok("tree", "science", at=AT).stdout.splitlines()
    assert as_is[0] == "cluster c1, fair_tree, bar: usage █ vs share |"
    assert lines.splitlines() == [
        "cluster c1, fair_tree, as it is, bar: usage █ vs share |",
        *as_is[1:],
        "cluster c1, fair_tree, with account=chem fairshare=+50, bar: usage █ vs share |",
        *real[1:],
    ]
    assert real != as_is


def test_limits_check_with_takes_the_same_words(site):
    """limits check --with reads the words every --with reads (fairshare= included)."""
    args = ("limits", "check", "user=bob", "account=chem", "cpus=200", "--json")
    plain = json.loads(site.ok(*args, at=AT).stdout)
    changed = json.loads(site.ok(*args, "--with", "account=chem GrpTRES=cpu=500", at=AT).stdout)
    assert (plain["verdict"], changed["verdict"]) == ("pend", "run")


def test_limits_check_with_unknown_user_says_what_the_write_says(site):
    args = ("limits", "check", "user=bob", "account=chem", "cpus=2", "--with")
    error = site.fails(*args, "user=zed GrpTRES=cpu=5", at=AT).stderr
    assert error == site.fails("limits", "set", "user=zed", "GrpTRES=cpu=5", at=AT).stderr
    assert error.count("\n") == 1 and "user 'zed' does not exist" in error


def test_with_leaves_out_over_and_sort(site):
    for extra in (["--over"], ["--sort", "RawUsage"]):
        result = site.fails("sshare", "-a", "--with", "account=chem fairshare=+5", *extra, code=2)
        assert result.stderr == (
            "fscli: error: --with and --with-config leave out --explain, --svg, --over and --sort\n"
        )


def test_tree_view_with_tree_draws_what_the_real_apply_draws(site, tmp_path, tree_file):
    copy = copy_of(site, tmp_path)
    copy.ok("apply", tree_file, at=AT)
    lines = site.ok("tree", "--with", tree_file, at=AT).stdout.splitlines()
    real = copy.ok("tree", at=AT).stdout.splitlines()
    start = lines.index(f"cluster c1, fair_tree, with {tree_file}, bar: usage █ vs share |")
    assert lines[start + 1 :] == real[1:]


@pytest.mark.parametrize(
    "config, always, limit, verdicts",
    [
        ("TRESBillingWeights=CPU=4", False, "GrpTRES=billing=20", ("run", "pend")),
        ("PriorityDecayHalfLife=1-0", True, "GrpTRESMins=billing=1000", ("pend", "run")),
    ],
)
def test_limits_check_with_config_answers_what_the_real_setting_answers(
    site, tmp_path, config, always, limit, verdicts
):
    """A billing limit (the running job billed under the new weights) and a usage limit
    (chem's 1238 billing minutes decayed at the new half-life, as if it always had been)."""
    site.ok("limits", "set", "account=chem", limit)
    copy = copy_of(site, tmp_path)
    copy.ok("config", "set", config, at=EARLY if always else AT)
    args = ("limits", "check", "user=bob", "account=chem", "cpus=8", "--json")
    extra = ["--with-config", config, *(["--as-if-always"] if always else [])]
    before = store_bytes(site)
    changed = json.loads(site.ok(*args, *extra, at=AT).stdout)
    assert store_bytes(site) == before
    real = json.loads(copy.ok(*args, at=AT).stdout)
    plain = json.loads(site.ok(*args, at=AT).stdout)
    assert changed == real
    assert (plain["verdict"], changed["verdict"]) == verdicts


def test_limits_check_takes_no_tree(site, tree_file):
    error = site.fails("limits", "check", "user=bob", "--with", tree_file, at=AT).stderr
    assert "limits check --with takes 'TARGET SETTING=VALUE...' words, not a tree" in error


def limit_values(f: Fscli, *args: str, value: str = "value") -> dict[tuple, object]:
    doc = json.loads(f.ok("limits", "show", *args, "--json", at=AT).stdout)
    return {
        (d["name"], d.get("tres"), d["level"], d["source"]): d.get(value) for d in doc["limits"]
    }


@pytest.mark.parametrize("target", [("account=chem",), ("user=bob", "account=chem", "--effective")])
def test_limits_show_with_prints_what_the_real_change_shows(site, tmp_path, target):
    change = ("account=chem", "GrpTRES=cpu=256,mem=1000", "MaxJobs=5")
    copy = copy_of(site, tmp_path)
    copy.ok("limits", "set", *change, at=AT)
    args = (*target, "--with", " ".join(change))
    before = store_bytes(site)
    after = limit_values(site, *args, value="value_after")
    assert store_bytes(site) == before
    assert {k: v for k, v in after.items() if v is not None} == limit_values(copy, *target)
    old = limit_values(site, *args)
    assert {k: v for k, v in old.items() if v is not None} == limit_values(site, *target)
    assert old[("GrpTRES", "mem", "account", "chem")] is None
    text = site.ok("limits", "show", *args, "-P", at=AT).stdout.splitlines()
    assert text[0] == "Name|TRES|Value|Value(after)|Level|Source|As"
    assert "GrpTRES|cpu|128|256|account|chem|" in text


def test_limits_show_with_config_shows_the_grpwall_used(site, tmp_path):
    site.ok("limits", "set", "account=chem", "GrpWall=100-0")
    copy = copy_of(site, tmp_path)
    copy.ok("config", "set", "PriorityDecayHalfLife=0-1", at=EARLY)
    args = ("user=bob", "account=chem", "--effective")
    extra = ("--with-config", "PriorityDecayHalfLife=0-1", "--as-if-always")
    key = ("GrpWall", None, "account", "chem")
    used = limit_values(site, *args, *extra, value="used_after")[key]
    assert used == limit_values(copy, *args, value="used")[key]
    assert used != limit_values(site, *args, value="used")[key]


def test_limits_show_bad_with_fails_as_the_write_fails(site):
    error = site.fails("limits", "show", "account=chem", "--with", "user=zed fairshare=1").stderr
    assert error == "fscli: error: user 'zed' does not exist\n"
    error = site.fails("limits", "show", "account=chem", "--with", "account=chem fairshar=1")
    real = site.fails("limits", "set", "account=chem", "fairshar=1").stderr
    assert error.stderr.replace("limits show --with", "limits set") == real
