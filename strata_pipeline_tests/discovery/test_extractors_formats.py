"""The office and text formats beyond the first ten: .tsv/.tab, .xls/.xlsm/.ods spreadsheets, .pptx,
.odt, .rtf, .eml and plain-text aliases. Every file is a real one, written here by a library or by
hand to its specification; a broken one must become an error code, never a crash."""

from __future__ import annotations

import io
import struct
import zipfile

import polars as pl
import pytest
import xlsxwriter
import xlwt
from pptx import Presentation
from pptx.util import Inches

from strata_pipeline.discovery.extractors.dispatch import extract
from strata_pipeline.discovery.extractors.extraction import ExtractionError, ExtractLimits
from strata_pipeline.discovery.extractors.tables import header_row, numbers_from_text, sniff_separator


def error_of(data: bytes, name: str, limits: ExtractLimits | None = None) -> ExtractionError:
    with pytest.raises(ExtractionError) as info:
        extract(data, name, limits or ExtractLimits())
    return info.value


# --- .csv written with another separator ---------------------------------------------------


def test_semicolon_csv_whose_cells_hold_commas_is_read_at_its_semicolons() -> None:
    # German spreadsheet exports separate cells with ";" (the comma is the decimal mark); a cell with a
    # comma in it once made the whole file fail as ragged
    data = (
        "Nr;Name;Zahlungsbedingung;Werk\n"
        "700412;Hoffmann Lagertechnik GmbH;30 Tage netto, 14 Tage 2 % Skonto;Augsburg, Chemnitz\n"
        "700455;Wälzlager Schubert KG;30 Tage netto;Chemnitz\n"
    ).encode()
    extraction = extract(data, "lieferanten.csv")
    frame = extraction.tables["lieferanten"]
    assert frame.columns == ["Nr", "Name", "Zahlungsbedingung", "Werk"]
    assert frame.row(0) == (
        700412,
        "Hoffmann Lagertechnik GmbH",
        "30 Tage netto, 14 Tage 2 % Skonto",
        "Augsburg, Chemnitz",
    )
    assert "700455 | Wälzlager Schubert KG | 30 Tage netto | Chemnitz" in extraction.text


def test_semicolon_csv_reads_decimal_commas_as_numbers_and_shows_them_as_written() -> None:
    extraction = extract(b"Artikel;Preis;Menge\nSchraube;0,25;100\nMutter;1,50;20\n", "preise.csv")
    assert extraction.tables["preise"].rows() == [("Schraube", 0.25, 100), ("Mutter", 1.5, 20)]
    assert "Mutter | 1,50 | 20" in extraction.text


@pytest.mark.parametrize(
    ("text", "separator"),
    [
        ("a,b\n1,2\n", ","),
        ("a;b;c\n1;2;3\n", ";"),
        ("a\tb\n1\t2\n", "\t"),
        ("a|b\n1|2\n", "|"),
        ('name,note\n"Weber; Anna",ok\nLutz,"a; b"\n', ","),  # a quoted ";" is no separator
        ("a,b;c\n1,2;3\n4,5;6\n", ","),  # both split every row evenly: the comma, as .csv says
        ("only one column\nvalue\n", ","),
    ],
)
def test_sniff_separator_picks_the_one_that_splits_rows_evenly(text: str, separator: str) -> None:
    assert sniff_separator(text) == separator


# --- .tsv / .tab ---------------------------------------------------------------------------


@pytest.mark.parametrize("ext", [".tsv", ".tab"])
def test_tab_separated_files_are_typed_tables_with_codes_kept_as_written(ext: str) -> None:
    data = b"site\tplz\tprice\tbays\nBasel\t04051\t10.90\t12\nZurich\t08001\t3.00\t7\n"
    extraction = extract(data, "sites" + ext)
    assert extraction.kind == "table"
    frame = extraction.tables["sites"]
    assert frame.schema == pl.Schema(
        {"site": pl.String(), "plz": pl.String(), "price": pl.Float64(), "bays": pl.Int64()}
    )
    assert frame.rows() == [("Basel", "04051", 10.9, 12), ("Zurich", "08001", 3.0, 7)]
    assert (
        extraction.text == "## sites\nsite | plz | price | bays\nBasel | 04051 | 10.90 | 12\nZurich | 08001 | 3.00 | 7"
    )


def test_tsv_with_ragged_rows_is_corrupt_table() -> None:
    assert error_of(b"a\tb\n1\t2\t3\t4\n", "ragged.tsv").code == "corrupt_table"


# --- spreadsheets read by calamine ---------------------------------------------------------


def xls_bytes() -> bytes:
    """A BIFF8 .xls workbook (Excel 97-2003) written by xlwt."""
    book = xlwt.Workbook()
    stock = book.add_sheet("Stock")
    for r, row in enumerate([["sku", "qty", "price"], ["RX-200", 5, 1.5], ["RX-300", 7, 2.25]]):
        for c, value in enumerate(row):
            stock.write(r, c, value)
    depots = book.add_sheet("Depots")
    for c, value in enumerate(["depot", "city"]):
        depots.write(0, c, value)
    for c, value in enumerate(["North", "Oslo"]):
        depots.write(1, c, value)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def ods_bytes() -> bytes:
    """An OpenDocument spreadsheet package as the specification lays it out: an uncompressed
    `mimetype` first, content.xml and the manifest."""
    cell = '<table:table-cell office:value-type="{}" {}><text:p>{}</text:p></table:table-cell>'

    def row(*cells: str) -> str:
        return "<table:table-row>" + "".join(cells) + "</table:table-row>"

    def text(value: str) -> str:
        return cell.format("string", "", value)

    def number(value: str) -> str:
        return cell.format("float", f'office:value="{value}"', value)

    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        '<office:body><office:spreadsheet><table:table table:name="Depots">'
        + row(text("depot"), text("bays"), text("rate"))
        + row(text("Basel"), number("12"), number("1.5"))
        + row(text("Bern"), number("4"), number("0.25"))
        + "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    return odf_package("application/vnd.oasis.opendocument.spreadsheet", content)


def odf_package(mimetype: str, content: str) -> bytes:
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{mimetype}"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), mimetype)  # stored, first: how ODF names its type
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def xlsb_bytes(sheet_name: str, rows: list[list[str | int | float]]) -> bytes:
    """A minimal Excel binary workbook laid out as MS-XLSB specifies: a zip of BIFF12 record streams
    (workbook.bin naming the sheet, the sheet's rows of BrtCellSt/BrtCellRk/BrtCellReal records) and
    the relationship and content-type parts. No writer library for .xlsb exists in Python."""

    def varint(number: int) -> bytes:  # record type and size: 7 bits per byte, high bit = more
        out = bytearray()
        while True:
            out.append((number & 0x7F) | (0x80 if number > 0x7F else 0))
            number >>= 7
            if not number:
                return bytes(out)

    def record(kind: int, body: bytes = b"") -> bytes:
        return varint(kind) + varint(len(body)) + body

    def wide(text: str) -> bytes:
        return struct.pack("<I", len(text)) + text.encode("utf-16-le")

    bundle = struct.pack("<II", 0, 1) + wide("rId1") + wide(sheet_name)  # visible, tab id, rel id, name
    book = record(0x83) + record(0x8F) + record(0x9C, bundle) + record(0x90) + record(0x84)
    dimension = struct.pack("<IIII", 0, len(rows) - 1, 0, len(rows[0]) - 1)
    sheet = record(0x81) + record(0x94, dimension) + record(0x91)  # BrtBeginSheet, BrtWsDim, BrtBeginSheetData
    for r, row in enumerate(rows):
        sheet += record(0x00, struct.pack("<IIHBBBI", r, 0, 300, 0, 0, 0, 0))  # BrtRowHdr
        for c, value in enumerate(row):
            cell = struct.pack("<II", c, 0)  # column, style
            if isinstance(value, str):
                sheet += record(0x06, cell + wide(value))  # BrtCellSt
            elif isinstance(value, int):
                sheet += record(0x02, cell + struct.pack("<i", (value << 2) | 2))  # BrtCellRk, an integer
            else:
                sheet += record(0x05, cell + struct.pack("<d", value))  # BrtCellReal
    sheet += record(0x92) + record(0x82)
    relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    package = "http://schemas.openxmlformats.org/package/2006"
    rels = f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{package}/relationships">'
    parts = {
        "[Content_Types].xml": f'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="{package}/content-types">'
        '<Default Extension="bin" ContentType="application/vnd.ms-excel.sheet.binary.macroEnabled.main"/>'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.bin" ContentType="application/vnd.ms-excel.worksheet"/></Types>',
        "_rels/.rels": rels
        + f'<Relationship Id="rId1" Type="{relationships}/officeDocument" Target="xl/workbook.bin"/></Relationships>',
        "xl/_rels/workbook.bin.rels": rels
        + f'<Relationship Id="rId1" Type="{relationships}/worksheet" Target="worksheets/sheet1.bin"/></Relationships>',
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
        archive.writestr("xl/workbook.bin", book)
        archive.writestr("xl/worksheets/sheet1.bin", sheet)
    return buffer.getvalue()


def test_xls_workbook_sheets_are_typed_tables() -> None:
    extraction = extract(xls_bytes(), "inventory.xls")
    assert (extraction.kind, extraction.encoding) == ("table", "xls")
    assert list(extraction.tables) == ["Stock", "Depots"]
    assert extraction.tables["Stock"].schema == pl.Schema(
        {"sku": pl.String(), "qty": pl.Int64(), "price": pl.Float64()}
    )
    assert extraction.tables["Stock"].rows() == [("RX-200", 5, 1.5), ("RX-300", 7, 2.25)]
    assert extraction.text == (
        "## Stock\nsku | qty | price\nRX-200 | 5 | 1.5\nRX-300 | 7 | 2.25\n\n## Depots\ndepot | city\nNorth | Oslo"
    )


def test_ods_spreadsheet_is_a_typed_table() -> None:
    extraction = extract(ods_bytes(), "depots.ods")
    assert (extraction.kind, extraction.encoding) == ("table", "ods")
    assert extraction.tables["Depots"].rows() == [("Basel", 12, 1.5), ("Bern", 4, 0.25)]
    assert extraction.text == "## Depots\ndepot | bays | rate\nBasel | 12 | 1.5\nBern | 4 | 0.25"


def test_xlsb_binary_workbook_is_a_typed_table() -> None:
    data = xlsb_bytes("Stock", [["sku", "qty", "price"], ["RX-200", 5, 1.5], ["RX-300", 7, 2.25]])
    extraction = extract(data, "stock.xlsb")
    assert (extraction.kind, extraction.encoding) == ("table", "xlsb")
    assert extraction.tables["Stock"].schema == pl.Schema(
        {"sku": pl.String(), "qty": pl.Int64(), "price": pl.Float64()}
    )
    assert extraction.text == "## Stock\nsku | qty | price\nRX-200 | 5 | 1.5\nRX-300 | 7 | 2.25"


def test_xlsm_workbook_is_read_like_xlsx() -> None:
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer)
    sheet = book.add_worksheet("Fees")
    sheet.write_row(0, 0, ["item", "price"])
    sheet.write_row(1, 0, ["Permit", 30])
    book.close()
    extraction = extract(buffer.getvalue(), "fees.xlsm")
    assert extraction.encoding == "xlsm"
    assert extraction.tables["Fees"].rows() == [("Permit", 30)]


@pytest.mark.parametrize("name", ["broken.xls", "broken.xlsb", "broken.ods", "broken.xlsm"])
def test_broken_spreadsheets_are_corrupt_table(name: str) -> None:
    assert error_of(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1 not a workbook", name).code == "corrupt_table"


def test_truncated_xls_is_corrupt_table() -> None:
    data = xls_bytes()
    assert error_of(data[: len(data) // 2], "cut.xls").code == "corrupt_table"


def test_ods_zip_bomb_is_refused_before_parsing() -> None:
    assert error_of(ods_bytes(), "depots.ods", ExtractLimits(max_zip_expansion=100)).code == "zip_bomb"


# --- .pptx ---------------------------------------------------------------------------------


def pptx_bytes() -> bytes:
    deck = Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[1])  # title and content
    first.shapes.title.text = "Depot rollout"
    body = first.placeholders[1].text_frame
    body.text = "Basel opens in March"
    sub = body.add_paragraph()
    sub.text = "twelve charging bays"
    sub.level = 1
    first.notes_slide.notes_text_frame.text = "Mention the permit delay."
    second = deck.slides.add_slide(deck.slide_layouts[5])  # title only
    second.shapes.title.text = "Fees"
    table = second.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for r, row in enumerate([["item", "price"], ["Permit", "30.00"], ["Parking", "10.90"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    third = deck.slides.add_slide(deck.slide_layouts[6])  # blank
    box = third.shapes.add_textbox(Inches(1), Inches(1), Inches(4), Inches(1))
    box.text_frame.text = "Questions: ops@example.org"
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue()


def test_pptx_slides_in_order_with_titles_bullets_tables_and_notes() -> None:
    extraction = extract(pptx_bytes(), "rollout.pptx")
    assert (extraction.kind, extraction.encoding) == ("text", "pptx")
    assert extraction.text == (
        "# Depot rollout\n\n## Slide 1: Depot rollout\n\nBasel opens in March\n  twelve charging bays\n\n"
        "Notes: Mention the permit delay.\n\n"
        "## Slide 2: Fees\n\nitem | price\nPermit | 30.00\nParking | 10.90\n\n"
        "## Slide 3\n\nQuestions: ops@example.org"
    )


def test_pptx_that_is_not_a_zip_is_corrupt_pptx() -> None:
    assert error_of(b"PK\x03\x04 not a deck", "broken.pptx").code == "corrupt_pptx"


def test_zip_without_a_presentation_is_corrupt_pptx() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", "hello")
    assert error_of(buffer.getvalue(), "empty.pptx").code == "corrupt_pptx"


def test_pptx_zip_bomb_is_refused() -> None:
    assert error_of(pptx_bytes(), "big.pptx", ExtractLimits(max_zip_expansion=1000)).code == "zip_bomb"


def test_pptx_document_title_property_leads_over_the_first_slide_title() -> None:
    deck = Presentation(io.BytesIO(pptx_bytes()))
    deck.core_properties.title = "Depot programme 2026"
    buffer = io.BytesIO()
    deck.save(buffer)
    text = extract(buffer.getvalue(), "rollout.pptx").text
    assert text.startswith("# Depot programme 2026\n\n## Slide 1: Depot rollout\n\n")


# --- spreadsheets with title rows above the table ------------------------------------------------


def _titled_sheet() -> bytes:
    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"in_memory": True})
    sheet = workbook.add_worksheet("Prices")
    sheet.write(0, 0, "Price list 2025, valid from 01.02.2025")
    sheet.write(1, 0, "Prices in EUR excl. VAT")
    for col, name in enumerate(["SKU", "Type", "Price EUR"]):
        sheet.write(3, col, name)  # row 3: a blank row above the header
    for row, values in enumerate([("M40-012", "M40", 612.5), ("M63-150", "M63", 1875.25)], start=4):
        for col, value in enumerate(values):
            sheet.write(row, col, value)
    workbook.close()
    return buffer.getvalue()


def test_a_sheets_title_rows_become_its_preamble_and_the_header_row_names_the_columns() -> None:
    extraction = extract(_titled_sheet(), "prices.xlsx")
    frame = extraction.tables["Prices"]
    assert frame.columns == ["SKU", "Type", "Price EUR"]
    assert frame.schema["Price EUR"] == pl.Float64()
    assert frame.rows() == [("M40-012", "M40", 612.5), ("M63-150", "M63", 1875.25)]
    assert extraction.text.startswith(
        "## Prices\nPrice list 2025, valid from 01.02.2025\nPrices in EUR excl. VAT\n\nSKU | Type | Price EUR\n"
    )


def test_a_blank_header_cell_is_named_by_its_place_not_by_the_readers_placeholder() -> None:
    # a notes sheet: "Erläuterung" over its keys, nothing over their explanations
    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"in_memory": True})
    sheet = workbook.add_worksheet("Legende")
    sheet.write(0, 0, "Erläuterung")
    for row, (key, text) in enumerate([("KST", "Kostenstelle"), ("HU", "Hauptuntersuchung")], start=1):
        sheet.write(row, 0, key)
        sheet.write(row, 1, text)
    workbook.close()
    extraction = extract(buffer.getvalue(), "maschinen.xlsx")
    assert extraction.tables["Legende"].columns == ["Erläuterung", "column 2"]
    assert "__UNNAMED__" not in extraction.text
    assert "KST | Kostenstelle" in extraction.text


@pytest.mark.parametrize(
    ("rows", "header"),
    [
        ([("Title", None, None), (None, None, None), ("a", "b", "c"), ("1", "2", "3")], 2),
        ([("a", "b", "c"), ("1", "2", "3")], 0),
        ([("Key", None), ("k1", "v1"), ("k2", "v2")], 0),  # two columns: keys and values, no header to find
        ([("Title", None, None), ("2024", "2025", "2026"), ("1", "2", "3")], 0),  # numbers are no header
        ([("Title", None, None, None), ("a", "b", None, None), ("1", "2", "3", "4")], 1),  # half the width
    ],
)
def test_header_row_is_the_first_row_of_labels_under_the_title_rows(rows: list[tuple], header: int) -> None:
    assert header_row(rows) == header


# --- numbers a sheet holds as text -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cells", "typed"),
    [
        (["612,00", "1.875,00", "–", None], [612, 1875, None, None]),  # German money, a dash for none
        (["5.000", "500", "25.000"], [5000, 500, 25000]),  # a German thousands dot
        (["0,125", "0,500"], [0.125, 0.5]),  # "0," is always a decimal comma
        (["2.5", "3", "1,200.75"], [2.5, 3.0, 1200.75]),
        (["1,200", "3,500"], [1200, 3500]),  # an English thousands comma
        (["1'875.50", "12.00"], [1875.5, 12.0]),  # Swiss grouping
        (["185,00 EUR", "240,00 EUR"], [185, 240]),  # one unit in every cell
        (["12 %", "1,5 %"], [12.0, 1.5]),
        (["118", "auf Anfrage", "95"], [118, None, 95]),  # a price list's "on request": no figure, not a word
        (["0,80", "On request", "1,20"], [0.8, None, 1.2]),
    ],
)
def test_numbers_written_as_text_are_typed_in_the_writers_locale(cells: list, typed: list) -> None:
    assert numbers_from_text(pl.DataFrame({"c": cells}, schema={"c": pl.String}))["c"].to_list() == typed


@pytest.mark.parametrize(
    "cells",
    [
        ["2,5", "3,000"],  # a decimal comma beside an English thousands comma: no reading holds both
        ["01067", "12345"],  # postcodes keep their leading zero
        ["14.10.2024", "1"],  # a date
        ["+49 821 447", "1"],  # a phone number; a plain space never groups digits
        ["4111111111111111", "1"],  # a card number stays text, so table redaction still reads it
        ["185,00 EUR", "12 %"],  # two units
        ["a", "1"],
        ["Anfrage", "1"],  # only the whole phrase says no figure
    ],
)
def test_columns_that_are_not_numbers_in_every_cell_stay_text(cells: list) -> None:
    assert numbers_from_text(pl.DataFrame({"c": cells}))["c"].to_list() == cells


def test_a_german_sheet_of_text_numbers_is_counted_as_numbers_and_quoted_as_written() -> None:
    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"in_memory": True})
    sheet = workbook.add_worksheet("Preise")
    for row, values in enumerate(
        [("Artikel", "Listenpreis EUR", "PLZ"), ("M40", "612,00", "01067"), ("M63", "1.875,50", "86150")]
    ):
        for col, value in enumerate(values):
            sheet.write_string(row, col, value)
    workbook.close()
    extraction = extract(buffer.getvalue(), "preise.xlsx")
    frame = extraction.tables["Preise"]
    assert frame.schema["Listenpreis EUR"] == pl.Float64()
    assert frame["Listenpreis EUR"].sum() == 2487.5
    assert frame["PLZ"].to_list() == ["01067", "86150"]
    assert "M63 | 1.875,50 | 86150" in extraction.text
