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
from collections.abc import Callable

ALGORITHM_NAMES = ("fair_tree", "classic", "depth_oblivious", "linear")
"""``--algorithm``'s values (:data:`fscli.engine.config.ALGORITHMS`, a test holds them equal)."""

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

    run.__doc__, run.skipped_while_completing = callback.__doc__, True
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


def listed(found, incomplete: str, many: bool) -> list[str]:
    """``found(prefix)`` for the word being completed, or with ``many`` for its last
    comma-separated item (``-A chem,ph`` -> ``chem,physics``)."""
    head = ""
    if many:
        head, sep, incomplete = incomplete.rpartition(",")
        head += sep
    return [head + value for value in found(incomplete)]


def fixed_values(choices, prefix: str) -> list[str]:
    """The ``choices`` starting with ``prefix`` (case-insensitive), in their order."""
    low = prefix.lower()
    return [c for c in choices if c.lower().startswith(low)]


class NamesCompleter:
    """A ``shell_complete`` callback for a parameter whose value names one ``kind`` of
    store object (with ``many``: a comma-separated list of them)."""

    def __init__(self, kind: str, many: bool = False):
        self.kind = kind
        self.many = many

    def __call__(self, ctx, param, incomplete: str) -> list[str]:
        return listed(lambda prefix: names(ctx, self.kind, prefix), incomplete, self.many)


class ChoicesCompleter:
    """A ``shell_complete`` callback for a value from a fixed set that the command checks
    itself (so not a ``click.Choice``, whose errors differ): ``choices`` is the set, or a
    function giving it (read when a TAB asks, or when the fast path's grammar is made)."""

    def __init__(self, choices, many: bool = False):
        self._choices = choices
        self.many = many

    @property
    def choices(self) -> list[str]:
        found = self._choices() if callable(self._choices) else self._choices
        return list(found)

    def __call__(self, ctx, param, incomplete: str) -> list[str]:
        return listed(lambda prefix: fixed_values(self.choices, prefix), incomplete, self.many)


class WordsCompleter:
    """A ``shell_complete`` callback for a command's ``key=value`` words argument: the
    command's own names (``name_kind``) and its keys (``keys``: alias -> canonical)."""

    def __init__(self, name_kind: str | None, keys, values=None):
        self.name_kind = name_kind
        self._keys = keys
        self._values = values

    @property
    def keys(self) -> dict[str, str]:
        """alias (lower case) -> canonical key; given, or a function giving it."""
        return self._keys() if callable(self._keys) else self._keys

    @property
    def fixed(self) -> dict[str, list[str]]:
        """canonical key (lower case) -> the fixed set its value is one of (comma lists
        complete item by item)."""
        found = self._values() if callable(self._values) else self._values
        return {k.lower(): list(v) for k, v in (found or {}).items()}

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
            value = incomplete.removeprefix("=")
            lead = "=" if incomplete.startswith("=") else ""
            found = self._value_lookup(key, lookup)
            return [lead + n for n in found(value)] if found else []
        if "=" in incomplete:
            key, _, value = incomplete.partition("=")
            found = self._value_lookup(key, lookup)
            if found is None:
                return []
            return [f"{key}={v}" for v in listed(found, value, True)]
        found = lookup(self.name_kind, incomplete) if self.name_kind else []
        low = incomplete.lower()
        canon = sorted({c for c in self.keys.values()})
        return found + [f"{k}=" for k in canon if k.lower().startswith(low) and k != "name"]

    def _value_lookup(self, key: str, lookup):
        """``prefix -> values`` for the value of ``key``; None when it completes nothing."""
        base = key.rstrip("+-").lower()
        canon = self.keys.get(base, "")
        choices = self.fixed.get(canon.lower()) or self.fixed.get(base)
        if choices:
            return lambda prefix: fixed_values(choices, prefix)
        kind = VALUE_KINDS.get(base) or VALUE_KINDS.get(canon.lower())
        if kind is None:
            return None
        return lambda prefix: lookup(kind, prefix)


words_completer = WordsCompleter
"""The name the command modules use: ``shell_complete=words_completer("user", KEYS)``."""


# -- fscli sacctmgr --------------------------------------------------------------------
SACCTMGR_VERBS = {
    "add": "add",
    "create": "add",
    "modify": "modify",
    "update": "modify",
    "delete": "delete",
    "remove": "delete",
    "list": "list",
    "show": "list",
    "dump": "dump",
    "load": "load",
}
SACCTMGR_ENTITIES = {
    "add": ("account", "cluster", "coordinator", "qos", "user"),
    "list": (
        "account",
        "association",
        "cluster",
        "event",
        "qos",
        "transaction",
        "tres",
        "user",
        "wckey",
    ),
    "modify": ("account", "cluster", "qos", "user"),
    "delete": ("account", "cluster", "coordinator", "qos", "user"),
}
# canonical key -> what its value names ("own": the entity's own kind)
SACCTMGR_VALUE_KINDS = {
    "name": "own",
    "account": "account",
    "parent": "account",
    "defaultaccount": "account",
    "user": "user",
    "qos": "qos",
    "defaultqos": "qos",
    "cluster": "cluster",
    "partition": "partition",
}
SACCTMGR_OWN = {"account": "account", "user": "user", "qos": "qos", "cluster": "cluster"}


class SacctmgrCompleter:
    """The ``shell_complete`` callback of ``fscli sacctmgr``'s words: its verbs, the
    entities of each verb, each entity's keys (as sacctmgr spells them) and bare words,
    and the store's names after a key that names something (``account=ph``), after an
    entity (``show account ph``), after ``dump`` and ``-M``. ``make_table``: what
    makes the words' table (:func:`fscli.cli.sacctmgr.words.sacctmgr_table`; the fast
    path's grammar holds its result), called on first use."""

    def __init__(self, make_table: Callable[[], dict]):
        self._make_table = make_table
        self._table: dict | None = None

    @property
    def table(self) -> dict:
        if self._table is None:
            self._table = self._make_table()
        return self._table

    def __call__(self, ctx, param, incomplete: str):
        from click.shell_completion import CompletionItem

        def lookup(kind: str, prefix: str) -> list[str]:
            return names(ctx, kind, prefix)

        before = list(ctx.params.get(param.name) or ())
        return [CompletionItem(v) for v in sacctmgr_values(self.table, before, incomplete, lookup)]


def sacctmgr_values(table: dict, before: list[str], incomplete: str, lookup) -> list[str]:
    """What completes ``incomplete`` after ``fscli sacctmgr BEFORE``."""
    words, cluster_next = [], False
    for word in before:
        if cluster_next:
            cluster_next = False
        elif word in ("-M", "--cluster"):
            cluster_next = True
        elif not (word.startswith("-") and len(word) > 1):
            words.append(word)
    if cluster_next:
        return lookup("cluster", incomplete)
    if not words:
        return fixed_values(SACCTMGR_VERBS, incomplete)
    verb = _abbreviated(words[0], SACCTMGR_VERBS)
    if verb == "dump":
        if len(words) == 1:
            return lookup("cluster", incomplete)
        return fixed_values(["file="], incomplete)
    if verb == "load":
        return fixed_values(["file=", "cluster=", "clean"], incomplete)
    if verb not in SACCTMGR_ENTITIES:
        return []
    entities = SACCTMGR_ENTITIES[verb]
    if len(words) == 1:
        return fixed_values(entities, incomplete)
    entity = _abbreviated(words[1], {e: e for e in entities})
    if entity is None:
        return []
    keys = table["keys"].get(entity, [])
    own = SACCTMGR_OWN.get("user" if entity == "coordinator" else entity)

    def value_lookup(key: str):
        typed = key.rstrip("+-").lower()
        for _, canon, aliases in keys:
            if any(a.startswith(typed) and len(typed) >= n for a, n in aliases):
                kind = SACCTMGR_VALUE_KINDS.get(canon.lower())
                return _names_of(own if kind == "own" else kind, lookup)
        return None

    rest = words[2:]
    if rest and (rest[-1] == "=" or incomplete.startswith("=")):  # bash split at '='
        key = rest[-2] if rest[-1] == "=" and len(rest) > 1 else rest[-1]
        found = value_lookup(key)
        lead = "=" if incomplete.startswith("=") else ""
        return [lead + v for v in found(incomplete.removeprefix("="))] if found else []
    if "=" in incomplete:
        key, _, value = incomplete.partition("=")
        found = value_lookup(key)
        return [f"{key}={v}" for v in listed(found, value, True)] if found else []
    out = lookup(own, incomplete) if own and (verb != "add" or entity == "coordinator") else []
    out += fixed_values([f"{shown}=" for shown, _, _ in keys], incomplete)
    return out + fixed_values(table["bare"].get(verb, []), incomplete)


def _names_of(kind: str | None, lookup):
    """``prefix -> names`` of ``kind`` in the store; None for no kind."""
    return (lambda prefix: lookup(kind, prefix)) if kind else None


def _abbreviated(word: str, table: dict[str, str]) -> str | None:
    """What ``word`` names among ``table``'s words (alias -> canonical), abbreviations
    included when they name one thing."""
    low = word.lower()
    if low in table:
        return table[low]
    hits = {canon for name, canon in table.items() if name.startswith(low)}
    return hits.pop() if len(hits) == 1 else None
