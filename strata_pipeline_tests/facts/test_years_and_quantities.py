"""A year a table does not cover is refused, not answered from another year's rows; and "the number of X"
measures X, not a column called "number"."""

from __future__ import annotations

from strata_pipeline.facts.catalogue import Column, Table
from strata_pipeline.facts.periods import named_years, years_in
from strata_pipeline.facts.qualities import measure_phrase
from strata_pipeline.facts.years import uncovered_year


def _holidays(
    doc_id: str = "hr/public-holidays-2025.csv", dates: tuple[str, ...] = ("2025-10-03", "2025-12-26")
) -> Table:
    columns = (Column("date", "text", dates), Column("holiday", "text", ("German Unity Day", "Boxing Day")))
    return Table("facts_holidays", "handbook", doc_id, "public-holidays", columns, len(dates))


def test_named_years_are_years_on_their_own() -> None:
    assert named_years("Which holidays in 2026, and in 2025?") == ["2026", "2025"]
    assert named_years("Does it change on 2025-03-01, for v2025, ISO 9001 or 2,000,000 €?") == []
    assert years_in("2025-12-26 | x | tariffs-2026.csv | 120191") == {"2025", "2026"}


def test_a_year_outside_the_tables_dates_and_name_is_refused() -> None:
    assert uncovered_year("Which holidays does Munich observe in 2026?", _holidays()) == (
        "names 2026, but the table covers only 2025"
    )
    assert uncovered_year("Which holidays does Munich observe in 2025?", _holidays()) == ""
    # the file name alone speaks for its year; a table with neither dates nor a dated name cannot tell
    undated = Table("facts_p", "s", "sales/prices.csv", "prices", (Column("sku", "text", ("A",)),), 1)
    assert uncovered_year("What did A cost in 2019?", undated) == ""
    named = Table("facts_p", "s", "sales/prices-2024.csv", "prices", (Column("sku", "text", ("A",)),), 1)
    assert uncovered_year("What did A cost in 2019?", named) == "names 2019, but the table covers only 2024"


def test_the_number_of_a_thing_measures_the_thing() -> None:
    assert measure_phrase("What is the maximum number of robots per site?", "max") == "robots"
    assert measure_phrase("What is the highest fuel consumption of a van?", "max") == "fuel consumption"
