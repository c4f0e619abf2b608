"""The users of a YAML tree read straight from the lines (:mod:`fscli.io.yamltree.users`)
give what the node reader gives: the same TreeSpec, or the same error."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.engine.model import SHARES_PARENT
from fscli.engine.treespec import UserAssocSpec, UserSpec
from fscli.errors import InvalidValue
from fscli.io import yamltree
from fscli.io.yamltree import read, users
from fscli.io.yamltree.compose import Unusual

HEAD = """\
cluster:
  name: c1
  qos: [normal]
qos:
  normal: {}
  high: {}
accounts:
  a:
    fairshare: 5
    children:
      b: {}
  c: {}
"""

USERS = """\
users:
  alice:
    default_account: b
    admin_level: Operator
    coordinator_of: [a, c]
    associations:
    - account: a
      fairshare: 3
      qos: [high, normal]
      default_qos: high
      priority: 7
      limits:
        MaxJobs: 10
        GrpTRES: cpu=4,mem=2G
        MaxWall: 1-00:00:00
    - account: b
      partition: gpu
      fairshare: parent
    - c
  bob:
    associations:
      -   account: c
          qos: normal,high
      - b
  carol:   # a comment
    coordinator_of: c
    associations:
    # a comment between items
    - account: a
"""

TAIL = """\
partitions:
  gpu: {}
"""

VALID = [
    HEAD + USERS,
    HEAD + USERS + TAIL,
    USERS + HEAD + TAIL,
    (HEAD + USERS + TAIL).replace("\n", "\r\n"),
    HEAD + USERS.replace("\n", "  \n") + TAIL,
    yamltree.dump(read.load_nodes(HEAD + USERS + TAIL)),
]


def outcome(loader, text: str):
    try:
        return loader(text, "tree.yaml")
    except InvalidValue as exc:
        return exc.message


@pytest.mark.parametrize("text", VALID)
def test_the_fast_path_reads_valid_trees_as_the_nodes_do(text):
    fast = read._load_fast(text, "tree.yaml")  # taken, not left to the nodes
    assert fast == read.load_nodes(text, "tree.yaml")
    assert list(fast.users) == list(read.load_nodes(text, "tree.yaml").users)


def test_the_fast_path_reads_what_the_writer_writes():
    spec = read.load_nodes(HEAD + USERS + TAIL)
    text = yamltree.dump(spec)
    assert read._load_fast(text, "t") == spec


LEFT = [
    "users: {}\n",
    "users:\n- alice\n",
    "users:\n  alice: {associations: [a]}\n",
    "users:\n  'alice':\n    associations: [a]\n",
    "users:\n  alice:\n    associations:\n    - account: 'a'\n",
    "users:\n  alice:\n    associations:\n    - account: a # comment\n",
    "users:\n  alice:\n    associations:\n    - account: a\n      fairshare: 0x1f\n",
    "users:\n  alice:\n    associations:\n    - account: a\n      fairshare: 1_0\n",
    "users:\n  alice:\n    associations:\n    - account: a\n      priority: 017\n",
    "users:\n  alice:\n    associations:\n    - account: a\n      limits:\n",
    "users:\n  alice:\n    associations:\n    - account: a\n  alice:\n    associations: [b]\n",
    "users:\n  alice:\n    associations:\n    - account: zz\n",
    "users:\n  alice:\n    associations:\n    - account: a\n      account: b\n",
    "users:\n  alice:\n    associations:\n    - account: a\n      fairshare: 1\n      fairshare: 2\n",
    "users:\n  alice:\n    associations:\n    - account: a\n      limits:\n        MaxJobs: 1\n"
    "        maxjobs: 2\n",
    "users:\n  alice:\n    associations:\n    - account: a\n    default_account: c\n",
    "users:\n  alice:\n    associations: []\n",
    "users:\n  alice:\n",
    "users:\n  alice:\n    associations:\n    - account: a\nusers:\n  bob:\n    associations: [a]\n",
    "users :\n  alice:\n    associations:\n    - account: a\n",
    "  users:\n  alice:\n    associations:\n    - account: a\n",
    "users:\n  alice:\n    associations:\n    - account: a\n   bob: 1\n",
    "users:\n  alice:\n    associations:\n    - account: a\n---\n",
    "users:\n  alice:\n    associations:\n      - account: a\n      default_account: a\n",
    # a line that an association allows, then in a user's mapping (and the other way)
    "users:\n  u:\n    associations:\n    - account: a\n      qos: [normal]\n  v:\n"
    "    qos: [normal]\n    associations:\n    - a\n",
    "users:\n  u:\n    default_account: a\n    associations:\n    - account: a\n"
    "      default_account: a\n",
]


@pytest.mark.parametrize("users", LEFT)
def test_what_the_fast_path_leaves_to_the_nodes(users):
    text = HEAD + users
    with pytest.raises(Unusual):
        read._load_fast(text, "tree.yaml")
    assert outcome(yamltree.load, text) == outcome(read.load_nodes, text)


EDITS = [
    "",
    "  ",
    "-",
    "- ",
    " #x",
    ":",
    ": x",
    "'",
    "null",
    "~",
    "0x1f",
    "007",
    "1_000",
    "parent",
    "4294967295",
    "[a, b]",
    "[normal]",
    "{}",
    "account: a",
    "fairshare: 2",
    "qos: [high]",
    "partition: p",
    "MaxJobs: 3",
    "MaxJobs: -1",
    "associations:",
    "default_account: a",
    "admin_level: admin",
    "admin_level: nobody",
]


def _mutations(text: str, count: int, seed: int) -> list[str]:
    """Texts made from ``text`` by changing one line: re-indented, cut, duplicated,
    dropped, given another value or key, or replaced by another line at its indent."""
    rng = random.Random(seed)
    lines = text.split("\n")
    out = []
    for _ in range(count):
        copy = list(lines)
        i = rng.randrange(len(copy))
        line = copy[i]
        kind = rng.randrange(6)
        if kind == 0:
            copy[i] = " " * rng.choice((1, 2)) + line if rng.random() < 0.5 else line[1:]
        elif kind == 1:
            copy.insert(i, line)
        elif kind == 2:
            del copy[i]
        elif kind == 3:
            head, sep, _ = line.partition(": ")
            copy[i] = (head + sep if sep else line.rstrip(":") + ": ") + rng.choice(EDITS)
        elif kind == 4:
            indent = len(line) - len(line.lstrip(" "))
            copy[i] = " " * indent + rng.choice(EDITS)
        else:
            indent = len(line) - len(line.lstrip(" "))
            copy[i] = " " * indent + rng.choice(lines).lstrip(" ")
        out.append("\n".join(copy))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_one_changed_line_reads_as_the_nodes_read_it(seed):
    """Whatever one line becomes, the fast path and the node reader agree."""
    for text in _mutations(HEAD + USERS + TAIL, 150, seed):
        assert outcome(yamltree.load, text) == outcome(read.load_nodes, text), text


# -- the shape the writer writes, read by expressions (users.read_exported)

SIMPLE = {"a", "c", "b", "x.y", "u_1", "1e5"}  # written plain ("1e5": no "." no float)
NAMES = st.sampled_from([*sorted(SIMPLE), "0x1f", "007", "yes", "null", "~", "a b", "é", "-a"])


@st.composite
def exported_trees(draw) -> str:
    """A tree as the writer writes it: accounts a, b and c, users with any of the settings
    a user and its associations may have (names the writer must quote among them)."""
    users = {}
    for name in draw(st.lists(NAMES, min_size=1, max_size=4, unique=True)):
        assocs = []
        for account in draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, unique=True)):
            assoc = UserAssocSpec(
                account=account,
                partition=draw(st.sampled_from([None, "gpu"])),
                shares=draw(st.sampled_from([1, 0, 3, SHARES_PARENT])),
            )
            if draw(st.booleans()):
                assoc.qos = draw(st.sampled_from([["normal"], ["high", "normal"]]))
                assoc.default_qos = draw(st.sampled_from([None, "normal"]))
                assoc.priority = draw(st.sampled_from([None, 0, 7]))
                assoc.limits = draw(st.sampled_from([{}, {"MaxJobs": 4}]))
            assocs.append(assoc)
        users[name] = UserSpec(
            name=name,
            associations=assocs,
            admin_level=draw(st.sampled_from(["None", "Operator"])),
            coordinator_of=draw(st.sampled_from([[], ["a"], ["a", "c"]])),
        )
    spec = read.load_nodes(HEAD + TAIL)
    spec.users = users
    return yamltree.dump(spec)


def _exported(text: str):
    """What :func:`read_exported` makes of the tree's users section: its users, None
    (not the writer's shape) or ``Unusual``."""
    from fscli.io.yamltree.compose import Composer

    block = text[text.index("\nusers:\n") + len("\nusers:\n") :]
    block = block[: next((m.start() + 1 for m in re.finditer(r"\n[^ \n]", block)), len(block))]
    try:
        return users.read_exported(block, Composer("cluster: {name: c1}\n"))
    except Unusual:
        return Unusual


@settings(deadline=None, max_examples=50)
@given(exported_trees())
def test_the_writers_users_read_by_expressions_as_the_nodes_read_them(text):
    """And taken by the expressions, but where the writer quotes a name or writes one
    they leave to the line reader (spaces, other than ASCII, a leading "-")."""
    assert outcome(yamltree.load, text) == outcome(read.load_nodes, text)
    found = _exported(text)
    names = set(read.load_nodes(text).users)
    if names <= SIMPLE:
        assert found == read.load_nodes(text).users
    else:
        assert found is None


def test_the_expressions_take_what_the_writer_writes():
    """Not left to the line reader: a tree written by fscli, quoted names aside."""
    text = yamltree.dump(read.load_nodes(HEAD + USERS + TAIL))
    found = _exported(text)
    assert found not in (None, Unusual)
    assert found == read.load_nodes(text).users
    assert list(found) == list(read.load_nodes(text).users)


EXPORTED = yamltree.dump(read.load_nodes(HEAD + USERS + TAIL))
UNLIKE = [  # the writer's text made into what it does not write, or into errors
    ("  alice:\n", "  'alice':\n"),
    ("  alice:\n", "  alice:  # a comment\n"),
    ("  bob:\n", "  alice:\n"),
    ("    default_account: b\n", "    default_account: null\n"),
    ("    default_account: b\n", "    default_account: 'b'\n"),
    ("    default_account: b\n", "    default_account: zz\n"),
    ("    default_account: b\n", "    default_account: b\n    default_account: b\n"),
    ("    default_account: b\n", "    default_account: b \n"),
    ("    default_account: b\n", ""),
    ("    - account: a\n", "    - account: ~\n"),
    ("    - account: a\n", "    - account: &x a\n"),
    ("    - account: a\n", "    - {account: a}\n"),
    ("    - account: a\n", "    - a\n"),
    ("    - account: a\n", "    - account: a\n    # a comment\n"),
    ("    - account: a\n", "    - account: é\n"),
    ("      fairshare: 3\n", "      fairshare: 4294967295\n"),
    ("      fairshare: 3\n", "      fairshare: 03\n"),
    ("      fairshare: 3\n", "      fairshare: Parent\n"),
    ("      fairshare: 3\n", "      fairshare: 3\n      fairshare: 3\n"),
    ("      partition: gpu\n", "      partition: null\n"),
    ("    associations:\n", "    associations: []\n"),
    ("    admin_level: Operator\n", "    admin_level: nobody\n"),
    ("    admin_level: Operator\n", "    associations: [a]\n"),
    ("    coordinator_of: [a, c]\n", "    coordinator_of: [a, zz]\n"),
]


@pytest.mark.parametrize("old,new", UNLIKE)
def test_the_expressions_leave_what_they_do_not_read_as_the_nodes_do(old, new):
    assert old in EXPORTED
    for text in (EXPORTED.replace(old, new, 1), EXPORTED.replace(old, new)):
        assert outcome(yamltree.load, text) == outcome(read.load_nodes, text), text


@pytest.mark.parametrize("seed", range(6))
def test_one_changed_line_of_the_writers_text_reads_as_the_nodes_read_it(seed):
    for text in _mutations(EXPORTED, 150, seed):
        assert outcome(yamltree.load, text) == outcome(read.load_nodes, text), text


@settings(max_examples=300)
@given(st.text(st.sampled_from("a :-\n\r\t\x00\x7f\x85\xa0é\u2028\ufeff\U0001f600")))
def test_the_quick_scan_for_what_pyyaml_refuses_finds_what_the_expression_finds(text):
    from fscli.io.yamltree.compose import AVOID, avoided

    assert avoided(text) == (AVOID.search(text) is not None)
