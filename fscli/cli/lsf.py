"""``fscli lsf params|queue|group ...``, ``fscli bqueues`` and ``fscli compare``.

LSF's queue-level fairshare next to Slurm's, on the same store: lsb.params values,
queues with ``USER_SHARES[...]``, user groups (lsb.users) for share trees; ``bqueues``
shows the dynamic priority of every share holder at ``--at``; ``compare`` ranks the
users under Slurm's Fair Tree, classic fair-share and an LSF queue side by side.
"""

from __future__ import annotations

from typing import Any

import click

from fscli.cli.output import dry_run_option, output_options, report
from fscli.cli.words import (
    count_value,
    delete_words,
    key_table,
    parse_words,
    reject_unused,
    split_list,
)
from fscli.engine.lsf.params import PARAMS

SETTINGS: dict[str, Any] = {"context_settings": {"ignore_unknown_options": True}}
QUEUE_KEYS = key_table(
    {
        "name": ("names",),
        "priority": ("prio",),
        "fairshare": ("user_shares",),
        **{p: () for p in PARAMS},
    },
    None,
)
GROUP_KEYS = key_table(
    {
        "name": ("names",),
        "members": ("group_member", "member"),
        "shares": ("user_shares", "fairshare"),
    },
    None,
)


def _values(parsed, command: str) -> dict[str, str]:
    from fscli.errors import UsageProblem

    for key, word in parsed.values.items():
        if word.op != "=":
            raise UsageProblem(f"'{key}{word.op}' is not allowed in {command}: use {key}=")
    return {key: word.value for key, word in parsed.values.items()}


def _change(app, dry_run: bool, action: str, *args) -> None:
    """Run one write of the API (its method's name) in one transaction and report it."""
    with app.changes(dry_run) as tx:
        lines = getattr(tx, action)(*args)
    report(app, lines, dry_run)


def _change_command(
    group: click.Group, verb: str, keys, action: str, help: str, *, one_name: bool = True
) -> None:
    """``lsf queue|group add|modify|delete WORDS``: names and ``key=value`` words in, one
    write of the API (by name) on one name or on all; add and modify pass the values, a
    delete takes names only (a KEY=VALUE word it would ignore is an error)."""
    command = f"lsf {group.name} {verb}"

    @group.command(verb, help=help, **SETTINGS)
    @click.argument("words", nargs=-1)
    @dry_run_option
    @click.pass_obj
    def run(app, words, dry_run) -> None:
        from fscli.errors import UsageProblem

        if verb == "delete":
            parsed = delete_words(words, keys, command, ("name",), modify=False)
        else:
            parsed = parse_words(words, keys, command, modify=verb == "modify")
            reject_unused(parsed, ("name",), command)
        names = parsed.all_names()
        if one_name and len(names) != 1:
            raise UsageProblem(f"{command} takes one name, got {len(names)}")
        args: list[object] = [names[0] if one_name else names]
        if verb != "delete":
            args.append(_values(parsed, command))
        _change(app, dry_run, action, *args)


@click.group()
def lsf() -> None:
    """LSF fairshare: lsb.params values, queues with USER_SHARES, user groups.

    \b
    Example:
      fscli lsf queue add normal priority=30 fairshare="USER_SHARES[[default, 1000]]"
      fscli bqueues -l normal
    """


# --------------------------------------------------------------------------- params


@lsf.group()
def params() -> None:
    """lsb.params fairshare parameters (LSF defaults until set; queues may override).

    \b
    Example:
      fscli lsf params set HIST_HOURS=10 ENABLE_HIST_RUN_TIME=Y
    """


@params.command("set", **SETTINGS)
@click.argument("words", nargs=-1)
@dry_run_option
@click.pass_obj
def params_set(app, words, dry_run) -> None:
    """Set parameters: NAME=VALUE (factors >= 0, HIST_HOURS >= 0, Y/N switches).

    \b
    Example:
      fscli lsf params set CPU_TIME_FACTOR=0.7 RUN_TIME_FACTOR=0.7 RUN_JOB_FACTOR=3 HIST_HOURS=5
    """
    from fscli.errors import UsageProblem

    values: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq:
            raise UsageProblem(f"'{word}': expected NAME=VALUE")
        values[key] = value
    _change(app, dry_run, "set_lsf_params", values)


@params.command("unset", **SETTINGS)
@click.argument("names", nargs=-1)
@dry_run_option
@click.pass_obj
def params_unset(app, names, dry_run) -> None:
    """Put parameters back to LSF's defaults.

    \b
    Example:
      fscli lsf params unset HIST_HOURS RUN_TIME_DECAY
    """
    _change(app, dry_run, "unset_lsf_params", list(names))


@params.command("show")
@output_options
@click.pass_obj
def params_show(app, out) -> None:
    """Every parameter: its value and whether it is LSF's default or set.

    \b
    Example:
      fscli lsf params show -P
    """
    from fscli.engine.lsf.params import PARAM_DEFAULTS

    setup = app.store.lsf_setup()
    rows = [
        [
            name,
            out.setting(setup.params.get(name, default)),
            "lsb.params" if name in setup.params else "default",
        ]
        for name, default in PARAM_DEFAULTS.items()
    ]
    out.emit(["Parameter", "Value", "Source"], rows, "params")


# --------------------------------------------------------------------------- queues


@lsf.group()
def queue() -> None:
    """LSF queues: PRIORITY, FAIRSHARE=USER_SHARES[...] and parameter overrides.

    \b
    Example:
      fscli lsf queue add short priority=50 RUN_JOB_FACTOR=5
    """


_change_command(
    queue,
    "add",
    QUEUE_KEYS,
    "add_lsf_queue",
    """Add a queue; without fairshare= it is first come first served.

    Shares: user names, GROUP (the group shares collectively), GROUP@ (each member),
    default (each unlisted user), others (all unlisted users together). Parameter
    names (HIST_HOURS=10, ...) override lsb.params for this queue.

    \b
    Example:
      fscli lsf queue add normal priority=30 fairshare="USER_SHARES[[user1, 2000] [default, 1000]]"
    """,
)
_change_command(
    queue,
    "modify",
    QUEUE_KEYS,
    "modify_lsf_queue",
    """Change queues: priority, fairshare (none: FCFS), overrides (NAME=default drops one).

    \b
    Example:
      fscli lsf queue modify normal set fairshare="USER_SHARES[[default, 1]]" HIST_HOURS=10
    """,
    one_name=False,
)
_change_command(
    queue,
    "delete",
    QUEUE_KEYS,
    "delete_lsf_queue",
    """Delete queues (refused while pending or running jobs use them).

    \b
    Example:
      fscli lsf queue delete short
    """,
    one_name=False,
)


@queue.command("list")
@output_options
@click.pass_obj
def queue_list(app, out) -> None:
    """Queues in scan order (priority descending) with USER_SHARES and overrides.

    \b
    Example:
      fscli lsf queue list -P
    """
    from fscli.engine.lsf.params import params_text
    from fscli.engine.lsf.share_text import format_user_shares

    setup = app.store.lsf_setup()
    rows = [
        [
            q.name,
            q.priority,
            format_user_shares(q.shares) if q.shares else "",
            params_text(q.params),
        ]
        for q in setup.queues.values()
    ]
    out.emit(["Name", "Priority", "Fairshare", "Params"], rows, "queues", numeric=("Priority",))


# --------------------------------------------------------------------------- groups


@lsf.group()
def group() -> None:
    """User groups (lsb.users): members, and USER_SHARES that make a share tree.

    \b
    Example:
      fscli lsf group add physics members=dan,eve shares="[dan, 3] [eve, 1]"
    """


_change_command(
    group,
    "add",
    GROUP_KEYS,
    "add_lsf_group",
    """Add a user group; members may be users or other groups.

    Without shares= the group holds its queue shares collectively; with shares= its
    members compete inside it (a level of a hierarchical share tree).

    \b
    Example:
      fscli lsf group add physics members=dan,eve shares="[dan, 3] [eve, 1]"
    """,
)
_change_command(
    group,
    "modify",
    GROUP_KEYS,
    "modify_lsf_group",
    """Change a group's members or shares (shares=none: collective again).

    \b
    Example:
      fscli lsf group modify physics set members=dan,eve,fay
    """,
)
_change_command(
    group,
    "delete",
    GROUP_KEYS,
    "delete_lsf_group",
    """Delete user groups (refused while a queue or another group uses them).

    \b
    Example:
      fscli lsf group delete physics
    """,
    one_name=False,
)


@group.command("list")
@output_options
@click.pass_obj
def group_list(app, out) -> None:
    """User groups with members and shares.

    \b
    Example:
      fscli lsf group list -P
    """
    from fscli.engine.lsf.share_text import format_share_pairs

    groups = app.store.lsf_setup().groups
    rows = [
        [g.name, ",".join(g.members), format_share_pairs(g.shares)]
        for g in sorted(groups.values(), key=lambda g: g.name)
    ]
    out.emit(["Name", "Members", "Shares"], rows, "groups")


# --------------------------------------------------------------------------- bqueues

SUMMARY_COLUMNS = [
    "QUEUE_NAME",
    "PRIO",
    "STATUS",
    "MAX",
    "JL/U",
    "JL/P",
    "JL/H",
    "NJOBS",
    "PEND",
    "RUN",
    "SUSP",
]


@click.command(**SETTINGS)
@click.argument("queues", nargs=-1)
@click.option(
    "-l",
    "long",
    is_flag=True,
    help="Long format with the SHARE_INFO_FOR blocks (-p/-P: their lines, one row each).",
)
@click.option(
    "--explain", metavar="USER", help="Show the dynamic priority formula with USER's numbers."
)
@output_options
@click.pass_obj
def bqueues(app, queues, long, explain, out) -> None:
    """LSF queues, like bqueues; -l adds each fairshare queue's dynamic user priorities.

    Priorities are computed at --at from the store's LSF jobs and usage records.

    \b
    Example:
      fscli bqueues
      fscli --at 2026-05-01T12:00:00 bqueues -l normal
      fscli bqueues normal --explain alice
    """
    import json

    from fscli.engine.timestr import utc_iso
    from fscli.errors import UsageProblem
    from fscli.render.bqueues import (
        SEPARATOR,
        SHARE_INFO_COLUMNS,
        bqueues_dict,
        render_bqueues_long,
        share_info_rows,
    )

    if out.noheader and (explain or (long and not out.parsable and not out.json)):
        raise UsageProblem(
            "-n leaves out the header line of the queue table and of -p/-P rows; "
            f"{'--explain' if explain else '-l'} prints text with none: drop -n"
            + ("" if explain else " or add -p/-P")
        )
    if explain:
        texts = app.store.lsf_explain(explain, list(queues), app.cluster_name, app.now)
        click.echo("\n".join(texts), nl=False)
        return
    answer = app.store.bqueues(list(queues), long, app.cluster_name, app.now)
    if not long:
        rows = [
            [s.name, s.priority, s.status, "-", "-", "-", "-", s.njobs, s.pend, s.run, s.susp]
            for s in answer.summaries
        ]
        out.emit(SUMMARY_COLUMNS, rows, "queues", numeric=("PRIO", "NJOBS", "PEND", "RUN", "SUSP"))
        return
    summaries = {s.name: s for s in answer.summaries}
    views = [(q, summaries[q.name], answer.blocks[q.name]) for q in answer.queues]
    if out.json:
        doc = {"at": utc_iso(answer.at), "queues": [bqueues_dict(*view) for view in views]}
        click.echo(json.dumps(doc, indent=2))
    elif out.parsable:
        out.emit(SHARE_INFO_COLUMNS, share_info_rows(views), "share_info")
    else:
        click.echo(SEPARATOR.join(render_bqueues_long(*view) for view in views), nl=False)


# --------------------------------------------------------------------------- compare


@click.command()
@click.option(
    "--queue",
    "queue_name",
    metavar="QUEUE",
    help="LSF queue to rank by (default: the highest-priority fairshare queue).",
)
@output_options
@click.pass_obj
def compare(app, queue_name, out) -> None:
    """Rank the users under Slurm Fair Tree, Slurm classic and an LSF queue side by side.

    Slurm: each user's fair-share factor (the best of their associations); LSF: the
    user's dynamic priority in the queue (in a share tree, that of the holder they are
    in, ranked level by level as dispatch does). Users are matched by name; rank 1
    goes first, equal values share a rank.

    \b
    Example:
      fscli --at 2026-05-01T12:00:00 compare --queue normal -P
    """
    from fscli.engine.timestr import utc_iso

    answer = app.store.compare(queue_name, app.cluster_name, app.now)
    compared = answer.users
    rows = [
        [c.user, c.fair_tree, c.fair_tree_rank, c.classic, c.classic_rank, c.lsf, c.lsf_rank]
        for c in compared
    ]
    columns = [
        "User",
        "FairTree",
        "FairTreeRank",
        "Classic",
        "ClassicRank",
        f"LSF:{answer.queue}",
        "LSFRank",
    ]
    out.emit(
        columns,
        rows,
        "users",
        numeric=columns[1:],
        meta={"at": utc_iso(answer.at), "queue": answer.queue},
    )


# --------------------------------------------------------------------------- dispatch

DISPATCH_MAX = 1_000_000  # the simulation places one slot at a time: keep it to seconds
DISPATCH_KEYS = key_table(
    {
        "name": ("names", "queue", "queues"),
        "slots": (),
        "users": ("user",),
        "jobs": ("jobs_per_user",),
    },
    None,
)


@lsf.command("dispatch", **SETTINGS)
@click.argument("words", nargs=-1)
@output_options
@click.pass_obj
def dispatch(app, words, out) -> None:
    """Simulate LSF filling free slots with one-slot jobs under equal demand.

    Every user (users=, default: every user the store knows) submits jobs= jobs (default:
    slots=) to each queue named (default: all); queues are scanned by priority, and a
    fairshare queue hands each slot to the holder with the highest dynamic priority,
    the store's jobs and usage at --at counting as history.

    \b
    Example:
      fscli lsf dispatch normal slots=30 users=user1,user2
    """
    from fscli.engine.timestr import utc_iso
    from fscli.errors import UsageProblem

    parsed = parse_words(words, DISPATCH_KEYS, "lsf dispatch")
    values = _values(parsed, "lsf dispatch")
    if "slots" not in values:
        raise UsageProblem("give the number of free slots: slots=N")
    slots = count_value("slots", values["slots"], DISPATCH_MAX)
    jobs_per_user = (
        None if "jobs" not in values else count_value("jobs", values["jobs"], DISPATCH_MAX)
    )
    users = split_list(values["users"]) if "users" in values else None
    result = app.store.lsf_dispatch(
        slots, parsed.all_names(), users, jobs_per_user, app.cluster_name, app.now
    )
    rows = [list(share) for share in result.shares()]
    out.emit(
        ["Queue", "User", "Slots", "Fraction"],
        rows,
        "dispatch",
        numeric=("Slots", "Fraction"),
        meta={"at": utc_iso(app.now), "slots": slots},
    )
