"""The YAML tree's schema: the keys each mapping allows, and the YAML tags read."""

from __future__ import annotations

from fscli.engine.model import PARTITION_SETTINGS
from fscli.engine.treespec import MAX_NUMBER as MAX_NUMBER  # what the readers import
from fscli.engine.treespec import QOS_FIELDS

ASSOC_KEYS = ("fairshare", "limits", "qos", "default_qos", "priority")
TOP_KEYS = ("cluster", "priority", "qos", "partitions", "accounts", "users")
CLUSTER_KEYS = ("name", "nodes", "cpus", "tres", *ASSOC_KEYS)
ACCOUNT_KEYS = ("description", "organization", "parent", *ASSOC_KEYS, "children")
USER_KEYS = ("default_account", "admin_level", "coordinator_of", "associations")
USER_ASSOC_KEYS = ("account", "partition", *ASSOC_KEYS)
QOS_KEYS = (*QOS_FIELDS, "limits")
PARTITION_KEYS = PARTITION_SETTINGS

INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
NULL_TAG = "tag:yaml.org,2002:null"
STR_TAG = "tag:yaml.org,2002:str"
MAP_TAG = "tag:yaml.org,2002:map"
SEQ_TAG = "tag:yaml.org,2002:seq"
