"""Text -> YAML nodes, with the line of each, for the tree reader's error messages.

Composing the node tree (instead of loading Python objects) keeps every value's line;
:class:`Composer` does it fast for the block YAML people and the writer produce, and
anything else goes to PyYAML.
"""

from __future__ import annotations

import re

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from fscli.io.yamltree.schema import MAP_TAG, NULL_TAG, SEQ_TAG, STR_TAG


def compose(text: str) -> Node | None:
    """The YAML node tree of ``text``: :class:`Composer` for plain block YAML, else PyYAML."""
    try:
        return Composer(text).document()
    except Unusual:
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


class Unusual(Exception):
    """The text uses YAML beyond :class:`Composer`'s subset: PyYAML composes it."""


class Mark(yaml.Mark):
    """The part of ``yaml.Mark`` the loader reads: the 0-based line (a ``yaml.Mark`` by
    type, without the five other fields each of 100,000 lines would carry)."""

    __slots__ = ("line",)

    def __init__(self, line: int):  # no super().__init__(): only ``line`` is ever read
        self.line = line


_RESOLVERS = yaml.SafeLoader.yaml_implicit_resolvers
# what PyYAML refuses (NON_PRINTABLE), line breaks other than \n and \r\n, tabs, a BOM
AVOID = re.compile(
    "[^\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
    "\U00010000-\U0010ffff]|\r(?!\n)"
)
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F)) + b"\n\r"


def avoided(text: str) -> bool:
    """Whether :data:`AVOID` finds anything in ``text``: for ASCII text (most trees), a
    character outside :data:`_PRINTABLE_ASCII` or a ``\\r`` without its ``\\n``, found
    ten times faster than by the expression's scan."""
    if not text.isascii():
        return AVOID.search(text) is not None
    if text.encode("ascii").translate(None, _PRINTABLE_ASCII):
        return True
    return "\r" in text and AVOID.search(text) is not None


_PLAIN_START = re.compile(r"[^-?:,\[\]{}#&*!|>'\"%@`\s]|[-?:][^\s]")
# in a flow collection "?" opens a key and ends a plain scalar, wherever it stands
_FLOW_ITEM = re.compile(
    r"(?:[^-?:,\[\]{}#&*!|>'\"%@`\s]|-[^\s,\[\]{}:#'\"?])"
    r"[^,\[\]{}:#'\"?]*"
)


class Composer:
    """PyYAML's nodes for the block YAML that people and :func:`dump` write, fast.

    The subset: block mappings and sequences (also a sequence indented like its
    key), one-line plain and quoted scalars, one-line flow sequences and mappings of
    plain scalars, comments. It yields the nodes, tags and lines ``yaml.compose``
    would, faster than PyYAML's C composer (whose cost is building Python objects for
    every event and mark): on an export of 100,000 associations, 1.6 s of CPU against
    2.0 s (``CSafeLoader``, garbage collector off for both, as the reader runs). Its
    scalar rules also tag the values of the ``users:`` reader (:mod:`.users`), which reads
    that export in 0.73 s where ``CSafeLoader``'s nodes and the node reader take 3.3 s:
    measured for issue 34, which asked whether this reader beside PyYAML's earns its
    place. Anything else (anchors, tags, block scalars, multi-line scalars, documents
    markers, tabs, syntax errors) raises :class:`Unusual` and PyYAML composes the text,
    errors included.
    """

    def __init__(self, text: str):
        if avoided(text):
            raise Unusual
        self.lines: list[tuple[int, str, Mark]] = []  # (indent, content, mark)
        for number, raw in enumerate(text.split("\n")):
            content = raw.rstrip(" \r")
            stripped = content.lstrip(" ")
            if not stripped or stripped[0] == "#":
                continue
            if stripped.startswith(("---", "...", "%")):
                raise Unusual
            self.lines.append((len(content) - len(stripped), stripped, Mark(number)))
        self.lines.append((-1, "", Mark(0)))  # the end: shallower than any block
        self.pos = 0
        self.tags: dict[str, str] = {}
        # one string object per distinct key and plain value: a tree repeats "account:",
        # "fairshare:" and its account names 100,000 times (30 MB of nodes at that size)
        self.names: dict[str, str] = {}

    def document(self) -> Node | None:
        if len(self.lines) == 1:
            return None
        node = self.block(self.lines[0][0])
        if self.pos != len(self.lines) - 1:
            raise Unusual
        return node

    def block(self, indent: int) -> Node:
        """The mapping or sequence whose lines start at column ``indent``."""
        content = self.lines[self.pos][1]
        if content == "-" or content.startswith("- "):
            return self.sequence(indent)
        return self.mapping(indent)

    def sequence(self, indent: int) -> SequenceNode:
        lines = self.lines
        items: list[Node] = []
        mark = lines[self.pos][2]
        while True:
            col, content, line_mark = lines[self.pos]
            if col != indent or not (content == "-" or content.startswith("- ")):
                break
            rest = content[1:].lstrip(" ")
            if not rest:
                self.pos += 1
                items.append(self.nested(indent, line_mark, False))
            elif (
                rest[0] not in "[{'\""
                and ": " in rest
                or rest.endswith(":")
                or rest.startswith("- ")
                or rest == "-"
            ):
                # an item that opens a mapping or sequence: go on as if on its own line
                lines[self.pos] = (col + len(content) - len(rest), rest, line_mark)
                items.append(self.block(col + len(content) - len(rest)))
            else:
                self.pos += 1
                items.append(self.value(rest, line_mark))
        return SequenceNode(SEQ_TAG, items, mark, mark)

    def mapping(self, indent: int) -> MappingNode:
        lines, tags, names = self.lines, self.tags, self.names
        pairs: list[tuple[Node, Node]] = []
        mark = lines[self.pos][2]
        while True:
            col, content, line_mark = lines[self.pos]
            if col != indent:
                if col < indent:
                    break
                raise Unusual
            cut = content.find(": ")
            if cut < 0:
                if not content.endswith(":"):
                    raise Unusual
                cut = len(content) - 1
            key = content[:cut].rstrip(" ")
            key = names.setdefault(key, key)
            rest = content[cut + 1 :].lstrip(" ")
            self.pos += 1
            key_node = ScalarNode(tags.get(key) or self.plain(key), key, line_mark, line_mark)
            if not rest or rest[0] == "#":
                value = self.nested(indent, line_mark, True)
            elif rest[0] in "'\"[{" or " #" in rest:
                value = self.value(rest, line_mark)
            else:  # a plain scalar, most values: as value() makes it, without the call
                rest = names.setdefault(rest, rest)
                value = ScalarNode(tags.get(rest) or self.plain(rest), rest, line_mark, line_mark)
            pairs.append((key_node, value))
        return MappingNode(MAP_TAG, pairs, mark, mark)

    def nested(self, indent: int, mark: Mark, in_mapping: bool) -> Node:
        """The value of a key or ``-`` with nothing after it: the lines below, or null."""
        col, content = self.lines[self.pos][:2]
        if col > indent:
            return self.block(col)
        if in_mapping and col == indent and (content == "-" or content.startswith("- ")):
            return self.sequence(indent)
        return ScalarNode(NULL_TAG, "", mark, mark)

    def value(self, text: str, mark: Mark) -> Node:
        """A one-line value: plain or quoted scalar, flow sequence or mapping."""
        first = text[0]
        if first in "'\"":
            end = text.find(first, 1)
            if first == "'":
                while end > 0 and text[end + 1 : end + 2] == "'":
                    end = text.find("'", end + 2)
            tail = text[end + 1 :].lstrip(" ") if end > 0 else "?"
            body = text[1:end]
            if tail and tail[0] != "#" or first == '"' and "\\" in body:
                raise Unusual
            return ScalarNode(
                STR_TAG, body.replace("''", "'") if first == "'" else body, mark, mark, style=first
            )
        if first in "[{":
            return self.flow(text, mark)
        cut = text.find(" #")
        if cut >= 0:
            text = text[:cut].rstrip(" ")
        text = self.names.setdefault(text, text)
        return ScalarNode(self.plain(text), text, mark, mark)

    def flow(self, text: str, mark: Mark) -> Node:
        """``[a, b]`` or ``{k: v, k2: v2}`` of plain scalars, on one line."""
        close = "]" if text[0] == "[" else "}"
        end = text.find(close)
        tail = text[end + 1 :].lstrip(" ")
        if end < 0 or tail and tail[0] != "#":
            raise Unusual
        inner = text[1:end].strip(" ")
        items = [item.strip(" ") for item in inner.split(",")] if inner else []
        if close == "]":
            return SequenceNode(
                SEQ_TAG,
                [self.flow_scalar(item, mark) for item in items],
                mark,
                mark,
                flow_style=True,
            )
        pairs = []
        for item in items:
            key, sep, value = item.partition(": ")
            if not sep:
                raise Unusual
            pairs.append((self.flow_scalar(key, mark), self.flow_scalar(value.lstrip(" "), mark)))
        return MappingNode(MAP_TAG, pairs, mark, mark, flow_style=True)

    def flow_scalar(self, text: str, mark: Mark) -> Node:
        if text[:1] in ("'", '"') and len(text) > 1 and text[-1] == text[0]:
            return self.value(text, mark)
        if not _FLOW_ITEM.fullmatch(text):
            raise Unusual
        return ScalarNode(self.plain(text), text, mark, mark)

    def plain(self, value: str) -> str:
        """The tag PyYAML's resolver gives a one-line plain scalar (``int``, ``str``...)."""
        tag = self.tags.get(value)
        if tag is None:
            if (
                not _PLAIN_START.match(value)
                or ": " in value
                or " #" in value
                or value.endswith(":")
            ):
                raise Unusual
            tag = STR_TAG
            for candidate, regexp in _RESOLVERS.get(value[0], ()):
                if regexp.match(value):
                    tag = candidate
                    break
            self.tags[value] = tag
        return tag
