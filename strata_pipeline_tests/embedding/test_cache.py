"""VectorCache: content-addressed dense vectors in SQLite."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from strata_pipeline.embedding.cache import VectorCache


def test_roundtrip_per_model(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "nested" / "vectors.sqlite")
    cache.put_many("model-a", {"h1": np.array([0.1, 0.2, 0.3]), "h2": np.array([1.0, -1.0, 0.5])})
    cache.put_many("model-b", {"h1": np.array([9.0, 9.0, 9.0])})
    found = cache.get_many("model-a", ["h1", "h2", "missing"])
    assert sorted(found) == ["h1", "h2"]
    assert found["h1"].dtype == np.float32
    np.testing.assert_array_equal(found["h1"], np.array([0.1, 0.2, 0.3], dtype=np.float32))
    np.testing.assert_array_equal(found["h2"], np.array([1.0, -1.0, 0.5], dtype=np.float32))
    np.testing.assert_array_equal(cache.get_many("model-b", ["h1"])["h1"], np.full(3, 9.0, dtype=np.float32))
    assert cache.get_many("model-c", ["h1"]) == {}
    assert cache.get_many("model-a", []) == {}
    cache.close()


def test_survives_reopening_and_replaces_values(tmp_path: Path) -> None:
    path = tmp_path / "vectors.sqlite"
    cache = VectorCache(path)
    cache.put_many("m", {"h": np.array([1.0, 2.0])})
    cache.put_many("m", {"h": np.array([3.0, 4.0])})
    cache.close()
    reopened = VectorCache(path)
    np.testing.assert_array_equal(reopened.get_many("m", ["h"])["h"], np.array([3.0, 4.0], dtype=np.float32))
    reopened.close()


def test_many_hashes_are_looked_up_in_batches(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "vectors.sqlite")
    vectors = {f"h{i}": np.array([float(i)]) for i in range(1203)}
    cache.put_many("m", vectors)
    found = cache.get_many("m", [*vectors, "nope"])
    assert len(found) == 1203
    assert float(found["h1202"][0]) == 1202.0
    cache.close()
