"""A TAB answered before click is imported (issue 21: 40 ms, and click alone takes 25).

Click's shell-completion protocol (``_FSCLI_COMPLETE=bash_complete``, ...) is answered
here from the grammar generated from the click tree (``grammar.json``,
:mod:`fscli.cli.fast.generate`), exactly as click would answer it; anything these
modules do not understand returns None and click answers. ``--help`` and ``--version``
are click's: they are asked once, where a TAB is asked at every key press.
"""

from __future__ import annotations

import sys

from fscli.cli.program import PROG

COMPLETE_VAR = f"_{PROG.replace('-', '_').replace('.', '_')}_COMPLETE".upper()
"""The variable click's completion protocol sets (``_FSCLI_COMPLETE=bash_complete``)."""


def answer(environ) -> int | None:
    """Write the answer to the TAB ``environ`` asks for and return the exit code; None
    when there is no TAB to answer or click must answer it."""
    instruction = environ.get(COMPLETE_VAR)
    if not instruction:
        return None
    from fscli.cli.fast.tab import complete

    lines = complete(instruction, environ)
    if lines is None:
        return None
    sys.stdout.flush()  # bytes, as click writes them: no newline translation
    sys.stdout.buffer.write(f"{lines}\n".encode())
    return 0
