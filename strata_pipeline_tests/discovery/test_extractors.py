"""Text extraction per format, on real files built in the test (python-docx, fpdf2, xlsxwriter)."""

from __future__ import annotations

import io

import docx
import polars as pl
import pytest
import xlsxwriter
from fpdf import FPDF

from strata_pipeline.discovery.extractors import (
    PAGE_BREAK,
    ExtractionError,
    PageSpan,
    decode_text,
    extract,
    extract_docx,
    extract_pdf,
)


def docx_bytes() -> bytes:
    document = docx.Document()
    document.add_heading("Travel Policy", level=1)
    document.add_paragraph("Book trains when the trip is under four hours.")
    document.add_heading("Limits", level=2)
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "a"
    table.cell(0, 1).text = "b"
    table.cell(1, 0).text = "c"
    table.cell(1, 1).text = "d"
    document.add_paragraph("")  # empty paragraphs are dropped
    document.add_paragraph("After the table.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


PAGE_1 = "First page text about calibration."
PAGE_2 = "Second page about torque settings."


def pdf_bytes() -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    pdf.add_page()
    pdf.cell(text=PAGE_1)
    pdf.add_page()
    pdf.cell(text=PAGE_2)
    return bytes(pdf.output())


def xlsx_bytes() -> bytes:
    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer)
    stock = workbook.add_worksheet("Stock")
    stock.write_row(0, 0, ["sku", "qty", "price"])
    stock.write_row(1, 0, ["RX-200", 5, 1.5])
    stock.write_row(2, 0, ["RX-300", 7, 2.25])
    warehouses = workbook.add_worksheet("Warehouses")
    warehouses.write_row(0, 0, ["name", "city"])
    warehouses.write_row(1, 0, ["North", "Oslo"])
    workbook.close()
    return buffer.getvalue()


# --- decode_text --------------------------------------------------------------------------


def test_decode_plain_utf8() -> None:
    assert decode_text("Grüße, café".encode()) == ("Grüße, café", "utf-8")


def test_decode_utf8_bom_is_stripped() -> None:
    assert decode_text(b"\xef\xbb\xbfhello") == ("hello", "utf-8-sig")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_decode_utf16_with_bom(codec: str) -> None:
    bom = b"\xff\xfe" if codec == "utf-16-le" else b"\xfe\xff"
    data = bom + "Größe: 5 mm".encode(codec)
    assert decode_text(data) == ("Größe: 5 mm", "utf-16")


def test_decode_falls_back_to_cp1252() -> None:
    assert decode_text(b"caf\xe9 costs \x80 5") == ("café costs € 5", "cp1252")


def test_nul_bytes_without_utf16_bom_are_binary() -> None:
    with pytest.raises(ExtractionError) as info:
        decode_text(b"\x00\x01\x02\x89PNG\x00\x00 not text")
    assert info.value.code == "binary_content"


def test_bytes_undefined_in_cp1252_are_a_decode_error() -> None:
    with pytest.raises(ExtractionError) as info:
        decode_text(b"abc \x81\x8d")  # invalid UTF-8 and undefined in cp1252
    assert info.value.code == "decode_error"


def test_plain_text_normalises_crlf() -> None:
    extraction = extract(b"line one\r\nline two\r\n", "notes.txt")
    assert extraction.text == "line one\nline two\n"
    assert (extraction.kind, extraction.encoding) == ("text", "utf-8")


# --- docx ----------------------------------------------------------------------------------


def test_docx_headings_become_markdown_and_table_rows_are_joined() -> None:
    extraction = extract(docx_bytes(), "policy.docx")
    assert extraction.kind == "text"
    assert extraction.encoding == "docx"
    assert extraction.text == (
        "# Travel Policy\n\n"
        "Book trains when the trip is under four hours.\n\n"
        "## Limits\n\n"
        "a | b\n\n"
        "c | d\n\n"
        "After the table."
    )


def test_non_zip_docx_is_corrupt_docx() -> None:
    with pytest.raises(ExtractionError) as info:
        extract(b"this is plain text wearing a .docx name", "not-really.docx")
    assert info.value.code == "corrupt_docx"


def test_extract_docx_directly_on_a_truncated_package() -> None:
    with pytest.raises(ExtractionError) as info:
        extract_docx(docx_bytes()[:200])
    assert info.value.code == "corrupt_docx"


# --- pdf -----------------------------------------------------------------------------------


def test_pdf_pages_are_joined_by_form_feed_and_spans_point_at_each_page() -> None:
    extraction = extract(pdf_bytes(), "guide.pdf")
    assert extraction.kind == "text"
    assert extraction.encoding == "pdf"
    assert extraction.text == PAGE_1 + PAGE_BREAK + PAGE_2
    assert PAGE_BREAK == "\n\f\n"
    second_start = len(PAGE_1) + len(PAGE_BREAK)
    assert extraction.pages == [
        PageSpan(page=1, start=0, end=len(PAGE_1)),
        PageSpan(page=2, start=second_start, end=second_start + len(PAGE_2)),
    ]
    for span, expected in zip(extraction.pages, (PAGE_1, PAGE_2), strict=True):
        assert extraction.text[span.start : span.end] == expected


def test_truncated_pdf_is_corrupt_pdf() -> None:
    with pytest.raises(ExtractionError) as info:
        extract_pdf(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R")
    assert info.value.code == "corrupt_pdf"


def test_pdf_cut_in_half_is_corrupt_pdf() -> None:
    data = pdf_bytes()
    with pytest.raises(ExtractionError) as info:
        extract(data[: len(data) // 3], "half.pdf")
    assert info.value.code == "corrupt_pdf"


# --- tables --------------------------------------------------------------------------------


def test_csv_is_a_typed_table_named_after_the_file() -> None:
    extraction = extract(b"sku,qty,price\nA,1,2.5\nB,3,4.0\n", "inventory.csv")
    assert extraction.kind == "table"
    assert extraction.encoding == "utf-8"
    assert list(extraction.tables) == ["inventory"]
    frame = extraction.tables["inventory"]
    assert frame.schema == pl.Schema({"sku": pl.String(), "qty": pl.Int64(), "price": pl.Float64()})
    assert frame.rows() == [("A", 1, 2.5), ("B", 3, 4.0)]
    assert extraction.text == "## inventory\nsku | qty | price\nA | 1 | 2.5\nB | 3 | 4.0"


def test_xlsx_two_sheets_are_two_typed_tables() -> None:
    extraction = extract(xlsx_bytes(), "inventory.xlsx")
    assert extraction.kind == "table"
    assert extraction.encoding == "xlsx"
    assert list(extraction.tables) == ["Stock", "Warehouses"]
    stock = extraction.tables["Stock"]
    assert stock.schema == pl.Schema({"sku": pl.String(), "qty": pl.Int64(), "price": pl.Float64()})
    assert stock.rows() == [("RX-200", 5, 1.5), ("RX-300", 7, 2.25)]
    assert extraction.tables["Warehouses"].rows() == [("North", "Oslo")]
    assert extraction.text == (
        "## Stock\nsku | qty | price\nRX-200 | 5 | 1.5\nRX-300 | 7 | 2.25\n\n## Warehouses\nname | city\nNorth | Oslo"
    )


def test_broken_xlsx_is_corrupt_table() -> None:
    with pytest.raises(ExtractionError) as info:
        extract(b"PK\x03\x04 not a workbook", "broken.xlsx")
    assert info.value.code == "corrupt_table"


# --- dispatch ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["image.png", "Makefile", "archive.tar.gz"])
def test_unsupported_extension(name: str) -> None:
    with pytest.raises(ExtractionError) as info:
        extract(b"some bytes", name)
    assert info.value.code == "unsupported_format"


def test_extension_match_is_case_insensitive() -> None:
    assert extract(b"# Title\n", "README.MD").text == "# Title\n"


@pytest.mark.parametrize("name", ["empty.md", "empty.pdf", "empty.docx", "empty.csv"])
def test_empty_file(name: str) -> None:
    with pytest.raises(ExtractionError) as info:
        extract(b"", name)
    assert info.value.code == "empty_file"
    assert info.value.message == "File is empty (0 bytes)."
