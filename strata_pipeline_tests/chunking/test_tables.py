"""The summary of a spreadsheet table that its header child carries."""

from __future__ import annotations

import pytest

from strata_pipeline.chunking.tables import (
    MAX_CATEGORIES,
    categorical_columns,
    lines_above,
    row_cells,
    rows_above,
    rows_below,
    table_summary,
)


def test_row_cells_read_bare_and_markdown_rows() -> None:
    assert row_cells("a | b | c") == ["a", "b", "c"]
    assert row_cells("| a | b |") == ["a", "b"]


def test_categorical_columns_keep_repeated_short_values_in_first_seen_order() -> None:
    header = "hostname | site | patch_wave | notes"
    rows = [
        "h1 | ZRH | wave1 | replaced disk in March",
        "h2 | BSL | wave2 | ",
        "h3 | ZRH | wave1 | moved to rack 4",
        "h4 | ZRH | wave2 | ",
    ]
    assert categorical_columns(header, rows) == [("site", ["ZRH", "BSL"]), ("patch wave", ["wave1", "wave2"])]
    assert table_summary(header, rows) == "site: ZRH, BSL; patch wave: wave1, wave2"


def test_a_column_with_a_value_per_row_or_too_many_values_is_not_categorical() -> None:
    rows = [f"id-{i} | {'A' if i % 2 else 'B'} | {i % (MAX_CATEGORIES + 1)}" for i in range(40)]
    assert categorical_columns("id | kind | bucket", rows) == [("kind", ["B", "A"])]


@pytest.mark.parametrize(
    "rows",
    [
        [],  # a header alone
        ["x | y"],  # one row: nothing repeats
        [
            "a very long value that is more like a sentence than a category | 1",
            "a very long value that is more like a sentence than a category | 2",
        ],
    ],
)
def test_no_summary_without_a_categorical_column(rows: list[str]) -> None:
    assert table_summary("name | value", rows) == ""


def test_rows_below_stop_at_the_first_line_that_is_not_a_row() -> None:
    text = "h | v\na | 1\nb | 2\n\n## next\nc | 3"
    assert rows_below(text, len("h | v"), lambda line: " | " in line) == ["a | 1", "b | 2"]


def test_lines_above_walk_up_from_a_line_start_nearest_first() -> None:
    text = "## Sheet\nh | v\n\na | 1\nb | 2"
    assert list(lines_above(text, text.index("b | 2"))) == ["a | 1", "", "h | v", "## Sheet"]
    assert list(lines_above(text, 0)) == []  # the first line has none above it


def is_rendered_row(line: str) -> bool:
    return " | " in line


@pytest.mark.parametrize(
    ("lines", "rows", "above"),
    [
        (["b | 2", "a | 1", "h | v", "## Sheet", "intro"], ["h | v", "a | 1", "b | 2"], "## Sheet"),  # header first
        (["b | 2", "h | v"], ["h | v", "b | 2"], None),  # the rows reach the top of the text
        (["## Sheet", "h | v"], [], "## Sheet"),  # the line is the table's first row
        ([], [], None),
    ],
)
def test_rows_above_read_up_to_the_first_other_line_and_name_it(
    lines: list[str], rows: list[str], above: str | None
) -> None:
    assert rows_above(iter(lines), is_rendered_row) == (rows, above)
