"""What `lookup` and `read_document_section` read: the sidecar's documents table and a document's chunks
from the index, both only as far as the engine's caller may see (its groups).

A chunk's point id is derived from (source-set, doc_id, chunk index) (indexing/store.py: point_id), so a
document's chunks are fetched by id, in order, without a vector query or a scan of the index.
"""

from __future__ import annotations

import dataclasses
from contextlib import closing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from strata_pipeline.access.sidecar import open_sidecar, visible_clause

if TYPE_CHECKING:
    from strata_pipeline.query_engine import QueryEngine

MAX_CHUNKS = 4096  # a document longer than this is read only this far


@dataclass(frozen=True)
class DocumentRef:
    doc_id: str
    source_set: str
    title: str
    category: str


@dataclass(frozen=True)
class Section:
    doc_id: str
    source_set: str
    section_id: str  # the parent chunk id ("doc#s2"), or the chunk id when the index has no parents
    heading_path: str
    line_start: int
    text: str
    payload: dict[str, Any]  # the section as a passage payload (what an answer reads and cites)
    chunk_ids: tuple[str, ...] = ()  # the chunks it holds


def find_documents(engine: QueryEngine, name: str, source_sets: list[str] | None = None) -> list[DocumentRef]:
    """Documents whose doc_id or title is `name` (case-insensitive), else whose doc_id or title holds it,
    among those the caller may read. Parameterised SQL only."""
    wanted = name.strip().casefold()
    exact: list[DocumentRef] = []
    partial: list[DocumentRef] = []
    for source_set in source_sets or sorted(engine.versions):
        clause, params = visible_clause(engine.access.groups)
        with closing(open_sidecar(engine.versions[source_set].sidecar_path)) as db:
            rows = db.execute(
                f"SELECT doc_id, COALESCE(title, '') AS title, COALESCE(category, '') AS category FROM documents "
                f"WHERE decision = 'include' AND status = 'ok' AND {clause} ORDER BY doc_id",
                params,
            ).fetchall()
        for row in rows:
            ref = DocumentRef(row["doc_id"], source_set, row["title"], row["category"])
            keys = (ref.doc_id.casefold(), ref.title.casefold())
            if wanted in keys:
                exact.append(ref)
            elif wanted and any(wanted in key for key in keys):
                partial.append(ref)
    return exact or partial


def document_chunks(engine: QueryEngine, doc_id: str, source_set: str) -> list[dict[str, Any]]:
    """Every chunk payload of `doc_id` in order; empty when there is none the caller may read."""
    from strata_pipeline.indexing.store import document_payloads  # imports polars: only a read pays for it

    found = document_payloads(engine.retriever.indexes[source_set], source_set, doc_id, MAX_CHUNKS)
    return [p for p in found if engine.access.admits(p.get("groups"))]


def sections(chunks: list[dict[str, Any]]) -> list[Section]:
    """A document's sections (parent chunks) in order, each once."""
    seen: dict[str, Section] = {}
    children: dict[str, list[str]] = {}
    for p in chunks:
        key = p.get("parent_id") or p.get("chunk_id", "")
        children.setdefault(key, []).append(p.get("chunk_id", ""))
        if key in seen:
            continue
        text = p.get("parent_text") or p.get("text", "")
        line = int(p.get("parent_line_start", p.get("line_start", 1)) or 1)
        payload = p | {"chunk_id": key, "text": text, "line_start": line, "line_end": line + text.count("\n")}
        seen[key] = Section(p.get("doc_id", ""), p.get("source_set", ""), key, p.get("heading_path", ""), line, text,
                            payload)  # fmt: skip
    return [dataclasses.replace(s, chunk_ids=tuple(children[k])) for k, s in seen.items()]


def pick_section(found: list[Section], heading: str | None, chunk_id: str | None) -> Section | None:
    """The section holding `chunk_id` (a chunk or section id), else the first whose heading path holds
    `heading`, else the first section."""
    if chunk_id:
        for s in found:
            if chunk_id == s.section_id or chunk_id in s.chunk_ids:
                return s
        return None
    if heading:
        wanted = heading.strip().casefold()
        return next((s for s in found if wanted in s.heading_path.casefold()), None)
    return found[0] if found else None
