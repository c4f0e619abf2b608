"""LSF ``USER_SHARES[[name, shares] ...]`` text: parse it and write it back.

A name is a user, a known user group (the group shares collectively), ``group@`` (each
member of the group gets the shares), ``default`` (each unlisted user) or ``others`` (all
unlisted users together). The caller passes the known group names, since only they tell
a group from a user. Errors are :class:`~fscli.errors.InvalidValue` with one line naming
the problem and the 1-based character position in the text given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from fscli.engine.lsf.shares import DEFAULT, EACH, GROUP, OTHERS, USER, ShareEntry
from fscli.errors import InvalidValue, did_you_mean

_TOKEN = re.compile(r"\s*(?:([\[\](),])|([^\s\[\](),]+))")
_SYMBOLS = frozenset("[](),")
_KEYWORD = re.compile(r"\s*(?:FAIRSHARE\s*=\s*)?USER_SHARES\b", re.IGNORECASE)


class _Tokens:
    """Tokens of the text with their 1-based positions; ``None`` past the end."""

    def __init__(self, text: str, start: int, what: str):
        self.what = what
        self.items: list[tuple[str, int]] = []
        pos = start
        while pos < len(text) and text[pos:].strip():
            match = _TOKEN.match(text, pos)
            # every non-blank character starts a token, in one group or the other
            assert match is not None and match.lastindex is not None
            token = match.group(1) or match.group(2)
            self.items.append((token, match.start(match.lastindex) + 1))
            pos = match.end()
        self.index = 0
        self.end = len(text.rstrip()) + 1

    def fail(self, problem: str, pos: int | None = None) -> InvalidValue:
        where = self.peek()[1] if pos is None else pos
        return InvalidValue(f"invalid {self.what}: {problem} at character {where}")

    def peek(self) -> tuple[str | None, int]:
        if self.index < len(self.items):
            return self.items[self.index]
        return None, self.end

    def take(self) -> tuple[str | None, int]:
        token = self.peek()
        self.index += 1
        return token

    def expect(self, symbol: str, problem: str) -> int:
        token, pos = self.take()
        if token != symbol:
            raise self.fail(problem if token is None else f"{problem}, found '{token}'", pos)
        return pos

    def check_balance(self, pairs: str) -> None:
        """Report an unmatched bracket before anything else: it is the likeliest typo."""
        opener, closer = pairs[0], pairs[1]
        stack: list[int] = []
        for token, pos in self.items:
            if token == opener:
                stack.append(pos)
            elif token == closer:
                if not stack:
                    raise self.fail(
                        f"unbalanced brackets: '{closer}' has no matching '{opener}'", pos
                    )
                stack.pop()
        if stack:
            raise self.fail(f"unbalanced brackets: '{opener}' is never closed", stack[-1])


def _pairs(tokens: _Tokens, groups: frozenset[str], closer: str | None) -> tuple[ShareEntry, ...]:
    """``[name, shares]`` pairs up to ``closer`` (consumed; ``None``: the end of the text)."""
    entries: list[ShareEntry] = []
    seen: dict[str, int] = {}
    while True:
        if tokens.peek()[0] == closer:
            if not entries:
                raise tokens.fail("expected at least one [name, shares] pair")
            tokens.take()
            return tuple(entries)
        tokens.expect("[", "expected '[' to open a [name, shares] pair")
        at = tokens.peek()[1]
        entry, key = _pair(tokens, groups)
        if key in seen:
            raise tokens.fail(f"'{key}' is listed twice (first at character {seen[key]})", at)
        seen[key] = at
        entries.append(entry)


def _pair(tokens: _Tokens, groups: frozenset[str]) -> tuple[ShareEntry, str]:
    name, pos = tokens.take()
    if name is None or name in _SYMBOLS:
        raise tokens.fail("missing name in a [name, shares] pair", pos)
    token, comma_pos = tokens.take()
    if token != ",":
        raise tokens.fail(f"missing share for '{name}' (expected ', shares')", comma_pos)
    share, share_pos = tokens.take()
    if share is None or share in _SYMBOLS:
        raise tokens.fail(f"missing share for '{name}'", share_pos)
    if not re.fullmatch(r"[+-]?\d+", share):
        raise tokens.fail(
            f"share for '{name}' is '{share}': expected a whole number > 0", share_pos
        )
    if len(share.lstrip("+-0")) > 10:
        raise tokens.fail(
            f"share for '{name}' is out of range: expected at most 10 digits", share_pos
        )
    if int(share) <= 0:
        raise tokens.fail(f"share for '{name}' is {share}: must be > 0", share_pos)
    tokens.expect("]", f"expected ']' to close the pair for '{name}'")
    if name.endswith("@"):
        group = name[:-1]
        if group not in groups:
            raise tokens.fail(
                f"unknown user group '{group}' in '{name}'{did_you_mean(group, groups)}", pos
            )
        return ShareEntry(group, int(share), EACH), group
    if name in (DEFAULT, OTHERS):
        return ShareEntry(name, int(share), name), name
    kind = GROUP if name in groups else USER
    return ShareEntry(name, int(share), kind), name


def parse_user_shares(text: str, groups: Iterable[str] = ()) -> tuple[ShareEntry, ...]:
    """Parse ``USER_SHARES[[user1, 2000] [default, 1000]]`` (an optional ``FAIRSHARE=``
    in front, whitespace anywhere between tokens)."""
    keyword = _KEYWORD.match(text)
    if keyword is None:
        at = len(text) - len(text.lstrip()) + 1
        raise InvalidValue(
            f"invalid USER_SHARES: expected 'USER_SHARES[[name, shares] ...]' at character {at}"
        )
    tokens = _Tokens(text, keyword.end(), "USER_SHARES")
    tokens.check_balance("[]")
    tokens.expect("[", "expected '[' after USER_SHARES")
    entries = _pairs(tokens, frozenset(groups), "]")
    _end(tokens)
    return entries


def parse_share_pairs(text: str, groups: Iterable[str] = ()) -> tuple[ShareEntry, ...]:
    """Parse bare pairs ``[user1, 10] [user2, 5]``, optionally in parentheses as in the
    USER_SHARES column of lsb.users (``([user1, 10] [default, 5])``)."""
    tokens = _Tokens(text, 0, "USER_SHARES")
    tokens.check_balance("[]")
    tokens.check_balance("()")
    wrapped = tokens.peek()[0] == "("
    if wrapped:
        tokens.take()
    if tokens.peek()[0] is None:
        raise tokens.fail("expected at least one [name, shares] pair")
    entries = _pairs(tokens, frozenset(groups), ")" if wrapped else None)
    _end(tokens)
    return entries


def _end(tokens: _Tokens) -> None:
    token, pos = tokens.peek()
    if token is not None:
        raise tokens.fail(f"unexpected '{token}' after the last pair", pos)


def format_share_pairs(entries: Sequence[ShareEntry]) -> str:
    """``[user1, 2000] [default, 1000]``: the pairs as bqueues -l prints them."""
    return " ".join(f"[{e.label}, {e.shares}]" for e in entries)


def format_user_shares(entries: Sequence[ShareEntry]) -> str:
    """The canonical text, which :func:`parse_user_shares` reads back to the same entries."""
    return f"USER_SHARES[{format_share_pairs(entries)}]"
