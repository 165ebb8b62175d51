"""Bands and ranges (answering/ranges.py, near_miss.in_band / out_of_band): a question's figure picks
the row whose band holds it, and no row when none does. Exact expectations."""

from __future__ import annotations

import math

from strata_pipeline.answering.answer import answer_extractively
from strata_pipeline.answering.near_miss import in_band, out_of_band
from strata_pipeline.answering.ranges import Band, bands, figures, fits
from strata_pipeline.retrieval.candidate import DENSE, Candidate

FEE = "What flat fee does an external adjuster get for a motor claim worth 12,000 €?"
M1 = "adjuster-fees: band: M1; line: motor; claim_value_from_eur: 0; claim_value_to_eur: 7500; flat_fee_eur: 290"
M2 = "adjuster-fees: band: M2; line: motor; claim_value_from_eur: 7501; claim_value_to_eur: 25000; flat_fee_eur: 410"
M3 = "adjuster-fees: band: M3; line: motor; claim_value_from_eur: 25001; hourly_rate_eur: 120"
SOLAR = "How much is the feed-in remuneration for a 60 kWp solar system?"


def test_a_question_s_figures_are_its_amounts_less_bases_and_bounds() -> None:
    assert figures(FEE) == [(12000.0, "EUR")]
    assert figures(SOLAR) == [(60.0, "kwp")]
    assert figures("What does a 12 kg parcel cost?") == [(12.0, "kg")]
    assert figures("What is the contents rate per 1,000 € in zone 4?") == []  # the base of a rate
    assert figures("What is the fee for claims above 10,000 €?") == []  # a bound: the band from 10,001 answers
    assert figures("Who approves trips of 5 days or more?") == []
    assert figures("When does the depot open on Monday?") == []


def test_bands_are_read_from_words_and_from_column_pairs() -> None:
    assert bands("system_size: up to 10 kWp; ct_per_kwh: 7.94") == [Band(0.0, 10.0, "kwp")]
    assert bands("system_size: 10 to 40 kWp") == [Band(10.0, 40.0, "kwp")]
    assert bands("Customers who use more than 6,000 kWh a year") == [Band(6000.0, math.inf, "kwh")]
    assert bands("Entre 5 et 10 € par ticket") == [Band(5.0, 10.0, "EUR")]
    assert bands(M2) == [Band(7501.0, 25000.0, "EUR")]
    assert bands(M3) == [Band(25001.0, math.inf, "EUR")]  # no upper column: open
    assert bands("Opening hours: 08:00 - 17:00; pages 10-20") == []


def test_a_row_fits_when_its_band_holds_the_figure() -> None:
    assert [fits(FEE, row) for row in (M1, M2, M3)] == [False, True, False]
    assert fits(FEE, "The adjuster is paid within 30 days.") is None  # no band: nothing to say
    assert fits("What is the flat fee?", M2) is None  # no figure asked


def test_the_row_that_holds_the_figure_is_quoted_without_its_neighbours() -> None:
    ranked = [(0.9, M1), (0.89, "Claims handler II may settle 12,000 € alone."), (0.85, M2)]
    chosen = ranked[:2]
    assert in_band(FEE, ranked, chosen, lambda s: s, 2) == [(0.85, M2)]
    assert in_band(FEE, ranked, [(0.85, M2), (0.9, M1)], lambda s: s, 2) == [(0.85, M2)]
    assert in_band(FEE, ranked, [(0.85, M2)], lambda s: s, 2) == []  # already the right one


def test_rows_whose_bands_all_miss_the_figure_do_not_answer() -> None:
    small = "feed-in: system_size: up to 10 kWp; ct_per_kwh: 7.94"
    middle = "feed-in: system_size: 10 to 40 kWp; ct_per_kwh: 6.88"
    assert out_of_band(SOLAR, [small, middle]) == (
        "The quoted rows cover 0 to 10, 10 to 40 kwp, not the 60 kwp the question gives."
    )
    assert out_of_band(SOLAR.replace("60", "25"), [small, middle]) is None
    assert out_of_band(SOLAR, ["The remuneration is paid monthly."]) is None


def sheet(rows: list[str]) -> Candidate:
    header = "band | line | claim_value_from_eur | claim_value_to_eur | flat_fee_eur"
    text = "\n".join(["## adjuster-fees", header, *rows])
    payload = {"chunk_id": "fees#0", "doc_id": "claims/adjuster-fees.csv", "source_set": "insurance",
               "title": "adjuster-fees", "heading_path": "", "text": text, "language": "en"}  # fmt: skip
    return Candidate(point_id="fees", payload=payload, scores={DENSE: 0.9})


def test_the_answerer_quotes_the_band_that_holds_the_figure() -> None:
    fees = sheet(["M1 | motor | 0 | 7500 | 290", "M2 | motor | 7501 | 25000 | 410", "M3 | motor | 25001 |  | "])
    answered = answer_extractively(FEE, [fees], lambda q, texts: [0.9] * len(texts))
    assert not answered.abstained and "410" in answered.text and "290" not in answered.text
    small = answer_extractively(FEE.replace("12,000", "5,000"), [fees], lambda q, texts: [0.9] * len(texts))
    assert not small.abstained and "290" in small.text and "410" not in small.text
