"""The YAML tree format: schema, line-numbered errors, deterministic writer."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from fscli.engine.model import SHARES_PARENT
from fscli.errors import InvalidValue
from fscli.io import flatfile, yamltree
from fscli.io.yamltree import compose

ROOT = Path(__file__).parent.parent.parent
GOLDEN = Path(__file__).parent.parent / "data" / "golden" / "slurm-22.05"
DUMPS = [
    "classic_doc/classic/sacctmgr_dump.cfg",
    "sprio/fairtree/sacctmgr_dump.cfg",
    "sacctmgr_messages/roundtrip_dump.cfg",
]

BASE = """\
cluster:
  name: c1
accounts:
  science:
    fairshare: 40
    children:
      physics:
        fairshare: 30
      chemistry: {}
users:
  alice:
    associations: [physics]
"""


def load(text: str):
    return yamltree.load(textwrap.dedent(text), "tree.yaml")


def error_of(text: str) -> str:
    with pytest.raises(InvalidValue) as info:
        load(text)
    assert "\n" not in info.value.message
    return info.value.message


def test_example_tree_loads_and_round_trips():
    spec = yamltree.load((ROOT / "examples" / "tree.yaml").read_text(), "examples/tree.yaml")
    assert spec.cluster.name == "campus"
    assert spec.account_order()[:4] == ["root", "engineering", "guests", "science"]
    assert spec.accounts["chem-teaching"].parent == "chemistry"
    assert spec.accounts["chem-teaching"].shares == SHARES_PARENT
    assert spec.accounts["science"].limits == {
        "GrpTRES": {"cpu": 4096, "mem": 40960000},
        "MaxWallDurationPerJob": 2880,
    }
    carol = spec.users["carol"]
    assert carol.associations[0].limits == {"MaxJobs": 20, "MaxWallDurationPerJob": 720}
    assert spec.users["bob"].default_account == "chemistry"  # first association listed
    assert spec.qos["high"].flags == ["DenyOnLimit"]
    assert spec.qos["high"].limits == {
        "MaxJobsPerUser": 4,
        "MaxTRESPerUser": {"cpu": 256, "gres/gpu": 8},
    }
    assert spec.partitions["gpu"].max_time == 1440
    assert spec.priority["PriorityDecayHalfLife"] == "10080"
    text = yamltree.dump(spec)
    again = yamltree.load(text)
    assert again == spec
    assert yamltree.dump(again) == text


@pytest.mark.parametrize("name", DUMPS)
def test_golden_dumps_survive_yaml(name):
    spec = flatfile.parse((GOLDEN / name).read_text())
    again = yamltree.load(yamltree.dump(spec))
    assert again == spec
    assert flatfile.write(again) == flatfile.write(spec)


def test_writer_output_is_exact_and_minimal():
    spec = flatfile.parse((GOLDEN / "sacctmgr_messages/roundtrip_dump.cfg").read_text())
    text = yamltree.dump(spec)
    assert text.startswith(
        "cluster:\n  name: oracle\n  qos: [normal]\naccounts:\n"
        "  acct2:\n    children:\n      sub2:\n        organization: acct1\n"
    )
    assert (
        "  rich:\n"
        "    description: rich account\n"
        "    organization: richorg\n"
        "    fairshare: 20\n"
        "    limits:\n"
        "      GrpJobs: 10\n"
        "      GrpSubmitJobs: 50\n"
        "      GrpTRES: cpu=32,mem=64000M\n"
        "      GrpTRESMins: cpu=100000\n"
        "      MaxJobs: 3\n"
        "      MaxSubmitJobs: 6\n"
        "      MaxTRESPerJob: cpu=8\n"
        "      MaxWallDurationPerJob: 2-00:00:00\n"
        "    qos: [normal, qhigh, qlow]\n"
        "    default_qos: qlow\n"
        "    children:\n"
        "      richsub:\n"
        "        fairshare: parent\n"
    ) in text
    assert (
        "  ruser1:\n"
        "    default_account: richsub\n"
        "    coordinator_of: [rich]\n"
        "    associations:\n"
        "    - account: rich\n"
        "      fairshare: parent\n"
        "      limits:\n"
        "        MaxJobs: 2\n"
        "        MaxSubmitJobs: 4\n"
        "        MaxTRESPerJob: cpu=4\n"
        "        MaxWallDurationPerJob: '10:00:00'\n"
        "      qos: [-qhigh]\n"
    ) in text


def test_yaml_11_pitfalls_are_read_as_written():
    spec = load("""\
        cluster: {name: c1}
        accounts:
          no: {}
        users:
          on:
            associations:
            - account: no
              limits: {MaxWall: 10:00:00, GrpWall: 90}
        """)
    assert "no" in spec.accounts
    assert spec.users["on"].associations[0].limits == {"MaxWallDurationPerJob": 600, "GrpWall": 90}


def test_flat_parent_form():
    spec = load("""\
        cluster: {name: c1}
        accounts:
          physics: {parent: science, fairshare: 3}
          science: {}
        """)
    assert spec.accounts["physics"].parent == "science"
    assert spec.accounts["physics"].organization == "science"


def test_defaults_match_sacctmgr():
    spec = load(BASE)
    physics = spec.accounts["physics"]
    assert (physics.description, physics.organization, physics.parent) == (
        "physics",
        "science",
        "science",
    )
    assert spec.accounts["science"].organization == "science"
    alice = spec.users["alice"]
    assert (alice.default_account, alice.admin_level) == ("physics", "None")
    assert alice.associations[0].shares == 1


# ------------------------------------------------------------ errors


def test_fairshare_error_names_line_and_path():
    bad = BASE.replace("fairshare: 30", "fairshare: lots")
    assert error_of(bad) == (
        'tree.yaml:8: accounts.science.children.physics.fairshare: expected an integer or "parent"'
    )
    assert error_of(BASE.replace("fairshare: 30", "fairshare: 2.5")).endswith(
        'expected an integer or "parent"'
    )
    assert error_of(BASE.replace("fairshare: 30", "fairshare: -3")).endswith(
        'expected an integer from 0 to 2147483646 or "parent"'
    )
    # the number Slurm stores "parent" as is a dump file's spelling only, as on the CLI
    assert error_of(BASE.replace("fairshare: 30", "fairshare: 2147483647")).endswith(
        'expected an integer from 0 to 2147483646 or "parent"'
    )


def test_yaml_syntax_error_has_a_line():
    message = error_of(BASE.replace("chemistry: {}", "chemistry: {]"))
    assert message.startswith("tree.yaml:9: YAML syntax error: ")
    assert error_of("") == "tree.yaml:1: the file is empty: it needs at least a cluster: name"


def test_unknown_keys_suggest_close_ones():
    message = error_of(BASE.replace("fairshare: 30", "fairshar: 30"))
    assert message.startswith(
        "tree.yaml:8: accounts.science.children.physics.fairshar: "
        "unknown key (did you mean 'fairshare'?); known keys: description"
    )
    assert error_of("cluster: {name: c}\naccount: {}\n").startswith(
        "tree.yaml:2: account: unknown key (did you mean 'accounts'?)"
    )
    assert error_of("cluster: {nam: c}\n").startswith(
        "tree.yaml:1: cluster.nam: unknown key (did you mean 'name'?)"
    )


def test_user_under_missing_account():
    message = error_of(BASE + "  bob:\n    associations:\n    - account: biology\n")
    assert message == (
        "tree.yaml:15: users.bob.associations[0].account: account 'biology' does not exist"
    )
    assert error_of(BASE + "  carl:\n    associations: [nope]\n") == (
        "tree.yaml:14: users.carl.associations[0]: account 'nope' does not exist"
    )
    assert error_of(
        BASE.replace(
            "associations: [physics]", "default_account: science\n    associations: [physics]"
        )
    ) == (
        "tree.yaml:12: users.alice.default_account: default account 'science' is not one of "
        "the user's associations"
    )
    assert error_of(
        BASE.replace("associations: [physics]", "coordinator_of: [x]\n    associations: [physics]")
    ) == (
        "tree.yaml:12: users.alice.coordinator_of: coordinator of account 'x', which does not exist"
    )
    assert error_of(
        BASE.replace("associations: [physics]", "associations: [physics, physics]")
    ) == (
        "tree.yaml:12: users.alice.associations[1]: association with account "
        "'physics' is given twice"
    )


def test_same_account_twice():
    twice = BASE.replace("chemistry: {}", "chemistry: {}\n  physics: {}")
    assert error_of(twice) == (
        "tree.yaml:10: accounts.physics: account 'physics' is given twice (first on line 7)"
    )
    dup_key = BASE.replace("chemistry: {}", "chemistry: {}\n      chemistry: {}")
    assert error_of(dup_key) == (
        "tree.yaml:10: accounts.science.children.chemistry: given twice (first on line 9)"
    )


def test_parent_cycle_and_missing_parent():
    cycle = """\
        cluster: {name: c1}
        accounts:
          a: {parent: b}
          b: {parent: c}
          c: {parent: a}
          d: {}
        """
    assert error_of(cycle) == "tree.yaml:3: accounts.a.parent: parent cycle: a -> b -> c -> a"
    assert error_of("cluster: {name: c1}\naccounts:\n  a: {parent: zz}\n") == (
        "tree.yaml:3: accounts.a.parent: parent account 'zz' does not exist"
    )
    nested = BASE.replace("fairshare: 30", "parent: root")
    assert error_of(nested) == (
        "tree.yaml:8: accounts.science.children.physics.parent: "
        "not allowed under children: (the nesting gives the parent)"
    )
    assert error_of("cluster: {name: c1}\naccounts:\n  root: {}\n") == (
        "tree.yaml:3: accounts.root: 'root' is created with the cluster"
    )


@pytest.mark.parametrize(
    "limit, message",
    [
        ("GrpTRES: cpu=x", "limits.GrpTRES: invalid GrpTRES: invalid value 'x' for TRES cpu"),
        (
            "GrpTRES: gpu=2",
            ("limits.GrpTRES: invalid GrpTRES: unknown TRES 'gpu': GPUs are named gres/gpu"),
        ),
        ("MaxWall: soon", "limits.MaxWall: invalid MaxWallDurationPerJob 'soon'"),
        ("MaxJobs: -1", "limits.MaxJobs: invalid MaxJobs '-1': -1/UNLIMITED clears a limit"),
        ("MaxJobsPerUser: 2", "limits.MaxJobsPerUser: unknown association limit 'MaxJobsPerUser'"),
        (
            "MaxJob: 2",
            "limits.MaxJob: unknown association limit 'MaxJob' (did you mean 'MaxJobs'?)",
        ),
    ],
)
def test_malformed_limits(limit, message):
    text = BASE.replace("fairshare: 40", f"limits:\n      {limit}")
    assert error_of(text).startswith(f"tree.yaml:6: accounts.science.{message}")


def test_limit_given_twice_under_two_names():
    text = BASE.replace("fairshare: 40", "limits: {MaxWall: 10, MaxWallDurationPerJob: 20}")
    assert error_of(text) == (
        "tree.yaml:5: accounts.science.limits.MaxWallDurationPerJob: "
        "MaxWallDurationPerJob given twice (under two of its names)"
    )


def test_qos_partitions_and_priority_errors():
    head = "cluster: {name: c1}\n"
    assert error_of(head + "qos:\n  high: {flags: [DenyOnLimits]}\n") == (
        "tree.yaml:3: qos.high.flags: unknown QOS flag 'DenyOnLimits' (did you mean 'DenyOnLimit'?)"
    )
    assert error_of(head + "qos:\n  high: {limits: {MaxJobs: 2}}\n").startswith(
        "tree.yaml:3: qos.high.limits.MaxJobs: unknown QOS limit 'MaxJobs'"
    )
    assert error_of(head + "qos:\n  high: {usage_factor: lots}\n") == (
        "tree.yaml:3: qos.high.usage_factor: expected a number >= 0"
    )
    assert error_of(head + "partitions:\n  gpu: {max_time: forever}\n").startswith(
        "tree.yaml:3: partitions.gpu.max_time: invalid max_time 'forever'"
    )
    assert error_of(head + "partitions:\n  gpu: {nodes: -2}\n") == (
        "tree.yaml:3: partitions.gpu.nodes: expected a whole number >= 0"
    )
    assert error_of(head + "priority:\n  PriorityWeightFairShare: x\n") == (
        "tree.yaml:3: priority.PriorityWeightFairShare: invalid PriorityWeightFairshare 'x': "
        "expected a whole number >= 0"
    )
    assert error_of(head + "priority:\n  PriorityWieghtAge: 1\n").startswith(
        "tree.yaml:3: priority.PriorityWieghtAge: unknown config key 'PriorityWieghtAge'; "
        "did you mean PriorityWeightAge"
    )


def test_structure_errors():
    assert error_of("accounts: {}\n") == (
        "tree.yaml:1: cluster: missing: every tree needs cluster: {name: NAME}"
    )
    assert error_of("cluster: {}\n") == "tree.yaml:1: cluster: missing name: the cluster's name"
    assert error_of("- a\n- b\n") == "tree.yaml:1: (top): expected a mapping of key: value"
    assert error_of("cluster: {name: c}\nusers:\n  u: {}\n") == (
        "tree.yaml:3: users.u: missing associations: (a list of accounts)"
    )
    assert error_of("cluster: {name: c}\nusers:\n  u: {associations: []}\n") == (
        "tree.yaml:3: users.u.associations: expected a list of associations (account names "
        "or mappings with account:)"
    )
    assert (
        error_of("cluster: {name: c}\nusers:\n  u:\n    associations:\n    - {fairshare: 1}\n")
        == "tree.yaml:5: users.u.associations[0]: missing account:"
    )
    assert error_of("cluster: {name: c, tres: cpu=-1}\n").startswith(
        "tree.yaml:1: cluster.tres: invalid TRES item 'cpu=-1'"
    )


def test_only_safe_loading():
    # A python tag stays a node of the composed tree; nothing constructs it.
    assert error_of("cluster: {name: c1, nodes: !!python/object/apply:os.getcwd []}\n") == (
        "tree.yaml:1: cluster.nodes: expected a whole number >= 0"
    )


# ---------------------------------------------------------------- the fast composer

FAST = [
    BASE,
    (ROOT / "examples" / "tree.yaml").read_text(),
    "a: 1\nb: 1.5\nc: ~\nd: null\ne:\nf: yes\ng: 0x1f\nh: 10:00:00\ni: -1\nj: .inf\n",
    "a: 'it''s'\nb: \"plain # not a comment\"\nc: x # comment\n# whole line\nd: [p, 'q', \"r\"]\n",
    "a: {}\nb: []\nc: [ ]\nd: {k: v, n: 2}\ne: http://host:80/x\nf: a#b\n",
    "list:\n- one\n- two: 2\n  three: 3\n-\n  - nested\n- - deeper\n-\nafter: 1\n",
    "users:\n  u:\n    associations:\n    - account: a\n      qos: [x]\n    - b\n  v: {}\n",
    "  indented: 1\n  root: 2\n",
    "a: 1\r\nb:\r\n  c: 2\r\n",
    "\n# only a comment\n",
    "",
]
PYYAML = [
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: |\n  text\n",
    "---\na: 1\n",
    "a: 1\n...\n",
    "a: b\n  continued\n",
    "a:\tb\n",
    "'quoted key': 1\n",
    'a: "esc\\tape"\n',
    "a: [x, [y]]\n",
    "a: 'open\n  close'\n",
    "? a\n: b\n",
    "a: b: c\n",
    "\ufeffa: 1\n",
    "a: 1\n a: 2\n",
    "a:\n  - x\n  y: 1\n",
    "a: [x,]\n",
    "a: -\n",
    "text\n",
    # in a flow collection "?" opens a key (a mapping) or ends a plain scalar (an error)
    "a: [?x]\n",
    "a: {?x: y}\n",
    "a: [x?]\n",
    "a: [x?y, z]\n",
]


def _same(fast, slow) -> None:
    assert type(fast) is type(slow)
    if slow is None:
        return
    assert (fast.tag, fast.start_mark.line) == (slow.tag, slow.start_mark.line)
    if isinstance(slow.value, str):
        assert fast.value == slow.value
        return
    assert len(fast.value) == len(slow.value)
    for mine, theirs in zip(fast.value, slow.value):
        if isinstance(theirs, tuple):
            _same(mine[0], theirs[0])
            _same(mine[1], theirs[1])
        else:
            _same(mine, theirs)


@pytest.mark.parametrize("text", FAST)
def test_fast_composer_builds_pyyaml_nodes(text):
    _same(compose.Composer(text).document(), yaml.compose(text, Loader=yaml.SafeLoader))


@pytest.mark.parametrize("text", PYYAML)
def test_other_yaml_goes_to_pyyaml(text):
    with pytest.raises(compose.Unusual):
        compose.Composer(text).document()
    try:
        expected = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        with pytest.raises(InvalidValue, match="YAML syntax error"):
            yamltree.load(text)
        return
    _same(compose.compose(text), expected)


def test_fast_composer_reads_every_dump():
    spec = flatfile.parse((GOLDEN / "sacctmgr_messages/roundtrip_dump.cfg").read_text())
    text = yamltree.dump(spec)
    _same(compose.Composer(text).document(), yaml.compose(text, Loader=yaml.SafeLoader))


def test_error_in_a_later_association_names_its_own_line():
    message = error_of("""\
        cluster: {name: c1}
        accounts: {zoo: {}}
        users:
          al:
            associations:
            - account: zoo
            - account: nope
        """)
    assert message == (
        "tree.yaml:7: users.al.associations[1].account: account 'nope' does not exist"
    )


PLACED = [
    (
        "accounts: {a: {}, b: {}}\nusers:\n  u:\n    associations:\n    - account: b\n    - zz\n"
        "    - account: a\n      partition: p1\n",
        "tree.yaml:7: users.u.associations[1]: account 'zz' does not exist",
    ),
    (
        "accounts: {a: {}, b: {}}\nusers:\n  u:\n    associations:\n    - b\n    - account: a\n"
        "    - account: b\n",
        "tree.yaml:8: users.u.associations[2]: association with account 'b' is given twice",
    ),
    (
        "accounts: {a: {}}\nusers:\n  v:\n    associations:\n    - account: a\n  u:\n"
        "    associations:\n    - account: a\n      partition: x\n    -   account: zz\n",
        "tree.yaml:11: users.u.associations[1].account: account 'zz' does not exist",
    ),
]


@pytest.mark.parametrize(("body", "error"), PLACED)
def test_a_user_problem_names_the_line_as_listed(body, error):
    """Associations are checked in the order UserSpec sorts them; the error names the one
    as listed in the file (its index and line)."""
    with pytest.raises(InvalidValue) as exc:
        yamltree.load("cluster: {name: c}\n" + body, "tree.yaml")
    assert exc.value.message == error
