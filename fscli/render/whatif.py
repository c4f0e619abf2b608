"""What-if output: each changed view's columns before and after, side by side.

Every column that can change is printed twice, as the view prints it (sshare's ``%f``
doubles and blanks, sprio's whole priorities) and then under ``NAME(after)``: the after
column holds exactly what the plain view prints once the change is made for real. Rows
whose association or job has a rank also show ``Rank``, ``Rank(after)`` and
``RankChange`` (``+2``: two places higher).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from fscli.engine.fairshare import ShareRow
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
    pieces: Iterable[tuple[Mapping[str, Sequence], Mapping[str, Sequence]]],
    fields: Sequence[Field],
    parsable: str | None,
    header: bool,
    extras: tuple[Extras, Extras],
    ranks: tuple[Mapping[int, int], Mapping[int, int]],
) -> Iterator[str]:
    """sshare's rows before and after side by side: fixed-width text, ``-p`` or ``-P``.
    ``pieces``: the rows a piece at a time, as columns (:func:`share_columns`), before
    and after (the same associations, in the same order: a what-if changes no tree)."""
    names: list[str] = []  # the sshare field each column formats as
    headers: list[str] = []
    widths: list[int] = []
    sides: list[tuple[str, int]] = []  # (field, 0 before / 1 after)
    for f in fields:
        for side in (0,) if f.name in SAME else (0, 1):
            title = f.name + (AFTER if side else "")
            names.append(f.name)
            headers.append(title)
            size = max(abs(f.width), len(title))
            widths.append(-size if f.width < 0 else size)
            sides.append((f.name, side))
    for title in ("Rank", "Rank" + AFTER, "RankChange"):
        names.append(title)
        headers.append(title)
        widths.append(max(len(title), 6))
    end = "|\n" if parsable == "p" else "\n"
    cells = [Field(n, w) for n, w in zip(names, widths)]
    if header and parsable:
        yield "|".join(headers) + end
    elif header:
        yield "".join((h.ljust(-w) if w < 0 else h.rjust(w)) + " " for h, w in zip(headers, widths))
        yield "\n" + "".join("-" * abs(w) + " " for w in widths) + "\n"
    for piece in pieces:
        ids = piece[1]["assoc_id"]
        if not ids:
            continue
        values = [field_values(name, piece[side], extras[side]) for name, side in sides]
        rank_old = list(map(ranks[0].get, ids))
        rank_new = list(map(ranks[1].get, ids))
        values += [rank_old, rank_new, list(map(rank_change, rank_old, rank_new))]
        if parsable:
            yield parsable_lines(names, values, end)
        else:
            texts = [[fixed_cell(c, v) + " " for v in column] for c, column in zip(cells, values)]
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
