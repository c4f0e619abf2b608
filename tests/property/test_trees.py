"""sacctmgr flat files and YAML trees: hostile text, near-valid files, and round trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.errors import InvalidValue
from fscli.io import flatfile, yamltree
from tests.property.strategies import failed, hostile, mutated, near, outcome

# each property runs tens to hundreds of examples, many of them commands on a store
pytestmark = pytest.mark.slow

GOLDEN = Path(__file__).parent.parent / "data" / "golden" / "slurm-22.05"
DUMP = (GOLDEN / "sacctmgr_messages" / "roundtrip_dump.cfg").read_text()
# The comment header is long and inert; it starts at the first line that is not a comment
# (the header holds a commented-out "Cluster - " line: a second cluster, refused).
DUMP_BODY = DUMP[DUMP.index("\nCluster - ") + 1 :]
YAML = (GOLDEN / "classic_doc" / "case-classic.yaml").read_text()
TREE_YAML = yamltree.dump(flatfile.parse(DUMP))
SETTINGS = settings(deadline=None, max_examples=150)

# Near-valid flat files: one mutation on one line, or a valid line with a hostile option.
FLAT = st.one_of(
    near(DUMP_BODY),
    st.builds(
        "{}{}:{}={}\n".format,
        st.just(DUMP_BODY),
        st.sampled_from(("User - 'zed'", "Account - 'zz'", "Parent - 'root'")),
        st.sampled_from(
            (
                "Fairshare",
                "GrpTRES",
                "MaxWall",
                "QOS",
                "DefaultAccount",
                "AdminLevel",
                "MaxJobs",
                "GrpTRESMins",
                "Partition",
            )
        ),
        hostile,
    ),
)


def parses_or_one_clean_error(parse, write, text: str) -> None:
    """``parse(text)`` gives a spec or one clean error; a spec survives ``write``: it is
    ``parse(write(spec))``, and the written text is a fixed point."""
    spec = outcome(parse, text)
    if not failed(spec):
        written = write(spec)
        assert parse(written) == spec
        assert write(parse(written)) == written


@SETTINGS
@given(st.one_of(hostile, FLAT))
def test_flat_file_parses_or_one_clean_error(text):
    parses_or_one_clean_error(flatfile.parse, flatfile.write, text)


@SETTINGS
@given(
    st.one_of(
        hostile,
        near(TREE_YAML),
        near(YAML),
        mutated(
            st.sampled_from(TREE_YAML.splitlines(keepends=True)).map(
                lambda line: "cluster: {name: c}\n" + line
            )
        ),
    )
)
def test_yaml_tree_loads_or_one_clean_error(text):
    parses_or_one_clean_error(yamltree.load, yamltree.dump, text)


def test_golden_files_round_trip():
    assert flatfile.parse(flatfile.write(flatfile.parse(DUMP))) == flatfile.parse(DUMP)
    assert yamltree.load(TREE_YAML) == flatfile.parse(DUMP)


@pytest.mark.parametrize(
    "text",
    [
        "cluster: {name: c, priority: !!int foo}",
        "cluster: {name: c}\nqos: {q: {usage_factor: !!float x}}",
        "cluster: {name: c}\nqos: {q: {usage_factor: .nan}}",
        "cluster: {name: c}\nqos: {q: {limit_factor: .inf}}",
        "cluster: {name: c, nodes: 99999999999999999999}",
        "cluster: {name: c}\npartitions: {p: {max_time: '99999999999999'}}",
        "cluster: {name: c, limits: {GrpWall: '9999999999999999999999999999'}}",
        "cluster: {name: c, tres: 'cpu=99999999999999999999999999'}",
    ],
)
def test_yaml_numbers_that_broke_loading(text):
    # Regression: an explicit !!int/!!float tag on a non-number raised ValueError;
    # NaN, infinity and numbers beyond any column were accepted.
    with pytest.raises(InvalidValue):
        yamltree.load(text)


@pytest.mark.parametrize(
    "text",
    [
        "Cluster - c:GrpWall=99999999999999999999999999",
        "Cluster - c:GrpTRES=cpu=" + "9" * 400,
        "Cluster - c:FairShare=" + "9" * 5000,
    ],
)
def test_flat_file_numbers_beyond_any_column(text):
    with pytest.raises(InvalidValue):
        flatfile.parse(text)
