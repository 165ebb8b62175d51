"""Twin documents (paths one word apart) ordered by the word the query names."""

from __future__ import annotations

import pytest

from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.priors import history_of
from strata_pipeline.retrieval.twins import (
    distinguishing_words,
    named_by_file_name,
    named_documents_first,
    named_twins_first,
    proper_words,
    query_words,
)


def hits(*doc_ids: str) -> list[Candidate]:
    return [Candidate(point_id=f"p{i}", payload={"doc_id": d, "chunk_id": f"{d}#{i}"}) for i, d in enumerate(doc_ids)]


def docs(ranked: list[Candidate]) -> list[str]:
    return [c.doc_id for c in ranked]


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("sites/drucker-basel.md", "sites/drucker-zuerich.md", ("basel", "zuerich")),
        ("depots/lisbon_depot.txt", "depots/porto_depot.txt", ("lisbon", "porto")),
        ("sites/drucker-basel.md", "kb/drucker-basel.md", ("sites", "kb")),
        ("policy-2023.md", "policy-2025.md", None),  # versions are the priors' business
        ("sites/drucker-basel.md", "sites/drucker-farbe-basel.md", None),  # not the same shape
        ("hr/leave-policy.md", "it/vpn-guide.md", None),  # two words apart
    ],
)
def test_twins_differ_in_exactly_one_path_word(a: str, b: str, expected: tuple[str, str] | None) -> None:
    assert distinguishing_words(a, b) == expected


def test_the_named_twin_moves_just_above_the_twin_that_outranked_it() -> None:
    ranked = hits("sites/drucker-stuttgart.md", "sites/drucker-zuerich.md", "kb/queue.md", "sites/drucker-basel.md")
    reordered = named_twins_first(ranked, query_words("Welcher Drucker am Standort Basel druckt farbig?"))
    assert docs(reordered) == [
        "sites/drucker-basel.md",
        "sites/drucker-stuttgart.md",
        "sites/drucker-zuerich.md",
        "kb/queue.md",
    ]


def test_umlauts_match_the_spelling_of_file_names() -> None:
    ranked = hits("sites/drucker-basel.md", "sites/drucker-zuerich.md")
    assert docs(named_twins_first(ranked, query_words("Drucker in Zürich"))) == [
        "sites/drucker-zuerich.md",
        "sites/drucker-basel.md",
    ]


def test_nothing_moves_when_the_query_names_both_twins_or_neither() -> None:
    ranked = hits("sites/drucker-stuttgart.md", "sites/drucker-basel.md")
    assert named_twins_first(ranked, query_words("Drucker in Basel und Stuttgart")) == ranked
    assert named_twins_first(ranked, query_words("Which printers print in colour?")) == ranked


def test_chunks_of_a_moved_document_keep_their_order() -> None:
    ranked = hits("a/x-porto.md", "a/x-lisbon.md", "a/x-porto.md", "a/x-lisbon.md")
    reordered = named_twins_first(ranked, query_words("opening hours in Lisbon"))
    assert [c.point_id for c in reordered] == ["p1", "p3", "p0", "p2"]


def test_the_query_words_travel_with_its_history() -> None:
    assert {"zürich", "zuerich", "zurich"} <= history_of("Drucker in Zürich").words


def test_documents_of_other_source_sets_are_not_twins_and_are_never_regrouped() -> None:
    ranked = [
        Candidate("p0", {"doc_id": "sites/x-porto.md", "source_set": "a"}),
        Candidate("p1", {"doc_id": "beta.md", "source_set": "a"}),
        Candidate("p2", {"doc_id": "sites/x-lisbon.md", "source_set": "b"}),
        Candidate("p3", {"doc_id": "beta.md", "source_set": "b"}),
    ]
    assert named_twins_first(ranked, query_words("Lisbon")) == ranked


def test_a_document_the_query_names_by_its_file_name_comes_first() -> None:
    query = "Bis wann müssen Ersatzteile im Depot Hamburg angefordert werden?"
    ranked = hits("de/ersatzteilbestellung.txt", "sites/munich-depot.md", "sites/hamburg-depot.md", "faq/parts.txt")
    reordered = named_documents_first(ranked, query_words(query), proper_words(query))
    assert docs(reordered) == [
        "sites/hamburg-depot.md",
        "de/ersatzteilbestellung.txt",
        "sites/munich-depot.md",
        "faq/parts.txt",
    ]


@pytest.mark.parametrize(
    ("query", "doc_id", "named"),
    [
        ("Gibt es am Depot Lyon Ladepunkte?", "sites/lyon-depot.md", True),
        ("opening hours of the Lille depot", "sites/lille-depot.md", True),  # one word with a capital is enough
        ("per diem for international business travel", "travel/international-travel.md", False),  # topic words
        ("When does the Hamburg depot open?", "sites/hamburg.md", False),  # a one-word name is a topic
        ("When does the Change Freeze start?", "changes/change-freeze-2025.txt", False),  # years: the priors'
        ("What does the Lisbon depot stock?", "sites/lisbon-depot-garage.md", False),  # not every word named
    ],
)
def test_named_by_file_name(query: str, doc_id: str, named: bool) -> None:
    assert named_by_file_name(doc_id, query_words(query), proper_words(query)) is named


def test_only_documents_near_the_top_are_moved_and_only_for_capitalised_names() -> None:
    ranked = hits(*[f"kb/doc-{i}.md" for i in range(10)], "sites/hamburg-depot.md")
    query = "Wann öffnet das Depot Hamburg?"
    assert named_documents_first(ranked, query_words(query), proper_words(query)) == ranked  # 11th document
    assert named_documents_first(ranked, query_words(query), proper_words(query), within=11)[0].doc_id == (
        "sites/hamburg-depot.md"
    )
    lower = "hamburg depot opening hours"
    assert named_documents_first(ranked, query_words(lower), proper_words(lower), within=11) == ranked
