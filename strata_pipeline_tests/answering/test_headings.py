"""The heading an answer shows before its quote (answering/headings.py): "which campus ...?" answered by a
list item names the campus by the item's section heading."""

from __future__ import annotations

from strata_pipeline.answering.answer import answer_extractively
from strata_pipeline.answering.headings import answer_heading, asked_noun
from strata_pipeline.retrieval.candidate import DENSE, Candidate

QUESTION = "Which campus has the emergency department?"


def test_the_kind_a_which_question_asks_for() -> None:
    assert asked_noun(QUESTION) == "campus"
    assert asked_noun("In which room is the pharmacy?") == "room"
    assert asked_noun("An welchem Standort steht der Farbdrucker?") == "standort"
    assert asked_noun("Dans quelle salle a lieu la formation ?") == "salle"
    assert asked_noun("What does error E-1042 mean?") == ""  # a verb, no kind of thing
    assert asked_noun("How long is the warranty?") == ""


def test_the_heading_is_shown_when_it_names_the_asked_kind_and_the_quote_does_not() -> None:
    path = "Campus directory > Kestwick campus (Mill Lane)"
    item = "- Emergency department (open 24 hours), entrance A"
    assert answer_heading(QUESTION, item, path) == "Kestwick campus (Mill Lane)"
    # the quote names the campus already, the heading names another kind, or the question asks no kind
    assert answer_heading(QUESTION, "Kestwick has the emergency department.", path) == ""
    assert answer_heading(QUESTION, item, "Campus directory > Services") == ""
    assert answer_heading("When is the emergency department open?", item, path) == ""
    assert answer_heading(QUESTION, item, "") == ""


def test_the_answer_names_the_campus_and_keeps_the_quote_as_written() -> None:
    text = "## Kestwick campus (Mill Lane)\n\n- Emergency department (open 24 hours), entrance A\n- Maternity unit"
    payload = {"chunk_id": "dir#2", "doc_id": "sites/campus-directory.html", "source_set": "hospital",
               "title": "Campus directory", "heading_path": "Campus directory > Kestwick campus (Mill Lane)",
               "text": text, "language": "en"}  # fmt: skip
    directory = Candidate(point_id="dir", payload=payload, scores={DENSE: 0.9})
    answered = answer_extractively(QUESTION, [directory], lambda q, texts: [0.9] * len(texts))
    assert answered.text.startswith("Kestwick campus (Mill Lane): - Emergency department (open 24 hours)")
    assert answered.citations[0].quote == "- Emergency department (open 24 hours), entrance A"
