"""Answers given before click is imported: ``--version``, and a read command's kept answer.

The answer cache (:mod:`fscli.api.answers`): the ``fscli`` program (:mod:`fscli.cli.main`)
keeps what ``sshare``, ``sprio`` and ``fscli sacctmgr list/show`` print, and answers the same
question again from it while the store holds the same state and "now" is in the window
the answer holds for, in about the time Python takes to start.

- **Recording** (:func:`start`, :func:`may_record`, :func:`finish`): when the command
  line names one of those commands, stdout is not a terminal, and nothing says
  ``--read-only``, stdout and stderr are copied as the command runs; the command itself
  says whether its answer may be kept (:func:`may_record`: ``sshare`` and ``sprio``
  without ``--svg`` or a what-if, ``sacctmgr`` listings of the store, an absolute
  ``--at`` or none; ``--json``, which names the moment, only with an absolute one), and it
  is kept when the command exits 0 having printed nothing on stderr, and every read saw
  one store state.
- **The key** (:func:`question`): the whole command line, the working directory, every
  environment variable fscli, click or rich read that can change a printed byte, the
  fscli version (and its code's newest modification time when it runs from a source
  tree, so that an edit is never answered by the old code), and the Python running it.
- **Replay** (:func:`replay`): the entry of that key, checked against the store's stamp
  (one query) and the clock; anything unsure runs the command instead.
"""

from __future__ import annotations

import io
import os
import sys

from fscli import __version__
from fscli.cli.program import PROG

TYPE_CHECKING = False  # typing's, without importing typing (an answer is replayed here)
if TYPE_CHECKING:
    from typing import Any

KEY_FORMAT = 1
"""Bumped when what the key holds changes."""
COMMANDS = frozenset({"sshare", "sprio", "sacctmgr"})
"""The commands whose answers may be kept (each says when: :func:`may_record`)."""
ENV_NAMES = frozenset(
    {
        "COLUMNS",
        "LINES",
        "NO_COLOR",
        "FORCE_COLOR",
        "TERM",
        "COLORTERM",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "TTY_COMPATIBLE",
        "TTY_INTERACTIVE",
        "JUPYTER_COLUMNS",
        "JUPYTER_LINES",
        "TZ",
        "LANG",
        "LANGUAGE",
        "HOME",
        "XDG_DATA_HOME",
    }
)
"""Environment variables that can change what a command prints: the width, colour and
terminal (click, rich, fscli's tables), time zone and locale, and where the default store
is (``HOME``, ``XDG_DATA_HOME``)."""
ENV_PREFIXES = ("FSCLI_", "LC_", "SLURM_", "SPRIO_", "SSHARE_", "PYTHON")
"""... and every variable of these families: fscli's own (``FSCLI_DB``, ``FSCLI_AT``,
...), the locale's, Slurm's, and Python's (``PYTHONIOENCODING``, ``PYTHONHASHSEED``)."""
WINDOWED = "windowed"
TIMELESS = "timeless"


GLOBAL_VALUED = frozenset({"--db", "--cluster", "--at"})
GLOBAL_FLAGS = frozenset({"-Q", "--quiet", "--debug", "--read-only"})
"""The group's options (:mod:`fscli.cli.group`): with a value, and flags."""


def version_answer(argv: list[str]) -> int | None:
    """``fscli [OPTIONS] --version``: click's answer (``fscli, version X``) without click
    (which takes 40 ms to say it), when the words before it are the group's options."""
    if not argv or argv[-1] != "--version":
        return None
    k, last = 0, len(argv) - 1
    while k < last:
        if argv[k] in GLOBAL_VALUED and k + 1 < last:
            k += 2
        elif argv[k] in GLOBAL_FLAGS:
            k += 1
        else:
            return None
    sys.stdout.write(f"{PROG}, version {__version__}\n")
    return 0


def _may_answer(argv: list[str], environ) -> bool:
    """A command line whose answer may have been kept: one of :data:`COMMANDS`, output
    not to a terminal, no ``--read-only`` (which writes nothing, cache included)."""
    return (
        not COMMANDS.isdisjoint(argv)
        and "--read-only" not in argv
        and not environ.get("FSCLI_READ_ONLY")
        and not _terminal(sys.stdout)
    )


def _terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return True  # unsure: as a terminal, never answered nor kept


def question(argv: list[str], environ) -> tuple:
    """The key: everything that can change the bytes a read command prints, but the
    store's state and the clock (which the entry holds)."""
    env = tuple(
        sorted(
            (name, value)
            for name, value in environ.items()
            if name in ENV_NAMES or name.startswith(ENV_PREFIXES)
        )
    )
    python = (sys.prefix, sys.version)
    return (KEY_FORMAT, __version__, _code_stamp(), python, tuple(argv), os.getcwd(), env)


def entry_name(key: tuple) -> str:
    """The entry's file name: a short digest of the key (the entry holds the whole key,
    compared exactly; zlib's CRCs cost nothing to import, hashlib 3-6 ms)."""
    from zlib import crc32

    text = repr(key).encode("utf-8", "surrogateescape")
    return f"{crc32(text):08x}{crc32(text, 0x5BD1E995):08x}"


_stamp: int | None = None


def _code_stamp() -> int | None:
    """Running from a source tree (an editable install, a checkout): the newest
    modification time of fscli's code, so that an answer kept by other code is never
    replayed. An installed fscli changes only with its version: None."""
    global _stamp
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if os.sep + "site-packages" + os.sep in package or os.sep + "dist-packages" + os.sep in package:
        return None
    if _stamp is None:
        _stamp = _newest(package)
    return _stamp


def _newest(folder: str) -> int:
    newest = 0
    with os.scandir(folder) as found:
        for item in found:
            if item.is_dir(follow_symlinks=False):
                if item.name != "__pycache__":
                    newest = max(newest, _newest(item.path))
            elif item.name.endswith((".py", ".json")):
                newest = max(newest, item.stat().st_mtime_ns)
    return newest


def replay(argv: list[str], environ, now: float) -> int | None:
    """Print the kept answer to ``argv`` if it holds at ``now`` (epoch seconds) and
    return its exit code (0); None to run the command."""
    if not _may_answer(argv, environ):
        return None
    try:
        from fscli.api.answers import replay as kept

        key = question(argv, environ)
        answer = kept(entry_name(key), key, now)
    except Exception:  # the cache never fails a command: the command runs instead
        return None
    if answer is None:
        return None
    sys.stdout.flush()
    sys.stdout.buffer.write(answer)
    return 0


class _Copy(io.RawIOBase):
    """A binary stream that writes through to ``raw`` and keeps a copy of what it wrote."""

    def __init__(self, raw):
        super().__init__()
        self.raw = raw
        self.parts: list[bytes] = []
        self.failed = False

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        try:
            written = self.raw.write(data)
        except BaseException:
            self.failed = True
            raise
        self.parts.append(bytes(data))
        return len(data) if written is None else written

    def flush(self) -> None:
        self.raw.flush()

    def fileno(self) -> int:
        return self.raw.fileno()

    def isatty(self) -> bool:
        return False


def _copied(stream) -> tuple[Any, _Copy]:
    """A text stream like ``stream`` that writes through to it, and its copy."""
    copy = _Copy(stream.buffer)
    wrapper = io.TextIOWrapper(
        copy,  # type: ignore[type-var]  # a raw stream, written through
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=True,
    )
    return wrapper, copy


class Recording:
    """A command being run whose answer may be kept: its command line, the copies of its
    stdout and stderr, and what the command said (:func:`may_record`)."""

    def __init__(self, argv: list[str], environ):
        self.argv = argv
        self.environ = environ
        self.kind: str | None = None
        self.fixed = False  # an absolute --at: the answer holds whatever the clock says
        sys.stdout, self.out = _copied(sys.stdout)
        sys.stderr, self.err = _copied(sys.stderr)

    def window(self) -> tuple | None:
        """The wall-clock window the answer holds in; None: it may not be kept."""
        from fscli.api.answers import noted_window

        if self.kind == TIMELESS or (self.kind == WINDOWED and self.fixed):
            return (None, None)
        if self.kind == WINDOWED:
            return noted_window()
        return None

    def finish(self, code: int) -> None:
        """Keep the answer, if the command may be recorded and ran as it must."""
        if code != 0 or self.kind is None or self.out.failed or self.err.parts:
            return
        window = self.window()
        if window is None:
            return
        from fscli.api.answers import record

        key = question(self.argv, self.environ)
        record(entry_name(key), key, b"".join(self.out.parts), window)


_recording: Recording | None = None


def start(argv: list[str], environ) -> Recording | None:
    """Copy what the command prints, if its answer may be kept (:func:`finish` keeps it)."""
    global _recording
    try:
        if not _may_answer(argv, environ):
            return None
        from fscli.api.answers import listen

        listen()
        _recording = Recording(argv, environ)
    except Exception:  # streams that cannot be copied: the command runs as ever, unkept
        return None
    return _recording


def may_record(app, windowed: bool, *, prints_now: bool = False) -> None:
    """Said by a command whose answer may be kept: its answer depends on the store and
    its options only (``windowed``: and on "now", through the fair-share state, whose
    window the view notes). An ``--at`` relative to now is never kept: only an absolute
    one, whose answer does not depend on the clock. An answer that prints its moment
    (``prints_now``: ``--json``'s ``at``) is kept only for an absolute ``--at``: it
    changes every second."""
    if _recording is None or app.read_only:
        return
    fixed = False
    if app.at_text:
        from fscli.engine.timestr import parse_date
        from fscli.errors import FscliError

        try:  # a date or epoch seconds: ``now-1day``, ``today`` are refused
            parse_date(app.at_text)
        except FscliError:
            return
        fixed = True
    if prints_now and not fixed:
        return
    _recording.kind = WINDOWED if windowed else TIMELESS
    _recording.fixed = fixed


def finish(recording: Recording | None, code: int) -> None:
    """:meth:`Recording.finish`, never failing the command."""
    if recording is None:
        return
    try:
        recording.finish(code)
    except Exception:
        pass
