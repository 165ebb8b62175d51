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

from strata_pipeline.answering.answer import Answer, Citation, checked_row, terms
from strata_pipeline.answering.table_text import as_record, cells
from strata_pipeline.facts.phrasing import COST_VERBS, PRICE_WORDS
from strata_pipeline.retrieval.candidate import Candidate

MAX_WINDOW = 4  # words of the question a cell may span
# question words a column may be named by ("| Wave | Scope | When |"), en, de, fr
WH_COLUMNS = frozenset("when where who what wann wo wer was quand où qui quoi".split())
NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")
CURRENCIES = frozenset("usd eur chf gbp jpy".split())
# units a column's name may end in ("warranty_months", "weight_kg", "lead_time_weeks")
UNITS = CURRENCIES | frozenset(
    "seconds minutes hours days weeks months years mm cm m km kg g t w kw v a mbps gbps gb tb percent".split()
)
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


# An amount with its currency or unit ("12,000 €", "$300", "5 days", "45 %") is a value the question may
# give ("a motor claim worth 12,000 €"), not a key: it names the row that happens to hold it, not the
# thing asked about (the fee band that holds 12,000 € does not write it).
_AMOUNT = re.compile(r"\s*(?:[$€£]\s?\d[\d.,' ]*|\d[\d.,' ]*\s?(?:[$€£%]|eur|usd|chf|gbp|[^\W\d_]+))\s*", re.IGNORECASE)


def _is_key(cell: str) -> bool:
    if _AMOUNT.fullmatch(cell) and not re.search(r"[A-Za-z]-?\d", cell):
        return False
    return any(ch.isdigit() for ch in cell) or "-" in cell.strip("-")


def named_row(question: str, passage: Candidate, unique: bool = False) -> Row | None:
    """The one row of `passage`'s tables that `question` names, or None. With `unique`, only a row named
    by a cell no other row of its table shares, and whose columns the question asks."""
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
            # a row named only by its description ("the RX Dock charging station"): a phrase of its own
            described = {
                _key(c) for c in row.cells if _is_phrase(c) and _key(c) in windows and share[_key(c)] == 1
            } - named
            # "Cart lift top module, 300 kg": a description names its row by the phrase before its first comma
            described |= {
                _key(c)
                for c in row.cells
                if _is_phrase(head := c.split(",")[0]) and "," in c and _key(head) in windows and share[_key(c)] == 1
            } - named
            if unique:
                named = {k for k in named if share[k] == 1}
            if not named and not described:
                continue
            # a row told apart only by a value other rows share ("RX-300" in six rows), or only by its
            # description, is the one meant when the question asks one of its columns: "how long does the
            # RX-300 take to charge" asks nothing of the price list's rows
            # (a column other than the one that names it: "the Level 2 courses" asks nothing of "Level")
            asked = asks_column(question, row, skip=named | described)
            if (described or all(share[k] > 1 for k in named) or unique) and not asked:
                continue
            weight = sum(1 / share[k] for k in named | described)
            overlap = len(wanted & terms(" ".join(row.cells)))
            best.append(((weight, overlap), row))
    if not best:
        return None
    best.sort(key=lambda scored: scored[0], reverse=True)
    if len(best) > 1 and best[1][0] == best[0][0]:
        return None  # two rows named alike: the question does not say which
    return best[0][1]


def _is_phrase(cell: str) -> bool:
    """A cell that names its row by words alone: two to MAX_WINDOW words, no digit ("RX Dock charging
    station", "Monday to Friday"); one word ("closed", "production") is an ordinary value."""
    return not any(ch.isdigit() for ch in cell) and 2 <= len(cell.split()) <= MAX_WINDOW


def asks_column(question: str, row: Row, skip: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether `question` asks for one of `row`'s columns: a column name shares a content word with it
    ("price" in "list_price"), abbreviates a run of its words ("os": "operating systems"), or is the
    question word it opens with (a "When" column answers "when does wave 2 run"). Columns whose cell is
    one of `skip` (the keys that named the row) are not asked."""
    wanted = terms(question)
    header = [name for name, cell in zip(row.header, row.cells, strict=True) if _key(cell) not in skip]
    if any(wanted & terms(name.replace("_", " ")) for name in header):
        return True
    if re.search(COST_VERBS, question.casefold()) and any(
        PRICE_WORDS & set(re.split(r"[\W_]+", n.casefold())) for n in header
    ):
        return True  # "what does the Fire Warden Training cost": its price column
    words = re.findall(r"[^\W\d_]+", question.casefold())
    if words and words[0] in WH_COLUMNS and any(name.strip().casefold() == words[0] for name in header):
        return True
    initials = {"".join(w[0] for w in words[i : i + n]) for n in range(2, 5) for i in range(len(words) - n + 1)}
    return any(_key(name) in initials for name in header)


def row_answer(question: str, passages: list[Candidate], anywhere: bool = False) -> Answer | None:
    """The row the question names in the passage closest to it, as "column: value; ...", cited by its
    line; None when that passage has no such row. With `anywhere` (passages already narrowed to what
    the question is about: the documents an earlier step found, or those holding its identifier), the
    first passage with such a row, in rank order."""
    found = found_row(question, passages, anywhere)
    return as_answer(*found) if found is not None else None


def checked_row_answer(question: str, passages: list[Candidate]) -> Answer | None:
    """row_answer for `/ask`, or an abstention when the named row's columns speak of other kinds of the
    thing asked ("cyber claim" against property and motor claims: answer.checked_row); None when the
    passages name no row."""
    found = found_row(question, passages)
    return None if found is None else checked_row(question, as_answer(*found, mode="extractive"), found[0])


def found_row(question: str, passages: list[Candidate], anywhere: bool = False) -> tuple[Candidate, Row] | None:
    """The passage and row row_answer answers with, or None."""
    if not passages:
        return None
    read = passages if anywhere else [max(passages, key=lambda c: c.dense_score or 0.0)]  # the first of equals
    named = [(c, row) for c in read if (row := named_row(question, c)) is not None]
    # one thing with rows in several tables ("RX300-HITCH" in the stock sheet and the price list): the row
    # whose columns the question asks ("how much does it cost": the price list's)
    found = next((f for f in named if asks_column(question, f[1], skip=_keys(question, f[1]))), None)
    found = found or next(iter(named), None)
    if found is None and not anywhere:
        # a row that a cell no other row of its table shares names ("bsl-db-03" in the servers sheet,
        # "Wave 2" in the schedule), and whose columns the question asks, is that thing's record, whatever
        # passage is closest in meaning (an incident about it); a value many rows share ("wave3") keys none
        found = next(((c, row) for c in passages if (row := named_row(question, c, unique=True)) is not None), None)
    return found


def _keys(question: str, row: Row) -> set[str]:
    """The cells of `row` that the question names (its key), as keys."""
    windows = _windows(question)
    return {_key(c) for c in row.cells if _key(c) in windows}


def as_answer(passage: Candidate, row: Row, mode: str = "agent") -> Answer:
    """A row as the answer: "column: value; ..." (a number with the unit its column is named by), cited
    by its line."""
    p = passage.payload
    line = int(p.get("line_start", 1)) + row.line_offset
    citation = Citation(p.get("chunk_id", ""), p.get("doc_id", ""), p.get("source_set", ""), line, line, row.line,
                        p.get("page"))  # fmt: skip
    shown = as_record(row.header, [_with_unit(name, value) for name, value in zip(row.header, row.cells, strict=True)])
    return Answer(text=f"{shown} [{citation.chunk_id}]", citations=[citation], mode=mode)


def _with_unit(column: str, value: str) -> str:
    """A bare number with the unit its column's name ends in: "warranty_months" 24 -> "24 months"; a column
    "list_price_usd" 4800 -> "4800 USD". Alone, "24" does not say 24 of what."""
    unit = re.split(r"[\s_]+", column.strip().casefold())[-1].strip("()[]")
    if not NUMBER.fullmatch(value.strip()) or unit not in UNITS:
        return value
    return f"{value} {unit.upper() if unit in CURRENCIES else unit}"
