"""Evidence packets: an answer's citations pinned to their sources, and re-verified later.

`build_packet` records, for each citation, the exact quote and where it sits in its source file (the
file's sha256, line and character range, page) with the index version, model and time. `verify_packet`
re-reads the sources and says, per citation, `intact`, `drifted` (with the new place when the quote
moved) or `missing`. Both are plain functions over a source reader; `service.py` binds them to a
scoped query engine, the one place access is enforced.
"""

from __future__ import annotations

from typing import Any

from strata_pipeline.evidence.packet import (
    PACKET_SCHEMA,
    CitationCheck,
    EvidenceCitation,
    EvidencePacket,
    EvidenceRow,
    Place,
    RowCheck,
    VerifyReport,
    packet_from_dict,
)

# Imported on first use: reading sources loads the extractors (polars, pdf and office parsers), and
# importing the packet types (responses.py, the CLI) must not pay for that.
_LAZY = {"build_packet": "build", "read_source": "sources", "Source": "sources", "verify_packet": "verify"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f"strata_pipeline.evidence.{_LAZY[name]}"), name)
    raise AttributeError(name)


__all__ = [
    "PACKET_SCHEMA",
    "CitationCheck",
    "EvidenceCitation",
    "EvidencePacket",
    "EvidenceRow",
    "Place",
    "RowCheck",
    "Source",
    "VerifyReport",
    "build_packet",
    "packet_from_dict",
    "read_source",
    "verify_packet",
]
