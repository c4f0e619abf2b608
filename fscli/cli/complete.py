"""Shell completion of names from the store (accounts, users, QOS, partitions, ...).

Every TAB re-runs fscli: the names come from :mod:`fscli.api.names`, which reads a store
file with the plain ``sqlite3`` module. It completes bare names and the value after
``key=`` (``fscli user add bob account=ph<TAB>``); keys themselves complete too.

The completers are objects, not closures, and import no click: the fast path
(:mod:`fscli.cli.fast`) finds them in the generated grammar by their kind and keys and
asks the same :meth:`WordsCompleter.values` for the answer click would get.
"""

from __future__ import annotations

import os

# key (canonical, lower case) -> what its value names
VALUE_KINDS = {
    "account": "account",
    "accounts": "account",
    "acct": "account",
    "parent": "account",
    "defaultaccount": "account",
    "user": "user",
    "users": "user",
    "qos": "qos",
    "defaultqos": "qos",
    "partition": "partition",
    "partitions": "partition",
    "cluster": "cluster",
    "clusters": "cluster",
    "queue": "queue",
}


def skipped_while_completing(callback):
    """An option's callback that click does not run while it completes a TAB's words
    (``ctx.resilient_parsing``): one that prints or exits, like sshare's ``-e``. The mark
    lets the fast path (:mod:`fscli.cli.fast`) complete such a command's words too, as
    its callback does nothing there."""

    def run(ctx, param, value):
        return value if ctx.resilient_parsing else callback(ctx, param, value)

    run.__doc__, run.skipped_while_completing = callback.__doc__, True  # type: ignore[attr-defined]
    return run


def store_names(db: str | None, kind: str, prefix: str) -> list[str]:
    """Names of one kind starting with ``prefix`` in the store ``db`` names (``--db``'s
    value, else ``FSCLI_DB`` or the default); nothing (never an error) without a store."""
    from fscli.api.names import complete

    return complete(db, kind, prefix)


def names(ctx, kind: str, prefix: str) -> list[str]:
    """:func:`store_names` in the store the command line of ``ctx`` names."""
    root = ctx.find_root() if ctx is not None else None
    return store_names(root.params.get("db") if root is not None else None, kind, prefix)


def _bash_current_word() -> str | None:
    """The word under the cursor as bash split it (Click hides a lone "=")."""
    words, index = os.environ.get("COMP_WORDS"), os.environ.get("COMP_CWORD")
    if words is None or index is None or not index.isdigit():
        return None
    parts = words.split()
    position = int(index)
    return parts[position] if position < len(parts) else ""


class NamesCompleter:
    """A ``shell_complete`` callback for a parameter whose value names one ``kind``."""

    def __init__(self, kind: str):
        self.kind = kind

    def __call__(self, ctx, param, incomplete: str) -> list[str]:
        return names(ctx, self.kind, incomplete)


class WordsCompleter:
    """A ``shell_complete`` callback for a command's ``key=value`` words argument: the
    command's own names (``name_kind``) and its keys (``keys``: alias -> canonical)."""

    def __init__(self, name_kind: str | None, keys: dict[str, str]):
        self.name_kind = name_kind
        self.keys = keys

    def __call__(self, ctx, param, incomplete: str):
        from click.shell_completion import CompletionItem

        def lookup(kind: str, prefix: str) -> list[str]:
            return names(ctx, kind, prefix)

        before = list(ctx.params.get(param.name) or ())
        return [CompletionItem(value) for value in self.values(before, incomplete, lookup)]

    def values(self, before: list[str], incomplete: str, lookup) -> list[str]:
        """What completes ``incomplete`` after the words ``before``; ``lookup(kind, prefix)``
        gives the store's names."""
        if _bash_current_word() == "=" and before:  # "account=" + TAB: Click dropped the "="
            incomplete = "="
        # bash splits "account=ph" into "account", "=", "ph" (COMP_WORDBREAKS has '='):
        # then only the part after '=' is replaced, so answer bare values.
        if before and (before[-1] == "=" or incomplete.startswith("=")):
            key = before[-2] if before[-1] == "=" and len(before) > 1 else before[-1]
            kind = VALUE_KINDS.get(key.rstrip("+-").lower())
            value = incomplete.removeprefix("=")
            lead = "=" if incomplete.startswith("=") else ""
            return [lead + n for n in lookup(kind, value)] if kind else []
        if "=" in incomplete:
            key, _, value = incomplete.partition("=")
            base = key.rstrip("+-").lower()
            kind = VALUE_KINDS.get(base) or VALUE_KINDS.get(self.keys.get(base, ""))
            if kind is None:
                return []
            head, _, last = value.rpartition(",")
            lead = f"{key}={head + ',' if head else ''}"
            return [lead + n for n in lookup(kind, last)]
        found = lookup(self.name_kind, incomplete) if self.name_kind else []
        low = incomplete.lower()
        canon = sorted({c for c in self.keys.values()})
        return found + [f"{k}=" for k in canon if k.lower().startswith(low) and k != "name"]


words_completer = WordsCompleter
"""The name the command modules use: ``shell_complete=words_completer("user", KEYS)``."""
