"""Read a cited document from the corpus the way ingestion did: its bytes, their sha256, and the text
the ingestion extractors make of them (so .pdf, .docx and .html read as they were indexed)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from strata_pipeline.discovery.extractors.dispatch import extract
from strata_pipeline.discovery.extractors.extraction import Extraction, ExtractionError

_SOURCE_SET = re.compile(r"[a-z0-9][a-z0-9_-]*")


@dataclass
class Source:
    """One document's bytes as read now; its text is extracted only when a quote must be searched for."""

    name: str
    data: bytes = field(repr=False)

    @cached_property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @cached_property
    def extraction(self) -> Extraction | None:
        """The extracted text, or None when the file no longer yields any (broken, emptied)."""
        try:
            return extract(self.data, self.name)
        except ExtractionError:
            return None

    @property
    def pages(self) -> list[tuple[int, int, int]]:
        return [(p.page, p.start, p.end) for p in self.extraction.pages] if self.extraction else []


def source_path(corpus_root: Path, source_set: str, doc_id: str) -> Path | None:
    """The file of `doc_id` under `corpus_root/source_set`, or None when the names could lead anywhere
    else (an absolute path, "..", a link out of the source-set folder)."""
    if not _SOURCE_SET.fullmatch(source_set) or not doc_id or "\x00" in doc_id:
        return None
    folder = (corpus_root / source_set).resolve()
    path = (folder / doc_id).resolve()
    return path if path.is_relative_to(folder) and path != folder else None


def read_source(corpus_root: Path, source_set: str, doc_id: str) -> Source | None:
    """The document as it is now, or None when there is no such readable file."""
    try:
        path = source_path(corpus_root, source_set, doc_id)
        if path is None or not path.is_file():
            return None
        return Source(path.name, path.read_bytes())
    except (OSError, ValueError):  # a name too long for the file system, or not encodable
        return None
