from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
from qdrant_client import QdrantClient
from qdrant_client import models as qm

from strata_pipeline.indexing.versions import IndexVersion, publish, seed_from

EMBEDDED_COLLECTION = "chunks"


class QdrantResource(dg.ConfigurableResource):
    """Embedded Qdrant on disk by default; set `url` (QDRANT_URL) to use a server or cluster.

    Each index version is its own embedded store (or, on a server, its own collection behind an
    alias), so a writer never touches what readers are serving.
    """

    url: str = ""
    api_key: str = ""
    collection_prefix: str = "strata"

    @property
    def embedded(self) -> bool:
        return not self.url

    def alias(self, source_set: str) -> str:
        return f"{self.collection_prefix}-{source_set}"

    def collection_for(self, source_set: str, version: str) -> str:
        return EMBEDDED_COLLECTION if self.embedded else f"{self.collection_prefix}-{source_set}-{version}"

    def _server(self) -> QdrantClient:
        return QdrantClient(url=self.url, api_key=self.api_key or None, timeout=60)

    @contextmanager
    def writer(self, folder: Path, previous: IndexVersion | None) -> Iterator[tuple[QdrantClient, bool]]:
        """A client for a new version; embedded versions start as a copy of the published one.

        Yields (client, seeded) where `seeded` says whether the previous points were copied.
        """
        if not self.embedded:
            client = self._server()
            try:
                yield client, False
            finally:
                client.close()
            return
        seeded = seed_from(previous, folder / "qdrant")
        client = QdrantClient(path=str(folder / "qdrant"))
        try:
            yield client, seeded
        finally:
            client.close()

    @contextmanager
    def reader(self, version: IndexVersion) -> Iterator[QdrantClient]:
        """Open a version for reading, and close it (and any private copy) afterwards."""
        client, scratch = self._open_reader(version)
        try:
            yield client
        finally:
            client.close()
            if scratch:
                shutil.rmtree(scratch, ignore_errors=True)

    def open_reader(self, version: IndexVersion) -> QdrantClient:
        """A long-lived reader for the API; the caller closes it when it switches versions."""
        return self._open_reader(version)[0]

    def _open_reader(self, version: IndexVersion) -> tuple[QdrantClient, str | None]:
        """The embedded store admits one process at a time. If another process (say the API)
        holds this version, read from a private copy instead: published versions never change.
        """
        if not self.embedded:
            return self._server(), None
        try:
            return QdrantClient(path=str(version.qdrant_path)), None
        except RuntimeError as exc:
            if "already accessed" not in str(exc):
                raise
        scratch = tempfile.mkdtemp(prefix="strata-qdrant-")
        shutil.copytree(version.qdrant_path, scratch, ignore=shutil.ignore_patterns(".lock"), dirs_exist_ok=True)
        return QdrantClient(path=scratch), scratch

    def publish(self, index_dir: Path, version: IndexVersion) -> None:
        """Flip the served version: the alias on a server, and always the CURRENT pointer."""
        if not self.embedded:
            client = self._server()
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
        client = self._server()
        try:
            for version in versions:
                if client.collection_exists(version.collection):
                    client.delete_collection(version.collection)
        finally:
            client.close()
