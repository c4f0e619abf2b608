"""``fscli config set|show|import`` — priority settings with slurm.conf's key names."""

from __future__ import annotations

import click

from fscli.cli.complete import words_completer
from fscli.cli.output import dry_run_option, output_options, report

SETTINGS = {"context_settings": {"ignore_unknown_options": True}}


def config_keys() -> dict[str, str]:
    """The keys ``config set`` takes (lower case -> slurm.conf's spelling), for a TAB."""
    from fscli.engine.config import KEYS

    return {k.lower(): k for k in KEYS}


def config_values() -> dict[str, tuple[str, ...]]:
    """The values of the keys that take one of a fixed set, for a TAB."""
    from fscli.engine.config import PRIORITY_FLAGS, RESET_PERIODS

    return {
        "PriorityType": ("priority/multifactor", "priority/basic"),
        "PriorityFlags": PRIORITY_FLAGS,
        "PriorityUsageResetPeriod": RESET_PERIODS,
        "PriorityFavorSmall": ("YES", "NO"),
        "EnforcePartLimits": ("NO", "ANY", "ALL"),
        "AccountingStorageEnforce": ("associations", "limits", "qos", "safe", "wckeys"),
    }


@click.group()
def config() -> None:
    """Priority configuration, stored under slurm.conf's names (PriorityFlags, ...).

    \b
    Example:
      fscli config set PriorityFlags=NO_FAIR_TREE
      fscli config show
    """


@config.command("set", **SETTINGS)
@click.argument(
    "words",
    nargs=-1,
    required=True,
    shell_complete=words_completer(None, config_keys, config_values),
)
@dry_run_option
@click.pass_obj
def set_(app, words, dry_run) -> None:
    """Set configuration keys (slurm.conf names, case-insensitive).

    \b
    Example:
      fscli config set PriorityFlags=NO_FAIR_TREE PriorityDecayHalfLife=7-0
      fscli config set PriorityWeightFairshare=10000 TRESBillingWeights=CPU=1.0,Mem=0.25G
    """
    from fscli.engine.config import validate
    from fscli.errors import UsageProblem

    values: dict[str, str] = {}
    for word in words:  # checked before the store is opened (or created)
        key, sep, value = word.partition("=")
        if not sep or not key.strip():
            raise UsageProblem(f"expected KEY=VALUE, got '{word}'")
        canon, text = validate(key, value)
        values[canon] = text
    with app.changes(dry_run) as tx:
        lines = tx.set_config(values, app.cluster_name)
    report(app, lines, dry_run)


@config.command("show")
@click.option("--all", "show_all", is_flag=True, help="Also list keys left at their default.")
@output_options
@click.pass_obj
def show(app, show_all, out) -> None:
    """Show the configuration: every key that is set (and with --all, the defaults).

    \b
    Example:
      fscli config show -P
    """
    from fscli.engine.config import KEYS, MINUTE_KEYS, RESET_AT_KEY
    from fscli.engine.timestr import format_mins, utc_iso

    def shown(key: str, value: str):
        """Times as Slurm prints them (scontrol show config), in JSON minutes as numbers."""
        if key == "PriorityCalcAnchor":
            return utc_iso(int(value))
        if key in MINUTE_KEYS:
            return int(value) if out.json else format_mins(int(value))
        return out.setting(value)

    stored = app.store.settings(app.cluster_name)
    rows = []
    for key, (default, _) in KEYS.items():
        if key in stored or show_all:
            rows.append(
                [key, shown(key, stored.get(key, default)), "set" if key in stored else "default"]
            )
    if RESET_AT_KEY in stored:
        rows.append([RESET_AT_KEY, utc_iso(int(stored[RESET_AT_KEY])), "set"])
    out.emit(["Key", "Value", "Source"], rows, "config")


@config.command("import")
@click.argument("path", type=click.Path(dir_okay=False))
@dry_run_option
@click.pass_obj
def import_(app, path, dry_run) -> None:
    """Read the priority keys of a slurm.conf; list the keys used and ignored.

    \b
    Example:
      fscli config import /etc/slurm/slurm.conf
    """
    from fscli.cli.usage import read_text
    from fscli.io.slurmconf import parse_slurm_conf

    conf = parse_slurm_conf(read_text(path))
    with app.changes(dry_run) as tx:
        lines = tx.import_config(conf.used, path, app.cluster_name)
    click.echo(f"used: {', '.join(f'{k}={v}' for k, v in conf.used.items()) or '(none)'}")
    ignored = sorted({key for _, key, _ in conf.ignored}, key=str.lower)
    ignored += [
        f"{name} ({len(records)} line(s))"
        for name, records in (("PartitionName", conf.partitions), ("NodeName", conf.nodes))
        if records
    ]
    click.echo(f"ignored: {', '.join(ignored) or '(none)'}")
    for number, name in conf.includes:
        click.echo(f"not followed: Include {name} (line {number})")
    report(app, lines, dry_run)
