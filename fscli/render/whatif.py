"""What-if output: each changed view's columns before and after, side by side.

Every column that can change is printed twice, as the view prints it (sshare's ``%f``
doubles and blanks, sprio's whole priorities) and then under ``NAME(after)``: the after
column holds exactly what the plain view prints once the change is made for real. Rows
whose association or job has a rank also show ``Rank``, ``Rank(after)`` and
``RankChange`` (``+2``: two places higher).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from fscli.engine.fairshare import ShareRow, share_columns
from fscli.render.sshare import Extras, Field, field_values, fixed_cell, json_rows, parsable_lines

SAME = frozenset({"Account", "User", "Partition", "Cluster", "ID"})
"""sshare's columns that name the row: printed once."""
AFTER = "(after)"


def rank_change(before: int | None, after: int | None) -> str | None:
    """``+2`` (two places higher), ``-1``, ``0``; None (blank) for a row without rank."""
    if before is None or after is None:
        return None
    return f"{before - after:+d}" if before != after else "0"


def share_lines(
    before: Sequence[ShareRow],
    after: Sequence[ShareRow],
    fields: Sequence[Field],
    parsable: str | None,
    header: bool,
    extras: tuple[Extras, Extras],
    ranks: tuple[Mapping[int, int], Mapping[int, int]],
) -> Iterator[str]:
    """sshare's ``before`` and ``after`` rows (the same associations, in order) side by
    side: fixed-width text, ``-p`` or ``-P``."""
    old, new = share_columns(before), share_columns(after)
    names: list[str] = []  # the sshare field each column formats as
    headers: list[str] = []
    widths: list[int] = []
    values: list[Sequence[object]] = []
    for f in fields:
        sides = [(f.name, old, extras[0])]
        if f.name not in SAME:
            sides.append((f.name + AFTER, new, extras[1]))
        for title, columns, extra in sides:
            names.append(f.name)
            headers.append(title)
            widths.append(
                -max(abs(f.width), len(title)) if f.width < 0 else max(f.width, len(title))
            )
            values.append(field_values(f.name, columns, extra))
    ids = new["assoc_id"]
    rank_old = [ranks[0].get(i) for i in ids]
    rank_new = [ranks[1].get(i) for i in ids]
    for title, column in (
        ("Rank", rank_old),
        ("Rank" + AFTER, rank_new),
        ("RankChange", list(map(rank_change, rank_old, rank_new))),
    ):
        names.append(title)
        headers.append(title)
        widths.append(max(len(title), 6))
        values.append(column)
    end = "|\n" if parsable == "p" else "\n"
    if parsable:
        if header:
            yield "|".join(headers) + end
        if ids:
            yield parsable_lines(names, values, end)
        return
    cells = [Field(n, w) for n, w in zip(names, widths)]
    if header:
        yield (
            "".join((h.ljust(-w) if w < 0 else h.rjust(w)) + " " for h, w in zip(headers, widths))
            + "\n"
        )
        yield "".join("-" * abs(w) + " " for w in widths) + "\n"
    texts = [[fixed_cell(c, v) + " " for v in column] for c, column in zip(cells, values)]
    if ids:
        yield "\n".join(map("".join, zip(*texts))) + "\n"


def share_json(
    before: Sequence[ShareRow],
    after: Sequence[ShareRow],
    extras: tuple[Extras, Extras],
    ranks: tuple[Mapping[int, int], Mapping[int, int]],
) -> list[dict[str, object]]:
    """One object per association: ``before`` and ``after`` as sshare --json gives each
    row, and the ranks (null for account rows)."""
    out = []
    for old, new, row in zip(json_rows(before, extras[0]), json_rows(after, extras[1]), after):
        rank_old, rank_new = ranks[0].get(row.assoc_id), ranks[1].get(row.assoc_id)
        out.append(
            {
                "account": row.account,
                "user": row.user,
                "partition": row.partition,
                "before": old,
                "after": new,
                "rank": rank_old,
                "rank_after": rank_new,
                "rank_change": None if rank_old is None else rank_old - (rank_new or 0),
            }
        )
    return out


def priority_lines(
    rows: Sequence[tuple[int, str, str, int, int, int, int]], parsable: str | None, header: bool
) -> Iterator[str]:
    """sprio's jobs before and after: (job id, partition, user, priority, priority after,
    rank, rank after) each."""
    headers = ["JOBID", "PARTITION", "USER", "PRIORITY", "PRIORITY" + AFTER, "Rank"]
    headers += ["Rank" + AFTER, "RankChange"]
    table = [[*row, rank_change(row[5], row[6])] for row in rows]
    if parsable:
        end = "|\n" if parsable == "p" else "\n"
        if header:
            yield "|".join(headers) + end
        for line in table:
            yield "|".join(map(str, line)) + end
        return
    widths = [max(len(h), *(len(str(r[k])) for r in table)) for k, h in enumerate(headers)]
    left = {1, 2}

    def cell(k: int, text: object) -> str:
        return str(text).ljust(widths[k]) if k in left else str(text).rjust(widths[k])

    if header:
        yield " ".join(cell(k, h) for k, h in enumerate(headers)).rstrip() + "\n"
    for line in table:
        yield " ".join(cell(k, v) for k, v in enumerate(line)).rstrip() + "\n"
