"""A 40-account site and its charts: what ``fscli plot`` draws where a site is big enough
for a chart to go wrong (issue 35: a half-empty window, colours that repeat, parents on
one axis with their children, ``1e8`` on the axis, jobs without their users).

    python benchmarks/chart_site.py [DIR]     # writes DIR/{usage,usage-level2,...}.png

The site: 4 divisions under root, 10 departments each (40 accounts at level 2), two or
three users per department (one with a second, partition association), 14 days of usage
ending at ``AT``, and 60 pending jobs. The build goes through the Python API in one
transaction; each chart is drawn as ``fscli plot`` draws it. ``tests/cli/test_plot_site.py``
builds the same site and checks the charts' data.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

AT = "2026-05-01T00:00:00"
DAY = 86400
DIVISIONS = {
    "eng": ["aero", "civil", "chemeng", "elec", "mech", "nuclear", "robotics", "materials",
            "systems", "bioeng"],
    "sci": ["physics", "chem", "bio", "math", "astro", "geo", "ocean", "climate", "neuro",
            "stats"],
    "med": ["cardio", "onco", "genomics", "immuno", "radiology", "pharma", "epidem", "surgery",
            "pediatrics", "psych"],
    "hum": ["econ", "ling", "history", "philo", "music", "arts", "law", "educ", "socio",
            "polisci"],
}  # fmt: skip
CHARTS = {
    "usage": ["usage"],  # the divisions (level 1), window fitted to the 14 days of data
    "usage-level2": ["usage", "--level", "2"],  # the top 10 departments and "others (30)"
    "usage-all40": ["usage", "--level", "2", "--top", "0"],  # all 40: 40 colours
    "sprio": ["sprio", "--top", "30"],
    "shares": ["shares"],  # the 44 accounts
    "shares-users": ["shares", "-a"],  # and their users, partition associations named
}


def build(path: str) -> None:
    """The site in the store at ``path`` (a new file)."""
    import fscli
    from fscli.api.when import moment

    end = moment(AT)
    with fscli.open_store(path) as store, store.transaction(at=end - 15 * DAY) as tx:
        tx.add_cluster("site", nodes=100, cpus=6400)
        tx.add_partition("batch", cluster="site", nodes=90, cpus=5760)
        tx.add_partition("gpu", cluster="site", nodes=10, cpus=640)
        tx.set_config(
            {
                "PriorityWeightFairshare": "10000",
                "PriorityWeightAge": "2000",
                "PriorityWeightJobSize": "500",
                "PriorityMaxAge": "7-0",
            },
            cluster="site",
        )
        k = 0
        for d, (division, departments) in enumerate(DIVISIONS.items()):
            tx.add_account(division, cluster="site", fairshare=100 + 25 * d)
            for department in departments:
                k += 1
                tx.add_account(department, cluster="site", parent=division, fairshare=5 + k % 7)
                users = [f"{department}{u}" for u in range(2 + k % 2)]
                tx.add_user(users, department, cluster="site")
                if k % 10 == 1:  # a user with a partition association too
                    tx.add_user(users[0], department, cluster="site", partition="gpu")
                for day in range(14):  # 14 days of usage, some departments busier
                    amount = 3600.0 * (1 + (k * 7 + day * 3) % 11) * (1 + k % 5) ** 2
                    tx.add_usage(department, amount, at=end - (14 - day) * DAY, user=users[0])
                for j in range(k % 3 == 0 and 3 or 1):
                    tx.submit_job(
                        user=users[j % len(users)],
                        account=department,
                        partitions=("batch",),
                        cpus=16 * (1 + (k + j) % 4),
                        submit=end - ((k * 5 + j) % 48) * 3600,
                        cluster="site",
                    )


def render(path: str, out: Path) -> list[Path]:
    """Each of :data:`CHARTS` drawn from the store at ``path`` into ``out``, by
    ``fscli plot``; the files written."""
    from click.testing import CliRunner

    from fscli.cli.main import cli

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, words in CHARTS.items():
        target = out / f"{name}.png"
        argv = ["--db", path, "--at", AT, "--cluster", "site", "plot", *words, "-o", str(target)]
        result = CliRunner().invoke(cli, argv)
        if result.exit_code:
            raise SystemExit(f"{name}: {result.output}")
        written.append(target)
    return written


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/fscli-charts")
    out.mkdir(parents=True, exist_ok=True)
    db = out / "site.db"
    db.unlink(missing_ok=True)
    began = time.perf_counter()
    build(str(db))
    built = time.perf_counter()
    for path in render(str(db), out):
        print(path)
    print(f"built the 40-account site in {built - began:.1f} s, drew the charts in "
          f"{time.perf_counter() - built:.1f} s")  # fmt: skip


if __name__ == "__main__":
    main()
