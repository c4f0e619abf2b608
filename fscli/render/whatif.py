"""What-if output: each changed view's columns before and after, side by side.

Every column that can change is printed twice, as the view prints it (sshare's ``%f``
doubles and blanks, sprio's whole priorities) and then under ``NAME(after)``: the after
column holds exactly what the plain view prints once the change is made for real. Rows
whose association or job has a rank also show ``Rank``, ``Rank(after)`` and
``RankChange`` (``+2``: two places higher).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TypeVar

from fscli.engine.fairshare import ShareRow
from fscli.render.sshare import Extras, Field, field_values, fixed_cell, json_rows, parsable_lines

SAME = frozenset({"Account", "User", "Partition", "Cluster", "ID"})
"""sshare's columns that name the row: printed once."""
AFTER = "(after)"
T = TypeVar("T")


def rank_change(before: int | None, after: int | None) -> str | None:
    """``+2`` (two places higher), ``-1``, ``0``; None (blank) for a row without rank."""
    if before is None or after is None:
        return None
    return f"{before - after:+d}" if before != after else "0"


def aligned(
    before: Sequence[ShareRow], after: Sequence[ShareRow]
) -> tuple[list[ShareRow | None], list[ShareRow | None]]:
    """The rows of two sides whose associations differ (``--with tree.yaml`` adds, removes
    and moves them) matched by (account, user, partition), in the order of the side after;
    a row only before comes right after the row it followed there. None where a side
    lacks the association."""

    def key(row: ShareRow) -> tuple:
        return row.account, row.user, row.partition

    kept = {key(row) for row in after}
    old = {key(row): row for row in before}
    follows: dict[tuple | None, list[ShareRow]] = {}
    last = None
    for row in before:
        if key(row) in kept:
            last = key(row)
        else:
            follows.setdefault(last, []).append(row)
    sides: tuple[list[ShareRow | None], list[ShareRow | None]] = ([], [])
    for gone in follows.get(None, ()):
        sides[0].append(gone)
        sides[1].append(None)
    for row in after:
        sides[0].append(old.get(key(row)))
        sides[1].append(row)
        for gone in follows.get(key(row), ()):
            sides[0].append(gone)
            sides[1].append(None)
    return sides


def aligned_pieces(
    before: Sequence[ShareRow | None], after: Sequence[ShareRow | None]
) -> tuple[dict[str, Sequence], dict[str, Sequence]]:
    """:func:`aligned` sides as one piece of columns each for :func:`share_lines`: a
    side's missing row holds the other side's (for the names) and ``present`` says so."""
    from fscli.engine.fairshare import share_columns

    pieces = []
    for mine, other in ((before, after), (after, before)):
        rows = [row if row is not None else twin for row, twin in zip(mine, other)]
        columns = share_columns(rows)  # type: ignore[arg-type]  # one side always has it
        columns["present"] = [row is not None for row in mine]
        pieces.append(columns)
    return pieces[0], pieces[1]


def _shown(values: Sequence[T], present: Sequence[bool] | None) -> Sequence[T | None]:
    if present is None:
        return values
    return [value if here else None for value, here in zip(values, present)]


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
    and after (the same associations, in the same order; or :func:`aligned_pieces`, whose
    ``present`` blanks a side that lacks the association). The names are the after
    side's (where an association is now)."""
    names: list[str] = []  # the sshare field each column formats as
    headers: list[str] = []
    widths: list[int] = []
    sides: list[tuple[str, int]] = []  # (field, 0 before / 1 after)
    for f in fields:
        for side in (1,) if f.name in SAME else (0, 1):
            title = f.name + (AFTER if side and f.name not in SAME else "")
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
        present = [piece[0].get("present"), piece[1].get("present")]
        values = [
            field_values(name, piece[side], extras[side])
            if name in SAME
            else _shown(field_values(name, piece[side], extras[side]), present[side])
            for name, side in sides
        ]
        rank_old = _shown(list(map(ranks[0].get, piece[0]["assoc_id"])), present[0])
        rank_new = _shown(list(map(ranks[1].get, ids)), present[1])
        values += [rank_old, rank_new, list(map(rank_change, rank_old, rank_new))]
        if parsable:
            yield parsable_lines(names, values, end)
        else:
            texts = [[fixed_cell(c, v) + " " for v in column] for c, column in zip(cells, values)]
            yield "\n".join(map("".join, zip(*texts))) + "\n"


def share_json(
    before: Sequence[ShareRow | None],
    after: Sequence[ShareRow | None],
    extras: tuple[Extras, Extras],
    ranks: tuple[Mapping[int, int], Mapping[int, int]],
) -> list[dict[str, object]]:
    """One object per association: ``before`` and ``after`` as sshare --json gives each
    row (null on a side without the association: :func:`aligned`), and the ranks (null
    for account rows)."""
    sides = []
    for rows, extra, ranked in zip((before, after), extras, ranks):
        made = iter(json_rows([row for row in rows if row is not None], extra))
        sides.append(
            [
                (None, None) if row is None else (next(made), ranked.get(row.assoc_id))
                for row in rows
            ]
        )
    out = []
    for (old, rank_old), (new, rank_new), row, was in zip(*sides, after, before):
        named = row if row is not None else was
        assert named is not None  # one side always has the association
        out.append(
            {
                "account": named.account,
                "user": named.user,
                "partition": named.partition,
                "before": old,
                "after": new,
                "rank": rank_old,
                "rank_after": rank_new,
                "rank_change": None
                if rank_old is None or rank_new is None
                else rank_old - rank_new,
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
    widths = [max([len(h), *(len(str(r[k])) for r in table)]) for k, h in enumerate(headers)]
    left = {1, 2}

    def cell(k: int, text: object) -> str:
        return str(text).ljust(widths[k]) if k in left else str(text).rjust(widths[k])

    if header:
        yield " ".join(cell(k, h) for k, h in enumerate(headers)).rstrip() + "\n"
    for line in table:
        yield " ".join(cell(k, v) for k, v in enumerate(line)).rstrip() + "\n"
