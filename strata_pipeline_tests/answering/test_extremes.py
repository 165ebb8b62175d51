"""Superlatives over opening times (answering/extremes.py): which day is open longest, earliest or latest is
read from the rows' clock times, not from how close the model scores them."""

from __future__ import annotations

from strata_pipeline.answering.answer import answer_extractively
from strata_pipeline.answering.extremes import at_extreme, spans
from strata_pipeline.retrieval.candidate import DENSE, Candidate

LONGEST = "An welchem Tag hat das Kundencenter in Weißbach am längsten geöffnet?"
ROWS = [
    "| Montag, Mittwoch, Freitag | 9:00 – 16:00 |",
    "| Donnerstag | 9:00 – 19:00 |",
    "| Samstag | 8:30 – 12:00 |",
]


def test_spans_are_read_in_several_notations() -> None:
    assert spans("| Donnerstag | 9:00 – 19:00 |") == [(540, 1140)]
    assert spans("Mo-Fr 08.30-12.00 und 13.00 bis 17.30") == [(510, 720), (780, 1050)]
    assert spans("de 9h00 à 12h00") == [(540, 720)]
    assert spans("see pages 12-14 and 25:70-26:10") == []  # no minutes, or minutes past 59
    assert spans("call 0800 123 4567") == []


def test_the_superlative_picks_the_row_by_its_times() -> None:
    ranked = [(0.9, ROWS[0]), (0.88, ROWS[2]), (0.85, ROWS[1])]
    chosen = ranked[:2]
    same = lambda s: "centre"  # noqa: E731  (one passage)
    assert at_extreme(LONGEST, ranked, chosen, lambda s: s, same, 2) == [(0.85, ROWS[1]), (0.9, ROWS[0])]
    earliest = "On which day does the customer centre open earliest?"
    assert at_extreme(earliest, ranked, chosen, lambda s: s, same, 2) == [(0.88, ROWS[2]), (0.9, ROWS[0])]
    latest = "Quel jour le centre est-il ouvert le plus tard ?"
    assert at_extreme(latest, ranked, chosen, lambda s: s, same, 1) == [(0.85, ROWS[1])]


def test_no_superlative_or_no_times_or_the_extreme_already_first_keeps_the_choice() -> None:
    ranked = [(0.9, ROWS[1]), (0.88, ROWS[0])]
    same = lambda s: "centre"  # noqa: E731
    assert at_extreme("When is the customer centre open on Thursday?", ranked, ranked, lambda s: s, same, 2) == []
    assert at_extreme(LONGEST, ranked, ranked, lambda s: s, same, 2) == []  # Thursday is first already
    # "the latest version" compares no opening times
    assert at_extreme("What is the latest firmware version?", ranked[::-1], ranked[::-1], lambda s: s, same, 2) == []
    prose = [(0.9, "The centre is closed on Tuesdays."), (0.8, "Ask at the desk.")]
    assert at_extreme(LONGEST, prose, prose, lambda s: s, same, 2) == []


def test_only_the_first_chosen_sentences_passage_is_searched() -> None:
    other = "| Donnerstag | 7:00 – 22:00 |"  # another centre's page
    ranked = [(0.9, ROWS[0]), (0.8, other), (0.7, ROWS[1])]
    passage = lambda s: "other" if s == other else "centre"  # noqa: E731
    assert at_extreme(LONGEST, ranked, ranked[:1], lambda s: s, passage, 1) == [(0.7, ROWS[1])]


def test_the_answerer_quotes_the_longest_opening_first() -> None:
    text = "## Öffnungszeiten\n\n| Tag | Zeit |\n|---|---|\n" + "\n".join(ROWS)
    payload = {"chunk_id": "kc#1", "doc_id": "service/kundencenter-weissbach.md", "source_set": "utility",
               "title": "Kundencenter Weißbach", "heading_path": "Öffnungszeiten", "text": text,
               "language": "de"}  # fmt: skip
    centre = Candidate(point_id="kc", payload=payload, scores={DENSE: 0.9})
    # the model prefers the first row; the times decide
    answered = answer_extractively(LONGEST, [centre], lambda q, texts: [0.95 - 0.01 * i for i in range(len(texts))])
    assert not answered.abstained
    assert answered.text.startswith("| Donnerstag | 9:00 – 19:00 |")
