"""``fscli account add|modify|delete|list`` — sacctmgr's account administration."""

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
from fscli.cli.words import delete_words, key_table, parse_words, reject_unused

BASE_KEYS = {
    "name": ("names", "account", "accounts", "acct"),
    "cluster": ("clusters",),
    "parent": (),
    "description": ("descr", "desc"),
    "organization": ("org",),
    "fairshare": ("shares",),
    "priority": (),
    "qos": ("qoslevel",),
    "defaultqos": ("defqos",),
}
KEYS = key_table(BASE_KEYS, "assoc")
SETTINGS = {"context_settings": {"ignore_unknown_options": True}}


def _text(words, key: str) -> str | None:
    word = words.values.get(key)
    return None if word is None else word.value


def _write(app, words, dry_run: bool, verb: str) -> None:
    """``account add|modify``: the same words; an add may create the default cluster."""
    from fscli.cli.assoc_words import assoc_changes

    command = f"account {verb}"
    parsed = parse_words(words, KEYS, command, modify=verb == "modify")
    reject_unused(parsed, ("name", "cluster"), command)
    changes = assoc_changes(parsed, command)
    with app.changes(dry_run) as tx:
        write = tx.add_account if verb == "add" else tx.modify_account
        lines = write(
            parsed.all_names(),
            parsed.get("cluster") or app.cluster_name,
            _text(parsed, "parent"),
            _text(parsed, "description"),
            _text(parsed, "organization"),
            changes=changes,
        )
    report(app, lines, dry_run, NOTHING_MODIFIED if verb == "modify" else "")


@click.group()
def account() -> None:
    """Accounts and their associations (sacctmgr add/modify/delete/list account).

    \b
    Example:
      fscli account add physics parent=science fairshare=40
    """


@account.command("add", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("account", KEYS))
@dry_run_option
@click.pass_obj
def add(app, words, dry_run) -> None:
    """Add account(s) under a parent (default root).

    \b
    Example:
      fscli account add physics parent=science fairshare=40 GrpTRES=cpu=512
    """
    _write(app, words, dry_run, "add")


@account.command("modify", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("account", KEYS))
@dry_run_option
@click.pass_obj
def modify(app, words, dry_run) -> None:
    """Change accounts: shares, parent, description, organization, QOS, limits.

    \b
    Example:
      fscli account modify physics set fairshare=30 MaxJobs=-1
    """
    _write(app, words, dry_run, "modify")


@account.command("delete", **SETTINGS)
@click.argument("words", nargs=-1, shell_complete=words_completer("account", KEYS))
@click.option("--recursive", is_flag=True, help="Also delete sub-accounts and user associations.")
@dry_run_option
@click.pass_obj
def delete(app, words, recursive, dry_run) -> None:
    """Delete accounts (refused while sub-accounts or users remain, unless --recursive).

    \b
    Example:
      fscli account delete chem --recursive
    """
    parsed = delete_words(words, KEYS, "account delete", ("name", "cluster"))
    with app.changes(dry_run) as tx:
        lines = tx.delete_account(
            parsed.all_names(), parsed.get("cluster") or app.cluster_name, recursive
        )
    report(app, lines, dry_run, NOTHING_DELETED)


@account.command("list")
@click.option("--tree", is_flag=True, help="Show the account hierarchy.")
@output_options
@click.pass_obj
def list_(app, tree, out) -> None:
    """List accounts (with --tree: the hierarchy with shares).

    \b
    Example:
      fscli account list --tree
    """
    if tree:
        from fscli.cli.assoc import emit_assocs

        emit_assocs(app, out, ["Account", "Descr", "Org", "Share"], tree=True, users=False)
        return
    out.emit(
        ["Account", "Descr", "Org"],
        [[a.name, a.description, a.organization] for a in app.store.accounts()],
        "accounts",
    )
