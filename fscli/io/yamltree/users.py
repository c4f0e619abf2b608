"""A tree's ``users:`` section read from its lines straight into UserSpecs.

A tree of 100,000 associations is nine tenths users: composing them into YAML nodes and
walking the nodes took 1.4 of the 1.8 seconds its reading cost. :func:`read_users` reads
the block YAML that :func:`~fscli.io.yamltree.dump` and people write for users (names as
block mappings; associations as a block sequence, indented or not, of account names or
mappings; one-line plain values; one-line flow lists) without building nodes, with the
composer's own rules for every line (:meth:`Composer.plain` tags each value as PyYAML
would) and the treespec parsers the node reader calls. Anything else, and anything the
node reader would refuse, raises :class:`~fscli.io.yamltree.compose.Unusual`: the caller
then reads the whole text through the nodes, whose result and errors stay the reference
(``tests/io/test_yamltree_users.py`` holds the two to the same trees).

Before it, :func:`read_exported` tries the very text ``dump`` writes (``fscli export``):
two regular expressions take each user and each association with its account, partition
and FairShare, and the lines they leave open go to :func:`read_users`'s own methods. It
reads that text in half the time (0.25 s less at 100,000 associations); any other text
it leaves to :func:`read_users`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from yaml.nodes import ScalarNode, SequenceNode

from fscli.engine.limits import definitions as limitdefs
from fscli.engine.treespec import (
    UserAssocSpec,
    UserSpec,
    parse_admin_level,
    parse_limit_value,
    parse_qos_list,
    parse_shares,
)
from fscli.errors import FscliError
from fscli.heap import keep_until_exit
from fscli.io.yamltree.compose import Composer, Mark, Unusual
from fscli.io.yamltree.schema import (
    INT_TAG,
    MAX_NUMBER,
    NULL_TAG,
    STR_TAG,
    USER_ASSOC_KEYS,
    USER_KEYS,
)

_DECIMAL = re.compile(r"0|[1-9][0-9]*")
"""The whole numbers read here: YAML 1.1 also reads ``0x1f``, ``017`` (octal) and
``1_000`` as integers, which only the node reader's constructor converts."""
_NO_MARK = Mark(0)
_BLANK = (-2, "")  # a blank or comment line
_ARGUMENT = {"fairshare": "shares"}
"""UserAssocSpec's argument for a YAML key that is not its name."""


def block_lines(text: str) -> list[tuple[int, str]]:
    """(indent, content) of each line of ``text`` that is neither blank nor a comment,
    as :class:`Composer` splits them; document markers and directives are refused. A
    line met before is not looked at again: a tree repeats most of its lines."""
    lines = []
    known: dict[str, tuple[int, str]] = {}
    for raw in text.split("\n"):
        line = known.get(raw)
        if line is None:
            content = raw.rstrip(" \r")
            stripped = content.lstrip(" ")
            if not stripped or stripped[0] == "#":
                line = _BLANK
            elif stripped.startswith(("---", "...", "%")):
                raise Unusual
            else:
                line = (len(content) - len(stripped), stripped)
            known[raw] = line
        if line is not _BLANK:
            lines.append(line)
    return lines


_KEY = r"[A-Za-z0-9_][A-Za-z0-9_.@+-]*"
"""A name as a plain scalar that reads as written (no quotes, spaces, ``:`` or ``#``)."""
_VALUE = rf"(?!(?:null|Null|NULL)\n){_KEY}"
""":data:`_KEY` as a value: anything but a null."""
_EXPORTED_USER = re.compile(
    rf"  ({_KEY}):\n    default_account: ({_VALUE})\n((?:    (?!associations:)[^\n]*\n)*)"
    r"    associations:\n((?:    - [^\n]*\n(?:      [^\n]*\n)*)+)"
)
_EXPORTED_ASSOC = re.compile(
    rf"    - account: ({_VALUE})\n(?:      partition: ({_VALUE})\n)?"
    r"(?:      fairshare: (0|[1-9][0-9]*|parent)\n)?((?:      [^\n]*\n)*)"
)


def read_exported(block: str, composer: Composer) -> dict[str, UserSpec] | None:
    """The users of a ``users:`` section's text after its first line (``block``) in the
    very shape :func:`~fscli.io.yamltree.dump` writes, the line breaks ``\\n``, or None
    for any other text (then :func:`read_users` reads it). Twice as fast as that: regular
    expressions take each user and each association, and each value is what the lines
    mean to :func:`read_users`, which reads every line the expressions leave open (a
    user's settings but its default account, an association's but its account, partition
    and FairShare); what that refuses raises :class:`Unusual`, as there."""
    if not block:
        return None
    reader = _Users([], composer)
    users: dict[str, UserSpec] = {}
    pos, end = 0, len(block)
    try:
        while pos < end:
            match = _EXPORTED_USER.match(block, pos)
            if match is None:
                return None
            pos = match.end()
            name, default, more, items = match.groups()
            if name in users:
                raise Unusual
            out = reader.settings(more) if more else {}
            users[name] = UserSpec(
                name=name, default_account=default, associations=reader.sequence(items), **out
            )
    except FscliError:  # the node reader names the line and the place
        raise Unusual from None
    keep_until_exit(reader)  # its caches
    return users


def _none(_indent: int) -> None:
    """The associations of a user are not among its other settings."""
    raise Unusual


def read_users(lines: list[tuple[int, str]], composer: Composer) -> dict[str, UserSpec]:
    """The users of the ``users:`` block's ``lines`` (:func:`block_lines`), each checked as
    :class:`~fscli.io.yamltree.read._Loader` checks it; :class:`Unusual` for anything
    else. ``composer`` tags the values (its cache of tags serves the whole file)."""
    reader = _Users(lines, composer)
    keep_until_exit(reader)  # its caches and 100,000 lines: 0.02 s to free
    try:
        return reader.read()
    except FscliError:  # the node reader names the line and the place
        raise Unusual from None


class _Users:
    def __init__(self, lines: list[tuple[int, str]], composer: Composer):
        lines.append((-1, ""))  # the end: shallower than any block
        self.lines = lines
        self.pos = 0
        self.plain = composer.plain
        self.flow = composer.flow
        # what each distinct line says (most lines of a tree repeat others)
        self.keys: dict[str, tuple[str, str]] = {}  # line -> (key, value text)
        # line -> (key, value), one cache per kind of mapping: a line means something
        # else in the other one (where its key may not be allowed)
        self.user_values: dict[str, tuple[str, Any]] = {}
        self.assoc_values: dict[str, tuple[str, Any]] = {}
        self.items: dict[str, str | tuple[str]] = {}  # "- ..." line -> self.item(line)
        self.shares: dict[str, int] = {}  # a FairShare as written -> its value

    def read(self) -> dict[str, UserSpec]:
        lines = self.lines
        indent = lines[0][0]
        if indent <= 0:
            raise Unusual
        users: dict[str, UserSpec] = {}
        while lines[self.pos][0] == indent:
            name, rest = self.key(lines[self.pos][1])
            self.pos += 1
            if rest or not name or name in users:
                raise Unusual
            users[name] = self.user(name, indent)
        if lines[self.pos][0] != -1:
            raise Unusual
        return users

    def sequence(self, text: str) -> list[UserAssocSpec]:
        """The associations of a user's ``associations:`` block (``text``), indented as
        the writer indents them: straight from :data:`_EXPORTED_ASSOC` while each has
        only an account, a partition and a FairShare, else as :meth:`assocs` reads them."""
        found = []
        pos, end = 0, len(text)
        while pos < end:
            match = _EXPORTED_ASSOC.match(text, pos)
            if match is None or match.group(4):  # a line the expression leaves open
                return self.lines_of(text, self.assocs)
            pos = match.end()
            account, partition, fairshare, _ = match.groups()
            out: dict[str, Any] = {"account": account}
            if partition:
                out["partition"] = partition
            if fairshare:
                shares = self.shares.get(fairshare)
                if shares is None:
                    shares = self.shares[fairshare] = parse_shares(fairshare)
                out["shares"] = shares
            found.append(UserAssocSpec(**out))
        return found

    def settings(self, text: str) -> dict[str, Any]:
        """The settings of a user on the lines ``text`` (between its default account and
        its associations), as :meth:`user` reads them."""
        out = self.lines_of(
            text,
            lambda indent: self.fields(indent, self.user_values, USER_KEYS, "associations", _none),
        )
        if "default_account" in out:
            raise Unusual
        return out

    def lines_of(self, text: str, read: Callable[[int], Any]) -> Any:
        """``read(4)`` of the lines of ``text``, which must take all of them."""
        self.lines, self.pos = [*block_lines(text), (-1, "")], 0
        found = read(4)
        if self.lines[self.pos][0] != -1:
            raise Unusual
        return found

    def key(self, content: str) -> tuple[str, str]:
        """(key, the text after it) of a ``key: value`` or ``key:`` line ("" if none)."""
        found = self.keys.get(content)
        if found is None:
            found = self.keys[content] = self._key(content)
        return found

    def _key(self, content: str) -> tuple[str, str]:
        cut = content.find(": ")
        if cut < 0:
            if content[-1] != ":":
                raise Unusual
            cut = len(content) - 1
        key = content[:cut].rstrip(" ")
        self.plain(key)
        rest = content[cut + 1 :].lstrip(" ")
        return key.strip(), "" if rest[:1] == "#" else rest  # a comment: the value is below

    def scalar(self, rest: str) -> tuple[str, str]:
        """(tag, value) of a one-line plain value that is not null."""
        if not rest or rest[0] in "'\"[{" or " #" in rest:
            raise Unusual
        tag = self.plain(rest)
        if tag == NULL_TAG:
            raise Unusual
        return tag, rest

    def names(self, rest: str) -> list[str]:
        """A list of names: a one-line flow sequence or one comma-separated string."""
        if rest[:1] == "[":
            node = self.flow(rest, _NO_MARK)
            if not isinstance(node, SequenceNode):  # pragma: no cover - "[" opens a sequence
                raise Unusual
            items = []
            for item in node.value:
                if not isinstance(item, ScalarNode) or item.tag == NULL_TAG:
                    raise Unusual
                items.append(item.value.strip())
            return items
        return [n.strip() for n in self.scalar(rest)[1].split(",") if n.strip()]

    def mapping_at(self, above: int) -> int:
        """The indent of the block mapping that starts on the current line, deeper than
        ``above``."""
        col, content = self.lines[self.pos]
        if col <= above or content == "-" or content.startswith("- "):
            raise Unusual
        return col

    def user(self, name: str, above: int) -> UserSpec:
        indent = self.mapping_at(above)
        out = self.fields(indent, self.user_values, USER_KEYS, "associations", self.assocs)
        if "associations" not in out:
            raise Unusual
        return UserSpec(name=name, **out)

    def fields(
        self,
        indent: int,
        values: dict[str, tuple[str, Any]],
        allowed: tuple[str, ...],
        nested: str,
        read_nested: Callable[[int], Any],
    ) -> dict[str, Any]:
        """The lines of one block mapping at ``indent``, as the spec's arguments (each
        kind of line read once: ``values`` keeps what it means); ``nested`` is the key
        whose value is the block below it, read by ``read_nested``."""
        lines = self.lines
        out: dict[str, Any] = {}
        while lines[self.pos][0] == indent:
            content = lines[self.pos][1]
            self.pos += 1
            found = values.get(content)
            if found is None:
                key, value = self.value(content, allowed, nested)
                found = values[content] = (_ARGUMENT.get(key, key), value)
            key, value = found
            if key in out:
                raise Unusual
            out[key] = read_nested(indent) if key == nested else value
        return out

    def assocs(self, key_indent: int) -> list[UserAssocSpec]:
        """The block sequence under ``associations:``, at its key's indent or deeper."""
        lines, items = self.lines, self.items
        indent, content = lines[self.pos]
        if indent < key_indent or not content.startswith("- "):
            raise Unusual
        found = []
        while True:
            col, content = lines[self.pos]
            if col != indent or not content.startswith("- "):
                break
            item = items.get(content)
            if item is None:
                item = items[content] = self.item(content)
            if item.__class__ is str:  # a mapping: go on as if the item were on its own line
                lines[self.pos] = (col + len(content) - len(item), item)
                found.append(self.assoc())
            else:
                self.pos += 1
                found.append(UserAssocSpec(account=item[0]))
        if col == indent and indent > key_indent:  # not a key of the user's mapping
            raise Unusual
        return found

    def item(self, content: str) -> str | tuple[str]:
        """A sequence item's text if it opens a mapping, else (its account,)."""
        rest = content[2:].lstrip(" ")
        if rest[0] not in "[{'\"" and ": " in rest or rest.endswith(":"):
            return rest
        return (self.scalar(rest)[1].strip(),)

    def assoc(self) -> UserAssocSpec:
        indent = self.lines[self.pos][0]
        out = self.fields(indent, self.assoc_values, USER_ASSOC_KEYS, "limits", self.limits)
        if "account" not in out:
            raise Unusual
        return UserAssocSpec(**out)

    def value(self, content: str, allowed: tuple[str, ...], nested: str) -> tuple[str, Any]:
        """(key, value) of a line of a user's or an association's mapping: every key in
        ``allowed`` has a one-line value but ``nested``, whose lines follow (the caller
        reads them; its value here is None)."""
        key, rest = self.key(content)
        if key not in allowed or (key == nested) != (not rest):
            raise Unusual
        if key == nested:
            return key, None
        if key in ("coordinator_of", "qos"):
            names = self.names(rest)
            return key, parse_qos_list(names) if key == "qos" else names
        tag, value = self.scalar(rest)
        if key == "fairshare":
            if not (
                tag == INT_TAG
                and _DECIMAL.fullmatch(value)
                or tag == STR_TAG
                and value.strip().lower() == "parent"
            ):
                raise Unusual
            return key, parse_shares(value)
        if key == "priority":
            if tag != INT_TAG or not _DECIMAL.fullmatch(value) or int(value) > MAX_NUMBER:
                raise Unusual
            return key, int(value)
        if key == "admin_level":
            return key, parse_admin_level(value)
        return key, value if key == "default_qos" else value.strip()

    def limits(self, above: int) -> dict[str, Any]:
        lines = self.lines
        indent = self.mapping_at(above)
        seen: set[str] = set()
        result: dict[str, Any] = {}
        while lines[self.pos][0] == indent:
            key, rest = self.key(lines[self.pos][1])
            self.pos += 1
            if key in seen:
                raise Unusual
            seen.add(key)
            name, value = parse_limit_value(key, self.scalar(rest)[1], limitdefs.ASSOC)
            if name in result:
                raise Unusual
            result[name] = value
        return result
