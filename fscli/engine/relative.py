"""Relative values (``fairshare=+50``, ``priority=-10%``): what-if only, never a write.

A what-if asks "what if physics had 50 more shares" without looking the value up first. The
word is read here into a :class:`Relative`; the what-if turns it into the absolute text
the real command would take, from each changed object's current value, and hands that to
the same parser a write uses (so a result out of range is refused with the write's own
message). ``-1`` keeps sacctmgr's meaning (clear or reset), never "one less".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RELATIVE = re.compile(r"^([+-])(\d+(?:\.\d+)?)(%?)$")
RELATIVE_KEYS = ("fairshare", "priority", "usagefactor")
"""The settings a relative value may change: the numbers a what-if weighs."""


@dataclass(frozen=True)
class Relative:
    """A change by ``amount`` (a percentage of the current value when ``percent``)."""

    amount: float
    percent: bool

    def text(self) -> str:
        sign = "+" if self.amount >= 0 else "-"
        number = f"{abs(self.amount):g}"
        return f"{sign}{number}{'%' if self.percent else ''}"

    def applied(self, current: float, whole: bool) -> str:
        """The absolute value as a write's word: rounded to a whole number if ``whole``.
        One below 0 is refused here: handed on, ``-1`` would read as sacctmgr's "clear"
        (``fairshare=-200%`` of 1 silently reset the shares) and any other as a value the
        user never typed."""
        from fscli.errors import InvalidValue

        value = current * (1 + self.amount / 100) if self.percent else current + self.amount
        word = str(round(value)) if whole else f"{value:g}"
        if float(word) < 0:
            raise InvalidValue(f"{self.text()} of {current:g} is {word}: a value below 0")
        return word


def parse_relative(text: str) -> Relative | None:
    """``+50``, ``-10%``, ``+2.5%`` as a :class:`Relative`; None for anything else (``-1``,
    a plain number, a word): those are read as a write reads them."""
    found = _RELATIVE.match(text.strip())
    if found is None or text.strip() == "-1":
        return None
    sign, number, percent = found.groups()
    amount = float(number) * (-1 if sign == "-" else 1)
    return Relative(amount, bool(percent))
