"""sacctmgr dump/load flat files: ``Cluster - 'c'``, ``Parent - 'a'``, ``Account``, ``User``.

Reading follows ``load_sacctmgr_cfg_file`` (src/sacctmgr/file_functions.c): ``#`` starts
a comment unless escaped, a trailing ``\\`` continues the line, ``\\x`` stands for
``x``, values may be quoted with ``'`` or ``"``, names are lower-cased, the Cluster
line comes first, a ``Parent`` must already be defined, lines before any ``Parent``
hang off ``root``, a user's DefaultAccount defaults to the account of its first line,
and ``Fairshare=2147483647`` is ``FairShare=parent``. Memory is read in every unit
Slurm writes, decimals included (``62.50G`` = 64000 MB), which real sacctmgr cannot.

Writing follows ``sacctmgr dump``: the same comment header, the Cluster line with the
root association's settings, then one ``Parent`` block per account that has children,
depth-first from root with siblings alphabetical; in a block user lines (by user, then
partition) come before sub-account lines. Limit keys appear in Slurm's order.
Differences from Slurm's text, all deliberate:

- memory is written as a whole number of units (``64000M``, ``2G``) where Slurm would
  print a rounded fraction (``62.50G``) that its own load cannot read back;
- ``MinPrioThresh=`` is written when set (Slurm's dump drops it; its load reads it);
- descriptions and organizations keep their case (Slurm's load lower-cases them).

Errors are :class:`InvalidValue` with Slurm's text and the line number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import SHARES_PARENT
from fscli.engine.treespec import (
    ROOT,
    AccountSpec,
    AssocSettings,
    ClusterSpec,
    TreeSpec,
    UserAssocSpec,
    UserSpec,
    parse_admin_level,
    parse_limit_value,
    parse_priority,
    parse_qos_list,
    parse_shares,
)
from fscli.engine.tres import format_tres
from fscli.errors import FscliError, InvalidValue

HEADER = (
    "# To edit this file start with a cluster line for the new cluster\n"
    "# Cluster - 'cluster_name':MaxTRESPerJob=node=50\n"
    "# Followed by Accounts you want in this fashion (root is created by default)...\n"
    "# Parent - 'root'\n"
    "# Account - 'cs':MaxTRESPerJob=node=5:MaxJobs=4:MaxTRESMinsPerJob=cpu=20:FairShare=399:"
    "MaxWallDurationPerJob=40:Description='Computer Science':Organization='LC'\n"
    "# Any of the options after a ':' can be left out and they can be in any order.\n"
    "# If you want to add any sub accounts just list the Parent THAT HAS ALREADY\n"
    "# BEEN CREATED before the account line in this fashion...\n"
    "# Parent - 'cs'\n"
    "# Account - 'test':MaxTRESPerJob=node=1:MaxJobs=1:MaxTRESMinsPerJob=cpu=1:FairShare=1:"
    "MaxWallDurationPerJob=1:Description='Test Account':Organization='Test'\n"
    "# To add users to a account add a line like this after a Parent - 'line'\n"
    "# User - 'lipari':MaxTRESPerJob=node=2:MaxJobs=3:MaxTRESMinsPerJob=cpu=4:FairShare=1:"
    "MaxWallDurationPerJob=1\n"
)

# Limit keys in the order `print_file_add_limits_to_line` writes them; MinPrioThreshold
# goes under the spelling sacctmgr's load accepts.
LIMIT_ORDER = (
    "GrpTRESMins",
    "GrpTRESRunMins",
    "GrpTRES",
    "GrpJobs",
    "GrpJobsAccrue",
    "GrpSubmitJobs",
    "GrpWall",
    "MaxTRESMinsPerJob",
    "MaxTRESRunMins",
    "MaxTRESPerJob",
    "MaxTRESPerNode",
    "MaxJobs",
    "MaxJobsAccrue",
    "MaxSubmitJobs",
    "MaxWallDurationPerJob",
    "MinPrioThreshold",
)
_KEY_SPELLING = {"MinPrioThreshold": "MinPrioThresh"}

_OBJECTS = {
    "cluster": "cluster",
    "machine": "cluster",
    "parent": "parent",
    "account": "account",
    "project": "account",
    "user": "user",
}
_ASSOC_KEYS = {
    "fairshare": "shares",
    "shares": "shares",
    "qos": "qos",
    "qoslevel": "qos",
    "defaultqos": "default_qos",
    "priority": "priority",
}
_OBJECT_KEYS = {
    "cluster": {},
    "parent": {},
    "account": {"description": "description", "organization": "organization"},
    "user": {
        "defaultaccount": "default_account",
        "adminlevel": "admin_level",
        "coordinator": "coordinator_of",
        "partition": "partition",
    },
}
_UNSUPPORTED = ("classification", "comment", "defaultwckey", "wckeys")
_TOKEN = re.compile(r"""'[^']*'|"[^"]*"|[^:'"]+|:|['"]""")
_FIELD = r"""(?:[^:'"]|'[^']*'|"[^"]*")*"""
_WELL_QUOTED = re.compile(f"{_FIELD}(?::{_FIELD})*")
_FIELDS = re.compile(r"""(?:[^:'"]+|'[^']*'|"[^"]*")+""")
_ESCAPE = re.compile(r"\\(.?)", re.DOTALL)
NO_CLUSTER = "You need to specify a cluster name first with 'Cluster - $NAME' in your file"


class _LineError(Exception):
    """A problem on the current line; :func:`parse` adds the line number."""


def parse(text: str, *, cluster: str | None = None, source: str = "") -> TreeSpec:
    """Read a flat file into a :class:`TreeSpec`.

    ``cluster``: the cluster the caller loads into; a file for another cluster is an
    error. ``source`` (a file name) prefixes error messages.
    """
    reader = _Reader(cluster)
    try:
        for lineno, line in _logical_lines(text):
            reader.line(lineno, line)
        return reader.finish()
    except _LineError as exc:
        message = str(exc)
    except FscliError as exc:
        message = exc.message
    prefix = f"{source}: " if source else ""
    where = f"line({reader.lineno}) " if reader.lineno else ""
    raise InvalidValue(f"{prefix}{where}{message}")


def write(spec: TreeSpec, places: dict[tuple[str, str, str | None], int] | None = None) -> str:
    """The flat-file text of a tree, as ``sacctmgr dump`` lays it out. ``places``: where
    each (user, account, partition) stands among its siblings (the store's nested set);
    sacctmgr lists a user's associations under one account in that order (its newest
    partition first), not by partition name."""
    out = [HEADER, f"Cluster - {_quote(spec.cluster.name)}{_settings(spec.cluster)}\n"]
    kids = spec.children_map()
    assocs = spec.user_assocs_by_account()
    for acct in spec.account_order():
        rows = assocs.get(acct, [])
        if places:
            rows = sorted(rows, key=lambda r: (r[0], places.get((r[0], acct, r[1].partition), 0)))
        subs = kids.get(acct, [])
        if not rows and not subs:
            continue
        out.append(f"Parent - {_quote(acct)}\n")
        for uname, assoc in rows:
            out.append(_user_line(spec.users[uname], assoc))
        for name in subs:
            out.append(_account_line(spec.accounts[name]))
    return "".join(out)


# ---------------------------------------------------------------- reading


def _logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """(first physical line number, text) with comments, continuations and escapes done."""
    start = 0
    parts: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if "#" in raw:
            raw = _strip_comment(raw)
        body = raw.rstrip()
        continued = False
        if body.endswith("\\"):
            run = len(body) - len(body.rstrip("\\"))
            if run % 2:
                body, continued = body[:-1], True
        if not parts:
            start = number
        parts.append(body if continued else raw)
        if continued:
            continue
        line = "".join(parts)
        parts = []
        if "\\" in line:
            line = _ESCAPE.sub(r"\1", line)
        line = line.strip()
        if line:
            yield start, line
    if parts:
        line = _ESCAPE.sub(r"\1", "".join(parts)).strip()
        if line:
            yield start, line


def _strip_comment(line: str) -> str:
    """Cut at the first ``#`` not escaped by an odd number of backslashes."""
    slashes = 0
    for i, char in enumerate(line):
        if char == "#" and slashes % 2 == 0:
            return line[:i]
        slashes = slashes + 1 if char == "\\" else 0
    return line


def _split_options(text: str) -> list[str]:
    """Split on ``:`` outside quotes; an unbalanced quote is an error.

    Most lines quote only in single quotes, and no quoted value holds a ``:``: then each
    piece between colons holds its quotes in pairs, and the pieces are the fields
    (:func:`_split_quoted` finds the same, three times slower)."""
    if '"' not in text:
        pieces = text.split(":")
        for piece in pieces:
            if piece.count("'") % 2:
                break
        else:
            return [p.strip() for p in pieces if p and not p.isspace()]
    return _split_quoted(text)


def _split_quoted(text: str) -> list[str]:
    """:func:`_split_options` of any text."""
    if _WELL_QUOTED.fullmatch(text):
        return [f.strip() for f in _FIELDS.findall(text) if not f.isspace()]
    fields: list[str] = []
    current: list[str] = []
    for token in _TOKEN.findall(text):
        if token == ":":
            fields.append("".join(current))
            current = []
        elif token in ("'", '"'):
            raise _LineError(
                f"There is a problem with option {''.join(current)}{token} with quotes."
            )
        else:
            current.append(token)
    fields.append("".join(current))
    return [f.strip() for f in fields if f.strip()]


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


class _Reader:
    """State of one load: the cluster, the current parent, what each line defined."""

    def __init__(self, cluster: str | None):
        self.wanted = cluster.lower() if cluster else None
        self.spec: TreeSpec | None = None
        self.parent = ROOT
        self.account_lines: dict[str, int] = {}
        self.user_lines: dict[str, int] = {}
        self.assoc_lines: dict[tuple[str, str, str], int] = {}
        self.lineno = 0
        self.items: dict[tuple[str, str], tuple[str, str, Any]] = {}  # (kind, text) -> _option

    def line(self, lineno: int, line: str) -> None:
        self.lineno = lineno
        dash = line.find("-")
        kind = _OBJECTS.get(line[:dash].strip().lower()) if dash > 0 else None
        if kind is None:
            raise _LineError(
                f"Misformatted line: {line} (expected a Cluster, Parent, Account "
                "or User line like Account - 'name':Fairshare=1)"
            )
        rest = line[dash + 1 :].strip()
        if not rest:
            raise _LineError(f"Nothing after object name '{line[:dash].strip()}'.")
        name, options = self._options(kind, rest)
        if kind == "cluster":
            self._cluster(name, options)
            return
        if self.spec is None:
            raise _LineError(NO_CLUSTER)
        if kind == "parent":
            self._parent(name)
        elif kind == "account":
            self._account(name, options)
        else:
            self._user(name, options)

    def _options(self, kind: str, rest: str) -> tuple[str, dict[str, Any]]:
        """The object's name and its options, parsed to values."""
        fields = _split_options(rest)
        first = fields[0] if fields else ""
        if not first or ("=" in first and first[0] not in "'\""):
            raise _LineError(f"No name given on this {kind.capitalize()} line")
        name = _unquote(first).strip().lower()
        if not name:
            raise _LineError(f"No name given on this {kind.capitalize()} line")
        options: dict[str, Any] = {}
        settings: dict[str, Any] = {}
        items = self.items
        for item in fields[1:]:
            # Dumps repeat the same few options on thousands of lines: each text is read
            # once (an error is raised again each time); what is mutable is copied.
            known = items.get((kind, item))
            if known is None:
                known = items[kind, item] = self._option(kind, item)
            where, attr, value = known
            if where == "option":
                options[attr] = list(value) if attr == "coordinator_of" else value
            elif where == "setting":
                settings[attr] = list(value) if attr == "qos" else value
            elif where == "limit":
                limits = settings.setdefault("limits", {})
                limits[attr] = dict(value) if isinstance(value, dict) else value
        options["settings"] = settings
        return name, options

    def _option(self, kind: str, item: str) -> tuple[str, str, Any]:
        """(where it goes: ``option`` of the object, ``setting`` or ``limit`` of its
        association, or ``blank``; the attribute; the value) of one ``Key=value``."""
        key, sep, raw = item.partition("=")
        if not sep:
            raise _LineError(f"Bad format on {item}: End your option with an '=' sign")
        value = _unquote(raw.strip())
        if value == "":
            return "blank", "", None  # sacctmgr: "blank field given ... discarding"
        key = key.strip()
        low = key.lower()
        field_name = _OBJECT_KEYS[kind].get(low)
        if field_name is not None:
            return "option", field_name, self._object_value(field_name, value, item)
        if kind == "parent" or low in _UNSUPPORTED:
            why = "fscli does not keep this" if low in _UNSUPPORTED else "not valid here"
            raise _LineError(f"Unknown option: {item} ({why})")
        try:
            attr, parsed = _assoc_value(low, key, value)
        except FscliError as exc:
            raise _LineError(f"Unknown option: {item} ({exc.message})") from None
        if attr in ("shares", "qos", "default_qos", "priority"):
            return "setting", attr, parsed
        return "limit", attr, parsed

    @staticmethod
    def _object_value(field_name: str, value: str, item: str) -> Any:
        if field_name in ("description", "organization"):
            return value
        if field_name == "admin_level":
            try:
                return parse_admin_level(value)
            except FscliError as exc:
                raise _LineError(f"Unknown option: {item} ({exc.message})") from None
        if field_name == "coordinator_of":
            return sorted({a.strip().lower() for a in value.split(",") if a.strip()})
        return value.lower()

    def _cluster(self, name: str, options: dict[str, Any]) -> None:
        if self.spec is not None:
            raise _LineError("You can only add one cluster at a time.")
        if self.wanted and name != self.wanted:
            raise _LineError(f"this file is for cluster '{name}', not '{self.wanted}'")
        self.spec = TreeSpec(cluster=ClusterSpec(name=name, **options.pop("settings")))

    def _parent(self, name: str) -> None:
        if name != ROOT and name not in self.account_lines:
            raise _LineError(
                f"You need to add this parent ({name}) as a child before you can "
                "add children to it."
            )
        self.parent = name

    def _account(self, name: str, options: dict[str, Any]) -> None:
        assert self.spec is not None
        if name == ROOT:
            raise _LineError(
                "account 'root' is created with the cluster; set its limits on the Cluster line"
            )
        if name in self.account_lines:
            first = self.account_lines[name]
            raise _LineError(f"account '{name}' is already defined on line({first})")
        settings = options.pop("settings")
        self.spec.accounts[name] = AccountSpec(name=name, parent=self.parent, **options, **settings)
        self.account_lines[name] = self.lineno

    def _user(self, name: str, options: dict[str, Any]) -> None:
        assert self.spec is not None
        settings = options.pop("settings")
        partition = options.pop("partition", None)
        key = (name, self.parent, partition or "")
        if key in self.assoc_lines:
            where = f" partition '{partition}'" if partition else ""
            raise _LineError(
                f"user '{name}' already has an association with account "
                f"'{self.parent}'{where} (line({self.assoc_lines[key]}))"
            )
        self.assoc_lines[key] = self.lineno
        assoc = UserAssocSpec(account=self.parent, partition=partition, **settings)
        user = self.spec.users.get(name)
        if user is None:
            options.setdefault("default_account", self.parent)
            self.spec.users[name] = UserSpec(name=name, associations=[assoc], **options)
            self.user_lines[name] = self.lineno
            return
        for field_name, value in options.items():
            if getattr(user, field_name) != value:
                raise _LineError(
                    f"user '{name}': {field_name} '{value}' differs from "
                    f"'{getattr(user, field_name)}' given on "
                    f"line({self.user_lines[name]})"
                )
        user.associations.append(assoc)

    def finish(self) -> TreeSpec:
        self.lineno = 0
        if self.spec is None:
            raise _LineError(f"{NO_CLUSTER} (no Cluster line found)")
        for problem in self.spec.problems():
            if problem.path[0] == "users":
                self.lineno = self.user_lines[problem.path[1]]
                raise _LineError(f"user '{problem.path[1]}': {problem.message}")
            raise _LineError(problem.message)  # pragma: no cover - parents checked per line
        for user in self.spec.users.values():
            user.associations.sort(key=lambda a: a.key)
        return self.spec


def _assoc_value(low: str, key: str, value: str) -> tuple[str, Any]:
    """(settings attribute or canonical limit name, parsed value) of one option."""
    attr = _ASSOC_KEYS.get(low)
    if attr == "shares":  # the dump writes FairShare=parent as the number Slurm stores
        return attr, SHARES_PARENT if value.strip() == str(SHARES_PARENT) else parse_shares(value)
    if attr == "qos":
        return attr, parse_qos_list(value.lower().split(","))
    if attr == "default_qos":
        return attr, value.lower()
    if attr == "priority":
        return attr, parse_priority(value)
    return parse_limit_value(key, value, limitdefs.ASSOC)


# ---------------------------------------------------------------- writing


def _quote(value: str) -> str:
    text = str(value)
    if "\n" in text or ("'" in text and '"' in text):
        raise InvalidValue(
            f"cannot write {text!r} to a flat file: it holds a newline or both quote characters"
        )
    text = text.replace("\\", "\\\\").replace("#", "\\#")
    mark = '"' if "'" in text else "'"
    return f"{mark}{text}{mark}"


def _limit_text(name: str, value: Any) -> str:
    kind = limitdefs.lookup(name).kind  # type: ignore[union-attr]
    if kind in ("tres", "tres_mins"):
        return format_tres(value, units=kind == "tres")
    return str(value)


def _settings(assoc: AssocSettings) -> str:
    """``:DefaultQOS=..:Fairshare=..:<limits>:Priority=..:QOS=..`` in Slurm's order."""
    parts = []
    if assoc.default_qos:
        parts.append(f":DefaultQOS={_quote(assoc.default_qos)}")
    parts.append(f":Fairshare={assoc.shares}")
    for name in LIMIT_ORDER:
        if name in assoc.limits:
            key = _KEY_SPELLING.get(name, name)
            parts.append(f":{key}={_limit_text(name, assoc.limits[name])}")
    if assoc.priority is not None:
        parts.append(f":Priority={assoc.priority}")
    if assoc.qos:
        parts.append(f":QOS={_quote(','.join(sorted(assoc.qos)))}")
    return "".join(parts)


def _account_line(acct: AccountSpec) -> str:
    return (
        f"Account - {_quote(acct.name)}:Description={_quote(acct.description)}"
        f":Organization={_quote(acct.organization)}{_settings(acct)}\n"
    )


def _user_line(user: UserSpec, assoc: UserAssocSpec) -> str:
    parts = [f"User - {_quote(user.name)}"]
    if assoc.partition:
        parts.append(f":Partition={_quote(assoc.partition)}")
    parts.append(f":DefaultAccount={_quote(user.default_account)}")
    if user.admin_level != "None":
        parts.append(f":AdminLevel={_quote(user.admin_level)}")
    if user.coordinator_of:
        parts.append(f":Coordinator={_quote(','.join(sorted(user.coordinator_of)))}")
    parts.append(_settings(assoc))
    parts.append("\n")
    return "".join(parts)
