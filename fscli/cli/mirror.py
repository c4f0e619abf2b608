"""``fscli collect DIR`` and ``fscli import slurm DIR|--live``: mirror a live cluster."""

from __future__ import annotations

import click

from fscli.cli.output import dry_run_option, report


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option(
    "--start",
    metavar="TIME",
    help="sacct's -S (default: ten decay half-lives back, or all when usage never decays).",
)
@click.pass_obj
def collect(app, folder, start) -> None:
    """Save what the cluster's own tools print into FOLDER, for 'fscli import slurm'.

    Run it on a node of the cluster, as root or a Slurm administrator: sacctmgr dump and
    show (associations, QOS, users, accounts), sshare, sprio, scontrol show config,
    partition, node, job and assoc_mgr, sacct's jobs, each into a file named after its
    command, and collect.json (moment, version, cluster, host, the last priority pass).
    A missing tool or a failing command is recorded and named, not fatal.

    \b
    Example:
      fscli collect /tmp/hpc1-capture && fscli import slurm /tmp/hpc1-capture
    """
    from fscli.api.collect import collect as run

    done = run(folder, start)
    for problem in done.problems:
        app.say(f"not collected: {problem}")
    app.say(
        f"collected cluster {done.meta.get('cluster') or '?'} "
        f"(Slurm {done.meta.get('version') or '?'}) into {folder}"
    )


@click.group("import")
def import_() -> None:
    """Build a cluster of the store from what a live cluster prints.

    \b
    Example:
      fscli collect /tmp/hpc1 && fscli import slurm /tmp/hpc1
    """


@import_.command("slurm")
@click.argument("folder", required=False, type=click.Path(file_okay=False))
@click.option("--live", is_flag=True, help="Collect from this node first (a temporary folder).")
@dry_run_option
@click.pass_obj
def slurm(app, folder, live, dry_run) -> None:
    """Make one cluster of the store what 'fscli collect' saved in FOLDER.

    The cluster is replaced whole, in one transaction: tree, users, QOS, partitions,
    priority settings, usage (rebuilt from the jobs, on slurmctld's pass grid) and the
    pending and running jobs; no other cluster changes. Importing the same folder again
    changes nothing. sshare and sprio at the collect's last priority pass (printed at the
    end) show what the cluster showed.

    \b
    Example:
      fscli import slurm /tmp/hpc1-capture
      fscli import slurm --live
    """
    from fscli.api.import_slurm import import_slurm
    from fscli.errors import UsageProblem

    if live == (folder is not None):
        raise UsageProblem("import slurm takes a FOLDER or --live, not both")
    if live:
        import tempfile

        from fscli.api.collect import collect as run

        with tempfile.TemporaryDirectory(prefix="fscli-collect-") as where:
            for problem in run(where).problems:
                app.say(f"not collected: {problem}")
            done = import_slurm(app.store, where, app.at_text, dry_run)
    else:
        done = import_slurm(app.store, folder, app.at_text, dry_run)
    for line in done.missing:
        app.say(f"not imported: {line}")
    report(app, done.lines, dry_run)
    if done.at is not None:
        from fscli.engine.timestr import utc_iso

        app.say(f"last priority pass: {utc_iso(done.at)} (ask with --at this moment)")
