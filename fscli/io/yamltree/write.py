"""TreeSpec -> the YAML tree's text: deterministic (sorted names), re-readable."""

from __future__ import annotations

from typing import Any

import yaml

from fscli.engine.config import written
from fscli.engine.limits import definitions as limitdefs
from fscli.engine.model import Partition
from fscli.engine.timestr import format_mins
from fscli.engine.treespec import (
    ROOT,
    ClusterSpec,
    QosSpec,
    TreeSpec,
    UserSpec,
    default_organization,
)
from fscli.engine.tres import format_tres
from fscli.io.yamltree.emit import Flow, emit
from fscli.io.yamltree.schema import PARTITION_KEYS


def dump(spec: TreeSpec) -> str:
    """The YAML text of a tree: deterministic (sorted names), re-readable by :func:`load`."""
    doc = document(spec)
    return emit(doc) or pyyaml_text(doc)


def pyyaml_text(doc: dict[str, Any]) -> str:
    """What :func:`emit` writes faster, for the documents it leaves to PyYAML."""
    return yaml.dump(
        doc,
        Dumper=_Dumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=100,
    )


def document(spec: TreeSpec) -> dict[str, Any]:
    """The tree as plain YAML data: names sorted, accounts nested, defaults left out."""
    doc: dict[str, Any] = {"cluster": _cluster_doc(spec.cluster)}
    if spec.priority:
        doc["priority"] = {
            k: _number_or_text(written(k, spec.priority[k])) for k in sorted(spec.priority)
        }
    if spec.qos:
        doc["qos"] = {n: _qos_doc(spec.qos[n]) for n in sorted(spec.qos)}
    if spec.partitions:
        doc["partitions"] = {n: _partition_doc(spec.partitions[n]) for n in sorted(spec.partitions)}
    kids = spec.children_map()
    if spec.accounts:
        doc["accounts"] = _accounts_doc(spec, kids, ROOT)
    if spec.users:
        doc["users"] = {n: _user_doc(spec.users[n]) for n in sorted(spec.users)}
    return doc


_BaseDumper: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's emitter: same text


class _Dumper(_BaseDumper):
    pass


_Dumper.add_representer(
    Flow,
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
        out["qos"] = Flow(sorted(item.qos))
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
        out["coordinator_of"] = Flow(sorted(user.coordinator_of))
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
        out["flags"] = Flow(sorted(qos.flags))
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
