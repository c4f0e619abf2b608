"""``job import`` takes a job's memory from its TRES: squeue's MinMemory is per node for a
``--mem`` job and per CPU for a ``--mem-per-cpu`` one, printed alike (issue 31, item 4).

The input is what a real Slurm 22.05.8 printed (tests/data/squeue-22.05/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data" / "squeue-22.05"

# job id: (sbatch options, the TRES scontrol show job printed, its memory in MB)
JOBS = {
    1: ("-N2 -n8 --mem-per-cpu=1000", "cpu=8,mem=8000M,node=2,billing=8", 8000),
    2: ("-N1 -n8 --mem-per-cpu=1000", "cpu=8,mem=8000M,node=1,billing=8", 8000),
    3: ("-N1 -n4 --mem=4G", "cpu=4,mem=4G,node=1,billing=4", 4096),
    4: ("-N2 -n8 --mem=4G", "cpu=8,mem=8G,node=2,billing=8", 8192),
    5: ("-n2 --mem=1T", "cpu=2,mem=1T,node=1,billing=2", 1048576),
    6: ("-n2 (the node's memory)", "cpu=2,mem=62.50G,node=1,billing=2", 64000),
    7: ("-n3 --mem-per-cpu=2G", "cpu=3,mem=6G,node=1,billing=3", 6144),
}


def build_live(fscli) -> None:
    """The live test cluster's names: cluster live, account a1, user alice, batch."""
    fscli.ok("cluster", "add", "live")
    fscli.ok("account", "add", "a1")
    fscli.ok("user", "add", "alice", "account=a1")
    fscli.ok("partition", "add", "batch", "nodes=1", "cpus=64")


@pytest.fixture
def live(fscli, template):
    """The store :func:`build_live` leaves, copied from its template."""
    return template(fscli, build_live)


def _memory(fscli) -> dict[int, int | None]:
    jobs = json.loads(fscli.ok("job", "list", "--json").stdout)["jobs"]
    return {job["JobID"]: (job["TRES"] or {}).get("mem") for job in jobs}


def test_the_data_is_what_scontrol_said():
    text = (DATA / "scontrol_show_job.txt").read_text()
    for job_id, (_, tres, _) in JOBS.items():
        block = text.split(f"JobId={job_id} ")[1].split("\n\n")[0]
        assert f"   TRES={tres}\n" in block
    assert "MinMemoryCPU=1000M" in text.split("JobId=2 ")[1].split("\n\n")[0]
    assert "MinMemoryNode=4G" in text.split("JobId=4 ")[1].split("\n\n")[0]


def test_memory_is_the_job_s_tres(live):
    result = live.ok("job", "import", str(DATA / "squeue_O.txt"))
    assert result.stderr.strip() == "imported 7 jobs (4 pending, 3 running)"
    assert _memory(live) == {job_id: mem for job_id, (_, _, mem) in JOBS.items()}


def test_the_former_format_takes_min_memory_per_node(live):
    """Without the TRES nothing tells per CPU from per node: a --mem job is right."""
    live.ok("job", "import", str(DATA / "squeue_o_former.txt"))
    memory = _memory(live)
    assert (memory[3], memory[4], memory[5]) == (4096, 8192, 1048576)
