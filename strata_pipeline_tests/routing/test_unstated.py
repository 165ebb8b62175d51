"""A question asking for rows with a quality no column holds is answered from passages only when the
answer mentions that quality (routing/dispatch.py `unstated`)."""

from __future__ import annotations

from strata_pipeline.answering.abstention import NO_SUPPORT
from strata_pipeline.answering.answer import Answer, Citation
from strata_pipeline.routing.dispatch import unstated


def _answer(quote: str) -> Answer:
    citation = Citation("c1", "sites/zurich-it-onsite.md", "itops", 29, 29, quote)
    return Answer(text=quote + " [sites/zurich-it-onsite.md#s4]", citations=[citation])


def test_an_answer_that_never_names_the_quality_abstains() -> None:
    answer = unstated(_answer("Server room UG-02 (basement), access with badge group BADGE-ZRH-DC."), "duplex")
    assert answer.abstained and answer.abstain_code == NO_SUPPORT
    assert "'duplex'" in answer.reason and answer.citations == [] and answer.text == ""


def test_an_answer_that_names_the_quality_in_another_form_stands() -> None:
    quote = "Only the Zurich printers print duplex; Basel prints single-sided."
    assert unstated(_answer(quote), "duplex").text.startswith(quote)
    # a German plural or case ending still names it ("Klimaanlage" → "Klimaanlagen")
    said = unstated(_answer("Alle Fahrzeuge haben Klimaanlagen."), "Klimaanlage")
    assert not said.abstained


def test_no_quality_or_an_abstention_passes_unchanged() -> None:
    answer = _answer("Server room UG-02.")
    assert unstated(answer, "") is answer
    withheld = Answer(text="", abstained=True, reason="no passage", abstain_code=NO_SUPPORT)
    assert unstated(withheld, "duplex") is withheld


def test_a_quote_whose_cited_passage_names_the_quality_in_its_heading_or_table_stands() -> None:
    from strata_pipeline.retrieval.candidate import Candidate

    quote = "| 24-hour cap | £12.00 |"
    answer = Answer(text=quote, citations=[Citation("p#s2", "sites/parking.md", "hospital", 16, 16, quote)])
    passage = Candidate(
        "p#s2",
        {
            "chunk_id": "p#s2",
            "title": "Parking at Kestwick",
            "heading_path": "Visitor parking",
            "text": f"| Stay | Charge |\n|---|---|\n{quote}",
        },
        scores={},
    )
    other = Candidate("p#s9", {"chunk_id": "p#s9", "title": "Parking charges", "text": "Charges apply."}, scores={})
    assert not unstated(answer, "parking charge", [passage]).abstained
    # only the passages the answer cites count
    assert unstated(answer, "parking charge", [other]).abstained


def test_a_quote_from_a_passage_in_another_language_stands() -> None:
    from strata_pipeline.retrieval.candidate import Candidate

    quote = "Maximum gradient: 5% at full payload."
    payload = {"chunk_id": "c1", "doc_id": "rx-300/spec-sheet.txt", "text": quote, "language": "en"}
    context = [Candidate(point_id="c1", payload=payload, scores={})]
    answer = _answer(quote)
    # a French question's words ("gravir") are said in the passage's own language ("gradient")
    assert not unstated(answer, "rx-300 peut-il gravir", context, "fr").abstained
    assert unstated(answer, "rx-300 peut-il gravir", context, "en").abstained
