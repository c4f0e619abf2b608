"""``cluster_config_history``: the replaced values of the settings usage depends on, kept
only when usage was charged before the change (else the store keeps the fast path)."""

from __future__ import annotations

import pytest

from fscli.store.config_history import keep_replaced, usage_before
from fscli.store.db import open_engine
from fscli.store.snapshot import load_config_history

D = "2026-05-01T"
TREE = """\
cluster: {name: c, qos: [normal]}
qos: {normal: {}}
priority:
  PriorityDecayHalfLife: 1-0
accounts:
  a: {}
users:
  u1: {associations: [a]}
"""


def history(store: str) -> list[tuple[str, int, str]]:
    engine = open_engine(store)
    try:
        with engine.connect() as conn:
            # cluster c's id as the store gave it (a server's sequences run on)
            cid = conn.exec_driver_sql("SELECT id FROM cluster WHERE name = 'c'").scalar()
            return sorted(load_config_history(conn, cid))
    finally:
        engine.dispose()


def epoch(text: str) -> int:
    from fscli.engine.timestr import parse_date

    return parse_date(text, "at")


def build_one(fscli) -> None:
    fscli.ok("-Q", "cluster", "add", "c")
    fscli.ok("-Q", "account", "add", "a")
    fscli.ok("-Q", "user", "add", "u1", "account=a")


@pytest.fixture
def one(fscli, template):
    """The store :func:`build_one` leaves, copied from its template."""
    return template(fscli, build_one)


def test_changes_before_any_usage_keep_nothing(one, store):
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=1-0", at=f"{D}09:00:00")
    one.ok("-Q", "config", "set", "TRESBillingWeights=CPU=2", at=f"{D}09:30:00")
    one.ok("-Q", "usage", "add", "user=u1", "account=a", "raw=100", f"at={D}10:00:00")
    # a change at the charge's own moment re-prices nothing either
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=2-0", at=f"{D}10:00:00")
    assert history(store) == []


def test_a_change_after_usage_keeps_the_value_it_replaces(one, store):
    one.ok("-Q", "usage", "add", "user=u1", "account=a", "raw=100", f"at={D}10:00:00")
    one.ok("-Q", "config", "set", "PriorityWeightAge=100", at=f"{D}11:00:00")  # not kept
    one.ok("-Q", "config", "set", "TRESBillingWeights=CPU=2", at=f"{D}11:00:00")
    one.ok("-Q", "config", "set", "TRESBillingWeights=CPU=3", at=f"{D}11:00:00")  # same moment
    one.ok("-Q", "config", "set", "PriorityDecayHalfLife=2-0", at=f"{D}12:00:00")
    one.ok("-Q", "config", "set", "TRESBillingWeights=CPU=4", at=f"{D}12:00:00")
    assert history(store) == [
        ("PriorityDecayHalfLife", epoch(f"{D}12:00:00"), "10080"),  # the default (7-0)
        ("TRESBillingWeights", epoch(f"{D}11:00:00"), ""),
        ("TRESBillingWeights", epoch(f"{D}12:00:00"), "CPU=3"),
    ]
    refused = one.fails("config", "set", "TRESBillingWeights=CPU=5", at=f"{D}11:30:00")
    assert refused.stderr == (
        "fscli: error: TRESBillingWeights was changed at 2026-05-01T12:00:00Z, after "
        "2026-05-01T11:30:00Z: a change of a setting usage depends on cannot be placed "
        "before a later one\n"
    )


def test_a_started_job_is_usage_too(one, store):
    one.ok("-Q", "partition", "add", "p")
    one.ok("-Q", "job", "submit", "user=u1", "partition=p", "state=running", at=f"{D}10:00:00")
    one.ok("-Q", "config", "set", "TRESBillingWeights=CPU=2", at=f"{D}10:00:00")
    assert history(store) == []
    one.ok("-Q", "config", "set", "TRESBillingWeights=CPU=3", at=f"{D}10:00:01")
    assert history(store) == [("TRESBillingWeights", epoch(f"{D}10:00:01"), "CPU=2")]


def test_apply_keeps_the_replaced_value_too(one, store, tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(TREE)
    one.ok("-Q", "apply", str(path), at=f"{D}09:00:00")
    one.ok("-Q", "usage", "add", "user=u1", "account=a", "raw=100", f"at={D}10:00:00")
    path.write_text(TREE.replace("1-0", "2-0"))
    one.ok("-Q", "apply", str(path), at=f"{D}11:00:00")
    assert history(store) == [("PriorityDecayHalfLife", epoch(f"{D}11:00:00"), "1440")]


def test_apply_of_new_partition_weights_keeps_the_billing_of_past_jobs(one, store, tmp_path):
    tree = TREE + "partitions:\n  p: {billing_weights: CPU=2.0}\n"
    path = tmp_path / "t.yaml"
    path.write_text(tree)
    one.ok("-Q", "apply", str(path), at=f"{D}09:00:00")
    for cpus, start in (("4", "10:00:00"), ("3", "10:30:00")):
        submit = ("job", "submit", "user=u1", "partition=p", f"cpus={cpus}", "state=running")
        one.ok("-Q", *submit, at=f"{D}{start}")
    path.write_text(tree.replace("CPU=2.0", "CPU=5.0"))
    one.ok("-Q", "apply", str(path), at=f"{D}11:00:00")
    engine = open_engine(store)
    try:
        with engine.connect() as conn:
            billed = conn.exec_driver_sql("SELECT id, billing FROM job ORDER BY id").all()
            assert billed == [(1, 8.0), (2, 6.0)]
    finally:
        engine.dispose()


def test_usage_before_counts_charges_of_the_cluster_only(one, store):
    one.ok("-Q", "usage", "add", "user=u1", "account=a", "raw=1", f"at={D}10:00:00")
    one.ok("-Q", "cluster", "add", "other")
    engine = open_engine(store)
    try:
        with engine.begin() as conn:
            # the clusters' ids as the store gave them (a server's sequences run on)
            ids = dict(conn.exec_driver_sql("SELECT name, id FROM cluster").all())
            first, other = ids["c"], ids["other"]
            assert usage_before(conn, first, epoch(f"{D}10:00:01"))
            assert not usage_before(conn, first, epoch(f"{D}10:00:00"))
            assert not usage_before(conn, other, epoch(f"{D}12:00:00"))
            keep_replaced(conn, other, epoch(f"{D}12:00:00"), {"TRESBillingWeights": "CPU=9"})
            keep_replaced(conn, first, epoch(f"{D}12:00:00"), {"PriorityMaxAge": "1"})
    finally:
        engine.dispose()
    assert history(store) == []
