"""QOS lists of associations: an association's own list, or a delta on its parent's.

As in slurmdbd, an association stores either its own QOS list (plain names: ``normal,high``)
or nothing (it inherits its parent's list), or a delta on the inherited list: items
``+name``/``-name`` (what ``qos+=``/``qos-=`` make on an association without a list of its
own; a dump writes it as ``QOS='-high'``). A delta follows later changes of the parent's
list, as Slurm's does. ``None`` is "no list anywhere up the tree", which fscli takes as
"every QOS" (a store that never recorded lists must not refuse every job).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fscli.engine.model import Assoc
from fscli.engine.tree import ancestors


def is_delta(items: Sequence[str]) -> bool:
    """slurmdbd makes a delta of a list whose first item is signed; a later plain item
    takes the sign of the ``+=``/``-=`` before it, so a list mixing both began with a
    plain item, and is an own list, whatever order it is kept in."""
    return bool(items) and all(item[:1] in ("+", "-") for item in items)


def inherit(
    inherited: tuple[str, ...] | None, own: Sequence[str], every: Iterable[str]
) -> tuple[str, ...] | None:
    """The list in force for an association whose stored list is ``own``, given the list in
    force for its parent (``every`` QOS stands in for a parent with no list at all)."""
    if not own:
        return inherited
    # an own list starts empty; one may hold signed items too (``qos=a qos+=b`` in one
    # add), applied in turn as slurmdbd's ``set_qos_bitstr_from_list`` does
    names = set(inherited if inherited is not None else every) if is_delta(own) else set()
    for item in own:
        if item[0] == "-":
            names.discard(item[1:])
        else:
            names.add(item.lstrip("+"))
    return tuple(sorted(names))


def effective(chain: Sequence[Assoc], every: Iterable[str]) -> tuple[str, ...] | None:
    """The list in force for ``chain[0]``, given its chain up to root (itself first)."""
    every = tuple(every)
    result: tuple[str, ...] | None = None
    for assoc in reversed(chain):
        result = inherit(result, assoc.qos, every)
    return result


def effective_all(
    assocs: Sequence[Assoc], every: Iterable[str]
) -> dict[int, tuple[str, ...] | None]:
    """:func:`effective` of every association (parents may come after their children)."""
    every = tuple(every)
    by_id = {a.id: a for a in assocs}
    out: dict[int, tuple[str, ...] | None] = {}
    for assoc in assocs:
        path = []
        current: Assoc | None = assoc
        while current is not None and current.id not in out:
            path.append(current)
            current = by_id.get(current.parent_id) if current.parent_id is not None else None
        result = out[current.id] if current is not None else None
        for item in reversed(path):
            result = out[item.id] = inherit(result, item.qos, every)
    return out


def edit(stored: Sequence[str], op: str, names: Sequence[str]) -> list[str]:
    """The stored list after ``qos=``, ``qos+=`` or ``qos-=``.

    ``=`` makes an own list. ``+=``/``-=`` edit an own list in place; on an association
    without one they make (or extend) a delta: ``+x`` replaces an earlier ``-x`` and the
    other way round.
    """
    if op == "=":
        return sorted(set(names))
    if stored and not is_delta(stored):
        current = set(stored)
        current = current | set(names) if op == "+=" else current - set(names)
        return sorted(current)
    sign = "+" if op == "+=" else "-"
    delta = {item[1:]: item[0] for item in stored}
    for name in names:
        delta[name] = sign
    return [f"{delta[name]}{name}" for name in sorted(delta)]


def defaults_outside(
    assocs: Sequence[Assoc], every: Iterable[str], roots: Iterable[int]
) -> list[tuple[Assoc, str, tuple[str, ...]]]:
    """(association, its DefaultQOS, its QOS list) for each association in the subtrees of
    ``roots`` whose DefaultQOS (its own, else the first one set up the tree) is not in its
    QOS list in force: every job of such a user that names no QOS would be refused."""
    lists = effective_all(assocs, every)
    by_id = {a.id: a for a in assocs}
    children: dict[int, list[Assoc]] = {}
    for assoc in assocs:
        if assoc.parent_id is not None:
            children.setdefault(assoc.parent_id, []).append(assoc)
    out = []
    # each with the DefaultQOS in force, handed down the subtree (not looked up again)
    todo = [
        (by_id[r], next((a.default_qos for a in ancestors(r, by_id) if a.default_qos), None))
        for r in roots
        if r in by_id
    ]
    while todo:
        assoc, default = todo.pop()
        todo += [(child, child.default_qos or default) for child in children.get(assoc.id, ())]
        listed = lists[assoc.id]
        if default is not None and listed is not None and default not in listed:
            out.append((assoc, default, listed))
    return sorted(out, key=lambda found: found[0].id)
