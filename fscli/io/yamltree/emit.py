"""The text PyYAML would write for a tree's document, written directly.

PyYAML's representer and emitter are pure Python and build a node and an event per
value: they took 9 of the 10 seconds of an export of 100,000 associations. The writer's
documents are simple (block mappings of names, indentless block sequences of mappings,
short flow lists of names, strings and numbers), so :func:`emit` writes them line by
line with the same choices the emitter makes (plain or single-quoted scalars, ``{}`` and
``[]`` for empty collections). What it does not handle the same way for certain (a line
over the width, where the emitter may fold; a long key; characters that need escapes;
empty strings, booleans, NaN) makes it return None, and the caller lets PyYAML write the
whole document: the output never depends on which path wrote it.
"""

from __future__ import annotations

import re
from typing import Any

from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from fscli.io.yamltree.schema import STR_TAG

WIDTH = 100  # the emitter folds longer lines; the writer's ``width``
_SIMPLE_KEY = 128  # a longer key is written as a complex key (``? key``)
# printable for the emitter with allow_unicode (no escapes, no line breaks)
_PRINTABLE = re.compile("[\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]+")
_RESOLVER = Resolver()


class _Unusual(Exception):
    """A value :func:`emit` does not write as PyYAML would, for certain."""


class Flow(list):
    """A short list written inline: ``qos: [normal, high]``."""


def emit(doc: dict[str, Any]) -> str | None:
    """``doc`` as ``yaml.dump(doc, sort_keys=False, default_flow_style=False,
    allow_unicode=True, width=100)`` writes it (with :class:`Flow` lists in flow style),
    or None where this writer is not sure to match it."""
    writer = _Writer()
    try:
        writer.mapping(doc, 0, "")
    except _Unusual:
        return None
    lines = writer.lines
    if any(len(line) > WIDTH for line in lines):
        return None
    lines.append("")
    return "\n".join(lines)


class _Writer:
    """The lines written so far, and each string as written in block and in flow context
    (a tree repeats its account names and keys thousands of times)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.block: dict[str, str] = {}
        self.flow: dict[str, str] = {}

    def mapping(self, doc: dict, indent: int, lead: str) -> None:
        """A block mapping at ``indent``; its first line starts with ``lead`` if given (the
        ``- `` of a sequence item)."""
        lines, block = self.lines, self.block
        pad = " " * indent
        for key, value in doc.items():
            if key.__class__ is not str or len(key) >= _SIMPLE_KEY:
                raise _Unusual
            head = f"{lead or pad}{block.get(key) or self.text(key, False)}:"
            lead = ""
            cls = value.__class__
            if cls is str:
                lines.append(f"{head} {block.get(value) or self.text(value, False)}")
            elif cls is dict:
                if value:
                    lines.append(head)
                    self.mapping(value, indent + 2, "")
                else:
                    lines.append(head + " {}")
            elif cls is Flow:
                lines.append(f"{head} [{', '.join(self.scalar(v, True) for v in value)}]")
            elif cls is list:
                if value:
                    lines.append(head)
                    self.sequence(value, indent)
                else:
                    lines.append(head + " []")
            else:
                lines.append(f"{head} {self.scalar(value, False)}")

    def sequence(self, items: list, indent: int) -> None:
        """An indentless block sequence (a mapping's value: ``- `` at the key's column)."""
        lead = " " * indent + "- "
        for item in items:
            if item.__class__ is dict and item:
                self.mapping(item, indent + 2, lead)
            elif item.__class__ in (str, int, float):
                self.lines.append(lead + self.scalar(item, False))
            else:
                raise _Unusual

    def scalar(self, value: Any, flow: bool) -> str:
        """A scalar as the emitter writes it."""
        cls = value.__class__
        if cls is str:
            return (self.flow if flow else self.block).get(value) or self.text(value, flow)
        if cls is int:
            return str(value)
        if cls is float and value == value and abs(value) != float("inf"):
            text = repr(value).lower()  # SafeRepresenter.represent_float
            return text.replace("e", ".0e", 1) if "." not in text and "e" in text else text
        raise _Unusual

    def text(self, value: str, flow: bool) -> str:
        """A string not written before in this context: decided, and remembered."""
        text = (self.flow if flow else self.block)[value] = _text(value, flow)
        return text


def _text(value: str, flow: bool) -> str:
    """Plain if the emitter allows it and it reads back as a string, else single-quoted."""
    if not _PRINTABLE.fullmatch(value):
        raise _Unusual  # empty, or a character the emitter escapes or breaks at
    if _plain(value, flow) and _RESOLVER.resolve(ScalarNode, value, (True, False)) == STR_TAG:
        return value
    return "'" + value.replace("'", "''") + "'"


def _plain(value: str, flow: bool) -> bool:
    """``Emitter.analyze_scalar``'s verdict on a plain scalar, for one printable line."""
    first, end = value[0], len(value) == 1 or value[1] == " "
    if (
        value.startswith(("---", "..."))
        or first == " "
        or value[-1] == " "
        or first in "#,[]{}&*!|>'\"%@`"
        or first in "?:"
        and (flow or end)
        or first == "-"
        and end
        or ": " in value
        or value.endswith(":")
        or " #" in value
    ):
        return False
    return not (flow and any(c in ",?[]{}:" for c in value[1:]))
