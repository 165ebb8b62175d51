"""A table that gives what the question asks, but for other things than the one it names.

"What is the surface water drainage charge in Colmont?" over a price table with one row per town and
component: the rows for Colmont give its standing charge only, and the rows for Aarlingen and Weißbach
give their drainage charges. Quoting those rows answers for a sibling, or answers another question
about Colmont. A table's row is a record, so what the question asks of a name must be in a row with
the name: when some other row matches the rest of the question better than every row of the name, the
table does not hold the answer (the table form of siblings.py).

Plain functions over text; no index, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from strata_pipeline.answering.abstention import value_word
from strata_pipeline.answering.names import named_words
from strata_pipeline.answering.table_text import cells, is_table_line
from strata_pipeline.answering.wording import asked_part
from strata_pipeline.classification.language import query_language

Terms = Callable[[str], set[str]]

_SEPARATOR = re.compile(r"^[\s|:\-+]+$")


def body_rows(passage: str) -> list[str]:
    """The rows of the tables in `passage` ("Colmont | water standing charge | per month | 7.17"),
    less each table's first row (its column names) and separator lines."""
    rows: list[str] = []
    in_table = False
    for line in passage.splitlines():
        is_row = is_table_line(line)
        if is_row and not _SEPARATOR.match(line) and in_table:
            rows.append(line)
        in_table = is_row
    return rows


def sibling_row(question: str, passages: Sequence[str], terms: Terms) -> tuple[str, str] | None:
    """(name, row) when a table of `passages` is keyed by a name of the question (the name is a whole
    cell of some rows: "Colmont", not "Warehouse management server Stuttgart"), and `row`, a row without
    the name, matches the rest of the question better than all of the name's rows; None otherwise.

    Only the words that tell rows apart count: in some rows, not all ("drainage", not "water" when every
    row is water), no unit or calendar word ("this year"), and not in the passage outside its tables
    (its title and prose say what the whole table is about: "the current restore runbook"). A row of the
    name that matches as many of them as any other row may be the answer, and so may one when no other
    row matches two of them."""
    if query_language(question) != "en":
        return None  # a German or French question's words rarely match an English table's ("charge utile")
    asked = asked_part(question)
    words = named_words(asked)
    names = [terms(word) for word in words]
    if not any(names):
        return None
    rest = terms(asked) - set().union(*names)
    for passage in dict.fromkeys(passages):
        rows = body_rows(passage)
        held = [terms(row) for row in rows]
        around = terms("\n".join(line for line in passage.splitlines() if not is_table_line(line)))
        telling = {t for t in rest - around if 0 < sum(t in h for h in held) < len(held) and not value_word(t)}
        if not telling:
            continue
        row_cells = [[terms(cell.strip("*`_ ")) for cell in cells(row)] for row in rows]
        for word, name in zip(words, names, strict=True):
            keyed = [name in row for row in row_cells]
            if not name or not any(keyed) or all(keyed):
                continue  # the name keys no row (or every row: it is the table's setting)
            own = max(len(telling & h) for h, k in zip(held, keyed, strict=True) if k)
            others = [(len(telling & h), r) for h, r, k in zip(held, rows, keyed, strict=True) if not k]
            best, row = max(others, key=lambda other: other[0])  # the first of the best
            if best > max(own, 1):  # two words or more: one shared word ("this year", "New Year's Day") is chance
                return word, row
    return None
