"""What the ``fscli`` program is before any of its code runs: its name, its commands and
where each lives, and how it leaves on Ctrl-C.

A leaf module (the standard library only): the entry point (:mod:`fscli.cli.main`), the
click group (:mod:`fscli.cli.group`) and the TAB answered without click
(:mod:`fscli.cli.fast`) all read it, and none of them imports another to learn it.
"""

from __future__ import annotations

import sys

PROG = "fscli"

# name -> (module, attribute, one-line help shown by `fscli --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "account": ("fscli.cli.account", "account", "Add, modify, delete and list accounts."),
    "apply": ("fscli.cli.trees", "apply", "Make the store match a YAML tree (plan, then apply)."),
    "assoc": ("fscli.cli.assoc", "assoc", "List associations (flat or as a tree)."),
    "bqueues": ("fscli.cli.lsf", "bqueues", "LSF queue view with the fairshare block."),
    "cluster": ("fscli.cli.cluster", "cluster", "Add, modify, delete and list clusters."),
    "compare": (
        "fscli.cli.lsf",
        "compare",
        "Rank users under Slurm and LSF policies side by side.",
    ),
    "collect": (
        "fscli.cli.mirror",
        "collect",
        "Save what a live cluster's tools print, for import slurm.",
    ),
    "config": ("fscli.cli.config", "config", "Priority configuration (slurm.conf names)."),
    "db": ("fscli.cli.db", "db", "Store schema: upgrade, current version."),
    "demo": ("fscli.cli.demo", "demo", "Build a demo cluster and show what fscli does."),
    "dump": ("fscli.cli.trees", "dump", "Write a sacctmgr dump flat file."),
    "export": ("fscli.cli.trees", "export", "Export the whole cluster (YAML or dump format)."),
    "history": ("fscli.cli.history", "history", "Every change made to the store."),
    "import": ("fscli.cli.mirror", "import_", "Build a cluster from what a live cluster prints."),
    "job": ("fscli.cli.job", "job", "Submit, list, cancel and import jobs."),
    "limits": ("fscli.cli.limits", "limits", "Set, show, resolve and check limits."),
    "load": ("fscli.cli.trees", "load", "Read a sacctmgr dump flat file into the store."),
    "lsf": ("fscli.cli.lsf", "lsf", "LSF fairshare: parameters, queues, user groups."),
    "partition": ("fscli.cli.partition", "partition", "Add, modify, delete and list partitions."),
    "plot": ("fscli.cli.plot", "plot", "Draw usage, shares, sprio or LSF as a chart (SVG/PNG)."),
    "qos": ("fscli.cli.qos", "qos", "Add, modify, delete and list QOS."),
    "report": (
        "fscli.cli.report",
        "report",
        "Usage over a period from the job records, like sreport.",
    ),
    "sacctmgr": (
        "fscli.cli.sacctmgr",
        "sacctmgr",
        "Run sacctmgr command lines (22.05 grammar, output, exit codes).",
    ),
    "shims": (
        "fscli.cli.shims",
        "shims",
        "Write sacctmgr, sshare and sprio programs that run fscli.",
    ),
    "sprio": ("fscli.cli.sprio", "sprio", "Job priority factors, like sprio."),
    "sshare": ("fscli.cli.sshare", "sshare", "Fair-share of every association, like sshare."),
    "tree": ("fscli.cli.tree", "tree", "The account tree with shares, usage and fair-share."),
    "usage": ("fscli.cli.usage", "usage", "Charge, set and import usage."),
    "user": ("fscli.cli.user", "user", "Add, modify, delete and list users."),
    "whatif": (
        "fscli.cli.whatif",
        "whatif",
        "Solve for a target: the shares that reach a FairShare, when usage decays.",
    ),
}

HIDDEN: dict[str, tuple[str, str]] = {
    "slurm-sprio": ("fscli.cli.slurmtext", "slurm_sprio"),
    "slurm-sshare": ("fscli.cli.slurmtext", "slurm_sshare"),
}
"""Commands run by the programs ``fscli shims`` writes, not listed: Slurm's own sshare
and sprio (command line, text, exit codes) over the store."""


def command_rows() -> list[tuple[str, str]]:
    """(name, one-line help) of the commands, as ``fscli --help`` lists them."""
    return [(name, spec[2]) for name, spec in sorted(COMMANDS.items())]


def interrupted() -> None:
    """Ctrl-C: one line on stderr, no traceback, exit 130 (128 + SIGINT) like a shell."""
    print("Interrupted", file=sys.stderr)
    sys.exit(130)
