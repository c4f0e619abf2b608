"""sacctmgr's key=value words and the association settings parsed from them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscli.cli import account
from fscli.cli.assoc_words import assoc_changes
from fscli.cli.words import IDENTITY, parse_words, split_list
from fscli.errors import UsageProblem
from tests.property.strategies import failed, outcome, values, word

# each property runs tens to hundreds of examples, many of them commands on a store
pytestmark = pytest.mark.slow

KEYS = account.KEYS
WORDS = st.lists(word(sorted(KEYS), values), max_size=6)


@settings(deadline=None, max_examples=200)
@given(WORDS, st.booleans())
def test_words_parse_or_one_clean_error(args, modify):
    words = outcome(parse_words, args, KEYS, "account add", modify=modify)
    if failed(words):
        assert isinstance(words, UsageProblem)
        return
    assert all(name and name == name.strip() and "," not in name for name in words.names)
    for table in (words.select, words.values):
        assert all(key in KEYS.values() and table[key].key == key for key in table)
    if not modify:
        assert all(key in IDENTITY for key in words.select)
    changes = outcome(assoc_changes, words, "account add")
    if not failed(changes):
        # what the history and the messages record reads back as the same changes
        again = parse_words(changes.describe(), KEYS, "account add", modify=True)
        assert assoc_changes(again, "account add") == changes


@settings(deadline=None, max_examples=100)
@given(
    st.lists(
        st.text(alphabet=st.characters(blacklist_characters=",="), min_size=1),
        min_size=1,
        max_size=4,
    )
)
def test_comma_separated_names_split_back(names):
    joined = ",".join(names)
    assert split_list(joined) == [n.strip() for n in names if n.strip()]
