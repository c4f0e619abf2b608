"""What-if on plain data: the changes a view is asked to show the effect of, and the
settings they make. Nothing here touches a store: the API loads a snapshot, this changes
copies of its values, and the engine computes before and after from the same snapshot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from fscli.engine.config import HISTORY_KEYS, KEYS, PriorityConfig, validate, written
from fscli.engine.limits.whatif import Change
from fscli.engine.relative import Relative
from fscli.errors import Conflict, InvalidValue


@dataclass
class WhatIf:
    """``--with`` changes (:class:`Change`), ``--with-config`` settings (canonical key ->
    the value text ``config set`` takes, or a :class:`Relative`) and whether the settings
    apply to the whole history (``always``) or from the moment viewed on, as a real
    ``config set`` at that moment would (the default). ``tree``: a YAML tree (its text and
    file name) that ``fscli apply`` would make the cluster match, applied before the
    other changes."""

    changes: Sequence[Change] = ()
    config: Mapping[str, str | Relative] = field(default_factory=dict)
    always: bool = False
    tree: tuple[str, str] | None = None

    def __bool__(self) -> bool:
        return bool(self.changes or self.config or self.tree)

    def describe(self) -> list[str]:
        """One line per change, as given."""
        lines = [] if self.tree is None else [self.tree[1]]
        lines += [c.text for c in self.changes]
        for key, value in self.config.items():
            text = value.text() if isinstance(value, Relative) else written(key, value)
            lines.append(f"{key}={text}")
        return lines


def new_settings(values: Mapping[str, str], config: Mapping[str, str | Relative]) -> dict[str, str]:
    """The stored settings with ``config`` set: each value checked as ``config set``
    checks it, a relative one first made absolute from the setting in force."""
    out = dict(values)
    for key, value in config.items():
        if isinstance(value, Relative):
            current = out.get(key, KEYS[key][0])
            try:
                number = float(current)
            except ValueError:
                raise InvalidValue(f"{key}={value.text()}: {key} is not a number") from None
            value = value.applied(number, whole=True)
        out.update([validate(key, value)])
    return out


def changed_config(
    values: Mapping[str, str],
    history: Sequence[tuple[str, int, str]],
    config: Mapping[str, str | Relative],
    at: int,
    always: bool,
) -> PriorityConfig:
    """The settings ``config`` makes: from ``at`` on (the replaced value of a setting usage
    depends on kept as in force until then, as ``config set`` at ``at`` keeps it), or
    ``always`` (as if it had always been so: that setting's history dropped)."""
    new = new_settings(values, config)
    changed = [k for k in config if new.get(k) != values.get(k)]
    kept = list(history)
    for key in changed:
        if key not in HISTORY_KEYS:
            continue
        if always:
            kept = [h for h in kept if h[0] != key]
            continue
        later = [h[1] for h in kept if h[0] == key and h[1] > at]
        if later:
            raise Conflict(
                f"{key} was changed after the moment viewed: a change of a setting usage "
                "depends on cannot be placed before a later one"
            )
        if not any(h[0] == key and h[1] == at for h in kept):
            kept.append((key, at, values.get(key, KEYS[key][0])))
    return PriorityConfig.from_mapping(new, kept)
