"""Shell completion of names from the store (accounts, users, QOS, partitions, ...).

Every TAB re-runs fscli: the names come from :mod:`fscli.store.names`, which reads a store
file with the plain ``sqlite3`` module. It completes bare names and the value after
``key=`` (``fscli user add bob account=ph<TAB>``); keys themselves complete too.
"""

from __future__ import annotations

import os
from collections.abc import Callable

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


def names(ctx, kind: str, prefix: str) -> list[str]:
    """Names of one kind starting with ``prefix`` in the store the command line names
    (``--db``, ``FSCLI_DB`` or the default); nothing (never an error) without a store."""
    from fscli.api.names import complete

    root = ctx.find_root() if ctx is not None else None
    return complete(root.params.get("db") if root is not None else None, kind, prefix)


def _bash_current_word() -> str | None:
    """The word under the cursor as bash split it (Click hides a lone "=")."""
    words, index = os.environ.get("COMP_WORDS"), os.environ.get("COMP_CWORD")
    if words is None or index is None or not index.isdigit():
        return None
    parts = words.split()
    position = int(index)
    return parts[position] if position < len(parts) else ""


def words_completer(name_kind: str | None, keys: dict[str, str]) -> Callable:
    """A ``shell_complete`` callback for a command's ``key=value`` words argument."""

    def complete(ctx, param, incomplete: str):
        from click.shell_completion import CompletionItem

        before = list(ctx.params.get(param.name) or ())
        if _bash_current_word() == "=" and before:  # "account=" + TAB: Click dropped the "="
            incomplete = "="
        # bash splits "account=ph" into "account", "=", "ph" (COMP_WORDBREAKS has '='):
        # then only the part after '=' is replaced, so answer bare values.
        if before and (before[-1] == "=" or incomplete.startswith("=")):
            key = before[-2] if before[-1] == "=" and len(before) > 1 else before[-1]
            kind = VALUE_KINDS.get(key.rstrip("+-").lower())
            value = incomplete.removeprefix("=")
            lead = "=" if incomplete.startswith("=") else ""
            return [CompletionItem(lead + n) for n in names(ctx, kind, value)] if kind else []
        if "=" in incomplete:
            key, _, value = incomplete.partition("=")
            base = key.rstrip("+-").lower()
            kind = VALUE_KINDS.get(base) or VALUE_KINDS.get(keys.get(base, ""))
            if kind is None:
                return []
            head, _, last = value.rpartition(",")
            lead = f"{key}={head + ',' if head else ''}"
            return [CompletionItem(lead + n) for n in names(ctx, kind, last)]
        items = [CompletionItem(n) for n in names(ctx, name_kind, incomplete)] if name_kind else []
        low = incomplete.lower()
        canon = sorted({c for c in keys.values()})
        items += [
            CompletionItem(f"{k}=", type="plain")
            for k in canon
            if k.lower().startswith(low) and k != "name"
        ]
        return items

    return complete
