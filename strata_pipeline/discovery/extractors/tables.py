"""CSV and TSV files read as tables, and tables rendered as text so rules and language detection see them."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import polars as pl

from strata_pipeline.discovery.extractors.encodings import _decode
from strata_pipeline.discovery.extractors.extraction import DEFAULT_LIMITS, Extraction, ExtractLimits, _guarded


@_guarded("corrupt_table", "CSV file")
def extract_csv(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """A .csv file, its cells separated by whichever of , ; tab | the file uses (`sniff_separator`)."""
    return _delimited(data, name, None)


@_guarded("corrupt_table", "TSV file")
def extract_tsv(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Tab-separated values (.tsv, .tab): read exactly as a CSV with a tab between cells."""
    return _delimited(data, name, "\t")


# Candidate cell separators of a .csv file: spreadsheets in locales whose decimal mark is a comma
# (German, French, Dutch, ...) export with ";"; some tools write tabs or "|".
SEPARATORS = (",", ";", "\t", "|")
_SNIFF_CHARS = 64 * 1024


def sniff_separator(text: str, default: str = ",") -> str:
    """The separator that splits the start of `text` into the same number of cells, two or more, on the
    most rows (quotes respected); ties go to `default`, then to more cells. A ";" file whose cells hold
    commas ("30 Tage netto, 14 Tage 2 % Skonto") splits evenly only at ";"."""
    sample = text[:_SNIFF_CHARS]
    if len(text) > _SNIFF_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n")]  # whole rows only
    best: tuple[float, bool, int] = (0.0, False, 0)
    chosen = default
    for separator in SEPARATORS:
        rows = [row for row in csv.reader(io.StringIO(sample), delimiter=separator) if row]
        if not rows or len(rows[0]) < 2:
            continue
        width = len(rows[0])
        key = (sum(len(row) == width for row in rows) / len(rows), separator == default, width)
        if key > best:
            best, chosen = key, separator
    return chosen


def _delimited(data: bytes, name: str, separator: str | None) -> Extraction:
    """A delimited table; with no `separator`, the file's own (`sniff_separator`). Numbers written with a
    decimal comma ("12,50") are read as numbers by `numbers_from_text`, as every table's are."""
    text, encoding, warnings = _decode(data)
    separator = separator or sniff_separator(text)
    as_written = pl.read_csv(io.StringIO(text), separator=separator, infer_schema=False)
    typed = pl.read_csv(io.StringIO(text), separator=separator, infer_schema_length=1000)
    typed = _with_codes_as_text(typed, as_written)
    sheet = Path(name).stem
    extraction = _table_extraction({sheet: typed}, encoding, shown={sheet: as_written})
    extraction.warnings += warnings
    return extraction


def _with_codes_as_text(typed: pl.DataFrame, raw: pl.DataFrame) -> pl.DataFrame:
    """`typed` with each number column that writes a leading zero ("01067", "0711123456", "007") kept
    as the text the file holds: postcodes, phone numbers and ids are codes, and as numbers they lose the
    zero (a postcode no longer matches, a phone number no longer reads as one)."""
    codes = [
        name
        for name in typed.columns
        if typed.schema[name].is_numeric() and raw[name].str.contains(r"^\s*[+-]?0\d").any()
    ]
    return typed.with_columns(raw.select(codes)) if codes else typed


# A cell that is a number, not a label: "4", "2.5", "1.875,00", "12 %".
_NUMBER = re.compile(r"[-+]?\d[\d.,' ]*%?")


def header_row(rows: list[tuple[object, ...]], most_above: int = 10) -> int:
    """The index of a sheet's header row when title and note rows stand above its table ("Price list 2025",
    "Prices in EUR excl. VAT", a blank row, then "SKU | Type | Price"): the first row with two cells or
    more, when it fills at least half as many cells as the widest row (three or more), holds labels only
    (no number) and has at most `most_above` rows above it. 0 otherwise: the first row is the header."""
    filled = [[cell for cell in row if cell not in (None, "")] for row in rows]
    widest = max((len(cells) for cells in filled), default=0)
    if widest < 3:
        return 0  # a list of keys and values: no header to find
    for index, cells in enumerate(filled[: most_above + 1]):
        if len(cells) >= 2:
            labels = all(isinstance(c, str) and not _NUMBER.fullmatch(c.strip()) for c in cells)
            return index if 2 * len(cells) >= widest and labels else 0
    return 0


# Numbers a spreadsheet holds as text, the way its locale writes them. Decimal comma: "1.875,00",
# "1'875,50", "612,00", "5.000" (a German thousands dot), "1 875,00" with a non-breaking space.
# Decimal point: "1,875.00", "2.5". A plain space never groups digits: "821 447" is a phone number.
_COMMA_DECIMAL = re.compile(r"-?(?:\d{1,3}(?:[.'\u00a0\u202f]\d{3})+|\d+)(?:,\d+)?")
_POINT_DECIMAL = re.compile(r"-?(?:\d{1,3}(?:[,'\u00a0\u202f]\d{3})+|\d+)(?:\.\d+)?")
# One unit every cell of a money or percentage column may carry after its number: "185,00 EUR", "12 %".
_UNIT = re.compile(r"\s*(?:EUR|€|CHF|USD|\$|GBP|£|%)\s*$", re.IGNORECASE)
# What a table writes where a cell has no value, or no figure yet: a price list's "auf Anfrage" (on request)
# in a column of prices leaves the column a number column, that cell empty (its text is still shown as written).
_NO_VALUE = frozenset({
    "", "-", "–", "—", "n/a", "k.a.", "k. a.", "/", "?", "n.v.", "n. v.", "tbd", "tba", "poa", "n.c.",
    "on request", "upon request", "price on request", "auf anfrage", "nach anfrage", "nach vereinbarung",
    "entfällt", "sur demande", "sur devis", "à définir",
})  # fmt: skip
# What only one locale writes. Decimal comma: a comma not before exactly three digits ("612,00", "0,125"),
# a dot before exactly three ("5.000"). Decimal point: the reverse ("2.5", "0.125", "1,200").
# A leading "0," or "0." is always the decimal mark.
_COMMA_SIGNS = re.compile(r",(?:\d{1,2}|\d{4,})$|^-?0,|^(?!-?0\.).*\d\.\d{3}(?!\d)")
_POINT_SIGNS = re.compile(r"\.(?:\d{1,2}|\d{4,})$|^-?0\.|^(?!-?0,).*\d,\d{3}(?!\d)")
# Thirteen digits or more in a row are an identifier (a card or account number), never a quantity: the
# column stays text, so table redaction still reads its cells.
_LONG_DIGITS = re.compile(r"\d{13}")


def numbers_from_text(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with each text column whose every filled cell is a number written as text ("612,00",
    "5.000", "185,00 EUR") typed as a number, so the facts engine can count, sum and compare it. Exported
    and hand-made sheets hold numbers as text in the writer's locale. A column is read with a decimal
    comma when a cell writes one or groups thousands with a dot ("5.000"), and no cell has a decimal
    point. Codes with a leading zero ("01067") or 13 digits and more stay text, as `_with_codes_as_text`
    keeps them; so do dates ("14.10.2024"), phone numbers and anything else that is not a number in every cell."""
    typed = [
        series
        for name in frame.columns
        if frame.schema[name] == pl.Utf8 and (series := _text_numbers(frame[name])) is not None
    ]
    return frame.with_columns(typed) if typed else frame


def _text_numbers(column: pl.Series) -> pl.Series | None:
    """`column` as numbers (Int64 when all are whole), or None when one filled cell is no number."""
    cells = {
        cell: _UNIT.sub("", cell.strip())
        for cell in column.drop_nulls().unique().to_list()
        if cell.strip().lower() not in _NO_VALUE
    }
    units = {match.group().strip().upper() if (match := _UNIT.search(c)) else "" for c in cells}
    bare = list(cells.values())
    if not bare or len(units) > 1 or any(re.match(r"-?0\d", c) or _LONG_DIGITS.search(c) for c in bare):
        return None  # no numbers, mixed units, or codes: a leading zero, or card and account numbers
    comma = all(_COMMA_DECIMAL.fullmatch(c) for c in bare) and not any(_POINT_SIGNS.search(c) for c in bare)
    point = all(_POINT_DECIMAL.fullmatch(c) for c in bare) and not any(_COMMA_SIGNS.search(c) for c in bare)
    if comma and not (point and any(_POINT_SIGNS.search(c) for c in bare)):
        thousands, decimal = ".'\u00a0\u202f", ","
    elif point:
        thousands, decimal = ",'\u00a0\u202f", "."
    else:
        return None  # neither reading holds every cell, or each reading has a cell against it
    values = {
        cell: float(bare.translate({ord(m): None for m in thousands}).replace(decimal, "."))
        for cell, bare in cells.items()
    }
    whole = all(v.is_integer() and abs(v) < 2**53 for v in values.values())
    parsed = [values.get(cell) if cell is not None else None for cell in column.to_list()]
    if whole:
        return pl.Series(column.name, [None if v is None else int(v) for v in parsed], dtype=pl.Int64)
    return pl.Series(column.name, parsed, dtype=pl.Float64)


def _table_extraction(
    tables: dict[str, pl.DataFrame],
    encoding: str,
    shown: dict[str, pl.DataFrame] | None = None,
    preambles: dict[str, list[str]] | None = None,
) -> Extraction:
    """Render tables as text too, so rules (min length), language detection, chunks and quotes see
    them. A sheet in `shown` (its cells as the file writes them) is rendered from there: a price
    written "10.90" is quoted "10.90", not the typed value's "10.9". `tables` keeps the typed values
    the facts engine computes with, numbers written as text among them (`numbers_from_text`). A
    sheet's `preambles` (title and note lines above its header row) come first, a blank line between
    them and the table."""
    rendered = []
    shown = {sheet: (shown or {}).get(sheet, frame) for sheet, frame in tables.items()}
    tables = {sheet: numbers_from_text(frame) for sheet, frame in tables.items()}
    for sheet, frame in shown.items():
        preamble = (preambles or {}).get(sheet, [])
        lines = [f"## {sheet}", *preamble, *([""] if preamble else []), " | ".join(frame.columns)]
        lines += [" | ".join("" if v is None else str(v) for v in row) for row in frame.iter_rows()]
        rendered.append("\n".join(lines))
    return Extraction(text="\n\n".join(rendered), kind="table", encoding=encoding, tables=tables)
