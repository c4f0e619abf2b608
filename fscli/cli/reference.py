"""``docs/cli.md``: the command reference, generated from every command's ``--help``.

A test regenerates it and fails when the committed file differs, so the reference
cannot drift from the code. Regenerate with ``python -m fscli.cli.reference > docs/cli.md``.
``docs/json.md`` (the ``--json`` shapes, from real runs on the demo store) comes from
``python -m fscli.cli.reference json > docs/json.md``; a test checks its keys.
"""

from __future__ import annotations

import click

from fscli.cli.main import cli


def _walk(command: click.Command, path: list[str], ctx: click.Context):
    yield path, command, ctx
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            sub_ctx = click.Context(sub, info_name=name, parent=ctx)
            yield from _walk(sub, [*path, name], sub_ctx)


def commands() -> list[tuple[list[str], click.Command, click.Context]]:
    root = click.Context(cli, info_name="fscli", terminal_width=100, max_content_width=100)
    return list(_walk(cli, ["fscli"], root))


def cli_reference() -> str:
    out = [
        "# fscli command reference",
        "",
        "Generated from `--help` by `python -m fscli.cli.reference`; do not edit by hand.",
        "",
    ]
    for path, command, ctx in commands():
        out += [f"## {' '.join(path)}", "", "```", command.get_help(ctx).rstrip(), "```", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------- docs/json.md

JSON_AT = "2026-05-01T00:00:00"
# the store the examples run on: the demo cluster plus a limit and an LSF setup
JSON_STORE = [
    ["demo"],
    ["limits", "set", "account=accounta", "GrpTRES=cpu=256", "MaxJobs=20"],
    ["lsf", "params", "set", "HIST_HOURS=5"],
    [
        "lsf",
        "queue",
        "add",
        "normal",
        "priority=30",
        "fairshare=USER_SHARES[[user1, 2000] [default, 1000]]",
    ],
    ["lsf", "group", "add", "labs", "members=ana,ben", "shares=[ana, 3] [ben, 1]"],
    [
        "job",
        "submit",
        "user=user1",
        "account=accountb",
        "cpus=8",
        "state=completed",
        "submit=2026-04-30T13:00",
        "end=2026-04-30T15:00",
    ],
]
# every command with --json, as run for its example (--json is added)
JSON_EXAMPLES = [
    ["account", "list"],
    ["assoc", "list"],
    ["bqueues"],
    ["bqueues", "-l"],
    ["cluster", "list"],
    ["compare", "--queue", "normal"],
    ["config", "show"],
    ["history"],
    ["job", "list"],
    ["job", "why", "3"],
    ["limits", "check", "user=user1", "cpus=512"],
    ["limits", "check", "job=3"],
    ["limits", "show", "account=accounta"],
    ["lsf", "dispatch", "normal", "slots=4"],
    ["lsf", "group", "list"],
    ["lsf", "params", "show"],
    ["lsf", "queue", "list"],
    ["partition", "list"],
    ["qos", "list"],
    ["report", "cluster", "AccountUtilizationByUser", "start=2026-04-30T12:00", "end=now"],
    ["report", "user", "TopUsage", "start=2026-04-30T12:00", "end=now"],
    ["sprio"],
    ["sprio", "--explain", "3"],
    ["sshare", "-a"],
    ["sshare", "--explain", "user1/accountb"],
    ["tree", "accountb"],
    ["user", "list"],
    ["whatif", "decay", "accounta", "--target", "RawUsage=1000"],
    ["whatif", "shares", "accounta", "--target", "LevelFS=1"],
]
JSON_TYPES = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
    list: "array",
    dict: "object",
}


def json_store(db: str):
    """Build the examples' store in ``db``; returns ``run(words) -> stdout``."""
    from click.testing import CliRunner

    runner = CliRunner()

    def run(words: list[str]) -> str:
        result = runner.invoke(
            cli,
            ["--db", db, "--at", JSON_AT, "--cluster", "demo", "-Q", *words],
            env={"USER": "admin", "SUDO_USER": None},
        )
        if result.exit_code != 0:
            raise RuntimeError(f"fscli {' '.join(words)}: {result.output}")
        return result.stdout

    for words in JSON_STORE:
        run(words)
    return run


def json_keys(value, path: str = "", out: dict[str, set[str]] | None = None) -> dict:
    """Every key path of a JSON document (``shares[].Account``) with the types seen there."""
    out = {} if out is None else out
    if path:
        out.setdefault(path, set()).add(JSON_TYPES[type(value)])
    if isinstance(value, dict):
        for key, item in value.items():
            json_keys(item, f"{path}.{key}" if path else key, out)
    elif isinstance(value, list):
        for item in value:
            json_keys(item, f"{path}[]", out)
    return out


def _first_items(value):
    """The document with every array cut to its first element."""
    if isinstance(value, dict):
        return {key: _first_items(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_first_items(item) for item in value[:1]]
    return value


def _json_section(words: list[str], text: str) -> list[str]:
    import json

    doc = json.loads(text)
    keys = json_keys(doc)

    def kind(path: str) -> str:
        inner = keys.get(f"{path}[]")
        items = " or ".join(f"{t}s" for t in sorted(inner or ()))
        return " or ".join(sorted(keys[path])) + (f" of {items}" if items else "")

    top = ", ".join(f"`{key}` ({kind(key)})" for key in doc)
    command = f"fscli {' '.join(words)}"
    lines = [
        f"## {command}",
        "",
        f"`{command} --json`: an object: {top}.",
        "",
        "| key | type |",
        "| --- | --- |",
    ]
    lines += [f"| `{path}` | {kind(path)} |" for path in keys]
    example = json.dumps(_first_items(doc), indent=2)
    return lines + ["", "```json", example, "```", ""]


def json_reference() -> str:
    import os
    import tempfile

    out = [
        "# fscli --json output",
        "",
        "Generated by `python -m fscli.cli.reference json` from real runs on the demo store",
        f"(`fscli demo` at {JSON_AT}, plus a limit and an LSF queue); do not edit by hand.",
        "",
        "Conventions: list and view commands print one object whose array holds one object",
        "per row, keyed by the column names of `-P` (Slurm's names, kept so that scripts",
        "keep working); numbers are numbers, never strings; an unset or unlimited value is",
        '`null` (a text cell with nothing in it `""`); an infinite value is the string `"inf"`.',
        "Times are ISO 8601: UTC with `Z` in `meta` and the LSF views, local time as Slurm",
        "prints it in `job list` and `history`.",
        "",
        "Units (the unit Slurm stores, the same in every command):",
        "",
        "| what | unit | where |",
        "| --- | --- | --- |",
        "| durations | minutes | `MaxWall`/`MaxWallDurationPerJob`, `GrpWall`, `MaxTime`, "
        "`TimeLimit`; `limits show`/`check`'s `value` of a time limit and `time_limit`; "
        "`config show`'s PriorityDecayHalfLife, PriorityMaxAge, PriorityCalcPeriod |",
        "| QOS GraceTime | seconds | `qos list` |",
        "| TRES | object `{tres: count}`, memory in MB | limits in `assoc list` and `qos list`, "
        "`TRES` of `partition list` and `job list`; `limits show`/`check`'s `value`, "
        "`current`, `request` of a TRES limit (one TRES a row) |",
        "| TRES-minutes | object `{tres: minutes}` | `GrpTRESMins`, `MaxTRESMins...`, "
        "`GrpTRESRunMins`, sshare's `GrpTRESMins`, `GrpTRESRaw`, `TRESRunMins` |",
        "| memory settings | MB | `DefMemPerCPU`, `DefMemPerNode`, `MaxMemPerCPU` |",
        "| usage | TRES-seconds (billing), decayed | sshare's `RawUsage` |",
        "| usage over a period | TRES-seconds, not decayed; `Percent`: % of the cluster's TRES x seconds | `report`'s `Used` |",
        "| settings | a number when the value is one, else its text | `config show`, "
        "`lsf params show` |",
        "",
        "Commands that compute as of a moment add a `meta` object. The types are those seen",
        "in the example: a key that is `null` there holds a value when one is set.",
        "Examples show each array's first element only.",
        "",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        run = json_store(os.path.join(tmp, "json.db"))
        for words in JSON_EXAMPLES:
            out += _json_section(words, run([*words, "--json"]))
    return "\n".join(out)


if __name__ == "__main__":
    import sys

    click.echo(json_reference() if sys.argv[1:] == ["json"] else cli_reference(), nl=False)
