"""Rules of the facts11 round, on a small equipment-rental catalogue (not the probe's data): money words
measure the one money column; the largest rows with no measure; another sheet's rows counted per group;
flags named by their last word; comparatives; a verb between a negation and the sheet; "of" an unknown noun
refused; best/worst; "when" asks the newest row's date; British and American spellings."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import execute, load_catalogue
from strata_pipeline.facts.catalogue import Catalogue, Column, Table
from strata_pipeline.facts.intent import FactResult, Filter, Intent
from strata_pipeline.facts.numbers import comparisons
from strata_pipeline.facts.parse import parse
from strata_pipeline.facts.values import cognate, tier
from strata_pipeline.facts.vocabulary import gloss
from strata_pipeline.facts.wording import stem_word, stems
from strata_pipeline_tests.facts import test_top_and_absent as fleet_sheets

CLIENTS = Table(
    "facts_clients",
    "rental",
    "crm/clients.csv",
    "clients",
    (
        Column("client_id", "text", ("C-1", "C-2", "C-3")),
        Column("region", "text", ("North", "South")),
        Column("score", "number"),
        Column("credit_days", "number"),
        Column("vat_registered", "text", ("yes", "no")),
        Column("joined", "text", ("2021-02-01", "2023-05-09", "2024-11-30")),
    ),
    3,
)
RENTALS = Table(
    "facts_rentals",
    "rental",
    "crm/rentals.xlsx",
    "equipment rentals",
    (
        Column("rental_no", "text", ("R-10", "R-11", "R-12", "R-13")),
        Column("client_id", "text", ("C-1", "C-2")),
        Column("rented_on", "text", ("2025-01-03", "2025-02-14", "2025-03-20", "2025-04-02")),
        Column("total_eur", "number"),
        Column("state", "text", ("open", "returned", "overdue")),
        Column("profit_centre", "text", ("Events", "Building")),
    ),
    4,
)
CATALOGUE = Catalogue((CLIENTS, RENTALS))


def intent_of(question: str) -> Intent:
    parsed = parse(question, CATALOGUE)
    assert parsed.intent is not None, parsed.evidence
    return parsed.intent


@pytest.mark.parametrize(
    "question",
    ["What is the total value of all equipment rentals?", "How much did we spend on rentals in 2025?",
     "Wie hoch ist der Gesamtbetrag der Rentals im Profit Centre Events?"],
)  # fmt: skip
def test_money_words_measure_the_one_money_column(question: str) -> None:
    intent = intent_of(question)
    assert (intent.operation, intent.table, intent.columns) == ("sum", "facts_rentals", ("total_eur",))


def test_the_largest_rows_with_no_measure_rank_by_the_one_number_column() -> None:
    intent = intent_of("What are the three biggest rentals?")
    wanted = ("argmax", ("total_eur",), ("rental_no",), 3)
    assert (intent.operation, intent.columns, intent.group_by, intent.limit) == wanted
    # a date column is no group of the rows ("which rental": not `rented_on`)
    assert intent_of("Which rental was the largest?").group_by == ("rental_no",)


def test_the_most_rows_of_another_sheet_per_group() -> None:
    intent = intent_of("Which client has the most rentals?")
    assert (intent.operation, intent.table, intent.group_by, intent.columns) == (
        "argmax", "facts_rentals", ("client_id",), ()
    )  # fmt: skip


def test_a_flag_named_by_its_last_word_and_negated_in_any_language() -> None:
    assert intent_of("How many clients are registered?").filters == (Filter("vat_registered", "eq", "yes"),)
    assert intent_of("How many clients are not registered?").filters == (Filter("vat_registered", "eq", "no"),)


def test_comparatives_of_a_measure() -> None:
    assert [(c.op, c.value) for c in comparisons("credit terms longer than 30 days")] == [("gt", 30.0)]
    assert [(c.op, c.value) for c in comparisons("kürzer als 14 Tage")] == [("lt", 14.0)]
    wanted = (Filter("credit_days", "gt", 30.0),)
    assert intent_of("How many clients have credit days longer than 30?").filters == wanted


def test_a_verb_between_the_negation_and_the_sheet_is_an_anti_join() -> None:
    intent = intent_of("Which clients have never received an equipment rental?")
    assert (intent.table, intent.absent_from, intent.key) == ("facts_clients", "facts_rentals", "client_id")


def test_an_amount_of_something_no_column_holds_is_refused() -> None:
    parsed = parse("What is the total amount of VAT on all equipment rentals?", CATALOGUE)
    assert parsed.intent is None and parsed.unplaced == "vat"
    # a word before a value is that value's column: still a figure
    assert intent_of("What is the total value of the profit centre Events?").filters == (
        Filter("profit_centre", "eq", "Events"),
    )


def test_best_worst_and_when() -> None:
    assert intent_of("Which is the best-scored client?").columns == ("score",)
    assert intent_of("Which client has the worst score?").operation == "argmin"
    intent = intent_of("When was the most recent equipment rental made?")
    assert (intent.operation, intent.columns, intent.group_by) == ("argmax", ("rented_on",), ("rental_no",))


def test_spellings_and_passives() -> None:
    assert stem_word("centre") == stem_word("center") == "center"
    assert "scoring" in stems("best-scored")
    assert intent_of("Average rental value per profit center").group_by == ("profit_centre",)
    assert intent_of("How many rentals have not been returned yet?").filters == (Filter("state", "ne", "returned"),)


def test_german_ktion_nouns_and_counted_cours() -> None:
    assert cognate("inspektionen") == "inspection" and cognate("produktion") == "production"
    assert tier("inspektionen", "inspection", clipped=False) == "same"
    assert gloss("Combien de catégories ont au moins 3 cours ?").endswith("3 courses ?")
    assert "cours" in gloss("les travaux en cours")  # "en cours" (in progress) is no course


EVERYONE = fleet_sheets.EVERYONE


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The vehicle and maintenance sheets of test_top_and_absent, as a sidecar of their own."""
    return fleet_sheets.sidecars.__wrapped__(tmp_path_factory)  # type: ignore[attr-defined]


def _answer(question: str, sidecars: dict[str, Path]) -> tuple[Intent, FactResult]:
    catalogue = load_catalogue(sidecars, EVERYONE)
    parsed = parse(question, catalogue)
    assert parsed.intent is not None, parsed
    return parsed.intent, execute(parsed.intent, catalogue, sidecars, EVERYONE)


def test_the_best_row_is_answered_with_its_figure(sidecars: dict[str, Path]) -> None:
    intent, result = _answer("When was the newest vehicle registered?", sidecars)
    assert (intent.operation, result.value) == ("argmax", ["V-6"])
    assert result.answer.endswith("Its registered: 2024-07-22.")
    assert _answer("Which vehicle has the highest price?", sidecars)[1].answer.endswith("Its price_eur: 56700.")


def test_the_most_rows_of_another_sheet_over_a_sidecar(sidecars: dict[str, Path]) -> None:
    intent, result = _answer("Which vehicle had the most maintenance jobs?", sidecars)
    assert (intent.table, intent.group_by, result.value) == ("facts_sheets_maintenance_log_csv_maintenance_log",
                                                             ("vehicle_id",), ["V-3"])  # fmt: skip
    assert "Its " not in result.answer  # a count of rows: no measured column to quote
