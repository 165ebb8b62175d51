"""Whether this code can query a published index version.

A query is embedded by the configured dense model and analysed as INDEX_SCHEMA analyses documents. An
index built by another model, or under another schema, would be searched without error and rank
nonsense (vectors of two models compared, German compound parts missed), so it is refused, with what
to set or run instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from strata_pipeline.indexing.engine import INDEX_SCHEMA
from strata_pipeline.indexing.versions import IndexVersion


class IndexMismatch(ValueError):
    """The published index was built by another embedding model or index schema than this code reads."""


def require_readable(versions: Iterable[IndexVersion], model: str) -> None:
    """Raise IndexMismatch for the first version `model` and this code's schema cannot query."""
    for version in versions:
        name = f"{version.source_set}/{version.version}"
        if version.model != model:
            raise IndexMismatch(
                f"Index {name} was built with {version.model!r} but the configured embedding model is "
                f"{model!r}. Query it with STRATA_EMBED_MODEL={version.model}, or re-index with the "
                "configured model: strata materialize."
            )
        if version.schema != INDEX_SCHEMA:
            raise IndexMismatch(
                f"Index {name} has index schema {version.schema}; this version reads schema {INDEX_SCHEMA}. "
                f"Re-index it: strata materialize --source-set {version.source_set}."
            )
