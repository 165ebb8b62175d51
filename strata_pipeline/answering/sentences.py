"""The sentences of a retrieved passage that may answer a question, each with the text it is scored as.

A sentence may wrap over lines but never crosses a block boundary (a blank line, a list item, a table
row, a heading); a table row is one sentence, read with its column names; headings, front matter and
questions are never quoted. Plain functions over text; the answerer (answer.py) ranks what they give.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from strata_pipeline.answering.table_text import header_hint, is_header_row, row_with_header
from strata_pipeline.chunking.context import chunk_context
from strata_pipeline.discovery.table_extensions import TABLE_EXTENSIONS
from strata_pipeline.injection.defence import sentence_flagged
from strata_pipeline.redaction.name_cues import SIGN_OFFS
from strata_pipeline.retrieval.candidate import Candidate

# Blocks end at a blank line or before a line that starts a list item, table row, heading or quote, or
# that is a row of a table rendered from a spreadsheet ("Weißbach | drinking water | 2.58").
BLOCK = re.compile(r"^#[^\n]*|(?:[^\n]|\n(?!\s*\n|\s*(?:[-*+]\s|[|#>]|\d+[.)]\s)|[^\n]* \| ))+", re.MULTILINE)
LIST_NUMBER = re.compile(r"\s*\d+[.)]")
# A sentence starts with a capital or a digit, fullwidth ones (Ｗｈａｔ) included: text in fullwidth
# letters is how an instruction hides, and must not run on into the sentence before it.
SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]*]*\s+(?=[\"'(\[*]*[A-Z0-9\uff10-\uff19\uff21-\uff3a])")
QUESTION_LINE = re.compile(r"^\W*(?:Q|Question)\s*[:.]", re.IGNORECASE)
FRONT_MATTER_LINE = re.compile(r"^(?:title|category|tags|summary|owner|version|date|updated)\s*:", re.IGNORECASE)


# German writes ordinals with a full stop: "bis zum 31. März", "2. Klasse", "im 3. Stock".
GERMAN_ORDINAL = re.compile(r"(?:^|[\s(])\d{1,2}\.$")
# An abbreviation's full stop before a number or a name ends no sentence: "customer no. 4711", "Tel. 0821",
# "Dr. Weber", "bzw. Chemnitz", "z. B. Augsburg".
ABBREVIATION = re.compile(
    r"(?:^|[\s(/])(?:no|nos|nr|tel|fax|mob|str|ca|approx|bzw|inkl|incl|zzgl|ggf|vgl|evtl|ref|art|abs|vol|fig|pp"
    r"|dr|prof|mr|mrs|ms|st|hr|fr|mme|gem|lt|bspw|bzgl|sog|vs|z\.[ ]?b|u\.[ ]?a|d\.[ ]?h|e\.[ ]?g|i\.[ ]?e)\.$",
    re.IGNORECASE,
)


def split_sentences(text: str, spreadsheet: bool = False, german: bool = False) -> list[tuple[int, int]]:
    """(start, end) of sentences. A sentence may wrap over lines, but never crosses a blank line,
    a list item, a table row or a heading, which start new blocks (a heading is a block of its own).
    In `german` text a number of one or two digits and its full stop is an ordinal, no sentence end."""
    spans = []
    for block in BLOCK.finditer(text):
        start = block.start()
        if _is_row(block.group(), spreadsheet) or block.group().startswith("#"):
            spans.append((start, block.end()))  # a row is read whole ("Str. 12" does not end it), a heading too
            continue  # ("## 6. Help" is one heading, not "## 6." and a sentence "Help")
        for end_match in SENTENCE_END.finditer(text, block.start(), block.end()):
            if LIST_NUMBER.fullmatch(text[start : end_match.start()]):
                continue  # "1. Book early." is one sentence, not "1." and "Book early."
            if german and GERMAN_ORDINAL.search(text, max(start, end_match.start() - 4), end_match.start()):
                continue
            if ABBREVIATION.search(text, max(start, end_match.start() - 8), end_match.start()):
                continue
            spans.append((start, end_match.start()))
            start = end_match.end()
        spans.append((start, block.end()))
    return [(a, b) for a, b in ((_lstrip(text, a, b), b) for a, b in spans) if text[a:b].strip()]


def _is_row(block: str, spreadsheet: bool) -> bool:
    """A one-line table row: markdown ("| a | b |"), or rendered from a spreadsheet ("a | b"). In prose
    a " | " is no cell border: a line of Morse code uses it between words."""
    line = block.strip()
    return "\n" not in line and (line.startswith("|") or (spreadsheet and " | " in line))


def _lstrip(text: str, start: int, end: int) -> int:
    while start < end and text[start].isspace():
        start += 1
    return start


@dataclass(frozen=True)
class Sentence:
    quote: str  # verbatim from the passage: what is cited
    scored: str  # what is compared with the question: the quote read in its section and table
    line_offset: int  # lines from the start of the passage


def passage_sentences(candidate: Candidate) -> list[Sentence]:
    """Answer-bearing sentences of a passage, verbatim, each with the text it is scored as.

    Headings, front matter and questions (FAQ "Q:" lines) are skipped: they repeat the question's
    words without answering it. A sentence that reads as an instruction to a model (injection
    scanner) is never quoted. A sentence is scored with its section ("Porto Depot > Opening
    hours") in front, and a table row with its column names ("Day: Saturday; Hours: 09:00"): alone,
    "| Saturday | 09:00 - 12:00 |" says nothing about opening hours or Porto.
    """
    p = candidate.payload
    text = p.get("text", "")
    section = chunk_context(p.get("title") or "", p.get("heading_path") or "")
    found, under = [], section  # a plain-text heading in capitals heads the sentences below it too
    lead = ""  # a sentence that opens a list ("... is needed when:") is read with each of its items
    hint = header_hint(p.get("context") or "")
    sheet = PurePosixPath(p.get("doc_id") or "").suffix.lower() in TABLE_EXTENSIONS
    for start, end in split_sentences(text, sheet, german=p.get("language") == "de"):
        sentence = text[start:end].rstrip()
        if sentence.startswith(("#", "---")) or FRONT_MATTER_LINE.match(sentence) or sentence.strip("-|: ") == "":
            continue
        if _is_caps_heading(sentence):
            under = " > ".join(h for h in (section, sentence.strip().capitalize()) if h)
            continue
        if sentence.endswith("?") or QUESTION_LINE.match(sentence) or _signature(sentence):
            continue
        if is_header_row(text, start, end, sheet):
            continue  # column names alone answer nothing
        if sentence_flagged(sentence):
            continue
        readable = row_with_header(text, start, sentence, hint, sheet) or sentence
        lead = lead if LIST_ITEM.match(sentence) else ""
        readable = f"{lead} {readable.strip()}" if lead else readable
        lead = sentence.strip() if sentence.rstrip().endswith(":") else lead
        scored = f"{under}: {readable}" if under else readable
        found.append(Sentence(sentence, scored, text.count("\n", 0, start)))
    return found


LIST_ITEM = re.compile(r"\s*(?:[-*•]|\d{1,2}[.)])\s")


def _signature(sentence: str) -> bool:
    """A letter's sign-off and the lines under it ("Mit freundlichen Grüßen\n[PERSON_2]\nKey Account ..."):
    who wrote it, never an answer."""
    first = sentence.strip().split("\n", 1)[0].strip(" ,.!*_").lower()
    return first in SIGN_OFFS


def _is_caps_heading(line: str) -> bool:
    """A plain-text heading in capitals ("COURIER CUT-OFF"): no lower-case letter, no digit, not a table
    row, a few words. It names a topic and states nothing."""
    return (
        any(c.isalpha() for c in line)
        and not any(c.islower() or c.isdigit() for c in line)
        and "|" not in line
        and len(line.split()) <= 8
    )
