"""A column only one visible table has, named in full, names that table: "What is the highest odometer
reading?", "List the distinct makes in the fleet." Only when the question says little else: a second
word no column or value holds ("le coût total des réparations de freins") is a condition the table
cannot apply, so the whole sheet's figure would answer another question.
"""

from __future__ import annotations

from strata_pipeline.facts.catalogue import Table
from strata_pipeline.facts.qualities import known_words
from strata_pipeline.facts.vocabulary import UNITS
from strata_pipeline.facts.wording import column_named, forms, stem_word, stems, words

# Words of a question that name nothing in a table: question and aggregate words, common verbs and fillers
QUESTION_WORDS = frozenset(
    "what which list name show give tell highest lowest largest smallest total average mean maximum minimum "
    "distinct different unique there have does were with from that this their across entire whole overall "
    "quel quelle quels quelles sont dans pour avec tous toutes welche welcher welches sind gibt alle insgesamt "
    "höchste niedrigste durchschnitt".split()
)


def own_column(column: str, question: str, tables: list[Table]) -> bool:
    """Whether `column` is named in full (its unit aside), only one of `tables` has it, and at most one other
    word of four letters or more names nothing in that table ("reading" in "the highest odometer reading")."""
    named = [w for w in column.lower().split("_") if w and w not in UNITS.values()]
    holders = [t for t in tables if t.column(column) is not None]
    if len(holders) != 1 or not named or max(map(len, named)) < 4:
        return False
    if not all(stem_word(w) in stems(question) for w in named):
        return False
    known = known_words(holders[0])
    unread = [w for w in words(question) if len(w) >= 4 and w not in QUESTION_WORDS and not forms(w) & known]
    return len(unread) <= 1


def dated_own_column(columns: set[str], said: set[str], table: Table, tables: list[Table]) -> str:
    """The date column of `columns` (those a date condition reads) that the question names (`said`: its stems)
    and only `table` has: "wer hatte seine letzte HACCP-Schulung vor mehr als 12 Monaten" names the training
    records by `HACCP (last training)` as a label would. "" when none, or when another table has it too."""
    for name in sorted(columns):
        column = table.column(name)
        if column is None or not column.is_date or not column_named(said, column):
            continue
        if max(map(len, column.name_words), default=0) >= 4 and [t for t in tables if t.column(name)] == [table]:
            return name
    return ""
