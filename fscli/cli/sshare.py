"""``fscli sshare`` — every association's fair-share, exactly as Slurm's sshare prints it.

The options make one query (:class:`fscli.api.views.ShareQuery`), one API call answers
it, and :func:`fscli.cli.output.emit` prints the answer's view (:mod:`fscli.render.views`):
``-p``/``-P`` give real sshare's parsable text, the default is a rich table with the
same columns, ``--json`` one object per row. ``--explain ASSOC`` prints the derivation of
one association's numbers instead, ``--with`` the columns before and after a change.
"""

from __future__ import annotations

import click

from fscli.cli.change_words import whatif_options
from fscli.cli.complete import (
    ALGORITHM_NAMES,
    ChoicesCompleter,
    NamesCompleter,
    skipped_while_completing,
)
from fscli.cli.output import output_options, svg_option


@skipped_while_completing  # a TAB parses the words: it must print nothing
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
@click.option(
    "-l",
    "--long",
    "long_",
    is_flag=True,
    help="Long format (NormUsage, LevelFS, GrpTRESMins, TRESRunMins).",
)
@click.option(
    "-A",
    "--accounts",
    metavar="ACCOUNTS",
    shell_complete=NamesCompleter("account", many=True),
    help="Only these accounts' rows.",
)
@click.option(
    "-u",
    "--users",
    metavar="USERS",
    shell_complete=NamesCompleter("user", many=True),
    help="Add these users' rows (-1 = all).",
)
@click.option("-U", "--Users", "users_only", is_flag=True, help="Only user rows (with -a or -u).")
@click.option("-m", "--partition", is_flag=True, help="Add the Partition column.")
@click.option(
    "-o",
    "--format",
    "fmt",
    metavar="FORMAT",
    help="Columns, Slurm names and prefixes (Account,User%15,Eff).",
)
@click.option(
    "--algorithm",
    metavar="NAME",
    shell_complete=ChoicesCompleter(ALGORITHM_NAMES),
    help="fair_tree|classic|depth_oblivious|linear (default: from PriorityFlags).",
)
@click.option(
    "--explain",
    metavar="ASSOC",
    shell_complete=NamesCompleter("assoc"),
    help="Explain one association (ACCOUNT or USER/ACCOUNT).",
)
@click.option(
    "--over",
    is_flag=True,
    help="Only associations over their share: LevelFS < 1 (usage among siblings above shares).",
)
@click.option(
    "--sort",
    "sort_spec",
    metavar="FIELD",
    help="Sort rows by a column (RawUsage, FairShare, LevelFS...; -FIELD: descending).",
)
@click.option(
    "-e",
    "--helpformat",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=_print_fields,
    help="List the fields -o takes, and exit.",
)
@whatif_options
@output_options
@svg_option
@click.pass_obj
def sshare(
    app,
    all_users,
    long_,
    accounts,
    users,
    users_only,
    partition,
    fmt,
    algorithm,
    explain,
    whatif,
    over,
    sort_spec,
    out,
    svg,
) -> None:
    """Fair-share of every association as of --at (default now), like Slurm's sshare.

    --over keeps the associations using more than their share at their level: LevelFS < 1
    (Fair Tree's LevelFS; under the other algorithms computed the same way from RawShares
    and RawUsage among siblings). --sort orders the rows by a column (-FIELD: descending).

    \b
    Example:
      fscli sshare -a --over --sort -RawUsage
      fscli sshare -a -l
      fscli sshare -a -P --algorithm classic
      fscli --at now-1day sshare --explain alice/physics
      fscli sshare -a --svg shares.svg
      fscli sshare -a --with 'account=physics fairshare=+50'
      fscli sshare -a --with-config PriorityDecayHalfLife=14-0 --as-if-always
    """
    from fscli.api import views as api
    from fscli.cli.output import emit
    from fscli.cli.words import split_list
    from fscli.errors import UsageProblem
    from fscli.render import share_views as views
    from fscli.render.sshare import printed_names
    from fscli.render.views import View

    if svg is not None and (explain is not None or out.json or out.parsable):
        raise UsageProblem("--svg saves the table: leave out -p, -P, --json and --explain")
    if explain is not None and out.parsable:
        raise UsageProblem("--explain prints a derivation: leave out -p and -P (or use --json)")
    printed = printed_names(fmt, long_)  # a bad -o fails before the store is read
    if whatif is not None and (explain is not None or svg is not None or over or sort_spec):
        raise UsageProblem("--with and --with-config leave out --explain, --svg, --over and --sort")
    query = api.ShareQuery(
        algorithm,
        all_users,
        split_list(accounts or ""),
        split_list(users or ""),
        users_only,
        over,
        sort_spec,
        None if out.json else () if explain is not None else printed,
    )
    where = (app.store, app.cluster_name, app.now, query)
    view: View
    if whatif is not None:
        from fscli.render.whatif_views import ShareWhatIfView

        view = ShareWhatIfView(api.compare_shares(*where, whatif), fmt, long_, partition)
    elif explain is not None:  # "--explain ''" names no association: an error, not the table
        view = views.ShareExplainView(api.explain_share(*where, explain))
    else:
        view = views.SharesView(api.select_shares(*where), fmt, long_, partition)
    if whatif is None and svg is None:
        from fscli.cli.answers import may_record

        # until the fair-share state moves (the view says); --json names the moment
        may_record(app, windowed=True, prints_now=out.json)
    emit(view, out, svg, app.say)
