"""The shared request rules (strata_pipeline.validation): queries, k and source-set names."""

from __future__ import annotations

import re

import jsonschema_rs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from strata_pipeline.discovery.adapters import invalid_source_set_names, list_source_sets
from strata_pipeline.validation import (
    QUERY_MAX_CHARS,
    QUERY_PATTERN,
    check_query,
    check_source_set,
    is_source_set_name,
    preview,
)


@pytest.mark.parametrize(
    "query",
    ["parental leave", "\tE-204\n", "Wie viele Wochen Elternzeit?", "日本語", "a" * QUERY_MAX_CHARS, "x\r\ny", "🙂"],
)
def test_real_queries_pass(query: str) -> None:
    assert check_query(query) == query


@pytest.mark.parametrize(
    ("query", "why"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("\t\n\r ", "empty"),
        ("\u200b\u200d\ufeff", "empty"),  # zero-width space, joiner and a byte-order mark show nothing
        ("\x00", "control character U+0000"),
        ("\x00\x00\x00", "control character U+0000"),
        ("leave\x00policy", "control character U+0000"),
        ("\x1b[31mred", "control character U+001B"),
        ("\x85", "control character U+0085"),
        ("\ud800", "lone surrogate (U+D800)"),
        ("leave \udcff", "lone surrogate (U+DCFF)"),
        ("a" * (QUERY_MAX_CHARS + 1), f"at most {QUERY_MAX_CHARS}"),
    ],
)
def test_empty_control_surrogate_and_long_queries_are_refused_with_the_reason(query: str, why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        check_query(query)


def _passes(text: str) -> bool:
    try:
        check_query(text)
    except ValueError:
        return False
    return True


_TRICKY = st.sampled_from(["\x00", "\t", "\n", "\r", " ", "\x1f", "\x7f", "\x85", "\xa0", "\u200b", "\u2028", "\ufeff"])


@given(st.text(alphabet=st.characters(codec="utf-8") | _TRICKY, max_size=30))
def test_the_schema_pattern_states_the_same_rule_as_check_query(text: str) -> None:
    # The OpenAPI schema advertises QUERY_PATTERN; a client (or schemathesis) generating from it must
    # meet exactly the requests the API accepts, and what the pattern refuses must be refused. (Lone
    # surrogates are left out: no schema regex can name them, and check_query refuses them.)
    assert (re.search(QUERY_PATTERN, text) is not None) == _passes(text)
    assert (jsonschema_rs.validator_for(_QUERY_SCHEMA).is_valid(text)) == _passes(text)


_QUERY_SCHEMA = {"type": "string", "pattern": QUERY_PATTERN}


@pytest.mark.parametrize("name", ["handbook", "products", "it-ops_2", "9lives"])
def test_slugs_are_source_sets(name: str) -> None:
    assert is_source_set_name(name) and check_source_set(name) == name


@pytest.mark.parametrize(
    "name",
    ["", "..", ".", "../../../../tmp/x", "/etc", "a/b", "Handbook", "-x", "_x", "a b", "x\n", "ü", "a" * 256, "x\x00"],
)
def test_anything_else_is_refused_before_it_reaches_a_path(name: str) -> None:
    assert not is_source_set_name(name)
    with pytest.raises(ValueError, match="is not a source-set name"):
        check_source_set(name)


def test_discovery_applies_the_same_rule_to_folders(tmp_path) -> None:
    for name in ("handbook", "Bad Name", "x\n"):
        (tmp_path / name).mkdir()
    assert list_source_sets(tmp_path) == ["handbook"]  # a trailing newline no longer slips through a "$"
    assert invalid_source_set_names(tmp_path) == ["Bad Name", "x\n"]


def test_preview_is_short_and_always_encodable() -> None:
    text = preview("\ud800" + "a" * 10_000)
    assert len(text) < 80 and "10001 characters" in text
    text.encode("utf-8")  # a lone surrogate comes back as its escape, never raw
