"""Text extraction per file format.

Each extractor turns bytes on disk into an `Extraction`. Failures are raised as
`ExtractionError` with a stable code, so the caller can record an error row instead of
failing the run.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

# Pages of a PDF are joined with a form feed, so any later stage can recover the page number
# of an offset by counting form feeds before it, even after redaction has shifted offsets.
PAGE_BREAK = "\n\f\n"


class ExtractionError(Exception):
    """A file could not be turned into text. `code` is stable and machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class PageSpan:
    page: int  # 1-based page number
    start: int  # char offset into the document text
    end: int


@dataclass(frozen=True)
class ExtractLimits:
    """Bounds that keep one hostile file from costing the run its memory or time."""

    max_pages: int = 500  # PDF pages read; later pages are reported, not read
    max_zip_expansion: int = 200 * 1024 * 1024  # total uncompressed bytes of a .docx/.xlsx package
    max_text_chars: int = 5_000_000


@dataclass
class Extraction:
    text: str
    kind: str  # "text" (prose), "table" (spreadsheets) or "config" (.json/.yaml/.toml/.ini)
    encoding: str = ""
    pages: list[PageSpan] = field(default_factory=list)
    # sheet name -> rows, for .csv/.xlsx
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    # things a reader should know but that do not make the file unusable, e.g.
    # "scanned_pages:3,4", "page_cap:500 of 812", "encoding_fallback:cp1252"
    warnings: list[str] = field(default_factory=list)
    # document metadata found in the file itself, e.g. Markdown front matter
    metadata: dict = field(default_factory=dict)


def decode_text(data: bytes) -> tuple[str, str]:
    """Decode bytes as UTF-8 (with or without BOM), UTF-16 with BOM, else cp1252.

    Returns (text, encoding). NUL bytes in a non-UTF-16 file mean binary content.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16"), "utf-16"
    if b"\x00" in data:
        raise ExtractionError("binary_content", "File contains NUL bytes: it is binary, not text.")
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError as exc:
        raise ExtractionError("decode_error", f"Not UTF-8, UTF-16 or cp1252 text: {exc}") from exc


def extract_plain(data: bytes) -> Extraction:
    text, encoding = decode_text(data)
    return Extraction(text=text.replace("\r\n", "\n"), kind="text", encoding=encoding)


def extract_docx(data: bytes) -> Extraction:
    import docx
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises several types for a non-zip or broken package
        raise ExtractionError("corrupt_docx", f"Not a readable .docx package: {exc}") from exc
    blocks: list[str] = []
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            for row in item.rows:
                cells = [c.text.strip() for c in row.cells]
                if any(cells):
                    blocks.append(" | ".join(cells))
            continue
        text = item.text.strip()
        if not text:
            continue
        style = (item.style.name if item.style is not None else "") or ""
        if style.startswith("Heading"):
            level = "".join(ch for ch in style if ch.isdigit()) or "1"
            text = "#" * int(level) + " " + text
        elif style == "Title":
            text = "# " + text
        blocks.append(text)
    return Extraction(text="\n\n".join(blocks), kind="text", encoding="docx")


def extract_pdf(data: bytes) -> Extraction:
    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ExtractionError("encrypted_pdf", "PDF is encrypted and the empty password does not open it.")
        parts: list[str] = []
        pages: list[PageSpan] = []
        offset = 0
        for number, page in enumerate(reader.pages, start=1):
            page_text = (page.extract_text() or "").strip()
            pages.append(PageSpan(page=number, start=offset, end=offset + len(page_text)))
            parts.append(page_text)
            offset += len(page_text) + len(PAGE_BREAK)
    except ExtractionError:
        raise
    except Exception as exc:  # pypdf raises many types for truncated or malformed files
        raise ExtractionError("corrupt_pdf", f"PDF could not be parsed: {exc}") from exc
    return Extraction(text=PAGE_BREAK.join(parts), kind="text", encoding="pdf", pages=pages)


def extract_csv(data: bytes, name: str) -> Extraction:
    text, encoding = decode_text(data)
    try:
        frame = pl.read_csv(io.StringIO(text), infer_schema_length=1000)
    except Exception as exc:
        raise ExtractionError("corrupt_table", f"CSV could not be parsed: {exc}") from exc
    return _table_extraction({Path(name).stem: frame}, encoding)


def extract_xlsx(data: bytes) -> Extraction:
    try:
        sheets = pl.read_excel(io.BytesIO(data), sheet_id=0)
    except Exception as exc:
        raise ExtractionError("corrupt_table", f"Spreadsheet could not be parsed: {exc}") from exc
    return _table_extraction(dict(sheets), "xlsx")


def _table_extraction(tables: dict[str, pl.DataFrame], encoding: str) -> Extraction:
    """Render tables as text too, so rules (min length) and language detection can see them."""
    rendered = []
    for sheet, frame in tables.items():
        lines = [f"## {sheet}", " | ".join(frame.columns)]
        lines += [" | ".join("" if v is None else str(v) for v in row) for row in frame.iter_rows()]
        rendered.append("\n".join(lines))
    return Extraction(text="\n\n".join(rendered), kind="table", encoding=encoding, tables=tables)


Extractor = Callable[[bytes, str], Extraction]

EXTRACTORS: dict[str, Extractor] = {
    ".md": lambda data, name: extract_plain(data),
    ".markdown": lambda data, name: extract_plain(data),
    ".txt": lambda data, name: extract_plain(data),
    ".docx": lambda data, name: extract_docx(data),
    ".pdf": lambda data, name: extract_pdf(data),
    ".csv": extract_csv,
    ".xlsx": lambda data, name: extract_xlsx(data),
}


# Formats whose parsers are complex enough to hang or balloon on a crafted file: discovery runs
# them in a worker process under a timeout. Plain text and config are decoded in-process.
ISOLATED_EXTENSIONS = frozenset({".pdf", ".docx", ".xlsx", ".csv", ".html", ".htm", ".php"})


def extract(data: bytes, name: str, limits: ExtractLimits = ExtractLimits()) -> Extraction:  # noqa: B008
    """Extract text from the bytes of a file called `name`, by its extension."""
    ext = Path(name).suffix.lower()
    extractor = EXTRACTORS.get(ext)
    if extractor is None:
        raise ExtractionError("unsupported_format", f"No extractor for {ext or 'files without extension'}.")
    if not data:
        raise ExtractionError("empty_file", "File is empty (0 bytes).")
    return extractor(data, name)
