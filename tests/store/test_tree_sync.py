"""The store as a tree file: what ``export`` reads back is what the store holds."""

from __future__ import annotations


def test_export_keeps_partition_factors_of_zero(fscli, tmp_path):
    """PriorityJobFactor and PriorityTier may be 0: the export must not turn them into the
    default 1, nor may applying the export plan a change."""
    fscli.ok("cluster", "add", "c1")
    fscli.ok("partition", "add", "batch", "priorityjobfactor=0", "prioritytier=0")
    exported = fscli.ok("export").stdout
    assert exported.endswith("partitions:\n  batch:\n    priority_job_factor: 0\n"
                             "    priority_tier: 0\n"), exported
    tree = tmp_path / "c1.yaml"
    tree.write_text(exported)
    applied = fscli.ok("apply", str(tree))
    assert applied.stderr == f"no changes: cluster c1 already matches {tree}\n"
    assert fscli.ok("export").stdout == exported
