"""Time ``fscli apply``/``load`` of a generated tree: 10,000 accounts, 100,000 user associations.

Targets: apply into an empty store < 15 s, re-apply (empty plan) < 5 s, load of the
equivalent flat file < 15 s. Prints figures; asserts nothing.

Usage: python benchmarks/trees_scale.py [ACCOUNTS] [USER_ASSOCIATIONS]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fscli.io import flatfile, yamltree  # noqa: E402
from fscli.io.treespec import (  # noqa: E402
    AccountSpec, ClusterSpec, QosSpec, TreeSpec, UserAssocSpec, UserSpec,
)


def generate(accounts: int, assocs: int) -> TreeSpec:
    """100 top-level accounts, the rest 100 per parent; two associations per user."""
    spec = TreeSpec(cluster=ClusterSpec(name="big", qos=["normal"]))
    spec.qos["normal"] = QosSpec(name="normal")
    for i in range(accounts):
        parent = "root" if i < 100 else f"a{(i - 100) // 100:05d}"
        spec.accounts[f"a{i:05d}"] = AccountSpec(
            name=f"a{i:05d}", parent=parent, shares=1 + i % 50,
            limits={"MaxJobs": 10} if i % 7 == 0 else {})
    for j in range(assocs):
        name = f"u{j // 2:06d}"
        assoc = UserAssocSpec(account=f"a{(j * 7919) % accounts:05d}", shares=1 + j % 5)
        user = spec.users.get(name)
        if user is None:
            spec.users[name] = UserSpec(name=name, associations=[assoc])
        else:
            user.associations.append(assoc)
    return spec


def timed(label: str, *args: str) -> None:
    cmd = [sys.executable, "-m", "fscli", "-Q", *args]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=REPO)
    print(f"{label:<40} {time.perf_counter() - start:7.2f} s")


def main() -> None:
    accounts = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    assocs = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        spec = generate(accounts, assocs)
        tree = Path(tmp, "big.yaml")
        flat = Path(tmp, "big.cfg")
        tree.write_text(yamltree.dump(spec))
        flat.write_text(flatfile.write(spec))
        print(f"{accounts} accounts, {assocs} user associations "
              f"(YAML {tree.stat().st_size / 1e6:.1f} MB, flat {flat.stat().st_size / 1e6:.1f} MB)")
        db, db2 = str(Path(tmp, "a.db")), str(Path(tmp, "b.db"))
        timed("apply into an empty store", "--db", db, "apply", str(tree))
        timed("apply again (empty plan)", "--db", db, "apply", str(tree))
        timed("export --format yaml", "--db", db, "export", "-o", str(Path(tmp, "e.yaml")))
        timed("dump", "--db", db, "dump", f"file={Path(tmp, 'e.cfg')}")
        timed("load flat file into an empty store", "--db", db2, "load", str(flat))
        timed("load again (empty plan)", "--db", db2, "load", str(flat))


if __name__ == "__main__":
    main()
