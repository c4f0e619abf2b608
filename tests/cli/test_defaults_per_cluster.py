"""A user's default account is per (user, cluster), as slurmdbd's ``is_def`` (issue 31,
item 1): adding a user to a second cluster, checking a job there, dumping and loading
that cluster, and applying one cluster's tree all take that cluster's default and leave
the other cluster's alone."""

from __future__ import annotations

import json

import pytest


def build_two(fscli) -> None:
    """chen: default astro on hpc1; then added to ml on hpc2 by sacctmgr."""
    fscli.ok("-Q", "cluster", "add", "hpc1")
    fscli.ok("-Q", "cluster", "add", "hpc2")
    fscli.ok("-Q", "--cluster", "hpc1", "account", "add", "astro")
    fscli.ok("-Q", "--cluster", "hpc2", "account", "add", "ml")
    fscli.ok("-Q", "--cluster", "hpc1", "user", "add", "chen", "account=astro")
    fscli.ok("sacctmgr", "-i", "add", "user", "chen", "account=ml", "cluster=hpc2")


@pytest.fixture
def two(fscli, template):
    """The store :func:`build_two` leaves, copied from its template."""
    return template(fscli, build_two)


def test_a_user_added_on_a_second_cluster_has_its_default_there(two):
    listed = two.ok(
        "sacctmgr", "-P", "-n", "show", "assoc", "onlydefaults", "format=cluster,account,user"
    )
    assert listed.stdout == "hpc1|astro|chen\nhpc2|ml|chen\n"
    for cluster, default in (("hpc1", "astro"), ("hpc2", "ml")):
        users = two.ok("--cluster", cluster, "user", "list", "-P", "-n").stdout
        assert users == f"chen|{default}|None\n"


def test_a_job_check_on_the_second_cluster_takes_its_default(two):
    result = two.ok("--cluster", "hpc2", "limits", "check", "user=chen", "cpus=4")
    assert result.stdout == "run: no limit stops this job\n"
    two.ok("-Q", "--cluster", "hpc2", "user", "modify", "chen", "account=ml", "set", "MaxJobs=0")
    result = two.ok("--cluster", "hpc2", "limits", "check", "user=chen", "cpus=4")
    assert result.stdout == "pend: AssocMaxJobsLimit (MaxJobs=0 at user chen@ml)\n"


def test_the_second_clusters_dump_loads_into_a_new_store(two, tmp_path):
    from tests.conftest import Fscli

    path = tmp_path / "hpc2.cfg"
    two.ok("dump", "hpc2", f"file={path}")
    assert "User - 'chen':DefaultAccount='ml':Fairshare=1\n" in path.read_text()
    fresh = Fscli(str(tmp_path / "new.db"))
    fresh.ok("load", str(path))
    assert fresh.ok("user", "list", "-P", "-n").stdout == "chen|ml|None\n"


def test_native_default_changes_stay_on_their_cluster(two):
    two.ok("-Q", "--cluster", "hpc1", "account", "add", "bio")
    two.ok("-Q", "--cluster", "hpc1", "user", "add", "chen", "account=bio", "defaultaccount=bio")
    assert two.ok("--cluster", "hpc2", "user", "list", "-P", "-n").stdout == "chen|ml|None\n"
    two.ok("-Q", "--cluster", "hpc1", "user", "modify", "chen", "set", "defaultaccount=astro")
    assert two.ok("--cluster", "hpc1", "user", "list", "-P", "-n").stdout == "chen|astro|None\n"
    refused = two.fails(
        "--cluster", "hpc2", "user", "modify", "chen", "set", "defaultaccount=astro", code=1
    )
    assert refused.stderr == (
        "fscli: error: user 'chen' has no association with account 'astro' on cluster hpc2: "
        "add it first (fscli user add chen account=astro)\n"
    )
    listed = json.loads(two.ok("--cluster", "hpc2", "user", "list", "--json").stdout)["users"]
    assert listed == [{"User": "chen", "Def Acct": "ml", "Admin": "None"}]


TREE = """\
cluster:
  name: {cluster}
accounts:
  {a}: {{}}
  {b}: {{}}
users:
  dana:
    default_account: {default}
    associations: [{a}, {b}]
"""


def test_two_trees_applied_alternately_settle(fscli, tmp_path):
    """Each apply sets dana's default on its own cluster only: the second round of the
    same two trees changes nothing."""
    one = tmp_path / "hpc1.yaml"
    one.write_text(TREE.format(cluster="hpc1", a="astro", b="bio", default="astro"))
    two = tmp_path / "hpc2.yaml"
    two.write_text(TREE.format(cluster="hpc2", a="ml", b="nlp", default="nlp"))
    for path in (one, two):
        fscli.ok("-Q", "apply", str(path))
    for path in (one, two):
        again = fscli.ok("apply", str(path))
        assert again.stdout == ""
        assert "no changes" in again.stderr
    listed = fscli.ok(
        "sacctmgr", "-P", "-n", "show", "assoc", "onlydefaults", "format=cluster,account,user"
    )
    assert listed.stdout == "hpc1|astro|dana\nhpc2|nlp|dana\n"
