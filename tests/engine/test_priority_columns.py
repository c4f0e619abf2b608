"""The column-wise scoring of sprio's rows against the job-by-job loop it replaced
(``tests/engine/reference_priority.py``), on random queues: the same rows, warnings and
errors; and the associations as the store reads them (columns) against the same
associations as objects."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.engine import priority
from fscli.engine.config import WEIGHT_KEYS, PriorityConfig, validate
from fscli.engine.model import Assoc, AssocColumns, ClusterInfo, Job, Partition, Qos
from fscli.engine.priority import (
    PriorityColumns,
    QueueColumns,
    _effective_assoc_priority,
    listed_states,
)
from fscli.errors import InvalidValue, NotFound
from tests.engine.adapt import assoc_columns, compute_priorities
from tests.engine.reference_priority import (
    inherited_priority,
    old_assoc_factor,
    old_listed,
    old_score_columns,
)

NOW = 1_800_000_000


PARTS = {
    "a": Partition("a", nodes=10, cpus=640, tres={"gres/gpu": 16}, priority_job_factor=10),
    "b": Partition("b", nodes=4, cpus=64, priority_job_factor=100, max_time=600),
    "c": Partition("c", priority_job_factor=0),
}
QOS = {"normal": Qos("normal"), "high": Qos("high", priority=100), "low": Qos("low", priority=7)}
ASSOCS = {
    1: Assoc(1, None, "root"),
    2: Assoc(2, 1, "chem", priority=40),
    3: Assoc(3, 2, "chem", "ann"),
    4: Assoc(4, 2, "chem", "bob", priority=9),
    5: Assoc(5, 2, "chem", "bob", partition="b"),
}
FLAGS = [
    "ACCRUE_ALWAYS",
    "CALCULATE_RUNNING",
    "NO_NORMAL_ALL",
    "NO_NORMAL_TRES",
    "SMALL_RELATIVE_TO_TIME",
    "NO_FAIR_TREE",
]


def _config(rng: random.Random) -> PriorityConfig:
    big = rng.random() < 0.3  # weights whose sums pass 32 bits
    settings = {
        key: str(rng.choice([0, 1, 1000, 4_000_000_000 if big else 100_000])) for key in WEIGHT_KEYS
    }
    settings["PriorityMaxAge"] = rng.choice(["0", "1-0", "7-0"])
    settings["PriorityFavorSmall"] = rng.choice(["YES", "NO"])
    flags = [flag for flag in FLAGS if rng.random() < 0.3]
    if flags:
        settings["PriorityFlags"] = ",".join(flags)
    if rng.random() < 0.7:
        settings["PriorityWeightTRES"] = rng.choice(["CPU=500", "CPU=500,GRES/gpu=3000,Mem=0.25"])
    return PriorityConfig.from_mapping(dict(validate(k, v) for k, v in settings.items()))


def _job(rng: random.Random, job_id: int) -> Job:
    eligible = rng.choice([None, NOW - 50, NOW + 50])
    return Job(
        job_id,
        rng.choice(["ann", "bob", "cy"]),
        rng.choice(["chem", None, ""]),
        rng.choice([3, 4, 5, None, 99]),
        tuple(rng.sample(["a", "b", "c"], rng.choice([1, 1, 1, 2, 3]))),
        rng.choice(["normal", "high", "low", None, ""]),
        rng.choice(["pending", "pending", "running"]),
        NOW - rng.choice([0, 60, 86_400, 10**6]),
        eligible,
        cpus=rng.choice([1, 4, 64, 640]),
        nodes=rng.choice([1, 2, 10]),
        tres=rng.choice([{}, {"gres/gpu": 2}, {"gres/gpu": 4, "mem": 4096}]),
        time_limit=rng.choice([None, 1, 60]),
        nice=rng.choice([0, 0, 100, -500, 2147483645]),
        site_factor=rng.choice([0, 0, 25, -3000, 2147483645]),
        admin_priority=rng.choice([None] * 8 + [0, 5000]),
    )


def _both(jobs, config, fs):
    """(rows, warnings) of compute_priorities with the columns and with the old loop."""
    cluster = ClusterInfo("x", nodes=10, cpus=640)
    args = (jobs, ASSOCS, QOS, PARTS, cluster, config, fs, NOW)
    new = compute_priorities(*args)
    old_score = priority._score
    try:
        priority._score = old_score_columns
        old = compute_priorities(*args)
    finally:
        priority._score = old_score
    return (new.rows, new.warnings), (old.rows, old.warnings)


@settings(max_examples=40, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_columns_score_every_row_as_the_job_by_job_loop(rng):
    config = _config(rng)
    jobs = [_job(rng, rng.randrange(1, 10**6)) for _ in range(rng.choice([0, 1, 5, 60]))]
    fs = {3: rng.random(), 4: 0.0, 5: 1.0}
    new, old = _both(jobs, config, fs)
    assert new == old
    assert [r.job for r in new[0]] == [r.job for r in old[0]]


def _assoc_columns(assocs: dict[int, Assoc]) -> AssocColumns:
    """The associations as the store reads them for sprio: columns, no objects."""
    return AssocColumns([[getattr(a, f.name) for a in assocs.values()] for f in fields(Assoc)])


def _answer(jobs, config, fs, assocs=ASSOCS):
    """compute_priorities' rows, each row's job and the warnings, or its error."""
    cluster = ClusterInfo("x", nodes=10, cpus=640)
    try:
        result = compute_priorities(jobs, assocs, QOS, PARTS, cluster, config, fs, NOW)
    except (NotFound, InvalidValue) as error:
        return type(error), str(error)
    return result.rows, [r.job for r in result.rows], result.warnings


@pytest.mark.parametrize("seed", range(60))
def test_associations_as_columns_score_as_their_objects(seed):
    """The same rows, jobs (made back from the queue's columns), warnings and errors,
    whether the associations come as columns (the store's sprio) or as objects
    (``AssocColumns.of``: a what-if's tree), the queue in any order with jobs not listed,
    or (odd seeds) all of them listed, by id, as the store's queue comes. The columns are
    left as given (admin-set rows change their site and nice)."""
    rng = random.Random(seed)
    config = _config(rng)
    jobs = [_job(rng, rng.randrange(1, 10**6)) for _ in range(rng.choice([0, 1, 5, 60]))]
    if seed % 2:
        jobs = old_listed(jobs, config, NOW)
    if seed % 3 == 0:  # no row repeated: the rows' columns are the queue's, picked or not
        for job in jobs:
            job.partitions = job.partitions[:1]
    for job in jobs if rng.random() < 0.2 else ():  # a faulty job now and then
        job.qos = rng.choice([job.qos, job.qos, "nosuch"])
        job.partitions = rng.choice([job.partitions] * 8 + [(), ("a", "nosuch")])
    fs = {3: rng.random(), 4: 0.0, 5: 1.0}
    queue = QueueColumns.of_jobs(jobs)
    given = QueueColumns.of_jobs(jobs)
    objects = _answer(queue, config, fs, assoc_columns(list(ASSOCS.values())))
    assert queue == given
    assocs = _assoc_columns(ASSOCS)
    assert _answer(queue, config, fs, assocs) == objects
    assert assocs._objects is None  # read as columns: no object made


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("spoiler", ["held", "not eligible", "not listed", "out of order"])
def test_a_listed_queue_but_for_one_job_as_the_job_by_job_loop(seed, spoiler):
    """Every job listed, by id (the store's queue, whose listing is not looked at job by
    job) but for one: the rows as the old loop made them."""
    rng = random.Random(seed)
    config = _config(rng)
    jobs = old_listed([_job(rng, rng.randrange(1, 10**6)) for _ in range(30)], config, NOW)
    states = listed_states(config)
    job = rng.choice(jobs)
    if spoiler == "held":
        job.admin_priority = 0
    elif spoiler == "not eligible":
        job.submit = job.eligible = NOW + 1
    elif spoiler == "not listed":
        job.state = "completed" if "running" in states else "running"
    else:
        jobs.insert(0, jobs.pop())
    fs = {3: rng.random(), 4: 0.0, 5: 1.0}
    new, old = _both(QueueColumns.of_jobs(jobs), config, fs)
    assert new == old


@pytest.mark.parametrize(
    "faults",
    [
        {2: "qos"},
        {2: "partition"},
        {2: "none"},
        {2: "qos", 5: "partition"},
        {2: "partition", 5: "qos"},
        {3: "qos+partition"},
    ],
)
def test_the_first_faulty_job_names_the_error_as_before(faults):
    rng = random.Random(7)
    jobs = [_job(rng, i) for i in range(1, 9)]
    for i, fault in faults.items():
        job = jobs[i]
        job.state, job.admin_priority, job.eligible = "pending", None, None
        if "qos" in fault:
            job.qos = "nosuch"
        if "partition" in fault:
            job.partitions = ("a", "nosuch")
        if fault == "none":
            job.partitions = ()
    config = _config(random.Random(1))
    errors = []
    for score in (priority._score, old_score_columns):
        saved = priority._score
        priority._score = score
        try:
            with pytest.raises((NotFound, InvalidValue)) as caught:
                compute_priorities(jobs, ASSOCS, QOS, PARTS, ClusterInfo("x"), config, {}, NOW)
        finally:
            priority._score = saved
        errors.append((type(caught.value), str(caught.value)))
    assert errors[0] == errors[1]


def test_rows_picked_and_made_back_from_columns_are_the_same():
    rng = random.Random(3)
    jobs = [_job(rng, i) for i in range(1, 80)]
    result = compute_priorities(jobs, ASSOCS, QOS, PARTS, ClusterInfo("x"), _config(rng), {}, NOW)
    rows = result.rows
    assert rows and PriorityColumns.of_rows(rows).rows == rows
    picked = [len(rows) - 1, 0, 3, 3]
    assert result.columns.take(picked).rows == [rows[i] for i in picked]
    assert len(result.columns.take([])) == 0


@pytest.mark.parametrize("seed", range(20))
def test_association_priorities_and_factors_as_before(seed):
    """Inherited association priorities (parents unset or missing, ids in any order) and
    their factors, normalized or raw, against the association-by-association code."""
    rng = random.Random(seed)
    count = rng.choice([1, 5, 200])
    ids = rng.sample(range(1, 10 * count + 2), count)
    assocs = {ids[0]: Assoc(ids[0], None, "root", priority=rng.choice([None, 3]))}
    for k, assoc_id in enumerate(ids[1:], 1):
        parent = rng.choice([*ids[:k], 10**9])  # now and then a parent that is not there
        value = rng.choice([None, None, 0, 1, 7, 50, 2**31])
        assocs[assoc_id] = Assoc(assoc_id, parent, "a", rng.choice([None, "u"]), priority=value)
    assocs = dict(rng.sample(list(assocs.items()), len(assocs)))
    at = {a: k for k, a in enumerate(assocs)}
    found = _effective_assoc_priority(_assoc_columns(assocs), at)
    assert found == {i: inherited_priority(assocs, i) for i in assocs}
    assert _effective_assoc_priority(assoc_columns(assocs), at) == found
    for flags in ((), ("PriorityFlags", "NO_NORMAL_ASSOC")):
        settings = [("PriorityWeightAssoc", "10"), *([flags] if flags else [])]
        config = PriorityConfig.from_mapping(dict(validate(k, v) for k, v in settings))
        result = compute_priorities([], assocs, QOS, PARTS, ClusterInfo("x"), config, {}, NOW)
        context = result.columns.context
        assert context is not None
        expected = old_assoc_factor(found, bool(flags))
        assert context.assoc_factor == expected
        assert list(map(repr, context.assoc_factor.values())) == list(map(repr, expected.values()))
