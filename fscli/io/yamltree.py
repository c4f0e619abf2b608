"""The YAML tree format: a whole cluster as one readable file (schema: docs/yaml-tree.md).

Loading composes the YAML *node* tree with ``yaml.SafeLoader`` and walks it, instead
of loading plain Python objects, so that every error names its line and its place in
the document::

    tree.yaml:42: accounts.science.children.physics.fairshare: expected an integer or "parent"

Walking nodes also catches what ``yaml.safe_load`` hides: a key given twice in one
mapping. Scalars that are names, times and TRES strings are read as written (YAML
1.1 would turn ``10:00:00`` into 36000 and ``no`` into False); only counts and
factors are read as typed numbers.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from fscli.engine import config as configmod
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import PARTITION_SETTINGS, Partition
from fscli.engine.timestr import format_mins, parse_duration_mins
from fscli.engine.treespec import (
    ROOT,
    AccountSpec,
    ClusterSpec,
    QosSpec,
    TreeSpec,
    UserAssocSpec,
    UserSpec,
    default_organization,
    parse_admin_level,
    parse_limit_value,
    parse_qos_flag,
    parse_qos_list,
    parse_shares,
)
from fscli.engine.tres import format_tres, parse_tres
from fscli.errors import FscliError, InvalidValue, did_you_mean

ASSOC_KEYS = ("fairshare", "limits", "qos", "default_qos", "priority")
TOP_KEYS = ("cluster", "priority", "qos", "partitions", "accounts", "users")
CLUSTER_KEYS = ("name", "nodes", "cpus", "tres", *ASSOC_KEYS)
ACCOUNT_KEYS = ("description", "organization", "parent", *ASSOC_KEYS, "children")
USER_KEYS = ("default_account", "admin_level", "coordinator_of", "associations")
USER_ASSOC_KEYS = ("account", "partition", *ASSOC_KEYS)
QOS_KEYS = (
    "description",
    "priority",
    "flags",
    "usage_factor",
    "limit_factor",
    "usage_threshold",
    "grace_time",
    "limits",
)
PARTITION_KEYS = PARTITION_SETTINGS

MAX_NUMBER = 0xFFFFFFFE  # Slurm's largest 32-bit value that is not INFINITE
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_NULL_TAG = "tag:yaml.org,2002:null"

Fields = dict[str, tuple[Node, Node]]


def load(text: str, source: str = "tree.yaml") -> TreeSpec:
    """Parse and validate a YAML tree; errors read ``SOURCE:LINE: PATH: MESSAGE``."""
    try:
        root = _compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark else ""
        what = exc.problem or exc.context or "invalid YAML"
        raise InvalidValue(f"{source}{line}: YAML syntax error: {what}") from None
    except yaml.YAMLError as exc:
        raise InvalidValue(f"{source}: YAML syntax error: {exc}") from None
    if root is None:
        raise InvalidValue(f"{source}:1: the file is empty: it needs at least a cluster: name")
    return _Loader(source).tree(root)


def dump(spec: TreeSpec) -> str:
    """The YAML text of a tree: deterministic (sorted names), re-readable by :func:`load`."""
    doc: dict[str, Any] = {"cluster": _cluster_doc(spec.cluster)}
    if spec.priority:
        doc["priority"] = {k: _number_or_text(spec.priority[k]) for k in sorted(spec.priority)}
    if spec.qos:
        doc["qos"] = {n: _qos_doc(spec.qos[n]) for n in sorted(spec.qos)}
    if spec.partitions:
        doc["partitions"] = {n: _partition_doc(spec.partitions[n]) for n in sorted(spec.partitions)}
    kids = spec.children_map()
    if spec.accounts:
        doc["accounts"] = _accounts_doc(spec, kids, ROOT)
    if spec.users:
        doc["users"] = {n: _user_doc(spec.users[n]) for n in sorted(spec.users)}
    return yaml.dump(
        doc,
        Dumper=_Dumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=100,
    )


# ---------------------------------------------------------------- composing


def _compose(text: str) -> Node | None:
    """The YAML node tree of ``text``: :class:`_Composer` for plain block YAML, else PyYAML."""
    try:
        return _Composer(text).document()
    except _Unusual:
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


class _Unusual(Exception):
    """The text uses YAML beyond :class:`_Composer`'s subset: PyYAML composes it."""


class _Mark:
    """The part of ``yaml.Mark`` the loader reads: the 0-based line."""

    __slots__ = ("line",)

    def __init__(self, line: int):
        self.line = line


_RESOLVERS = yaml.SafeLoader.yaml_implicit_resolvers
_STR_TAG = "tag:yaml.org,2002:str"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
# what PyYAML refuses (NON_PRINTABLE), line breaks other than \n and \r\n, tabs, a BOM
_AVOID = re.compile(
    "[^\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
    "\U00010000-\U0010ffff]|\r(?!\n)"
)
_PLAIN_START = re.compile(r"[^-?:,\[\]{}#&*!|>'\"%@`\s]|[-?:][^\s]")
# in a flow collection "?" opens a key and ends a plain scalar, wherever it stands
_FLOW_ITEM = re.compile(
    r"(?:[^-?:,\[\]{}#&*!|>'\"%@`\s]|-[^\s,\[\]{}:#'\"?])"
    r"[^,\[\]{}:#'\"?]*"
)


class _Composer:
    """PyYAML's nodes for the block YAML that people and :func:`dump` write, fast.

    The subset: block mappings and sequences (also a sequence indented like its
    key), one-line plain and quoted scalars, one-line flow sequences and mappings of
    plain scalars, comments. It yields the nodes, tags and lines ``yaml.compose``
    would, faster than PyYAML's C composer (whose cost is building Python objects for
    every event and mark; about 1.5 times on an export of 100,000 associations). Anything else (anchors, tags, block scalars,
    multi-line scalars, documents markers, tabs, syntax errors) raises
    :class:`_Unusual` and PyYAML composes the text, errors included.
    """

    def __init__(self, text: str):
        if _AVOID.search(text):
            raise _Unusual
        self.lines: list[tuple[int, str, _Mark]] = []  # (indent, content, mark)
        for number, raw in enumerate(text.split("\n")):
            content = raw.rstrip(" \r")
            stripped = content.lstrip(" ")
            if not stripped or stripped[0] == "#":
                continue
            if stripped.startswith(("---", "...", "%")):
                raise _Unusual
            self.lines.append((len(content) - len(stripped), stripped, _Mark(number)))
        self.lines.append((-1, "", _Mark(0)))  # the end: shallower than any block
        self.pos = 0
        self.tags: dict[str, str] = {}

    def document(self) -> Node | None:
        if len(self.lines) == 1:
            return None
        node = self.block(self.lines[0][0])
        if self.pos != len(self.lines) - 1:
            raise _Unusual
        return node

    def block(self, indent: int) -> Node:
        """The mapping or sequence whose lines start at column ``indent``."""
        content = self.lines[self.pos][1]
        if content == "-" or content.startswith("- "):
            return self.sequence(indent)
        return self.mapping(indent)

    def sequence(self, indent: int) -> SequenceNode:
        lines = self.lines
        items: list[Node] = []
        mark = lines[self.pos][2]
        while True:
            col, content, line_mark = lines[self.pos]
            if col != indent or not (content == "-" or content.startswith("- ")):
                break
            rest = content[1:].lstrip(" ")
            if not rest:
                self.pos += 1
                items.append(self.nested(indent, line_mark, False))
            elif (
                rest[0] not in "[{'\""
                and ": " in rest
                or rest.endswith(":")
                or rest.startswith("- ")
                or rest == "-"
            ):
                # an item that opens a mapping or sequence: go on as if on its own line
                lines[self.pos] = (col + len(content) - len(rest), rest, line_mark)
                items.append(self.block(col + len(content) - len(rest)))
            else:
                self.pos += 1
                items.append(self.value(rest, line_mark))
        return SequenceNode(_SEQ_TAG, items, mark, mark)

    def mapping(self, indent: int) -> MappingNode:
        lines, tags = self.lines, self.tags
        pairs: list[tuple[Node, Node]] = []
        mark = lines[self.pos][2]
        while True:
            col, content, line_mark = lines[self.pos]
            if col != indent:
                if col < indent:
                    break
                raise _Unusual
            cut = content.find(": ")
            if cut < 0:
                if not content.endswith(":"):
                    raise _Unusual
                cut = len(content) - 1
            key = content[:cut].rstrip(" ")
            rest = content[cut + 1 :].lstrip(" ")
            self.pos += 1
            key_node = ScalarNode(tags.get(key) or self.plain(key), key, line_mark, line_mark)
            if rest and rest[0] != "#":
                pairs.append((key_node, self.value(rest, line_mark)))
            else:
                pairs.append((key_node, self.nested(indent, line_mark, True)))
        return MappingNode(_MAP_TAG, pairs, mark, mark)

    def nested(self, indent: int, mark: _Mark, in_mapping: bool) -> Node:
        """The value of a key or ``-`` with nothing after it: the lines below, or null."""
        col, content = self.lines[self.pos][:2]
        if col > indent:
            return self.block(col)
        if in_mapping and col == indent and (content == "-" or content.startswith("- ")):
            return self.sequence(indent)
        return ScalarNode(_NULL_TAG, "", mark, mark)

    def value(self, text: str, mark: _Mark) -> Node:
        """A one-line value: plain or quoted scalar, flow sequence or mapping."""
        first = text[0]
        if first in "'\"":
            end = text.find(first, 1)
            if first == "'":
                while end > 0 and text[end + 1 : end + 2] == "'":
                    end = text.find("'", end + 2)
            tail = text[end + 1 :].lstrip(" ") if end > 0 else "?"
            body = text[1:end]
            if tail and tail[0] != "#" or first == '"' and "\\" in body:
                raise _Unusual
            return ScalarNode(
                _STR_TAG, body.replace("''", "'") if first == "'" else body, mark, mark, style=first
            )
        if first in "[{":
            return self.flow(text, mark)
        cut = text.find(" #")
        if cut >= 0:
            text = text[:cut].rstrip(" ")
        return ScalarNode(self.plain(text), text, mark, mark)

    def flow(self, text: str, mark: _Mark) -> Node:
        """``[a, b]`` or ``{k: v, k2: v2}`` of plain scalars, on one line."""
        close = "]" if text[0] == "[" else "}"
        end = text.find(close)
        tail = text[end + 1 :].lstrip(" ")
        if end < 0 or tail and tail[0] != "#":
            raise _Unusual
        inner = text[1:end].strip(" ")
        items = [item.strip(" ") for item in inner.split(",")] if inner else []
        if close == "]":
            return SequenceNode(
                _SEQ_TAG,
                [self.flow_scalar(item, mark) for item in items],
                mark,
                mark,
                flow_style=True,
            )
        pairs = []
        for item in items:
            key, sep, value = item.partition(": ")
            if not sep:
                raise _Unusual
            pairs.append((self.flow_scalar(key, mark), self.flow_scalar(value.lstrip(" "), mark)))
        return MappingNode(_MAP_TAG, pairs, mark, mark, flow_style=True)

    def flow_scalar(self, text: str, mark: _Mark) -> ScalarNode:
        if text[:1] in ("'", '"') and len(text) > 1 and text[-1] == text[0]:
            return self.value(text, mark)
        if not _FLOW_ITEM.fullmatch(text):
            raise _Unusual
        return ScalarNode(self.plain(text), text, mark, mark)

    def plain(self, value: str) -> str:
        """The tag PyYAML's resolver gives a one-line plain scalar (``int``, ``str``...)."""
        tag = self.tags.get(value)
        if tag is None:
            if (
                not _PLAIN_START.match(value)
                or ": " in value
                or " #" in value
                or value.endswith(":")
            ):
                raise _Unusual
            tag = _STR_TAG
            for candidate, regexp in _RESOLVERS.get(value[0], ()):
                if regexp.match(value):
                    tag = candidate
                    break
            self.tags[value] = tag
        return tag


# ---------------------------------------------------------------- loading


class _Loader:
    def __init__(self, source: str):
        self.source = source
        self.constructor = yaml.constructor.SafeConstructor()
        # spec path (as in treespec.Problem) -> (line, dotted YAML path)
        self.where: dict[tuple[Any, ...], tuple[int, str]] = {}
        self.account_seen: dict[str, int] = {}

    # -- helpers

    def fail(self, node: Node, path: str, message: str) -> InvalidValue:
        return InvalidValue(f"{self.source}:{node.start_mark.line + 1}: {path}: {message}")

    def mapping(self, node: Node, path: str, allowed: tuple[str, ...]) -> Fields:
        """Key -> (key node, value node); null means empty; unknown keys suggest others."""
        if isinstance(node, ScalarNode) and node.tag == _NULL_TAG:
            return {}
        if not isinstance(node, MappingNode):
            raise self.fail(node, path, "expected a mapping of key: value")
        fields: Fields = {}
        for key_node, value_node in node.value:
            key = key_node.value.strip() if key_node.__class__ is ScalarNode else ""
            if not key:
                key = self.key(key_node, path)  # raises
            if key in fields:
                first = fields[key][0].start_mark.line + 1
                raise self.fail(key_node, _join(path, key), f"given twice (first on line {first})")
            if allowed and key not in allowed:
                raise self.fail(
                    key_node,
                    _join(path, key),
                    f"unknown key{did_you_mean(key, allowed)}; known keys: {', '.join(allowed)}",
                )
            fields[key] = (key_node, value_node)
        return fields

    def key(self, node: Node, path: str) -> str:
        if not isinstance(node, ScalarNode) or not node.value.strip():
            raise self.fail(node, path, "expected a plain name as key")
        return node.value.strip()

    def text(self, node: Node, path: str) -> str:
        if not isinstance(node, ScalarNode) or node.tag == _NULL_TAG:
            raise self.fail(node, path, "expected a text value")
        return node.value

    def number(self, node: Node, path: str, kind: type, what: str) -> Any:
        tags = (_INT_TAG,) if kind is int else (_INT_TAG, _FLOAT_TAG)
        if not isinstance(node, ScalarNode) or node.tag not in tags:
            raise self.fail(node, path, f"expected {what}")
        try:
            value = self.constructor.construct_object(node)
        except (ValueError, IndexError):  # an explicit !!int or !!float tag on a non-number
            raise self.fail(node, path, f"expected {what}") from None
        if not 0 <= value <= MAX_NUMBER:  # also NaN and infinity
            most = f" at most {MAX_NUMBER}" if value > MAX_NUMBER else ""
            raise self.fail(node, path, f"expected {what}{most}")
        return kind(value)

    def names(self, node: Node, path: str) -> list[str]:
        """A list of names: a YAML sequence or one comma-separated string."""
        if isinstance(node, SequenceNode):
            return [self.text(item, f"{path}[{i}]").strip() for i, item in enumerate(node.value)]
        return [n.strip() for n in self.text(node, path).split(",") if n.strip()]

    def checked(self, node: Node, path: str, func, *args) -> Any:
        """Call a treespec/engine parser, re-raising its error at this node."""
        try:
            return func(*args)
        except FscliError as exc:
            raise self.fail(node, path, exc.message) from None

    def remember(self, spec_path: tuple[Any, ...], node: Node, path: str) -> None:
        self.where[spec_path] = (node.start_mark.line + 1, path)

    # -- sections

    def tree(self, root: Node) -> TreeSpec:
        top = self.mapping(root, "(top)", TOP_KEYS)
        if "cluster" not in top:
            raise self.fail(root, "cluster", "missing: every tree needs cluster: {name: NAME}")
        spec = TreeSpec(cluster=self.cluster(top["cluster"][1]))
        if "priority" in top:
            spec.priority = self.priority(top["priority"][1])
        if "qos" in top:
            for name, (_, vnode) in self.mapping(top["qos"][1], "qos", ()).items():
                spec.qos[name] = self.qos(name, vnode)
        if "partitions" in top:
            for name, (_, vnode) in self.mapping(top["partitions"][1], "partitions", ()).items():
                spec.partitions[name] = self.partition(name, vnode)
        if "accounts" in top:
            self.accounts(spec, top["accounts"][1], "accounts", None)
        if "users" in top:
            for name, (knode, vnode) in self.mapping(top["users"][1], "users", ()).items():
                spec.users[name] = self.user(name, knode, vnode)
        self.check(spec)
        return spec

    def check(self, spec: TreeSpec) -> None:
        for problem in spec.problems():
            for cut in range(len(problem.path), 0, -1):
                if problem.path[:cut] in self.where:
                    line, path = self.where[problem.path[:cut]]
                    break
            else:  # pragma: no cover - every spec path is remembered
                line, path = 1, ".".join(map(str, problem.path))
            raise InvalidValue(f"{self.source}:{line}: {path}: {problem.message}")

    def assoc(self, fields: Fields, path: str) -> dict[str, Any]:
        """The association settings of a cluster/account/user-association mapping."""
        out: dict[str, Any] = {}
        if "fairshare" in fields:
            node = fields["fairshare"][1]
            fpath = _join(path, "fairshare")
            is_text = isinstance(node, ScalarNode) and node.tag == "tag:yaml.org,2002:str"
            if not (
                isinstance(node, ScalarNode)
                and node.tag == _INT_TAG
                or is_text
                and node.value.strip().lower() == "parent"
            ):
                raise self.fail(node, fpath, 'expected an integer or "parent"')
            out["shares"] = self.checked(node, fpath, parse_shares, node.value)
        if "limits" in fields:
            out["limits"] = self.limits(fields["limits"][1], _join(path, "limits"), limitdefs.ASSOC)
        if "qos" in fields:
            qpath = _join(path, "qos")
            out["qos"] = self.checked(
                fields["qos"][1], qpath, parse_qos_list, self.names(fields["qos"][1], qpath)
            )
        if "default_qos" in fields:
            out["default_qos"] = self.text(fields["default_qos"][1], _join(path, "default_qos"))
        if "priority" in fields:
            out["priority"] = self.number(
                fields["priority"][1],
                _join(path, "priority"),
                int,
                "a whole number >= 0 (association priority)",
            )
        return out

    def limits(self, node: Node, path: str, scope: str) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, (knode, vnode) in self.mapping(node, path, ()).items():
            lpath = _join(path, key)
            name, value = self.checked(
                vnode, lpath, parse_limit_value, key, self.text(vnode, lpath), scope
            )
            if name in result:
                raise self.fail(knode, lpath, f"{name} given twice (under two of its names)")
            result[name] = value
        return result

    def cluster(self, node: Node) -> ClusterSpec:
        fields = self.mapping(node, "cluster", CLUSTER_KEYS)
        if "name" not in fields:
            raise self.fail(node, "cluster", "missing name: the cluster's name")
        out = self.assoc(fields, "cluster")
        for key in ("nodes", "cpus"):
            if key in fields:
                out[key] = self.number(fields[key][1], f"cluster.{key}", int, "a whole number >= 0")
        if "tres" in fields:
            out["tres"] = self.tres(fields["tres"][1], "cluster.tres")
        return ClusterSpec(name=self.text(fields["name"][1], "cluster.name").strip(), **out)

    def tres(self, node: Node, path: str) -> dict[str, int]:
        return self.checked(node, path, parse_tres, self.text(node, path), False)

    def priority(self, node: Node) -> dict[str, str]:
        result: dict[str, str] = {}
        for key, (knode, vnode) in self.mapping(node, "priority", ()).items():
            path = f"priority.{key}"
            canon, value = self.checked(
                knode, path, configmod.validate, key, self.text(vnode, path)
            )
            result[canon] = value
        return result

    def accounts(self, spec: TreeSpec, node: Node, path: str, parent: str | None) -> None:
        """Accounts nested under ``children:``; top-level ones may name ``parent:``."""
        for name, (knode, vnode) in self.mapping(node, path, ()).items():
            apath = _join(path, name)
            if name in self.account_seen:
                raise self.fail(
                    knode,
                    apath,
                    f"account '{name}' is given twice (first on line {self.account_seen[name]})",
                )
            self.account_seen[name] = knode.start_mark.line + 1
            fields = self.mapping(vnode, apath, ACCOUNT_KEYS)
            self.remember(("accounts", name), knode, apath)
            my_parent = parent or ROOT
            if "parent" in fields:
                ppath = _join(apath, "parent")
                if parent is not None:
                    raise self.fail(
                        fields["parent"][0],
                        ppath,
                        "not allowed under children: (the nesting gives the parent)",
                    )
                my_parent = self.text(fields["parent"][1], ppath).strip()
                self.remember(("accounts", name, "parent"), fields["parent"][1], ppath)
            texts: dict[str, Any] = {
                k: self.text(fields[k][1], _join(apath, k))
                for k in ("description", "organization")
                if k in fields
            }
            spec.accounts[name] = AccountSpec(
                name=name, parent=my_parent, **texts, **self.assoc(fields, apath)
            )
            if "children" in fields:
                self.accounts(spec, fields["children"][1], _join(apath, "children"), name)

    def user(self, name: str, knode: Node, node: Node) -> UserSpec:
        path = f"users.{name}"
        fields = self.mapping(node, path, USER_KEYS)
        self.remember(("users", name), knode, path)
        out: dict[str, Any] = {}
        if "default_account" in fields:
            vnode = fields["default_account"][1]
            out["default_account"] = self.text(vnode, f"{path}.default_account").strip()
            self.remember(("users", name, "default_account"), vnode, f"{path}.default_account")
        if "admin_level" in fields:
            vnode = fields["admin_level"][1]
            apath = f"{path}.admin_level"
            out["admin_level"] = self.checked(
                vnode, apath, parse_admin_level, self.text(vnode, apath)
            )
        if "coordinator_of" in fields:
            vnode = fields["coordinator_of"][1]
            cpath = f"{path}.coordinator_of"
            out["coordinator_of"] = self.names(vnode, cpath)  # UserSpec sorts, de-duplicates
            self.remember(("users", name, "coordinator_of"), vnode, cpath)
        if "associations" not in fields:
            raise self.fail(knode, path, "missing associations: (a list of accounts)")
        out["associations"] = self.user_assocs(
            name, fields["associations"][1], f"{path}.associations"
        )
        return UserSpec(name=name, **out)

    def user_assocs(self, user: str, node: Node, path: str) -> list[UserAssocSpec]:
        if not isinstance(node, SequenceNode) or not node.value:
            raise self.fail(
                node,
                path,
                "expected a list of associations (account names or mappings with account:)",
            )
        found = []  # (association, its node, its account's node, its path)
        for i, item in enumerate(node.value):
            ipath = f"{path}[{i}]"
            if isinstance(item, ScalarNode):
                found.append(
                    (UserAssocSpec(account=self.text(item, ipath).strip()), item, item, ipath)
                )
                continue
            fields = self.mapping(item, ipath, USER_ASSOC_KEYS)
            if "account" not in fields:
                raise self.fail(item, ipath, "missing account:")
            acct_node = fields["account"][1]
            partition = None
            if "partition" in fields:
                partition = self.text(fields["partition"][1], f"{ipath}.partition").strip()
            found.append(
                (
                    UserAssocSpec(
                        account=self.text(acct_node, f"{ipath}.account").strip(),
                        partition=partition,
                        **self.assoc(fields, ipath),
                    ),
                    item,
                    acct_node,
                    ipath,
                )
            )
        # problems() index the associations in the order UserSpec sorts them into (after
        # taking the first one listed as the default account)
        for i, (_, item, acct_node, ipath) in enumerate(sorted(found, key=lambda f: f[0].key)):
            self.remember(("users", user, "associations", i), item, ipath)
            self.remember(
                ("users", user, "associations", i, "account"),
                acct_node,
                ipath if acct_node is item else f"{ipath}.account",
            )
        return [f[0] for f in found]

    def qos(self, name: str, node: Node) -> QosSpec:
        path = f"qos.{name}"
        fields = self.mapping(node, path, QOS_KEYS)
        out: dict[str, Any] = {}
        if "description" in fields:
            out["description"] = self.text(fields["description"][1], f"{path}.description")
        if "priority" in fields:
            out["priority"] = self.number(
                fields["priority"][1], f"{path}.priority", int, "a whole number >= 0"
            )
        if "flags" in fields:
            fpath = f"{path}.flags"
            vnode = fields["flags"][1]
            out["flags"] = sorted(
                {self.checked(vnode, fpath, parse_qos_flag, f) for f in self.names(vnode, fpath)}
            )
        for key in ("usage_factor", "limit_factor", "usage_threshold"):
            if key in fields:
                out[key] = self.number(fields[key][1], f"{path}.{key}", float, "a number >= 0")
        if "grace_time" in fields:
            out["grace_time"] = self.number(
                fields["grace_time"][1], f"{path}.grace_time", int, "whole seconds >= 0"
            )
        if "limits" in fields:
            out["limits"] = self.limits(fields["limits"][1], f"{path}.limits", limitdefs.QOS)
        return QosSpec(name=name, **out)

    def partition(self, name: str, node: Node) -> Partition:
        path = f"partitions.{name}"
        fields = self.mapping(node, path, PARTITION_KEYS)
        out: dict[str, Any] = {}
        for key in (
            "nodes",
            "cpus",
            "priority_job_factor",
            "priority_tier",
            "max_nodes",
            "min_nodes",
            "def_mem_per_cpu",
            "def_mem_per_node",
            "max_mem_per_cpu",
        ):
            if key in fields:
                out[key] = self.number(fields[key][1], f"{path}.{key}", int, "a whole number >= 0")
        if "tres" in fields:
            out["tres"] = self.tres(fields["tres"][1], f"{path}.tres")
        if "qos" in fields:
            out["qos"] = self.text(fields["qos"][1], f"{path}.qos").strip()
        if "max_time" in fields:
            vnode = fields["max_time"][1]
            tpath = f"{path}.max_time"
            out["max_time"] = self.checked(
                vnode, tpath, parse_duration_mins, self.text(vnode, tpath), "max_time"
            )
        if "billing_weights" in fields:
            vnode = fields["billing_weights"][1]
            bpath = f"{path}.billing_weights"
            text = self.text(vnode, bpath).strip()
            self.checked(vnode, bpath, configmod.parse_tres_weights, text)
            out["billing_weights"] = text
        return Partition(name=name, **out)


def _join(path: str, key: str) -> str:
    return key if path == "(top)" else f"{path}.{key}"


# ---------------------------------------------------------------- dumping


class _Flow(list):
    """A short list written inline: ``qos: [normal, high]``."""


_BaseDumper: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's emitter: same text


class _Dumper(_BaseDumper):
    pass


_Dumper.add_representer(
    _Flow,
    lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True),
)


def _number_or_text(value: str) -> int | str:
    return int(value) if value.isdigit() else value


def _limits_doc(limits: dict[str, Any]) -> dict[str, Any]:
    """Limits in registry order, as sacctmgr shows them; counts stay YAML numbers."""
    return {
        defn.name: limits[defn.name]
        if defn.kind == "count"
        else limitdefs.format_limit(defn, limits[defn.name])
        for defn in limitdefs.LIMITS
        if defn.name in limits
    }


def _assoc_doc(item: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if item.shares != 1:
        out["fairshare"] = "parent" if item.shares_parent else item.shares
    if item.limits:
        out["limits"] = _limits_doc(item.limits)
    if item.qos:
        out["qos"] = _Flow(sorted(item.qos))
    if item.default_qos:
        out["default_qos"] = item.default_qos
    if item.priority is not None:
        out["priority"] = item.priority
    return out


def _cluster_doc(cluster: ClusterSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"name": cluster.name}
    for key in ("nodes", "cpus"):
        if getattr(cluster, key) is not None:
            out[key] = getattr(cluster, key)
    if cluster.tres:
        out["tres"] = format_tres(cluster.tres)
    out.update(_assoc_doc(cluster))
    return out


def _accounts_doc(spec: TreeSpec, kids: dict[str, list[str]], parent: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in kids.get(parent, []):
        acct = spec.accounts[name]
        doc: dict[str, Any] = {}
        if acct.description != name:
            doc["description"] = acct.description
        if acct.organization != default_organization(name, parent):
            doc["organization"] = acct.organization
        doc.update(_assoc_doc(acct))
        if kids.get(name):
            doc["children"] = _accounts_doc(spec, kids, name)
        out[name] = doc
    return out


def _user_doc(user: UserSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"default_account": user.default_account}
    if user.admin_level != "None":
        out["admin_level"] = user.admin_level
    if user.coordinator_of:
        out["coordinator_of"] = _Flow(sorted(user.coordinator_of))
    assocs: list[Any] = []
    for assoc in sorted(user.associations, key=lambda a: a.key):
        doc: dict[str, Any] = {"account": assoc.account}
        if assoc.partition:
            doc["partition"] = assoc.partition
        doc.update(_assoc_doc(assoc))
        assocs.append(doc)
    out["associations"] = assocs
    return out


def _qos_doc(qos: QosSpec) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if qos.description:
        out["description"] = qos.description
    if qos.priority:
        out["priority"] = qos.priority
    if qos.flags:
        out["flags"] = _Flow(sorted(qos.flags))
    if qos.usage_factor != 1.0:
        out["usage_factor"] = qos.usage_factor
    for key in ("limit_factor", "usage_threshold", "grace_time"):
        if getattr(qos, key) is not None:
            out[key] = getattr(qos, key)
    if qos.limits:
        out["limits"] = _limits_doc(qos.limits)
    return out


def _partition_doc(part: Partition) -> dict[str, Any]:
    defaults = Partition(name=part.name)
    out: dict[str, Any] = {}
    for key in PARTITION_KEYS:
        value = getattr(part, key)
        if value == getattr(defaults, key):
            continue
        if key == "tres":
            value = format_tres(value)
        elif key == "max_time":
            value = format_mins(value)
        out[key] = value
    return out
