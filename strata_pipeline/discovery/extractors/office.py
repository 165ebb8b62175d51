"""Office documents: .docx documents and spreadsheets (.xlsx, .xlsm, .xlsb, .ods, .xls). Zip packages
are checked for zip bombs before parsing."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import polars as pl

from strata_pipeline.discovery.extractors.extraction import (
    DEFAULT_LIMITS,
    Extraction,
    ExtractionError,
    ExtractLimits,
    _guarded,
    _short,
)
from strata_pipeline.discovery.extractors.tables import _table_extraction, header_row


def _check_zip(data: bytes, limits: ExtractLimits, corrupt_code: str, label: str) -> None:
    """Open the package without inflating it: refuse non-zips and zip bombs before any parser runs.

    The declared sizes are trustworthy for zipfile (it stops at ZipInfo.file_size and then fails
    the CRC check), so their sum bounds what a reader inflates.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:
        raise ExtractionError(
            corrupt_code, f"Not a readable {label} package (not a zip archive): {_short(exc)}"
        ) from exc
    if len(infos) > limits.max_zip_entries:
        raise ExtractionError(
            "zip_bomb", f"The {label} package has {len(infos)} entries, over the limit of {limits.max_zip_entries}."
        )
    total = sum(info.file_size for info in infos)
    if total > limits.max_zip_expansion:
        raise ExtractionError(
            "zip_bomb",
            f"The {label} package expands to {total} bytes, over the limit of {limits.max_zip_expansion} bytes.",
        )


def _docx_blocks(container: Any, headings: bool) -> list[str]:
    """Paragraphs (headings as Markdown) and table rows (cells joined by " | ") of a body/header."""
    from docx.table import Table

    blocks: list[str] = []
    for item in container.iter_inner_content():
        if isinstance(item, Table):
            for row in item.rows:
                cells = [c.text.strip() for c in row.cells]
                if any(cells):
                    blocks.append(" | ".join(cells))
            continue
        text = item.text.strip()
        if not text:
            continue
        if headings:
            style = (item.style.name if item.style is not None else "") or ""
            if style.startswith("Heading"):
                level = "".join(ch for ch in style if ch.isdigit()) or "1"
                text = "#" * min(int(level), 9) + " " + text
            elif style == "Title":
                text = "# " + text
        blocks.append(text)
    return blocks


def _docx_margin_lines(document: Any, part: str, prefix: str) -> list[str]:
    """Deduplicated lines of every section's headers (or footers): default, first-page, even-page."""
    seen: dict[str, None] = {}
    for section in document.sections:
        for kind in (part, f"first_page_{part}", f"even_page_{part}"):
            margin = getattr(section, kind)
            if margin.is_linked_to_previous:  # no definition of its own; reading it would add one
                continue
            for block in _docx_blocks(margin, headings=False):
                for line in block.splitlines():
                    if line.strip():
                        seen.setdefault(prefix + line.strip(), None)
    return list(seen)


@_guarded("corrupt_docx", ".docx document")
def extract_docx(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Body paragraphs and tables, between "Header: " lines before and "Footer: " lines after."""
    import docx

    _check_zip(data, limits, "corrupt_docx", ".docx")
    document = docx.Document(io.BytesIO(data))  # its many error types for a broken package: see _guarded
    header = _docx_margin_lines(document, "header", "Header: ")
    footer = _docx_margin_lines(document, "footer", "Footer: ")
    blocks = _docx_blocks(document, headings=True)
    if header:
        blocks.insert(0, "\n".join(header))
    if footer:
        blocks.append("\n".join(footer))
    return Extraction(text="\n\n".join(blocks), kind="text", encoding="docx")


# Spreadsheets calamine reads (through fastexcel) that are zip packages; .xls is an OLE2 compound
# file, which calamine reads sector by sector without inflating anything.
_ZIP_SPREADSHEETS = frozenset({".xlsx", ".xlsm", ".xlsb", ".ods"})


@_guarded("corrupt_table", "spreadsheet")
def extract_xlsx(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Every sheet of an .xlsx/.xlsm/.xlsb/.ods/.xls workbook as a typed table. Calamine detects the
    format from the bytes; the extension decides only whether the zip guard runs first."""
    ext = Path(name).suffix.lower() or ".xlsx"
    if ext in _ZIP_SPREADSHEETS or data[:4] == b"PK\x03\x04":
        _check_zip(data, limits, "corrupt_table", ext)
    sheets = dict(pl.read_excel(io.BytesIO(data), sheet_id=0, engine="calamine"))
    preambles: dict[str, list[str]] = {}
    for name, frame in sheets.items():
        if not any(column.startswith("__UNNAMED__") for column in frame.columns):
            continue  # every header cell filled: the first row is the header
        # an empty header cell: perhaps a title above the table; read the rows as they stand, blank ones kept
        raw = pl.read_excel(
            io.BytesIO(data), sheet_name=name, engine="calamine", has_header=False, drop_empty_rows=False
        )
        rows = raw.head(50).rows()
        if (header := header_row(rows)) > 0:
            options = {"header_row": header}
            sheets[name] = pl.read_excel(io.BytesIO(data), sheet_name=name, engine="calamine", read_options=options)
            preambles[name] = [str(cell) for row in rows[:header] for cell in row if cell not in (None, "")]
        sheets[name] = _blank_headers_named(sheets[name])
    return _table_extraction(sheets, ext.lstrip("."), preambles=preambles)


def _blank_headers_named(frame: pl.DataFrame) -> pl.DataFrame:
    """A header cell left blank is named by its place ("column 2"), not by the reader's "__UNNAMED__1",
    which would reach chunks, fact-table columns and refusal messages."""
    taken = set(frame.columns)
    names = {}
    for position, column in enumerate(frame.columns, start=1):
        if column.startswith("__UNNAMED__") and (named := f"column {position}") not in taken:
            names[column] = named
    return frame.rename(names)
