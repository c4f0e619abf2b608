"""``fscli cluster add|modify|delete|list``."""

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
from fscli.cli.words import count_value, delete_words, key_table, parse_words

KEYS = key_table(
    {"name": ("names", "cluster", "clusters"), "nodes": (), "cpus": (), "tres": ()}, None
)
WORDS = click.argument("words", nargs=-1, shell_complete=words_completer("cluster", KEYS))
SETTINGS = {"context_settings": {"ignore_unknown_options": True}}


def cluster_values(words) -> dict:
    from fscli.engine.tres import format_tres, parse_tres

    values: dict[str, int | str] = {}
    for key, word in words.values.items():
        if key in ("nodes", "cpus"):
            values[key] = count_value(key, word.value)
        elif key == "tres":
            values["tres"] = format_tres(parse_tres(word.value, allow_clear=False), units=False)
    return values


@click.group()
def cluster() -> None:
    """Clusters: each has its own association tree rooted at account 'root'.

    \b
    Example:
      fscli cluster add c1 nodes=100 cpus=6400
    """


@cluster.command("add", **SETTINGS)
@WORDS
@dry_run_option
@click.pass_obj
def add(app, words, dry_run) -> None:
    """Add a cluster (and its root association).

    \b
    Example:
      fscli cluster add c1 nodes=100 cpus=6400
    """
    from fscli.errors import UsageProblem

    parsed = parse_words(words, KEYS, "cluster add")
    names = parsed.all_names()
    if len(names) != 1:
        raise UsageProblem("give exactly one cluster name to add")
    values = cluster_values(parsed)
    with app.changes(dry_run) as tx:
        lines = tx.add_cluster(names[0], **values)
    report(app, lines, dry_run)


@cluster.command("modify", **SETTINGS)
@WORDS
@dry_run_option
@click.pass_obj
def modify(app, words, dry_run) -> None:
    """Change a cluster's node/CPU counts or TRES totals.

    \b
    Example:
      fscli cluster modify c1 set nodes=120 cpus=7680
    """
    from fscli.errors import UsageProblem

    parsed = parse_words(words, KEYS, "cluster modify", modify=True)
    names = parsed.all_names()
    if len(names) != 1:
        raise UsageProblem("name exactly one cluster to modify")
    values = cluster_values(parsed)
    if not values:
        raise UsageProblem("nothing to set: give KEY=VALUE words (nodes=, cpus=, tres=)")
    with app.changes(dry_run) as tx:
        lines = tx.modify_cluster(names[0], **values)
    report(app, lines, dry_run, NOTHING_MODIFIED)


@cluster.command("delete", **SETTINGS)
@WORDS
@dry_run_option
@click.pass_obj
def delete(app, words, dry_run) -> None:
    """Delete a cluster with all its associations, partitions, usage and jobs.

    \b
    Example:
      fscli cluster delete c1
    """
    from fscli.errors import UsageProblem

    names = delete_words(words, KEYS, "cluster delete", ("name",), modify=False).all_names()
    if not names:
        raise UsageProblem("name the cluster to delete")
    with app.changes(dry_run) as tx:
        lines = tx.delete_cluster(names)
    report(app, lines, dry_run, NOTHING_DELETED)


@cluster.command("list")
@output_options
@click.pass_obj
def list_(app, out) -> None:
    """List clusters.

    \b
    Example:
      fscli cluster list -P
    """
    from fscli.engine.tres import format_tres

    rows = [
        [c.name, c.nodes, c.cpus, format_tres(c.tres) if c.tres else ""]
        for c in app.store.cluster_info()
    ]
    out.emit(["Cluster", "Nodes", "CPUs", "TRES"], rows, "clusters", numeric=("Nodes", "CPUs"))
