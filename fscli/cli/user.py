"""``fscli user add|modify|delete|list`` — sacctmgr's user administration."""

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
from fscli.cli.words import delete_words, key_table, parse_words, reject_unused, split_list

BASE_KEYS = {
    "name": ("names", "user", "users"),
    "account": ("accounts", "acct"),
    "cluster": ("clusters",),
    "partition": ("partitions",),
    "fairshare": ("shares",),
    "defaultaccount": ("defaultacct", "defacct", "defaultaccounts"),
    "adminlevel": ("admin",),
    "priority": (),
    "qos": ("qoslevel",),
    "defaultqos": ("defqos",),
}
KEYS = key_table(BASE_KEYS, "assoc")
SETTINGS = {"context_settings": {"ignore_unknown_options": True}}
SELECT = ("name", "account", "cluster", "partition")


def _user_settings(parsed):
    from fscli.engine.treespec import parse_admin_level

    default = parsed.values.get("defaultaccount")
    level = parsed.values.get("adminlevel")
    return (
        default.value.strip() if default else None,
        parse_admin_level(level.value) if level else None,
    )


@click.group()
def user() -> None:
    """Users and their associations (sacctmgr add/modify/delete/list user).

    \b
    Example:
      fscli user add alice account=physics
    """


@user.command("add", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("user", KEYS))
@dry_run_option
@click.pass_obj
def add(app, words, dry_run) -> None:
    """Add user(s) to account(s); adding an existing user adds another association.

    \b
    Example:
      fscli user add alice,bob account=physics fairshare=1 MaxJobs=10
    """
    from fscli.cli.assoc_words import assoc_changes

    parsed = parse_words(words, KEYS, "user add")
    reject_unused(parsed, SELECT, "user add")
    changes = assoc_changes(parsed, "user add")
    default_account, admin_level = _user_settings(parsed)
    accounts = split_list(parsed.get("account") or "")
    with app.changes(dry_run) as tx:
        lines = tx.add_user(
            parsed.all_names(),
            accounts,
            parsed.get("cluster") or app.cluster_name,
            parsed.get("partition"),
            default_account,
            admin_level,
            changes=changes,
        )
    report(app, lines, dry_run)


@user.command("modify", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("user", KEYS))
@dry_run_option
@click.pass_obj
def modify(app, words, dry_run) -> None:
    """Change a user's associations (shares, QOS, limits) or the user (default account, admin level).

    \b
    Example:
      fscli user modify bob account=chem set fairshare=parent
    """
    from fscli.cli.assoc_words import assoc_changes

    parsed = parse_words(words, KEYS, "user modify", modify=True)
    reject_unused(parsed, SELECT, "user modify")
    changes = assoc_changes(parsed, "user modify")
    default_account, admin_level = _user_settings(parsed)
    with app.changes(dry_run) as tx:
        lines = tx.modify_user(
            parsed.all_names(),
            parsed.get("account"),
            parsed.get("cluster") or app.cluster_name,
            parsed.get("partition"),
            default_account,
            admin_level,
            changes=changes,
        )
    report(app, lines, dry_run, NOTHING_MODIFIED)


@user.command("delete", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("user", KEYS))
@dry_run_option
@click.pass_obj
def delete(app, words, dry_run) -> None:
    """Delete one association (account=A [partition=P]) or the user entirely.

    \b
    Example:
      fscli user delete bob account=chem
    """
    parsed = delete_words(words, KEYS, "user delete", SELECT)
    with app.changes(dry_run) as tx:
        lines = tx.delete_user(
            parsed.all_names(),
            parsed.get("account"),
            parsed.get("cluster") or app.cluster_name,
            parsed.get("partition"),
        )
    report(app, lines, dry_run, NOTHING_DELETED)


@user.command("list")
@output_options
@click.pass_obj
def list_(app, out) -> None:
    """List users with their default account (on --cluster: it is per cluster, as in
    Slurm) and admin level.

    \b
    Example:
      fscli user list -P
    """
    out.emit(
        ["User", "Def Acct", "Admin"],
        [[u.name, u.default_account, u.admin_level] for u in app.store.users(app.cluster_name)],
        "users",
    )
