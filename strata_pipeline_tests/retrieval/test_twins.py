"""Twin documents (paths one word apart) ordered by the word the query names."""

from __future__ import annotations

import pytest

from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.priors import history_of
from strata_pipeline.retrieval.twins import distinguishing_words, named_twins_first, query_words


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
