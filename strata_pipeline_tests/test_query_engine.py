"""The query engine refuses an index whose sparse vectors were analysed differently from its queries."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.indexing.store import INDEX_SCHEMA
from strata_pipeline.indexing.versions import IndexVersion
from strata_pipeline.query_engine import QueryEngine
from strata_pipeline.resources import EmbedderResource, QdrantResource
from strata_pipeline.settings import DEFAULT_EMBED_MODEL


def test_an_index_of_an_older_schema_is_not_queried(tmp_path: Path) -> None:
    version = IndexVersion(
        source_set="fieldops",
        version="v1",
        path=str(tmp_path),
        collection="strata_fieldops_v1",
        model=DEFAULT_EMBED_MODEL,
        dim=384,
        point_count=1,
        chunker="sections-v2",
        schema=INDEX_SCHEMA - 1,  # BM25 without compound splitting: its terms no longer meet the queries'
    )
    embedder = EmbedderResource(model=DEFAULT_EMBED_MODEL, models_dir=str(tmp_path / "models"))
    with pytest.raises(ValueError, match=f"index schema {INDEX_SCHEMA - 1}.*strata materialize --source-set fieldops"):
        QueryEngine(embedder, QdrantResource(), {"fieldops": version})
