"""``fscli limits set|unset|show|check``: association, QOS and partition limits.

TARGET words pick what a limit is set on: ``cluster=C`` (the root association),
``account=A``, ``user=U [account=A] [partition=P]``, ``qos=Q`` or ``partition=P``. Values are
parsed by the same code as ``account``/``user``/``qos``/``partition modify`` and written by
the same writers; ``show --effective`` and ``check`` run the limits engine on the store.
"""

from __future__ import annotations

import click

from fscli.cli.change_words import (
    TARGET_HELP,
    keys,
    parse_target,
    target_and_changes,
    whatif_options,
)
from fscli.cli.change_words import whatif as whatif_of
from fscli.cli.complete import words_completer
from fscli.cli.output import (
    NOTHING_MODIFIED,
    dry_run_option,
    output_options,
    report,
)
from fscli.cli.words import key_table, parse_words, split_list
from fscli.engine.limits.definitions import limit_text

CHECK_KEYS = key_table(
    {
        "job": ("jobid", "id"),
        "user": ("users",),
        "account": ("acct",),
        "partition": (),
        "qos": (),
        "tres": (),
        "cpus": ("cpu", "ncpus"),
        "nodes": (),
        "mem": (),
        "time": ("timelimit",),
    },
    None,
)
SETTINGS = {"context_settings": {"ignore_unknown_options": True}}
UNSET_VALUE = {"usagefactor": "1"}  # what "unset" writes; everything else is cleared by -1
COLUMNS = ["Name", "TRES", "Value", "Level", "Source", "As"]


@click.group()
def limits() -> None:
    """Set, show, resolve and check limits (associations, QOS, partitions).

    \b
    Example:
      fscli limits set account=chem GrpTRES=cpu=256
      fscli limits show user=alice account=physics --effective
      fscli limits check user=alice cpus=64 time=2:00:00
    """


# -- parsing ------------------------------------------------------------------------
def _unset_words(words) -> list[str]:
    """``unset`` words as ``set`` words: ``MaxJobs`` → ``MaxJobs=-1``, ``GrpTRES=cpu,mem`` →
    ``GrpTRES=cpu=-1,mem=-1``; target words pass through."""
    from fscli.engine.limits import definitions as limitdefs
    from fscli.errors import UsageProblem

    out = []
    for word in words:
        key, sep, value = word.partition("=")
        canon = keys().get(key.strip().lower(), "")
        if not sep:
            out.append(f"{word}={UNSET_VALUE.get(canon, '-1')}")
        elif canon in ("cluster", "account", "user", "partition", "qos"):
            out.append(word)
        else:
            defn = limitdefs.lookup(key)
            if defn is None or defn.kind not in ("tres", "tres_mins"):
                raise UsageProblem(
                    f"'{word}' in limits unset: name limits without a value "
                    "(MaxJobs), or TRES to clear (GrpTRES=cpu,mem)"
                )
            out.append(f"{key}=" + ",".join(f"{t}=-1" for t in split_list(value)))
    return out


# -- set / unset ----------------------------------------------------------------------
def _write(app, words, dry_run: bool, command: str) -> None:
    target, changes = target_and_changes(words, command)
    with app.changes(dry_run) as tx:
        lines = tx.set_limits(target, changes, app.cluster_name)
    report(app, lines, dry_run, NOTHING_MODIFIED)


@limits.command("set", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer(None, keys))
@dry_run_option
@click.pass_obj
def set_(app, words, dry_run) -> None:
    """Set limits on an association, QOS or partition (-1 clears one TRES or one limit).

    TARGET: account=A | user=U [account=A] [partition=P] | qos=Q | partition=P | cluster=C.

    \b
    Example:
      fscli limits set account=chem GrpTRES=cpu=256,mem=1T MaxWall=2-00:00:00
      fscli limits set user=alice account=physics MaxJobs=4 MaxSubmitJobs=50
      fscli limits set qos=high MaxJobsPerUser=20 Flags=DenyOnLimit LimitFactor=2
      fscli limits set partition=short MaxTime=4:00:00 MaxNodes=2
    """
    _write(app, words, dry_run, "limits set")


@limits.command("unset", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer(None, keys))
@dry_run_option
@click.pass_obj
def unset(app, words, dry_run) -> None:
    """Remove limits by name (GrpTRES=cpu,mem removes single TRES).

    \b
    Example:
      fscli limits unset account=chem GrpTRES MaxWall
      fscli limits unset qos=high GrpTRES=gres/gpu Flags
    """
    _write(app, _unset_words(words), dry_run, "limits unset")


# -- show -------------------------------------------------------------------------------
def used_value(minutes: float | int | None) -> float | int | None:
    """A used counter as JSON carries it: GrpWall's wall minutes to 2 decimals,
    GrpTRESMins' and GrpTRESRunMins' whole TRES-minutes as they are."""
    return minutes if minutes is None or isinstance(minutes, int) else round(minutes, 2)


def used_cell(minutes: float | int | None) -> str:
    """:func:`used_value` as the Used column prints it (blank: no counter)."""
    if minutes is None:
        return ""
    return str(minutes) if isinstance(minutes, int) else f"{minutes:.2f}"


def _emit(out, entries, used: list | None = None) -> None:
    """The entries; ``used`` (from ``--effective``): what each GrpWall (wall minutes, 2
    decimals), GrpTRESMins and GrpTRESRunMins (whole TRES-minutes) has used, shown in a
    Used column (``used`` in JSON) when some entry is one of them."""
    used = used if used and any(u is not None for u in used) else None
    if out.json:
        import json

        docs = [e.to_dict() for e in entries]
        for doc, minutes in zip(docs, used or ()):
            if minutes is not None:
                doc["used"] = used_value(minutes)
        click.echo(json.dumps({"limits": docs}, indent=2))
        return
    rows = [
        [
            e.name,
            e.tres or "",
            limit_text(e.own_name, e.tres, e.value),
            e.level,
            e.source,
            e.as_name or "",
        ]
        for e in entries
    ]
    columns = COLUMNS
    if used:
        columns = [*COLUMNS, "Used"]
        for row, minutes in zip(rows, used):
            row.append(used_cell(minutes))
    out.emit(columns, rows, "limits", keep=("Name", "Value", "Level", "Source"))


@limits.command("show", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer(None, keys))
@click.option(
    "--effective",
    is_flag=True,
    help="Every limit in force for jobs of the association, with the level that set it.",
)
@whatif_options
@output_options
@click.pass_obj
def show(app, words, effective, whatif, out) -> None:
    """Show the limits set on a target, or with --effective every limit in force.

    With --effective, TARGET is user=U [account=A] [partition=P] [qos=Q] (or account=A
    [qos=Q]): the limits a job there would meet, in Slurm's precedence order.

    \b
    Example:
      fscli limits show account=chem
      fscli limits show user=alice account=physics partition=gpu --effective
      fscli limits show user=alice qos=high --effective --json
      fscli limits show account=chem --with 'account=chem GrpTRES=cpu=256'
    """
    from fscli.errors import UsageProblem

    parsed = parse_words(words, keys(), "limits show")
    if parsed.names:
        raise UsageProblem(
            f"unexpected word '{parsed.names[0]}' in limits show: "
            f"expected KEY=VALUE (target: {TARGET_HELP})"
        )
    if whatif is not None and whatif.tree is not None:
        raise UsageProblem("limits show --with takes 'TARGET SETTING=VALUE...' words, not a tree")
    if not effective:
        target = parse_target(parsed, "limits show")
        if parsed.values:
            raise UsageProblem(f"limits show takes only the target ({TARGET_HELP})")
    sides: list[tuple[list, list | None]] = []
    for side in (None, whatif) if whatif is not None else (None,):
        if effective:
            sides.append(_effective(app, parsed, side))
        else:
            sides.append((app.store.own_limits(target, app.cluster_name, side), None))
    if whatif is None:
        _emit(out, *sides[0])
        return
    for line in whatif.describe():
        app.say(f"with {line}")
    _emit_compared(out, sides[0], sides[1], whatif.describe())


def _key(entry) -> tuple:
    return entry.name, entry.tres, entry.level, entry.source, entry.as_name


def _emit_compared(out, before, after, changes) -> None:
    """The limits before and after a what-if, matched by name, TRES, level and source: a
    limit only on one side is blank on the other."""
    (old, old_used), (new, new_used) = before, after
    was = {_key(e): (e, u) for e, u in zip(old, old_used or [None] * len(old))}
    now = {_key(e): (e, u) for e, u in zip(new, new_used or [None] * len(new))}
    keys = list(now) + [k for k in was if k not in now]
    with_used = any(u is not None for u in [*(old_used or ()), *(new_used or ())])
    if out.json:
        import json

        docs = []
        for key in keys:
            entry = (now.get(key) or was[key])[0]
            doc = {k: v for k, v in entry.to_dict().items() if k != "value"}
            doc["value"] = was[key][0].value if key in was else None
            doc["value_after"] = now[key][0].value if key in now else None
            if with_used:
                doc["used"] = _minutes(was.get(key))
                doc["used_after"] = _minutes(now.get(key))
            docs.append(doc)
        click.echo(json.dumps({"meta": {"with": changes}, "limits": docs}, indent=2))
        return
    rows = []
    for key in keys:
        name, tres, level, source, as_name = key
        values = [
            limit_text(pair[0].own_name, tres, pair[0].value) if pair else ""
            for pair in (was.get(key), now.get(key))
        ]
        row = [name, tres or "", *values, level, source, as_name or ""]
        if with_used:
            row += [_used_text(was.get(key)), _used_text(now.get(key))]
        rows.append(row)
    columns = ["Name", "TRES", "Value", "Value(after)", "Level", "Source", "As"]
    columns += ["Used", "Used(after)"] if with_used else []
    out.emit(columns, rows, "limits", keep=("Name", "Value", "Value(after)", "Level", "Source"))


def _minutes(pair) -> float | int | None:
    return None if pair is None else used_value(pair[1])


def _used_text(pair) -> str:
    return "" if pair is None else used_cell(pair[1])


def _effective(app, parsed, whatif=None) -> tuple[list, list]:
    """(the limits in force, what each group limit among them has used)."""
    from fscli.errors import UsageProblem

    extra = set(parsed.values) - {"qos"}
    if extra or not (parsed.get("user") or parsed.get("account")):
        raise UsageProblem(
            "limits show --effective takes user=U [account=A] [partition=P] "
            "[qos=Q] or account=A [qos=Q]"
        )
    return app.store.effective_limits(
        **_who(parsed),
        cluster=parsed.get("cluster") or app.cluster_name,
        at=app.now,
        whatif=whatif,
    )


# -- check ------------------------------------------------------------------------------
def _who(parsed) -> dict:
    """user=, account=, partition=, qos= words as the API's keywords."""
    return {key: parsed.get(key) for key in ("user", "account", "partition", "qos")}


def _job_tres(parsed) -> tuple[dict[str, int], int | None]:
    """The request's TRES (cpu and node from cpus=/nodes= unless tres= names them) and time."""
    from fscli.cli.words import mem_per_node, whole_number
    from fscli.engine.timestr import parse_time_limit
    from fscli.engine.tres import parse_tres, request_tres

    def count(key: str) -> int:
        return whole_number(key, parsed.get(key, "1"), 1)

    extra = parse_tres(parsed.get("tres"), allow_clear=False) if parsed.get("tres") else {}
    nodes = count("nodes")
    if parsed.get("mem"):
        extra["mem"] = mem_per_node(parsed.get("mem")) * nodes
    time = parse_time_limit(parsed.get("time"), "time") if parsed.get("time") else None
    return request_tres(count("cpus"), nodes, extra), time


@limits.command("check", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer(None, CHECK_KEYS))
@click.option(
    "--with",
    "whatif",
    multiple=True,
    metavar="'TARGET LIMIT=VALUE...'",
    help="Check as if this 'limits set' change were made (the store is not changed).",
)
@click.option(
    "--with-config",
    "config_texts",
    multiple=True,
    metavar="KEY=VALUE",
    help="Check as if this setting (config set's keys) were made at --at: the job and "
    "the running jobs billed, the usage decayed under it. Nothing is written.",
)
@click.option(
    "--as-if-always",
    "always",
    is_flag=True,
    help="--with-config as if the setting had always been so (the usage re-charged).",
)
@output_options
@click.pass_obj
def check(app, words, whatif, config_texts, always, out) -> None:
    """Would a job run now, pend (with Slurm's reason) or be rejected at submission?

    Counts come from the store's running and pending jobs and decayed usage. The job and
    the running jobs are billed as slurmctld bills them (the partition's TRESBillingWeights,
    else the cluster's, else the CPUs); tres=billing=N bills the job N instead. Exit 0 for
    all three verdicts.

    job=N checks a stored pending job as it stands (its size, partition, QOS and time
    limit as stored; submission limits are behind it): the limit it pends on now.

    \b
    Example:
      fscli limits check user=bob account=chem cpus=64 time=2:00:00
      fscli limits check job=12
      fscli limits check user=bob tres=cpu=4,mem=8G,gres/gpu=1 partition=gpu --json
      fscli limits check user=bob cpus=200 --with 'account=chem GrpTRES=cpu=256'
      fscli limits check user=bob cpus=8 --with-config TRESBillingWeights=CPU=4
    """
    from fscli.cli.progress import progress
    from fscli.errors import UsageProblem

    parsed = parse_words(words, CHECK_KEYS, "limits check")
    stored = parsed.get("job")
    if stored is not None and (parsed.names or len(parsed.values) > 1):
        raise UsageProblem("limits check job=N takes no other words: the job's are stored")
    if stored is None and (parsed.names or not parsed.get("user")):
        raise UsageProblem(
            "limits check needs user=U [account=A] [partition=P] [qos=Q] "
            "[tres=..|cpus=N] [nodes=N] [mem=M] [time=T], or job=N"
        )
    changes = whatif_of(whatif, config_texts, always, "limits check") or ()
    if changes and changes.tree is not None:
        raise UsageProblem("limits check --with takes 'TARGET SETTING=VALUE...' words, not a tree")
    if stored is not None:
        from fscli.cli.words import whole_number
        from fscli.engine.job_states import MAX_JOB_ID

        with progress(app, "checking limits"):
            result = app.store.check_stored_job(
                whole_number("job", stored, 1, MAX_JOB_ID),
                whatif=changes,
                cluster=app.cluster_name,
                at=app.now,
            )
        _emit_check(out, result)
        return
    tres, time = _job_tres(parsed)
    with progress(app, "checking limits"):  # a big store: a second or more of counting
        result = app.store.check_job(
            **_who(parsed),
            tres=tres,
            time_limit=time,
            whatif=changes,
            cluster=app.cluster_name,  # CHECK_KEYS has no cluster=: --cluster picks it
            at=app.now,
        )
    _emit_check(out, result)


def _emit_check(out, result) -> None:
    from fscli.engine.limits.check import describe

    if out.json:
        import json

        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    found = [result.violation, *result.others] if result.violation else []
    columns = [
        "Verdict",
        "Reason",
        "Limit",
        "TRES",
        "Value",
        "Current",
        "Request",
        "Level",
        "Source",
    ]
    rows = [
        [
            result.verdict,
            v.reason,
            v.limit,
            v.tres or "",
            *(limit_text(v.limit, v.tres, x) for x in (v.value, v.current, v.request)),
            v.level,
            v.source,
        ]
        for v in found
    ]
    if out.parsable:
        rows = rows or [[result.verdict, result.reason or result.error or ""] + [""] * 7]
        out.emit(columns, rows, "check")
        return
    click.echo(describe(result))
    if result.verdict == "reject":
        click.echo(result.sbatch_stderr())
    if len(found) > 1:
        out.emit(columns[1:], [row[1:] for row in rows], "check", keep=columns[1:3])
