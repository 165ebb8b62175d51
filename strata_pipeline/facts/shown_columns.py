"""Which columns a list or an intersection reads beside the one the parser matched: the rows' names
instead of their numbers, and the second table that shares the key."""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import DOCUMENTS, Catalogue, Column, Table
from strata_pipeline.facts.wording import stem_word, words

# Words of a column that numbers its rows, and of one that names them.
# A code ("PDX") is how people name a row; a serial number ("700388") is not.
NUMBER_COLUMN_WORDS = frozenset("nr no id nummer number num numero numéro nº n°".split())
NAME_COLUMN_WORDS = frozenset("name names bezeichnung nom designation désignation firma company raison".split())


def names_for_numbers(question: str, table: Table, column: str) -> str:
    """The column naming the rows when `column` numbers them and the question asks for no number: "which
    suppliers" lists the suppliers' names, not the "Lieferanten-Nr" that "suppliers" also names."""
    chosen = table.column(column)
    if chosen is None or not NUMBER_COLUMN_WORDS & set(chosen.words):
        return column
    if re.search(r"\b(?:nr|no|ids?|nummern?|numbers?|num|num[ée]ros?)\b", question.lower()):
        return column  # "which supplier numbers"
    named = [
        c
        for c in table.columns
        if c.kind == "text" and NAME_COLUMN_WORDS & set(c.words) and not any("[" in v for v in c.values)
    ]  # a name column redaction reached ("[ADDRESS_1] Central") names the rows worse than their numbers
    if named and named[0].values and len(named[0].values) < table.row_count:
        return column  # two rooms both "Obst/Gemüse": a designation that repeats tells no row apart
    return named[0].name if named else column


# "Who", "wer", "qui" ask for people: the column of a person's name, or of who holds, answers or is assigned a row
ASKS_PERSON = re.compile(r"^\s*(?:who|whose|whom|wer|wem|wessen|qui|à qui|de qui)\b", re.IGNORECASE)
PERSON_COLUMN_WORDS = frozenset(
    "employee employees person personne mitarbeiter mitarbeiterin collaborateur collaboratrice owner "
    "verantwortlich responsible responsable ansprechpartner contact driver fahrer chauffeur".split()
)
# "Name" alone names people; "vlan_name" or "Firma Name" names a thing
PERSON_NAMES = frozenset({("name",), ("names",), ("nom",), ("full", "name"), ("nom", "complet")})


def _of_people(column: Column) -> bool:
    return column.kind == "text" and (column.words in PERSON_NAMES or bool(PERSON_COLUMN_WORDS & set(column.words)))


def person_asked(question: str, table: Table, column: str) -> str:
    """The one column of people's names a "who" question lists ("Wer hatte seine letzte HACCP-Schulung vor mehr
    als 12 Monaten": `Name`), when the column matched names no person; else `column`."""
    chosen = table.column(column)
    if not ASKS_PERSON.search(question) or (chosen is not None and _of_people(chosen)):
        return column
    people = [c for c in table.columns if _of_people(c)]
    return people[0].name if len(people) == 1 else column


def second_table(stems: set[str], catalogue: Catalogue, first: Table, columns: tuple[str, ...]) -> tuple[str, ...]:
    """The other table an intersection reads: the one the question names by its label that holds the key
    column, else the one other sheet of the same source that holds it; () when none is told apart."""
    key = columns[0] if columns else first.columns[0].name
    for table in catalogue.tables:
        label = [stem_word(w) for w in words(table.label)]
        if table.name != first.name and label and all(w in stems for w in label) and table.column(key):
            return (table.name,)
    # "which vehicles appear in both sheets": the one other sheet of the same source that holds the key
    sharing = [t.name for t in catalogue.tables if t.source_set == first.source_set and t.name != first.name
               and t.name != DOCUMENTS and t.column(key)]  # fmt: skip
    return tuple(sharing) if len(sharing) == 1 else ()
