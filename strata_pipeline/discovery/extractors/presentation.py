"""PowerPoint .pptx decks: every slide's title, text, tables and speaker notes, in slide order."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from strata_pipeline.discovery.extractors.extraction import DEFAULT_LIMITS, Extraction, ExtractLimits, _guarded
from strata_pipeline.discovery.extractors.office import _check_zip

# Placeholders a layout fills in on every slide (slide number, date, footer): boilerplate, not content.
_BOILERPLATE = frozenset({"SLIDE_NUMBER", "DATE", "FOOTER", "HEADER"})
_TITLES = frozenset({"TITLE", "CENTER_TITLE", "VERTICAL_TITLE"})


def _placeholder_type(shape: Any) -> str:
    if not shape.is_placeholder:
        return ""
    kind = shape.placeholder_format.type
    return kind.name if kind is not None else ""


def _leaf_shapes(shapes: Any) -> Iterator[Any]:
    """Shapes in reading order (top to bottom, then left to right); groups are opened."""
    from pptx.shapes.group import GroupShape

    def position(shape: Any) -> tuple[int, int]:
        return (shape.top or 0, shape.left or 0)

    stack = sorted(shapes, key=position, reverse=True)
    while stack:
        shape = stack.pop()
        if isinstance(shape, GroupShape):
            stack.extend(sorted(shape.shapes, key=position, reverse=True))
        else:
            yield shape


def _text_lines(text_frame: Any) -> list[str]:
    """Non-empty paragraphs; an indented bullet level is indented in the text too."""
    lines = []
    for paragraph in text_frame.paragraphs:
        text = " ".join(paragraph.text.split())
        if text:
            lines.append("  " * min(paragraph.level, 8) + text)
    return lines


def _slide_blocks(slide: Any) -> tuple[str, list[str]]:
    """(title, blocks) of one slide: text frames as lines, tables as rows joined by " | "."""
    title = ""
    blocks: list[str] = []
    for shape in _leaf_shapes(slide.shapes):
        kind = _placeholder_type(shape)
        if kind in _BOILERPLATE:
            continue
        if shape.has_text_frame:
            lines = _text_lines(shape.text_frame)
            if kind in _TITLES and not title and lines:
                title = " ".join(line.strip() for line in lines)
            elif lines:
                blocks.append("\n".join(lines))
        elif shape.has_table:
            rows = [[" ".join(cell.text.split()) for cell in row.cells] for row in shape.table.rows]
            blocks += ["\n".join(" | ".join(cells) for cells in rows if any(cells))]
    return title, [block for block in blocks if block]


@_guarded("corrupt_pptx", ".pptx presentation")
def extract_pptx(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """One "## Slide N: title" section per slide, its text and table rows, then "Notes: " and the notes.
    The deck's title (its document property, else the first slide's title) leads as "# title", so
    the document title and every chunk's context name the deck rather than "Slide 1"."""
    import pptx

    _check_zip(data, limits, "corrupt_pptx", ".pptx")
    deck = pptx.Presentation(io.BytesIO(data))  # its many error types for a broken package: see _guarded
    sections = []
    deck_title = " ".join((deck.core_properties.title or "").split())
    for number, slide in enumerate(deck.slides, start=1):
        title, blocks = _slide_blocks(slide)
        deck_title = deck_title or title
        notes = slide.notes_slide.notes_text_frame if slide.has_notes_slide else None
        if notes is not None and (lines := [line.strip() for line in _text_lines(notes)]):
            blocks.append("Notes: " + "\n".join(lines))
        heading = f"## Slide {number}: {title}" if title else f"## Slide {number}"
        sections.append("\n\n".join([heading, *blocks]))
    if deck_title:
        sections.insert(0, "# " + deck_title)
    return Extraction(text="\n\n".join(sections), kind="text", encoding="pptx")
