"""Answers given before click is imported (issue 21: 40 ms, and click alone takes 25).

``fscli --version``, ``fscli --help`` and a TAB (click's shell-completion protocol) are
answered here, from :mod:`fscli.cli.program` and the grammar generated from the click tree
(:mod:`fscli.cli.fast.grammar`), exactly as click would answer them; anything else, and
anything these modules do not understand, returns None and click runs as before.
"""

from __future__ import annotations

import sys

from fscli.cli.program import HELP_OPTIONS, PROG, VERSION_MESSAGE, VERSION_OPTIONS

COMPLETE_VAR = f"_{PROG.replace('-', '_').replace('.', '_')}_COMPLETE".upper()
"""The variable click's completion protocol sets (``_FSCLI_COMPLETE=bash_complete``)."""


def answer(argv: list[str], environ) -> int | None:
    """Write the answer to ``argv`` (the words after ``fscli``) and return the exit code;
    None when click must answer."""
    instruction = environ.get(COMPLETE_VAR)
    if instruction:  # click answers a TAB whatever the words after fscli
        from fscli.cli.fast.tab import complete

        lines = complete(instruction, environ)
        if lines is None:
            return None
        sys.stdout.flush()  # bytes, as click writes them: no newline translation
        sys.stdout.buffer.write(f"{lines}\n".encode())
        return 0
    if not set(argv).intersection([*HELP_OPTIONS, *VERSION_OPTIONS]):
        return None
    from fscli.cli.fast.words import eager

    action = eager(argv, environ)
    if action == "version":
        from fscli import __version__

        sys.stdout.write(VERSION_MESSAGE % {"prog": PROG, "version": __version__} + "\n")
        return 0
    if action == "help":
        from fscli.cli.fast.helptext import top_help

        text = top_help()
        if text is None:
            return None
        sys.stdout.write(text + "\n")
        return 0
    return None
