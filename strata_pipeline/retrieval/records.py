"""Table rows keyed by the identifier a query names.

A table row whose first cell is an identifier is that entity's own record:
`zrh-db-03 | ZRH | ERP PostgreSQL 16 primary | Rocky Linux 9.4 | ...` (cells joined by " | ", as the
extractors write CSV, spreadsheet and Office rows). Incident reports, runbooks and change notes mention
the same identifier in passing, and a host or part named in many documents is no selective identifier
(search.selective_identifier_tier), so the fusion alone ranks the row below prose that matches the
question's other words ("Which operating system runs on bsl-db-03?").

Records come second: right after the fusion's first choice, which they do not displace (a question
about an incident on a host wants the incident report; the host's row is the next best evidence).
A query that is nothing but identifiers ("zrh-db-03") asks for the entity itself, so there its
records come first. Only rows count: prose opening with a product name ("RX-300 battery swap ...") is no record of the
RX-300, and a Markdown table (leading "|") lists codes beside prose about them.
"""

from __future__ import annotations

from collections.abc import Iterable

from strata_pipeline.embedding.identifiers import IDENTIFIER
from strata_pipeline.retrieval.candidate import Candidate

CELL = " | "  # how extracted table rows join their cells


def row_key(text: str) -> str | None:
    """The identifier in a table row's first cell, lower-cased: "zrh-db-03 | ZRH | ..." -> "zrh-db-03";
    None for text that is no such row."""
    text = text.lstrip()
    match = IDENTIFIER.match(text)
    return match.group().lower() if match and text.startswith(CELL, match.end()) else None


def records_of(candidates: Iterable[Candidate], identifiers: Iterable[str]) -> list[Candidate]:
    """The candidates that are table rows keyed by one of the query's `identifiers` (lower-cased)."""
    wanted = frozenset(identifiers)
    if not wanted:
        return []
    return [c for c in candidates if row_key(c.payload.get("text") or "") in wanted]


def records_second(ranked: list[Candidate], records: list[Candidate], first: bool = False) -> list[Candidate]:
    """`ranked` with the `records` right after the first candidate (or first, when it is one), or
    ahead of every candidate when `first` (a query naming only identifiers)."""
    if not ranked or not records:
        return ranked
    ids = {c.point_id for c in records}
    head = [] if first else ranked[:1]
    rest = ranked[len(head) :]
    return head + [c for c in rest if c.point_id in ids] + [c for c in rest if c.point_id not in ids]
