"""A condition on a count or a total per group: "which sites have more than 5 VLANs", "which vehicles had more
than one maintenance job", "welche Standorte haben mehr als 5 VLANs", "which garages charged more than 3,000
euros in total". The rows counted are those of the table the
noun after the number names; the group is the column of that table the asked noun names ("sites": site),
or the key of the asked noun's own table when the counted table holds it ("vehicles": vehicle_id in the
maintenance log). The answer is each group that meets the condition, with its count (`Intent.having`); "how many sites
have ..." is the number of such groups (`Intent.count_groups`).

A total ("in total", "insgesamt", "au total") compares each group's sum of the number column the words after
the number name ("3,000 euros": cost_eur; "300,000 km": odometer_km) in the one table that holds both it and
the asked group.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strata_pipeline.facts.absence import FILLERS, ROW_NOUNS, SHEET_NOUNS, mentions
from strata_pipeline.facts.catalogue import DOCUMENTS, Table
from strata_pipeline.facts.numbers import COMPARE_WORDS, CURRENCY, NUMBER, parse_number
from strata_pipeline.facts.wording import column_named, inflected_forms, stem_word, stems, unit_named, words


@dataclass(frozen=True)
class PerGroup:
    table: Table  # the rows counted
    column: str  # the group they are counted per
    op: str
    value: float
    start: int  # the comparison ("more than 5 VLANs"), as offsets in the question
    end: int
    measure: str = ""  # the number column totalled per group; "" for a count of rows


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
                column = group_column(asked, table, tables)
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


def group_column(asked: str, counted: Table, tables: list[Table]) -> str:
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


# Words that say a figure is the sum of the group's rows, not one row's value.
TOTAL_WORDS = (
    r"\b(?:in total|total|totals|combined|together|altogether|insgesamt|zusammen|gesamt\w*|au total|en tout|"
    r"cumulé\w*)\b"
)


def totalled_per_group(question: str, asked: str, tables: list[Table]) -> PerGroup | None:
    """The total per group a question compares ("more than 3,000 euros in total"); None without a total word,
    or unless exactly one table holds both the asked group and a number column the words after the number
    name (its unit or its words)."""
    lowered = question.lower()
    if not asked or not re.search(TOTAL_WORDS, lowered):
        return None
    for op, pattern in COMPARE_WORDS.items():
        for found in re.finditer(rf"\b(?:{pattern})\s+{CURRENCY}{NUMBER}\s*((?:[\w€$£äöüéèàç\-]+\s*){{0,3}})", lowered):
            said = stems(found.group(0))
            placed = []
            for table in tables:
                column = group_column(asked, table, tables) if table.name != DOCUMENTS else ""
                named = [c.name for c in table.columns if c.kind == "number" and c.name != column
                         and (unit_named(said, c) or column_named(said, c))]  # fmt: skip
                if column and len(named) == 1:
                    placed.append(PerGroup(table, column, op, parse_number(found.group(1)), found.start(), found.end(),
                                           named[0]))  # fmt: skip
            if len(placed) == 1:
                return placed[0]
    return None


# "the most orders", "die meisten Bestellungen", "le plus de commandes": a count of rows is compared
MOST_ROWS = {
    "argmax": r"\b(?:the\s+)?(?:most|die\s+meisten|meisten|le\s+plus\s+d[e']|la\s+plus\s+d[e'])\s*",
    "argmin": r"\b(?:the\s+)?(?:fewest|least|die\s+wenigsten|wenigsten|le\s+moins\s+d[e']|la\s+moins\s+d[e'])\s*",
}


def most_rows(question: str, op: str, asked: str, tables: list[Table]) -> PerGroup | None:
    """The table whose rows a `which X has the most Y` question counts per X, when Y names a table ("which
    supplier received the most orders": purchase orders per supplier_id); None when the words after the
    extreme name no table, or the asked noun names no group of its rows."""
    lowered = question.lower()
    found = re.search(MOST_ROWS[op], lowered) if op in MOST_ROWS else None
    if found is None:
        return None
    said = _counted_words(words(lowered[found.end() :]))
    for table in tables:
        # the counted words name the table, or their second one does as a compound's head ("the most customer
        # contracts": Verträge), unless the first names a number column, which is measured ("the most on-hand
        # stock": on_hand); a first word the rest of the question cannot read is refused there ("late")
        spans = mentions(said, table)
        headed = len(said) > 1 and not _names_number(said[0], table)
        if table.name == DOCUMENTS or not any(first == 0 or (headed and last == 1) for first, last in spans):
            continue
        column = group_column(asked, table, tables)
        if column:
            return PerGroup(table, column, op, 0.0, found.start(), found.end())
    return None


def _names_number(word: str, table: Table) -> bool:
    """Whether a word names one of the table's number columns by a word of its name ("on-hand": on_hand)."""
    said = inflected_forms(word) | {f for part in word.split("-") for f in inflected_forms(part)}
    return any(c.kind == "number" and said & {f for w in c.words for f in inflected_forms(w)} for c in table.columns)
