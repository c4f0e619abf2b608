"""``fscli slurm-sshare`` and ``fscli slurm-sprio``: sshare and sprio as Slurm 22.05's own
programs, for the shims ``fscli shims DIR`` writes (hidden: people use ``fscli sshare``
and ``fscli sprio``, whose tables are for reading).

They take the real tools' command lines (glibc ``getopt_long``: :mod:`fscli.cli.getopt`),
answer with their fixed-width or parsable text byte for byte, their messages on stderr and
their exit codes, so that an unchanged site script runs against the fscli store with the
shims first on ``PATH``. The numbers are fscli's (``store.shares``, ``store.priorities``);
the text is :mod:`fscli.render.sshare`'s and :mod:`fscli.render.sprio`'s.

Where fscli has no live cluster to ask, the tools differ on purpose: ``-V`` names fscli,
``-v`` prints sshare's request lines but not sprio's option dump, user names are not
checked against the system's users (only uids are turned into names), and ``-M`` picks a
cluster of the store.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

import click

from fscli.cli.getopt import NO, OPTIONAL, REQUIRED, GetoptError, LongOption, getopt_long

SETTINGS = {
    "ignore_unknown_options": True,
    "allow_extra_args": True,
    "help_option_names": [],
}

SSHARE_OPTSTRING = "aA:ehlM:no:pPqUu:t:vVm"
SSHARE_LONG = [
    LongOption("accounts", REQUIRED, "A"),
    LongOption("all", NO, "a"),
    LongOption("helpformat", NO, "e"),
    LongOption("long", NO, "l"),
    LongOption("partition", NO, "m"),
    LongOption("cluster", REQUIRED, "M"),
    LongOption("clusters", REQUIRED, "M"),
    LongOption("noheader", NO, "n"),
    LongOption("format", REQUIRED, "o"),
    LongOption("parsable", NO, "p"),
    LongOption("parsable2", NO, "P"),
    LongOption("users", REQUIRED, "u"),
    LongOption("Users", NO, "U"),
    LongOption("verbose", NO, "v"),
    LongOption("version", NO, "V"),
    LongOption("help", NO, "help"),
    LongOption("usage", NO, "usage"),
]
_SSHARE_USAGE = [
    "Usage:  sshare [OPTION]",
    "  Valid OPTIONs are:",
    "    -a or --all            list all users",
    "    -A or --accounts=      display specific accounts (comma separated list)",
    "    -e or --helpformat     Print a list of fields that can be specified",
    "                           with the '--format' option",
    "    -l or --long           include normalized usage in output",
    "    -m or --partition      print the partition part of the association",
    "    -M or --cluster=names  clusters to issue commands to.",
    "                           NOTE: SlurmDBD must be up.",
    "    -n or --noheader       omit header from output",
    "    -o or --format=        Comma separated list of fields (use",
    '                           "--helpformat" for a list of available fields).',
    "    -p or --parsable       '|' delimited output with a trailing '|'",
    "    -P or --parsable2      '|' delimited output without a trailing '|'",
    "    -u or --users=         display specific users (comma separated list)",
    "    -U or --Users          display only user information",
    "    -v or --verbose        display more information",
    "    -V or --version        display tool version number",
    "          --help           display this usage description",
    "          --usage          display this usage description",
    "",
]
SSHARE_USAGE = "\n".join(line if len(line) >= 74 else line.ljust(75) for line in _SSHARE_USAGE)
SSHARE_USAGE += "\n\n"
"""``sshare --help`` (and ``--usage``): sshare.c's text, its lines padded to 75 columns."""

SPRIO_OPTSTRING = "hj::lM:no:S:p:u:vVw"
SPRIO_LONG = [
    LongOption("noheader", NO, "h"),
    LongOption("jobs", OPTIONAL, "j"),
    LongOption("long", NO, "l"),
    LongOption("cluster", REQUIRED, "M"),
    LongOption("clusters", REQUIRED, "M"),
    LongOption("norm", NO, "n"),
    LongOption("format", REQUIRED, "o"),
    LongOption("sort", REQUIRED, "S"),
    LongOption("partition", REQUIRED, "p"),
    LongOption("user", REQUIRED, "u"),
    LongOption("users", REQUIRED, "u"),
    LongOption("verbose", NO, "v"),
    LongOption("version", NO, "V"),
    LongOption("weights", NO, "w"),
    LongOption("federation", NO, "federation"),
    LongOption("help", NO, "help"),
    LongOption("local", NO, "local"),
    LongOption("sib", NO, "sibling"),
    LongOption("sibling", NO, "sibling"),
    LongOption("slurm-version", REQUIRED, "slurm-version"),
    LongOption("usage", NO, "usage"),
]
SPRIO_USAGE = """\
Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]
   [--federation] [--local] [--sibling] [--usage] [-hlnvVw]
"""
SPRIO_HELP = """\
Usage: sprio [OPTIONS]
      --federation                display jobs in federation if a member of one
  -h, --noheader                  no headers on output
  -j, --jobs                      comma separated list of jobs
                                  to view, default is all
      --local                     display jobs on local cluster only
  -l, --long                      long report
  -M, --cluster=cluster_name      cluster to issue commands to.  Default is
                                  current cluster.  cluster with no name will
                                  reset to default.
                                  NOTE: SlurmDBD must be up.
  -n, --norm                      display normalized values
  -o, --format=format             format specification
      --sibling                   display job records separately for each federation cluster
  -p, --partition=partition_name  comma separated list of partitions
  -u, --user=user_name            comma separated list of users to view
  -v, --verbose                   verbosity level
  -V, --version                   output version information and exit
  -w, --weights                   show the weights for each priority factor

Help options:
  --help                          show this help message
  --usage                         display a brief summary of sprio options
"""
SLURM_VERSION = "22.05.8"


def _out(text: str) -> None:
    sys.stdout.write(text)


def _err(text: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(text)


def _parse(prog: str, args, optstring: str, longopts: list[LongOption]):
    try:
        return getopt_long(prog, list(args), optstring, longopts)
    except GetoptError as exc:
        _err(f'{exc.message}\nTry "{prog} --help" for more information\n')
        raise SystemExit(1) from None


def _names(text: str, lower: bool = False) -> list[str]:
    """A Slurm comma list (``slurm_addto_char_list``): empty items dropped, a name given
    twice (any case) kept once, quotes around the whole list removed."""
    if text[:1] in ("'", '"'):
        text = text[1:].split(text[0], 1)[0]
    out: list[str] = []
    for item in text.split(","):
        item = item.lower() if lower else item
        if item and item.lower() not in (o.lower() for o in out):
            out.append(item)
    return out


def _user_name(uid_text: str, prog: str) -> str:
    """A user given by uid (a word starting with a digit), as its name: sshare's
    ``_convert_to_name``."""
    import pwd

    digits = ""
    for c in uid_text:
        if not c.isdigit() or not c.isascii():
            break
        digits += c
    try:
        return pwd.getpwuid(int(digits)).pw_name
    except (KeyError, OverflowError, ValueError):
        _err(f"Invalid user id: {int(digits)}\n")
        raise SystemExit(1) from None


def _me() -> str | None:
    """The caller's user name (sshare shows the caller's own rows without -a or -u)."""
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return None


def _store_error(prog: str, exc) -> None:
    _err(f"{prog}: error: {exc.message}\n")
    raise SystemExit(1)


@click.command("slurm-sshare", hidden=True, context_settings=SETTINGS)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.pass_obj
def slurm_sshare(app, args) -> None:
    """sshare 22.05's command line and text over the store (what the sshare shim runs).

    \b
    Example:
      fscli slurm-sshare -a -l
    """
    raise SystemExit(sshare_main(app, args))


def sshare_main(app, args) -> int:
    """One sshare invocation; its exit code."""
    from fscli.render.sshare import help_format

    found, _rest = _parse("sshare", args, SSHARE_OPTSTRING, SSHARE_LONG)  # operands ignored
    all_users = long_ = partition = users_only = False
    header = True
    parsable = None
    accounts: list[str] = []
    users: list[str] | None = None
    formats: list[str] = []
    clusters: list[str] | None = None
    verbose = 0
    for key, value in found:
        if key == "a":
            all_users = True
        elif key == "A":
            accounts += [a for a in _names(value or "", lower=True) if a not in accounts]
        elif key == "e":
            _out(help_format())
            return 0
        elif key in ("h", "n"):
            header = False
        elif key == "l":
            long_ = True
        elif key == "M":
            clusters = _names(value or "", lower=True)
        elif key == "m":
            partition = True
        elif key == "o":
            formats.append(value or "")
        elif key in ("p", "P"):
            parsable = key
        elif key == "u":
            if value == "-1":
                all_users = True
                continue
            all_users = False
            users = users or []
            for name in _names(value or ""):
                name = _user_name(name, "sshare") if name[:1].isdigit() else name
                if name.lower() not in (u.lower() for u in users):
                    users.append(name)
        elif key == "U":
            users_only = True
        elif key == "v":
            verbose += 1
        elif key == "V":
            _out(f"slurm {SLURM_VERSION} (fscli sshare)\n")
            return 0
        elif key in ("help", "usage"):
            _out(SSHARE_USAGE)
            return 0
        else:  # in the option string, not handled: sshare's own "default:" branch
            _err(f"getopt error, returned {key}\n")
            return 1
    if all_users:
        users = None
        if verbose:
            _err("Users requested:\n\t: all\n")
    elif users:
        if verbose:
            _err("Users requested:\n" + "".join(f"\t: {u}\n" for u in users))
    else:
        me = _me()
        users = [me] if me else None
        if verbose and me:
            _err(f"Users requested:\n\t: {me}\n")
    if verbose:
        _err("Accounts requested:\n" + "".join(f"\t: {a}\n" for a in accounts or ["all"]))
    ask = _ShareAsk(formats, long_, partition, parsable, header, accounts, users, users_only)
    if clusters is None:
        return _sshare_cluster(app, app.cluster_name, ask)
    from fscli.errors import FscliError

    known = _known_clusters(app)
    for name in clusters:
        if name not in known:
            _err(
                f"sshare: error: No cluster '{name}' known by database.\n"
                f"sshare: error: '{name}' can't be reached now, or it is an invalid entry "
                "for --cluster.  Use 'sacctmgr list clusters' to see available clusters.\n"
            )
            return 1
    code = 0
    for k, name in enumerate(clusters):
        _out(("\n" if k else "") + f"CLUSTER: {name}\n")
        try:
            code |= _sshare_cluster(app, name, ask)
        except FscliError as exc:
            _err(f"sshare: error: {exc.message}\n")
            code = 1
    return code


def _known_clusters(app) -> set[str]:
    from fscli.errors import FscliError

    try:
        return set(app.store.clusters())
    except FscliError as exc:
        _store_error("sshare", exc)
        return set()


@dataclass(frozen=True)
class _ShareAsk:
    """What an sshare command line asks for (``users`` None: every user)."""

    formats: list[str]
    long: bool
    partition: bool
    parsable: str | None
    header: bool
    accounts: list[str]
    users: list[str] | None
    users_only: bool


def _sshare_cluster(app, cluster: str | None, ask: _ShareAsk) -> int:
    """sshare's text for one cluster; its exit code."""
    from fscli.api.shares import column_pieces, row_filter
    from fscli.errors import FscliError, InvalidValue
    from fscli.heap import bulk, keep_until_exit
    from fscli.render.sshare import CHUNK, extras_of, render_pieces, slurm_fields

    try:
        shown = ask.long or bool(ask.formats)  # what may show TRESRunMins, GrpTRESRaw
        answer = app.store.shares(cluster, app.now, None, settings=True, extras=shown)
    except FscliError as exc:
        _store_error("sshare", exc)
    keep_until_exit(answer)
    try:
        fields = slurm_fields(ask.formats, answer.algorithm, ask.long, ask.partition)
    except InvalidValue as exc:
        _err(f"sshare: error: {exc.message}\n")
        return 1
    keep = row_filter(ask.users is None, ask.accounts, ask.users or (), ask.users_only)
    extras = extras_of(answer, {f.name for f in fields})
    if keep is list:  # every row: the tree's own indentation, the rows made a piece at a time
        pieces = column_pieces(answer, CHUNK, keep)
    else:
        pieces = iter([_indented(answer.rows, keep)])
    with bulk():
        for text in render_pieces(pieces, fields, ask.parsable, ask.header, extras):
            _out(text)
    return 0


def _indented(rows, keep):
    """The columns of the rows ``keep`` keeps, indented as sshare indents what it prints
    (:func:`fscli.render.sshare.slurm_indents`)."""
    from fscli.engine.fairshare import share_columns
    from fscli.render.sshare import account_parents, slurm_indents

    parents = dict(zip((r.assoc_id for r in rows), account_parents(rows)))
    kept = keep(rows)
    indents = slurm_indents(
        [r.account for r in kept], [r.user for r in kept], [parents[r.assoc_id] for r in kept]
    )
    return share_columns([r._replace(depth=d) for r, d in zip(kept, indents)])


# --------------------------------------------------------------------------------- sprio


@click.command("slurm-sprio", hidden=True, context_settings=SETTINGS)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.pass_obj
def slurm_sprio(app, args) -> None:
    """sprio's command line and text over the store (what the sprio shim runs).

    The text is that of the Slurm the cluster was imported from (``import slurm``), else
    22.05's; ``--slurm-version=24.11`` picks another (22.05 to 25.11: ``-l`` has ACCOUNT
    and QOSNAME from 23.02).

    \b
    Example:
      fscli slurm-sprio -l --slurm-version=24.11
    """
    raise SystemExit(sprio_main(app, args))


def sprio_main(app, args) -> int:
    """One sprio invocation; its exit code."""
    found, rest = _parse("sprio", args, SPRIO_OPTSTRING, SPRIO_LONG)
    noheader = long_ = norm = weights = job_flag = False
    fmt = sort = version = None
    jobs: list[int] | None = None
    users: list[str] | None = None
    partitions: list[str] | None = None
    cluster = app.cluster_name
    for key, value in found:
        if key == "h":
            noheader = True
        elif key == "j":
            if value is not None:
                jobs = _job_list(value)
                if jobs is None:
                    return 1
            job_flag = True
        elif key == "l":
            long_ = True
        elif key == "M":
            names = _names(value or "", lower=True)
            if len(names) > 1:
                _err("sprio: fatal: Only one cluster can be used at a time with sprio\n")
                return 1
            cluster = names[0] if names else app.cluster_name
        elif key == "n":
            norm = True
        elif key == "o":
            fmt = value
        elif key == "S":
            sort = value
        elif key == "p":
            partitions = _names(value or "")
        elif key == "u":
            users = [_user_name(u, "sprio") if u[:1].isdigit() else u for u in _names(value or "")]
        elif key == "V":
            _out(f"slurm {SLURM_VERSION} (fscli sprio)\n")
            return 0
        elif key == "w":
            weights = True
        elif key == "help":
            _out(SPRIO_HELP)
            return 0
        elif key == "usage":
            _out(SPRIO_USAGE)
            return 0
        elif key == "slurm-version":
            version = _release(value or "")
            if version is None:
                return 1
        # -v, --federation, --local, --sibling: one cluster, nothing to show more of
    from fscli.render.sprio import LONG_WITH_FORMAT

    if long_ and fmt is not None:
        _err(f"sprio: fatal: {LONG_WITH_FORMAT}\n")
        return 1
    if fmt is None and not long_:
        fmt = os.environ.get("SPRIO_FORMAT") or None
    if rest and job_flag:
        jobs = _job_list(rest.pop(0))
        if jobs is None:
            return 1
    if rest:
        _err(f"sprio: error: Unrecognized option: {rest[0]}\n")
        _out(SPRIO_USAGE)
        return 1
    return _sprio_text(
        app,
        cluster,
        fmt,
        (long_, norm, weights, not noheader),
        sort,
        (jobs, users, partitions),
        version,
    )


def _release(version: str) -> str | None:
    """``--slurm-version``'s value when fscli prints that Slurm's text, else None, said."""
    from fscli.errors import InvalidValue
    from fscli.render.sprio import slurm_release

    try:
        slurm_release(version)
    except InvalidValue as exc:
        _err(f"sprio: error: {exc.message}\n")
        return None
    return version


def _job_list(text: str) -> list[int] | None:
    """sprio's ``_build_job_list``: job ids, or the error and None for a bad one."""
    ids = []
    for item in _names(text):
        digits = item.split("_", 1)[0]
        if not (digits.isascii() and digits.isdigit()) or int(digits) == 0:
            _err(f"sprio: error: Invalid job id: {item}\n")
            return None
        ids.append(int(digits))
    return ids


def _sprio_text(app, cluster, fmt, flags, sort, chosen, version) -> int:
    """sprio's text: ``flags`` are -l, -n, -w and the header, ``chosen`` the jobs, users
    and partitions asked for; ``version`` the Slurm whose text it is (None: the version
    the cluster was imported from, else 22.05)."""
    from fscli.engine.priority import filter_columns
    from fscli.errors import FscliError, InvalidValue, NotFound
    from fscli.heap import bulk, keep_until_exit
    from fscli.render.sprio import render_chunks

    if fmt is not None:
        fmt = _valid_format(fmt)
        if fmt is None:
            return 0
    try:
        result = app.store.priorities(cluster, app.now, None)
    except FscliError as exc:
        _store_error("sprio", exc)
    keep_until_exit(result)
    long_, norm, weights, header = flags
    jobs, users, partitions = chosen
    version = version or app.store.slurm_version(result.cluster) or "22.05"
    try:
        rows = filter_columns(result.columns, jobs, users, partitions)
    except NotFound:
        rows = result.columns.take([])
    if jobs and not len(rows):
        _out("Unable to find jobs matching user/id(s) specified\n")
        return 0
    try:
        with bulk():
            for text in render_chunks(
                rows,
                result.config,
                fmt=fmt,
                long=long_,
                normalized=norm,
                weights=weights,
                header=header,
                sort=sort,
                users=users is not None,
                version=version,
            ):
                _out(text)
    except InvalidValue as exc:
        _err(f"sprio: error: {exc.message}\n")
        return 1
    return 0


def _valid_format(fmt: str) -> str | None:
    """``fmt`` without the ``%`` items sprio does not know, each reported as sprio
    reports it (and then skipped, text after it included); None when nothing is left to
    print but the header's prefix, which is then printed."""
    from fscli.errors import InvalidValue
    from fscli.render.sprio import parse_format

    if not fmt:
        _err("sprio: error: Format option lacks specification.\n")
        raise SystemExit(1)
    prefix, sep, rest = fmt.partition("%")
    kept = [prefix]
    for token in rest.split("%") if sep else []:
        if not token:
            continue
        try:
            parse_format("%" + token)
        except InvalidValue:
            letter = token.lstrip(".").lstrip("0123456789")[:1]
            _err(f"sprio: error: Invalid job format specification: {letter}\n")
            continue
        kept.append("%" + token)
    if len(kept) == 1:
        _out(prefix + "\n")
        return None
    return "".join(kept)
