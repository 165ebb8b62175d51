"""Follow the published index versions for a long-running reader (the API).

Each request checks the CURRENT pointers (a few tiny file reads). When a run has published a new
version, the engine is rebuilt over it and the old clients are closed; requests in flight finish on
the engine they started with.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from strata_pipeline import components
from strata_pipeline.indexing.versions import IndexVersion, current_version, published_source_sets
from strata_pipeline.query_engine import CrossEncoder, Embeddings, Generator, QueryEngine, Readers
from strata_pipeline.redaction.guard import PrivacyGuard, privacy_guard
from strata_pipeline.settings import Settings


class NoIndexError(RuntimeError):
    pass


class PublishedIndex:
    """The engine over the published versions of every source-set; see `from_settings`."""

    def __init__(
        self,
        index_dir: Path,
        embedder: Embeddings,
        qdrant: Readers,
        llm: Generator | None,
        guard: PrivacyGuard | None = None,
        reranker: CrossEncoder | None = None,
    ) -> None:
        self.index_dir = index_dir
        self.embedder = embedder
        self.qdrant = qdrant
        self.llm = llm
        self.guard = guard
        self.reranker = reranker
        self._lock = threading.Lock()
        self._engine: QueryEngine | None = None
        # The engine a flip replaced: requests that took it before the flip may still be searching it,
        # so it is closed one flip later (flips are a run apart; a request takes well under a second).
        self._retired: QueryEngine | None = None
        self._served: dict[str, str] = {}

    @classmethod
    def from_settings(cls, settings: Settings, overrides: Mapping[str, Any] | None = None) -> PublishedIndex:
        """Over `settings.index_dir`, with the components of components.py: what `strata search`, `ask`
        and the API query. `overrides` replaces parts by name (embedder, qdrant, llm, guard, reranker)."""
        parts: dict[str, Any] = {
            "embedder": components.embedder(settings),
            "qdrant": components.index_storage(settings),
            "llm": components.claude(settings),
            "guard": privacy_guard(components.pii_backend(settings)),
            "reranker": components.reranker(settings),
        }
        return cls(settings.index_dir, **{**parts, **(overrides or {})})

    def published(self) -> dict[str, IndexVersion]:
        versions = {name: current_version(self.index_dir, name) for name in published_source_sets(self.index_dir)}
        return {name: v for name, v in versions.items() if v is not None}

    def _published_or_fail(self) -> dict[str, IndexVersion]:
        versions = self.published()
        if not versions:
            raise NoIndexError(
                f"No published index under {self.index_dir}. Run `strata materialize` (or `make demo`) first."
            )
        return versions

    def engine(self) -> QueryEngine:
        """The engine over the currently published versions, rebuilt when a pointer has moved."""
        with self._lock:
            versions = self._published_or_fail()
            wanted = {name: v.version for name, v in versions.items()}
            if self._engine is None or wanted != self._served:
                fresh = QueryEngine(
                    self.embedder, self.qdrant, versions, llm=self.llm, guard=self.guard, reranker=self.reranker
                )
                if self._retired is not None:
                    self._retired.close()
                self._retired, self._engine, self._served = self._engine, fresh, wanted
            return self._engine

    def engine_for(self, source_sets: list[str] | None) -> QueryEngine:
        """A new engine for one command (the caller closes it) that opens only the published source-sets
        it will search: each opened shard costs start-up time. All of them when `source_sets` is None
        or names one that is not published, so that the search's error lists what is."""
        versions = self._published_or_fail()
        if source_sets and set(source_sets) <= set(versions):
            versions = {name: versions[name] for name in source_sets}
        return QueryEngine(self.embedder, self.qdrant, versions, llm=self.llm, guard=self.guard, reranker=self.reranker)

    def close(self) -> None:
        with self._lock:
            for engine in (self._engine, self._retired):
                if engine is not None:
                    engine.close()
            self._engine = self._retired = None
            self._served = {}
