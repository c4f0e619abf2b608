"""The store as a tree file: what ``export`` reads back is what the store holds."""

from __future__ import annotations


def test_export_keeps_partition_factors_of_zero(fscli, tmp_path):
    """PriorityJobFactor and PriorityTier may be 0: the export must not turn them into the
    default 1, nor may applying the export plan a change."""
    fscli.ok("cluster", "add", "c1")
    fscli.ok("partition", "add", "batch", "priorityjobfactor=0", "prioritytier=0")
    exported = fscli.ok("export").stdout
    assert exported.endswith(
        "partitions:\n  batch:\n    priority_job_factor: 0\n    priority_tier: 0\n"
    ), exported
    tree = tmp_path / "c1.yaml"
    tree.write_text(exported)
    applied = fscli.ok("apply", str(tree))
    assert applied.stderr == f"no changes: cluster c1 already matches {tree}\n"
    assert fscli.ok("export").stdout == exported


def test_partition_names_keep_their_case_and_refuse_separators(fscli, tmp_path):
    """A '|' would break -P output, a ',' the job's partition list, and a name past the
    columns' 64 characters only a server would refuse: all refused alike, on add and apply."""
    fscli.ok("cluster", "add", "c1")
    assert fscli.ok("partition", "add", "PartA").stderr == "added partition PartA on c1\n"
    for bad in ("a|b", "a b"):
        failed = fscli.fails("partition", "add", bad, code=1)
        assert failed.stderr == (
            f"fscli: error: invalid partition name '{bad}': use letters, digits, '_', '.', '-'\n"
        )
    failed = fscli.fails("partition", "add", "p" * 65, code=1)
    assert failed.stderr == (
        "fscli: error: invalid partition name 'pppppppppppppppppppppppp...': "
        "at most 64 characters\n"
    )
    tree = tmp_path / "c1.yaml"
    tree.write_text('cluster:\n  name: c1\npartitions:\n  "x|y": {}\n')
    failed = fscli.fails("apply", str(tree), code=1)
    assert failed.stderr == (
        "fscli: error: invalid partition name 'x|y': use letters, digits, '_', '.', '-'\n"
    )
    listed = fscli.ok("partition", "list", "-P", "-n").stdout
    assert [line.split("|")[0] for line in listed.splitlines()] == ["PartA"]


def test_new_user_associations_hold_each_ones_own_settings(tmp_path):
    """The rows of a tree's new user associations, written by kinds of settings (made
    once a kind), hold each association's own values, as its full row would."""
    from sqlalchemy import select

    from fscli.api import open_store
    from fscli.io import yamltree
    from fscli.store import tables
    from fscli.store.db import open_engine
    from fscli.store.tree_sync import assoc_values

    settings = [
        "",
        "      fairshare: 3\n",
        "      fairshare: parent\n",
        "      qos: [high]\n      default_qos: high\n",
        "      qos: [high, normal]\n",
        "      qos: ['-high']\n",
        "      priority: 5\n",
        "      limits:\n        MaxJobs: 4\n",
        "      limits:\n        MaxJobs: 5\n        GrpTRES: cpu=8\n",
        "      fairshare: 3\n      priority: 5\n",
    ]
    users = "".join(
        f"  u{i}:\n    associations:\n    - account: a{i % 3}\n{settings[i % len(settings)]}"
        f"    - account: a{(i + 1) % 3}\n      partition: p\n{settings[(i * 7) % len(settings)]}"
        for i in range(40)
    )
    text = (
        "cluster:\n  name: c1\nqos:\n  normal: {}\n  high: {}\npartitions:\n  p: {}\n"
        "accounts:\n  a0: {}\n  a1: {}\n  a2: {}\nusers:\n" + users
    )
    db = str(tmp_path / "s.db")
    with open_store(db) as store:
        store.apply_tree(text, at="2026-01-01T00:00:00")
    spec = yamltree.load(text)
    a = tables.association.c
    engine = open_engine(db)
    with engine.connect() as conn:
        parents = dict(conn.execute(select(a.account, a.id).where(a.user.is_(None))).all())
        rows = {
            (row.user, row.account, row.partition): row._mapping
            for row in conn.execute(select(tables.association).where(a.user.is_not(None)))
        }
    engine.dispose()
    assert len(rows) == 80
    for user in spec.users.values():
        for assoc in user.associations:
            row = rows[user.name, assoc.account, assoc.partition]
            assert row["parent_id"] == parents[assoc.account]
            for column, value in assoc_values(assoc).items():
                assert row[column] == value, (user.name, assoc, column)


def test_a_tree_moving_an_account_away_from_its_default_qos_is_refused(fscli, tmp_path):
    """Moving an account in a tree changes the QOS list it inherits: a DefaultQOS then
    outside it is refused, by the dry run too, as setting it would be."""
    tree = tmp_path / "c1.yaml"
    text = (
        "cluster:\n  name: c1\nqos:\n  normal: {}\n  high: {}\n"
        "accounts:\n  a:\n    qos: [normal, high]\n{A}  b:\n    qos: [normal]\n{B}"
        "users:\n  u:\n    associations: [sub]\n"
    )
    sub = "    children:\n      sub:\n        default_qos: high\n"
    tree.write_text(text.replace("{A}", sub).replace("{B}", ""))
    fscli.ok("-Q", "apply", str(tree))
    before = fscli.ok("export").stdout
    tree.write_text(text.replace("{A}", "").replace("{B}", sub))
    for dry in (["--dry-run"], []):
        failed = fscli.fails("apply", *dry, str(tree), code=1)
        assert failed.stderr.endswith(
            "fscli: error: DefaultQOS 'high' of account sub on cluster c1 is not in its "
            "QOS list (normal): jobs without --qos would be refused; set qos= or "
            "defaultqos= to match\n"
        ), failed.stderr
    assert fscli.ok("export").stdout == before


def test_a_tree_keeps_the_coordinators_of_other_clusters_accounts(fscli, tmp_path):
    """Coordinator rows are global, but a tree names only its own cluster's accounts: its
    export lists those, and applying it leaves the others' alone."""
    c1 = tmp_path / "c1.yaml"
    c1.write_text(
        "cluster:\n  name: c1\naccounts:\n  science: {}\n"
        "users:\n  alice:\n    coordinator_of: [science]\n    associations: [science]\n"
    )
    fscli.ok("-Q", "apply", str(c1))
    fscli.ok("-Q", "cluster", "add", "c2")
    fscli.ok("-Q", "--cluster", "c2", "account", "add", "other")
    fscli.ok("-Q", "--cluster", "c2", "user", "add", "alice", "account=other")
    fscli.ok("-Q", "sacctmgr", "-i", "add", "coordinator", "user=alice", "account=other")
    again = fscli.ok("apply", str(c1))
    assert again.stderr == f"no changes: cluster c1 already matches {c1}\n"
    c2 = tmp_path / "c2.yaml"
    c2.write_text(fscli.ok("--cluster", "c2", "export").stdout)
    assert "coordinator_of: [other]\n" in c2.read_text()
    c1.write_text(c1.read_text().replace("    coordinator_of: [science]\n", ""))
    assert fscli.ok("apply", str(c1)).stdout == "~ user alice: coordinator_of: science -> -\n"
    c2.write_text(fscli.ok("--cluster", "c2", "export").stdout)
    assert "coordinator_of: [other]\n" in c2.read_text()
    assert "coordinator_of" not in fscli.ok("--cluster", "c1", "export").stdout


def test_the_store_read_beside_a_tree_takes_only_users_it_matches(fscli, tmp_path):
    """A user whose rows mean what the tree's user says is the tree's object (QOS listed
    in another order, a NULL FairShare: the values read are the same); one without a
    default account (UserSpec takes its first association's) or whose rows say
    something else is read from its rows, as without the tree."""
    import sqlite3

    import pytest

    from fscli.api import open_store
    from fscli.io import yamltree
    from fscli.store.db import resolve_url
    from fscli.store.tree_plan import cluster_id, read_spec

    path = resolve_url(fscli.db).file
    if path is None:
        pytest.skip("the rows are written by hand, in SQLite")
    text = (
        "cluster:\n  name: c1\nqos:\n  a: {}\n  b: {}\naccounts:\n  x: {}\n  y: {}\n"
        "users:\n"
        + "".join(
            f"  {u}:\n    associations:\n    - account: x\n      qos: [a, b]\n    - y\n"
            for u in ("same", "qos", "share", "nodefault", "other")
        )
    )
    tree = tmp_path / "c1.yaml"
    tree.write_text(text)
    fscli.ok("-Q", "apply", str(tree))
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE association SET qos = 'b,a' WHERE \"user\" = 'qos' AND qos IS NOT NULL"
        )
        conn.execute("UPDATE association SET shares_raw = NULL WHERE \"user\" = 'share'")
        conn.execute("UPDATE association SET is_default = 0 WHERE \"user\" = 'nodefault'")
        conn.execute("UPDATE association SET priority = 3 WHERE \"user\" = 'other'")
    spec = yamltree.load(text)
    with open_store(fscli.db) as store, store.reading() as conn:
        cid = cluster_id(conn, "c1")
        alone, beside = read_spec(conn, cid), read_spec(conn, cid, known=spec.users)
    assert beside == alone
    taken = [name for name, user in beside.users.items() if user is spec.users[name]]
    assert sorted(taken) == ["qos", "same", "share"]
    # none on the cluster (sacctmgr deleted its association): read as none, not equal
    assert beside.users["nodefault"].default_account == "(null)"
    assert beside.users["nodefault"] != spec.users["nodefault"]
    assert beside.users["other"] != spec.users["other"]
