"""Hostile text for the parsers: random text, tricky tokens, and near-valid mutations.

Every property in this folder checks the same contract with :func:`outcome`: a parser
returns a result or raises exactly one clean :class:`fscli.errors.FscliError` subclass,
never another exception type.
"""

from __future__ import annotations

from hypothesis import strategies as st

from fscli.errors import FscliError

# Pieces that break naive parsers: separators, quotes, escapes, control characters,
# digits Python reads but ASCII regexes do not, and numbers too large for any column.
TOKENS = (
    "=",
    ",",
    "|",
    ":",
    "-",
    "+",
    "+=",
    "-=",
    "[",
    "]",
    "(",
    ")",
    "#",
    "'",
    '"',
    "\\",
    " ",
    "\t",
    "\n",
    "\r",
    "\x00",
    "\x1f",
    "\x85",
    "\u2028",
    "\ufeff",
    "-1",
    "0",
    "1",
    "1.5",
    ".",
    "e",
    "1e308",
    "nan",
    "inf",
    "-0",
    "00",
    "9" * 25,
    "9" * 400,
    "9" * 5000,
    "UNLIMITED",
    "parent",
    "set",
    "where",
    "now",
    "٣",
    "１",
    "é",
    "𝟘",
    "G",
    "T",
    "M",
    "K",
    "*",
    "&a",
    "!!int",
    "? ",
    "- ",
    "{",
    "}",
    "0001-01-01T00:00:00",
    "9999-12-31T23:59:59",
)

token = st.sampled_from(TOKENS)
piece = st.one_of(token, st.text(max_size=4))

# Fully random text, and text woven from the tricky tokens.
hostile = st.one_of(st.text(max_size=60), st.lists(piece, max_size=12).map("".join))

# Values that some key accepts (names from the tests' ``science`` tree): with them a
# command gets past parsing and reaches the store, where a late failure must undo it all.
values = st.one_of(
    hostile,
    st.sampled_from(
        (
            "40",
            "1",
            "0",
            "-1",
            "100",
            "parent",
            "physics",
            "chem",
            "alice",
            "c1",
            "normal",
            "normal,high",
            "cpu=4,mem=8G",
            "cpu=-1",
            "2-00:00:00",
            "1:00:00",
        )
    ),
)


@st.composite
def mutated(draw, valid: st.SearchStrategy[str]) -> str:
    """A valid text with one mutation: a character or token inserted, deleted or replaced,
    or a slice duplicated."""
    text = draw(valid)
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 8)))
    kind = draw(st.sampled_from(("insert", "delete", "replace", "duplicate")))
    if kind == "delete":
        return text[:start] + text[end:]
    if kind == "duplicate":
        return text[:end] + text[start:end] + text[end:]
    new = draw(piece)
    return text[:start] + new + text[end if kind == "replace" else start :]


def near(valid: str | st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Mutations of one valid text (or of texts drawn from a strategy)."""
    return mutated(st.just(valid) if isinstance(valid, str) else valid)


OPTIONS = ("--dry-run", "-P", "--json", "--", "-x", "--bogus", "-")


@st.composite
def word(draw, aliases: list[str], values: st.SearchStrategy[str] = hostile) -> str:
    """A command word: a known key (random case) with an operator and a value, a
    keyword, a name, an option, or random text."""
    kind = draw(st.sampled_from(("pair", "pair", "pair", "keyword", "name", "option", "random")))
    if kind == "keyword":
        return draw(st.sampled_from(("set", "SET", "where", "Where")))
    if kind == "name":
        return draw(st.one_of(st.sampled_from(("physics", "a,b", ",", " x , ", "zed")), piece))
    if kind == "option":
        return draw(st.sampled_from(OPTIONS))
    if kind == "random":
        return draw(hostile)
    key = "".join(c.upper() if draw(st.booleans()) else c for c in draw(st.sampled_from(aliases)))
    return f"{key}{draw(st.sampled_from(('=', '+=', '-=', '==')))}{draw(values)}"


def outcome(func, *args, **kwargs):
    """``func``'s result, or the clean FscliError it raised; any other exception fails."""
    try:
        return func(*args, **kwargs)
    except FscliError as exc:
        assert type(exc) is not FscliError, "raise a specific FscliError subclass"
        assert isinstance(exc.message, str) and exc.message.strip(), repr(exc)
        return exc


def failed(value) -> bool:
    return isinstance(value, FscliError)
