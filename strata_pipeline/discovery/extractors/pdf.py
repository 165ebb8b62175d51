"""PDF text by page, with numbered section lines and the title marked as Markdown headings."""

from __future__ import annotations

import io
import re

from strata_pipeline.discovery.extractors.extraction import (
    DEFAULT_LIMITS,
    PAGE_BREAK,
    Extraction,
    ExtractionError,
    ExtractLimits,
    PageSpan,
    _guarded,
)

_SURROGATES = re.compile("[\ud800-\udfff]")


def _clean_page(text: str) -> str:
    text = _SURROGATES.sub("\ufffd", text.replace("\x00", "").replace("\f", "\n"))
    return text.strip()


# PDF text carries no heading markup. A short numbered line ("5. Maintenance", "2.1 Mounting the
# base") reads as a section heading, and a short first line on the first page as the title; marked
# as markdown headings, they let the chunker cut sections and give chunks a heading path, as for
# .md and .docx. The number needs a dot, so "10 Nm" stays text; a step that ends in punctuation or
# runs past eight words ("3. Wait until the LED is green.") stays a list item.
_PDF_NUMBERED_HEADING = re.compile(r"^(\d{1,2}\.(?:\d{1,2}\.?)*)[ \t]+([A-Z][^\n.:;,!?]{0,80})$", re.MULTILINE)
_MAX_HEADING_WORDS = 8


def _mark_pdf_headings(text: str, first_page: bool) -> str:
    def promote(match: re.Match[str]) -> str:
        if len(match.group(2).split()) > _MAX_HEADING_WORDS or match.group(2).rstrip() != match.group(2):
            return match.group(0)
        depth = match.group(1).rstrip(".").count(".")
        return f"{'#' * min(2 + depth, 6)} {match.group(0)}"

    text = _PDF_NUMBERED_HEADING.sub(promote, text)
    if first_page:
        first, newline, rest = text.partition("\n")
        title_like = first.strip() and not first.startswith("#") and first.rstrip()[-1] not in ".:;,!?"
        if title_like and len(first.split()) <= _MAX_HEADING_WORDS + 2:
            text = f"# {first}{newline}{rest}"
    return text


@_guarded("corrupt_pdf", "PDF")
def extract_pdf(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Pages joined by PAGE_BREAK with a PageSpan each; at most limits.max_pages pages are read.
    Title and numbered section lines become markdown headings (see _mark_pdf_headings)."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError

    warnings: list[str] = []
    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        try:
            opened = reader.decrypt("")
        except DependencyError as exc:
            raise ExtractionError(
                "encrypted_pdf", f"PDF is encrypted with an algorithm this installation cannot decrypt: {exc}"
            ) from None
        if not opened:
            raise ExtractionError("encrypted_pdf", "PDF is encrypted and the empty password does not open it.")
        warnings.append("encrypted_empty_password")
    total = len(reader.pages)
    if total == 0:
        raise ExtractionError("no_pages", "PDF has no pages.")
    read = min(total, limits.max_pages)
    if total > read:
        warnings.append(f"page_cap:{limits.max_pages} of {total}")
    parts: list[str] = []
    pages: list[PageSpan] = []
    scanned: list[int] = []
    offset = 0
    for number in range(1, read + 1):
        page_text = _mark_pdf_headings(_clean_page(reader.pages[number - 1].extract_text() or ""), number == 1)
        if not page_text:
            scanned.append(number)
        pages.append(PageSpan(page=number, start=offset, end=offset + len(page_text)))
        parts.append(page_text)
        offset += len(page_text) + len(PAGE_BREAK)
    if len(scanned) == read:
        raise ExtractionError(
            "no_text_layer",
            f"PDF has no extractable text: all {read} pages are images without a text layer (scanned); "
            "OCR is not configured.",
        )
    if scanned:
        warnings.append("scanned_pages:" + ",".join(map(str, scanned)))
    return Extraction(text=PAGE_BREAK.join(parts), kind="text", encoding="pdf", pages=pages, warnings=warnings)
