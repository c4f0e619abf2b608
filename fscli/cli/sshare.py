"""``fscli sshare`` — every association's fair-share, exactly as Slurm's sshare prints it.

The store is read once (``store.state``), the engine computes, ``render.sshare`` prints:
``-p``/``-P`` give real sshare's parsable text, the default is a rich table with the
same columns, ``--json`` one object per row. ``--explain ASSOC`` prints the derivation of
one association's numbers instead.
"""

from __future__ import annotations

import click

from fscli.cli.output import output_options, svg_option


def algorithm_option(text: str | None) -> str | None:
    """``--algorithm``'s value as the engine names it (``fair-tree`` → ``fair_tree``)."""
    from fscli.engine.config import ALGORITHMS
    from fscli.errors import UsageProblem

    if text is None:
        return None
    algorithm = text.strip().lower().replace("-", "_")
    if algorithm not in ALGORITHMS:
        raise UsageProblem(f"unknown algorithm '{algorithm}': expected one of "
                           f"{', '.join(ALGORITHMS)}")
    return algorithm


def share_result(app, algorithm: str | None):
    """(state, fair-share result, algorithm) at ``app.now`` for the chosen cluster."""
    from fscli.store.state import fairshare, load_state

    algorithm = algorithm_option(algorithm)
    with app.reading() as conn:
        state = load_state(conn, app.cluster_name, app.now)
    algorithm = algorithm or state.config.algorithm
    return state, fairshare(state, app.now, algorithm), algorithm


def select_rows(rows, all_users: bool, accounts: str | None, users: str | None) -> list:
    """sshare's row filter: account rows always, user rows with -a or -u; -A keeps accounts."""
    from fscli.cli.words import split_list

    wanted_users = {u.lower() for u in split_list(users or "")}
    if "-1" in wanted_users:
        all_users = True
    wanted_accounts = {a.lower() for a in split_list(accounts or "")}
    out = []
    for row in rows:
        if wanted_accounts and row.account.lower() not in wanted_accounts:
            continue
        if row.user is not None and not all_users and row.user.lower() not in wanted_users:
            continue
        out.append(row)
    return out


def share_extras(state, now: int, columns=None):
    """What sshare prints beside the rows: cluster name, tracked TRES, TRES run-minutes
    and TRES usage, the last two only when ``columns`` (field names; None = all) show
    them: the TRES usage goes through every job of the store again."""
    from fscli.render.sshare import Extras
    from fscli.store.state import run_minutes, tres_usage

    def wanted(name: str) -> bool:
        return columns is None or name in columns

    return Extras(state.cluster.name, tres_names(state),
                  run_minutes(state, now) if wanted("TRESRunMins") else {},
                  tres_usage(state, now) if wanted("GrpTRESRaw") else {})


def tres_names(state) -> tuple[str, ...]:
    """Slurm's tracked TRES: the defaults plus AccountingStorageTRES additions."""
    from fscli.engine.config import accounting_tres
    from fscli.render.sshare import DEFAULT_TRES

    extra = accounting_tres(state.config.raw.get("AccountingStorageTRES", ""))
    return DEFAULT_TRES + tuple(dict.fromkeys(n for n in extra if n not in DEFAULT_TRES))


def find_assoc(state, text: str) -> int:
    """An association id from ``ACCOUNT``, ``USER/ACCOUNT``, ``root`` or a numeric id."""
    from fscli.errors import NotFound

    name = text.strip().lower()
    if name.isascii() and name.isdigit() and any(a.id == int(name) for a in state.assocs):
        return int(name)
    user, sep, account = name.partition("/")
    if sep:
        matches = [a for a in state.assocs if a.user == user and a.account == account]
    else:
        matches = [a for a in state.assocs if a.user is None and a.account == name]
        if not matches:
            matches = [a for a in state.assocs if a.user == name]
            if len(matches) > 1:
                choices = ", ".join(f"{a.user}/{a.account}" for a in matches)
                raise NotFound(f"user '{name}' has several associations: name one of {choices}")
    if not matches:
        raise NotFound(f"no association '{text}' on cluster {state.cluster.name} "
                       "(use ACCOUNT or USER/ACCOUNT)")
    return min(a.id for a in matches)  # the one without a partition was added first


def _print_fields(ctx: click.Context, _param, given: bool) -> None:
    """``-e``: print the field list and exit before the store is read (as sshare does);
    an eager option's callback, so it runs before the other options are even checked."""
    if not given:
        return
    from fscli.render.sshare import help_format

    click.echo(help_format(), nl=False)
    ctx.exit(0)


@click.command()
@click.option("-a", "--all", "all_users", is_flag=True, help="Show every user's rows.")
@click.option("-l", "--long", "long_", is_flag=True,
              help="Long format (NormUsage, LevelFS, GrpTRESMins, TRESRunMins).")
@click.option("-A", "--accounts", metavar="ACCOUNTS", help="Only these accounts' rows.")
@click.option("-u", "--users", metavar="USERS", help="Add these users' rows (-1 = all).")
@click.option("-U", "--Users", "users_only", is_flag=True,
              help="Only user rows (with -a or -u).")
@click.option("-m", "--partition", is_flag=True, help="Add the Partition column.")
@click.option("-o", "--format", "fmt", metavar="FORMAT",
              help="Columns, Slurm names and prefixes (Account,User%15,Eff).")
@click.option("--algorithm", metavar="NAME",
              help="fair_tree|classic|depth_oblivious|linear (default: from PriorityFlags).")
@click.option("--explain", metavar="ASSOC",
              help="Explain one association (ACCOUNT or USER/ACCOUNT).")
@click.option("-e", "--helpformat", is_flag=True, is_eager=True, expose_value=False,
              callback=_print_fields,
              help="List the fields -o takes, and exit.")
@output_options
@svg_option
@click.pass_obj
def sshare(app, all_users, long_, accounts, users, users_only, partition, fmt, algorithm,
           explain, out, svg) -> None:
    """Fair-share of every association as of --at (default now), like Slurm's sshare.

    \b
    Example:
      fscli sshare -a -l
      fscli sshare -a -P --algorithm classic
      fscli --at now-1day sshare --explain alice/physics
      fscli sshare -a --svg shares.svg
    """
    from fscli.render.sshare import select_fields

    if svg is not None and (explain is not None or out.json or out.parsable):
        from fscli.errors import UsageProblem

        raise UsageProblem("--svg saves the table: leave out -p, -P, --json and --explain")
    fields = select_fields(fmt) if fmt else None  # a bad -o fails before the store is read
    state, result, algorithm = share_result(app, algorithm)
    if explain is not None:  # "--explain ''" names no association: an error, not the table
        from fscli.engine.fsexplain import explain as derive

        click.echo("\n".join(derive(result, find_assoc(state, explain))))
        return
    fields = fields or select_fields(None, algorithm, long_, partition)
    rows = select_rows(result.rows, all_users, accounts, users)
    if users_only:
        rows = [row for row in rows if row.user is not None]
    extras = share_extras(state, app.now, None if out.json else {f.name for f in fields})
    if out.json:
        emit_json(rows, algorithm, extras, app.now)
    elif out.parsable:
        from fscli.render.sshare import render_text

        click.echo(render_text(rows, fields, out.parsable, not out.noheader, extras), nl=False)
    else:
        from fscli.render import tables

        console = tables.console(record=svg is not None)
        emit_table(rows, fields, not out.noheader, extras,
                   title=f"Fair-share on {extras.cluster} ({algorithm})", console=console)
        if svg is not None:
            from fscli.cli.output import command_line

            tables.save_svg(console, svg, command_line(click.get_current_context()))


def emit_json(rows, algorithm: str, extras, now: int) -> None:
    import json

    from fscli.engine.timestr import utc_iso
    from fscli.render.sshare import json_rows

    doc = {"meta": {"cluster": extras.cluster, "algorithm": algorithm, "at": utc_iso(now)},
           "shares": json_rows(rows, extras)}
    click.echo(json.dumps(doc, indent=2))


def emit_table(rows, fields, header: bool, extras, title: str | None = None,
               console=None) -> None:
    """The rows as a rich table with sshare's columns and number formats (on ``console``).

    TRES lists show only their non-zero counts, so that the table fits a terminal.
    """
    from fscli.render import tables
    from fscli.render.sshare import column

    columns = [f.name for f in fields]
    cells = []
    for name in columns:
        values = column(name, rows, extras)
        if name in ("GrpTRESRaw", "TRESRunMins"):
            values = [",".join(p for p in v.split(",") if not p.endswith("=0")) for v in values]
        cells.append(values)
    data = [list(row) for row in zip(*cells)]
    numeric = [c for c in columns if c not in ("Account", "User", "Partition", "Cluster",
                                               "GrpTRESMins", "GrpTRESRaw", "TRESRunMins")]
    (console or tables.console()).print(tables.rich_table(columns, data, title, header, numeric))
