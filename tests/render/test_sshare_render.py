"""sshare text: Slurm's own test-suite rows (test24.1, test24.4) and real 22.05 captures."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml

from fscli.engine.fairshare import share_columns
from fscli.engine.model import SHARES_PARENT, Assoc
from fscli.errors import InvalidValue
from fscli.io.usage_import import parse_sshare
from fscli.render.sshare import (
    FIELD_TABLE,
    Extras,
    default_fields,
    field_values,
    json_rows,
    render_text,
    select_fields,
)
from tests.engine.adapt import compute

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"


def column(name: str, rows, extras: Extras | None = None) -> list:
    """One field's values over ``rows``."""
    return list(field_values(name, share_columns(rows), extras or Extras()))


def load_testsuite_case(name: str) -> tuple[dict, list[Assoc], dict[int, float]]:
    """A slurm-testsuite case: accounts name their parent, users their account."""
    case = yaml.safe_load((GOLDEN / "slurm-testsuite" / f"{name}.yaml").read_text())
    assocs: list[Assoc] = []
    account_ids: dict[str, int] = {}
    usage: dict[int, float] = {}
    for number, rec in enumerate(case["associations"], 1):
        shares = SHARES_PARENT if rec["shares"] == "parent" else rec["shares"]
        if rec.get("user"):
            assocs.append(
                Assoc(
                    number, account_ids[rec["account"]], rec["account"], rec["user"], shares=shares
                )
            )
            usage[number] = rec["raw_usage"]
        else:
            parent = None if rec["parent"] is None else account_ids[rec["parent"]]
            assocs.append(Assoc(number, parent, rec["account"], shares=shares))
            account_ids[rec["account"]] = number
    return case, assocs, usage


@pytest.mark.parametrize("name", ["test24.1", "test24.4"])
def test_slurm_testsuite_rows_long_parsable_no_header(name: str) -> None:
    case, assocs, usage = load_testsuite_case(name)
    result = compute(assocs, usage, case["algorithm"])
    fields = select_fields(None, case["algorithm"], long=True)
    assert [f.name for f in fields] == case["expected_rows"]["columns"]
    text = render_text(
        result.rows, fields, parsable="p", header=False, extras=Extras(tres_names=("cpu",))
    )
    lines = text.splitlines()
    assert len(lines) == len(assocs)
    # the test matches line starts once Slurm's indentation is removed
    stripped = [line.lstrip(" ") for line in lines]
    for expected in case["expected_rows"]["rows"]:
        assert sum(line.startswith(expected) for line in stripped) == 1, expected
    assert len(case["expected_rows"]["rows"]) == case["expected_match_count"]


def test_testsuite_24_4_indentation_and_tie_rows() -> None:
    _case, assocs, usage = load_testsuite_case("test24.4")
    result = compute(assocs, usage, "fair_tree")
    text = render_text(
        result.rows,
        select_fields(None, "fair_tree", long=True),
        parsable="P",
        header=False,
        extras=Extras(tres_names=("cpu",)),
    )
    lines = text.splitlines()
    assert lines[0] == "root|||0.000000|240||1.000000||||cpu=0"
    assert lines[1] == " root|u1|10|0.048077|0|0.000000|0.000000|1.000000|inf||cpu=0"
    assert "  aDA||parent|0.240385|45|0.187500|0.409091||||cpu=0" in lines
    assert "   aGA|uGA1|20|0.500000|4|0.016667|0.400000|0.190476|1.250000||cpu=0" in lines


def load_capture(folder: Path, algorithm: str):
    lines = (folder / "sacctmgr_show_assoc_P.txt").read_text().splitlines()
    head = lines[0].split("|")
    records = [dict(zip(head, line.split("|"))) for line in lines[1:]]
    assocs, ids = [], {}
    for rec in records:
        if rec["Cluster"] != records[0]["Cluster"]:
            continue
        a = Assoc(
            int(rec["ID"]),
            int(rec["ParentID"]) or None,
            rec["Account"],
            rec["User"] or None,
            shares=int(rec["Share"]),
        )
        assocs.append(a)
        ids[(a.account, a.user)] = a.id
    usage = {
        ids[(u.account, u.user)]: u.raw_usage
        for u in parse_sshare((folder / "sshare_a_P.txt").read_text())
        if u.user
    }
    return compute(assocs, usage, algorithm)


CLASSIC_DOC = [
    ("classic", "classic"),
    ("fairtree", "fair_tree"),
    ("depth_oblivious", "depth_oblivious"),
]


@pytest.mark.parametrize("mode,algorithm", CLASSIC_DOC)
def test_real_capture_text_exact(mode: str, algorithm: str) -> None:
    """Byte-exact sshare -a, -a -P, -a -l and -a -l -P of a real Slurm 22.05."""
    folder = GOLDEN / "slurm-22.05" / "classic_doc" / mode
    result = load_capture(folder, algorithm)
    for long in (False, True):
        fields = default_fields(algorithm, long=long)
        suffix = "_l" if long else ""
        fixed = render_text(result.rows, fields)
        assert fixed == (folder / f"sshare_a{suffix}.txt").read_text()
        parsable = render_text(result.rows, fields, parsable="P")
        assert parsable == (folder / f"sshare_a{suffix}_P.txt").read_text()


def test_rendering_in_chunks_gives_the_same_text(monkeypatch) -> None:
    """The text of many rows is rendered a chunk at a time: the pieces join to the whole,
    in every mode, wherever the chunks end."""
    from fscli.render import sshare

    folder = GOLDEN / "slurm-22.05" / "classic_doc" / "classic"
    result = load_capture(folder, "classic")
    fields = default_fields("classic", long=True)
    whole = {mode: render_text(result.rows, fields, mode) for mode in (None, "p", "P")}
    monkeypatch.setattr(sshare, "CHUNK", 2)
    for mode, text in whole.items():
        assert render_text(result.rows, fields, mode) == text
        assert len(list(sshare.render_chunks(result.rows, fields, mode))) > 2


def test_parsable_lines_from_column_pieces_cell_by_cell() -> None:
    """-p/-P format a whole line with one template, from the engine's column pieces: each
    cell as Slurm prints it (blank for unset, C's %f for doubles, "inf", "parent")."""
    from fscli.render import sshare

    assocs = [
        Assoc(1, None, "root"),
        Assoc(2, 1, "chem", shares=SHARES_PARENT),
        Assoc(3, 2, "chem", "ann", "gpu", shares=2, limits={"GrpTRESMins": {"cpu": 60}}),
        Assoc(4, 2, "chem", "bob", shares=0),
        Assoc(5, 1, "phys", shares=3),
        Assoc(6, 5, "phys", "cy", shares=1),
        Assoc(7, 5, "phys", "dee", shares=1),
    ]
    result = compute(assocs, {3: 100.0, 6: 50.5}, "fair_tree")
    fields = [sshare.Field(name, width) for name, width in FIELD_TABLE]
    extras = Extras("c1", run_mins={3: {"cpu": 7}})
    values = {f.name: column(f.name, result.rows, extras) for f in fields}
    doubles = {"NormShares", "NormUsage", "EffectvUsage", "FairShare", "LevelFS"}

    def cell(name: str, value: object) -> str:
        return "" if value is None else f"{value:f}" if name in doubles else str(value)

    for mode, end in (("P", "\n"), ("p", "|\n")):
        expected = (
            "|".join(f.name for f in fields)
            + end
            + "".join(
                "|".join(cell(f.name, values[f.name][k]) for f in fields) + end
                for k in range(len(result.rows))
            )
        )
        pieces = sshare.render_pieces(result.column_chunks(4), fields, mode, extras=extras)
        assert "".join(pieces) == expected
    assert "inf" in expected and "|parent|" in expected and "cpu=60" in expected


def test_sprio_capture_short_text_exact() -> None:
    folder = GOLDEN / "slurm-22.05" / "sprio" / "fairtree"
    result = load_capture(folder, "fair_tree")
    fields = default_fields("fair_tree")
    assert render_text(result.rows, fields) == (folder / "sshare_a.txt").read_text()
    assert render_text(result.rows, fields, parsable="P") == (folder / "sshare_a_P.txt").read_text()


@pytest.fixture
def tiny():
    assocs = [
        Assoc(1, None, "root"),
        Assoc(2, 1, "physics", shares=3),
        Assoc(3, 2, "physics", "a-very-long-user-name", shares=1),
    ]
    return compute(assocs, {3: 1234.9}, "fair_tree")


def test_format_prefixes_widths_and_errors(tiny) -> None:
    fields = select_fields("a,u%4,eff,Lev,RAWU,p,id", "fair_tree")
    assert [(f.name, f.width) for f in fields] == [
        ("Account", -20),
        ("User", 4),
        ("EffectvUsage", 13),
        ("LevelFS", 10),
        ("RawUsage", 11),
        ("Partition", 12),
        ("ID", 6),
    ]
    assert [f.width for f in select_fields("Account%8", "classic")] == [-8]
    with pytest.raises(InvalidValue, match='Invalid field requested: "bogus"'):
        select_fields("Account,bogus", "classic")
    assert [f.width for f in select_fields("User%10000", "classic")] == [10000]
    with pytest.raises(InvalidValue, match="invalid width '10001' for field User: at most"):
        select_fields("User%10001", "classic")  # not gigabytes of blanks per row
    text = render_text(tiny.rows, select_fields("User%6,RawUsage", "fair_tree"))
    assert text.splitlines() == [
        "  User    RawUsage ",
        "------ ----------- ",
        "              1234 ",
        "              1234 ",
        "a-ver+        1234 ",
    ]


def test_parsable_modes_and_no_header(tiny) -> None:
    fields = select_fields("Account,User,LevelFS,RawShares", "fair_tree")
    assert render_text(tiny.rows, fields, parsable="p") == (
        "Account|User|LevelFS|RawShares|\nroot||||\n physics||1.000000|3|\n"
        "  physics|a-very-long-user-name|1.000000|1|\n"
    )
    assert render_text(tiny.rows, fields, parsable="P", header=False).splitlines()[0] == "root|||"
    with pytest.raises(InvalidValue):
        render_text(tiny.rows, fields, parsable="x")


def test_long_default_columns_per_algorithm() -> None:
    long_classic = [
        "Account",
        "User",
        "RawShares",
        "NormShares",
        "RawUsage",
        "NormUsage",
        "EffectvUsage",
        "FairShare",
        "GrpTRESMins",
        "TRESRunMins",
    ]
    assert [f.name for f in default_fields("classic", long=True)] == long_classic
    assert [f.name for f in default_fields("fair_tree", long=True)] == (
        long_classic[:8] + ["LevelFS"] + long_classic[8:]
    )
    assert [(f.name, f.width) for f in default_fields("classic", partition=True)] == [
        ("Account", -20),
        ("User", 10),
        ("Partition", 12),
        ("RawShares", 10),
        ("NormShares", 11),
        ("RawUsage", 11),
        ("EffectvUsage", 13),
        ("FairShare", 10),
    ]


def test_json_rows_numbers_and_inf() -> None:
    assocs = [
        Assoc(1, None, "root"),
        Assoc(2, 1, "a"),
        Assoc(3, 2, "a", "u1"),
        Assoc(4, 2, "a", "u2"),
    ]
    result = compute(assocs, {3: 10.5}, "fair_tree")
    rows = json.loads(json.dumps(json_rows(result.rows, Extras("c1"))))
    by_user = {r["User"]: r for r in rows}
    assert by_user["u2"]["LevelFS"] == "inf"
    assert by_user["u1"]["LevelFS"] == 0.5
    assert by_user["u1"]["RawUsage"] == 10.5
    assert rows[0]["Account"] == "root" and rows[0]["NormUsage"] is None
    assert by_user["u1"]["Account"] == "a" and by_user["u1"]["depth"] == 2
    assert by_user["u1"]["Cluster"] == "c1"
    assert not any(isinstance(v, float) and math.isinf(v) for r in rows for v in r.values())


def test_tres_run_minutes_in_tracked_order_zeros_printed(tiny) -> None:
    extras = Extras(
        tres_names=("cpu", "mem", "gres/gpu"),
        run_mins={3: {"gres/gpu": 4, "cpu": 120, "license/x": 9}},
    )
    assert column("TRESRunMins", tiny.rows, extras) == [
        "cpu=0,mem=0,gres/gpu=0",
        "cpu=0,mem=0,gres/gpu=0",
        "cpu=120,mem=0,gres/gpu=4",
    ]
    assert column("GrpTRESRaw", tiny.rows, extras)[2] == "cpu=0,mem=0,gres/gpu=0"
    text = render_text(tiny.rows, select_fields("User%6,TRESRunMins%12"), extras=extras)
    assert text.splitlines()[-1] == "a-ver+ cpu=120,mem+ "


def test_grp_tres_raw_is_truncated_minutes_billing_from_raw_usage(tiny) -> None:
    extras = Extras(
        tres_names=("cpu", "billing", "mem"),
        tres_usage={3: {"cpu": 119.9, "mem": 6000.0}, 2: {"cpu": 119.9}},
    )
    assert column("GrpTRESRaw", tiny.rows, extras) == [
        "cpu=0,billing=20,mem=0",
        "cpu=1,billing=20,mem=0",
        "cpu=1,billing=20,mem=100",
    ]


def test_double_too_wide_uses_exponent() -> None:
    assocs = [Assoc(1, None, "root"), Assoc(2, 1, "a", shares=1), Assoc(3, 2, "a", "u", shares=1)]
    result = compute(assocs, {3: 1.0}, "fair_tree")
    row = result.rows[2]._replace(level_fs=123456789.0)
    text = render_text([row], select_fields("LevelFS", "fair_tree"), header=False)
    assert text == "1.2346e+08 \n"


def cells_of(row, extras):
    """One row's values per field name, from its own columns."""
    return {name: column(name, (row,), extras)[0] for name, _ in FIELD_TABLE}


def test_columns_agree_row_by_row_and_empty_output(tiny) -> None:
    zeros = "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0"
    assert cells_of(tiny.rows[2], Extras("c1")) == {
        "Account": "  physics",
        "Cluster": "c1",
        "EffectvUsage": 1.0,
        "FairShare": 1.0,
        "GrpTRESMins": None,
        "GrpTRESRaw": "cpu=0,mem=0,energy=0,node=0,billing=20,fs/disk=0,vmem=0,pages=0",
        "ID": 3,
        "LevelFS": 1.0,
        "NormShares": 1.0,
        "NormUsage": 1.0,
        "Partition": None,
        "RawShares": 1,
        "RawUsage": 1234,
        "TRESRunMins": zeros,
        "User": "a-very-long-user-name",
    }
    names = [name for name, _ in FIELD_TABLE]
    for k, row in enumerate(tiny.rows):
        assert cells_of(row, Extras("c1")) == {
            n: column(n, tiny.rows, Extras("c1"))[k] for n in names
        }
    fields = select_fields("Account,FairShare", "fair_tree")
    assert render_text([], fields, parsable="p") == "Account|FairShare|\n"
    assert render_text([], fields, parsable="P", header=False) == ""
    assert render_text(tiny.rows, fields, parsable="P").splitlines()[1:] == [
        "root|",
        " physics|",
        "  physics|1.000000",
    ]
