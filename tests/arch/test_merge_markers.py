"""No file of the project keeps a merge's conflict markers.

A marker left in a Markdown file breaks nothing a test reads, so it once stayed on main
for a whole session; this test reads every text file the repository tracks."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^(<{7} |>{7} |={7}$)", re.M)


def tracked_text_files() -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        names = out.split()
    except (OSError, subprocess.CalledProcessError):  # an export without .git
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()]
    suffixes = {".py", ".md", ".toml", ".yaml", ".yml", ".cfg", ".txt", ".sh", ".ini"}
    return [ROOT / n for n in names if Path(n).suffix in suffixes and (ROOT / n).is_file()]


def test_no_conflict_markers() -> None:
    marked = [
        str(path.relative_to(ROOT))
        for path in tracked_text_files()
        if MARKER.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert marked == []
