"""YAML nodes -> a checked TreeSpec, every error naming its line and its place."""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from fscli.engine import config as configmod
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import Partition
from fscli.engine.timestr import parse_duration_mins
from fscli.engine.treespec import (
    QOS_RANGES,
    ROOT,
    AccountSpec,
    ClusterSpec,
    QosSpec,
    TreeSpec,
    UserAssocSpec,
    UserSpec,
    check_qos_number,
    parse_admin_level,
    parse_limit_value,
    parse_qos_flag,
    parse_qos_list,
    parse_shares,
)
from fscli.engine.tres import parse_tres
from fscli.errors import FscliError, InvalidValue, did_you_mean
from fscli.heap import keep_until_exit
from fscli.io.yamltree.compose import Composer, Unusual, avoided, compose
from fscli.io.yamltree.schema import (
    ACCOUNT_KEYS,
    CLUSTER_KEYS,
    FLOAT_TAG,
    INT_TAG,
    MAX_NUMBER,
    NULL_TAG,
    PARTITION_KEYS,
    QOS_KEYS,
    STR_TAG,
    TOP_KEYS,
    USER_ASSOC_KEYS,
    USER_KEYS,
)
from fscli.io.yamltree.users import block_lines, read_exported, read_users

Fields = dict[str, tuple[Node, Node]]


def load(text: str, source: str = "tree.yaml") -> TreeSpec:
    """Parse and validate a YAML tree; errors read ``SOURCE:LINE: PATH: MESSAGE``.

    A valid tree in the common block form is read by :func:`_load_fast`; any other text,
    and every error, by the node reader (:func:`compose`, then :class:`_Loader`)."""
    try:
        return _load_fast(text, source)
    except Unusual:
        return load_nodes(text, source)


def load_nodes(text: str, source: str = "tree.yaml") -> TreeSpec:
    """:func:`load` through the YAML nodes, for any text: the reference of the fast path."""
    try:
        root = compose(text)
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


_TOP_LINE = re.compile(r"\n[^ \r\n#]")
"""A top-level line, after its line break: a search that starts with the break runs as
fast as a search for the break (``^`` with ``re.M`` is tried at every character)."""


def _load_fast(text: str, source: str) -> TreeSpec:
    """The tree with its ``users:`` section read straight from the lines
    (:mod:`.users`) and the rest through the nodes, or :class:`Unusual` when either
    part is beyond the fast readers or the tree has any problem: the node reader then
    reads the whole text, and names the problem."""
    if avoided(text):
        raise Unusual
    tops = [0] if text[:1] not in ("", " ", "\r", "\n", "#") else []
    tops += [match.start() + 1 for match in _TOP_LINE.finditer(text)]
    named = [start for start in tops if text.startswith("users", start)]
    if len(named) != 1:
        raise Unusual
    start = named[0]
    end = next((top for top in tops if top > start), len(text))
    header, _, block = text[start:end].partition("\n")
    if header.rstrip(" \r") != "users:":
        raise Unusual
    composer = Composer(text[:start] + text[end:])
    root = composer.document()
    keep_until_exit(composer, root)  # the nodes of 10,000 accounts: 0.01 s to free
    if root is None or composer.lines[0][0] != 0:  # the top mapping starts at column 0
        raise Unusual
    users = read_exported(block, composer)
    if users is None:
        users = read_users(block_lines(block), composer)
    try:
        spec = _Loader(source).build(root)
    except FscliError:
        raise Unusual from None
    spec.users = users
    if spec.problems():
        raise Unusual
    return spec


class _Loader:
    def __init__(self, source: str):
        self.source = source
        self.constructor = yaml.constructor.SafeConstructor()
        # spec path (as in treespec.Problem) -> (line, dotted YAML path)
        self.where: dict[tuple[Any, ...], tuple[int, str]] = {}
        self.account_seen: dict[str, int] = {}
        # user -> (its key node, its fields, its associations' indexes in the spec's order)
        self.users: dict[str, tuple[Node, Fields, list[int]]] = {}

    # -- helpers

    def fail(self, node: Node, path: str, message: str) -> InvalidValue:
        return InvalidValue(f"{self.source}:{node.start_mark.line + 1}: {path}: {message}")

    def mapping(self, node: Node, path: str, allowed: tuple[str, ...]) -> Fields:
        """Key -> (key node, value node); null means empty; unknown keys suggest others."""
        if isinstance(node, ScalarNode) and node.tag == NULL_TAG:
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
        if not isinstance(node, ScalarNode) or node.tag == NULL_TAG:
            raise self.fail(node, path, "expected a text value")
        return node.value

    def number(self, node: Node, path: str, kind: type, what: str) -> Any:
        tags = (INT_TAG,) if kind is int else (INT_TAG, FLOAT_TAG)
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
        spec = self.build(root)
        self.check(spec)
        return spec

    def build(self, root: Node) -> TreeSpec:
        """The tree of the document ``root``, each value checked, the whole not yet."""
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
        return spec

    def check(self, spec: TreeSpec) -> None:
        for problem in spec.problems():
            line, path = self.place(problem.path)
            raise InvalidValue(f"{self.source}:{line}: {path}: {problem.message}")

    def place(self, spec_path: tuple[Any, ...]) -> tuple[int, str]:
        """(line, dotted YAML path) of the field a problem names, or of the nearest field
        remembered above it. Users (50,000 of them in a big tree) are not remembered field
        by field: a user's fields are looked up in its nodes (its associations,
        ``users.NAME.associations[i]``, indexed in the order UserSpec sorts them)."""
        if spec_path[0] == "users":
            return self.user_place(spec_path[1], spec_path[2:])
        for cut in range(len(spec_path), 0, -1):
            if spec_path[:cut] in self.where:
                return self.where[spec_path[:cut]]
        return 1, ".".join(map(str, spec_path))  # pragma: no cover - every path is remembered

    def user_place(self, name: str, within: tuple[Any, ...]) -> tuple[int, str]:
        knode, fields, order = self.users[name]
        path = f"users.{name}"
        if within[:1] in (("default_account",), ("coordinator_of",)) and within[0] in fields:
            return fields[within[0]][1].start_mark.line + 1, f"{path}.{within[0]}"
        if within[:1] == ("associations",) and len(within) > 1:
            item = fields["associations"][1].value[order[within[1]]]
            ipath = f"{path}.associations[{order[within[1]]}]"
            if within[2:3] == ("account",) and isinstance(item, MappingNode):
                account = next(v for k, v in item.value if k.value.strip() == "account")
                return account.start_mark.line + 1, f"{ipath}.account"
            return item.start_mark.line + 1, ipath
        return knode.start_mark.line + 1, path

    def assoc(self, fields: Fields, path: str) -> dict[str, Any]:
        """The association settings of a cluster/account/user-association mapping."""
        out: dict[str, Any] = {}
        if "fairshare" in fields:
            node = fields["fairshare"][1]
            fpath = _join(path, "fairshare")
            is_text = isinstance(node, ScalarNode) and node.tag == STR_TAG
            if not (
                isinstance(node, ScalarNode)
                and node.tag == INT_TAG
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
        out: dict[str, Any] = {}
        if "default_account" in fields:
            vnode = fields["default_account"][1]
            out["default_account"] = self.text(vnode, f"{path}.default_account").strip()
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
        if "associations" not in fields:
            raise self.fail(knode, path, "missing associations: (a list of accounts)")
        assocs = self.user_assocs(fields["associations"][1], f"{path}.associations")
        # problems() index the associations in the order UserSpec sorts them into (after
        # taking the first one listed as the default account): keep that order
        self.users[name] = (knode, fields, sorted(range(len(assocs)), key=lambda i: assocs[i].key))
        return UserSpec(name=name, associations=assocs, **out)

    def user_assocs(self, node: Node, path: str) -> list[UserAssocSpec]:
        if not isinstance(node, SequenceNode) or not node.value:
            raise self.fail(
                node,
                path,
                "expected a list of associations (account names or mappings with account:)",
            )
        found = []
        for i, item in enumerate(node.value):
            ipath = f"{path}[{i}]"
            if isinstance(item, ScalarNode):
                found.append(UserAssocSpec(account=self.text(item, ipath).strip()))
                continue
            fields = self.mapping(item, ipath, USER_ASSOC_KEYS)
            if "account" not in fields:
                raise self.fail(item, ipath, "missing account:")
            partition = None
            if "partition" in fields:
                partition = self.text(fields["partition"][1], f"{ipath}.partition").strip()
            found.append(
                UserAssocSpec(
                    account=self.text(fields["account"][1], f"{ipath}.account").strip(),
                    partition=partition,
                    **self.assoc(fields, ipath),
                )
            )
        return found

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
        for key in QOS_RANGES:
            if key in fields:
                vnode, kpath = fields[key][1], f"{path}.{key}"
                value = self.number(vnode, kpath, float, "a number >= 0")
                out[key] = self.checked(vnode, kpath, check_qos_number, key, value)
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
