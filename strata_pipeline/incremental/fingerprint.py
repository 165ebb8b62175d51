"""The input fingerprint of a source-set: what its index was built from.

It is a set of named parts, each a digest:

- `files`: every file the adapter offers, as (doc_id, sha256 of its bytes, size); a file that was
  rejected before reading (too large, removed, unreadable) counts with an empty sha256;
- `stat`: the same files as (path, size, mtime_ns) from a directory listing, taken *before* any
  file is read. It is the quick check: when it matches, no file needs reading. It is not part of
  the fingerprint's value, so touching a file without changing it never rebuilds;
- `rules`, `golden`, `removed`: the classification rules, the golden and planted-value files and
  the privacy sets the eval scores, and the list of documents taken down with `strata remove`;
- `settings`: everything configured that shapes the index (models, PII backend and thresholds,
  chunking, index schema, extraction limits, Qdrant backend, LLM, reranker, library versions);
- `code`: every module of the pipeline.

A source-set is up to date when its published version recorded the same parts. Files are compared
by `stat` first and by content only when the listing differs, like `git status`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from strata_pipeline.incremental.digests import digest_of

FILE_PARTS = ("files", "stat")
PARTS = ("files", "rules", "golden", "removed", "settings", "code")


def stat_digest(paths: Iterable[tuple[str, Path]]) -> str:
    """Digest of (doc_id, size, mtime_ns) of each (doc_id, path), in sorted order; a path that cannot
    be listed counts as (-1, -1)."""
    entries = []
    for doc_id, path in paths:
        try:
            info = os.lstat(path)
            entries.append((doc_id, info.st_size, info.st_mtime_ns))
        except OSError:
            entries.append((doc_id, -1, -1))
    return _digest_rows(entries)


def files_digest(rows: Iterable[tuple[str, str, int]]) -> str:
    """Digest of (doc_id, sha256, size) per file, in sorted order: the content the index was built from."""
    return _digest_rows((doc_id, sha or "", int(size or 0)) for doc_id, sha, size in rows)


def _digest_rows(rows: Iterable[tuple]) -> str:
    digest = hashlib.sha256()
    for row in sorted(rows):
        digest.update("\x1f".join(str(v) for v in row).encode("utf-8", "surrogateescape") + b"\x1e")
    return digest.hexdigest()[:32]


@dataclass(frozen=True)
class Fingerprint:
    """The named parts; `value` is the digest of all of them but the quick `stat` listing."""

    parts: dict[str, str] = field(default_factory=dict)

    @property
    def value(self) -> str:
        return digest_of({k: v for k, v in self.parts.items() if k != "stat"}) if self.parts else ""


@dataclass(frozen=True)
class Freshness:
    up_to_date: bool
    changed: tuple[str, ...]  # the parts that differ, e.g. ("files", "rules"); empty when up to date

    @property
    def reason(self) -> str:
        """E.g. "files, rules changed", "nothing published yet", "unchanged"."""
        parts = [c for c in self.changed if c in PARTS]
        others = [c for c in self.changed if c not in PARTS]
        said = [f"{', '.join(parts)} changed"] if parts else []
        return "; ".join(said + others) or "unchanged"


def compare(recorded: dict[str, str], current: dict[str, str], stat: str, files: Callable[[], str]) -> Freshness:
    """Whether the inputs still match a recorded fingerprint's parts.

    `current` holds today's non-file parts and `stat` today's listing digest. `files()` computes the
    content digest (it reads every file); it is called only when the listing differs and nothing
    else has changed, so neither an up-to-date check nor a stale one reads files it need not.
    """
    if not recorded:
        return Freshness(False, ("no fingerprint recorded",))
    keys = (set(current) | set(recorded)) - set(FILE_PARTS)
    changed = tuple(sorted(k for k in keys if recorded.get(k) != current.get(k)))
    if recorded.get("stat") != stat and (changed or recorded.get("files") != files()):
        changed = ("files", *changed)
    return Freshness(not changed, changed)
