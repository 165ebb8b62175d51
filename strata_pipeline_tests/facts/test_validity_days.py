"""A validity date said as lapsed or still running on a day ("out of warranty on 1 April 2025", "noch gültig
am 01.04.2025"): a condition on the date column named, before or from that day."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import load_catalogue, parse
from strata_pipeline.facts.validity import validity_conditions
from strata_pipeline_tests.facts.sidecars import run, write_one_table

DEVICES = [
    {"Asset ID": "SC-1", "Device type": "Handheld scanner", "Warranty until": "18.05.2025", "Status": "in use"},
    {"Asset ID": "SC-2", "Device type": "Handheld scanner", "Warranty until": "11.03.2024", "Status": "in use"},
    {"Asset ID": "SC-3", "Device type": "Handheld scanner", "Warranty until": "07.02.2024", "Status": "retired"},
    {"Asset ID": "SC-4", "Device type": "Handheld scanner", "Warranty until": "31.03.2025", "Status": "in repair"},
    {"Asset ID": "NB-1", "Device type": "Laptop", "Warranty until": "01.04.2025", "Status": "in use"},
    {"Asset ID": "NB-2", "Device type": "Laptop", "Warranty until": "04.09.2024", "Status": "in use"},
]


@pytest.fixture
def inventory(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "i.sqlite", "it/it-inventory.csv", "it", "it-inventory", DEVICES)


def test_out_of_warranty_on_a_day_is_before_that_day(inventory: dict[str, Path]) -> None:
    result = run("How many handheld scanners were out of warranty on 1 April 2025?", inventory)
    assert ("Warranty until", "lt", "2025-04-01") in [(f.column, f.op, f.value) for f in result.intent.filters]
    assert result.value == 3  # SC-2, SC-3, SC-4 (the 31 March one had lapsed by 1 April)


def test_not_counting_a_value_leaves_its_rows_out(inventory: dict[str, Path]) -> None:
    result = run(
        "How many of our handheld scanners, not counting retired ones, were already out of warranty on 1 April 2025?",
        inventory,
    )
    assert result.value == 2  # SC-2 and SC-4


def test_still_under_warranty_on_a_day_is_from_that_day(inventory: dict[str, Path]) -> None:
    result = run("How many laptops are still under warranty on 2025-04-01?", inventory)
    assert result.value == 1  # NB-1: its warranty runs to that very day


@pytest.mark.parametrize(
    ("question", "op"),
    [
        ("welche geräte waren am 2025-04-01 nicht mehr in der garantie", None),  # the day before the state: not read
        ("welche geräte sind nicht mehr in der garantie am 2025-04-01", "lt"),
        ("quels appareils sont hors garantie au 2025-04-01", "lt"),
        ("which devices are still under warranty as of 2025-04-01", "ge"),
        ("which devices were bought on 2025-04-01", None),  # no state said: a plain date, read elsewhere
    ],
)
def test_the_state_words_in_three_languages(question: str, op: str | None) -> None:
    found, _ = validity_conditions(question, "Warranty until")
    assert [f.op for f in found] == ([op] if op else [])


SUPPLIERS = [
    {"Lief.-Nr.": "L-1", "Firma": "Donau Fisch GmbH", "IFS/BRC gültig bis": "30.04.2025"},
    {"Lief.-Nr.": "L-2", "Firma": "Gelati Ticino SA", "IFS/BRC gültig bis": "31.05.2025"},
    {"Lief.-Nr.": "L-3", "Firma": "Bodensee AG", "IFS/BRC gültig bis": "31.01.2026"},
]


def test_a_noun_before_a_columns_name_says_what_the_column_is(tmp_path: Path) -> None:
    # "un certificat IFS/BRC": "certificat" is no quality the rows have, it is what `IFS/BRC gültig bis` holds
    sheet = write_one_table(tmp_path / "l.sqlite", "einkauf/lieferanten.csv", "af", "lieferanten", SUPPLIERS)
    result = run("Quels fournisseurs ont un certificat IFS/BRC qui expire avant le 30 juin 2025 ?", sheet)
    assert result.value == ["Donau Fisch GmbH", "Gelati Ticino SA"]
    refused = parse("Quels fournisseurs ont un certificat bio ?", load_catalogue(sheet, None))
    assert refused.intent is None and "certificat" in refused.why  # no column named after it: still refused
