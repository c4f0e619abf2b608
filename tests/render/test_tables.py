"""``render.tables``: a table for people never cuts or folds a value, on a terminal of
any width and in an SVG picture."""

from __future__ import annotations

import re

import pytest

from fscli.render import tables

COLUMNS = ["Name", "Value", "Other", "D", "E"]
ROWS = [["alpha", "12345", "zzzzzz", "wwww", "qqqqqqqq"], ["b", "1", "y", "v", "u"]]
RIGHT = [False, True, False, False, False]
PLAIN = 5 + 5 + 6 + 4 + 8 + 2 * 4  # the aligned text: two cells between columns
RICH = 5 + 5 + 6 + 4 + 8 + 3 * 4 + 2  # rich's: three between, and the box's edges


def lines(text: str) -> list[str]:
    return [re.sub(r"\x1b\[[0-9;]*m", "", line).strip() for line in text.splitlines()]


@pytest.mark.parametrize("width", [RICH, RICH - 1, PLAIN])
def test_a_table_that_fits_keeps_every_value_on_its_row(width, monkeypatch, capsys):
    """Between the plain text's width and rich's, the table is the plain aligned text:
    rich would fold 'qqqqqqqq' onto a second line."""
    monkeypatch.setattr(tables, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("NO_COLOR", "1")
    tables.show(COLUMNS, ROWS, None, True, RIGHT)
    shown = [line.split() for line in lines(capsys.readouterr().out) if line]
    assert shown[0] == COLUMNS
    assert [row for row in shown if row[0] in ("alpha", "b")] == ROWS


def test_the_svg_picture_of_a_table_folds_no_value():
    recorded = tables.picture(COLUMNS, ROWS, "title", True, RIGHT)
    shown = [line.split() for line in lines(recorded.export_text()) if line]
    assert shown[1] == COLUMNS
    assert shown[3:] == ROWS
