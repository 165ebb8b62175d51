"""Table rows read as records, markdown and rendered from spreadsheets."""

from strata_pipeline.answering.table_text import (
    as_record,
    cells,
    header_hint,
    is_header_row,
    record_cells,
    row_with_header,
)

RENDERED = "## vlan-plan\nsite | vlan_id | notes\nSTG | 310 | EAP-TLS\nSTG | 360 |"
MARKDOWN = "| Day | Hours |\n|---|---|\n| Saturday | 09:00 |"


def _line(text: str, number: int) -> tuple[int, int, str]:
    start = sum(len(line) + 1 for line in text.split("\n")[:number])
    line = text.split("\n")[number]
    return start, start + len(line), line


def test_cells_of_markdown_and_rendered_rows_keep_an_empty_last_cell_of_a_rendered_row() -> None:
    assert cells("| a | b |") == ["a", "b"]
    assert cells("a | b") == ["a", "b"]
    assert cells("STG | 360 |") == ["STG", "360", ""]


def test_rendered_rows_are_read_with_their_header_and_the_header_is_no_row() -> None:
    start, end, header = _line(RENDERED, 1)
    assert is_header_row(RENDERED, start, end, spreadsheet=True)
    assert row_with_header(RENDERED, start, header, spreadsheet=True) is None
    start, end, row = _line(RENDERED, 2)
    assert not is_header_row(RENDERED, start, end, spreadsheet=True)
    assert row_with_header(RENDERED, start, row, spreadsheet=True) == "site: STG; vlan_id: 310; notes: EAP-TLS"
    start, _, row = _line(RENDERED, 3)
    assert (
        row_with_header(RENDERED, start, row, spreadsheet=True) == "site: STG; vlan_id: 360"
    )  # the empty cell left out


def test_markdown_rows_are_read_with_the_header_above_the_separator() -> None:
    start, end, _ = _line(MARKDOWN, 0)
    assert is_header_row(MARKDOWN, start, end)
    start, _, row = _line(MARKDOWN, 2)
    assert row_with_header(MARKDOWN, start, row) == "Day: Saturday; Hours: 09:00"


def test_a_row_cut_off_from_its_header_reads_the_header_its_chunk_carries() -> None:
    passage = "STG | 310 | EAP-TLS"
    hint = header_hint("vlan-plan\nsite | vlan_id | notes")
    assert hint == "site | vlan_id | notes"
    assert header_hint("vlan-plan\nsite: STG, ZRH") == ""  # a header row's own context: values, no header
    assert row_with_header(passage, 0, passage, hint, spreadsheet=True) == "site: STG; vlan_id: 310; notes: EAP-TLS"
    assert row_with_header(passage, 0, passage, spreadsheet=True) is None
    assert row_with_header("Plain prose | with a bar.", 0, "Plain prose | with a bar.") is None


def test_rows_of_a_document_table_are_not_read_with_an_inferred_header() -> None:
    """docx and HTML tables render alike, but their first row may be data ("Phone | 0711 …" under
    "## Contact"): only a spreadsheet's first row is its header."""
    contact = "## Contact\nPhone | 0711 123\nHours | 8-17"
    start, end, first = _line(contact, 1)
    assert not is_header_row(contact, start, end)
    assert row_with_header(contact, start, first) is None
    start, _, second = _line(contact, 2)
    assert row_with_header(contact, start, second) is None


def test_a_prose_line_with_bars_is_split_into_sentences_and_a_spreadsheet_row_is_not() -> None:
    from strata_pipeline.answering.sentences import split_sentences

    prose = "The buddy programme lasts six weeks. Security training comes first. (note) .- ... | .. -. ...- | - .... ."
    assert next(prose[a:b] for a, b in split_sentences(prose)) == "The buddy programme lasts six weeks."
    row = "Hans-Böckler-Str. 12 | Aarlingen | Mo. 8:00"
    assert [row[a:b] for a, b in split_sentences(row, spreadsheet=True)] == [row]


def test_a_record_is_read_back_into_its_cells_without_the_title_before_it() -> None:
    row = "adjuster-fees: band: M2; line: motor; claim_value_to_eur: 25000"
    assert record_cells(row) == [("band", "M2"), ("line", "motor"), ("claim_value_to_eur", "25000")]
    assert record_cells(as_record(["town", "price_eur"], ["Colmont", "2.07"])) == [
        ("town", "Colmont"), ("price_eur", "2.07")
    ]  # fmt: skip
    assert record_cells("No cells in this sentence.") == []
