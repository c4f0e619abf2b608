"""Read a folder ``fscli collect`` wrote into the plain objects ``import slurm`` stores.

Each file is read by the importer fscli already has for that tool's text: the tree from
``sacctmgr dump`` (:mod:`fscli.io.flatfile`), the priority settings and partitions from
``scontrol show config|partition`` and the pending and running jobs from ``scontrol show
job`` (:mod:`fscli.io.scontrol`, jobs read back by :mod:`fscli.io.squeue_import`), the
usage from sacct's job records (:mod:`fscli.io.usage_import`). A file that is missing or
that its command failed to write is skipped, and named in :attr:`Capture.missing` with
what could not be filled; so is one its reader cannot take (a column it needs is
missing, a value is bad), with the reason. Only the tree is required.

Times: ``collect`` runs the tools in UTC with the offset printed where Slurm allows
(``SLURM_TIME_FORMAT``) and says ``"time_zone": "UTC"``; times printed without an offset
(sacct ignores that format; captures taken by hand) are then read as UTC, else as this
machine's local time.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import timezone, tzinfo
from pathlib import Path

from fscli.engine.imported import JobRecord
from fscli.engine.qos_changes import QosChanges
from fscli.engine.submit import JobInput
from fscli.engine.treespec import TreeSpec
from fscli.errors import FscliError, InvalidValue

META = "collect.json"
CONFIG = "scontrol_show_config.txt"
DUMP = "sacctmgr_dump.cfg"
PARTITIONS = "scontrol_show_partition.txt"
NODES = "scontrol_show_node.txt"
JOBS = "scontrol_show_job.txt"
SACCT = "sacct_a_X_P.txt"
QOS = "sacctmgr_show_qos.txt"
_NAIVE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$")
_SACCT_TIMES = ("submit", "start", "end", "eligible")


@dataclass
class Capture:
    """One collect, read: what ``import slurm`` stores, and what it could not fill."""

    folder: Path
    meta: dict
    digest: str
    tree: TreeSpec
    settings: dict[str, str] = field(default_factory=dict)
    partitions: dict[str, dict] = field(default_factory=dict)
    size: dict = field(default_factory=dict)  # the cluster's nodes, cpus, tres
    qos: dict[str, QosChanges] = field(default_factory=dict)
    completed: list[JobRecord] = field(default_factory=list)
    jobs: list[JobInput] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    @property
    def cluster(self) -> str:
        return self.tree.cluster.name

    @property
    def moment(self) -> int | None:
        """The collect's moment (epoch seconds), None when collect.json lacks it."""
        value = self.meta.get("moment")
        return int(value) if isinstance(value, int) else None

    boot: int | None = None  # slurmctld's start (scontrol show config's BOOT_TIME)
    calc_period: int | None = None  # PriorityCalcPeriod, seconds

    @property
    def last_pass(self) -> int | None:
        """The moment of slurmctld's last priority pass before the collect, if known."""
        value = self.meta.get("last_pass")
        return int(value) if isinstance(value, int) else None

    def estimated_pass(self) -> int | None:
        """The last pass as slurmctld's timer places it when the state file could not be
        read: its start plus whole PriorityCalcPeriods up to the collect's moment (the
        decay thread starts with slurmctld and wakes every period: on the live cluster the
        passes fell on BOOT_TIME's second)."""
        if self.boot is None or not self.calc_period or self.moment is None:
            return None
        if self.moment < self.boot:
            return None
        return self.boot + (self.moment - self.boot) // self.calc_period * self.calc_period


def read(folder: str | Path) -> Capture:
    """The capture in ``folder``; see the module docstring. Raises :class:`InvalidValue`
    for a folder without a readable dump."""
    where = Path(folder)
    if not where.is_dir():
        raise InvalidValue(f"{folder}: not a folder (expected what 'fscli collect' wrote)")
    meta = _meta(where)
    text = _text(where, DUMP)
    if not text:
        raise InvalidValue(f"{where / DUMP}: missing or empty: the tree cannot be built")
    from fscli.io import flatfile

    capture = Capture(where, meta, _digest(where), flatfile.parse(text, source=str(where / DUMP)))
    for reader, name in (
        (_settings, CONFIG),
        (_qos, QOS),
        (_partitions, PARTITIONS),
        (_size, NODES),
        (_jobs, JOBS),
        (_completed, SACCT),
    ):
        body = _text(where, name)
        if not body:
            capture.missing.append(f"{name} missing or empty: {_WHAT[name]} not imported")
            continue
        try:
            reader(capture, body)
        except FscliError as exc:
            capture.missing.append(f"{name}: {exc.message}: {_WHAT[name]} not imported")
    return capture


_WHAT = {
    CONFIG: "priority settings",
    QOS: "QOS settings (QOS the tree names are added at their defaults)",
    PARTITIONS: "partitions",
    NODES: "the cluster's nodes and CPUs",
    JOBS: "pending and running jobs",
    SACCT: "usage of finished jobs",
}


def _meta(where: Path) -> dict:
    path = where / META
    if not path.exists():
        return {}
    try:
        meta = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise InvalidValue(f"{path}: not JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise InvalidValue(f"{path}: expected a JSON object")
    return meta


def _text(where: Path, name: str) -> str:
    try:
        return (where / name).read_text()
    except (OSError, UnicodeDecodeError):
        return ""


def _digest(where: Path) -> str:
    """A digest of every file of the capture: the same folder imports to the same store."""
    sha = hashlib.sha256()
    for path in sorted(where.iterdir()):
        if path.is_file():
            sha.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()[:16]


def _settings(capture: Capture, text: str) -> None:
    from fscli.io.scontrol import priority_settings, show_config

    values = show_config(text)
    settings = priority_settings(values)
    capture.settings = settings.used
    if "PriorityCalcPeriod" in settings.used:
        capture.calc_period = 60 * int(settings.used["PriorityCalcPeriod"])
    if values.get("BOOT_TIME"):
        from fscli.engine.timestr import parse_date

        capture.boot = parse_date(values["BOOT_TIME"], "BOOT_TIME")
    capture.missing += [
        f"{CONFIG}: {key}={value} not taken: {why}" for key, value, why in settings.refused
    ]


def _qos(capture: Capture, text: str) -> None:
    from fscli.io.sacctmgr_qos import parse_show_qos

    settings = parse_show_qos(text)
    capture.qos = settings.qos
    capture.missing += [f"{QOS}: column {title} not imported" for title in settings.unread]


def _partitions(capture: Capture, text: str) -> None:
    from fscli.io.scontrol import partition_values, records

    for record in records(text):
        name = record.get("PartitionName")
        if name:
            capture.partitions[name.lower()] = partition_values(record)


def _size(capture: Capture, text: str) -> None:
    from fscli.io.scontrol import records, unset

    nodes = [r for r in records(text) if r.get("NodeName")]
    cpus = sum(int(r["CPUTot"]) for r in nodes if not unset(r.get("CPUTot")))
    memory = sum(int(r["RealMemory"]) for r in nodes if not unset(r.get("RealMemory")))
    capture.size = {"nodes": len(nodes), "cpus": cpus}
    if memory:
        capture.size["tres"] = f"cpu={cpus},mem={memory},node={len(nodes)}"


def _jobs(capture: Capture, text: str) -> None:
    from fscli.io.scontrol import records, squeue_line
    from fscli.io.squeue_import import parse_squeue

    lines = [squeue_line(r) for r in records(text) if r.get("JobId")]
    jobs = parse_squeue("\n".join(lines) + "\n", _zone(capture))
    capture.jobs = [j for j in jobs if j.state in ("pending", "running")]


def _completed(capture: Capture, text: str) -> None:
    """sacct's finished jobs (a job still running is ``scontrol show job``'s: it carries
    the time limit that ends its charging)."""
    from fscli.io.usage_import import parse_sacct

    active = {j.job_id for j in capture.jobs}
    if _zone(capture) is not None:
        text = _with_offset(text)
    records = parse_sacct(text).jobs
    capture.completed = [
        j
        for j in records
        if j.end is not None and not (j.job_id and j.job_id.isdigit() and int(j.job_id) in active)
    ]


def _zone(capture: Capture) -> tzinfo | None:
    """The time zone of the capture's times without an offset: UTC when collect.json says
    so (``collect`` runs the tools in UTC), else this machine's local time."""
    return timezone.utc if capture.meta.get("time_zone") == "UTC" else None


def _with_offset(text: str) -> str:
    """sacct's times with the capture's UTC offset (sacct prints none)."""
    lines = text.splitlines()
    if not lines:
        return text
    names = [n.strip().lower() for n in lines[0].split("|")]
    columns = [i for i, n in enumerate(names) if n in _SACCT_TIMES]
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split("|")
        for i in columns:
            if i < len(cells) and _NAIVE.match(cells[i]):
                cells[i] += "+00:00"
        out.append("|".join(cells))
    return "\n".join(out) + "\n"
