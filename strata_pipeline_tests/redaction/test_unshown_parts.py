"""A multi-word finding keeps, in the query, the words the corpus prints in clear (guard.unshown_parts)."""

from strata_pipeline.redaction.guard import PrivacyGuard, unshown_parts
from strata_pipeline.redaction.pii import Finding, pii_policy

QUERY = "Gibt es am Depot Lyon Ladepunkte für Fahrzeuge?"
SPAN = "Depot Lyon Ladepunkte"
START = QUERY.index(SPAN)


def finding(start: int, end: int) -> Finding:
    return Finding("PERSON", start, end, 0.85, "spacy")


def shown_in(words: set[str]):
    return lambda value: value in words


def test_only_the_unshown_words_of_a_span_stay_a_finding() -> None:
    parts = unshown_parts(QUERY, finding(START, START + len(SPAN)), shown_in({"Depot", "Lyon"}))
    assert [QUERY[p.start : p.end] for p in parts] == ["Ladepunkte"]
    assert parts[0].entity == "PERSON" and parts[0].score == 0.85


def test_runs_of_unshown_words_stay_together() -> None:
    text = "Anna Maria Lyon Berg"
    parts = unshown_parts(text, finding(0, len(text)), shown_in({"Lyon"}))
    assert [text[p.start : p.end] for p in parts] == ["Anna Maria", "Berg"]


def test_a_one_word_finding_is_returned_as_it_is() -> None:
    f = finding(0, 4)
    assert unshown_parts("Anna fragt", f, shown_in(set())) == [f]


def test_a_span_whose_every_word_is_shown_leaves_nothing() -> None:
    assert unshown_parts(QUERY, finding(START, START + len(SPAN)), shown_in({"Depot", "Lyon", "Ladepunkte"})) == []


class SpanDetector:
    name = "stub"

    def detect(self, text: str) -> list[Finding]:
        start = text.find(SPAN)
        return [finding(start, start + len(SPAN))] if start >= 0 else []


def test_the_guard_masks_only_the_unshown_word() -> None:
    guard = PrivacyGuard(SpanDetector(), pii_policy())
    audited = guard.redact_query(QUERY, shown=shown_in({"Depot", "Lyon"}))
    assert "Depot Lyon" in audited.text
    assert "Ladepunkte" not in audited.text
    assert audited.redactions == 1
