"""What a change replaced, for ``fscli history``: each changed setting as ``KEY=OLD -> NEW``.

An audit log that keeps only the new values cannot answer "what was it before?". A
writer takes :func:`settings` of a row before and after its change (the row's settings as
the commands take them: keys as typed, times as D-HH:MM:SS, TRES with units), and
:func:`changed` keeps the ones that differ; the history row keeps those triples (JSON,
:func:`encode`) and their text (:func:`describe`). A setting that is unset reads ``-``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.timestr import format_mins, format_secs
from fscli.engine.tres import format_tres, parse_tres
from fscli.store.assoc_fields import loaded_limit

Triple = tuple[str, "str | None", "str | None"]
UNSET = "-"


def _text(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _tres(value: Any) -> str:
    return format_tres(parse_tres(value))


def _limit(defn: limitdefs.LimitDef) -> Callable[[Any], str]:
    return lambda value: limitdefs.format_limit(defn, loaded_limit(defn, value))


def _columns(*pairs: tuple[str, str], **formats: Callable[[Any], str]):
    """(column, key, format) of ``pairs`` (column, key), formatted by ``formats[column]``
    or as plain text."""
    return [(column, key, formats.get(column, _text)) for column, key in pairs]


def _limits(defs) -> list[tuple[str, str, Callable[[Any], str]]]:
    return [(d.attr, d.name, _limit(d)) for d in defs]


FIELDS: dict[str, list[tuple[str, str, Callable[[Any], str]]]] = {
    "cluster": _columns(("nodes", "nodes"), ("cpus", "cpus"), ("tres", "tres"), tres=_tres),
    "account": _columns(("description", "description"), ("organization", "organization")),
    "user_account": _columns(("admin_level", "adminlevel")),
    "association": _columns(("priority", "priority"), ("qos", "qos"), ("default_qos", "defaultqos"))
    + _limits(limitdefs.ASSOC_LIMITS),
    "qos": _columns(
        ("description", "description"),
        ("priority", "priority"),
        ("flags", "flags"),
        ("usage_factor", "usagefactor"),
        ("limit_factor", "limitfactor"),
        ("usage_threshold", "usagethreshold"),
        ("grace_time", "gracetime"),
        ("preempt", "preempt"),
        ("preempt_mode", "preemptmode"),
        ("preempt_exempt_time", "preemptexempttime"),
        ("min_prio_thresh", "minpriothresh"),
        grace_time=format_secs,
        preempt_exempt_time=format_secs,
    )
    + _limits(limitdefs.QOS_LIMITS),
    "partition": _columns(
        ("nodes", "nodes"),
        ("cpus", "cpus"),
        ("tres", "tres"),
        ("priority_job_factor", "priorityjobfactor"),
        ("priority_tier", "prioritytier"),
        ("qos", "qos"),
        ("max_time", "maxtime"),
        ("max_nodes", "maxnodes"),
        ("min_nodes", "minnodes"),
        ("billing_weights", "tresbillingweights"),
        ("def_mem_per_cpu", "defmempercpu"),
        ("def_mem_per_node", "defmempernode"),
        ("max_mem_per_cpu", "maxmempercpu"),
        tres=_tres,
        max_time=format_mins,
    ),
}
"""Per table: the columns a change may touch, the key the commands take for each, and how
a stored value reads in those units."""


def settings(row: Any) -> dict[str, str]:
    """An ORM row's settings (of :data:`FIELDS`' tables) as the commands take them; unset
    ones left out. An association's FairShare comes first (``parent`` or the number)."""
    out: dict[str, str] = {}
    if row.__table__.name == "association":
        out["fairshare"] = "parent" if row.shares_parent else _text(row.shares_raw)
    for column, key, show in FIELDS[row.__table__.name]:
        value = getattr(row, column)
        if value is not None and value != "":
            out[key] = show(value)
    return out


def changed(before: Mapping[str, str], after: Mapping[str, str]) -> list[Triple]:
    """(key, old, new) of every setting that differs (None: unset), in ``before``'s order
    then ``after``'s."""
    keys = dict.fromkeys([*before, *after])
    return [(k, before.get(k), after.get(k)) for k in keys if before.get(k) != after.get(k)]


def describe(changes: Sequence[Triple]) -> str:
    """``fairshare=70 -> 120 MaxJobs=- -> 10``: the text a history row shows."""
    return " ".join(
        f"{key}={UNSET if old is None else old} -> {UNSET if new is None else new}"
        for key, old, new in changes
    )


def encode(changes: Sequence[Triple] | None) -> str | None:
    """The triples as the history row's ``changes`` column keeps them (None: none kept)."""
    return None if changes is None else json.dumps([list(c) for c in changes])


def decode(text: str | None) -> list[Triple] | None:
    """:func:`encode`'s inverse; None for a row written before old values were kept."""
    return None if text is None else [(k, o, n) for k, o, n in json.loads(text)]


def target_cluster(action: str, target: str) -> str | None:
    """The cluster a history row's target names: ``NAME@CLUSTER``, or the cluster itself
    for a cluster's own rows (QOS, users and LSF objects belong to none). Migration 0012
    fills the rows written before the column with it."""
    if action.endswith(" cluster"):
        return target
    return target.rpartition("@")[2] if "@" in target else None
