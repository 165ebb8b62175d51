"""A table row a sub-question names, answered as the row itself.

The extractive answerer reads a CSV or XLSX section as one long "sentence" and a markdown table row by
its neighbours' likeness ("Wave 1" and "Wave 3" embed alike), so a question that names a row's key
("the list price of RX200-ARM", "patching for wave3", "what is error E-1024") is better answered by that
row, read with its column names. Pure: passages in, an Answer or None out; deterministic.

A row is named when one of its cells, compared without case, spaces or punctuation, equals a run of
the question's words ("wave3" names the cell "Wave 3", "RX-200 arm" the sku "RX200-ARM"), and the cell
holds a digit or a dash (a key, not an ordinary word such as "closed" or "production"). Among the rows
named, cells shared by fewer rows count more, and then more of the question's words in the row; the
best must be the only best. Of a plain search only the passage closest in meaning to the question
(dense score) is read: a table that the search ranked high for a shared word ("wave3" in an inventory)
but that is not about the question is not read. Passages already narrowed to the question's documents
or identifier are all read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strata_pipeline.answering.answer import Answer, Citation, terms
from strata_pipeline.answering.table_text import as_record, cells
from strata_pipeline.embedding.identifiers import identifiers
from strata_pipeline.retrieval.candidate import Candidate

MAX_WINDOW = 4  # words of the question a cell may span
SEPARATOR_ROW = re.compile(r"^\s*\|?[\s|:\-]+\|?\s*$")


@dataclass(frozen=True)
class Row:
    header: tuple[str, ...]
    cells: tuple[str, ...]
    line: str  # verbatim, as the passage holds it: what is cited
    line_offset: int  # lines from the start of the passage


def tables(text: str) -> list[list[Row]]:
    """The tables of a passage, each as its data rows with the header they share: markdown tables
    ("| a | b |" with a |---| line under the header) and sheet rows ("a | b | c", header first)."""
    found: list[list[Row]] = []
    header: tuple[str, ...] | None = None
    rows: list[Row] = []
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if SEPARATOR_ROW.match(line) and "-" in line and "|" in line:
            continue
        row_cells = _cells(line)
        if len(row_cells) < 2:
            if rows:
                found.append(rows)
            header, rows = None, []
            continue
        if header is None or len(row_cells) != len(header):
            if rows:
                found.append(rows)
            header, rows = row_cells, []
            continue
        rows.append(Row(header, row_cells, line, number))
    if rows:
        found.append(rows)
    return found


def _cells(line: str) -> tuple[str, ...]:
    if " | " not in line and not line.lstrip().startswith("|"):
        return ()
    return tuple(cells(line))


def _key(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def _windows(question: str) -> set[str]:
    """The question's runs of 1 to MAX_WINDOW words, each as a key."""
    words = [w.strip("?.,;:!\"'()`*") for w in question.split()]
    return {_key("".join(words[i : i + n])) for n in range(1, MAX_WINDOW + 1) for i in range(len(words))} - {""}


def _is_key(cell: str) -> bool:
    return any(ch.isdigit() for ch in cell) or "-" in cell.strip("-")


def named_row(question: str, passage: Candidate, keys: set[str] | None = None) -> Row | None:
    """The one row of `passage`'s tables that `question` names, or None. With `keys`, only a row keyed by
    one of them counts: a cell that is one of `keys` and that no other row of its table shares."""
    windows = _windows(question)
    wanted = terms(question)
    best: list[tuple[tuple[float, int], Row]] = []
    for rows in tables(passage.payload.get("text", "")):
        share: dict[str, int] = {}
        for row in rows:
            for key in {_key(c) for c in row.cells}:
                share[key] = share.get(key, 0) + 1
        for row in rows:
            named = {_key(c) for c in row.cells if _is_key(c) and _key(c) in windows}
            if keys is not None:
                named = {k for k in named if k in keys and share[k] == 1}
            if not named:
                continue
            weight = sum(1 / share[k] for k in named)
            overlap = len(wanted & terms(" ".join(row.cells)))
            best.append(((weight, overlap), row))
    if not best:
        return None
    best.sort(key=lambda scored: scored[0], reverse=True)
    if len(best) > 1 and best[1][0] == best[0][0]:
        return None  # two rows named alike: the question does not say which
    return best[0][1]


def asks_column(question: str, row: Row) -> bool:
    """Whether `question` asks for one of `row`'s columns: a column name shares a content word with it
    ("price" in "list_price"), or abbreviates a run of its words ("os": "operating systems")."""
    wanted = terms(question)
    if any(wanted & terms(name.replace("_", " ")) for name in row.header):
        return True
    words = re.findall(r"[^\W\d_]+", question.casefold())
    initials = {"".join(w[0] for w in words[i : i + n]) for n in range(2, 5) for i in range(len(words) - n + 1)}
    return any(_key(name) in initials for name in row.header)


def row_answer(question: str, passages: list[Candidate], anywhere: bool = False) -> Answer | None:
    """The row the question names in the passage closest to it, as "column: value; ...", cited by its
    line; None when that passage has no such row. With `anywhere` (passages already narrowed to what
    the question is about: the documents an earlier step found, or those holding its identifier), the
    first passage with such a row, in rank order."""
    if not passages:
        return None
    read = passages if anywhere else [max(passages, key=lambda c: c.dense_score or 0.0)]  # the first of equals
    found = next(((c, row) for c in read if (row := named_row(question, c)) is not None), None)
    if found is None and not anywhere:
        # an identifier the question names that keys a row of any passage ("bsl-db-03" in the servers
        # sheet) is that thing's record, whatever passage is closest in meaning (an incident about it);
        # a value many rows share ("wave3") keys none
        keys = {_key(i) for i in identifiers(question)}
        found = next(
            (
                (c, row)
                for c in passages
                if (row := named_row(question, c, keys)) is not None and asks_column(question, row)
            ),
            None,
        )
    if found is None:
        return None
    top, row = found
    p = top.payload
    line = int(p.get("line_start", 1)) + row.line_offset
    citation = Citation(p.get("chunk_id", ""), p.get("doc_id", ""), p.get("source_set", ""), line, line, row.line,
                        p.get("page"))  # fmt: skip
    shown = as_record(row.header, row.cells)
    return Answer(text=f"{shown} [{citation.chunk_id}]", citations=[citation], mode="agent")
