"""How many groups meet a condition on their row count or total ("how many depots have more than 2 vehicles",
en, de, fr), and rows missing from a sheet whose key column has another name (`vehicle_id` against
`fahrzeug`), matched by the values the columns share; over a real sidecar."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import Intent, IntentRefused, execute, load_catalogue, parse
from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.intent import Filter
from strata_pipeline.facts.key_overlap import DEFER, catalogue_columns, normalised, overlapping_columns
from strata_pipeline.facts.per_group import totalled_per_group

VEHICLES = [
    {"vehicle_id": "V-1", "depot": "Hamburg", "fuel": "electric", "odometer_km": 42000},
    {"vehicle_id": "V-2", "depot": "Hamburg", "fuel": "diesel", "odometer_km": 148000},
    {"vehicle_id": "V-3", "depot": "Hamburg", "fuel": "diesel", "odometer_km": 201500},
    {"vehicle_id": "V-4", "depot": "Munich", "fuel": "electric", "odometer_km": 18500},
    {"vehicle_id": "V-5", "depot": "Munich", "fuel": "hybrid", "odometer_km": 96000},
    {"vehicle_id": "V-6", "depot": "Lyon", "fuel": "electric", "odometer_km": 27000},
]
JOBS = [  # per garage: Nord 3 jobs (1,720 EUR), Huber 2 (1,300 EUR), Rhone 1 (380 EUR)
    {"job_id": "MT-1", "vehicle_id": "V-2", "garage": "Nord", "cost_eur": 420},
    {"job_id": "MT-2", "vehicle_id": "V-3", "garage": "Nord", "cost_eur": 890},
    {"job_id": "MT-3", "vehicle_id": "V-2", "garage": "Nord", "cost_eur": 410},
    {"job_id": "MT-4", "vehicle_id": "V-5", "garage": "Huber", "cost_eur": 760},
    {"job_id": "MT-5", "vehicle_id": "V-3", "garage": "Huber", "cost_eur": 540},
    {"job_id": "MT-6", "vehicle_id": "V-6", "garage": "Rhone", "cost_eur": 380},
]
CARDS = [  # V-1 and V-4 have no card; the key is named `fahrzeug` here and one value is written in lower case
    {"card_no": "FC-1", "fahrzeug": "V-2", "issuer": "Aral"},
    {"card_no": "FC-2", "fahrzeug": "v-3", "issuer": "Aral"},
    {"card_no": "FC-3", "fahrzeug": "V-5", "issuer": "Shell"},
    {"card_no": "FC-4", "fahrzeug": "V-6", "issuer": "Shell"},
]
EVERYONE = frozenset({"fleet"})


def _doc(doc_id: str) -> dict:
    return {"doc_id": doc_id, "source_set": "fleet", "project": "sheets", "extension": ".csv", "title": doc_id,
            "category": "sheets", "language": "en", "groups": ["fleet"], "decision": "include",
            "status": "ok"}  # fmt: skip


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("group-counts") / "fleet.sqlite"
    sheets = {"vehicles": VEHICLES, "maintenance log": JOBS, "fuel cards": CARDS}
    with closing(connect(path)) as db:
        write_documents(db, [_doc(f"sheets/{name.replace(' ', '-')}.csv") for name in sheets])
        for name, rows in sheets.items():
            write_fact_tables(db, f"sheets/{name.replace(' ', '-')}.csv", json.dumps({name: rows}))
    return {"fleet": path}


def _run(question: str, sidecars: dict[str, Path]) -> tuple[Intent, object, str]:
    catalogue = load_catalogue(sidecars, EVERYONE)
    parsed = parse(question, catalogue)
    assert parsed.intent is not None, parsed
    result = execute(parsed.intent, catalogue, sidecars, EVERYONE)
    return parsed.intent, result.value, result.answer


@pytest.mark.parametrize(
    ("question", "value", "named"),
    [
        ("How many depots have more than 1 vehicle?", 2, ["Hamburg: 3", "Munich: 2"]),
        ("Wie viele Depots haben mindestens 3 Fahrzeuge?", 1, ["Hamburg: 3"]),
        ("Combien de garages ont au moins 2 entrées dans le journal de maintenance ?", 2, ["Huber: 2", "Nord: 3"]),
        ("How many vehicles had more than one maintenance job?", 2, ["V-2: 2", "V-3: 2"]),
        ("How many electric vehicles are there per depot?", {"Hamburg": 1, "Lyon": 1, "Munich": 1}, []),
    ],
)
def test_how_many_groups_meet_a_count(sidecars: dict[str, Path], question: str, value: object, named: list) -> None:
    intent, got, answer = _run(question, sidecars)
    assert got == value
    assert all(n in answer for n in named)
    assert intent.count_groups == isinstance(value, int)


def test_which_groups_meet_a_count_still_lists_them(sidecars: dict[str, Path]) -> None:
    intent, got, _ = _run("Which depots have more than 1 vehicle?", sidecars)
    assert (got, intent.count_groups) == ({"Hamburg": 3, "Munich": 2}, False)


def test_no_group_meeting_it_is_the_answer_zero(sidecars: dict[str, Path]) -> None:
    _, got, answer = _run("How many depots have more than 5 vehicles?", sidecars)
    assert got == 0 and "the groups: none" in answer


@pytest.mark.parametrize(
    ("question", "value", "measure"),
    [
        ("How many garages charged more than 1,000 euros in total?", 2, "cost_eur"),
        ("Which garages charged more than 1,000 euros in total?", {"Huber": 1300, "Nord": 1720}, "cost_eur"),
        ("How many depots have more than 100,000 km in total?", 2, "odometer_km"),
        ("Wie viele Depots kommen insgesamt auf mehr als 100.000 km?", 2, "odometer_km"),
    ],
)
def test_a_condition_on_a_total_per_group(
    sidecars: dict[str, Path], question: str, value: object, measure: str
) -> None:
    intent, got, _ = _run(question, sidecars)
    assert (intent.operation, intent.columns, got) == ("sum", (measure,), value)


def test_a_total_needs_a_total_word_and_one_table() -> None:
    jobs = Table("facts_jobs", "fleet", "jobs.csv", "maintenance log",
                 (Column("garage", "text", ("Nord", "Huber")), Column("cost_eur", "number")), 6)  # fmt: skip
    found = totalled_per_group("Which garages charged more than 1,000 euros in total?", "garage", [jobs])
    assert found is not None
    assert (found.column, found.measure, found.op, found.value) == ("garage", "cost_eur", "gt", 1000)
    assert totalled_per_group("Which garages charged more than 1,000 euros?", "garage", [jobs]) is None
    assert totalled_per_group("Which depots cost more than 1,000 euros in total?", "depot", [jobs]) is None


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Which vehicles have no fuel card?", ["V-1", "V-4"]),
        ("Welche Fahrzeuge haben keine Tankkarte?", ["V-1", "V-4"]),
        ("Quels véhicules n'ont pas de carte carburant ?", ["V-1", "V-4"]),
        ("How many vehicles have no fuel card?", 2),
        ("How many electric vehicles have no fuel card?", 2),
        ("How many diesel vehicles have no fuel card?", None),  # every diesel has one: nothing counted
    ],
)
def test_an_anti_join_on_differently_named_keys(sidecars: dict[str, Path], question: str, value: object) -> None:
    intent, got, answer = _run(question, sidecars)
    assert (intent.key, intent.other_key, got) == ("vehicle_id", "fahrzeug", value)
    if value is not None:
        assert "compared with its fahrzeug" in answer  # the answer says which columns were joined


def test_the_key_pair_is_the_one_whose_values_overlap_most() -> None:
    rows = {"vehicle_id": normalised(["V-1", "V-2", "V-3", "V-4"]), "depot": {"hamburg", "lyon"}}
    other = {"fahrzeug": normalised(["v-2", "V-3 "]), "standort": {"hamburg", "lyon"}, "since": {"2024-01-01", "x"}}
    assert overlapping_columns(rows, other, prefer="vehicle_id") == ("vehicle_id", "fahrzeug", 1.0)
    # one shared value is chance; dates never join
    assert overlapping_columns({"a": {"x", "y", "z"}}, {"b": {"x", "q", "r"}}) is None
    dated = {"2024-01-01", "2024-02-01"}
    assert overlapping_columns({"a": dated}, {"b": dated}) is None
    # a small overlap share of the smaller column is no key
    assert overlapping_columns({"a": {"1", "2", "3", "4", "5"}}, {"b": {"1", "2", "x", "y", "z"}}) is None


def test_the_catalogue_tells_the_pair_or_defers() -> None:
    vehicles = Table("facts_v", "fleet", "v.csv", "vehicles", (Column("vehicle_id", "text", ("V-1", "V-2", "V-3")),), 3)
    cards = Table("facts_c", "fleet", "c.csv", "fuel cards", (Column("fahrzeug", "text", ("V-2", "V-3")),), 2)
    unlisted = Table("facts_u", "fleet", "u.csv", "fuel cards", (Column("fahrzeug", "text", ()),), 90)
    noted = Table("facts_n", "fleet", "n.csv", "fuel cards", (Column("notes", "text", ()),), 12)  # long texts
    other = Table("facts_o", "fleet", "o.csv", "issuers", (Column("issuer", "text", ("Aral", "Shell")),), 2)
    assert catalogue_columns(vehicles, cards) == ("vehicle_id", "fahrzeug")
    assert catalogue_columns(vehicles, unlisted) == DEFER  # too many values to list: the loaded rows decide
    assert catalogue_columns(vehicles, other) is None
    assert catalogue_columns(vehicles, noted) is None  # 12 rows: an unlisted column there holds long texts


def test_clients_name_the_key_pair_or_leave_it_to_the_values(sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    vehicles = next(t.name for t in catalogue.tables if t.label == "vehicles")
    cards = next(t.name for t in catalogue.tables if t.label == "fuel cards")
    named = Intent("list", vehicles, absent_from=cards, key="vehicle_id", other_key="fahrzeug")
    left = Intent("count", vehicles, absent_from=cards)  # no key: read from the values
    assert execute(named, catalogue, sidecars, EVERYONE).value == ["V-1", "V-4"]
    result = execute(left, catalogue, sidecars, EVERYONE)
    assert (result.value, result.intent.key, result.intent.other_key) == (2, "vehicle_id", "fahrzeug")
    with pytest.raises(IntentRefused):
        execute(Intent("count", vehicles, absent_from=cards, key="vehicle_id"), catalogue, sidecars, EVERYONE)
    with pytest.raises(IntentRefused):  # counting groups needs the condition they meet
        execute(Intent("group_by", vehicles, group_by=("depot",), count_groups=True), catalogue, sidecars, EVERYONE)
    grouped = Intent("group_by", vehicles, group_by=("depot",), having=(Filter("value", "ge", 2),), count_groups=True)
    assert Intent.from_dict(grouped.to_dict()) == grouped
    assert execute(grouped, catalogue, sidecars, EVERYONE).value == 2


def test_keys_too_many_to_list_are_joined_from_the_rows(tmp_path: Path) -> None:
    # 45 assets: more distinct keys than the catalogue lists, so the parser leaves the pair to execution
    assets = [{"asset_tag": f"A-{n:03d}", "site": "ZRH" if n % 2 else "BSL"} for n in range(45)]
    scans = [{"scan_id": f"S-{n}", "tag": f"a-{n:03d}"} for n in range(45) if n % 9]  # 0, 9, 18, 27, 36 unscanned
    path = tmp_path / "fleet.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [_doc("sheets/assets.csv"), _doc("sheets/scans.csv")])
        write_fact_tables(db, "sheets/assets.csv", json.dumps({"assets": assets}))
        write_fact_tables(db, "sheets/scans.csv", json.dumps({"scans": scans}))
    intent, got, answer = _run("Which assets have no scans?", {"fleet": path})
    assert (intent.key, intent.other_key) == ("", "")
    assert got == ["A-000", "A-009", "A-018", "A-027", "A-036"]
    assert "asset_tag has no row in scans (sheets/scans.csv) (compared with its tag)" in answer
