"""Text extraction per format, on real files built in the test (python-docx, fpdf2, pypdf, xlsxwriter)."""

from __future__ import annotations

import inspect
import io
import json
import pickle
import zipfile

import docx
import polars as pl
import pytest
import xlsxwriter
from fpdf import FPDF
from PIL import Image
from pypdf import PdfReader, PdfWriter

from strata_pipeline.discovery.extractors.dispatch import EXTRACTORS, extract
from strata_pipeline.discovery.extractors.encodings import decode_text
from strata_pipeline.discovery.extractors.extraction import (
    PAGE_BREAK,
    Extraction,
    ExtractionError,
    ExtractLimits,
    PageSpan,
)
from strata_pipeline.discovery.extractors.office import extract_docx
from strata_pipeline.discovery.extractors.pdf import extract_pdf


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
    assert decode_text(data) == ("Größe: 5 mm", codec)


def test_decode_falls_back_to_cp1252() -> None:
    assert decode_text(b"caf\xe9 costs \x80 5") == ("café costs € 5", "cp1252")


def test_nul_bytes_without_utf16_bom_are_binary() -> None:
    with pytest.raises(ExtractionError) as info:
        decode_text(b"\x00\x01\x02\x89PNG\x00\x00 not text")
    assert info.value.code == "binary_content"


def test_bytes_undefined_in_cp1252_are_invalid_encoding() -> None:
    with pytest.raises(ExtractionError) as info:
        decode_text(b"abc \x81\x8d")  # invalid UTF-8 and undefined in cp1252
    assert info.value.code == "invalid_encoding"
    assert "not UTF-8/UTF-16 and not plausible cp1252 text" in info.value.message
    assert "0x81 at offset 4" in info.value.message


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


def test_pdf_title_and_numbered_section_lines_become_headings() -> None:
    """PDF text has no heading markup; numbered section lines and the first page's title line are
    marked as markdown headings so chunks get a heading path. Numbered steps stay list items."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    lines = [
        "RX-200 User Guide",
        "This guide explains how to install the arm.",
        "1. Unpacking and Mounting",
        "Mount the base with four bolts tightened to 45 Nm.",
        "2.1 Torque Values",
        "1. Connect the robot cable to the controller.",
        "2. Tap Power On, then Brake Release and wait for every joint to click once",
        "10 Nm",
    ]
    for line in lines:
        pdf.cell(text=line, new_x="LMARGIN", new_y="NEXT")
    pdf.add_page()
    pdf.cell(text="Short Second Page Line", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(text="5. Maintenance", new_x="LMARGIN", new_y="NEXT")
    extraction = extract(bytes(pdf.output()), "guide.pdf")
    first, second = extraction.text.split(PAGE_BREAK)
    assert first.splitlines() == [
        "# RX-200 User Guide",
        "This guide explains how to install the arm.",
        "## 1. Unpacking and Mounting",
        "Mount the base with four bolts tightened to 45 Nm.",
        "### 2.1 Torque Values",
        "1. Connect the robot cable to the controller.",  # ends a sentence: a step
        "2. Tap Power On, then Brake Release and wait for every joint to click once",  # a comma inside
        "10 Nm",  # no dot after the number: a value
    ]
    assert second.splitlines() == ["Short Second Page Line", "## 5. Maintenance"]  # a title only on page 1
    assert extraction.text[extraction.pages[1].start : extraction.pages[1].end] == second


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


def test_csv_number_columns_that_write_a_leading_zero_stay_text() -> None:
    data = b"plz,phone,qty,share\n01067,0711123456,1,0.5\n80331,0891234567,12,1.5\n"
    frame = extract(data, "sites.csv").tables["sites"]
    assert frame.schema == pl.Schema(
        {"plz": pl.String(), "phone": pl.String(), "qty": pl.Int64(), "share": pl.Float64()}
    )
    assert frame.rows() == [("01067", "0711123456", 1, 0.5), ("80331", "0891234567", 12, 1.5)]


def test_csv_text_shows_cells_as_the_file_writes_them_and_tables_keep_typed_values() -> None:
    data = b"item,price,rate\nParking,10.90,1.50\nPermit,3.00,0.05\n"
    extraction = extract(data, "fees.csv")
    assert extraction.text == "## fees\nitem | price | rate\nParking | 10.90 | 1.50\nPermit | 3.00 | 0.05"
    assert extraction.tables["fees"].rows() == [("Parking", 10.9, 1.5), ("Permit", 3.0, 0.05)]


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


# --- helpers for the formats added later ---------------------------------------------------


def error_of(data: bytes, name: str, limits: ExtractLimits | None = None) -> ExtractionError:
    with pytest.raises(ExtractionError) as info:
        extract(data, name, limits or ExtractLimits())
    return info.value


def image_page(pdf: FPDF) -> None:
    """A page carrying only a picture: no text layer, as a scanner would produce."""
    pdf.add_page()
    pdf.image(Image.new("RGB", (120, 60), (180, 40, 40)), x=10, y=10, w=90)


def text_pdf(texts: list[str | None]) -> bytes:
    """One page per entry: a line of text, or (None) an image-only page."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for text in texts:
        if text is None:
            image_page(pdf)
        else:
            pdf.add_page()
            pdf.cell(text=text)
    return bytes(pdf.output())


def encrypted(data: bytes, user_password: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user_password, owner_password="owner-secret")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def zip_with(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


# --- text encodings ------------------------------------------------------------------------


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_text_file_with_crlf(codec: str) -> None:
    bom = "\ufeff".encode(codec)
    extraction = extract(bom + "Größe\r\nzweite Zeile\r\n".encode(codec), "notes.txt")
    assert (extraction.text, extraction.encoding, extraction.warnings) == ("Größe\nzweite Zeile\n", codec, [])


def test_utf8_bom_text_file() -> None:
    extraction = extract(b"\xef\xbb\xbfcaf\xc3\xa9", "notes.txt")
    assert (extraction.text, extraction.encoding, extraction.warnings) == ("café", "utf-8-sig", [])


def test_cp1252_cafe_is_decoded_with_a_fallback_warning() -> None:
    extraction = extract("Le café coûte 3 €.\r\n".encode("cp1252"), "menu.txt")
    assert extraction.text == "Le café coûte 3 €.\n"
    assert extraction.encoding == "cp1252"
    assert extraction.warnings == ["encoding_fallback:cp1252"]


@pytest.mark.parametrize("byte", [b"\x81", b"\x8d", b"\x8f", b"\x90", b"\x9d"])
def test_bytes_undefined_in_cp1252_make_invalid_encoding(byte: bytes) -> None:
    error = error_of(b"caf\xe9 " + byte + b" more text", "notes.md")
    assert error.code == "invalid_encoding"
    assert "not UTF-8/UTF-16 and not plausible cp1252 text" in error.message


def test_many_control_characters_are_not_plausible_cp1252() -> None:
    data = b"caf\xe9" + b"\x01\x02\x03" + b"x" * 100  # 3 of 107 characters are controls: over 1%
    error = error_of(data, "notes.txt")
    assert error.code == "invalid_encoding"
    assert "2.8% of its characters are control characters" in error.message


def test_one_percent_of_control_characters_is_still_text() -> None:
    data = b"caf\xe9\x1b" + b"x" * 95  # exactly 1 of 100
    assert extract(data, "notes.txt").encoding == "cp1252"


def test_tab_newline_carriage_return_and_form_feed_are_not_control_noise() -> None:
    data = b"caf\xe9\t\r\n\f" * 20
    assert extract(data, "notes.txt").warnings == ["encoding_fallback:cp1252"]


def test_utf8_bom_followed_by_invalid_utf8_is_invalid_encoding() -> None:
    assert error_of(b"\xef\xbb\xbfcaf\xe9", "notes.txt").code == "invalid_encoding"


def test_utf16_bom_with_odd_length_is_invalid_encoding() -> None:
    assert error_of(b"\xff\xfeA\x00B", "notes.txt").code == "invalid_encoding"


def test_utf32_bom_is_binary_content() -> None:
    assert error_of("\ufeffhello".encode("utf-32-le"), "notes.txt").code == "binary_content"


def test_nul_bytes_in_a_markdown_file_are_binary_content() -> None:
    assert error_of(b"# Title\n\x00\x00\x00", "notes.md").code == "binary_content"


# --- markdown front matter -----------------------------------------------------------------

FRONT_MATTER_DOC = """---
title: Pump Manual
owner: maintenance
reviewed: 2024-03-01
tags: [pumps, safety]
revision: 3
---
# Pump Manual

Body text.
"""


def test_markdown_front_matter_is_parsed_and_kept_in_the_text() -> None:
    extraction = extract(FRONT_MATTER_DOC.replace("\n", "\r\n").encode(), "manual.md")
    assert extraction.text == FRONT_MATTER_DOC
    assert extraction.warnings == []
    assert extraction.metadata == {
        "front_matter": {
            "title": "Pump Manual",
            "owner": "maintenance",
            "reviewed": "2024-03-01",
            "tags": ["pumps", "safety"],
            "revision": 3,
        }
    }
    json.dumps(extraction.metadata)  # JSON-serialisable


def test_front_matter_values_become_json_types() -> None:
    doc = "---\nwhen: 2024-03-01 10:30:00\n1: one\nratio: .nan\nkeys: !!set {a, b}\n---\ntext\n"
    front_matter = extract(doc.encode(), "doc.markdown").metadata["front_matter"]
    assert front_matter == {"when": "2024-03-01 10:30:00", "1": "one", "ratio": "nan", "keys": ["a", "b"]}
    json.dumps(front_matter, allow_nan=False)


def test_invalid_front_matter_is_a_warning_and_the_text_is_kept() -> None:
    doc = "---\ntitle: [unclosed\n---\nBody.\n"
    extraction = extract(doc.encode(), "doc.md")
    assert extraction.text == doc
    assert extraction.metadata == {}
    assert extraction.warnings == ["front_matter_invalid"]


def test_front_matter_that_is_not_a_mapping_is_invalid() -> None:
    extraction = extract(b"---\n- a\n- b\n---\nBody.\n", "doc.md")
    assert (extraction.metadata, extraction.warnings) == ({}, ["front_matter_invalid"])


def test_front_matter_closed_by_dots_and_empty_front_matter() -> None:
    assert extract(b"---\nk: v\n...\nBody\n", "a.md").metadata == {"front_matter": {"k": "v"}}
    assert extract(b"---\n---\nBody\n", "b.md").metadata == {}


def test_no_front_matter_without_a_closing_line_or_not_at_the_top() -> None:
    for doc in (b"---\ntitle: x\nno closing line\n", b"Intro\n---\ntitle: x\n---\n"):
        extraction = extract(doc, "doc.md")
        assert (extraction.metadata, extraction.warnings) == ({}, [])


def test_front_matter_over_64_kib_is_not_parsed() -> None:
    doc = "---\n" + "key: value\n" * 7_000 + "---\nBody\n"
    extraction = extract(doc.encode(), "big.md")
    assert (extraction.metadata, extraction.warnings) == ({}, ["front_matter_too_large"])


def test_txt_files_have_no_front_matter() -> None:
    assert extract(FRONT_MATTER_DOC.encode(), "manual.txt").metadata == {}


def test_front_matter_alias_bomb_is_too_large() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    doc = "---\n" + "\n".join(lines) + "\n---\nBody\n"
    extraction = extract(doc.encode(), "bomb.md")
    assert (extraction.metadata, extraction.warnings) == ({}, ["front_matter_too_large"])


# --- docx headers, footers and zip checks --------------------------------------------------


def docx_with_header_footer() -> bytes:
    document = docx.Document()
    first = document.sections[0]
    first.header.paragraphs[0].text = "Acme Corp · Confidential"
    first.footer.paragraphs[0].text = "Rev 4 · Facilities"
    document.add_heading("Boiler Checks", level=1)
    document.add_paragraph("Check the pressure weekly.")
    table = document.add_table(rows=2, cols=3)
    for row, values in zip(table.rows, (["Item", "Interval", "Owner"], ["Valve", "weekly", "Ops"]), strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    document.add_section()
    second = document.sections[1]
    second.header.is_linked_to_previous = False
    second.header.paragraphs[0].text = "Acme Corp · Confidential"  # same as section 1: listed once
    second.header.add_paragraph("Appendix A")
    second.footer.is_linked_to_previous = False
    second.footer.paragraphs[0].text = "Appendix footer"
    document.add_paragraph("Appendix text.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_docx_headers_and_footers_of_every_section_surround_the_body() -> None:
    extraction = extract(docx_with_header_footer(), "boiler.docx")
    assert extraction.text == (
        "Header: Acme Corp · Confidential\n"
        "Header: Appendix A\n\n"
        "# Boiler Checks\n\n"
        "Check the pressure weekly.\n\n"
        "Item | Interval | Owner\n\n"
        "Valve | weekly | Ops\n\n"
        "Appendix text.\n\n"
        "Footer: Rev 4 · Facilities\n"
        "Footer: Appendix footer"
    )
    assert (extraction.kind, extraction.encoding, extraction.warnings) == ("text", "docx", [])


def test_docx_zip_bomb_is_refused_before_parsing() -> None:
    data = zip_with({"[Content_Types].xml": b"<Types/>", "word/document.xml": b" " * 1_000_000})
    assert len(data) < 5_000  # 1 MB of spaces compresses to a few KB
    error = error_of(data, "bomb.docx", ExtractLimits(max_zip_expansion=100_000))
    assert error.code == "zip_bomb"
    assert "expands to 1000008 bytes, over the limit of 100000" in error.message


def test_docx_under_the_expansion_limit_is_read() -> None:
    data = docx_bytes()
    total = sum(info.file_size for info in zipfile.ZipFile(io.BytesIO(data)).infolist())
    assert extract(data, "ok.docx", ExtractLimits(max_zip_expansion=total)).text.startswith("# Travel Policy")
    assert error_of(data, "ok.docx", ExtractLimits(max_zip_expansion=total - 1)).code == "zip_bomb"


def test_docx_with_too_many_entries_is_a_zip_bomb() -> None:
    data = zip_with({f"part{i}.xml": b"" for i in range(20)})
    error = error_of(data, "many.docx", ExtractLimits(max_zip_entries=10))
    assert (error.code, error.message) == ("zip_bomb", "The .docx package has 20 entries, over the limit of 10.")


def test_zip_that_is_not_a_docx_package_is_corrupt_docx() -> None:
    assert error_of(zip_with({"hello.txt": b"hi"}), "other.docx").code == "corrupt_docx"


def test_xlsx_zip_bomb_and_non_zip() -> None:
    bomb = zip_with({"xl/workbook.xml": b"\x00" * 1_000_000})
    error = error_of(bomb, "bomb.xlsx", ExtractLimits(max_zip_expansion=10_000))
    assert error.code == "zip_bomb"
    assert "over the limit of 10000" in error.message
    assert error_of(b"sku,qty\nA,1\n", "really-a-csv.xlsx").code == "corrupt_table"


# --- pdf: scanned pages, encryption, page cap ----------------------------------------------


def test_pdf_image_only_page_is_reported_as_scanned_and_keeps_its_span() -> None:
    extraction = extract(text_pdf(["Page one text.", None, "Page three text."]), "mixed.pdf")
    assert extraction.text == "Page one text." + PAGE_BREAK + "" + PAGE_BREAK + "Page three text."
    assert extraction.warnings == ["scanned_pages:2"]
    assert extraction.pages == [PageSpan(1, 0, 14), PageSpan(2, 17, 17), PageSpan(3, 20, 36)]
    for span in extraction.pages:  # the page of an offset is the number of form feeds before it, plus one
        assert extraction.text[: span.start].count("\f") == span.page - 1


def test_pdf_several_scanned_pages_are_listed() -> None:
    extraction = extract(text_pdf(["Intro.", None, None, "Outro."]), "scan.pdf")
    assert extraction.warnings == ["scanned_pages:2,3"]


def test_pdf_of_only_images_has_no_text_layer() -> None:
    error = error_of(text_pdf([None, None, None]), "scan.pdf")
    assert error.code == "no_text_layer"
    assert "all 3 pages are images without a text layer (scanned); OCR is not configured" in error.message


def test_pdf_with_a_user_password_is_encrypted_pdf() -> None:
    error = error_of(encrypted(pdf_bytes(), "hunter2"), "locked.pdf")
    assert error.code == "encrypted_pdf"
    assert error.message == "PDF is encrypted and the empty password does not open it."


def test_pdf_encrypted_with_an_empty_user_password_opens_with_a_warning() -> None:
    extraction = extract(encrypted(pdf_bytes(), ""), "owner-only.pdf")
    assert extraction.text == PAGE_1 + PAGE_BREAK + PAGE_2
    assert extraction.warnings == ["encrypted_empty_password"]


def test_pdf_pages_beyond_max_pages_are_not_read() -> None:
    data = text_pdf([f"Page {n} text." for n in range(1, 6)])
    extraction = extract(data, "long.pdf", ExtractLimits(max_pages=2))
    assert extraction.text == "Page 1 text." + PAGE_BREAK + "Page 2 text."
    assert extraction.pages == [PageSpan(1, 0, 12), PageSpan(2, 15, 27)]
    assert extraction.warnings == ["page_cap:2 of 5"]
    assert extract(data, "long.pdf", ExtractLimits(max_pages=5)).warnings == []


def test_pdf_page_cap_and_scanned_pages_together() -> None:
    extraction = extract(text_pdf(["One.", None, "Three.", "Four."]), "x.pdf", ExtractLimits(max_pages=3))
    assert extraction.warnings == ["page_cap:3 of 4", "scanned_pages:2"]


def test_pdf_without_pages_is_no_pages() -> None:
    buffer = io.BytesIO()
    PdfWriter().write(buffer)
    assert error_of(buffer.getvalue(), "blank.pdf").code == "no_pages"


def test_random_bytes_after_a_pdf_header_are_corrupt_pdf() -> None:
    assert error_of(b"%PDF-1.7\n\x8f\x01garbage" * 10, "x.pdf").code == "corrupt_pdf"


# --- html and php --------------------------------------------------------------------------

HTML_PAGE = b"""<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <title>  Pump   Handbook </title>
  <style>body { color: red }</style>
  <script>var hidden = "<p>not text</p>";</script>
</head>
<body>
  <!-- build 42: internal comment -->
  <nav><a href="/">Home</a> | <a href="/docs">Docs</a></nav>
  <h1>Overview</h1>
  <p>The pump runs at <b>5&nbsp;bar</b>.<br>Check it   weekly.</p>
  <ul>
    <li>Inlet</li>
    <li>Outlet
      <ol><li>Valve A</li><li>Valve <em>B</em></li></ol>
    </li>
    <li>Seal</li>
  </ul>
  <noscript>Please enable JavaScript.</noscript>
  <template><p>template text</p></template>
  <svg><title>icon</title><text>svg text</text></svg>
  <iframe src="https://example.com">frame text</iframe>
  <table>
    <thead><tr><th>Part</th><th>Qty</th></tr></thead>
    <tbody><tr><td>Gasket</td><td>2</td></tr><tr><td></td><td></td></tr><tr><td><p>O</p><p>ring</p></td><td>4</td></tr></tbody>
  </table>
  <h3>Notes <small>(rev 2)</small></h3>
  <div>Last   <span>words</span></div>
  <p hidden>hidden paragraph</p>
  <script>document.write("late script")</script>
</body>
</html>
"""


def test_html_visible_text_with_headings_lists_and_tables() -> None:
    extraction = extract(HTML_PAGE, "handbook.html")
    assert extraction.text == (
        "# Pump Handbook\n\n"
        "Home | Docs\n\n"
        "# Overview\n\n"
        "The pump runs at 5 bar.\n"
        "Check it weekly.\n\n"
        "- Inlet\n"
        "- Outlet\n"
        "  - Valve A\n"
        "  - Valve B\n"
        "- Seal\n\n"
        "Part | Qty\n"
        "Gasket | 2\n"
        "O ring | 4\n\n"
        "### Notes (rev 2)\n\n"
        "Last words"
    )
    assert (extraction.kind, extraction.encoding, extraction.warnings) == ("text", "utf-8", [])


def test_htm_extension_and_all_heading_levels() -> None:
    page = "".join(f"<h{n}>Level {n}</h{n}>" for n in range(1, 7)).encode()
    expected = "\n\n".join("#" * n + f" Level {n}" for n in range(1, 7))
    assert extract(page, "levels.htm").text == expected


def test_html_pre_keeps_its_lines() -> None:
    extraction = extract(b"<p>Run:</p><pre>make build\n  make   test\n</pre><p>Done.</p>", "x.html")
    assert extraction.text == "Run:\n\nmake build\nmake test\n\nDone."


PHP_PAGE = b"""<?php
require_once 'config.php';
$title = "Acme Tools";
?>
<!doctype html>
<html><head><title><?= htmlspecialchars($title) ?> | Home</title></head>
<body>
<?php include 'nav.php'; ?>
<h2>Welcome to Acme</h2>
<p>Hello <?php echo $user->name; ?>, browse our catalogue.</p>
<? if ($promo) { ?><p>Spring sale: 20% off.</p><? } ?>
<footer>&copy; 2024 Acme</footer>
</body></html>
<?php
// trailing block without a closing tag
echo "<p>never shown</p>";
"""


def test_php_landing_page_without_php_code() -> None:
    extraction = extract(PHP_PAGE, "index.php")
    assert extraction.text == (
        "# | Home\n\n## Welcome to Acme\n\nHello , browse our catalogue.\n\nSpring sale: 20% off.\n\n© 2024 Acme"
    )
    assert (extraction.kind, extraction.encoding) == ("text", "utf-8")


def test_html_meta_charset_is_honoured() -> None:
    page = '<meta charset="shift_jis"><p>日本語のページ</p>'.encode("shift_jis")
    extraction = extract(page, "jp.html")
    assert (extraction.text, extraction.encoding, extraction.warnings) == ("日本語のページ", "shift_jis", [])


def test_html_declared_latin1_is_read_as_cp1252_without_a_warning() -> None:
    page = '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><p>café €5</p>'
    extraction = extract(page.encode("cp1252"), "fr.html")
    assert (extraction.text, extraction.encoding, extraction.warnings) == ("café €5", "cp1252", [])


def test_html_without_charset_falls_back_to_cp1252_with_a_warning() -> None:
    extraction = extract("<p>café</p>".encode("cp1252"), "fr.html")
    assert (extraction.text, extraction.encoding, extraction.warnings) == (
        "café",
        "cp1252",
        ["encoding_fallback:cp1252"],
    )


def test_utf16_html() -> None:
    extraction = extract("\ufeff<h1>Größe</h1><p>5 mm</p>".encode("utf-16-le"), "x.html")
    assert (extraction.text, extraction.encoding) == ("# Größe\n\n5 mm", "utf-16-le")


def test_html_with_nothing_visible_is_empty_text() -> None:
    assert extract(b"<script>alert(1)</script><!-- nothing -->", "x.html").text == ""


def test_html_binary_content() -> None:
    assert error_of(b"<html>\x00\x00\x89PNG", "x.html").code == "binary_content"


def test_deeply_nested_html_does_not_recurse() -> None:
    depth = 50_000  # far beyond the recursion limit: the walk uses an explicit stack
    page = b"<div>" * depth + b"deep text" + b"</div>" * depth + b"<p>after</p>"
    assert extract(page, "deep.html").text == "deep text\n\nafter"


def test_deeply_nested_lists_indent_at_most_eight_levels() -> None:
    page = b"<ul><li>" * 20 + b"x"
    assert extract(page, "deep.html").text.splitlines()[-1] == " " * 16 + "- x"


# --- configuration files -------------------------------------------------------------------

VALID_CONFIGS = {
    "settings.json": b'{"pump": {"pressure_bar": 5, "tags": ["a", "b"]}}\n',
    "settings.yaml": b"pump:\n  pressure_bar: 5\n---\nsecond: document\n",
    "settings.yml": b"- a\n- b\n",
    "settings.toml": b'[pump]\npressure_bar = 5\nname = "P-100"\n',
    "settings.ini": b"[pump]\npressure_bar = 5\n; comment\n",
    "setup.cfg": b"[metadata]\nname = strata\n[options]\nzip_safe\n",
    "my.conf": b"[mysqld]\nport = 3306\nskip-networking\n",
}


@pytest.mark.parametrize("name", sorted(VALID_CONFIGS))
def test_valid_config_is_kept_as_text(name: str) -> None:
    extraction = extract(VALID_CONFIGS[name], name)
    assert extraction.text == VALID_CONFIGS[name].decode()
    assert (extraction.kind, extraction.encoding, extraction.warnings) == ("config", "utf-8", [])


INVALID_CONFIGS = {
    "settings.json": (b'{"pump": 5,,}', "config_parse_error:JSONDecodeError: Expecting property name"),
    "settings.yaml": (b"pump: [1, 2\nnext: 3\n", "config_parse_error:ParserError: while parsing a flow sequence"),
    "settings.toml": (b"[pump\npressure = 5\n", "config_parse_error:TOMLDecodeError: Expected ']'"),
    "settings.ini": (b"pressure = 5\n", "config_parse_error:MissingSectionHeaderError: File contains no section"),
    "nginx.conf": (b"server {\n  listen 80;\n}\n", "config_parse_error:MissingSectionHeaderError"),
}


@pytest.mark.parametrize("name", sorted(INVALID_CONFIGS))
def test_invalid_config_is_kept_with_a_parse_warning(name: str) -> None:
    data, warning_start = INVALID_CONFIGS[name]
    extraction = extract(data, name)
    assert extraction.text == data.decode()
    assert extraction.kind == "config"
    [warning] = extraction.warnings
    assert warning.startswith(warning_start)
    assert "\n" not in warning
    assert len(warning) <= len("config_parse_error:") + 160


def test_deeply_nested_json_is_a_parse_warning_not_a_crash() -> None:
    extraction = extract(b"[" * 100_000 + b"]" * 100_000, "deep.json")
    assert extraction.warnings[0].startswith("config_parse_error:RecursionError")


def test_config_in_cp1252_keeps_both_warnings() -> None:
    extraction = extract('{"name": "café"'.encode("cp1252"), "x.json")
    assert extraction.warnings[0] == "encoding_fallback:cp1252"
    assert extraction.warnings[1].startswith("config_parse_error:JSONDecodeError")


# --- limits, guards and dispatch -----------------------------------------------------------


def test_too_much_text_gives_both_numbers() -> None:
    error = error_of(b"x" * 101, "long.txt", ExtractLimits(max_text_chars=100))
    assert (error.code, error.message) == ("too_much_text", "Extracted 101 characters, over the limit of 100.")
    assert extract(b"x" * 100, "long.txt", ExtractLimits(max_text_chars=100)).text == "x" * 100


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_pages"):
        ExtractLimits(max_pages=0)


def test_extraction_error_survives_pickling() -> None:
    """Isolated extractors run in a worker process: the error comes back pickled."""
    error = pickle.loads(pickle.dumps(ExtractionError("zip_bomb", "too big")))
    assert (type(error), error.code, error.message, str(error)) == (ExtractionError, "zip_bomb", "too big", "too big")


def test_memory_error_becomes_out_of_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    def exhausted(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(pl, "read_csv", exhausted)
    assert error_of(b"a,b\n1,2\n", "x.csv").code == "out_of_memory"


def test_recursion_error_becomes_too_deeply_nested(monkeypatch: pytest.MonkeyPatch) -> None:
    def too_deep(*args: object, **kwargs: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    data = docx_bytes()
    monkeypatch.setattr(docx, "Document", too_deep)
    assert error_of(data, "x.docx").code == "too_deeply_nested"


def test_unexpected_parser_error_gets_the_format_code(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("/Root")

    monkeypatch.setattr("pypdf.PdfReader", broken)
    error = error_of(pdf_bytes(), "x.pdf")
    assert (error.code, error.message) == ("corrupt_pdf", "The PDF could not be parsed: KeyError: '/Root'")


def test_lone_surrogates_and_nul_become_replacement_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    def dirty(data: bytes, name: str, limits: ExtractLimits) -> Extraction:
        return Extraction(text="a\ud800b\x00c", kind="text")

    monkeypatch.setitem(EXTRACTORS, ".txt", dirty)
    assert extract(b"x", "x.txt").text == "a\ufffdb\ufffdc"


def test_every_extractor_takes_data_name_and_limits() -> None:
    for extractor in EXTRACTORS.values():
        inspect.signature(extractor).bind(b"data", "name.ext", ExtractLimits())


@pytest.mark.parametrize("ext", sorted(EXTRACTORS))
def test_every_format_reports_empty_files(ext: str) -> None:
    assert error_of(b"", "empty" + ext).code == "empty_file"


def test_unsupported_is_reported_before_empty() -> None:
    error = error_of(b"", "image.png")
    assert (error.code, error.message) == ("unsupported_format", "No extractor for .png.")
