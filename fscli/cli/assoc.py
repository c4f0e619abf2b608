"""``fscli assoc list`` — associations flat or as a tree, like ``sacctmgr show assoc``."""

from __future__ import annotations

import click

from fscli.cli.complete import words_completer
from fscli.cli.output import output_options
from fscli.cli.words import key_table, parse_words, split_list

KEYS = key_table(
    {
        "format": (),
        "account": ("accounts", "acct"),
        "user": ("users",),
        "partition": ("partitions",),
        "cluster": ("clusters",),
    },
    None,
)


def emit_assocs(
    app,
    out,
    columns: list[str],
    tree: bool,
    users: bool = True,
    accounts: list[str] | None = None,
    user_names: list[str] | None = None,
    partitions: list[str] | None = None,
    cluster: str | None = None,
    explicit: bool = False,
) -> None:
    """Load the cluster's associations and print the chosen columns."""
    from fscli.engine.tree import display_order
    from fscli.render.assoc_view import COLUMNS, JSON_COLUMNS, JSON_EXTRAS, Context, tree_prefixes

    view = app.store.associations(cluster or app.cluster_name)
    assocs = view.assocs
    ctx = Context(view.cluster, assocs, view.accounts, view.qos_names)
    ordered = display_order(assocs)
    keep = [
        (a, d)
        for a, d in ordered
        if (users or a.user is None)
        and (not accounts or a.account in accounts)
        and (not user_names or (a.user in user_names))
        and (not partitions or a.partition in partitions)
    ]
    if tree and not (out.json or out.parsable):
        guides = dict(zip((a.id for a, _ in ordered), tree_prefixes(ordered)))
        account_cell = {a.id: guides[a.id] + a.account for a, _ in keep}
    elif tree:
        account_cell = {a.id: " " * d + a.account for a, d in keep}
    else:
        account_cell = {a.id: a.account for a, _ in keep}
    extras = list(JSON_EXTRAS) if out.json and "QOS" in columns else []
    getters = JSON_COLUMNS if out.json else COLUMNS
    rows = []
    for assoc, _depth in keep:
        row = []
        for column in columns:
            row.append(
                account_cell[assoc.id] if column == "Account" else getters[column](assoc, ctx)
            )
        rows.append(row + [JSON_EXTRAS[extra](assoc, ctx) for extra in extras])
    columns = columns + extras
    out.emit(
        columns,
        rows,
        "associations",
        numeric=("Share", "Priority", "ID", "ParentID"),
        keep=columns if explicit else ("Cluster", "Account", "User", "Share"),
    )


@click.group()
def assoc() -> None:
    """Associations: the (cluster, account, user, partition) records that carry shares and limits.

    \b
    Example:
      fscli assoc list --tree
    """


@assoc.command("list", context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, shell_complete=words_completer(None, KEYS))
@click.option("--tree", is_flag=True, help="Indent accounts and users by depth, like sshare.")
@output_options
@click.pass_obj
def list_(app, words, tree, out) -> None:
    """List associations; format= picks columns, account=/user=/partition= filter.

    \b
    Example:
      fscli assoc list --tree
      fscli assoc list -P format=Account,User,Share,GrpTRES
    """
    from fscli.render.assoc_view import resolve_columns

    parsed = parse_words(words, KEYS, "assoc list")
    if parsed.names:
        from fscli.errors import UsageProblem

        raise UsageProblem(f"unexpected word '{parsed.names[0]}': use account=, user=, format=")
    columns = resolve_columns(parsed.get("format"))
    emit_assocs(
        app,
        out,
        columns,
        tree,
        accounts=[a.lower() for a in split_list(parsed.get("account") or "")],
        user_names=[u.lower() for u in split_list(parsed.get("user") or "")],
        partitions=split_list(parsed.get("partition") or ""),
        cluster=parsed.get("cluster"),
        explicit=bool(parsed.get("format")),
    )
