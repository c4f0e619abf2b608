"""``bqueues -l`` text in LSF's layout, and JSON-ready dicts (the short view is a table
of the CLI's, with LSF's columns).

fscli models no per-user/processor/host job limits, so MAX and the JL columns print
``-`` as LSF does for "no limit". The long view prints, per queue, the
name and description, PARAMETERS/STATISTICS, the USER_SHARES line and one
``SHARE_INFO_FOR: QUEUE/...`` block per level of the share tree. Join several queues
with :data:`SEPARATOR` as LSF does.
"""

from __future__ import annotations

from collections.abc import Sequence

from fscli.engine.lsf.queues import QueueSummary
from fscli.engine.lsf.share_info import ShareBlock
from fscli.engine.lsf.share_text import format_share_pairs, format_user_shares
from fscli.engine.lsf.shares import LsfQueue

SEPARATOR = "\n" + "-" * 79 + "\n\n"

_SHARE_COLUMNS = (  # header, width, row formatter
    ("SHARES", 7, lambda r: f"{r.shares}"),
    ("PRIORITY", 10, lambda r: f"{r.priority:.3f}"),
    ("STARTED", 9, lambda r: f"{r.started}"),
    ("RESERVED", 10, lambda r: f"{r.reserved}"),
    ("CPU_TIME", 10, lambda r: f"{r.cpu_time:.1f}"),
    ("RUN_TIME", 10, lambda r: f"{r.run_time:.0f}"),
    ("ADJUST", 9, lambda r: f"{r.adjust:.3f}"),
)


def _cells(name: str, width: int, cells: Sequence[str]) -> str:
    widths = [w for _, w, _ in _SHARE_COLUMNS]
    return " " + name.ljust(width) + "".join(c.rjust(w) for c, w in zip(cells, widths))


def render_share_block(block: ShareBlock) -> str:
    """``SHARE_INFO_FOR: path`` with one line per holder (already sorted by priority)."""
    width = max([len("USER/GROUP")] + [len(r.name) for r in block.rows]) + 2
    lines = [
        f"SHARE_INFO_FOR: {block.path}",
        _cells("USER/GROUP", width, [h for h, _, _ in _SHARE_COLUMNS]),
    ]
    lines += [_cells(r.name, width, [fmt(r) for _, _, fmt in _SHARE_COLUMNS]) for r in block.rows]
    return "\n".join(lines)


SHARE_INFO_COLUMNS = ("QUEUE", "SHARE_INFO_FOR", "USER/GROUP", *(h for h, _, _ in _SHARE_COLUMNS))
"""``bqueues -l -p/-P``: one row per SHARE_INFO_FOR line, the queue and block first."""


def share_info_rows(
    views: Sequence[tuple[LsfQueue, QueueSummary, Sequence[ShareBlock]]],
) -> list[list[object]]:
    """The SHARE_INFO_FOR lines of every queue as rows of :data:`SHARE_INFO_COLUMNS`
    (numbers as they are: the parsable text writes them unrounded)."""
    return [
        [
            queue.name,
            block.path,
            r.name,
            r.shares,
            r.priority,
            r.started,
            r.reserved,
            r.cpu_time,
            r.run_time,
            r.adjust,
        ]
        for queue, _, blocks in views
        for block in blocks
        for r in block.rows
    ]


def _status_and_counts(status: str, counts: Sequence[str]) -> str:
    """STATUS, then the four limit columns (MAX JL/U JL/P JL/H), then the slot counts."""
    return (
        "  "
        + status.ljust(16)
        + " ".join(c.rjust(4) for c in counts[:4])
        + "".join(c.rjust(6) for c in counts[4:])
    )


def render_bqueues_long(
    queue: LsfQueue, summary: QueueSummary, blocks: Sequence[ShareBlock]
) -> str:
    """One queue of ``bqueues -l``."""
    out = [f"QUEUE: {queue.name}"]
    if queue.description:
        out.append(f"  -- {queue.description}")
    stats = [
        str(summary.priority),
        "0",
        summary.status,
        "-",
        "-",
        "-",
        "-",
        str(summary.njobs),
        str(summary.pend),
        str(summary.run),
        "0",
        str(summary.susp),
        str(summary.rsv),
    ]
    heads = [
        "PRIO",
        "NICE",
        "STATUS",
        "MAX",
        "JL/U",
        "JL/P",
        "JL/H",
        "NJOBS",
        "PEND",
        "RUN",
        "SSUSP",
        "USUSP",
        "RSV",
    ]
    out += ["", "PARAMETERS/STATISTICS", _stats_line(heads), _stats_line(stats)]
    for name, value in sorted(queue.params.items()):
        out.append(f"{name}: {value}")
    if queue.shares:
        out += [
            "",
            "SCHEDULING POLICIES:  FAIRSHARE",
            f"USER_SHARES:  {format_share_pairs(queue.shares)}",
        ]
    for block in blocks:
        out += ["", render_share_block(block)]
    return "\n".join(line.rstrip() for line in out) + "\n"


def _stats_line(cells: Sequence[str]) -> str:
    prio, nice, status, *counts = cells
    return prio.rjust(4) + nice.rjust(5) + _status_and_counts(status, counts)


def bqueues_dict(
    queue: LsfQueue, summary: QueueSummary, blocks: Sequence[ShareBlock]
) -> dict[str, object]:
    """Everything ``bqueues -l`` shows, as plain JSON-ready values."""
    return {
        "queue": queue.name,
        "description": queue.description,
        "priority": queue.priority,
        "fairshare": format_user_shares(queue.shares) if queue.shares else None,
        "params": dict(queue.params),
        "statistics": summary.as_dict(),
        "share_info": [block.as_dict() for block in blocks],
    }
