"""A content-addressed vector cache, so the same text is never embedded twice.

Embedding dominates ingestion time, so unchanged chunks of a re-run (or identical boilerplate
across documents) reuse their stored vectors. Keyed by (model, text sha256).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np


class VectorCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS dense (model TEXT, sha256 TEXT, vector BLOB, PRIMARY KEY (model, sha256))"
        )

    def get_many(self, model: str, hashes: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(hashes), 500):
            batch = hashes[start : start + 500]
            marks = ",".join("?" * len(batch))
            rows = self._db.execute(
                f"SELECT sha256, vector FROM dense WHERE model = ? AND sha256 IN ({marks})", [model, *batch]
            )
            found.update({sha: np.frombuffer(blob, dtype=np.float32) for sha, blob in rows})
        return found

    def put_many(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO dense VALUES (?, ?, ?)",
                [(model, sha, np.asarray(v, dtype=np.float32).tobytes()) for sha, v in vectors.items()],
            )

    def delete_many(self, hashes: list[str]) -> int:
        """Forget the vectors of these texts, for every model; returns how many rows went."""
        with self._db:
            return sum(self._db.execute("DELETE FROM dense WHERE sha256 = ?", (sha,)).rowcount for sha in set(hashes))

    def close(self) -> None:
        self._db.close()
