"""Several admins writing at once: the workload of the concurrency test and benchmark.

Each worker is its own process and runs its commands one after another in-process (one
transaction each), as an admin's script would. The commands of different workers commute,
so whatever the interleaving the final store must equal the serial run's — and the
``qos+=`` on the one shared account is a read-modify-write that a lost update would show.

    python -m tests.store.writers worker DB WORKER COUNT   # prints failures, exits 1 if any
"""

from __future__ import annotations

import sys

AT = "2026-01-15T12:00:00"


def setup_commands() -> list[list[str]]:
    return [["cluster", "add", "c1"], ["account", "add", "shared", "fairshare=10"]]


def worker_commands(worker: int, count: int) -> list[list[str]]:
    """``count`` commands of worker ``worker``: adds, modifies and usage charges in turn."""
    cycle = [
        lambda i: ["qos", "add", f"w{worker}q{i}", f"priority={i}"],
        lambda i: ["account", "add", f"w{worker}a{i}", "parent=shared", f"fairshare={i + 1}"],
        lambda i: ["user", "add", f"w{worker}u{i}", f"account=w{worker}a{i}"],
        lambda i: ["account", "modify", "shared", "set", f"qos+=w{worker}q{i}"],
        lambda i: [
            "usage",
            "add",
            f"user=w{worker}u{i}",
            f"account=w{worker}a{i}",
            f"raw={100 * (worker + 1) + i}",
            "at=2026-01-14T00:00:00",
        ],
        lambda i: ["user", "modify", f"w{worker}u{i}", "set", f"fairshare={worker + i + 2}"],
    ]
    out: list[list[str]] = []
    step = 0
    while len(out) < count:
        out.extend(make(step) for make in cycle)
        step += 1
    return out[:count]


def run(db: str, commands: list[list[str]]) -> list[str]:
    """Run the commands in this process; the failures, one line each."""
    import click

    from fscli.cli.main import cli

    failures = []
    for argv in commands:
        try:
            cli.main(["--db", db, "-Q", "--at", AT, *argv], standalone_mode=False)
        except click.ClickException as exc:
            failures.append(f"{' '.join(argv)}: {exc.format_message()}")
        except SystemExit as exc:
            if exc.code:
                failures.append(f"{' '.join(argv)}: exit {exc.code}")
    return failures


def state(db: str) -> dict[str, list[str]]:
    """What the store holds, as sorted text lines per view (order of writes does not matter)."""
    from click.testing import CliRunner

    from fscli.cli.main import cli

    views = {
        "assoc": ["assoc", "list", "-P", "format=Account,User,Share,QOS"],
        "qos": ["qos", "list", "-P"],
        "sshare": ["sshare", "-a", "-P"],
    }
    runner = CliRunner()
    out = {}
    for name, argv in views.items():
        result = runner.invoke(cli, ["--db", db, "--at", AT, *argv], catch_exceptions=False)
        assert result.exit_code == 0, (argv, result.stderr)
        out[name] = sorted(_canonical(line) for line in result.stdout.splitlines())
    out["history"] = [str(_history_count(db))]
    return out


def _canonical(line: str) -> str:
    """QOS lists are sets: their order records only who came first."""
    return "|".join(",".join(sorted(cell.split(","))) for cell in line.split("|"))


def _history_count(db: str) -> int:
    from click.testing import CliRunner

    from fscli.cli.main import cli

    result = CliRunner().invoke(cli, ["--db", db, "history", "-P", "-n"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return len(result.stdout.splitlines())


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[0] != "worker":
        print(__doc__, file=sys.stderr)
        return 2
    db, worker, count = argv[1], int(argv[2]), int(argv[3])
    failures = run(db, worker_commands(worker, count))
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
