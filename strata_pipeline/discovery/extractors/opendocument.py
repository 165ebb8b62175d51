"""OpenDocument text (.odt): the body of content.xml, headings as Markdown, lists, tables as rows."""

from __future__ import annotations

import io
import zipfile
from typing import Any

from strata_pipeline.discovery.extractors.extraction import (
    DEFAULT_LIMITS,
    Extraction,
    ExtractionError,
    ExtractLimits,
    _guarded,
)
from strata_pipeline.discovery.extractors.office import _check_zip

_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_MAX_LIST_INDENT = 8


def _q(namespace: str, tag: str) -> str:
    return f"{{{namespace}}}{tag}"


H, P, LIST, ITEM, HEADER = (_q(_TEXT, t) for t in ("h", "p", "list", "list-item", "list-header"))
TABLE, ROW, CELL, COVERED = (_q(_TABLE, t) for t in ("table", "table-row", "table-cell", "covered-table-cell"))
# Inline elements that stand for white space, and ones whose text is not part of the running text.
_SPACE, _TAB, _BREAK = _q(_TEXT, "s"), _q(_TEXT, "tab"), _q(_TEXT, "line-break")
_SKIP_INLINE = frozenset({_q(_TEXT, "note-citation"), _q(_OFFICE, "annotation"), _q(_TEXT, "tracked-changes")})


def _inline(element: Any) -> str:
    """The text of a paragraph or heading, spaces and tabs as written, on one line."""
    parts: list[str] = [element.text or ""]
    for child in element:
        if child.tag == _SPACE:
            parts.append(" " * min(int(child.get(_q(_TEXT, "c"), "1") or 1), 64))
        elif child.tag == _TAB:
            parts.append("\t")
        elif child.tag == _BREAK:
            parts.append(" ")
        elif child.tag in (P, H):  # a paragraph inside a note or a frame: a word of its own
            parts.append(f" {_inline(child)} ")
        elif child.tag not in _SKIP_INLINE and isinstance(child.tag, str):
            parts.append(_inline(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _blocks(container: Any, out: list[str], depth: int = 0) -> None:
    """Append the blocks under `container`: sections, frames and other wrappers are opened."""
    for child in container:
        tag = child.tag
        if tag == H:
            if text := _one_line(_inline(child)):
                level = int(child.get(_q(_TEXT, "outline-level"), "1") or 1)
                out.append("#" * min(max(level, 1), 6) + " " + text)
        elif tag == P:
            if text := _one_line(_inline(child)):
                out.append(text)
        elif tag == LIST:
            out.append("\n".join(_list_lines(child, depth)))
        elif tag == TABLE:
            out.append("\n".join(_table_rows(child)))
        elif isinstance(tag, str) and tag not in _SKIP_INLINE:
            _blocks(child, out, depth)


def _list_lines(list_element: Any, depth: int) -> list[str]:
    lines: list[str] = []
    indent = "  " * min(depth, _MAX_LIST_INDENT)
    for item in list_element:
        if item.tag not in (ITEM, HEADER):
            continue
        for child in item:
            if child.tag == LIST:
                lines += _list_lines(child, depth + 1)
            elif child.tag in (P, H) and (text := _one_line(_inline(child))):
                lines.append(f"{indent}- {text}")
    return [line for line in lines if line]


def _table_rows(table: Any) -> list[str]:
    """Rows of this table (inside header-row and row-group wrappers too), cells joined by " | "."""
    rows = []
    for row in table.iter(ROW):
        if next(row.iterancestors(TABLE)) is not table:  # a row of a table nested in a cell
            continue
        cells = [
            _one_line(" ".join(_inline(p) for p in cell.iter(P, H))) for cell in row if cell.tag in (CELL, COVERED)
        ]
        while cells and not cells[-1]:  # a row is padded with repeated empty cells to the sheet's width
            cells.pop()
        if any(cells):
            rows.append(" | ".join(cells))
    return rows


@_guarded("corrupt_odt", ".odt document")
def extract_odt(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    from lxml import etree

    _check_zip(data, limits, "corrupt_odt", ".odt")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        try:
            content = archive.read("content.xml")
        except KeyError:
            raise ExtractionError("corrupt_odt", "The .odt package has no content.xml.") from None
    # No entities resolved, no network: a crafted content.xml cannot expand or fetch anything.
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    root = etree.fromstring(content, parser)
    body = root.find(f"{_q(_OFFICE, 'body')}/{_q(_OFFICE, 'text')}")
    if body is None:
        raise ExtractionError("corrupt_odt", "The .odt content.xml has no text body.")
    blocks: list[str] = []
    _blocks(body, blocks)
    return Extraction(text="\n\n".join(block for block in blocks if block), kind="text", encoding="odt")
