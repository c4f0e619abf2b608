"""``fscli shims DIR``: programs named ``sacctmgr``, ``sshare`` and ``sprio`` that run fscli.

Each is a small ``/bin/sh`` script that runs this Python with fscli: ``sacctmgr`` is
``fscli sacctmgr`` (sacctmgr 22.05's grammar, text and exit codes), ``sshare`` and ``sprio``
are the hidden ``fscli slurm-sshare`` / ``slurm-sprio`` (:mod:`fscli.cli.slurmtext`): the
real tools' options and fixed-width text. With DIR first on ``PATH``, a site's scripts
and a CI job with no cluster run unchanged against the store.

The store and the cluster given to ``fscli shims`` (``--db``/``FSCLI_DB``, ``--cluster``/
``FSCLI_CLUSTER``) are written in as defaults: ``FSCLI_DB`` and ``FSCLI_CLUSTER`` set when
a shim runs take precedence. A file of one of these names that is not a shim is replaced
only with ``--force``.
"""

from __future__ import annotations

import os
import shlex
import sys

import click

TOOLS = {"sacctmgr": "sacctmgr", "sshare": "slurm-sshare", "sprio": "slurm-sprio"}
"""Shim name -> the fscli command it runs."""
MARK = "written by `fscli shims`"


def shim_text(tool: str, python: str, db: str | None, cluster: str | None, path: str | None) -> str:
    """The script of one shim: ``python -m fscli COMMAND "$@"``, with the store, cluster
    and module path (``path``: None when ``python`` finds fscli by itself) as defaults."""
    from fscli import __version__

    lines = [
        "#!/bin/sh",
        f"# {tool} for fscli: {MARK} (fscli {__version__}).",
        f"# Runs `fscli {TOOLS[tool]}` on the store FSCLI_DB names, else the one below.",
    ]
    if db:
        lines += [f': "${{FSCLI_DB:={_quoted(db)}}}"', "export FSCLI_DB"]
    if cluster:
        lines += [f': "${{FSCLI_CLUSTER:={_quoted(cluster)}}}"', "export FSCLI_CLUSTER"]
    if path:
        lines += [
            f"PYTHONPATH={shlex.quote(path)}${{PYTHONPATH:+:$PYTHONPATH}}",
            "export PYTHONPATH",
        ]
    lines.append(f'exec {shlex.quote(python)} -m fscli {TOOLS[tool]} "$@"')
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    """``text`` inside a double-quoted ``${VAR:=...}``: ``\\``, ``$``, `` ` `` and ``"``
    escaped, nothing else expanded."""
    return "".join("\\" + c if c in '\\$`"' else c for c in text)


def _absolute_store(db: str | None) -> str | None:
    """A store given as a relative file name, made absolute (a shim runs anywhere)."""
    if not db or "://" in db or db.startswith(("/", "~")):
        return db
    return os.path.join(os.getcwd(), db)


def _module_path() -> str | None:
    """The folder to put on ``PYTHONPATH`` so that this Python imports this fscli, or
    None when it does so without (installed, or an editable install)."""
    import subprocess

    import fscli

    here = os.path.realpath(fscli.__file__)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        found = subprocess.run(
            [sys.executable, "-c", "import fscli; print(fscli.__file__)"],
            capture_output=True,
            text=True,
            env=env,
            cwd="/",
            timeout=60,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        found = ""
    if found and os.path.realpath(found) == here:
        return None
    return os.path.dirname(os.path.dirname(here))


def _is_shim(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return MARK.encode() in handle.read(400)
    except OSError:
        return False


@click.command()
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--force", is_flag=True, help="Replace files of these names that are not shims.")
@click.pass_obj
def shims(app, directory, force) -> None:
    """Write sacctmgr, sshare and sprio into DIRECTORY: programs that run fscli.

    sacctmgr runs `fscli sacctmgr`; sshare and sprio take Slurm's own options and print
    Slurm's own text (sshare's fixed-width and -p/-P forms, sprio's formats), from the
    store. Put DIRECTORY first on PATH and scripts written for Slurm run against fscli.
    --db and --cluster given here are the shims' defaults; FSCLI_DB and FSCLI_CLUSTER set
    when they run take precedence. Prints the paths written.

    \b
    Example:
      fscli --db /srv/fscli/site.db shims ~/fscli-bin
      PATH=~/fscli-bin:$PATH sshare -a -l
    """
    from fscli.errors import Conflict, InvalidValue

    targets = {tool: os.path.join(directory, tool) for tool in TOOLS}
    taken = [
        path
        for path in targets.values()
        if os.path.lexists(path) and not force and not _is_shim(path)
    ]
    if taken:
        raise Conflict(
            f"{', '.join(taken)} already exist{'s' if len(taken) == 1 else ''} and "
            f"{'is' if len(taken) == 1 else 'are'} not an fscli shim: use --force to replace"
        )
    db, cluster, path = _absolute_store(app.db), app.cluster_name, _module_path()
    try:
        os.makedirs(directory, exist_ok=True)
        for tool, target in targets.items():
            temporary = f"{target}.fscli-{os.getpid()}"
            with open(temporary, "w") as handle:
                handle.write(shim_text(tool, sys.executable, db, cluster, path))
            os.chmod(temporary, 0o755)
            os.replace(temporary, target)
    except OSError as exc:
        raise InvalidValue(f"cannot write the shims into {directory}: {exc.strerror}") from None
    for target in targets.values():
        click.echo(target)
    app.say(
        f"put {directory} first on PATH: export PATH={shlex.quote(os.path.abspath(directory))}:$PATH"
    )
