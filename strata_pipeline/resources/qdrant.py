from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg

from strata_pipeline.indexing.engine import PointStore
from strata_pipeline.indexing.storage import IndexStorage
from strata_pipeline.indexing.versions import IndexVersion


class QdrantResource(dg.ConfigurableResource):
    """Dagster config for an `IndexStorage` (indexing/storage.py), which does the work: Qdrant Edge in
    process by default; set `url` (QDRANT_URL) to use a Qdrant server or cluster."""

    url: str = ""
    api_key: str = ""
    collection_prefix: str = "strata"

    def storage(self) -> IndexStorage:
        return IndexStorage(url=self.url, api_key=self.api_key, collection_prefix=self.collection_prefix)

    @property
    def embedded(self) -> bool:
        return self.storage().embedded

    @property
    def engine(self) -> str:
        return self.storage().engine

    def alias(self, source_set: str) -> str:
        return self.storage().alias(source_set)

    def collection_for(self, source_set: str, version: str) -> str:
        return self.storage().collection_for(source_set, version)

    @contextmanager
    def writer(
        self, folder: Path, previous: IndexVersion | None, collection: str, dim: int
    ) -> Iterator[tuple[PointStore, bool]]:
        with self.storage().writer(folder, previous, collection, dim) as opened:
            yield opened

    @contextmanager
    def reader(self, version: IndexVersion) -> Iterator[PointStore]:
        with self.storage().reader(version) as store:
            yield store

    def open_reader(self, version: IndexVersion) -> PointStore:
        return self.storage().open_reader(version)

    def publish(self, index_dir: Path, version: IndexVersion) -> None:
        self.storage().publish(index_dir, version)

    def drop_versions(self, versions: list[IndexVersion]) -> None:
        self.storage().drop_versions(versions)
