"""``fscli partition add|modify|delete|list``."""

from __future__ import annotations

import click

from fscli.cli.complete import words_completer
from fscli.cli.output import (
    NOTHING_DELETED,
    NOTHING_MODIFIED,
    dry_run_option,
    output_options,
    report,
)
from fscli.cli.words import (
    COUNT_MAX,
    count_value,
    delete_words,
    key_table,
    parse_words,
    reject_unused,
)

BASE_KEYS = {
    "name": ("names", "partition", "partitionname"),
    "cluster": ("clusters",),
    "nodes": ("totalnodes",),
    "cpus": ("totalcpus",),
    "tres": (),
    "priorityjobfactor": (),
    "prioritytier": (),
    "qos": (),
    "maxtime": (),
    "maxnodes": (),
    "minnodes": (),
    "tresbillingweights": (),
    "defmempercpu": (),
    "defmempernode": (),
    "maxmempercpu": (),
}
KEYS = key_table(BASE_KEYS, None)
SETTINGS = {"context_settings": {"ignore_unknown_options": True}}
INT_KEYS = {
    "nodes": "nodes",
    "cpus": "cpus",
    "priorityjobfactor": "priority_job_factor",
    "prioritytier": "priority_tier",
    "maxnodes": "max_nodes",
    "minnodes": "min_nodes",
}
MEMORY_KEYS = {
    "defmempercpu": ("def_mem_per_cpu", "DefMemPerCPU"),
    "defmempernode": ("def_mem_per_node", "DefMemPerNode"),
    "maxmempercpu": ("max_mem_per_cpu", "MaxMemPerCPU"),
}
"""Memory defaults in MB, as slurm.conf's PartitionName lines give them; -1 clears (the
cluster's values apply again)."""


def partition_values(parsed) -> dict:
    from fscli.engine.config import megabytes, parse_tres_weights
    from fscli.engine.timestr import parse_duration_mins
    from fscli.engine.tres import format_tres, parse_tres

    values: dict[str, int | str | None] = {}
    for key, word in parsed.values.items():
        text = word.value.strip()
        if key in INT_KEYS:
            if text.lower() in ("-1", "unlimited", "infinite") and key in ("maxnodes", "minnodes"):
                values[INT_KEYS[key]] = None
                continue
            values[INT_KEYS[key]] = count_value(
                key, text, 65533 if key.startswith("priority") else COUNT_MAX
            )
        elif key == "tres":
            values["tres"] = format_tres(parse_tres(text, allow_clear=False), units=False)
        elif key == "maxtime":
            values["max_time"] = parse_duration_mins(text, "MaxTime")
        elif key == "qos":
            values["qos"] = None if text in ("", "-1") else text.lower()
        elif key == "tresbillingweights":
            parse_tres_weights(text)
            values["billing_weights"] = text or None
        elif key in MEMORY_KEYS:
            column, name = MEMORY_KEYS[key]
            values[column] = None if text == "-1" else int(megabytes(name, text))
    return values


@click.group()
def partition() -> None:
    """Partitions: sizes for the TRES factor, PriorityJobFactor, partition QOS and limits.

    \b
    Example:
      fscli partition add batch nodes=100 cpus=6400
    """


def _one_name(parsed, command: str) -> str:
    from fscli.errors import UsageProblem

    names = parsed.all_names()
    if len(names) != 1:
        raise UsageProblem(f"name exactly one partition in {command}")
    return names[0]


def _write(app, words, dry_run: bool, verb: str) -> None:
    """``partition add|modify``: the same words and values; an add may create the default
    cluster (as ``account add`` does), a modify needs the cluster to exist."""
    command = f"partition {verb}"
    parsed = parse_words(words, KEYS, command, modify=verb == "modify")
    reject_unused(parsed, ("name", "cluster"), command)
    values = partition_values(parsed)
    with app.changes(dry_run) as tx:
        write = tx.add_partition if verb == "add" else tx.modify_partition
        lines = write(
            _one_name(parsed, command), parsed.get("cluster") or app.cluster_name, **values
        )
    report(app, lines, dry_run, NOTHING_MODIFIED if verb == "modify" else "")


@partition.command("add", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("partition", KEYS))
@dry_run_option
@click.pass_obj
def add(app, words, dry_run) -> None:
    """Add a partition.

    \b
    Example:
      fscli partition add gpu nodes=10 cpus=640 tres=mem=5T,gres/gpu=40 priorityjobfactor=10
    """
    _write(app, words, dry_run, "add")


@partition.command("modify", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("partition", KEYS))
@dry_run_option
@click.pass_obj
def modify(app, words, dry_run) -> None:
    """Change a partition.

    \b
    Example:
      fscli partition modify gpu set maxtime=2-00:00:00 qos=gpuqos
    """
    _write(app, words, dry_run, "modify")


@partition.command("delete", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("partition", KEYS))
@dry_run_option
@click.pass_obj
def delete(app, words, dry_run) -> None:
    """Delete a partition (refused while user associations name it).

    \b
    Example:
      fscli partition delete gpu
    """
    parsed = delete_words(words, KEYS, "partition delete", ("name", "cluster"))
    with app.changes(dry_run) as tx:
        lines = tx.delete_partition(
            _one_name(parsed, "partition delete"), parsed.get("cluster") or app.cluster_name
        )
    report(app, lines, dry_run, NOTHING_DELETED)


@partition.command("list")
@output_options
@click.pass_obj
def list_(app, out) -> None:
    """List partitions.

    \b
    Example:
      fscli partition list -P
    """

    parts = app.store.partitions(app.cluster_name)
    columns = [
        "Partition",
        "Nodes",
        "CPUs",
        "TRES",
        "PriorityJobFactor",
        "PriorityTier",
        "QOS",
        "MaxTime",
        "MaxNodes",
        "MinNodes",
        "TRESBillingWeights",
        "DefMemPerCPU",
        "DefMemPerNode",
        "MaxMemPerCPU",
    ]
    rows = [
        [
            p.name,
            p.nodes,
            p.cpus,
            out.tres(p.tres),
            p.priority_job_factor,
            p.priority_tier,
            p.qos or "",
            out.minutes(p.max_time),
            p.max_nodes,
            p.min_nodes,
            p.billing_weights or "",
            p.def_mem_per_cpu,
            p.def_mem_per_node,
            p.max_mem_per_cpu,
        ]
        for p in parts
    ]
    out.emit(
        columns,
        rows,
        "partitions",
        numeric=(
            "Nodes",
            "CPUs",
            "PriorityJobFactor",
            "PriorityTier",
            "DefMemPerCPU",
            "DefMemPerNode",
            "MaxMemPerCPU",
        ),
    )
