"""sacctmgr 22.05's command-line grammar: options, verbs, entities and ``key=value`` words.

sacctmgr compares every keyword with ``strncasecmp(word, Name, max(len(word), min))``:
a word names ``Name`` when it is a case-insensitive prefix of it at least ``min``
letters long (``n=`` is ``Names=``, ``MaxW=`` is ``MaxWallDurationPerJob=``), the first
match in a fixed order winning. The tables here keep Slurm's names, minimum lengths
and order (src/sacctmgr/*.c), so that abbreviations mean what they mean to sacctmgr.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Names = tuple[tuple[str, int], ...]


def matches(word: str | None, names: Names) -> bool:
    """``word`` abbreviates one of ``names`` ((name, minimum length) pairs); a bare word
    (no key: None) none."""
    if word is None:
        return False
    low = word.lower()
    return any(len(low) >= least and name.lower().startswith(low) for name, least in names)


def first(word: str | None, table: tuple[tuple[str, Names], ...]) -> str | None:
    """The canonical key of the first entry ``word`` abbreviates."""
    for canon, names in table:
        if matches(word, names):
            return canon
    return None


@dataclass
class Word:
    """One argument: ``key op value`` (op ``=``, ``+=``, ``-=``) or a bare word."""

    raw: str
    key: str | None = None
    op: str = ""
    value: str = ""

    @property
    def bare(self) -> bool:
        return self.key is None


def word(raw: str) -> Word:
    """Split like ``parse_option_end``: the key ends at the first ``=``, ``+=`` or ``-=``."""
    for i, char in enumerate(raw):
        if char == "=":
            return Word(raw, raw[:i], "=", raw[i + 1 :])
        if char in "+-" and raw[i + 1 : i + 2] == "=":
            return Word(raw, raw[:i], char + "=", raw[i + 2 :])
    return Word(raw)


@dataclass
class Options:
    """The options that change what sacctmgr does. ``-Q``, ``-o`` and ``-v`` are accepted
    and, as in sacctmgr 22.05 (whose quiet and one-liner flags nothing reads), ignored."""

    immediate: bool = False
    noheader: bool = False
    parsable: str | None = None  # "p" or "P"
    readonly: bool = False
    with_assoc: bool = False
    cluster: str | None = None  # -M (an fscli convenience: cluster= on every command)
    help: bool = False
    version: bool = False
    words: list[str] = field(default_factory=list)


class OptionError(Exception):
    """A bad command-line option: getopt's message, exit 1."""


LONG = {
    "help": "h",
    "usage": "h",
    "immediate": "i",
    "noheader": "n",
    "oneliner": "o",
    "parsable": "p",
    "parsable2": "P",
    "quiet": "Q",
    "readonly": "r",
    "associations": "s",
    "verbose": "v",
    "version": "V",
    "cluster": "M",
}
FLAGS = "hionpPQrsvV"


def options(args: list[str]) -> Options:
    """getopt_long over the arguments (options may come anywhere, ``--`` ends them)."""
    opts = Options()
    rest = iter(args)
    for arg in rest:
        if arg == "--":
            opts.words += list(rest)
            break
        if arg.startswith("--"):
            name, _, value = arg[2:].partition("=")
            hits = [k for k in LONG if k.startswith(name)] if name else []
            exact = [k for k in hits if k == name]
            if len(exact) == 1 or len(hits) == 1:
                letter = LONG[(exact or hits)[0]]
                if letter == "M":
                    value = value or next(rest, "")
                    if not value:
                        raise OptionError("sacctmgr: option '--cluster' requires an argument")
                _set(opts, letter, value)
                continue
            kind = "ambiguous" if hits else "unrecognized"
            raise OptionError(f"sacctmgr: {kind} option '{arg}'")
        if arg.startswith("-") and len(arg) > 1:
            for i, letter in enumerate(arg[1:], 1):
                if letter == "M":
                    value = arg[i + 1 :] or next(rest, "")
                    if not value:
                        raise OptionError("sacctmgr: option requires an argument -- 'M'")
                    _set(opts, "M", value)
                    break
                if letter not in FLAGS:
                    raise OptionError(f"sacctmgr: invalid option -- '{letter}'")
                _set(opts, letter, "")
            continue
        opts.words.append(arg)
    return opts


def _set(opts: Options, letter: str, value: str) -> None:
    if letter == "h":
        opts.help = True
    elif letter == "V":
        opts.version = True
    elif letter == "i":
        opts.immediate = True
    elif letter == "n":
        opts.noheader = True
    elif letter in "pP":
        opts.parsable = letter
    elif letter == "r":
        opts.readonly = True
    elif letter == "s":
        opts.with_assoc = True
    elif letter == "M":
        opts.cluster = value


VERBS: tuple[tuple[str, Names], ...] = (
    ("associations", (("associations", 3),)),
    ("dump", (("dump", 3),)),
    ("help", (("help", 2),)),
    ("load", (("load", 2),)),
    ("oneliner", (("oneliner", 1),)),
    ("quiet", (("quiet", 4),)),
    ("exit", (("exit", 4), ("\\q", 2), ("quit", 4))),
    ("add", (("add", 3), ("create", 3))),
    ("archive", (("archive", 3),)),
    ("clear", (("clear", 3),)),
    ("list", (("show", 3), ("list", 3))),
    ("modify", (("modify", 1), ("update", 1))),
    ("delete", (("delete", 3), ("remove", 3))),
    ("verbose", (("verbose", 4),)),
    ("readonly", (("readonly", 4),)),
    ("reconfigure", (("reconfigure", 4),)),
    ("rollup", (("rollup", 2),)),
    ("shutdown", (("shutdown", 4),)),
    ("version", (("version", 4),)),
)

ENTITIES: dict[str, tuple[tuple[str, Names], ...]] = {
    "add": (
        ("account", (("Account", 1), ("Acct", 4))),
        ("cluster", (("Cluster", 2),)),
        ("coordinator", (("Coordinator", 2),)),
        ("federation", (("Federation", 1),)),
        ("qos", (("QOS", 1),)),
        ("resource", (("Resource", 1),)),
        ("user", (("User", 1),)),
    ),
    "list": (
        ("account", (("Accounts", 2), ("Acct", 4))),
        ("association", (("Associations", 2),)),
        ("cluster", (("Clusters", 2),)),
        ("configuration", (("Configuration", 2),)),
        ("event", (("Events", 1),)),
        ("federation", (("Federation", 1),)),
        ("problem", (("Problems", 1),)),
        ("runawayjobs", (("RunawayJobs", 2), ("OrphanJobs", 1), ("LostJobs", 1))),
        ("qos", (("QOS", 1),)),
        ("resource", (("Resource", 4),)),
        ("reservation", (("Reservations", 4), ("Resv", 4))),
        ("stats", (("Stats", 1),)),
        ("transaction", (("Transactions", 1), ("Txn", 1))),
        ("user", (("Users", 1),)),
        ("wckey", (("WCKeys", 1),)),
        ("tres", (("tres", 2),)),
    ),
    "modify": (
        ("account", (("Accounts", 1), ("Acct", 4))),
        ("cluster", (("Clusters", 2),)),
        ("federation", (("Federation", 1),)),
        ("job", (("Job", 1),)),
        ("qos", (("QOSs", 1),)),
        ("resource", (("Resource", 1),)),
        ("user", (("Users", 1),)),
    ),
    "delete": (
        ("account", (("Accounts", 1), ("Acct", 4))),
        ("cluster", (("Clusters", 2),)),
        ("coordinator", (("Coordinators", 2),)),
        ("federation", (("Federations", 1),)),
        ("qos", (("QOS", 2),)),
        ("resource", (("Resource", 1),)),
        ("user", (("Users", 1),)),
    ),
}

NO_ENTITY = {
    "add": (
        'No valid entity in add command\nInput line must include "Account", "Cluster", '
        '"Coordinator", "Federation", "QOS", "Resource", or "User"'
    ),
    "list": (
        'No valid entity in list command\nInput line must include "Account", '
        '"Association", "Cluster", "Configuration",\n"Event", "Federation", "Problem", '
        '"QOS", "Resource", "Reservation",\n"RunAwayJobs", "Stats", "Transaction", '
        '"TRES", "User", or "WCKey"'
    ),
    "modify": (
        'No valid entity in modify command\nInput line must include "Account", '
        '"Cluster", "Federation", "Job", "QOS", "Resource" or "User"'
    ),
    "delete": (
        'No valid entity in delete command\nInput line must include "Account", '
        '"Cluster", "Coordinator", "Federation", "QOS", "Resource", or "User"'
    ),
}

# -- keys ------------------------------------------------------------------------------
# Association settings (sacctmgr_set_assoc_rec), in Slurm's order. Legacy single-TRES
# keys (GrpCPUs=...) map to "Limit:tres".
ASSOC_REC: tuple[tuple[str, Names], ...] = (
    ("DefaultQOS", (("DefaultQOS", 8),)),
    ("FairShare", (("FairShare", 1), ("Shares", 1))),
    ("GrpTRESMins:cpu", (("GrpCPUMins", 7),)),
    ("GrpTRESRunMins:cpu", (("GrpCPURunMins", 7),)),
    ("GrpTRES:cpu", (("GrpCpus", 7),)),
    ("GrpJobs", (("GrpJobs", 4),)),
    ("GrpJobsAccrue", (("GrpJobsAccrue", 8),)),
    ("GrpTRES:mem", (("GrpMemory", 4),)),
    ("GrpTRES:node", (("GrpNodes", 4),)),
    ("GrpSubmitJobs", (("GrpSubmitJobs", 4),)),
    ("GrpTRES", (("GrpTRES", 7),)),
    ("GrpTRESMins", (("GrpTRESMins", 8),)),
    ("GrpTRESRunMins", (("GrpTRESRunMins", 8),)),
    ("GrpWall", (("GrpWall", 4),)),
    ("MaxTRESMinsPerJob:cpu", (("MaxCPUMinsPerJob", 7),)),
    ("MaxTRESRunMins:cpu", (("MaxCPURunMins", 7),)),
    ("MaxTRESPerJob:cpu", (("MaxCpusPerJob", 7),)),
    ("MaxJobs", (("MaxJobs", 4),)),
    ("MaxJobsAccrue", (("MaxJobsAccrue", 8),)),
    ("MaxTRESPerJob:node", (("MaxNodesPerJob", 4),)),
    ("MinPrioThreshold", (("MinPrioThresh", 4),)),
    ("MaxSubmitJobs", (("MaxSubmitJobs", 4),)),
    ("MaxTRESPerJob", (("MaxTRESPerJob", 7),)),
    ("MaxTRESPerNode", (("MaxTRESPerNode", 11),)),
    ("MaxTRESMinsPerJob", (("MaxTRESMinsPerJob", 8),)),
    ("MaxTRESRunMins", (("MaxTRESRunMins", 8),)),
    ("MaxWallDurationPerJob", (("MaxWallDurationPerJob", 4),)),
    ("Parent", (("Parent", 2),)),
    ("Priority", (("Priority", 2),)),
    ("QOS", (("QosLevel", 1),)),
)

# Association conditions (sacctmgr_set_assoc_cond), in Slurm's order.
ASSOC_COND: tuple[tuple[str, Names], ...] = (
    ("account", (("Accounts", 2), ("Acct", 4))),
    ("id", (("Ids", 1), ("Associations", 2))),
    ("cluster", (("Clusters", 1),)),
    ("defaultqos", (("DefaultQOS", 8),)),
    ("partition", (("Partitions", 3),)),
    ("parent", (("Parents", 4),)),
    ("qos", (("QosLevel", 1),)),
    ("user", (("Users", 1),)),
)

LIST_FLAGS: tuple[tuple[str, Names], ...] = (
    ("onlydefaults", (("OnlyDefaults", 1),)),
    ("tree", (("Tree", 4),)),
    ("withassoc", (("WithAssoc", 5),)),
    ("withcoord", (("WithCoordinators", 5),)),
    ("withdeleted", (("WithDeleted", 5),)),
    ("withrawqos", (("WithRawQOSLevel", 5),)),
    ("withsubaccounts", (("WithSubAccounts", 5),)),
    ("wopinfo", (("WOPInfo", 4),)),
    ("woplimits", (("WOPLimits", 4),)),
    ("wolimits", (("WOLimits", 3),)),
)


def is_where(text: str) -> bool:
    return matches(text, (("where", 5),))


def is_set(text: str) -> bool:
    return matches(text, (("set", 3),))


def sections(words: list[str]) -> tuple[list[Word], list[Word]]:
    """(conditions, settings) of a modify: ``where`` opens conditions, ``set`` settings;
    words before either are conditions."""
    cond: list[Word] = []
    rec: list[Word] = []
    target = cond
    for raw in words:
        if is_where(raw):
            target = cond
        elif is_set(raw):
            target = rec
        else:
            target.append(word(raw))
    return cond, rec


def plain(words: list[str]) -> list[Word]:
    """The words of add/show/delete, ``where`` and ``set`` skipped as sacctmgr skips them."""
    return [word(w) for w in words if not (is_where(w) or is_set(w))]


def split_list(text: str) -> list[str]:
    """A comma-separated value, quotes stripped, empty items dropped."""
    return [part.strip().strip("'\"") for part in text.split(",") if part.strip().strip("'\"")]
