"""Where index versions live: Qdrant Edge shards in process, or collections on a Qdrant server.

A plain class, so a query opens the published version without importing Dagster; the pipeline's
QdrantResource configures one of these and hands the work to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from strata_pipeline.indexing.engine import EdgeStore, PointStore, ServerStore
from strata_pipeline.indexing.versions import IndexVersion, publish, seed_from

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

EMBEDDED_COLLECTION = "chunks"


@dataclass(frozen=True, kw_only=True)
class IndexStorage:
    """Qdrant Edge in process by default; set `url` (QDRANT_URL) to use a Qdrant server or cluster.

    Each index version is its own Edge shard (or, on a server, its own collection behind an alias),
    so a writer never touches what readers are serving. A sealed shard is opened by any number of
    processes at once: API workers, the CLI and the eval read the published version in place.
    """

    url: str = ""
    api_key: str = ""
    collection_prefix: str = "strata"

    @property
    def embedded(self) -> bool:
        return not self.url

    @property
    def engine(self) -> str:
        return "qdrant-edge" if self.embedded else "qdrant-server"

    def alias(self, source_set: str) -> str:
        return f"{self.collection_prefix}-{source_set}"

    def collection_for(self, source_set: str, version: str) -> str:
        return EMBEDDED_COLLECTION if self.embedded else f"{self.collection_prefix}-{source_set}-{version}"

    def _client(self) -> QdrantClient:
        from qdrant_client import QdrantClient

        return QdrantClient(url=self.url, api_key=self.api_key or None, timeout=60)

    @contextmanager
    def writer(
        self, folder: Path, previous: IndexVersion | None, collection: str, dim: int
    ) -> Iterator[tuple[PointStore, bool]]:
        """A store for a new version; embedded versions start as a copy of the published one, and are
        sealed (flushed, readable by other processes) when the block ends without an error.

        Yields (store, seeded) where `seeded` says whether the previous points were copied.
        """
        if self.embedded:
            seeded = seed_from(previous, folder / "edge")
            store: PointStore = EdgeStore.open_or_create(folder / "edge", dim)
        else:
            seeded = False
            store = ServerStore.open_or_create(self._client(), collection, dim)
        try:
            yield store, seeded
            store.seal()
        finally:
            store.close()

    @contextmanager
    def reader(self, version: IndexVersion) -> Iterator[PointStore]:
        """Open a version for reading, and close it afterwards."""
        store = self.open_reader(version)
        try:
            yield store
        finally:
            store.close()

    def open_reader(self, version: IndexVersion) -> PointStore:
        """A long-lived reader (the API, a CLI command); the caller closes it."""
        if self.embedded:
            return EdgeStore.open(version.store_path)
        return ServerStore(self._client(), version.collection)

    def publish(self, index_dir: Path, version: IndexVersion) -> None:
        """Flip the served version: the alias on a server, and always the CURRENT pointer."""
        if not self.embedded:
            from qdrant_client import models as qm

            client = self._client()
            try:
                client.update_collection_aliases(
                    change_aliases_operations=[
                        qm.CreateAliasOperation(
                            create_alias=qm.CreateAlias(
                                collection_name=version.collection, alias_name=self.alias(version.source_set)
                            )
                        )
                    ]
                )
            finally:
                client.close()
        publish(index_dir, version)

    def drop_versions(self, versions: list[IndexVersion]) -> None:
        """Delete server collections of pruned versions (embedded ones go with their folder)."""
        if self.embedded or not versions:
            return
        client = self._client()
        try:
            for version in versions:
                if client.collection_exists(version.collection):
                    client.delete_collection(version.collection)
        finally:
            client.close()
