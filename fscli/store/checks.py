"""What a write checks in the store before it writes, apart from the schema: the names the
store accepts, and whether associations have active jobs. SQL text on any connection
(:mod:`fscli.store.sql`): the tree planner runs on a plain ``sqlite3`` one, without
importing SQLAlchemy."""

from __future__ import annotations

import re
from collections.abc import Sequence

from fscli.engine.job_states import ACTIVE_STATES
from fscli.errors import InvalidValue
from fscli.store.sql import chunked, in_list, rows, scalar

NAME_RE = re.compile(r"[a-z0-9_][a-z0-9_.@+-]*")
MAX_NAME = 64  # the name columns' width; servers refuse longer values, SQLite would not


def check_name(kind: str, name: str, keep_case: bool = False) -> str:
    """The name as stored: lower-cased (as sacctmgr does), except partition names, whose
    case Slurm keeps. Separators (',', '|', spaces) would break lists and -P output."""
    text = name.strip()
    if not NAME_RE.fullmatch(text.lower()):
        raise InvalidValue(f"invalid {kind} name '{name}': use letters, digits, '_', '.', '-'")
    if len(text) > MAX_NAME:
        raise InvalidValue(f"invalid {kind} name '{name[:24]}...': at most {MAX_NAME} characters")
    return text if keep_case else text.lower()


def active_jobs(conn, assoc_ids: Sequence[int]) -> int:
    """How many pending or running jobs the associations have (any read connection, or an
    ORM session)."""
    states, params = in_list("state", "state", ACTIVE_STATES)
    total = 0
    for part in chunked(assoc_ids):
        ids, more = in_list("assoc_id", "id", part)
        total += scalar(conn, f"SELECT count(*) FROM job WHERE {ids} AND {states}", params | more)
    return total


SHOWN = 3
"""How many blockers a refusal names before it counts the rest."""


def active_job_ids(conn, assoc_ids: Sequence[int]) -> tuple[int, list[int]]:
    """(how many pending or running jobs the associations have, the first :data:`SHOWN`
    of their ids, lowest first)."""
    states, params = in_list("state", "state", ACTIVE_STATES)
    total, first = 0, []
    for part in chunked(assoc_ids):
        ids, more = in_list("assoc_id", "id", part)
        where = f"FROM job WHERE {ids} AND {states}"
        total += scalar(conn, f"SELECT count(*) {where}", params | more)
        first += [
            r[0] for r in rows(conn, f"SELECT id {where} ORDER BY id LIMIT {SHOWN}", params | more)
        ]
    return total, sorted(first)[:SHOWN]


def named(count: int, names: Sequence, one: str = "", many: str = "") -> str:
    """Blockers as a refusal names them: ``job 7``, ``jobs 7, 9``, ``jobs 1, 2, 3 and 9
    more`` (``one``/``many``: the noun, none when empty)."""
    shown = ", ".join(str(n) for n in names[:SHOWN])
    rest = count - min(len(names), SHOWN)
    noun = one if count == 1 else many
    return f"{noun} {shown}".strip() + (f" and {rest} more" if rest > 0 else "")
