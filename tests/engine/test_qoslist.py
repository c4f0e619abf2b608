"""QOS lists in force and the DefaultQOS check of :mod:`fscli.engine.qoslist`."""

from __future__ import annotations

import random

import pytest

from fscli.engine import qoslist
from fscli.engine.model import Assoc
from fscli.engine.tree import ancestors

QOS = ("normal", "high", "low")


def random_tree(seed: int, size: int = 300) -> list[Assoc]:
    """Root, then associations under earlier ones, with random QOS lists (own or delta)
    and DefaultQOS, some set to "" (unset, as a falsy value)."""
    rng = random.Random(seed)
    assocs = [Assoc(id=1, parent_id=None, account="root")]
    for i in range(2, size + 2):
        qos: tuple[str, ...] = ()
        if rng.random() < 0.3:
            names = rng.sample(QOS, rng.randrange(0, 3))
            sign = rng.choice(("", "+", "-"))
            qos = tuple(sorted(sign + n for n in names))
        default = rng.choice((None, None, None, "", *QOS))
        assocs.append(
            Assoc(
                id=i, parent_id=rng.randrange(1, i), account=f"a{i}", qos=qos, default_qos=default
            )
        )
    rng.shuffle(assocs)
    return assocs


def reference(assocs, every, roots):
    """The definition: each association of the subtrees (a subtree inside another one is
    visited once more), its DefaultQOS the first one set up its own chain."""
    lists = qoslist.effective_all(assocs, every)
    by_id = {a.id: a for a in assocs}
    out = []
    todo = [by_id[r] for r in roots if r in by_id]
    while todo:
        assoc = todo.pop()
        todo += [a for a in assocs if a.parent_id == assoc.id]
        default = next((a.default_qos for a in ancestors(assoc.id, by_id) if a.default_qos), None)
        listed = lists[assoc.id]
        if default is not None and listed is not None and default not in listed:
            out.append((assoc, default, listed))
    return sorted(out, key=lambda found: found[0].id)


@pytest.mark.parametrize("seed", range(6))
def test_defaults_outside_hands_the_default_down_as_each_chain_finds_it(seed):
    assocs = random_tree(seed)
    rng = random.Random(seed)
    roots = [1, *rng.sample(range(2, len(assocs) + 1), 5), 10_000]
    for chosen in ([1], roots, roots[1:]):
        found = qoslist.defaults_outside(assocs, QOS, chosen)
        assert found == reference(assocs, QOS, chosen)
    assert qoslist.defaults_outside(assocs, QOS, [1])  # the trees do hold some


def test_own_list_with_signed_items_is_applied_in_turn_not_a_delta():
    # ``qos=normal qos+=high`` in one sacctmgr add keeps "+high" in an own list: access is
    # the plain and "+" names, a "-" name taken out, the parent's list not consulted
    every = ("normal", "high", "low")
    assert not qoslist.is_delta(["+high", "normal"])
    assert qoslist.is_delta(["+high", "-low"])
    assert qoslist.inherit(("low",), ["+high", "normal"], every) == ("high", "normal")
    assert qoslist.inherit(("low",), ["high", "normal", "-high"], every) == ("normal",)
    assert qoslist.inherit(("low",), ["+high", "-low"], every) == ("high",)
