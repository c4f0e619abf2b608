"""Issue 16: one cluster's change never touches another's, no change is faked or lost.

Each case runs end to end through the command line, and every refused command leaves the
store unchanged row for row (:func:`tests.rows.store_rows`).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fscli.api.store import process_user
from tests.backends import BACKEND
from tests.rows import store_rows

AT = "2026-05-01T00:00:00"


def refused(fscli, *args, code: int = 1, text: str = "", **kw):
    """The command fails with one line containing ``text`` and changes no row."""
    before = store_rows(fscli.db)
    result = fscli.fails(*args, code=code, **kw)
    assert text in result.stderr, result.stderr
    assert store_rows(fscli.db) == before
    return result


def build_two(fscli) -> None:
    """The issue's store: clusters uni and other, QOS high, uni's account phys using it."""
    for args in (
        ("cluster", "add", "uni"),
        ("qos", "add", "high", "priority=100"),
        ("--cluster", "uni", "account", "add", "phys", "fairshare=10", "qos=normal,high"),
        ("--cluster", "uni", "config", "set", "PriorityWeightFairshare=10000"),
        ("cluster", "add", "other"),
    ):
        fscli.ok("-Q", *args)


@pytest.fixture
def two(fscli, template):
    """The store :func:`build_two` leaves, copied from its template."""
    return template(fscli, build_two)


# -- multi-cluster -------------------------------------------------------------------
def test_pruning_another_cluster_keeps_global_qos_and_this_clusters_settings(two, tmp_path):
    tree = tmp_path / "o.yaml"
    tree.write_text("cluster:\n  name: other\n")
    result = two.ok("--cluster", "other", "apply", str(tree), "--prune")
    assert result.stdout.splitlines() == [
        "~ cluster other: qos: normal -> -",
        "= qos high: kept, 1 association(s) on cluster uni use it",
        "= qos normal: kept, 2 association(s) on cluster uni use it",
    ]
    assert result.stderr == (
        "applied 1 change(s) to cluster other: 0 to add, 1 to change, 0 to remove\n"
    )
    assert [line.split("|")[:2] for line in two.ok("qos", "list", "-P").stdout.splitlines()] == [
        ["Name", "Priority"],
        ["high", "100"],
        ["normal", "0"],
    ]
    assert two.ok(
        "--cluster", "uni", "assoc", "list", "-P", "format=Account,QOS"
    ).stdout.splitlines() == ["Account|QOS", "root|normal", "phys|high,normal"]
    assert (
        two.ok("--cluster", "uni", "config", "show", "-P", "-n").stdout
        == "PriorityWeightFairshare|10000|set\n"
    )


def test_priority_settings_belong_to_one_cluster(two):
    two.ok("-Q", "--cluster", "other", "config", "set", "PriorityFlags=NO_FAIR_TREE")
    assert (
        two.ok("--cluster", "other", "config", "show", "-P", "-n").stdout
        == "PriorityFlags|NO_FAIR_TREE|set\n"
    )
    assert (
        two.ok("--cluster", "uni", "config", "show", "-P", "-n").stdout
        == "PriorityWeightFairshare|10000|set\n"
    )
    # each cluster computes with its own settings
    for cluster, algorithm in (("other", "classic"), ("uni", "fair_tree")):
        doc = json.loads(two.ok("--cluster", cluster, "sshare", "--json", at=AT).stdout)
        assert doc["meta"]["algorithm"] == algorithm
    history = two.ok("history", "-P").stdout
    assert "|config set|PriorityFlags@other|PriorityFlags=- -> NO_FAIR_TREE" in history


def test_export_and_prune_apply_move_settings_between_clusters_only(two, tmp_path):
    exported = tmp_path / "uni.yaml"
    two.ok("--cluster", "uni", "export", "-o", str(exported))
    two.ok("-Q", "--cluster", "other", "config", "set", "PriorityWeightAge=500")
    two.ok("-Q", "--cluster", "uni", "apply", str(exported), "--prune")
    assert (
        two.ok("--cluster", "other", "config", "show", "-P", "-n").stdout
        == "PriorityWeightAge|500|set\n"
    )


def test_prune_keeps_a_qos_a_pending_job_uses_and_dry_run_says_the_same(two, tmp_path):
    two.ok("-Q", "qos", "add", "spare")
    two.ok("-Q", "--cluster", "other", "account", "add", "lab", "qos=normal,spare")
    two.ok("-Q", "--cluster", "other", "user", "add", "ann", "account=lab")
    two.ok("-Q", "--cluster", "other", "job", "submit", "user=ann", "qos=spare", at=AT)
    tree = tmp_path / "o.yaml"
    tree.write_text(
        "cluster:\n  name: other\n  qos: [normal]\nqos:\n  normal: {}\n  high:\n"
        "    priority: 100\naccounts:\n  lab: {}\nusers:\n  ann:\n"
        "    default_account: lab\n    associations:\n    - account: lab\n"
    )
    before = store_rows(two.db)
    dry = two.ok("--cluster", "other", "apply", str(tree), "--prune", "--dry-run")
    assert store_rows(two.db) == before
    real = two.ok("--cluster", "other", "apply", str(tree), "--prune")
    assert (
        dry.stdout
        == real.stdout
        == (
            "~ account lab: qos: normal,spare -> -\n"
            "= qos spare: kept, 1 pending or running job(s) use it\n"
        )
    )
    assert "spare|" in two.ok("qos", "list", "-P").stdout


@pytest.mark.parametrize(
    "yaml_text,text",
    [
        # removes an association that has an active job
        ("cluster:\n  name: other\n", "Job(s) active, cancel job(s) before remove"),
        # names a QOS it does not define
        ("cluster:\n  name: other\n  qos: [nosuch]\n", "QOS 'nosuch' is used but not defined"),
        # a user whose default account the tree lacks
        (
            (
                "cluster:\n  name: other\nusers:\n  zed:\n    default_account: nowhere\n"
                "    associations:\n    - account: nowhere\n"
            ),
            "nowhere",
        ),
    ],
    ids=["active jobs", "undefined qos", "unknown account"],
)
def test_dry_run_fails_exactly_where_the_real_run_fails(two, tmp_path, yaml_text, text):
    two.ok("-Q", "--cluster", "other", "account", "add", "lab")
    two.ok("-Q", "--cluster", "other", "user", "add", "ann", "account=lab")
    two.ok("-Q", "--cluster", "other", "job", "submit", "user=ann", at=AT)
    tree = tmp_path / "o.yaml"
    tree.write_text(yaml_text)
    dry = refused(two, "--cluster", "other", "apply", str(tree), "--prune", "--dry-run", text=text)
    real = refused(two, "--cluster", "other", "apply", str(tree), "--prune", text=text)
    assert dry.stderr == real.stderr


def test_prune_of_a_user_on_one_cluster_keeps_its_coordinator_role(two, tmp_path):
    two.ok("-Q", "--cluster", "other", "account", "add", "lab")
    two.ok("-Q", "--cluster", "uni", "user", "add", "ann", "account=phys")
    two.ok("-Q", "--cluster", "other", "user", "add", "ann", "account=lab")
    spec = tmp_path / "uni.yaml"
    two.ok("--cluster", "uni", "export", "-o", str(spec))
    text = spec.read_text().replace(
        "    default_account: phys\n", "    default_account: phys\n    coordinator_of: [phys]\n"
    )
    spec.write_text(text)
    two.ok("-Q", "--cluster", "uni", "apply", str(spec))
    tree = tmp_path / "o.yaml"
    tree.write_text(
        "cluster:\n  name: other\n  qos: [normal]\nqos:\n  normal: {}\n  high:\n    priority: 100\n"
    )
    two.ok("-Q", "--cluster", "other", "apply", str(tree), "--prune")
    assert "coordinator_of: [phys]" in two.ok("--cluster", "uni", "export").stdout


# -- QOS lists -----------------------------------------------------------------------
def build_hep(fscli) -> None:
    for args in (
        ("cluster", "add", "c1"),
        ("qos", "add", "high"),
        ("qos", "add", "extra"),
        ("account", "add", "hep", "qos=normal,high", "defaultqos=normal"),
        ("user", "add", "bob,amy", "account=hep"),
    ):
        fscli.ok("-Q", *args)


@pytest.fixture
def hep(fscli, template):
    """The store :func:`build_hep` leaves, copied from its template."""
    return template(fscli, build_hep)


def test_qos_minus_on_an_inheriting_association_stores_a_delta(hep, tmp_path):
    assert hep.ok("limits", "check", "user=bob", "qos=high").stdout.startswith("run")
    result = hep.ok("user", "modify", "bob", "account=hep", "set", "qos-=high")
    assert result.stderr == "modified user bob/hep on c1: qos-=high\n"
    assert (
        hep.ok("limits", "check", "user=bob", "qos=high").stdout.splitlines()[0]
        == "reject: Invalid qos specification"
    )
    assert hep.ok("limits", "check", "user=amy", "qos=high").stdout.startswith("run")
    dump = tmp_path / "c1.cfg"
    hep.ok("dump", "c1", f"file={dump}")
    assert "User - 'bob':DefaultAccount='hep':Fairshare=1:QOS='-high'\n" in dump.read_text()
    rows = json.loads(hep.ok("assoc", "list", "--json", "format=User,QOS").stdout)
    assert [r for r in rows["associations"] if r["User"] == "bob"] == [
        {"User": "bob", "QOS": "normal", "QOSInherited": True, "QOSRaw": "-high"}
    ]


def test_a_parents_later_change_flows_through_a_delta(hep):
    hep.ok("-Q", "user", "modify", "bob", "set", "qos-=high")
    hep.ok("-Q", "account", "modify", "hep", "set", "qos+=extra")
    assert hep.ok("assoc", "list", "-P", "format=Account,User,QOS").stdout.splitlines() == [
        "Account|User|QOS",
        "root||normal",
        "hep||extra,high,normal",
        "hep|amy|extra,high,normal",
        "hep|bob|extra,normal",
    ]
    assert hep.ok("limits", "check", "user=bob", "qos=extra").stdout.startswith("run")


def test_a_delta_survives_dump_load_and_yaml_round_trips(hep, tmp_path):
    from tests.conftest import Fscli

    hep.ok("-Q", "user", "modify", "bob", "set", "qos-=high")
    dump, yaml_file = tmp_path / "c1.cfg", tmp_path / "c1.yaml"
    hep.ok("dump", "c1", f"file={dump}")
    hep.ok("export", "-o", str(yaml_file))
    assert "      qos: [-high]\n" in yaml_file.read_text()
    for source, command in ((dump, "load"), (yaml_file, "apply")):
        if BACKEND != "sqlite":
            pytest.skip("a second store is made as an SQLite file")
        other = Fscli(str(tmp_path / f"{command}.db"))
        other.ok("-Q", command, str(source))
        assert (
            other.ok("assoc", "list", "-P", "user=bob", "format=User,QOS").stdout
            == "User|QOS\nbob|normal\n"
        )
        assert "QOS='-high'" in other.ok("dump", "c1", "file=-").stdout


def test_qos_plus_and_minus_on_an_own_list_edit_it(hep):
    hep.ok("-Q", "user", "modify", "bob", "set", "qos=normal,high")
    hep.ok("-Q", "user", "modify", "bob", "set", "qos-=high")
    rows = json.loads(hep.ok("assoc", "list", "--json", "user=bob", "format=QOS").stdout)
    assert rows["associations"] == [{"QOS": "normal", "QOSInherited": False, "QOSRaw": "normal"}]


def test_a_default_qos_outside_the_list_is_refused(hep):
    refused(
        hep,
        "user",
        "modify",
        "bob",
        "set",
        "defaultqos=extra",
        text="DefaultQOS 'extra' of user bob in account hep on cluster c1 is not in its "
        "QOS list (high,normal)",
    )
    # the inherited default falls out of a list the change makes
    refused(
        hep,
        "user",
        "modify",
        "bob",
        "set",
        "qos=high",
        text="DefaultQOS 'normal' of user bob in account hep on cluster c1 is not in its "
        "QOS list (high)",
    )
    refused(
        hep,
        "account",
        "modify",
        "hep",
        "set",
        "qos-=normal",
        text="DefaultQOS 'normal' of account hep",
    )
    refused(hep, "account", "add", "lab", "qos=high", "defaultqos=extra", text="DefaultQOS")
    hep.ok("-Q", "user", "modify", "bob", "set", "qos=high", "defaultqos=high")


def test_a_tree_file_with_a_default_qos_outside_the_list_is_refused(hep, tmp_path):
    tree = tmp_path / "c1.yaml"
    hep.ok("export", "-o", str(tree))
    tree.write_text(tree.read_text().replace("default_qos: normal", "default_qos: extra"))
    for dry in (["--dry-run"], []):
        refused(
            hep,
            "apply",
            str(tree),
            *dry,
            text="DefaultQOS 'extra' of account hep on "
            "cluster c1 is not in its QOS list (high,normal)",
        )


def test_a_default_qos_set_only_on_root_is_checked_down_the_tree(fscli, tmp_path):
    """The check looks for a DefaultQOS first, and finds root's: an account below whose
    list lacks it is refused; without any DefaultQOS the same lists are fine."""
    fscli.ok("-Q", "db", "upgrade")  # the store exists: the refusal leaves it as it was
    tree = tmp_path / "c1.yaml"
    body = (
        "qos:\n  normal: {{}}\n  high: {{}}\n"
        "accounts:\n  a:\n    qos: [high]\nusers:\n  u:\n    associations: [a]\n"
    )
    tree.write_text("cluster:\n  name: c1\n  default_qos: normal\n" + body.format())
    refused(
        fscli,
        "apply",
        str(tree),
        text="DefaultQOS 'normal' of account a on cluster c1 is not in its QOS list (high)",
    )
    tree.write_text("cluster:\n  name: c1\n" + body.format())
    fscli.ok("-Q", "apply", str(tree))


# -- changes that change nothing -----------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ("account", "modify", "hep", "set", "fairshare=1"),
        ("account", "modify", "hep", "set", "qos=high,normal"),
        ("user", "modify", "bob", "set", "fairshare=1"),
        ("user", "modify", "bob", "set", "defaultaccount=hep"),
        ("qos", "modify", "high", "set", "priority=0"),
        ("cluster", "modify", "c1", "set", "nodes=4"),
        ("partition", "modify", "batch", "set", "maxtime=1-0"),
        ("limits", "set", "account=hep", "MaxJobs=5"),
        ("limits", "unset", "user=amy", "account=hep", "MaxJobs"),
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_setting_what_is_set_writes_nothing(hep, args):
    hep.ok("-Q", "cluster", "modify", "c1", "set", "nodes=4")
    hep.ok("-Q", "partition", "add", "batch", "maxtime=1-0")
    hep.ok("-Q", "limits", "set", "account=hep", "MaxJobs=5")
    before = store_rows(hep.db)
    result = hep.ok(*args)
    assert result.stderr == "nothing modified: every value is already set\n"
    assert store_rows(hep.db) == before


@pytest.mark.parametrize(
    "args",
    [
        ("account", "delete", "nosuch"),
        ("user", "delete", "nosuch"),
        ("user", "delete", "bob", "account=nosuch"),
        ("qos", "delete", "nosuch"),
        ("partition", "delete", "nosuch"),
        ("cluster", "delete", "nosuch"),
    ],
    ids=lambda a: " ".join(a),
)
def test_a_delete_that_matches_nothing_says_so(hep, args):
    before = store_rows(hep.db)
    result = hep.ok(*args)
    assert result.stderr == "nothing deleted: nothing matches\n"
    assert store_rows(hep.db) == before


def test_a_real_change_is_still_reported_and_logged(hep):
    result = hep.ok("user", "modify", "bob", "set", "fairshare=5")
    assert result.stderr == "modified user bob/hep on c1: fairshare=5\n"
    assert (
        hep.ok("history", "-P")
        .stdout.splitlines()[-1]
        .endswith("|modify association|bob/hep@c1|fairshare=1 -> 5")
    )


# -- the store a command opens -------------------------------------------------------
@pytest.mark.skipif(BACKEND != "sqlite", reason="tests store files")
@pytest.mark.parametrize(
    "args",
    [
        ("user", "list"),
        ("assoc", "list"),
        ("sshare",),
        ("sprio",),
        ("tree",),
        ("export",),
        ("history",),
        ("limits", "show", "account=a"),
        ("config", "show"),
        ("qos", "list"),
    ],
    ids=lambda a: " ".join(a),
)
def test_a_reading_command_never_creates_a_store(tmp_path, args):
    from tests.conftest import Fscli

    typo = tmp_path / "typo.db"
    result = Fscli(str(typo)).fails(*args, code=1)
    assert result.stderr == (
        f"fscli: error: no store at {typo}: a command that only reads does not create one; "
        f"create it with 'fscli --db {typo} cluster add NAME' (or 'fscli db upgrade'), "
        "or check --db / FSCLI_DB\n"
    )
    assert not typo.exists()


def test_history_names_the_uid_user_not_user_env(fscli, monkeypatch):
    monkeypatch.setenv("USER", "mallory")
    monkeypatch.setenv("SUDO_USER", "mallory")
    fscli.ok("-Q", "cluster", "add", "c1")
    assert fscli.ok("history", "-P", "-n").stdout.split("|")[1] == process_user()
    assert process_user() != "mallory"


@pytest.mark.skipif(BACKEND != "sqlite", reason="the default store is an SQLite file")
def test_the_readme_works_in_order_on_a_fresh_machine(tmp_path):
    """README: ``fscli demo``, then the administration section, on the default store."""
    from fscli.cli.main import cli

    runner = CliRunner()
    env = {"XDG_DATA_HOME": str(tmp_path), "FSCLI_DB": None, "FSCLI_CLUSTER": None}

    def run(*args):
        result = runner.invoke(cli, list(args), env=env, catch_exceptions=False)
        assert result.exit_code == 0, (args, result.stderr)
        return result

    first = run("--at", AT, "demo")
    demo = run("--at", AT, "demo")  # the demo rebuilds its cluster, jobs and all
    assert demo.stdout == first.stdout
    store_dir = tmp_path / "fscli"
    where = store_dir / "demo.db"
    assert demo.stderr.endswith(
        f"the demo store is {where} (your own store is untouched)\n"
        f"next: fscli --db {where} sshare --explain user2/accountc\n"
        f"      fscli --db {where} sprio --explain 1\n"
        f"      fscli --db {where} tree\n"
    )
    for hint in demo.stderr.splitlines()[-3:]:  # they work as printed
        run(*hint.removeprefix("next:").split()[1:])
    for line in (
        "cluster add c1",
        "account add science fairshare=40",
        "account add physics parent=science fairshare=30",
        "account add chem parent=science fairshare=10 GrpTRES=cpu=128",
        "user add alice account=physics",
        "user add bob,carol account=chem fairshare=1",
        "user modify bob account=chem set fairshare=parent",
    ):
        run(*line.split())
    assert run("assoc", "list", "-P", "format=Account,User,Share,GrpTRES").stdout.splitlines() == [
        "Account|User|Share|GrpTRES",
        "root||1|",
        "science||40|",
        "chem||10|cpu=128",
        "chem|bob|parent|",
        "chem|carol|1|",
        "physics||30|",
        "physics|alice|1|",
    ]
    assert [line.split("|")[0] for line in run("cluster", "list", "-P").stdout.splitlines()] == [
        "Cluster",
        "c1",
    ]
    assert sorted(p.name for p in store_dir.iterdir()) == ["demo.db", "fscli.db"]
