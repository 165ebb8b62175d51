"""reStructuredText and AsciiDoc: plain text whose section titles become Markdown headings, so the
chunker gives their chunks a heading path as it does for Markdown. Everything else stays as written."""

from __future__ import annotations

import re
from pathlib import Path

from strata_pipeline.discovery.extractors.extraction import DEFAULT_LIMITS, Extraction, ExtractLimits, _guarded
from strata_pipeline.discovery.extractors.text_files import extract_plain

# An RST adornment line: one punctuation character repeated, nothing else (simple-table borders have
# spaces between their columns, so they never match).
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_ADOC_TITLE = re.compile(r"^(={1,6})[ \t]+(\S.*?)[ \t]*=*[ \t]*$")
# AsciiDoc delimited blocks (listing, literal, example, comment, passthrough, sidebar, quote): a line
# inside one that starts with "=" is content, not a title.
_ADOC_DELIMITER = re.compile(r"^(-{4,}|\.{4,}|={4,}|/{4,}|\+{4,}|\*{4,}|_{4,}|`{3}.*)\s*$")


def rst_headings(text: str) -> str:
    """Underlined (or over- and underlined) RST section titles as "#" headings: the first adornment
    style seen is level 1, the next new one level 2, as docutils assigns them."""
    lines = text.split("\n")
    styles: list[tuple[str, bool]] = []
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        over = _RST_ADORNMENT.match(line)
        # Overline, title, underline of the same character.
        if (
            over
            and index + 2 < len(lines)
            and lines[index + 1].strip()
            and (under := _RST_ADORNMENT.match(lines[index + 2]))
        ):
            title = lines[index + 1].strip()
            if under.group(1) == over.group(1) and len(lines[index + 2].rstrip()) >= len(title):
                out.append(_heading(styles, (over.group(1), True), title))
                index += 3
                continue
        under = _RST_ADORNMENT.match(lines[index + 1]) if index + 1 < len(lines) and not over else None
        previous_blank = index == 0 or not lines[index - 1].strip()
        title = line.strip()
        if (
            under
            and title
            and previous_blank
            and not line[0].isspace()
            and len(lines[index + 1].rstrip()) >= len(title)
        ):
            out.append(_heading(styles, (under.group(1), False), title))
            index += 2
            continue
        out.append(line)
        index += 1
    return "\n".join(out)


def _heading(styles: list[tuple[str, bool]], style: tuple[str, bool], title: str) -> str:
    if style not in styles:
        styles.append(style)
    return "#" * min(styles.index(style) + 1, 6) + " " + title


def adoc_headings(text: str) -> str:
    """AsciiDoc titles ("= Document", "== Section", up to six "=") as "#" headings, outside blocks."""
    out: list[str] = []
    delimiter = ""
    for line in text.split("\n"):
        if match := _ADOC_DELIMITER.match(line):
            fence = match.group(1)[:3] if match.group(1).startswith("`") else match.group(1).rstrip()
            delimiter = "" if fence == delimiter else delimiter or fence
        elif not delimiter and (title := _ADOC_TITLE.match(line)):
            line = "#" * len(title.group(1)) + " " + title.group(2)
        out.append(line)
    return "\n".join(out)


@_guarded("corrupt_text", "text file")
def extract_markup(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """A .rst, .adoc or .asciidoc file, decoded as plain text, its section titles as headings."""
    extraction = extract_plain(data, name, limits)
    convert = rst_headings if Path(name).suffix.lower() == ".rst" else adoc_headings
    extraction.text = convert(extraction.text)
    return extraction
