"""``fscli --help`` without click: the text click's ``HelpFormatter`` makes of the same
parts (:data:`fscli.cli.fast.grammar.HELP`, generated from the group, and the commands
of :mod:`fscli.cli.program`), at the width click would use.

This follows click's formatter (``click/formatting.py``, ``click/_textwrap.py``) for
what the top-level help holds: a usage line, text with ``\\b`` blocks, definition lists.
``tests/cli/test_fast.py`` holds it equal to click's text at many terminal widths.
"""

from __future__ import annotations

import textwrap

from fscli.cli.program import PROG, command_rows


def top_help() -> str | None:
    """The text of ``fscli --help``, without its last newline; None when it is not plain
    ASCII (click may then re-encode it for the terminal)."""
    from shutil import get_terminal_size

    from fscli.cli.fast.grammar import HELP

    out = Formatter(max(min(get_terminal_size().columns, 80) - 2, 50))
    out.write_usage(PROG, HELP["usage"])
    out.write_text(HELP["text"])
    out.write_section("Options", HELP["options"])
    out.write_section("Commands", command_rows())
    out.write_text(HELP["epilog"])
    text = out.getvalue().rstrip("\n")
    return text if text.isascii() else None


class _Wrapper(textwrap.TextWrapper):
    """click's ``TextWrapper``: a word longer than the line is cut where the line ends
    (the standard library's prefers a hyphen)."""

    def _handle_long_word(self, reversed_chunks, cur_line, cur_len, width):
        space_left = max(width - cur_len, 1)
        if self.break_long_words:
            last = reversed_chunks[-1]
            cur_line.append(last[:space_left])
            reversed_chunks[-1] = last[space_left:]
        elif not cur_line:
            cur_line.append(reversed_chunks.pop())


def wrap_text(text: str, width: int, indent: str = "") -> str:
    """click's ``wrap_text(..., preserve_paragraphs=True)``: paragraphs are separated by
    empty lines, keep the indentation of their first line, and a paragraph that starts
    with a ``\\b`` line is kept as it is."""
    wrapper = _Wrapper(
        width, initial_indent=indent, subsequent_indent=indent, replace_whitespace=False
    )
    paragraphs: list[tuple[int, bool, str]] = []
    buf: list[str] = []
    lead = None
    for line in [*text.expandtabs().splitlines(), ""]:
        if line:
            if lead is None:
                lead = len(line) - len(line.lstrip())
                line = line.lstrip()
            buf.append(line)
        elif buf:
            raw = buf[0].strip() == "\b"
            paragraphs.append((lead or 0, raw, "\n".join(buf[1:]) if raw else " ".join(buf)))
            buf, lead = [], None
        else:
            lead = None
    out = []
    initial, subsequent = wrapper.initial_indent, wrapper.subsequent_indent
    for extra, raw, body in paragraphs:
        wrapper.initial_indent = initial + " " * extra
        wrapper.subsequent_indent = subsequent + " " * extra
        if raw:
            lines = body.splitlines()
            out.append(
                "\n".join(
                    (wrapper.subsequent_indent if i else wrapper.initial_indent) + line
                    for i, line in enumerate(lines)
                )
            )
        else:
            out.append(wrapper.fill(body))
    return "\n\n".join(out)


class Formatter:
    """The parts of click's ``HelpFormatter`` that the top-level help uses."""

    def __init__(self, width: int):
        self.width = width
        self.buffer: list[str] = []

    def write_usage(self, prog: str, args: str) -> None:
        prefix = "Usage: "
        first = f"{prefix}{prog} "
        if self.width >= len(first) + 20:  # the arguments fit beside the prefix
            self.buffer.append(_fill(args, self.width, first, " " * len(first)))
        else:
            indent = " " * (len(prefix) + 4)
            self.buffer.append(f"{first}\n{_fill(args, self.width, indent, indent)}")
        self.buffer.append("\n")

    def write_paragraph(self) -> None:
        if self.buffer:
            self.buffer.append("\n")

    def write_text(self, text: str) -> None:
        """A paragraph of indented text, if there is text (``format_help_text``)."""
        if text:
            self.write_paragraph()
            self.buffer.append(wrap_text(text, self.width, "  ") + "\n")

    def write_section(self, heading: str, rows: list) -> None:
        """A heading and a definition list indented under it (``section`` + ``write_dl``)."""
        self.write_paragraph()
        self.buffer.append(f"{heading}:\n")
        first_col = min(max(len(first) for first, _ in rows), 30) + 2
        for first, second in rows:
            self.buffer.append(f"  {first}")
            if not second:
                self.buffer.append("\n")
                continue
            if len(first) <= first_col - 2:
                self.buffer.append(" " * (first_col - len(first)))
            else:
                self.buffer.append("\n" + " " * (first_col + 2))
            lines = wrap_text(second, max(self.width - first_col - 2, 10)).splitlines() or [""]
            self.buffer.append(f"{lines[0]}\n")
            self.buffer.extend(f"{'':>{first_col + 2}}{line}\n" for line in lines[1:])

    def getvalue(self) -> str:
        return "".join(self.buffer)


def _fill(text: str, width: int, first: str, indent: str) -> str:
    """click's ``wrap_text`` of one paragraph (the usage line's arguments)."""
    wrapper = _Wrapper(
        width, initial_indent=first, subsequent_indent=indent, replace_whitespace=False
    )
    return wrapper.fill(text.expandtabs())
