"""One engine seam, two real engines: Qdrant Edge in-process (embedded) or a Qdrant server.

Both hold one index version as points with three named vectors (dense, BM25 and exact identifiers,
the sparse ones with Qdrant's IDF modifier) and a payload, and both execute the same `HybridQuery`:
the plain dense, BM25 and identifier lists plus their weighted reciprocal-rank fusion, in one batch.
Nothing here knows about Dagster, chunks or answers.

- `EdgeStore`: a Qdrant Edge shard in a folder (qdrant-edge-py, Qdrant's Rust engine in process).
  Shards are created without a write-ahead log, so once a writer has flushed and closed a version,
  any number of processes (API workers, the CLI, the eval) can open it at the same time.
- `ServerStore`: one collection on a Qdrant server or cluster (QDRANT_URL), through qdrant-client.
"""

from __future__ import annotations

import json
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DENSE = "dense"
SPARSE = "bm25"
IDS = "ids"  # exact identifiers (error codes, versions, part numbers)
# payload fields with an index, for filters; `groups` carries the access filter of every restricted query
KEYWORD_FIELDS = ("doc_id", "source_set", "language", "groups")
# Bumped when the index layout changes; a version of another schema is rebuilt, not seeded. Here, not
# in indexing/store.py (which re-exports it), so a query checks it without importing polars.
# 5: Qdrant Edge shards replace qdrant-client's local mode.
# 6: BM25 analysis splits German and Dutch compounds and drops French and Italian elided articles, so
#    sparse vectors of schema 5 no longer meet the terms queries are analysed into.
INDEX_SCHEMA = 6

SparseVec = tuple[list[int], list[float]]
Where = dict[str, "str | list[str]"]  # payload field -> the value, or any of the values, it must have


class ModelMismatchError(RuntimeError):
    pass


class StoreOpenError(RuntimeError):
    pass


@dataclass(frozen=True)
class PointRecord:
    id: str
    dense: list[float]
    sparse: SparseVec
    ids: SparseVec  # empty when the chunk holds no identifier
    payload: dict[str, Any]


@dataclass(frozen=True)
class Hit:
    id: str
    score: float
    payload: dict[str, Any]


@dataclass(frozen=True)
class HybridQuery:
    """The query specification both engines execute: each list, then their weighted RRF."""

    dense: list[float]
    sparse: SparseVec
    ids: SparseVec
    candidates: int = 40
    rrf_k: int = 60
    weights: dict[str, float] = field(default_factory=lambda: {DENSE: 1.0, SPARSE: 1.0, IDS: 1.0})
    where: Where | None = None
    # Payload fields the plain lists return (None: all). The fused list always returns whole payloads;
    # a caller that ranks by a few fields fetches the rest for its final results only (`payloads`).
    list_fields: list[str] | None = None

    def lists(self) -> dict[str, list[float] | SparseVec]:
        """The lists to retrieve, in fusion order: the identifier list only when the query names one."""
        named: dict[str, list[float] | SparseVec] = {DENSE: self.dense, SPARSE: self.sparse}
        if self.ids[0]:
            named[IDS] = self.ids
        return named


FUSED = "fused"


class PointStore(ABC):
    """One index version's points, in whichever engine holds them."""

    @abstractmethod
    def dim(self) -> int: ...

    @abstractmethod
    def count(self) -> int: ...

    @abstractmethod
    def _pages(self, payload: list[str] | bool, vectors: bool, limit: int) -> Iterator[Any]:
        """Every point as the engine returns it (id, payload, vectors), read `limit` at a time."""

    def scroll(self, fields: list[str] | None = None) -> Iterator[Hit]:
        """Every point (score 0) with the chosen payload fields (all when None)."""
        for point in self._pages(fields if fields is not None else True, False, 1000):
            yield Hit(str(point.id), 0.0, dict(point.payload or {}))

    def records(self) -> Iterator[PointRecord]:
        """Every point with its vectors: what a copy into another store needs."""
        return map(_to_record, self._pages(True, True, 500))

    @abstractmethod
    def payloads(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """The whole payload of each of these points."""

    @abstractmethod
    def upsert(self, records: list[PointRecord]) -> None: ...

    @abstractmethod
    def delete(self, ids: list[str]) -> None: ...

    @abstractmethod
    def delete_where(self, where: Where) -> None:
        """Delete every point whose payload matches `where`."""

    @abstractmethod
    def query(self, query: HybridQuery) -> dict[str, list[Hit]]:
        """Each list's hits by name (dense, bm25, ids when asked) and the fusion under FUSED."""

    @abstractmethod
    def seal(self) -> None:
        """Make every write durable and readable by other processes."""

    @abstractmethod
    def close(self) -> None:
        """Release the engine's resources."""

    def __enter__(self) -> PointStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- Qdrant Edge


class EdgeStore(PointStore):
    """A Qdrant Edge shard in `path`."""

    def __init__(self, shard: Any, path: Path) -> None:
        self._shard = shard
        self.path = path

    @classmethod
    def create(cls, path: Path, dim: int) -> EdgeStore:
        import qdrant_edge as qe

        config = qe.EdgeConfig(
            vectors={DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine)},
            sparse_vectors={
                SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf),
                IDS: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf),
            },
            wal_enabled=False,  # a sealed version is then readable by many processes at once
        )
        shard = qe.EdgeShard.create(str(path), config)
        for name in KEYWORD_FIELDS:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
        return cls(shard, path)

    @classmethod
    def open(cls, path: Path) -> EdgeStore:
        import qdrant_edge as qe

        if not (path / "edge_config.json").exists():
            raise StoreOpenError(
                f"No Qdrant Edge index at {path}. Indexes written before Strata used Qdrant Edge must be "
                "rebuilt: run `strata materialize` (or `make demo`) again."
            )
        return cls(qe.EdgeShard.load(str(path)), path)

    @classmethod
    def open_or_create(cls, path: Path, dim: int) -> EdgeStore:
        """Open a seeded copy (checking its dimension) or create an empty shard."""
        if not (path / "edge_config.json").exists():
            return cls.create(path, dim)
        store = cls.open(path)
        if store.dim() != dim:
            store.close()
            raise ModelMismatchError(
                f"The index at {path} holds {store.dim()}-d vectors but the embedding model makes {dim}-d ones. "
                "Vectors of different models are never mixed: re-index into a new version."
            )
        store._index_keyword_fields()
        return store

    def _index_keyword_fields(self) -> None:
        """Index the keyword fields a copy seeded from an older version lacks (creating one is idempotent)."""
        import qdrant_edge as qe

        present = set(self._shard.info().payload_schema)
        for name in KEYWORD_FIELDS:
            if name not in present:
                self._shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))

    def dim(self) -> int:
        config = json.loads((self.path / "edge_config.json").read_text(encoding="utf-8"))
        return int(config["vectors"][DENSE]["size"])

    def count(self) -> int:
        import qdrant_edge as qe

        return int(self._shard.count(qe.CountRequest(exact=True)))

    def _pages(self, payload: list[str] | bool, vectors: bool, limit: int) -> Iterator[Any]:
        import qdrant_edge as qe

        offset = None
        while True:
            found, offset = self._shard.scroll(
                qe.ScrollRequest(offset=offset, limit=limit, with_payload=payload, with_vector=vectors)
            )
            yield from found
            if offset is None:
                return

    def payloads(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        if not ids:
            return {}
        found = self._shard.retrieve([uuid.UUID(i) for i in ids], with_payload=True, with_vector=False)
        return {str(record.id): dict(record.payload or {}) for record in found}

    def delete_where(self, where: Where) -> None:
        import qdrant_edge as qe

        self._shard.update(qe.UpdateOperation.delete_points_by_filter(_edge_filter(where)))

    def upsert(self, records: list[PointRecord]) -> None:
        import qdrant_edge as qe

        points = []
        for record in records:
            vectors: dict[str, Any] = {DENSE: list(record.dense), SPARSE: qe.SparseVector(*record.sparse)}
            if record.ids[0]:
                vectors[IDS] = qe.SparseVector(*record.ids)
            points.append(qe.Point(uuid.UUID(record.id), vectors, record.payload))
        self._shard.update(qe.UpdateOperation.upsert_points(points))

    def delete(self, ids: list[str]) -> None:
        import qdrant_edge as qe

        if ids:
            self._shard.update(qe.UpdateOperation.delete_points([uuid.UUID(i) for i in ids]))

    def query(self, query: HybridQuery) -> dict[str, list[Hit]]:
        import qdrant_edge as qe

        where = _edge_filter(query.where)
        lists = query.lists()
        vectors: dict[str, Any] = {n: v if n == DENSE else qe.SparseVector(*v) for n, v in lists.items()}
        plain = [
            qe.QueryRequest(
                limit=query.candidates,
                query=qe.Query.Nearest(v, using=n),
                filter=where,
                with_payload=query.list_fields if query.list_fields is not None else True,
            )
            for n, v in vectors.items()
        ]
        fused = qe.QueryRequest(
            limit=query.candidates,
            prefetches=[
                qe.Prefetch(limit=query.candidates, query=qe.Query.Nearest(v, using=n), filter=where)
                for n, v in vectors.items()
            ],
            # the stubs type Fusion.Rrf(...) as Rrf, which QueryRequest accepts at run time
            query=qe.Fusion.Rrf(k=query.rrf_k, weights=[query.weights.get(n, 1.0) for n in vectors]),  # type: ignore[arg-type]
            with_payload=True,
        )
        responses = self._shard.query_batch(qe.QueryBatchRequest([*plain, fused]))
        names = [*vectors, FUSED]
        return {
            name: [Hit(str(p.id), float(p.score), dict(p.payload or {})) for p in points]
            for name, points in zip(names, responses, strict=True)
        }

    def seal(self) -> None:
        """Flush, then let Edge's optimizers build the HNSW and sparse indexes (about 30 s for 50,000
        points on 2 cores): readers of a sealed version never pay for an unindexed segment."""
        self._shard.flush()
        self._shard.optimize()
        self._shard.flush()

    def close(self) -> None:
        if self._shard is not None:
            self._shard.close()
            self._shard = None


def _to_record(point: Any) -> PointRecord:
    """A scrolled point of either engine (both name their vectors and give sparse ones .indices and
    .values) as a PointRecord."""
    vectors = point.vector if isinstance(point.vector, dict) else {}
    sparse, ids = vectors.get(SPARSE), vectors.get(IDS)
    return PointRecord(
        str(point.id),
        list(vectors.get(DENSE) or []),
        (list(sparse.indices), list(sparse.values)) if sparse else ([], []),
        (list(ids.indices), list(ids.values)) if ids else ([], []),
        dict(point.payload or {}),
    )


def _edge_filter(where: Where | None) -> Any:
    if not where:
        return None
    import qdrant_edge as qe

    conditions: list[Any] = [
        qe.FieldCondition(key, match=qe.MatchAny(list(value)) if isinstance(value, list) else qe.MatchValue(value))
        for key, value in where.items()
    ]
    return qe.Filter(must=conditions)


# --------------------------------------------------------------------------- Qdrant server


class ServerStore(PointStore):
    """One collection on a Qdrant server, through qdrant-client."""

    def __init__(self, client: Any, collection: str) -> None:
        self.client = client
        self.collection = collection

    @classmethod
    def open_or_create(cls, client: Any, collection: str, dim: int) -> ServerStore:
        from qdrant_client import models as qm

        store = cls(client, collection)
        if client.collection_exists(collection):
            if store.dim() != dim:
                raise ModelMismatchError(
                    f"Collection {collection!r} holds {store.dim()}-d vectors but the embedding model makes "
                    f"{dim}-d ones. Vectors of different models are never mixed: re-index into a new collection."
                )
            for name in KEYWORD_FIELDS:  # a collection written before a field was indexed gains its index
                client.create_payload_index(collection, name, qm.PayloadSchemaType.KEYWORD)
            return store
        client.create_collection(
            collection,
            vectors_config={DENSE: qm.VectorParams(size=dim, distance=qm.Distance.COSINE)},
            sparse_vectors_config={
                SPARSE: qm.SparseVectorParams(modifier=qm.Modifier.IDF),
                IDS: qm.SparseVectorParams(modifier=qm.Modifier.IDF),
            },
        )
        for name in KEYWORD_FIELDS:
            client.create_payload_index(collection, name, qm.PayloadSchemaType.KEYWORD)
        return store

    def dim(self) -> int:
        vectors = self.client.get_collection(self.collection).config.params.vectors
        return int(vectors[DENSE].size)

    def count(self) -> int:
        return int(self.client.count(self.collection, exact=True).count)

    def _pages(self, payload: list[str] | bool, vectors: bool, limit: int) -> Iterator[Any]:
        offset = None
        while True:
            found, offset = self.client.scroll(
                self.collection, limit=limit, offset=offset, with_payload=payload, with_vectors=vectors
            )
            yield from found
            if offset is None:
                return

    def payloads(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        if not ids:
            return {}
        found = self.client.retrieve(self.collection, ids, with_payload=True, with_vectors=False)
        return {str(point.id): dict(point.payload or {}) for point in found}

    def delete_where(self, where: Where) -> None:
        from qdrant_client import models as qm

        self.client.delete(self.collection, points_selector=qm.FilterSelector(filter=_qm_filter(where)), wait=True)

    def seal(self) -> None:
        pass  # the server persists every acknowledged write

    def close(self) -> None:
        self.client.close()

    def upsert(self, records: list[PointRecord]) -> None:
        from qdrant_client import models as qm

        points = []
        for record in records:
            vectors: dict[str, Any] = {DENSE: list(record.dense), SPARSE: _qm_sparse(record.sparse)}
            if record.ids[0]:
                vectors[IDS] = _qm_sparse(record.ids)
            points.append(qm.PointStruct(id=record.id, vector=vectors, payload=record.payload))
        self.client.upsert(self.collection, points=points, wait=True)

    def delete(self, ids: list[str]) -> None:
        from qdrant_client import models as qm

        for start in range(0, len(ids), 1000):
            self.client.delete(
                self.collection,
                points_selector=qm.PointIdsList(points=list[qm.ExtendedPointId](ids[start : start + 1000])),
            )

    def query(self, query: HybridQuery) -> dict[str, list[Hit]]:
        from qdrant_client import models as qm

        where = _qm_filter(query.where) if query.where else None
        lists = query.lists()
        vectors: dict[str, Any] = {n: v if n == DENSE else _qm_sparse(v) for n, v in lists.items()}
        fields = query.list_fields if query.list_fields is not None else True
        common: dict[str, Any] = {"limit": query.candidates, "with_payload": fields, "filter": where}
        plain = [qm.QueryRequest(query=v, using=n, **common) for n, v in vectors.items()]
        fused = qm.QueryRequest(
            prefetch=[qm.Prefetch(query=v, using=n, filter=where, limit=query.candidates) for n, v in vectors.items()],
            query=qm.RrfQuery(rrf=qm.Rrf(k=query.rrf_k, weights=[query.weights.get(n, 1.0) for n in vectors])),
            limit=query.candidates,
            with_payload=True,
        )
        responses = self.client.query_batch_points(self.collection, requests=[*plain, fused])
        names = [*vectors, FUSED]
        return {
            name: [Hit(str(p.id), float(p.score), dict(p.payload or {})) for p in response.points]
            for name, response in zip(names, responses, strict=True)
        }


def _qm_filter(where: Where) -> Any:
    from qdrant_client import models as qm

    return qm.Filter(
        must=[
            qm.FieldCondition(
                key=key, match=qm.MatchAny(any=list(value)) if isinstance(value, list) else qm.MatchValue(value=value)
            )
            for key, value in where.items()
        ]
    )


def _qm_sparse(vector: Iterable) -> Any:
    from qdrant_client import models as qm

    indices, values = vector
    return qm.SparseVector(indices=list(indices), values=list(values))
