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
