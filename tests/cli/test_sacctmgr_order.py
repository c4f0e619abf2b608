"""``fscli sacctmgr``: the order of association listings and lists, and LFT/RGT.

slurmdbd keeps each cluster's associations as a nested set that follows history: an add
call puts each run of associations under one parent first under it, in the order given;
a moved account goes first under its new parent. sacctmgr lists hierarchically (users
before sub-accounts, by name; a user's associations in nested-set order) and lists what
a modify or delete touched in nested-set order. Every expected text here is what
sacctmgr 22.05.8 printed on a live cluster for the same calls.
"""

from __future__ import annotations

import pytest

from tests.conftest import Fscli


def build_live(fscli) -> None:
    fscli.ok("sacctmgr", "-i", "add", "cluster", "live")


@pytest.fixture
def live(fscli, template) -> Fscli:
    """The store :func:`build_live` leaves, copied from its template."""
    return template(fscli, build_live)


def run(fscli: Fscli, line: str, stdin: str | None = None):
    return fscli("sacctmgr", *line.split(), input=stdin)


def calls(fscli: Fscli, *lines: str) -> None:
    for line in lines:
        result = run(fscli, line)
        assert result.exit_code == 0, (line, result.stdout, result.stderr)


def out(fscli: Fscli, line: str) -> str:
    result = run(fscli, line)
    assert result.exit_code == 0, result.stderr
    return result.stdout


HISTORY = (
    "-i add account a,b",
    "-i add user alice account=a partition=low,high",
    "-i add user bob account=a",
    "-i add user bob account=a partition=p1",
    "-i add user carl,dana account=a,b partition=p2,p1",
    "-i add account c parent=a",
    "-i add account d,e parent=c",
    "-i modify account c set parent=b",
)


def test_partitions_moves_and_lft_follow_history(live):
    """alice's low (given first) before high; bob's later p1 before his older plain
    association; b moved under d, which was inside b: d first goes where b was."""
    calls(live, *HISTORY)
    moved = run(live, "-i modify account b set parent=d")
    assert (moved.exit_code, moved.stdout) == (
        0,
        " Modified account associations...\n  C = live       A = b of root\n",
    )
    assert out(live, "show assoc format=account,user,partition,lft,rgt") == (
        "   Account       User  Partition    LFT    RGT \n"
        "---------- ---------- ---------- ------ ------ \n"
        "      root                            1     38 \n"
        "      root       root                36     37 \n"
        "         a                           18     35 \n"
        "         a      alice        low     31     32 \n"
        "         a      alice       high     33     34 \n"
        "         a        bob         p1     27     28 \n"
        "         a        bob                29     30 \n"
        "         a       carl         p2     23     24 \n"
        "         a       carl         p1     25     26 \n"
        "         a       dana         p2     19     20 \n"
        "         a       dana         p1     21     22 \n"
        "         d                            2     17 \n"
        "         b                            3     16 \n"
        "         b       carl         p2     12     13 \n"
        "         b       carl         p1     14     15 \n"
        "         b       dana         p2      8      9 \n"
        "         b       dana         p1     10     11 \n"
        "         c                            4      7 \n"
        "         e                            5      6 \n"
    )
    assert out(live, "show assoc tree format=account,user,partition,lft") == (
        "Account                    User  Partition    LFT \n"
        "-------------------- ---------- ---------- ------ \n"
        "root                                            1 \n"
        " root                      root                36 \n"
        " a                                             18 \n"
        "  a                       alice        low     31 \n"
        "  a                       alice       high     33 \n"
        "  a                         bob         p1     27 \n"
        "  a                         bob                29 \n"
        "  a                        carl         p2     23 \n"
        "  a                        carl         p1     25 \n"
        "  a                        dana         p2     19 \n"
        "  a                        dana         p1     21 \n"
        " d                                              2 \n"
        "  b                                             3 \n"
        "   b                       carl         p2     12 \n"
        "   b                       carl         p1     14 \n"
        "   b                       dana         p2      8 \n"
        "   b                       dana         p1     10 \n"
        "   c                                            4 \n"
        "    e                                           5 \n"
    )
    assert out(live, "-i modify user carl,alice,bob set maxjobs=3") == (
        " Modified user associations...\n"
        "  C = live       A = b                    U = carl      P = p2\n"
        "  C = live       A = b                    U = carl      P = p1\n"
        "  C = live       A = a                    U = carl      P = p2\n"
        "  C = live       A = a                    U = carl      P = p1\n"
        "  C = live       A = a                    U = bob       P = p1\n"
        "  C = live       A = a                    U = bob      \n"
        "  C = live       A = a                    U = alice     P = low\n"
        "  C = live       A = a                    U = alice     P = high\n"
    )
    assert out(live, "-i delete user dana account=b") == (
        " Deleting user associations...\n"
        "  C = live       A = b          U = dana      P = p2\n"
        "  C = live       A = b          U = dana      P = p1\n"
    )


def test_a_filtered_listing_sorts_what_it_lists(live):
    """Associations whose parent is not listed stand at the top, users by name (each
    user's in nested-set order, across accounts); the tree indents only under an account
    listed before."""
    calls(
        live,
        "-i add account a,b",
        "-i add user alice account=a partition=low,high",
        "-i add user alice account=b",
        "-i add user bob account=b,a",
        "-i add user carl,alice account=b partition=x",
    )
    assert out(live, "show assoc user=alice,bob format=account,user,partition,lft") == (
        "   Account       User  Partition    LFT \n"
        "---------- ---------- ---------- ------ \n"
        "         a      alice        low      5 \n"
        "         a      alice       high      7 \n"
        "         b      alice          x     11 \n"
        "         b      alice                17 \n"
        "         a        bob                 3 \n"
        "         b        bob                15 \n"
    )
    assert out(live, "show assoc tree user=alice,bob format=account,user,partition,lft") == (
        "Account                    User  Partition    LFT \n"
        "-------------------- ---------- ---------- ------ \n"
        "a                         alice        low      5 \n"
        "a                         alice       high      7 \n"
        "b                         alice          x     11 \n"
        "b                         alice                17 \n"
        "a                           bob                 3 \n"
        "b                           bob                15 \n"
    )
    assert out(live, "show assoc tree account=a format=account,user,partition,lft") == (
        "Account                    User  Partition    LFT \n"
        "-------------------- ---------- ---------- ------ \n"
        "a                                               2 \n"
        " a                        alice        low      5 \n"
        " a                        alice       high      7 \n"
        " a                          bob                 3 \n"
    )


def test_a_move_goes_first_under_the_parent_or_is_passed_over(live):
    """A move to the parent an account already has still puts it first; one already
    first is passed over, other values too (`` Nothing modified``), as is a move under
    itself; several accounts move in nested-set order, each going first."""
    calls(
        live,
        "-i add account a,b,c",
        "-i add account d parent=c",
        "-i add user alice account=a,b",
    )
    assert out(live, "-i modify account where name=c set parent=root") == (
        " Modified account associations...\n  C = live       A = c of root\n"
    )
    assert out(live, "-i modify account where name=a set parent=root") == (
        " Modified account associations...\n  C = live       A = a of root\n"
    )
    for line in ("name=a set parent=root maxjobs=4", "name=c set parent=c"):
        result = run(live, f"-i modify account where {line}")
        assert (result.exit_code, result.stdout, result.stderr) == (1, " Nothing modified\n", "")
    result = run(live, "-i modify account where name=c set parent=nosuch")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        " Parent Account nosuch doesn't exist.\n",
    )
    assert out(live, "show assoc format=account,user,lft,rgt,maxjobs") == (
        "   Account       User    LFT    RGT MaxJobs \n"
        "---------- ---------- ------ ------ ------- \n"
        "      root                 1     16         \n"
        "      root       root     14     15         \n"
        "         a                 2      5         \n"
        "         a      alice      3      4         \n"
        "         b                10     13         \n"
        "         b      alice     11     12         \n"
        "         c                 6      9         \n"
        "         d                 7      8         \n"
    )
    assert out(live, "-i modify account where name=a,b set parent=d") == (
        " Modified account associations...\n"
        "  C = live       A = a of root\n"
        "  C = live       A = b of root\n"
    )
    assert out(live, "show assoc format=account,user,lft,rgt") == (
        "   Account       User    LFT    RGT \n"
        "---------- ---------- ------ ------ \n"
        "      root                 1     16 \n"
        "      root       root     14     15 \n"
        "         c                 2     13 \n"
        "         d                 3     12 \n"
        "         a                 8     11 \n"
        "         a      alice      9     10 \n"
        "         b                 4      7 \n"
        "         b      alice      5      6 \n"
    )


LOADED = """\
Cluster - 'live':Fairshare=1:QOS='normal'
Parent - 'root'
User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1
Account - 'a':Description='a':Organization='a':Fairshare=1
Account - 'm':Description='m':Organization='m':Fairshare=1
Account - 'zz':Description='zz':Organization='zz':Fairshare=1
Parent - 'a'
User - 'bob':DefaultAccount='a':Fairshare=1
Account - 'b':Description='b':Organization='a':Fairshare=1
Account - 'c':Description='c':Organization='a':Fairshare=1
Parent - 'b'
User - 'alice':DefaultAccount='b':Fairshare=1
User - 'carl':DefaultAccount='b':Fairshare=1
Parent - 'm'
User - 'bob':DefaultAccount='a':Fairshare=1
"""


def test_load_adds_the_accounts_then_the_users_in_the_file_order(live, tmp_path):
    """One add call for the file's accounts, one for its users: under each parent the
    users come first (added last), each parent's children in the file's order."""
    path = tmp_path / "live.cfg"
    path.write_text(LOADED)
    calls(live, f"-i load file={path}")
    assert out(live, "show assoc format=account,user,lft,rgt") == (
        "   Account       User    LFT    RGT \n"
        "---------- ---------- ------ ------ \n"
        "      root                 1     22 \n"
        "      root       root     20     21 \n"
        "         a                 2     13 \n"
        "         a        bob      3      4 \n"
        "         b                 5     10 \n"
        "         b      alice      6      7 \n"
        "         b       carl      8      9 \n"
        "         c                11     12 \n"
        "         m                14     17 \n"
        "         m        bob     15     16 \n"
        "        zz                18     19 \n"
    )


def test_an_add_on_two_clusters_numbers_each_cluster_in_the_order_given(live):
    calls(
        live,
        "-i add cluster c2",
        "-i add account bio",
        "-i add user name=frank,alice account=bio",
        "-i add user name=erin,bob account=bio cluster=live",
        "-i add account x2,x1 parent=bio",
    )
    assert out(live, "-nP show assoc format=cluster,account,user,lft") == (
        "c2|root||1\nc2|root|root|12\nc2|bio||2\nc2|bio|alice|9\nc2|bio|frank|7\nc2|x1||5\n"
        "c2|x2||3\nlive|root||1\nlive|root|root|16\nlive|bio||2\nlive|bio|alice|13\n"
        "live|bio|bob|9\nlive|bio|erin|7\nlive|bio|frank|11\nlive|x1||5\nlive|x2||3\n"
    )
