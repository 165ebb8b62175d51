"""The served engine follows CURRENT without closing stores under requests that are still using them."""

from __future__ import annotations

from pathlib import Path

from strata_pipeline.indexing.engine import INDEX_SCHEMA
from strata_pipeline.indexing.versions import IndexVersion, publish, version_dir, write_manifest
from strata_pipeline.serving_index import PublishedIndex


class Store:
    def __init__(self, version: str) -> None:
        self.version, self.closed = version, False

    def close(self) -> None:
        self.closed = True


class Readers:
    def __init__(self) -> None:
        self.opened: dict[str, Store] = {}

    def open_reader(self, version: IndexVersion) -> Store:
        return self.opened.setdefault(version.version, Store(version.version))


class Embedder:
    model = "test-model"

    def query_dense(self, text: str) -> list[float]:
        return [0.0]

    def query_sparse(self, text: str) -> tuple[list[int], list[float]]:
        return [], []


def publish_version(index_dir: Path, name: str) -> None:
    folder = version_dir(index_dir, "ops", name)
    version = IndexVersion("ops", name, str(folder), "ops", Embedder.model, 1, 1, "test", schema=INDEX_SCHEMA)
    write_manifest(version)
    publish(index_dir, version)


def test_an_engine_replaced_by_a_flip_stays_open_for_requests_that_hold_it_until_the_next_flip(
    tmp_path: Path,
) -> None:
    readers = Readers()
    index = PublishedIndex(tmp_path, Embedder(), readers, llm=None)  # type: ignore[arg-type]
    publish_version(tmp_path, "v1")
    held = index.engine()  # a request takes the engine ...
    assert index.engine() is held  # (unchanged pointer: the same engine)
    publish_version(tmp_path, "v2")
    following = index.engine()  # ... and another request, after the flip, gets a new one
    assert following is not held and following.versions["ops"].version == "v2"
    assert not readers.opened["v1"].closed  # the first request may still be searching v1
    publish_version(tmp_path, "v3")
    assert index.engine().versions["ops"].version == "v3"
    assert readers.opened["v1"].closed and not readers.opened["v2"].closed
    index.close()
    assert all(store.closed for store in readers.opened.values())
