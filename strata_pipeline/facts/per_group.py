"""A condition on a count per group: "which sites have more than 5 VLANs", "which vehicles had more than one
maintenance job", "welche Standorte haben mehr als 5 VLANs". The rows counted are those of the table the
noun after the number names; the group is the column of that table the asked noun names ("sites": site),
or the key of the asked noun's own table when the counted table holds it ("vehicles": vehicle_id in the
maintenance log). The answer is each group that meets the condition, with its count (`Intent.having`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strata_pipeline.facts.absence import FILLERS, ROW_NOUNS, SHEET_NOUNS, mentions
from strata_pipeline.facts.catalogue import DOCUMENTS, Table
from strata_pipeline.facts.numbers import COMPARE_WORDS, NUMBER, parse_number
from strata_pipeline.facts.wording import inflected_forms, stem_word, words


@dataclass(frozen=True)
class PerGroup:
    table: Table  # the rows counted
    column: str  # the group they are counted per
    op: str
    value: float
    start: int  # the comparison ("more than 5 VLANs"), as offsets in the question
    end: int


def counted_per_group(question: str, asked: str, tables: list[Table]) -> PerGroup | None:
    """The count per group a `which` question compares ("more than 5 VLANs"); None when the noun after the
    number names no table's rows, or the asked noun (`asked`, stemmed) names no group of them."""
    lowered = question.lower()
    for op, pattern in COMPARE_WORDS.items():
        for found in re.finditer(
            rf"\b(?:{pattern})\s+{NUMBER}\s+([\wäöüéèàç\-]+(?:\s+[\wäöüéèàç\-'’]+){{0,5}})", lowered
        ):
            said = _counted_words(words(found.group(2)))
            for table in tables:
                if table.name == DOCUMENTS or not any(first == 0 for first, _ in mentions(said, table)):
                    continue
                column = _group(asked, table, tables)
                if column:
                    return PerGroup(table, column, op, parse_number(found.group(1)), found.start(), found.end())
    return None


def _counted_words(said: list[str]) -> list[str]:
    """The words that name what is counted: "maintenance job"; past a row noun and the words that lead to a
    sheet's name ("entrées dans le journal de maintenance": maintenance)."""
    if not said or said[0] not in ROW_NOUNS:
        return said[:2]
    at = 1
    while at < len(said) and (said[at] in FILLERS or said[at] in SHEET_NOUNS):
        at += 1
    return said[at : at + 2] if at > 1 else said[:2]


def _group(asked: str, counted: Table, tables: list[Table]) -> str:
    """The counted table's column the asked noun names, or the key of the asked noun's table it holds."""
    if not asked:
        return ""
    said = inflected_forms(asked) | {asked}  # "Fahrzeuge": vehicle
    named = [c.name for c in counted.columns if c.kind == "text" and said & {stem_word(w) for w in c.words}]
    if named:
        return named[0]
    for table in tables:
        label = {stem_word(w) for w in words(table.label)}
        key = table.columns[0].name if table.columns else ""
        if table is not counted and said & label and key and counted.column(key) is not None:
            return key
    return ""
