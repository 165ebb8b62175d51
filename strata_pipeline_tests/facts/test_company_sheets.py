"""Questions over a company's own German sheets, as a blind corpus asked them: a figure for each value named,
a comparison with a year column, a unit the column writes in German, a price column by its compound, the
names of the rows rather than their numbers, and redacted cells that no question can name."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import load_catalogue, parse
from strata_pipeline_tests.facts.sidecars import run, write_one_table

MACHINES = [
    {"Inventar-Nr.": f"MA-{i:02d}", "Bezeichnung": kind, "Baujahr": year, "Werk": site}
    for i, (kind, year, site) in enumerate(
        [("Drehzentrum", 2018, "Augsburg"), ("Fräsmaschine", 2012, "Augsburg"), ("Presse", 2009, "Chemnitz"),
         ("Drehzentrum", 2021, "Chemnitz"), ("Schleifmaschine", 2016, "Augsburg"), ("Presse", 2015, "Lyon")]
    )
]  # fmt: skip
PRICES = [
    {"Artikel-Nr.": "M40-012", "Typ": "Mercator M40", "Listenpreis EUR": 612, "Lieferzeit Wochen": 4},
    {"Artikel-Nr.": "M80-550", "Typ": "Mercator M80", "Listenpreis EUR": 3210, "Lieferzeit Wochen": 6},
    {"Artikel-Nr.": "M80-750", "Typ": "Mercator M80", "Listenpreis EUR": 3890, "Lieferzeit Wochen": 8},
]
SUPPLIERS = [
    {"Lieferanten-Nr": 700388, "Name": "Brandner Gusswerk GmbH", "Land": "DE", "Ansprechpartner": "[PERSON_1]"},
    {"Lieferanten-Nr": 700580, "Name": "Zahnrad Polska Sp. z o.o.", "Land": "PL", "Ansprechpartner": "[PERSON_2]"},
    {"Lieferanten-Nr": 700599, "Name": "Transports Girard SARL", "Land": "FR", "Ansprechpartner": "[PERSON_3]"},
]


@pytest.fixture
def machines(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "m.sqlite", "facility/maschinenliste.xlsx", "werk", "Maschinenliste", MACHINES)


@pytest.fixture
def prices(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "p.sqlite", "vertrieb/preisliste.xlsx", "werk", "Preisliste", PRICES)


@pytest.fixture
def suppliers(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "s.sqlite", "einkauf/lieferanten.csv", "werk", "Lieferantenliste", SUPPLIERS)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Wie viele Maschinen stehen im Werk Augsburg und wie viele im Werk Chemnitz?", {"Augsburg": 3, "Chemnitz": 2}),
        ("Wie viele Maschinen gibt es jeweils an den Standorten Augsburg, Chemnitz und Lyon?",
         {"Augsburg": 3, "Chemnitz": 2, "Lyon": 1}),
        ("Wie viele Maschinen stehen in Augsburg oder Chemnitz?", 5),  # "or": one set of rows, one figure
    ],
)  # fmt: skip
def test_a_count_names_each_value_and_gets_a_figure_for_each(machines: dict, question: str, value: object) -> None:
    assert run(question, machines).value == value


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Wie viele Maschinen in der Maschinenliste wurden vor 2016 gebaut?", 3),
        ("Wie viele Maschinen der Maschinenliste wurden nach 2016 gebaut?", 2),
        ("How many machines in the Maschinenliste were built since 2016?", 3),
    ],
)
def test_a_year_compared_is_a_condition_on_the_column_of_years(machines: dict, question: str, value: int) -> None:
    assert run(question, machines).value == value


def test_a_unit_and_a_price_compound_name_their_german_columns(prices: dict) -> None:
    assert run("How many articles in the price list have a delivery time of more than 5 weeks?", prices).value == 2
    assert run("Was kostet ein Mercator M80 laut Preisliste im Durchschnitt?", prices).value == 3550


def test_which_rows_lists_their_names_not_their_numbers(suppliers: dict) -> None:
    assert run("Which suppliers in our supplier list are located outside Germany?", suppliers).value == [
        "Zahnrad Polska Sp. z o.o.",
        "Transports Girard SARL",
    ]
    assert run("Which supplier numbers are located outside Germany?", suppliers).value == ["700580", "700599"]


def test_a_redacted_cell_is_no_value_a_question_can_name(suppliers: dict) -> None:
    catalogue = load_catalogue(suppliers, None)
    contact = next(c for t in catalogue.tables for c in t.columns if c.name == "Ansprechpartner")
    assert contact.values == ()
    parsed = parse("Welche Lieferanten betreut Person 1?", catalogue)
    assert parsed.intent is None or all(f.column != "Ansprechpartner" for f in parsed.intent.filters)


def test_a_week_number_column_measures_no_weeks(tmp_path: Path) -> None:
    rota = [{"iso_week": 10, "primary": "Squad A"}, {"iso_week": 11, "primary": "Squad B"}]
    sidecars = write_one_table(tmp_path / "r.sqlite", "inventory/oncall-rota.csv", "itops", "oncall-rota", rota)
    parsed = parse("How many weeks of paid parental leave do employees get?", load_catalogue(sidecars, None))
    assert parsed.intent is None


RATED = [
    {"Lieferanten-Nr": 700100 + i, "Name": f"Lieferant {i} GmbH", "Einstufung": rating}
    for i, rating in enumerate(["A", "B", "A", "C", "A", "B"])
]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Wie viele Lieferanten sind in der Lieferantenliste als A-Lieferant eingestuft?", 3),
        ("Wie viele B-Lieferanten hat die Lieferantenliste?", 2),
        ("Wie viele Lieferanten hat die Lieferantenliste?", 6),  # no class named: every row
    ],
)
def test_a_class_letter_opening_a_compound_names_its_value(tmp_path: Path, question: str, value: int) -> None:
    sidecar = write_one_table(tmp_path / "r.sqlite", "einkauf/lieferanten.csv", "werk", "Lieferantenliste", RATED)
    assert run(question, sidecar).value == value
