from __future__ import annotations

from pathlib import Path

import dagster as dg

from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.incremental.cache import DocumentCache, NoCache


class CacheResource(dg.ConfigurableResource):
    """Per-document results kept between runs (STRATA_HOME/cache/<stage>.sqlite): extraction,
    redaction, plan counts and leak scans, each keyed by the document's content and by the code
    and settings that computed it. Set `enabled: false` to recompute everything in a run."""

    dir: str
    enabled: bool = True

    def open(self, stage: str) -> DocumentCache:
        """The cache of one stage; the caller closes it (it is a context manager)."""
        return DocumentCache(Path(self.dir) / f"{stage}.sqlite") if self.enabled else NoCache()

    def vectors(self, file: str) -> VectorCache | None:
        """A vector cache of its own (the eval's answer sentences); None when caching is off."""
        return VectorCache(Path(self.dir) / file) if self.enabled else None
