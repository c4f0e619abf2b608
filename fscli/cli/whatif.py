"""``fscli whatif shares|decay``: the what-if questions answered backwards, from a target.

``shares`` finds the least RawShares that brings an association's FairShare (or LevelFS)
to a value, ``decay`` the moment its RawUsage falls to one with no new jobs; both by
computing candidates on the snapshot in memory (:mod:`fscli.api.solvers`). Nothing is
written: ``fscli limits set ... fairshare=N`` makes the answer real.
"""

from __future__ import annotations

import click

from fscli.cli.complete import NamesCompleter
from fscli.cli.output import output_options


def _target(text: str, allowed: tuple[str, ...]) -> tuple[str, float]:
    """``FairShare=0.5`` as (the key as given, 0.5)."""
    import math

    from fscli.errors import UsageProblem

    key, sep, value = text.partition("=")
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not sep or key.strip().lower() not in {a.lower() for a in allowed} or math.isnan(number):
        raise UsageProblem(f"--target {text!r}: expected {' or '.join(a + '=N' for a in allowed)}")
    return key.strip(), number


@click.group()
def whatif() -> None:
    """Solve what-if questions for a target value (nothing is written).

    \b
    Example:
      fscli whatif shares physics --target FairShare=0.5
      fscli whatif decay alice/physics --target RawUsage=1000
    """


@whatif.command("shares")
@click.argument("assoc", shell_complete=NamesCompleter("assoc"))
@click.option("--target", "target", required=True, metavar="FairShare=N|LevelFS=N")
@output_options
@click.pass_obj
def shares(app, assoc, target, out) -> None:
    """The least RawShares at which ASSOC (ACCOUNT or USER/ACCOUNT) reaches the target,
    under the cluster's algorithm, found by computing each candidate in memory.

    \b
    Example:
      fscli whatif shares alice/physics --target FairShare=0.5
      fscli whatif shares chem --target LevelFS=1
    """
    key, value = _target(target, ("FairShare", "LevelFS"))
    answer = app.store.solve_shares(assoc, key, value, app.cluster_name, app.now)
    row = [answer.assoc, answer.algorithm, f"{answer.field}={value:g}", answer.current_shares]
    numbers = [answer.current, answer.shares, answer.reached, answer.below]
    row += numbers if out.json else [_double(n) for n in numbers]
    columns = ["Assoc", "Algorithm", "Target", "RawShares", "Now", "Needed", "Reached", "OneLess"]
    out.emit(columns, [row], "shares")


def _double(value: float | None) -> str:
    """A fair-share number as sshare prints it (``%f``; a share count as is); blank for
    none."""
    if value is None:
        return ""
    return str(value) if isinstance(value, int) else f"{value:f}"


@whatif.command("decay")
@click.argument("assoc", shell_complete=NamesCompleter("assoc"))
@click.option("--target", "target", required=True, metavar="RawUsage=N")
@output_options
@click.pass_obj
def decay(app, assoc, target, out) -> None:
    """When ASSOC's RawUsage falls to the target if no job starts after --at (running jobs
    charged until their time limits).

    \b
    Example:
      fscli whatif decay alice/physics --target RawUsage=1000
    """
    from fscli.engine.timestr import format_secs, utc_iso

    _, value = _target(target, ("RawUsage",))
    answer = app.store.solve_decay(assoc, value, app.cluster_name, app.now)
    row = [answer.assoc, int(answer.current), f"RawUsage={value:g}", utc_iso(answer.when)]
    wait = answer.when - answer.at  # --json: seconds, as a number
    row += [wait if out.json else format_secs(wait), int(answer.usage)]
    out.emit(["Assoc", "RawUsage", "Target", "When", "In", "Then"], [row], "decay")
