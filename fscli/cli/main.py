"""The ``fscli`` program: its entry point.

Importing click alone takes about 25 ms, more than half of what a TAB may take (issue 21:
40 ms), and a read command's imports most of what it takes on a small store. So
:func:`console` first answers what it can without click: ``--version`` and a read
command asked again whose kept answer still holds (:mod:`fscli.cli.answers`), then a TAB
from data (:mod:`fscli.cli.fast`: the grammar generated from the click tree); anything
else runs the click group (:mod:`fscli.cli.group`), its answer kept when it may be.
"""

from __future__ import annotations

import os
import sys
import time

from fscli.cli.program import PROG, interrupted


def __getattr__(name: str):
    """``cli``, the click group, imported on first use: ``from fscli.cli.main import cli``."""
    if name == "cli":
        from fscli.cli.group import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> None:
    """Run the click group on ``argv`` (default ``sys.argv[1:]``)."""
    from fscli.cli.group import cli

    try:
        cli.main(args=argv, prog_name=PROG)
    except KeyboardInterrupt:
        interrupted()


def console() -> None:
    """The ``fscli`` program: ``--version`` or a kept answer (:mod:`fscli.cli.answers`),
    a TAB's fast answer (:mod:`fscli.cli.fast`), or :func:`main`, then leave without
    tearing the heap down.

    A view may hold a few hundred thousand objects when it ends, and freeing them one by
    one at interpreter exit costs about 0.3 s at 100,000 jobs, for nothing. By then every
    transaction is committed and the store disposed of, so flush the output and exit.
    """
    from fscli.cli import answers
    from fscli.cli.fast import COMPLETE_VAR, answer

    argv, environ = sys.argv[1:], os.environ
    recording = None
    try:
        try:
            code = answers.version_answer(argv)
            if code is None and COMPLETE_VAR not in environ:
                code = answers.replay(argv, environ, time.time())
            if code is None:
                code = answer(environ)
        except KeyboardInterrupt:
            interrupted()
        if code is None:
            from fscli.heap import exit_without_teardown  # not before a TAB: 1-2 ms

            exit_without_teardown()
            recording = answers.start(argv, environ)
            main()
            code = 0
    except SystemExit as exc:
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    answers.finish(recording, code)
    os._exit(code)
