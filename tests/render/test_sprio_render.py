"""sprio text output: formats, headers, widths, sorting, errors, JSON rows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from fscli.engine.config import WEIGHT_KEYS as WEIGHT_KEY_NAMES
from fscli.engine.config import PriorityConfig, validate
from fscli.engine.model import ClusterInfo, Job, Partition, Qos
from fscli.engine.priority import PriorityColumns
from fscli.errors import InvalidValue
from fscli.render.sprio import (
    LONG_WITH_FORMAT,
    default_format,
    parse_format,
    render,
    render_json,
    row_dict,
    sort_order,
    weights_dict,
)
from tests.engine.adapt import compute_priorities

GOLDEN = Path(__file__).parents[1] / "data/golden"
NOW = 1_800_000_000


def _config(**values: str) -> PriorityConfig:
    return PriorityConfig.from_mapping(dict(validate(k, v) for k, v in values.items()))


CONFIG = _config(
    PriorityWeightAge="1000",
    PriorityMaxAge="1-0",
    PriorityWeightQOS="500",
    PriorityWeightTRES="CPU=2000,gres/gpu=1000",
)
PARTS = {
    "gpu": Partition("gpu", nodes=2, cpus=64, tres={"gres/gpu": 8}),
    "cpu": Partition("cpu", nodes=8, cpus=256),
}
QOS = {"normal": Qos("normal"), "high": Qos("high", priority=100)}


def _rows(config: PriorityConfig = CONFIG):
    jobs = [
        Job(
            id=12,
            user="alice",
            account="phys",
            partitions=("gpu", "cpu"),
            qos="high",
            submit=NOW - 43200,
            cpus=16,
            tres={"gres/gpu": 2},
        ),
        Job(
            id=3,
            user="bob",
            account="chem",
            partitions=("cpu",),
            qos="normal",
            submit=NOW - 86400 * 2,
            cpus=64,
            nice=25,
        ),
        Job(
            id=7,
            user="carol",
            account="chem",
            partitions=("cpu",),
            qos="normal",
            submit=NOW - 600,
            cpus=1,
            site_factor=40,
        ),
    ]
    return compute_priorities(jobs, {}, QOS, PARTS, ClusterInfo("alpha"), config, {}, NOW).rows


def test_default_format_lists_only_weighted_factors():
    assert default_format(CONFIG) == "%.15i %9r %.10Y %.10S %.10A %.10Q %.20T"
    assert default_format(CONFIG, normalized=True, users=True) == (
        "%.15i %9r %.8u %10y %10a %10q %20t"
    )
    assert default_format(CONFIG, long=True).endswith("%.11N %.20T")
    with pytest.raises(InvalidValue, match="Slurm version '2.6' is not one of 22.05 to 25.11"):
        default_format(CONFIG, long=True, version="2.6")


@pytest.mark.parametrize(
    ("version", "account"),
    [("22.05.8", False), ("22.05", False), ("23.02.0", True), ("24.11.5", True), ("25.11", True)],
)
def test_long_format_follows_the_slurm_release(version, account):
    """sprio -l gained ACCOUNT (%o) and QOSNAME (%n) in 23.02 (src/sprio/sprio.c)."""
    weighted = default_format(CONFIG, long=True, version=version)
    normalized = default_format(CONFIG, long=True, normalized=True, version=version)
    assert (" %.8o " in weighted, " %.10n " in weighted) == (account, account)
    assert (" %.8o " in normalized, " %10n " in normalized) == (account, account)


def test_default_output():
    assert render(_rows(), CONFIG) == (
        "          JOBID PARTITION   PRIORITY       SITE        AGE        QOS                 TRES\n"
        "              3 cpu             1475          0       1000          0              cpu=500\n"
        "              7 cpu               54         40          7          0                cpu=8\n"
        "             12 gpu             1750          0        500        500 cpu=500,gres/gpu=250\n"
        "             12 cpu             1125          0        500        500              cpu=125\n"
    )


def test_normalized_output_and_weights_line():
    text = render(_rows(), CONFIG, normalized=True, header=False)
    assert text.splitlines()[2] == (
        "             12 gpu       0.00000040 0.5000000  1.0000000  cpu=0.25,gres/gpu=0."
    )
    assert render([], CONFIG, weights=True) == (
        "          JOBID PARTITION   PRIORITY       SITE        AGE        QOS                 TRES\n"
        "        Weights                               1       1000        500 CPU=2000,gres/gpu=10\n"
    )


def test_widths_justification_cutting_prefix_and_suffix():
    prefix, fields = parse_format("id:%.4i|%3r%%u;")
    assert prefix == "id:"
    assert [(f.letter, f.width, f.right, f.suffix) for f in fields] == [
        ("i", 4, True, "|"),
        ("r", 3, False, ""),
        ("u", 0, False, ";"),
    ]
    text = render(_rows(), CONFIG, fmt="<%.2i|%3r|%u>", header=True, sort="-i")
    assert text.splitlines() == [
        "<JO|PAR|USER>",
        "<12|gpu|alice>",
        "<12|cpu|alice>",
        "< 7|cpu|carol>",
        "< 3|cpu|bob>",
    ]
    assert render(_rows(), CONFIG, fmt="%5u.", header=False).splitlines()[0] == "bob  ."


def test_format_errors():
    with pytest.raises(InvalidValue, match="Invalid job format specification: '%z'"):
        parse_format("%.15i %z")
    with pytest.raises(InvalidValue, match="'%-3r'"):
        parse_format("%-3r")
    with pytest.raises(InvalidValue, match="lacks specification"):
        parse_format("")
    # Regression: these ended in "internal error: ValueError" (int("²"), a width Python's
    # format cannot take, an integer of more than 4300 digits).
    for bad in ("%²i", "%.٣i"):
        with pytest.raises(InvalidValue, match="Invalid job format specification"):
            parse_format(bad)
    for width in ("10001", "9" * 30, "9" * 5000):
        with pytest.raises(InvalidValue, match="width at most 10000"):
            parse_format(f"%.{width}i")
    assert parse_format("%010000i")[1][0].width == 10000
    with pytest.raises(InvalidValue) as err:
        render(_rows(), CONFIG, fmt="%i", long=True)
    assert str(err.value) == LONG_WITH_FORMAT


def sort_rows(rows, spec=None):
    order = sort_order(PriorityColumns.of_rows(rows), spec)
    return list(rows) if order is None else [rows[i] for i in order]


def test_sort_keys_and_errors():
    rows = _rows()
    assert sort_order(PriorityColumns.of_rows(sort_rows(rows)), "+i") is None
    assert sort_order(PriorityColumns.of_rows(rows[::-1]), "i") == [3, 2, 0, 1]  # stable
    assert [r.job_id for r in sort_rows(rows, "-y")] == [12, 3, 12, 7]
    assert [(r.job_id, r.partition) for r in sort_rows(rows, "r,-i")] == [
        (12, "cpu"),
        (7, "cpu"),
        (3, "cpu"),
        (12, "gpu"),
    ]
    assert [r.job_id for r in sort_rows(rows, "N")] == [7, 12, 12, 3]
    with pytest.raises(InvalidValue, match="Invalid sort specification: b"):
        sort_rows(rows, "b")


def test_admin_set_priority_row():
    job = Job(id=5, user="u", partitions=("cpu",), submit=NOW, admin_priority=999, nice=9)
    rows = compute_priorities([job], {}, QOS, PARTS, ClusterInfo("a"), CONFIG, {}, NOW).rows
    fmt = "%.15i %.10Y %.10S %.10A %.10Q %.11N %.20T %y"
    assert render(rows, CONFIG, fmt=fmt, header=False) == (
        "              5        999          0          0          0           0"
        "                      999.00000000000000\n"
    )


def test_json_rows():
    data = json.loads(json.dumps([row_dict(r) for r in _rows()]))
    gpu = data[2]
    assert (gpu["job_id"], gpu["partition"], gpu["priority"]) == (12, "gpu", 1750)
    assert gpu["factors"]["qos"] == 1.0 and gpu["weighted"]["age"] == 500.0
    assert gpu["tres"] == {
        "cpu": {"factor": 0.25, "weighted": 500.0},
        "gres/gpu": {"factor": 0.25, "weighted": 250.0},
    }
    assert weights_dict(CONFIG)["age"] == 1000
    assert weights_dict(CONFIG)["tres"] == {"cpu": 2000.0, "gres/gpu": 1000.0}


def test_json_of_the_columns_is_the_json_of_the_rows():
    rows = _rows() + EDGE_ROWS[:2]
    text = render_json("alpha", CONFIG, PriorityColumns.of_rows(rows), ["w"])
    assert text == render_json("alpha", CONFIG, rows, ["w"])
    assert [job["job_id"] for job in json.loads(text)["jobs"]] == [r.job_id for r in rows]
    assert json.loads(text)["jobs"][0] == row_dict(rows[0])
    assert render_json("alpha", CONFIG, [], []).count("[]") == 2


def test_113_2_headers_and_rows():
    golden = yaml.safe_load((GOLDEN / "slurm-testsuite/test_113_2.yaml").read_text())
    config = _config(PriorityWeightAge="1000", PriorityWeightFairshare="100")
    rows = [r for r in _rows(config) if r.job_id == 7]
    outputs = {
        "sprio --noheader -j <job>": render(rows, config, header=False),
        "sprio --jobs <job>": render(rows, config),
        "sprio --long -j <job>": render(rows, config, long=True, version="25.11"),
        "sprio --norm -j <job>": render(rows, config, normalized=True),
        "sprio --user <user>": render(rows, config, users=True),
    }
    fmt_check = next(c for c in golden["expected"] if c["cmd"].startswith("sprio --format"))
    fmt = re.search(r"'([^']+)'", fmt_check["cmd"]).group(1)
    outputs[fmt_check["cmd"]] = render(rows, config, fmt=fmt)
    names = {"<job>": "7", "<partition>": "cpu", "<user>": "carol"}
    checked = 0
    for check in golden["expected"]:
        text = outputs.get(check["cmd"])
        if text is None:
            continue  # --verbose is the CLI's option dump
        checked += 1
        header, row = text.splitlines()[0], text.splitlines()[-1]
        for key in ("header_regex", "row_regex", "must_match", "must_not_match"):
            if key not in check:
                continue
            regex = check[key]
            if key == "header_regex" and "whitespace separated" in regex:
                regex = r"\s+".join(regex.split(" (")[0].split())
            for name, value in names.items():
                regex = regex.replace(name, value)
            target = {"header_regex": header, "row_regex": row}.get(key, text)
            found = re.search(regex, target)
            assert (not found) if key == "must_not_match" else found, (regex, target)
    assert checked == 6


def test_the_table_right_aligns_numbers_the_partition_factor_too():
    """The PARTITION factor shares its title with the partition's name: each column is
    aligned by what it holds, names left, numbers right."""
    from fscli.render.sprio import table_cells
    from fscli.render.tables import plain

    columns, cells, right = table_cells(_rows(), CONFIG, "%.15i %9r %.10Y %.10P %.8u")
    assert list(zip(columns, right)) == [
        ("JOBID", True),
        ("PARTITION", False),
        ("PRIORITY", True),
        ("PARTITION", True),
        ("USER", False),
    ]
    assert plain(columns, cells, right=right).splitlines()[:2] == [
        "JOBID  PARTITION  PRIORITY  PARTITION  USER",
        "    3  cpu            1475          0  bob",
    ]


def _edge_row(job_id: int, weighted: tuple[float, ...], site: int, nice: int, exact: float):
    from fscli.engine.priority import PriorityRow

    return PriorityRow(
        job_id, "p" * (job_id % 12), "u", "", "", "c", None, weighted, weighted,
        (), (), (), site, nice, exact, int(exact),
    )  # fmt: skip


EDGE_ROWS = [
    _edge_row(1, (0.0, -0.0, 0.4, -0.4, 9.6, 99.5), 0, 0, 1.0),
    _edge_row(1234567, (-12345.0, 1e12, 0.0, 7.0, -0.0, 3.0), -2147483645, 2147483645, 4e9),
    _edge_row(42, (float("nan"), float("inf"), -1e-9, 5.0, 1.0, 2.0), 25, -7, 1e10),
    _edge_row(3, (1.0, 1.0, 1.0, 1.0, 1.0, 1.0), 7, 7, 12.0),
]
EDGE_FORMATS = [
    "%.15i %9r %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N",
    "%1i|%.1Y|%.2S|%2N|%.1A|%2B|%.3F|%1J|%.2P|%Q|%a",
    "%.3i %3Y %.4a %9b %.5f %3j %.12p %10q %.2N %1S",
    "x%i%Y%S%N%A%a%%%B%b end",
    # every field with a width: the lines are made in one go when no number is too wide
    "%.15i %9r %.20Y %.20S %.20A %.20B %.20F %.20J %.20P %.20Q %.20N %20a %20y",
    "pre %6i|%4Y%12A %.8a%3F|%9r%.2t%4T%5y%.3u%4c end",
]


@pytest.mark.parametrize("fmt", EDGE_FORMATS)
def test_numbers_formatted_in_the_line_match_numbers_cut_as_text(fmt):
    """The lines format numbers that fit their width in the line's template; every line
    must equal the one of values formatted apart and cut to their width as text (the
    general path), whatever the values: negative, negative zero, wider than the column,
    NaN and infinity, ties."""
    from fscli.render.sprio import _column, _template

    prefix, fields = parse_format(fmt)
    config = _config(**{key: "10" for key in WEIGHT_KEY_NAMES})
    for rows in (sort_rows(EDGE_ROWS), EDGE_ROWS[:1], EDGE_ROWS[3:] * 3):
        columns = [_column(f.letter, PriorityColumns.of_rows(rows), config) for f in fields]
        expected = "".join(_template(prefix, fields) % cells + "\n" for cells in zip(*columns))
        assert render(rows, config, fmt=fmt, header=False) == expected
