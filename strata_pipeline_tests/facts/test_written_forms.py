"""Values written otherwise than stored, read by general rules (en, de, fr): periods over ISO dates, numbers
with thousands separators, ranges and "or more", state words in German and French for English or clipped
values, country, language and format names for codes; and what is refused, with the reason and the columns."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import IntentRefused, load_catalogue, parse
from strata_pipeline.facts.cells import cell_values
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.numbers import comparisons, parse_number
from strata_pipeline.facts.periods import read_periods
from strata_pipeline.routing.dispatch import FactsSource
from strata_pipeline_tests.facts.sidecars import run

HOSTS = [  # environments stored clipped and in English, states in English
    {"host": "a1", "os": "RHEL 9", "site": "ZRH", "env": "prod", "state": "active", "cores": 8},
    {"host": "a2", "os": "RHEL 9", "site": "ZRH", "env": "prod", "state": "active", "cores": 16},
    {"host": "a3", "os": "Windows", "site": "BSL", "env": "dev", "state": "repair", "cores": 4},
    {"host": "a4", "os": "RHEL 9", "site": "BSL", "env": "dev", "state": "active", "cores": 2},
    {"host": "a5", "os": "Windows", "site": "LYO", "env": "test", "state": "standby", "cores": 2},
]
DEPOTS = [
    {"depot": "D1", "country": "DE", "opened": "2024-11-04", "fee_eur": 1200.5},
    {"depot": "D2", "country": "DE", "opened": "2025-02-17", "fee_eur": 950},
    {"depot": "D3", "country": "PT", "opened": "2025-03-03", "fee_eur": 4800},
    {"depot": "D4", "country": "FR", "opened": "2025-05-12", "fee_eur": 15000},
    {"depot": "D5", "country": "PT", "opened": "2025-08-01", "fee_eur": 2100},
]
DOCS = ["guides/a.md", "guides/b.md", "guides/c.txt", "hosts.csv", "depots.csv"]


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("written") / "sidecar.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [{"doc_id": d, "source_set": "ops", "project": d.split("/")[0] if "/" in d else "",
                              "extension": "." + d.rsplit(".", 1)[1], "title": d, "category": "it",
                              "language": "de" if d.endswith(".txt") else "en", "groups": ["it"],
                              "decision": "include", "status": "ok"} for d in DOCS])  # fmt: skip
        write_fact_tables(db, "hosts.csv", json.dumps({"hosts": HOSTS}))
        write_fact_tables(db, "depots.csv", json.dumps({"depots": DEPOTS}))
    return {"ops": path}


@pytest.mark.parametrize(
    ("text", "periods"),
    [
        ("How many in March 2025?", [("ge", "2025-03", "lt", "2025-04")]),
        ("Wie viele im Dezember 2025?", [("ge", "2025-12", "lt", "2026-01")]),
        ("combien en mars 2025 ?", [("ge", "2025-03", "lt", "2025-04")]),
        ("entries in 05/2025", [("ge", "2025-05", "lt", "2025-06")]),
        ("opened in Q2 2025", [("ge", "2025-04", "lt", "2025-07")]),
        ("im 2. Quartal 2025", [("ge", "2025-04", "lt", "2025-07")]),
        ("au premier trimestre 2025", [("ge", "2025-01", "lt", "2025-04")]),
        ("in the second half of 2025", [("ge", "2025-07", "lt", "2026-01")]),
        ("between 2025-05-01 and 2025-07-31", [("ge", "2025-05-01", "le", "2025-07-31")]),
        ("zwischen 2025-02 und 2025-03", [("ge", "2025-02", "lt", "2025-04")]),
        ("how many servers may be moved?", []),  # "may" with no year is no month
    ],
)
def test_periods_are_half_open_ranges_of_iso_prefixes(text: str, periods: list[tuple[str, ...]]) -> None:
    assert read_periods(text)[0] == periods


@pytest.mark.parametrize(
    ("text", "value"),
    [("1,000", 1000), ("5.000", 5000), ("1 000", 1000), ("1.200,50", 1200.5), ("1,200.50", 1200.5), ("2,5", 2.5),
     ("0.25", 0.25), ("0,250", 0.25), ("12.000.000", 12_000_000), ("zwei", 2), ("trois", 3)],
)  # fmt: skip
def test_numbers_with_thousands_separators(text: str, value: float) -> None:
    assert parse_number(text) == value


def test_comparisons_before_after_and_between() -> None:
    assert [(c.op, c.value) for c in comparisons("between 10 and 20 hours")] == [("ge", 10), ("le", 20)]
    assert [(c.op, c.value) for c in comparisons("entre 1 000 et 5 000 dollars")] == [("ge", 1000), ("le", 5000)]
    assert [(c.op, c.value) for c in comparisons("a target of 40 hours or more")] == [("ge", 40)]
    assert [(c.op, c.value) for c in comparisons("10 Stunden oder weniger")] == [("le", 10)]
    assert [(c.op, c.value) for c in comparisons("mehr als 1.000 €")] == [("gt", 1000)]
    assert [(c.op, c.value) for c in comparisons("under $1,000")] == [("lt", 1000)]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # state words in German and French for values stored in English or clipped
        ("Wie viele Hosts sind in der Entwicklung?", 2),
        ("Combien de hosts en développement ?", 2),
        ("How many hosts are in Produktion?", 2),
        ("Wie viele aktive Hosts gibt es?", 3),
        ("Wie viele Hosts sind in Reparatur?", 1),
        ("Which hosts are in Bereitschaft?", ["a5"]),
        # country names for two-letter codes, negated too
        ("How many depots are in Germany?", 2),
        ("Wie viele Depots gibt es in Deutschland?", 2),
        ("How many depots are not in Portugal?", 3),
        ("Combien de depots en dehors de la France ?", 4),
        # periods over an ISO date column
        ("How many depots opened in March 2025?", 1),
        ("Wie viele Depots wurden im 1. Quartal 2025 eröffnet?", 2),
        ("Which depots opened between 2025-02-01 and 2025-05-31?", ["D2", "D3", "D4"]),
        ("How many depots opened until March 2025?", 3),
        ("Wie viele Depots wurden seit März 2025 eröffnet?", 3),
        ("Combien de depots ouverts avant mars 2025 ?", 2),
        ("How many depots opened after Q1 2025?", 2),
        ("Wie viele Depots wurden seit dem 17.02.2025 eröffnet?", 4),
        ("Combien de depots ouverts avant le 1er mars 2025 ?", 2),
        ("How many depots opened since March 3, 2025?", 3),
        # numbers with separators and units, ranges, "or more"
        ("How many depots have a fee of more than 1.000 €?", 4),
        ("How many depots have a fee between 1 000 and 5 000 euros?", 3),
        ("How many depots have a fee of 4800 euros or more?", 2),
        ("Average fee in euros of the depots with a fee over 2,000 euros", 7300),
        # the extreme of a price, and a column named by its initials
        ("Which depot is the cheapest?", ["D2"]),
        ("Number of hosts per operating system", {"RHEL 9": 3, "Windows": 2}),
        ("Number of hosts per environment", {"dev": 2, "prod": 2, "test": 1}),
        # "each"/"jeder" groups, values joined by "or", a number said with its unit, a name without its version
        ("How many hosts are there in each site?", {"BSL": 2, "LYO": 1, "ZRH": 2}),
        ("Wie viele Hosts hat jeder Standort?", {"BSL": 2, "LYO": 1, "ZRH": 2}),
        ("How many hosts are in ZRH or LYO?", 3),
        ("Combien de hosts à BSL ou à LYO ?", 3),
        ("How many hosts have 2 cores?", 2),
        ("How many hosts are there with 16 cores?", 1),
        ("How many hosts run RHEL?", 3),
        ("What is the max number of cores at ZRH?", 16),
        # negations as contractions or before a verb, over several stored forms; "exactly"
        ("How many hosts aren't in ZRH?", 3),
        ("Which hosts don't run RHEL 9?", ["a3", "a5"]),
        ("Wie viele Hosts laufen nicht unter Windows?", 3),
        ("How many hosts have exactly 16 cores?", 1),
        # a format's name for an extension, a language's name for its code
        ("How many Markdown files are there?", 2),
        ("How many CSV or TXT files are there?", 3),
        ("Wie viele Dokumente sind auf Deutsch?", 1),
        ("How many German-language documents are there?", 1),  # the language's adjective
        ("Wie viele deutschsprachige Dokumente gibt es?", 1),
        ("How many English-speaking documents are there?", 4),
    ],
)
def test_written_forms_give_exact_values(question: str, value: object, sidecars: dict[str, Path]) -> None:
    result = run(question, sidecars, frozenset({"it"}))
    assert result.value == value, result.intent.describe()


@pytest.mark.parametrize(
    ("question", "why"),
    [
        ("How many hosts are at site Basel?", "names 'site Basel', a value the column does not hold"),
        ("How many depots opened per month?", "a grouping by a period of the dates, which no column holds"),
        ("How many hosts were moved to production in May 2025?", "names a period, but the table holds no dates"),
    ],
)
def test_unreadable_conditions_are_refused_with_the_reason_and_the_columns(
    question: str, why: str, sidecars: dict[str, Path]
) -> None:
    catalogue = load_catalogue(sidecars, frozenset({"it"}))
    parsed = parse(question, catalogue)
    assert parsed.intent is None and parsed.why == why
    source = FactsSource({})
    source.sidecars = sidecars
    with pytest.raises(IntentRefused) as refused:
        source.query(question, frozenset({"it"}))
    message = str(refused.value)
    assert why in message and "host, os, site, env, state, cores" in message


def test_a_country_is_never_read_as_its_language_code(sidecars: dict[str, Path]) -> None:
    documents = load_catalogue(sidecars, frozenset({"it"})).named("documents")[0]
    assert cell_values("What may an engineer in Germany approve?", documents) == []
    assert cell_values("Which documents are in German?", documents) == [Filter("language", "eq", "de")]
    depots = next(t for t in load_catalogue(sidecars, frozenset({"it"})).tables if t.label == "depots")
    assert cell_values("depots outside Germany", depots) == [Filter("country", "ne", "DE")]


ZONES = [  # German column names, one spelled without umlauts
    {"zone": "A1", "bezirk": "Nord", "gebuehr_eur": 30},
    {"zone": "A2", "bezirk": "Nord", "gebuehr_eur": 45},
    {"zone": "B1", "bezirk": "Süd", "gebuehr_eur": 20},
]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Summe der Gebühren je Bezirk", {"Nord": 75, "Süd": 20}),
        ("Höchste Gebühr im Bezirk Nord?", 45),
        ("Durchschnittliche Gebühren der Zonen", 31.67),
    ],
)
def test_german_names_are_read_with_their_endings_and_umlauts(question: str, value: object, tmp_path: Path) -> None:
    path = tmp_path / "sidecar.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [{"doc_id": "zonen.csv", "source_set": "city", "project": "", "extension": ".csv",
                              "title": "zonen", "category": "", "language": "de", "groups": ["it"],
                              "decision": "include", "status": "ok"}])  # fmt: skip
        write_fact_tables(db, "zonen.csv", json.dumps({"zonen": ZONES}))
    result = run(question, {"city": path}, frozenset({"it"}))
    assert result.value == pytest.approx(value, abs=0.01) if isinstance(value, float) else result.value == value


ORDERS = [
    {"order": "O1", "supplier": "Acme", "amount_eur": 100},
    {"order": "O2", "supplier": "Acme", "amount_eur": 50},
    {"order": "O3", "supplier": "Bolt", "amount_eur": 70},
]
BESTELLUNGEN = [{"nummer": o["order"], "lieferant": o["supplier"], "betrag_eur": o["amount_eur"]} for o in ORDERS]


@pytest.mark.parametrize("sheet", ["orders", "bestellungen"])
@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Total amount per supplier", {"Acme": 150, "Bolt": 70}),
        ("Summe der Beträge je Lieferant", {"Acme": 150, "Bolt": 70}),
        ("Montant total par fournisseur", {"Acme": 150, "Bolt": 70}),
        ("Number of orders per supplier", {"Acme": 2, "Bolt": 1}),
        ("Wie viele Bestellungen je Lieferant?", {"Acme": 2, "Bolt": 1}),
    ],
)
def test_a_grouping_is_read_across_english_german_and_french_column_names(
    sheet: str, question: str, value: object, tmp_path: Path
) -> None:
    path = tmp_path / "sidecar.sqlite"
    rows = ORDERS if sheet == "orders" else BESTELLUNGEN
    with closing(connect(path)) as db:
        write_documents(db, [{"doc_id": f"{sheet}.csv", "source_set": "buy", "project": "", "extension": ".csv",
                              "title": sheet, "category": "", "language": "en", "groups": ["it"],
                              "decision": "include", "status": "ok"}])  # fmt: skip
        write_fact_tables(db, f"{sheet}.csv", json.dumps({sheet: rows}))
    assert run(question, {"buy": path}, frozenset({"it"})).value == value
