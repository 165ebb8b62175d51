"""Per-document results kept between runs, in the spirit of the vector cache.

A `DocumentCache` maps a key (a digest of the document's content *and* of the code and settings
that computed the value) to a JSON value. A changed document, a changed detector or a changed
setting all make a new key, so a stale value is never read; old entries are simply not asked for.

Writes are SQLite transactions, committed every `flush_every` values and at close: a killed run
keeps every committed value and the file stays usable. The cache is an optimisation only: a file
that cannot be opened or read is set aside and the run continues with an empty cache.

Each entry also records `content`, the sha256 of the document content it was computed from, so
`strata remove` can delete a removed document's entries (extracted and redacted text) everywhere.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


def cache_key(*parts: Any) -> str:
    """The key of a value computed from `parts` (content digests, code digests, settings)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def memoized(cache: DocumentCache, stage: str, digest: str, compute: Callable[[str], Any]) -> Callable[[str], Any]:
    """`compute(text)` through the cache, keyed by the text's sha256, `stage` and `digest` (of the code
    and settings `compute` depends on). Values always come back as JSON gives them (tuples as
    lists), computed or cached, so callers see one shape."""

    def run(text: str) -> Any:
        content = hashlib.sha256(text.encode("utf-8")).hexdigest()
        key = cache_key(stage, content, digest)
        value = cache.get(key)
        if value is None:
            value = json.loads(json.dumps(compute(text)))
            cache.put(key, content, value)
        return value

    return run


class DocumentCache:
    """A SQLite table of key -> JSON value, with hit and miss counters for the run's metadata."""

    def __init__(self, path: Path, flush_every: int = 64) -> None:
        self.path = path
        self.flush_every = flush_every
        self.hits = 0
        self.misses = 0
        self._pending: list[tuple[str, str, str]] = []
        self._db: sqlite3.Connection | None = self._open()

    def _open(self) -> sqlite3.Connection | None:
        for attempt in range(2):
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=60)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("PRAGMA secure_delete=ON")  # purged text does not stay in free pages
                db.execute(
                    "CREATE TABLE IF NOT EXISTS entries "
                    "(key TEXT PRIMARY KEY, content TEXT NOT NULL, value TEXT NOT NULL)"
                )
                db.execute("CREATE INDEX IF NOT EXISTS entries_content ON entries (content)")
                db.commit()
                return db
            except sqlite3.DatabaseError:
                if attempt == 0 and self.path.exists():
                    self._set_aside()
                    continue
                return None
            except OSError:
                return None
        return None

    def _set_aside(self) -> None:
        """Move an unreadable file out of the way (kept for inspection) so a fresh cache can start."""
        stamp = time.strftime("%Y%m%dT%H%M%S")
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                os.replace(source, Path(f"{self.path}.corrupt-{stamp}{suffix}"))

    @property
    def available(self) -> bool:
        return self._db is not None

    def get(self, key: str) -> Any | None:
        """The cached value, or None (a miss); counts hits and misses."""
        value = None
        if self._db is not None:
            try:
                row = self._db.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()
                value = json.loads(row[0]) if row else None
            except (sqlite3.DatabaseError, ValueError):
                value = None
        if value is None:
            value = next((json.loads(v) for k, _, v in self._pending if k == key), None) if self._pending else None
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, key: str, content: str, value: Any) -> None:
        """Store `value` (JSON-able) under `key`; `content` is the sha256 of the input document."""
        if self._db is None:
            return
        self._pending.append((key, content, json.dumps(value, default=str)))
        if len(self._pending) >= self.flush_every:
            self.flush()

    def flush(self) -> None:
        if self._db is None or not self._pending:
            return
        pending, self._pending = self._pending, []
        try:
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", pending)
        except sqlite3.DatabaseError:
            pass  # a full disk or a locked file costs only the cache, never the run

    def purge(self, contents: Iterable[str]) -> int:
        """Delete every entry computed from these contents; returns how many went."""
        self.flush()
        if self._db is None:
            return 0
        with self._db:
            removed = sum(
                self._db.execute("DELETE FROM entries WHERE content = ?", (c,)).rowcount for c in set(contents) if c
            )
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # and not in the write-ahead log either
        return removed

    def __len__(self) -> int:
        self.flush()
        if self._db is None:
            return 0
        return int(self._db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> DocumentCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class NoCache(DocumentCache):
    """Caching turned off: every lookup misses and nothing is written."""

    def __init__(self) -> None:
        self.path = Path(os.devnull)
        self.flush_every = 1
        self.hits = 0
        self.misses = 0
        self._pending = []
        self._db = None
