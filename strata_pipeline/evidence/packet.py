"""The evidence packet and the verify report: plain dataclasses, served as JSON.

Field descriptions live in each field's metadata, where pydantic (FastAPI's OpenAPI schema) reads
them, so this module imports no web framework. Positions are in the source's text as the ingestion
extractors read it: characters 0-based with the end excluded, lines 1-based and inclusive.
"""

from __future__ import annotations

import re
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal

from strata_pipeline.validation import SOURCE_SET_PATTERN, check_doc_id

PACKET_SCHEMA = "strata.evidence/1"
# A packet to verify holds at most this many citations (an answer cites at most k <= 50 passages)
# and quotes at most this long (a quote is a sentence, or with Claude a section of about 3,000
# characters): each is searched for in its source, and a packet past them still fits in the API's
# default body limit, so it is refused as invalid (422) rather than as too large (413).
MAX_CITATIONS = 50
MAX_QUOTE_CHARS = 10_000
# An aggregation answer cites at most 50 rows (facts.runner.MAX_CITED_ROWS); a row is one CSV line.
MAX_ROWS = 50

_SOURCE_SET = re.compile(SOURCE_SET_PATTERN)

Status = Literal["intact", "drifted", "missing"]


def about(description: str) -> dict[str, str]:
    """Field metadata that pydantic turns into the field's description in the OpenAPI schema."""
    return {"description": description}


@dataclass
class Place:
    line_start: int = field(metadata=about("First line of the quote in the source (1-based)."))
    line_end: int = field(metadata=about("Last line of the quote in the source (inclusive)."))
    char_start: int = field(
        metadata=about("Character offset where the quote starts in the extracted source text (0-based).")
    )
    char_end: int = field(metadata=about("Character offset just past the quote's end."))
    page: int | None = field(default=None, metadata=about("Page of a paged source (PDF); null otherwise."))


@dataclass
class EvidenceCitation:
    quote: str = field(
        metadata=about(
            "The exact quote, as indexed: personal data in it is replaced by placeholders such as [PERSON_1]."
        )
    )
    doc_id: str = field(metadata=about("The document, as a path relative to its source-set folder."))
    source_set: str = field(metadata=about("The source-set holding the document."))
    chunk_id: str = field(metadata=about("The indexed section the quote was read from."))
    sha256: str = field(
        metadata=about(
            "sha256 of the source file's bytes the quote was read from; the published index's record of the "
            "file when the file could not be read."
        )
    )
    line_start: int = field(metadata=about("First line of the quote in the source (1-based)."))
    line_end: int = field(metadata=about("Last line of the quote in the source (inclusive)."))
    char_start: int | None = field(
        default=None,
        metadata=about(
            "Character offset of the quote in the extracted source text; null when the quote was not found in "
            "the file when the packet was built (the lines are then the index's)."
        ),
    )
    char_end: int | None = field(
        default=None, metadata=about("Character offset just past the quote's end; null with char_start.")
    )
    page: int | None = field(default=None, metadata=about("Page of a paged source (PDF); null otherwise."))
    index_version: str = field(default="", metadata=about("The published index version the answer was read from."))


@dataclass
class EvidenceRow:
    doc_id: str = field(metadata=about("The spreadsheet (or, for a document facet, the document) the row is from."))
    source_set: str = field(metadata=about("The source-set holding it."))
    table: str = field(metadata=about("The sidecar table the row was counted in (`documents` for document facets)."))
    sheet: str = field(metadata=about("The sheet (a CSV file's name for CSV files; `documents` for facets)."))
    row: int = field(metadata=about("1-based data row in the sheet (the header is row 0)."))
    line: str = field(
        metadata=about("The row's cells as a CSV line, as counted: personal data replaced by placeholders.")
    )
    sha256: str = field(
        metadata=about(
            "sha256 of the source file's bytes when the packet was built; the published index's record of the "
            "file when it could not be read."
        )
    )
    sheet_sha256: str = field(
        default="",
        metadata=about(
            "sha256 of the sheet's cells as extracted when the packet was built (an aggregate reads the whole "
            "sheet, so any change to it may change the figure); empty for document facets or an unreadable sheet."
        ),
    )
    index_version: str = field(default="", metadata=about("The published index version the row was read from."))


@dataclass
class EvidencePacket:
    question: str = field(
        metadata=about("The question as answered: personal data and secrets replaced by placeholders.")
    )
    answer: str = field(metadata=about("The answer text."))
    citations: list[EvidenceCitation] = field(metadata=about("One entry per citation of the answer, in its order."))
    model: str = field(metadata=about("The embedding model of the index versions the answer was read from."))
    index_versions: dict[str, str] = field(metadata=about("Source-set -> published index version used for the answer."))
    created_at: str = field(metadata=about("When the packet was built (ISO 8601, UTC)."))
    mode: str = field(default="extractive", metadata=about("How the answer was made: extractive, llm or facts."))
    rows: list[EvidenceRow] = field(
        default_factory=list,
        metadata=about(
            "The spreadsheet rows (or document facets) an aggregation counted, each pinned to its source file; "
            "empty for an answer from passages alone."
        ),
    )
    schema_version: str = field(
        default=PACKET_SCHEMA, metadata=about("The packet format; this code writes and reads " + PACKET_SCHEMA + ".")
    )


@dataclass
class CitationCheck:
    index: int = field(metadata=about("Position of the citation in the packet (0-based)."))
    doc_id: str = field(metadata=about("The citation's document, as the packet names it."))
    source_set: str = field(metadata=about("The citation's source-set, as the packet names it."))
    status: Status = field(
        metadata=about(
            "intact: the quote is still at its place; drifted: it is not (see moved_to); missing: the document "
            "is not there, or not one the caller may read."
        )
    )
    reason: str = field(metadata=about("Why, in a few words."))
    moved_to: Place | None = field(
        default=None,
        metadata=about(
            "Where the quote is now, for a drifted citation whose quote is elsewhere in the document; null "
            "when the document no longer holds it."
        ),
    )


@dataclass
class RowCheck:
    index: int = field(metadata=about("Position of the row in the packet's `rows` (0-based)."))
    doc_id: str = field(metadata=about("The row's document, as the packet names it."))
    source_set: str = field(metadata=about("The row's source-set, as the packet names it."))
    sheet: str = field(metadata=about("The row's sheet, as the packet names it."))
    row: int = field(metadata=about("The row's 1-based data row, as the packet names it."))
    status: Status = field(
        metadata=about(
            "intact: the file, or at least the row's sheet, is unchanged; drifted: the sheet changed, so the figure "
            "may differ (the reason says whether the row is still at its place, moved or gone); missing: the "
            "document is not there, or not one the caller may read."
        )
    )
    reason: str = field(metadata=about("Why, in a few words."))
    moved_to_row: int | None = field(
        default=None,
        metadata=about("The data row that now holds the same cells, when the row moved; null otherwise."),
    )


@dataclass
class VerifyReport:
    ok: bool = field(metadata=about("True when every citation and every row is intact."))
    counts: dict[str, int] = field(metadata=about("Citations and rows together, per status: intact, drifted, missing."))
    citations: list[CitationCheck] = field(metadata=about("One check per citation of the packet, in its order."))
    checked_at: str = field(metadata=about("When the sources were read (ISO 8601, UTC)."))
    schema_version: str = field(default=PACKET_SCHEMA, metadata=about("The packet format that was verified."))
    rows: list[RowCheck] = field(
        default_factory=list, metadata=about("One check per row of the packet (an aggregation's), in its order.")
    )


def packet_from_dict(data: object) -> EvidencePacket:
    """The packet in `data` (parsed JSON), or ValueError saying what is wrong with it."""
    if not isinstance(data, dict):
        raise ValueError("an evidence packet is a JSON object")
    if data.get("schema_version", PACKET_SCHEMA) != PACKET_SCHEMA:
        raise ValueError(f"unknown packet schema {data.get('schema_version')!r}; this code reads {PACKET_SCHEMA}")
    citations = _entries(data.get("citations"), "citations", EvidenceCitation, MAX_CITATIONS, "quote")
    rows = _entries(data.get("rows", []), "rows", EvidenceRow, MAX_ROWS, "line")
    return _typed(EvidencePacket, {**data, "citations": citations, "rows": rows}, "packet")


def _entries(raw: object, key: str, kind: type, limit: int, text_field: str) -> list[Any]:
    """The packet's list `key` (citations or rows) as `kind`, each checked like the other: its text
    (`text_field`) within MAX_QUOTE_CHARS, a source-set name and a safe document id."""
    if not isinstance(raw, list):
        raise ValueError(f"`{key}` must be a list")
    if len(raw) > limit:
        raise ValueError(f"{len(raw)} {key}; at most {limit} are verified at once")
    entries = [_typed(kind, item, f"{key}[{i}]") for i, item in enumerate(raw)]
    for i, entry in enumerate(entries):
        text = getattr(entry, text_field)
        if len(text) > MAX_QUOTE_CHARS:
            raise ValueError(f"{key}[{i}].{text_field} has {len(text)} characters; at most {MAX_QUOTE_CHARS}")
        if not _SOURCE_SET.fullmatch(entry.source_set):
            raise ValueError(f"{key}[{i}].source_set is not a source-set name")
        try:
            check_doc_id(entry.doc_id)
        except ValueError as exc:
            raise ValueError(f"{key}[{i}].doc_id: {exc}") from None
    return entries


_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "int | None": (int, type(None)),
    "dict[str, str]": (dict,),
    "list[EvidenceCitation]": (list,),
    "list[EvidenceRow]": (list,),
}


def _typed(cls: type, data: object, where: str) -> Any:
    """`cls(**data)` after checking that `data` is an object with each field of the right JSON type."""
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ValueError(f"{where} has unknown fields {unknown}")
    for name, f in known.items():
        if name not in data:
            if f.default is MISSING:
                raise ValueError(f"{where}.{name} is missing")
            continue
        value, wanted = data[name], _TYPES[str(f.type)]
        if isinstance(value, bool) or not isinstance(value, wanted):  # true is not 1
            raise ValueError(f"{where}.{name} must be {f.type}")
    return cls(**data)
