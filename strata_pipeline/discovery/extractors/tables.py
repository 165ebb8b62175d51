"""CSV and TSV files read as tables, and tables rendered as text so rules and language detection see them."""

from __future__ import annotations

import io
from pathlib import Path

import polars as pl

from strata_pipeline.discovery.extractors.encodings import _decode
from strata_pipeline.discovery.extractors.extraction import DEFAULT_LIMITS, Extraction, ExtractLimits, _guarded


@_guarded("corrupt_table", "CSV file")
def extract_csv(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    return _delimited(data, name, ",")


@_guarded("corrupt_table", "TSV file")
def extract_tsv(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Tab-separated values (.tsv, .tab): read exactly as a CSV with a tab between cells."""
    return _delimited(data, name, "\t")


def _delimited(data: bytes, name: str, separator: str) -> Extraction:
    text, encoding, warnings = _decode(data)
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


def _table_extraction(
    tables: dict[str, pl.DataFrame], encoding: str, shown: dict[str, pl.DataFrame] | None = None
) -> Extraction:
    """Render tables as text too, so rules (min length), language detection, chunks and quotes see
    them. A sheet in `shown` (its cells as the file writes them) is rendered from there: a price
    written "10.90" is quoted "10.90", not the typed value's "10.9". `tables` keeps the typed values
    the facts engine computes with."""
    rendered = []
    for sheet, typed in tables.items():
        frame = (shown or {}).get(sheet, typed)
        lines = [f"## {sheet}", " | ".join(frame.columns)]
        lines += [" | ".join("" if v is None else str(v) for v in row) for row in frame.iter_rows()]
        rendered.append("\n".join(lines))
    return Extraction(text="\n\n".join(rendered), kind="table", encoding=encoding, tables=tables)
