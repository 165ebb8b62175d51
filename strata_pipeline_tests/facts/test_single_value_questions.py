"""A question for one value of the rows a name picks ("Quel est le prix de l'eau à Colmont ?") is no list
of those rows, and a list of them shows what is asked: listing the key the question pins would answer
"Colmont, Colmont, Colmont"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from strata_pipeline.facts import load_catalogue, parse
from strata_pipeline.facts.intent_words import OPERATION_WORDS
from strata_pipeline.routing.route import route
from strata_pipeline_tests.facts.sidecars import write_one_table

PRICES = [
    {"town": "Colmont", "component": "drinking water", "unit": "per m3", "price_eur": 2.07},
    {"town": "Colmont", "component": "wastewater", "unit": "per m3", "price_eur": 2.62},
    {"town": "Aarlingen", "component": "drinking water", "unit": "per m3", "price_eur": 2.31},
]


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("single") / "sidecar.sqlite"
    return write_one_table(path, "tariffs/water-prices.csv", "utility", "water prices", PRICES)


def test_quel_est_asks_for_one_value_and_quels_sont_lists() -> None:
    lists = re.compile(OPERATION_WORDS["list"], re.IGNORECASE)
    assert not lists.search("Quel est le prix de l'eau potable à Colmont ?")
    assert not lists.search("Quelle est la redevance d'abonnement à Colmont ?")
    assert lists.search("Quels sont les prix de l'eau à Colmont ?")
    assert lists.search("Quelles villes ont un prix de l'eau ?")
    assert lists.search("Which towns are in the water prices table?")


def test_a_single_value_is_asked_of_the_passages_and_a_list_shows_the_asked_column(sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, frozenset({"public"}))
    single = "Quel est le prix de l'eau potable par m³ à Colmont ?"
    assert parse(single, catalogue).operation == ""  # no intent word: "quel est" asks for one value
    assert route(single, catalogue)[0].route == "semantic"  # the passages answer it
    prices = parse("Quels sont les prix de l'eau à Colmont ?", catalogue)  # the column the table's name shares
    assert prices.intent is not None and prices.intent.columns == ("price_eur",)
    listed = parse("Which towns are in the water prices table?", catalogue)
    assert listed.intent is not None and listed.intent.operation in ("list", "distinct")
    assert listed.intent.columns == ("town",)
    counted = parse("How many water prices are there for Colmont?", catalogue)
    assert counted.intent is not None and counted.intent.operation == "count"


def test_the_sum_insured_is_no_total() -> None:
    total = re.compile(OPERATION_WORDS["sum"], re.IGNORECASE)
    assert not total.search("What is the comfort rate per 1,000 € sum insured in tariff zone 4?")
    assert not total.search("Up to which sum assured is no medical check needed?")
    assert total.search("What is the sum of all list prices?")
    assert total.search("What is the total sum insured of all policies?")  # "total" still asks for one


def test_a_total_loss_is_a_kind_of_claim_not_a_total() -> None:
    total = re.compile(OPERATION_WORDS["sum"], re.IGNORECASE)
    assert not total.search("Under the 2024 total-loss rules, how recently must a car have been registered?")
    assert total.search("What is the total of all claims?")
