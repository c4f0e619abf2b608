"""The tree writer's own emitter writes exactly what PyYAML writes, or leaves it to PyYAML."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from fscli.io import flatfile
from fscli.io.yamltree.emit import Flow, emit
from fscli.io.yamltree.write import document, pyyaml_text

GOLDEN = Path(__file__).parent.parent / "data" / "golden"
WORDS = [
    *("yes", "no", "null", "~", "true", "False", "on", "1", "0x1f", "1e5", "1.5", ".inf"),
    *("12:30", "10:00:00", "2020-01-01", "-", "--", "---x", "...", "-a", "a:", "a: b"),
    *("a #b", "a#b", ":a", "?a", "? a", "a,b", "[x]", "x]", "'q'", "q'", "é", "x y", " x"),
    *("x ", "<<", "=", "0", "-1", "+1", "1_000", "0o7", "cpu=10,mem=20G", "normal", "a\tb"),
    *("", "x" * 130, "word " * 30, "😀", "\u2028", "a\\b", '"'),
]


def shapes(word: str) -> list[dict]:
    """``word`` as a value, a key, a flow list item and a sequence item."""
    return [
        {"k": word},
        {word: {"a": 1}},
        {"l": Flow([word, "b"])},
        {"s": [{"account": word, "x": 1.5, "e": {}, "n": []}, word]},
    ]


def words() -> list[str]:
    rnd = random.Random(17)
    chars = "ab:# -?,[]{}&*!|>'\"%@`.=~01yYnN\\/_+é€"
    return WORDS + [
        "".join(rnd.choice(chars) for _ in range(rnd.randint(1, 6))) for _ in range(800)
    ]


def test_a_scalar_is_written_as_pyyaml_writes_it():
    wrong = [
        (doc, text)
        for word in words()
        for doc in shapes(word)
        if (text := emit(doc)) is not None and text != pyyaml_text(doc)
    ]
    assert wrong == []


def test_most_scalars_take_the_fast_way():
    assert emit({"k": "a: b", "l": Flow(["yes", "x"])}) == "k: 'a: b'\nl: ['yes', x]\n"
    assert emit({"k": "x" * 130}) is None  # PyYAML may fold a long line


def test_numbers():
    doc = {"i": 0, "f": 1.0, "g": 1e20, "h": 0.25, "neg": -3}
    assert emit(doc) == pyyaml_text(doc)
    assert emit({"nan": float("nan")}) is None


DUMPS = [p for p in sorted(GOLDEN.rglob("*.cfg")) if p.name != "load_bad_file.cfg"]


@pytest.mark.parametrize("path", DUMPS, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_every_golden_dump_writes_the_same_text(path):
    doc = document(flatfile.parse(path.read_text()))
    assert emit(doc) == pyyaml_text(doc)
