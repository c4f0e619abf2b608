"""Explain one association's fair-share numbers with the values put into the formulas.

:func:`explain` takes a :class:`fscli.engine.fairshare.FairShareResult` and an
association id and returns text lines:

* Fair Tree: the path from root along fair-share parents, each level's
  S = shares / level shares, U = usage / parent usage and LevelFS = S / U, the sibling
  order at every level (which decides the rank), and rank / #users for a user.
* classic, depth-oblivious, linear: the product of share fractions down the tree, the
  effective-usage recursion from the top, and the factor formula.
"""

from __future__ import annotations

import math

from fscli.engine.fairshare import NO_VAL, FairShareResult, Tree, oblivious_terms
from fscli.engine.model import SHARES_PARENT


def _name(tree: Tree, i: int) -> str:
    a = tree.assocs[i]
    if i == tree.root:
        return "root"
    if a.user is not None:
        part = f" partition={a.partition}" if a.partition else ""
        return f"user {a.user} (account {a.account}{part})"
    return f"account {a.account}"


def _num(x: float | None) -> str:
    if x is None or x == NO_VAL:
        return "(none)"
    return "inf" if x == math.inf else f"{x:.6f}"


def _fs_path(tree: Tree, i: int) -> list[int]:
    path = []
    while i != tree.root:
        path.append(i)
        i = tree.fs_parent[i]
    return path[::-1]


def explain(result: FairShareResult, assoc_id: int) -> list[str]:
    """The derivation of one association's NormShares, EffectvUsage and FairShare."""
    row = result.row(assoc_id)
    i = result.tree.index[assoc_id]
    head = [
        f"{_name(result.tree, i)} — algorithm {result.algorithm}",
        f"RawUsage {row.raw_usage:g} (own charges plus all descendants)",
    ]
    if i == result.tree.root:
        return head + [
            "root: EffectvUsage 1 by definition; it has no fair-share factor"
            + (
                ""
                if result.algorithm == "fair_tree"
                else " of its own but prints " + _num(row.fairshare)
            )
        ]
    body = _fair_tree(result, i) if result.algorithm == "fair_tree" else _classic(result, i)
    return head + body


def _fair_tree(result: FairShareResult, target: int) -> list[str]:
    tree, rows = result.tree, result.by_index
    lines = []
    parent_note = tree.assocs[target].shares == SHARES_PARENT
    if parent_note:
        lines.append(
            "FairShare=parent: competes among the siblings of "
            f"{_name(tree, tree.fs_parent[target])}'s children, with LevelFS = inf "
            "for a user"
        )
    for depth, i in enumerate(_fs_path(tree, target), 1):
        a, r, fp = tree.assocs[i], rows[i], tree.fs_parent[i]
        indent = "  " * (depth - 1)
        lines.append(f"{indent}level {depth}: {_name(tree, i)} under {_name(tree, fp)}")
        if a.shares == SHARES_PARENT:
            lines.append(
                f"{indent}  shares=parent: S = {_num(r.norm_shares)} (from "
                f"{_name(tree, fp)}), LevelFS not computed"
            )
        else:
            lines.append(
                f"{indent}  S = {a.shares} / {tree.level_shares[i]} = {_num(r.norm_shares)}"
            )
            lines.append(
                f"{indent}  U = {tree.raw[i]:g} / {tree.raw[fp]:g} = {_num(r.effective_usage)}"
            )
            lines.append(f"{indent}  LevelFS = S / U = {_num(r.level_fs)}")
        order = result.ranked_children.get(fp, [])
        listing = ", ".join(
            f"{'=' if k in result.tied else ''}"
            f"{tree.assocs[k].user or tree.assocs[k].account}"
            f"{'' if tree.assocs[k].user else '/'} {_num(rows[k].level_fs)}"
            for k in order
        )
        lines.append(f"{indent}  sibling order (LevelFS high to low, '=' tied): {listing}")
    a, r = tree.assocs[target], rows[target]
    if a.user is not None:
        rank = round((r.fairshare or 0.0) * result.user_count)
        lines.append(
            f"rank {rank} of {result.user_count} users in depth-first order "
            f"-> FairShare = {rank} / {result.user_count} = {_num(r.fairshare)}"
        )
    else:
        lines.append(
            "accounts get no factor in Fair Tree; their users are ranked below them in this order"
        )
    return lines


def _classic(result: FairShareResult, target: int) -> list[str]:
    tree, rows = result.tree, result.by_index
    a = tree.assocs[target]
    lines = []
    if a.shares == SHARES_PARENT:
        fp = tree.fs_parent[target]
        lines.append(
            f"FairShare=parent: NormShares, EffectvUsage and FairShare are those of "
            f"{_name(tree, fp)}"
        )
        target = fp
        if fp == tree.root:
            lines.append("root: NormShares 1, EffectvUsage 1")
            return lines + [_factor_line(result, target)]
    chain = []
    i = target
    while i != tree.root:
        if tree.assocs[i].shares != SHARES_PARENT:
            chain.append(i)
        i = tree.parent[i]
    chain.reverse()
    parts = " x ".join(f"{tree.assocs[k].shares}/{tree.level_shares[k]}" for k in chain)
    lines.append(f"NormShares S = {parts} = {_num(rows[target].norm_shares)}")
    for k in _fs_path(tree, target):
        lines.append(_efctv_line(result, k))
    lines.append(_factor_line(result, target))
    return lines


def _efctv_line(result: FairShareResult, k: int) -> str:
    tree, rows = result.tree, result.by_index
    a, r, fp = tree.assocs[k], rows[k], tree.fs_parent[k]
    un, ue = r.norm_usage or 0.0, r.effective_usage
    raw, when = tree.raw, ""
    if result.pass_start_raw is not None and tree.users[k] is None:
        raw, when = result.pass_start_raw, " (usage as the last pass began)"
    label = f"  {_name(tree, k)}: UN = {raw[k]:g} / {raw[tree.root]:g}{when} = {_num(un)}; "
    if a.shares == SHARES_PARENT:
        return label + f"UE = parent's UE = {_num(ue)}"
    if fp == tree.root:
        return label + f"UE = UN = {_num(ue)} (child of root)"
    pue = rows[fp].effective_usage
    if result.algorithm == "depth_oblivious":
        sib = sum(
            rows[s].norm_usage or 0.0
            for s in tree.fs_children[fp]
            if tree.assocs[s].shares != SHARES_PARENT
        )
        terms = oblivious_terms(r.norm_shares, un, rows[fp].norm_shares, pue, sib)
        if terms is None:
            return label + f"UE = UN = {_num(ue)} (a zero term)"
        rp, rl, kk = terms
        return label + (
            f"UE = ratio_p x ratio_l^k x S = {rp:.6f} x {rl:.6f}^{kk:.6f} x "
            f"{_num(r.norm_shares)} = {_num(ue)}"
        )
    lvl = tree.level_shares[k]
    if not lvl:
        return label + f"UE = parent's UE = {_num(ue)} (siblings hold no shares)"
    return label + (
        f"UE = UN + (UE_parent - UN) x {a.shares}/{lvl} = {_num(un)} + "
        f"({_num(pue)} - {_num(un)}) x {a.shares}/{lvl} = {_num(ue)}"
    )


def _factor_line(result: FairShareResult, k: int) -> str:
    r = result.by_index[k]
    s, ue = r.norm_shares, r.effective_usage
    if result.algorithm == "linear":
        return (
            f"FairShare = (S - UE + 1) / 2 = ({_num(s)} - {_num(ue)} + 1) / 2 = {_num(r.fairshare)}"
        )
    if s <= 0:
        return "FairShare = 0 (no shares)"
    return (
        f"FairShare = 2^(-(UE / S) / d) = 2^(-({_num(ue)} / {_num(s)}) / {result.dampening}) "
        f"= {_num(r.fairshare)}"
    )
