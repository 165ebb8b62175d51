"""Phrasings the parser reads the same way: plurals, short forms, underscores, number words, German and
French data words, "broken down by". And what it refuses rather than answer with another figure."""

from __future__ import annotations

import pytest

from strata_pipeline.facts.catalogue import Catalogue, Column, Table
from strata_pipeline.facts.intent import Intent
from strata_pipeline.facts.parse import _stem, parse
from strata_pipeline.facts.vocabulary import gloss, number_value
from strata_pipeline.routing.route import route


def _table(name: str, sheet: str, *columns: Column) -> Table:
    return Table(name, "sales", f"{sheet}.xlsx", sheet, columns, 10)


STOCK = _table(
    "facts_stock",
    "stock",
    Column("sku", "text", ("RX-1", "RX-2")),
    Column("warehouse", "text", ("MUC", "PDX")),
    Column("on_hand", "number"),
    Column("reserved", "number"),
)
WAREHOUSES = _table(
    "facts_warehouses",
    "warehouses",
    Column("code", "text", ("MUC", "PDX")),
    Column("country", "text", ("DE", "US")),
    Column("capacity_units", "number"),
)
PRICES = _table(
    "facts_prices",
    "price-list",
    Column("sku", "text", ("RX-1", "RX-2")),
    Column("product", "text", ("Robots", "Services")),
    Column("list_price_usd", "number"),
    Column("response_time_h", "number"),
)
PRINTERS = _table(
    "facts_printers",
    "printers",
    Column("printer_id", "text", ("P-1", "P-2")),
    Column("site", "text", ("BSL", "ZRH")),
    Column("color", "text", ("no", "yes")),
    Column("duplex", "text", ("no", "yes")),
)
HOLIDAYS = _table(
    "facts_holidays", "public-holidays", Column("holiday", "text"), Column("offices", "text", ("all", "US"))
)
CATALOGUE = Catalogue((STOCK, WAREHOUSES, PRICES, PRINTERS, HOLIDAYS))


def intent_of(question: str) -> Intent:
    parsed = parse(question, CATALOGUE)
    assert parsed.intent is not None, parsed
    return parsed.intent


@pytest.mark.parametrize(
    ("plural", "singular"),
    [("warehouses", "warehouse"), ("offices", "office"), ("entries", "entry"), ("boxes", "box"), ("skus", "sku")],
)
def test_plural_and_singular_share_a_stem(plural: str, singular: str) -> None:
    assert _stem(plural) == _stem(singular)


def test_gloss_translates_data_words_only_and_keeps_values_as_written() -> None:
    assert gloss("Wie viele Feiertage gelten für alle Büros?") == "Wie viele holidays gelten für all offices?"
    assert (
        gloss("Combien de jours fériés pour le bureau de Munich ?") == "Combien de holidays pour le office de Munich ?"
    )
    assert gloss("Durchschnittlicher Listenpreis der Services-Produkte?") == "average list price der Services products?"
    assert gloss("What's the lowest qty in PDX?") == "What's the lowest quantity in PDX?"
    assert gloss("Biotonne im Bezirk Altstadt") == "Biotonne im Bezirk Altstadt"  # no data word: unchanged


@pytest.mark.parametrize(("text", "value"), [("40", 40.0), ("2,5", 2.5), ("one", 1.0), ("zwei", 2.0), ("trois", 3.0)])
def test_numbers_as_digits_or_words(text: str, value: float) -> None:
    assert number_value(text) == value


def test_singular_names_the_table_and_the_asked_noun_picks_it_over_a_shared_value() -> None:
    intent = intent_of("Wie viele SKUs liegen im Lager PDX?")
    assert (intent.operation, intent.table) == ("count", "facts_stock")
    assert [(f.column, f.value) for f in intent.filters] == [("warehouse", "PDX")]


def test_number_word_after_a_comparison() -> None:
    intent = intent_of("How many SKUs have a response time under one hour?")
    assert [(f.column, f.op, f.value) for f in intent.filters] == [("response_time_h", "lt", 1.0)]


def test_column_name_with_underscores_and_short_form() -> None:
    assert intent_of("What is the sum of on_hand in MUC?").columns == ("on_hand",)
    intent = intent_of("What's the lowest qty on hand at the MUC warehouse?")
    assert (intent.operation, intent.table, intent.columns) == ("min", "facts_stock", ("on_hand",))


@pytest.mark.parametrize(
    ("question", "operation", "column", "filters"),
    [
        ("Durchschnittlicher Listenpreis der Services-Produkte?", "avg", "list_price_usd", [("product", "Services")]),
        ("Quel est le prix le plus élevé des produits Robots ?", "max", "list_price_usd", [("product", "Robots")]),
        ("Combien de produits coûtent moins de 2000 dollars ?", "count", None, [("list_price_usd", 2000.0)]),
    ],
)
def test_german_and_french_data_words(question: str, operation: str, column: str | None, filters: list) -> None:
    intent = intent_of(question)
    assert (intent.operation, intent.table) == (operation, "facts_prices")
    assert intent.columns == ((column,) if column else ())
    assert [(f.column, f.value) for f in intent.filters] == filters


def test_german_all_offices_is_the_value_all() -> None:
    intent = intent_of("Wie viele Feiertage gelten für alle Büros?")
    assert (intent.table, [(f.column, f.value) for f in intent.filters]) == ("facts_holidays", [("offices", "all")])


@pytest.mark.parametrize(
    "question",
    ["Total units on hand, broken down by warehouse", "Summe on hand pro Lager", "Somme on hand par entrepôt"],
)
def test_group_phrases(question: str) -> None:
    intent = intent_of(question)
    assert (intent.operation, intent.columns, intent.group_by) == ("sum", ("on_hand",), ("warehouse",))


def test_grouping_by_no_column_is_refused_not_totalled() -> None:
    parsed = parse("How many SKUs are on hand for each supplier?", CATALOGUE)
    assert parsed.intent is None
    assert route("How many SKUs are on hand for each supplier?", CATALOGUE)[0].route == "semantic"


def test_a_list_names_its_table_by_what_it_asks_for() -> None:
    routing, parsed = route("Which warehouses in the US have a capacity above 500 units?", CATALOGUE)
    assert routing.route == "aggregation"
    assert parsed.intent is not None and parsed.intent.table == "facts_warehouses"


def test_french_count_of_days_off_is_not_a_quantity_of_days() -> None:
    assert route("Combien de jours fériés pour les bureaux US ?", CATALOGUE)[0].route == "aggregation"
    assert route("Combien de jours de congé ai-je ?", CATALOGUE)[0].route == "semantic"


@pytest.mark.parametrize(
    ("question", "filters"),
    [
        ("How many colour printers are there per site?", [("color", "yes")]),
        ("How many printers without duplex are at BSL?", [("site", "BSL"), ("duplex", "no")]),
        ("Which printers in ZRH are not colour?", [("site", "ZRH"), ("color", "no")]),
    ],
)
def test_a_yes_no_column_named_as_a_quality_is_a_filter(question: str, filters: list) -> None:
    assert [(f.column, f.value) for f in intent_of(question).filters] == filters


@pytest.mark.parametrize(
    "question",
    ["How many spare printers does the Basel desk keep?", "How many loaner printers are in ZRH?"],
)
def test_a_count_of_rows_the_table_cannot_tell_apart_is_refused(question: str) -> None:
    parsed = parse(question, CATALOGUE)
    assert parsed.intent is None
    assert any("no column or value" in e for e in parsed.evidence)
    assert route(question, CATALOGUE)[0].route == "semantic"


def test_a_count_by_a_value_or_a_compound_of_the_table_name_is_read() -> None:
    assert intent_of("How many US holidays are there?").filters[0].value == "US"
    compound = _table("facts_calendar", "abfuhrkalender", Column("Abfallart", "text", ("Biotonne", "Papier")))
    parsed = parse("Wie viele Abfuhrtermine für die Biotonne stehen im Abfuhrkalender?", Catalogue((compound,)))
    assert parsed.intent is not None and parsed.intent.operation == "count"


def test_a_count_of_hyphenated_known_words_and_german_entries_is_read() -> None:
    intent = intent_of("Wie viele Stock-Einträge haben mehr als zwei reserved?")
    assert (intent.table, [(f.column, f.op, f.value) for f in intent.filters]) == (
        "facts_stock",
        [("reserved", "gt", 2.0)],
    )


def test_a_count_whose_counted_word_is_a_hyphenated_value_filters_on_it() -> None:
    # "how many RX-200 products": "RX-200" is a product value, not a kind of row the table cannot tell apart
    prices = _table(
        "facts_price_list",
        "price list",
        Column("sku", "text", ("RX200-ARM", "RX300-AMR")),
        Column("product", "text", ("RX-200", "RX-300")),
    )
    parsed = parse("How many RX-200 products are in the price list?", Catalogue((prices,)))
    assert parsed.intent is not None and parsed.intent.operation == "count"
    assert [(f.column, f.op, f.value) for f in parsed.intent.filters] == [("product", "eq", "RX-200")]
    assert route("How many RX-200 products are in the price list?", Catalogue((prices,)))[0].route == "aggregation"
