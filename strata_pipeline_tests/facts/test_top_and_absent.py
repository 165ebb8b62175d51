"""The top row per group ("the most expensive product in each category", en, de, fr) and rows of one
sheet with no matching row in another ("vehicles with no maintenance entry"), over a real sidecar."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from strata_pipeline.enrichment.sidecar import connect, write_documents, write_fact_tables
from strata_pipeline.facts import Intent, IntentRefused, execute, load_catalogue, parse
from strata_pipeline.facts.absence import absence, shared_key
from strata_pipeline.facts.intent import Filter
from strata_pipeline.routing.route import route

VEHICLES = [
    {"vehicle_id": "V-1", "depot": "Hamburg", "registered": "2023-03-14", "price_eur": 41500, "tow_hitch": "no"},
    {"vehicle_id": "V-2", "depot": "Hamburg", "registered": "2020-06-02", "price_eur": 38900, "tow_hitch": "yes"},
    {"vehicle_id": "V-3", "depot": "Munich", "registered": "2024-02-05", "price_eur": 56700, "tow_hitch": "no"},
    {"vehicle_id": "V-4", "depot": "Munich", "registered": "2018-04-17", "price_eur": 24300, "tow_hitch": "yes"},
    {"vehicle_id": "V-5", "depot": "Lyon", "registered": "2022-10-03", "price_eur": 29900, "tow_hitch": "yes"},
    {"vehicle_id": "V-6", "depot": "Lyon", "registered": "2024-07-22", "price_eur": 33100, "tow_hitch": "no"},
]
MAINTENANCE = [  # V-2 and V-3 twice, V-4, V-6 and one vehicle that is in no vehicle row (V-9)
    {"job_id": "MT-1", "vehicle_id": "V-2", "cost_eur": 420},
    {"job_id": "MT-2", "vehicle_id": "v-2", "cost_eur": 890},  # the key in another case still matches
    {"job_id": "MT-3", "vehicle_id": "V-3", "cost_eur": 760},
    {"job_id": "MT-4", "vehicle_id": "V-4", "cost_eur": 380},
    {"job_id": "MT-5", "vehicle_id": "V-6", "cost_eur": 310},
    {"job_id": "MT-6", "vehicle_id": "V-9", "cost_eur": 150},
    {"job_id": "MT-7", "vehicle_id": "V-3", "cost_eur": 95},
]
EVERYONE = frozenset({"fleet", "workshop"})


def _doc(doc_id: str, groups: list[str]) -> dict:
    return {"doc_id": doc_id, "source_set": "fleet", "project": "sheets", "extension": ".csv", "title": doc_id,
            "category": "sheets", "language": "en", "groups": groups, "decision": "include",
            "status": "ok"}  # fmt: skip


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("top-absent") / "fleet.sqlite"
    with closing(connect(path)) as db:
        write_documents(db, [_doc("sheets/vehicles.csv", ["fleet"]), _doc("sheets/maintenance-log.csv", ["workshop"])])
        write_fact_tables(db, "sheets/vehicles.csv", json.dumps({"vehicles": VEHICLES}))
        write_fact_tables(db, "sheets/maintenance-log.csv", json.dumps({"maintenance log": MAINTENANCE}))
    return {"fleet": path}


def _run(question: str, sidecars: dict[str, Path], groups: frozenset[str] = EVERYONE) -> tuple[Intent, object]:
    catalogue = load_catalogue(sidecars, groups)
    parsed = parse(question, catalogue)
    assert parsed.intent is not None, parsed
    return parsed.intent, execute(parsed.intent, catalogue, sidecars, groups).value


@pytest.mark.parametrize(
    ("question", "value"),
    [
        (
            "Which vehicle has the highest price in each depot?",
            {"Hamburg": ["V-1"], "Lyon": ["V-6"], "Munich": ["V-3"]},
        ),
        ("Welches Fahrzeug ist je Depot am günstigsten?", {"Hamburg": ["V-2"], "Lyon": ["V-5"], "Munich": ["V-4"]}),
        ("Quel est le véhicule le moins cher par depot ?", {"Hamburg": ["V-2"], "Lyon": ["V-5"], "Munich": ["V-4"]}),
        # a date measure: the latest or earliest date, never a total
        ("What is the newest vehicle per depot?", {"Hamburg": ["V-1"], "Lyon": ["V-6"], "Munich": ["V-3"]}),
        ("Which is the oldest vehicle in each depot?", {"Hamburg": ["V-2"], "Lyon": ["V-5"], "Munich": ["V-4"]}),
        ("Quel est le véhicule le plus récent par depot ?", {"Hamburg": ["V-1"], "Lyon": ["V-6"], "Munich": ["V-3"]}),
    ],
)
def test_the_top_row_per_group(sidecars: dict[str, Path], question: str, value: object) -> None:
    intent, got = _run(question, sidecars)
    assert (intent.operation in ("argmax", "argmin"), intent.per, intent.group_by) == (True, "depot", ("vehicle_id",))
    assert got == value


def test_one_best_without_a_group_is_unchanged(sidecars: dict[str, Path]) -> None:
    intent, got = _run("Which vehicle has the highest price?", sidecars)
    assert (intent.per, got) == ("", ["V-3"])


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Which vehicles have no maintenance entries?", ["V-1", "V-5"]),
        ("How many vehicles have no maintenance entries?", 2),
        ("Which vehicles are not in the maintenance log?", ["V-1", "V-5"]),
        ("Welche Fahrzeuge fehlen im Wartungsprotokoll?", ["V-1", "V-5"]),
        ("Quels véhicules n'ont aucune entrée dans le maintenance log ?", ["V-1", "V-5"]),
        # with a filter of its own: the Lyon vehicles with no maintenance entry
        ("Which vehicles in Lyon have no maintenance entry?", ["V-5"]),
    ],
)
def test_rows_with_no_match_in_another_sheet(sidecars: dict[str, Path], question: str, value: object) -> None:
    intent, got = _run(question, sidecars)
    assert (intent.table.endswith("vehicles"), intent.absent_from.endswith("maintenance_log"), intent.key) == (
        True,
        True,
        "vehicle_id",
    )
    assert got == value


def test_an_absence_routes_to_aggregation(sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    assert route("Which vehicles have no maintenance entries?", catalogue)[0].route == "aggregation"


def test_a_negated_column_is_no_absence(sidecars: dict[str, Path]) -> None:
    """ "no tow hitch" names a yes/no column, not another sheet: a filter, as before."""
    intent, got = _run("How many vehicles have no tow hitch?", sidecars)
    assert (intent.absent_from, got) == ("", 3)


def test_an_absence_needs_the_other_sheet_visible(sidecars: dict[str, Path]) -> None:
    """A caller who cannot read the maintenance log gets no anti-join over it: the name is unknown to the
    parser, and an intent naming it is refused."""
    catalogue = load_catalogue(sidecars, frozenset({"fleet"}))
    assert absence("Which vehicles have no maintenance entries?", catalogue.tables) is None
    vehicles = catalogue.tables[0].name
    other = "facts_sheets_maintenance_log_csv_maintenance_log"
    with pytest.raises(IntentRefused, match="No table"):
        execute(
            Intent("count", vehicles, absent_from=other, key="vehicle_id"), catalogue, sidecars, frozenset({"fleet"})
        )


def test_intents_from_clients_are_checked(sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    vehicles = next(t.name for t in catalogue.tables if t.name.endswith("vehicles"))
    log = next(t.name for t in catalogue.tables if t.name.endswith("maintenance_log"))
    assert shared_key(catalogue.named(vehicles)[0], catalogue.named(log)[0]) == "vehicle_id"
    for bad, why in [
        (Intent("count", vehicles, per="depot"), "'per' belongs"),
        (Intent("argmax", vehicles, group_by=("vehicle_id",), per="vehicle_id"), "'per' belongs"),
        (Intent("count", vehicles, absent_from=log, other_key="vehicle_id"), "needs 'key'"),
        (Intent("count", vehicles, absent_from=log, key="depot"), "Unknown column 'depot'"),
        (Intent("argmax", vehicles, ("depot",), group_by=("vehicle_id",)), "numeric column or"),
        (Intent("count", vehicles, having=(Filter("value", "gt", 1.0),)), "'having' belongs"),
        (Intent("group_by", vehicles, group_by=("depot",), having=(Filter("depot", "gt", 1.0),)), "compares column"),
    ]:
        with pytest.raises(IntentRefused, match=why):
            execute(bad, catalogue, sidecars, EVERYONE)
    # the other way round: maintenance rows whose vehicle is in no vehicle row
    orphan = Intent("list", log, ("job_id",), absent_from=vehicles, key="vehicle_id")
    assert execute(orphan, catalogue, sidecars, EVERYONE).value == ["MT-6"]
    data = Intent.from_dict({"operation": "argmin", "table": vehicles, "columns": ["price_eur"],
                             "group_by": ["vehicle_id"], "per": "tow_hitch"})  # fmt: skip
    assert execute(data, catalogue, sidecars, EVERYONE).value == {"no": ["V-6"], "yes": ["V-4"]}


def test_a_list_per_group(sidecars: dict[str, Path]) -> None:
    """A list with a grouping names the values within each group (it used to fail with a KeyError)."""
    catalogue = load_catalogue(sidecars, EVERYONE)
    vehicles = next(t.name for t in catalogue.tables if t.name.endswith("vehicles"))
    listed = Intent("list", vehicles, ("vehicle_id",), group_by=("depot",))
    assert execute(listed, catalogue, sidecars, EVERYONE).value == {
        "Hamburg": ["V-1", "V-2"], "Lyon": ["V-5", "V-6"], "Munich": ["V-3", "V-4"]}  # fmt: skip


def test_a_measure_no_column_holds_is_refused(sidecars: dict[str, Path]) -> None:
    """ "the average fuel consumption": no number column measures it, so no intent, and the answer must state
    those words or abstain (`unplaced`)."""
    parsed = parse("What is the average fuel consumption of the Lyon vehicles?", load_catalogue(sidecars, EVERYONE))
    assert (parsed.intent, parsed.unplaced) == (None, "fuel consumption")
    assert "names no number column" in parsed.why


def test_a_minimum_names_the_rows_that_hold_it(sidecars: dict[str, Path]) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    parsed = parse("What is the lowest price in Munich?", catalogue)
    assert parsed.intent is not None
    result = execute(parsed.intent, catalogue, sidecars, EVERYONE)
    assert (result.value, result.answer.endswith("Held by V-4.")) == (24300, True)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("Welche SKUs der Preisliste fehlen?", "Welche SKUs der price list fehlen?"),
        ("im Wartungsprotokoll", "im maintenance log"),
        ("die Wartungskosten", "die maintenance costs"),
        ("der Durchschnittspreis", "der average price"),
        ("die Warteliste", "die Warteliste"),  # "warte" is no data word: the compound stays as written
        ("alle Standorte", "all sites"),  # a data word itself is not split
    ],
)
def test_german_compounds_of_data_words(written: str, read: str) -> None:
    from strata_pipeline.facts.vocabulary import gloss

    assert gloss(written) == read


def test_a_city_named_in_german(sidecars: dict[str, Path]) -> None:
    """ "im Depot München" names the stored value Munich (a city's English name)."""
    intent, got = _run("Wie viele Fahrzeuge stehen im Depot München?", sidecars)
    assert ([(f.column, f.value) for f in intent.filters], got) == ([("depot", "Munich")], 2)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # groups are told apart as written: "v-2" is a group of its own, as in any count per group
        ("Which vehicles had more than one maintenance job?", {"V-3": 2}),
        ("Welche Depots haben mindestens zwei Fahrzeuge?", {"Hamburg": 2, "Lyon": 2, "Munich": 2}),
        ("Quels véhicules ont plus de zéro entrées dans le maintenance log ?", None),  # "zéro" is no number word
    ],
)
def test_a_condition_on_a_count_per_group(sidecars: dict[str, Path], question: str, value: object) -> None:
    catalogue = load_catalogue(sidecars, EVERYONE)
    parsed = parse(question, catalogue)
    if value is None:
        assert parsed.intent is None or not parsed.intent.having
        return
    assert parsed.intent is not None and parsed.intent.having
    assert execute(parsed.intent, catalogue, sidecars, EVERYONE).value == value


def test_the_longest_measures_the_one_duration_column() -> None:
    from strata_pipeline.facts.catalogue import Column, Table
    from strata_pipeline.facts.ranking import lasting_columns

    columns = (Column("course_id", "text"), Column("duration_days", "number"), Column("price_eur", "number"))
    courses = Table("courses", "learning", "courses.csv", "courses", columns, 3)
    assert lasting_columns("Welcher Kurs dauert je Kategorie am längsten?", courses, set()) == ["duration_days"]
    assert lasting_columns("Quel cours est le plus court ?", courses, set()) == ["duration_days"]
    assert lasting_columns("Which course is the most expensive?", courses, set()) == []  # no time extreme
    two = Table("t", "s", "t.csv", "t", (*columns, Column("response_time_h", "number")), 3)
    assert lasting_columns("Which is the longest?", two, set()) == []  # two durations: none is chosen


def test_a_column_only_one_table_has_names_it(sidecars: dict[str, Path]) -> None:
    """ "the highest price" names price_eur in full, and only the vehicles sheet has it: an aggregation, as
    if the sheet were named; a column both sheets hold (vehicle_id) names neither."""
    catalogue = load_catalogue(sidecars, EVERYONE)
    routing, parsed = route("What is the highest price?", catalogue)
    assert (routing.route, parsed.intent.columns if parsed.intent else ()) == ("aggregation", ("price_eur",))
    assert execute(parsed.intent, catalogue, sidecars, EVERYONE).value == 56700  # type: ignore[arg-type]
    from strata_pipeline.facts.own_column import own_column

    tables = list(catalogue.tables)
    assert own_column("vehicle_id", "the distinct vehicle ids", tables) is False  # both sheets hold it
    assert own_column("price_eur", "the highest price", tables) is True
    # two words no column holds: a condition the sheet cannot apply, so no figure over every row
    assert own_column("price_eur", "the total price of the leased company cars", tables) is False
