"""Evidence through a (scoped) query engine: what the API, the CLI and the MCP server call.

The engine says which documents the caller may read (`recorded_sha256` is None for any other), so a
packet naming another group's document verifies as `missing`, exactly like one that does not exist.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from strata_pipeline.answering.answer import Answer
from strata_pipeline.evidence.build import build_packet
from strata_pipeline.evidence.packet import EvidencePacket, VerifyReport
from strata_pipeline.evidence.sources import Source, read_source
from strata_pipeline.evidence.verify import verify_packet
from strata_pipeline.indexing.versions import IndexVersion


class Engine(Protocol):
    """A QueryEngine, scoped to its caller."""

    versions: dict[str, IndexVersion]

    def recorded_sha256(self, source_set: str, doc_id: str) -> str | None: ...


def evidence_for(engine: Engine, question: str, answer: Answer, corpus_root: Path) -> EvidencePacket:
    """The evidence packet of an answer `engine` gave, its quotes pinned to the files under `corpus_root`."""

    def read(source_set: str, doc_id: str) -> Source | None:
        readable = engine.recorded_sha256(source_set, doc_id) is not None
        return read_source(corpus_root, source_set, doc_id) if readable else None

    return build_packet(question, answer, engine.versions, read, engine.recorded_sha256)


def verify_for(engine: Engine, packet: EvidencePacket, corpus_root: Path) -> VerifyReport:
    """`verify_packet` reading only documents of the published index that the caller may read."""
    return verify_packet(packet, corpus_root, lambda s, d: engine.recorded_sha256(s, d) is not None)
