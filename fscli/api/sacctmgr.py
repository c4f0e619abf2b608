"""The store surface behind ``fscli sacctmgr``.

The layer rules (docs/architecture.md) keep the command line off ``fscli.store``: the
sacctmgr front end reaches the store's write surface (``Admin``, the QOS writes, the tree
planner its ``load`` applies) and the sacctmgr views of the store
(:mod:`fscli.store.sacctmgr_queries`, as ``queries``) through this module, the same code
the native commands use.
"""

from __future__ import annotations

from fscli.engine.assoc_changes import AssocChanges, QosEdit
from fscli.engine.qos_changes import QosChanges, parse_flags, parse_float
from fscli.store import sacctmgr_queries as queries
from fscli.store import slurmdbd_txn
from fscli.store.admin import Admin
from fscli.store.checks import check_name
from fscli.store.resources import add_qos, delete_qos, describe_new_qos, modify_qos
from fscli.store.tree_plan import make_plan
from fscli.store.tree_sync import apply_plan

__all__ = [
    "Admin",
    "AssocChanges",
    "QosChanges",
    "QosEdit",
    "add_qos",
    "apply_plan",
    "check_name",
    "delete_qos",
    "describe_new_qos",
    "make_plan",
    "modify_qos",
    "parse_flags",
    "parse_float",
    "queries",
    "slurmdbd_txn",
]
