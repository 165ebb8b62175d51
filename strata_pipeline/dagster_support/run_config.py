"""Run config that more than one definition reads (the launchpad edits it under `ops: chunks: config:`)."""

from __future__ import annotations

import dagster as dg

from strata_pipeline.chunking.chunker import ChunkingConfig


class ChunkingSettings(dg.Config):
    """Run config of the chunker; the defaults are ChunkingConfig's, so code and UI agree."""

    size: int = ChunkingConfig.size
    overlap: int = ChunkingConfig.overlap
    parent_size: int = ChunkingConfig.parent_size

    def to_config(self) -> ChunkingConfig:
        return ChunkingConfig(size=self.size, overlap=self.overlap, parent_size=self.parent_size)
