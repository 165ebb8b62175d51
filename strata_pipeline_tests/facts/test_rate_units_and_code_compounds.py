""" "Der Einkaufspreis pro VE" names the price column `EK-Preis CHF/VE` by its unit, no grouping per VE; and a
two-letter code opening a German compound ("TK-Artikel") is that code's rows, as "A-Lieferanten" is class A."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline_tests.facts.sidecars import run, write_one_table

ARTICLES = [
    {"Art.-Nr.": 1, "Temp.-Klasse": "TK", "VE": "10 x 1 kg", "EK-Preis CHF/VE": 40.0},
    {"Art.-Nr.": 2, "Temp.-Klasse": "TK", "VE": "4 x 2,5 kg", "EK-Preis CHF/VE": 60.0},
    {"Art.-Nr.": 3, "Temp.-Klasse": "Kühl", "VE": "10 x 1 kg", "EK-Preis CHF/VE": 200.0},
]


@pytest.fixture
def articles(tmp_path: Path) -> dict[str, Path]:
    return write_one_table(tmp_path / "a.sqlite", "einkauf/artikelstamm.xlsx", "af", "Artikel", ARTICLES)


def test_per_the_unit_of_a_rate_column_is_no_grouping(articles: dict[str, Path]) -> None:
    result = run(
        "Wie hoch ist der durchschnittliche Einkaufspreis pro VE über alle TK-Artikel im Artikelstamm?", articles
    )
    assert result.intent.group_by == ()
    assert [(f.column, f.value) for f in result.intent.filters] == [("Temp.-Klasse", "TK")]
    assert result.value == pytest.approx(50.0)


def test_per_a_column_that_is_no_rates_unit_still_groups(articles: dict[str, Path]) -> None:
    result = run("Wie hoch ist der durchschnittliche EK-Preis je Temp.-Klasse?", articles)
    assert result.intent.group_by == ("Temp.-Klasse",)
