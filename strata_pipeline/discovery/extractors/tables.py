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
# A number written with a decimal comma, alone in its cell: "12,50", "-0,5".
_DECIMAL_COMMA_CELL = re.compile(r"(?:^|[;\t|])[ \t]*\"?-?\d+,\d+\"?[ \t]*(?=$|[;\t|])", re.MULTILINE)


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
    """A delimited table; with no `separator`, the file's own (`sniff_separator`). Where it is not a comma,
    numbers written with a decimal comma ("12,50") are read as numbers."""
    text, encoding, warnings = _decode(data)
    separator = separator or sniff_separator(text)
    decimal_comma = separator != "," and bool(_DECIMAL_COMMA_CELL.search(text[:_SNIFF_CHARS]))
    as_written = pl.read_csv(io.StringIO(text), separator=separator, infer_schema=False)
    typed = pl.read_csv(io.StringIO(text), separator=separator, infer_schema_length=1000, decimal_comma=decimal_comma)
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


def _table_extraction(
    tables: dict[str, pl.DataFrame],
    encoding: str,
    shown: dict[str, pl.DataFrame] | None = None,
    preambles: dict[str, list[str]] | None = None,
) -> Extraction:
    """Render tables as text too, so rules (min length), language detection, chunks and quotes see
    them. A sheet in `shown` (its cells as the file writes them) is rendered from there: a price
    written "10.90" is quoted "10.90", not the typed value's "10.9". `tables` keeps the typed values
    the facts engine computes with. A sheet's `preambles` (title and note lines above its header row)
    come first, a blank line between them and the table."""
    rendered = []
    for sheet, typed in tables.items():
        frame = (shown or {}).get(sheet, typed)
        preamble = (preambles or {}).get(sheet, [])
        lines = [f"## {sheet}", *preamble, *([""] if preamble else []), " | ".join(frame.columns)]
        lines += [" | ".join("" if v is None else str(v) for v in row) for row in frame.iter_rows()]
        rendered.append("\n".join(lines))
    return Extraction(text="\n\n".join(rendered), kind="table", encoding=encoding, tables=tables)
