"""One sacctmgr command's run: its options, output streams, clusters and transaction.

Every change is one store transaction (the API's ``change``: planned, shown, then
committed or discarded). sacctmgr prints what it is about to do, then,
without ``-i``, asks ``Would you like to commit changes?`` on stdout and reads the
answer from stdin: ``y`` commits, ``n`` (or Enter) discards and still exits 0. A
command that ends with "nothing" (``Nothing new added.``) or an error rolls back.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from fscli.cli.sacctmgr.grammar import Options

if TYPE_CHECKING:
    from fscli.api.sacctmgr_writes import SacctmgrWrites


class Refused(Exception):
    """End the command: roll its transaction back and exit with ``code``."""

    def __init__(self, code: int = 1):
        super().__init__(code)
        self.code = code


class Run:
    def __init__(self, app, opts: Options):
        self.app = app
        self.opts = opts
        self.failed = False  # an error was said, but what could be done is still done
        self.kind: tuple[str, str] | None = None  # (verb, entity) of the write command

    def out(self, text: str) -> None:
        if text:
            click.echo(text, nl=False)

    def err(self, text: str) -> None:
        if text:
            click.echo(text, nl=False, err=True)

    def refuse(self, text: str, code: int = 1) -> Refused:
        """Say ``text`` on stderr; the caller raises what this returns."""
        self.err(text)
        return Refused(code)

    def listed_clusters(self, conn, given: list[str]) -> list[str]:
        """The clusters a listing shows: as :meth:`clusters`, but an unknown cluster is
        not refused: sacctmgr lists what it has of it, nothing."""
        from fscli.api.sacctmgr_reads import Reads

        known = Reads(conn).clusters()
        wanted = [c.lower() for c in given]
        return [c for c in wanted if c in known] if wanted else self.pick_clusters(known, [])

    def clusters(self, conn, given: list[str]) -> list[str]:
        """:meth:`pick_clusters` among the store's clusters (``conn``: a read's)."""
        from fscli.api.sacctmgr_reads import Reads

        return self.pick_clusters(Reads(conn).clusters(), given)

    def pick_clusters(self, known: list[str], given: list[str]) -> list[str]:
        """The clusters a command works on: those named (cluster=, -M, --cluster), else
        all of them (``known``); an unknown one is refused in sacctmgr's words."""
        wanted = (
            given
            or ([self.opts.cluster] if self.opts.cluster else [])
            or ([self.app.cluster_name] if self.app.cluster_name else [])
        )
        wanted = [c.lower() for c in wanted]
        for name in wanted:
            if name not in known:
                raise self.refuse(
                    f" This cluster '{name}' doesn't exist.\n"
                    "        Contact your admin to add it to accounting.\n"
                )
        return wanted or known

    def write(self, plan: Callable[[SacctmgrWrites], None]) -> int:
        """Plan the change with ``plan(tx)`` (it prints what it is about to do), ask
        before committing (no ``-i``), commit or discard: the API's one plan/commit
        shape (:func:`fscli.api.sacctmgr_writes.change`)."""
        from fscli.api.sacctmgr_writes import change

        if self.opts.readonly:
            self.err("Can't run this command in readonly mode.\n")
            return 1
        try:
            committed = change(self.app.store, self.app.now, self.kind, plan, self.confirm)
        except Refused as stop:
            return stop.code
        if not committed:
            self.out(" Changes Discarded\n")
        return 1 if self.failed else 0

    def confirm(self, question: str = "Would you like to commit changes?") -> bool:
        """sacctmgr's ``commit_check``: y/Y yes, n/N/Enter no, anything else asks again;
        no answer (end of input, or 30 seconds on a terminal) prints ``timeout``."""
        if self.opts.immediate:
            return True
        self.out(f"{question} (You have 30 seconds to decide)\n")
        stdin = sys.stdin
        char = ""
        while char not in ("y", "Y", "n", "N", "\n"):
            if char:
                self.out("Y or N please\n")
            self.out("(N/y): ")
            sys.stdout.flush()
            char = _answer(stdin)
            if not char:
                self.out("timeout\n")
                return False
            self.out("\n")
        return char in ("y", "Y")


def _answer(stdin) -> str:
    """One character of the answer ("" for none)."""
    if stdin.isatty():
        import select

        ready, _, _ = select.select([stdin], [], [], 30)
        if not ready:
            return ""
    return stdin.read(1)
