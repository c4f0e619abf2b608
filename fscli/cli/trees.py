"""Trees as code: ``fscli apply``, ``fscli export``, ``fscli dump``, ``fscli load``.

``apply`` and ``load`` read a file into a TreeSpec (:mod:`fscli.io.yamltree`,
:mod:`fscli.io.flatfile`), plan it against the store (:mod:`fscli.store.tree_plan`),
print the plan on stdout (``+`` add, ``~`` change old -> new, ``-`` remove) as plain
lines, or as a rich tree on a terminal, then apply it in one transaction. ``export``
and ``dump`` write the store back in either format.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from fscli.cli.output import dry_run_option
from fscli.cli.words import key_table, parse_words, reject_unused

SETTINGS: dict[str, Any] = {"context_settings": {"ignore_unknown_options": True}}
KIND_TITLES = {
    "qos": "QOS",
    "partition": "partitions",
    "priority": "priority settings",
    "cluster": "cluster",
    "account": "accounts",
    "user": "users",
    "assoc": "user associations",
}


def _write(path: str | None, text: str) -> None:
    """``text`` to stdout (no path or ``-``) or to ``path``, all or nothing: a regular file is
    written next to it under a temporary name and renamed over it only once complete."""
    import os
    import stat
    import tempfile

    from fscli.errors import InvalidValue

    if path in (None, "-"):
        click.echo(text, nl=False)
        return
    try:
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):  # /dev/stdout, a pipe: no rename
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            return
        real = os.path.realpath(path)
        fd, temp = tempfile.mkstemp(dir=os.path.dirname(real), prefix=".fscli-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            if mode is None:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(temp, 0o666 & ~umask)
            else:
                os.chmod(temp, stat.S_IMODE(mode))
            os.replace(temp, real)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError as exc:
        raise InvalidValue(f"cannot write {path}: {exc.strerror or exc}") from None


PLAN_LINES = 50
"""A longer plan is summed up unless --full-plan asks for every line."""
PLAN_HEAD = 20


def _summary(plan) -> str:
    """Counts of the changes by kind, then the first :data:`PLAN_HEAD` lines."""
    counts: dict[tuple[str, str], int] = {}
    for change in plan.changes:
        counts[change.op, change.kind] = counts.get((change.op, change.kind), 0) + 1
    names = {"+": "to add", "~": "to change", "-": "to remove"}
    lines = [f"plan for cluster {plan.spec.cluster.name}: {len(plan.changes)} change(s)"]
    lines += [
        f"  {op} {count} {KIND_TITLES[kind]} {names[op]}"
        for (op, kind), count in sorted(counts.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]
    lines += [f"  = {len(plan.kept)} kept"] if plan.kept else []
    shown = [change.text() for change in plan.changes[:PLAN_HEAD]]
    rest = len(plan.changes) + len(plan.kept) - len(shown)
    lines += [
        "first changes:",
        *shown,
        f"... and {rest} more line(s): --full-plan prints every one",
    ]
    return "\n".join(lines) + "\n"


def _print_plan(plan, full: bool = False, quiet: bool = False) -> None:
    """The plan on stdout: a rich tree grouped by kind on a terminal, else plain lines; a
    plan of more than :data:`PLAN_LINES` lines as a summary unless ``full``; nothing with
    ``quiet`` (-Q)."""
    from fscli.render import tables

    if quiet:
        return
    if not full and len(plan.changes) + len(plan.kept) > PLAN_LINES:
        click.echo(_summary(plan), nl=False)
        return
    if not tables.is_terminal(sys.stdout):
        click.echo(
            "".join(change.text() + "\n" for change in plan.changes)
            + "".join(f"= {line}\n" for line in plan.kept),
            nl=False,
        )
        return
    from rich.markup import escape
    from rich.tree import Tree

    from fscli.render.tables import console

    colours = {"+": "green", "~": "yellow", "-": "red"}
    tree = Tree(f"plan for cluster {plan.spec.cluster.name}")
    branches: dict[str, Tree] = {}
    for change in plan.changes:
        branch = branches.get(change.kind)
        if branch is None:
            branch = branches[change.kind] = tree.add(KIND_TITLES[change.kind])
        detail = change.detail()
        branch.add(
            f"[{colours[change.op]}]{change.op} {escape(change.name)}[/]"
            + (f" {escape(detail)}" if detail else "")
        )
    if plan.kept:
        kept = tree.add("kept")
        for line in plan.kept:
            kept.add(f"= {escape(line)}")
    console().print(tree)


def emit_option(func):
    """``--emit sacctmgr|json``: the plan as a sacctmgr script, or its operations with
    their commands as JSON, written nowhere."""
    return click.option(
        "--emit",
        type=click.Choice(["sacctmgr", "json"]),
        help="Print the sacctmgr commands that make a live cluster as fscli holds it "
        "match the file, in an order real sacctmgr accepts (json: the plan's operations, "
        "each with its commands); change nothing.",
    )(func)


def _emit(app, emit: str | None, spec, source: str, **options) -> bool:
    """With ``--emit``: print the script of the plan ``apply``/``load`` would commit, as
    a dry run checks it (every check of the real run, then rolled back), and return True;
    else False."""
    if emit is None:
        return False
    import json

    from fscli.render.sacctmgr_script import script

    plan = app.store.apply_tree(
        spec, dry_run=True, at=app.now, records=True, source=source, **options
    )
    rendered = script(plan)
    if emit == "json":
        click.echo(json.dumps(rendered.as_json(), indent=2))
    else:
        click.echo(rendered.text(), nl=False)
    return True


def full_plan_option(func):
    return click.option(
        "--full-plan",
        is_flag=True,
        help=f"Print every line of a plan longer than {PLAN_LINES} lines (else a summary).",
    )(func)


def _run_plan(
    app,
    spec,
    source: str,
    dry_run: bool,
    prune: bool = False,
    loading: bool = False,
    clean: bool = False,
    full_plan: bool = False,
    **options,
) -> None:
    """Apply ``spec`` (a TreeSpec, or YAML text with ``options`` for the API's
    ``apply_tree``) with the plan shown, then say what changed."""

    def show(plan) -> None:
        _print_plan(plan, full_plan, app.quiet)

    from fscli.cli.progress import progress
    from fscli.heap import keep_until_exit

    with progress(app, f"{'checking' if dry_run else 'applying'} {source}") as step:
        plan = app.store.apply_tree(
            spec,
            prune=prune,
            dry_run=dry_run,
            at=app.now,
            loading=loading,
            clean=clean,
            on_plan=show,
            progress=step,
            source=source,
            **options,
        )
    keep_until_exit(plan)  # a tree of 100,000 associations: 0.07 s to free
    counts = plan.counts()
    name = plan.spec.cluster.name
    if not plan.changes:
        app.say(f"no changes: cluster {name} already matches {source}")
        return
    verb = "would apply" if dry_run else "applied"
    app.say(
        f"{verb} {len(plan.changes)} change(s) to cluster {name}: "
        f"{counts['+']} to add, {counts['~']} to change, {counts['-']} to remove"
    )


@click.command()
@click.argument("file", metavar="FILE.yaml")
@dry_run_option
@click.option(
    "--prune",
    is_flag=True,
    help="Also remove what the file does not name (accounts, users, QOS, ...).",
)
@full_plan_option
@emit_option
@click.pass_obj
def apply(app, file, dry_run, prune, full_plan, emit) -> None:
    """Make the store match a YAML tree: print the plan (+ add, ~ change, - remove), apply it.

    Without --prune, what the file leaves out is kept. One transaction: on any error
    nothing is applied. A file applied, or found to change nothing, is noted in
    ~/.cache/fscli: while it and the store stay the same, applying it again does not read it.
    --emit sacctmgr prints the plan as `sacctmgr -i` lines for the live cluster instead
    (docs/yaml-tree.md), --emit json its operations with their commands; nothing is applied.

    \b
    Example:
      fscli apply examples/tree.yaml --dry-run
      fscli apply tree.yaml --prune
      fscli apply tree.yaml --prune --emit sacctmgr > to-tree.sh
    """
    from fscli.cli.usage import read_text
    from fscli.heap import bulk

    text = read_text(file)
    if _emit(app, emit, text, file, prune=prune, cluster=app.cluster_name):
        return
    with bulk():
        _run_plan(
            app,
            text,
            file,
            dry_run,
            prune=prune,
            full_plan=full_plan,
            cluster=app.cluster_name,
            quick=True,
        )


@click.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["yaml", "dump"]),
    default="yaml",
    show_default=True,
    help="YAML tree or sacctmgr flat file.",
)
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of stdout.")
@click.pass_obj
def export(app, fmt, output) -> None:
    """Export the whole cluster (QOS, partitions, priority settings, accounts, users).

    `fscli apply --prune` of the YAML export on an empty store rebuilds the same store.

    \b
    Example:
      fscli export -o tree.yaml
      fscli export --format dump
    """
    from fscli.cli.progress import progress
    from fscli.io import flatfile, yamltree

    with progress(app, "exporting"):
        spec = app.store.tree_spec(app.cluster_name)
        text = yamltree.dump(spec) if fmt == "yaml" else flatfile.write(spec)
    _write(output, text)


DUMP_KEYS = key_table({"name": ("cluster", "clusters", "names"), "file": ()}, None)


@click.command(**SETTINGS)
@click.argument("words", nargs=-1)
@click.pass_obj
def dump(app, words) -> None:
    """Write a sacctmgr dump flat file (default ./CLUSTER.cfg; file=- for stdout).

    \b
    Example:
      fscli dump c1 file=c1.cfg
    """
    from fscli.cli.progress import progress
    from fscli.errors import UsageProblem
    from fscli.io import flatfile

    parsed = parse_words(words, DUMP_KEYS, "dump")
    reject_unused(parsed, ("name",), "dump")
    names = parsed.all_names()
    if len(names) > 1:
        raise UsageProblem("dump takes one cluster name")
    with progress(app, "dumping"):
        spec = app.store.tree_spec(names[0] if names else app.cluster_name)
        text = flatfile.write(spec)
    path = parsed.get("file")
    if path is None:
        path = f"./{spec.cluster.name}.cfg"
        app.say(f"No filename given, using {path}.")
    _write(path, text)
    if path != "-":  # issue 35: a dump that succeeded said nothing
        app.say(f"dumped cluster {spec.cluster.name} to {path}")


LOAD_KEYS = key_table({"file": ("name",), "cluster": ()}, None)


def _load_target(app, wanted: str | None, dry_run: bool) -> str | None:
    """The cluster a flat file must be for: --cluster, else the store's only cluster."""
    if wanted:
        return wanted.lower()
    names = app.store.clusters(create=True, dry_run=dry_run)  # load writes: a new store is fine
    return names[0] if len(names) == 1 else None


@click.command(**SETTINGS)
@click.argument("words", nargs=-1)
@dry_run_option
@full_plan_option
@emit_option
@click.pass_obj
def load(app, words, dry_run, full_plan, emit) -> None:
    """Read a sacctmgr dump flat file into the store (existing objects are modified).

    The file's cluster must be the store's cluster (or --cluster); cluster=NAME loads
    it into NAME instead. QOS and partitions it names but the store lacks are added.
    With the word clean, the cluster's accounts, users and associations are removed
    first (with their usage), as sacctmgr's load clean does; one transaction.

    \b
    Example:
      fscli load c1.cfg --dry-run
      fscli load file=old.cfg cluster=c2
      fscli load c1.cfg clean
      fscli load c1.cfg --emit sacctmgr
    """
    from fscli.cli.usage import read_text
    from fscli.errors import UsageProblem
    from fscli.heap import bulk
    from fscli.io import flatfile

    parsed = parse_words(words, LOAD_KEYS, "load")
    reject_unused(parsed, ("cluster",), "load")
    clean = any(name.lower() == "clean" for name in parsed.names)
    paths = [
        *[n for n in parsed.names if n.lower() != "clean"],
        *([file] if (file := parsed.get("file")) else []),
    ]
    if len(paths) != 1:
        raise UsageProblem("load needs one file: fscli load FILE [cluster=NAME] [clean]")
    override = parsed.get("cluster")
    wanted = None if override else _load_target(app, app.cluster_name, dry_run)
    with bulk():
        spec = flatfile.parse(read_text(paths[0]), cluster=wanted, source=paths[0])
        if override:
            spec.cluster.name = override.lower()
        if _emit(app, emit, spec, paths[0], loading=True, clean=clean):
            return
        _run_plan(app, spec, paths[0], dry_run, loading=True, clean=clean, full_plan=full_plan)
