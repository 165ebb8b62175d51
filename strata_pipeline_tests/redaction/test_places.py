"""Words a source-set names as places (redaction/places.py)."""

from __future__ import annotations

from strata_pipeline.redaction.name_index import name_index
from strata_pipeline.redaction.places import named_places


def test_a_rare_word_written_twice_before_a_place_noun_is_a_place() -> None:
    texts = [
        "Office: Kestwick campus, Elm House. The Brandholm site opens at 8.",
        "Parking at the Kestwick campus is free.",
        "Rowan ward and the Rowan ward kitchen.",  # a listed given name: it may name a person elsewhere
        "Eberhardinger's office, and Eberhardinger's office again.",  # a possessive names an owner
        "The campus and The campus.",  # a common word is judged well without this evidence
    ]
    assert named_places(texts, name_index()) == frozenset({"Kestwick"})  # "Brandholm site" only once
    assert named_places(texts, name_index(), at_least=1) == frozenset({"Kestwick", "Brandholm"})
