"""Walk a source-set and produce one row per file: extracted text, or a recorded error.

Nothing a file does can fail the run or vanish: every file the adapter offers becomes exactly one
row. Parsers of complex formats (PDF, Office, HTML, CSV) run in worker processes under a per-file
timeout, so a file that makes a parser hang or crash costs only its own row.
"""

from __future__ import annotations

import errno
import hashlib
import json
import multiprocessing
import os
import stat
import unicodedata
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import polars as pl
from pebble import ProcessExpired, ProcessPool

from strata_pipeline.discovery.adapters import SourceAdapter, SourceFile
from strata_pipeline.discovery.extractors.dispatch import ISOLATED_EXTENSIONS, extract
from strata_pipeline.discovery.extractors.extraction import Extraction, ExtractionError, ExtractLimits
from strata_pipeline.incremental.cache import DocumentCache, cache_key
from strata_pipeline.incremental.digests import extraction_digest

DISCOVERED_SCHEMA: dict[str, pl.DataType] = {
    "doc_id": pl.String(),
    "source_set": pl.String(),
    "project": pl.String(),
    "adapter": pl.String(),
    "extension": pl.String(),
    "doc_type": pl.String(),  # adapter's hint, else the extraction kind
    "adapter_groups": pl.List(pl.String()),  # document groups the adapter gave (access rules decide first)
    "size_bytes": pl.Int64(),
    "sha256": pl.String(),
    "mtime": pl.Datetime("us", "UTC"),
    "status": pl.String(),  # "ok" or "error"
    "kind": pl.String(),  # "text", "table", "config" or "" on error
    "encoding": pl.String(),
    "text": pl.String(),
    "pages": pl.List(pl.Struct({"page": pl.Int64(), "start": pl.Int64(), "end": pl.Int64()})),
    "tables_json": pl.String(),
    "front_matter_json": pl.String(),
    "warnings": pl.List(pl.String()),
    "error_code": pl.String(),
    "error_message": pl.String(),
}
# Outcomes that depend on the moment (a loaded machine, a killed worker), not on the file: never cached.
TRANSIENT_ERRORS = frozenset({"extract_timeout", "extractor_crashed", "extract_failed"})


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 50 * 1024 * 1024
    timeout_s: float = 60.0  # per file, for the formats parsed in a worker
    workers: int = 2
    extract: ExtractLimits = field(default_factory=ExtractLimits)


class _Rejected(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def discover_source_set(
    source_dir: Path,
    source_set: str,
    adapter: SourceAdapter,
    limits: Limits = Limits(),
    progress: Callable[[int, int], None] | None = None,
    removed: frozenset[str] = frozenset(),
    cache: DocumentCache | None = None,
) -> pl.DataFrame:
    """One row per file the adapter offers, in the adapter's order.

    `progress(done, total)` is called once per file as its row is complete. Files in `removed`
    (taken down with `strata remove`) are listed but never read. With a `cache`, a file whose
    bytes, extension, limits and adapter facets were extracted before by the same extractor code
    reuses that outcome (a parse error included, a timeout or a crash never); `cache.hits` and
    `cache.misses` then count the files reused and extracted.
    """
    files = list(adapter.iter_files(source_dir))
    facets = getattr(adapter, "facets", {}) or {}
    done = 0

    def finished() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, len(files))

    rows: list[dict] = []
    pending: list[tuple[dict, bytes, str, str]] = []  # rows extracted in a worker, with their cache keys

    def keep(row: dict, key: str, outcome: dict) -> None:
        _update(row, outcome)
        if cache is not None and outcome.get("error_code") not in TRANSIENT_ERRORS:
            cache.put(key, row["sha256"], outcome)

    for source_file in files:
        row, data = _read(source_file, source_dir, source_set, adapter.name, limits, removed)
        rows.append(row)
        key = ""
        if data is not None and cache is not None:
            key = cache_key("extraction", row["sha256"], row["extension"], limits.extract, facets, extraction_digest())
            cached = cache.get(key)
            if cached is not None:
                _update(row, cached)
                data = None
        if data is not None and row["extension"] in ISOLATED_EXTENSIONS:
            pending.append((row, data, source_file.path.name, key))
            continue
        if data is not None:
            keep(row, key, _outcome(partial(extract, data, source_file.path.name, limits.extract), facets))
        finished()
    if pending:
        # forkserver: workers start from a clean process, never a fork of one holding model threads.
        context = multiprocessing.get_context("forkserver")
        with ProcessPool(max_workers=limits.workers, context=context) as pool:
            futures = [
                pool.schedule(extract, args=(data, name, limits.extract), timeout=limits.timeout_s)
                for _, data, name, _ in pending
            ]
            for (row, _, _, key), future in zip(pending, futures, strict=True):
                keep(row, key, _outcome(future.result, facets, limits.timeout_s))
                finished()
    if not rows:
        return pl.DataFrame(schema=DISCOVERED_SCHEMA)
    return pl.DataFrame(rows, schema=DISCOVERED_SCHEMA, orient="row")


def file_states(
    source_dir: Path,
    source_set: str,
    adapter: SourceAdapter,
    limits: Limits = Limits(),
    removed: frozenset[str] = frozenset(),
) -> list[tuple[str, str, int]]:
    """(doc_id, sha256, size_bytes) of every file the adapter offers, exactly as discover_source_set
    records them (a file rejected before reading has sha256 ""); reads one file at a time."""
    states = []
    for source_file in adapter.iter_files(source_dir):
        row, _ = _read(source_file, source_dir, source_set, adapter.name, limits, removed)
        states.append((row["doc_id"], row["sha256"], row["size_bytes"]))
    return states


def _outcome(run: Callable[[], Extraction], facets: dict[str, str], timeout_s: float = 0.0) -> dict:
    """The columns an extraction sets on its row: the extracted ones, or an error code and message."""
    try:
        return _extraction_columns(run(), facets)
    except ExtractionError as exc:
        return {"error_code": exc.code, "error_message": exc.message}
    except FutureTimeout:
        message = f"Extraction took longer than {timeout_s:g}s and was stopped; the file may be crafted."
        return {"error_code": "extract_timeout", "error_message": message}
    except ProcessExpired as exc:
        message = f"The parser process died (exit code {exc.exitcode}); the file may be malformed."
        return {"error_code": "extractor_crashed", "error_message": message}
    except Exception as exc:  # last line of defence: one bad file must never fail the run
        return {"error_code": "extract_failed", "error_message": f"{type(exc).__name__}: {exc}"}


def _update(row: dict, outcome: dict) -> None:
    row.update(outcome)
    if outcome.get("status") == "ok":
        row["doc_type"] = row["doc_type"] or row["kind"]


def _empty_row(source_file: SourceFile, source_set: str, adapter_name: str) -> dict:
    return {
        "doc_id": source_file.doc_id,
        "source_set": source_set,
        "project": source_file.project,
        "adapter": adapter_name,
        "extension": source_file.path.suffix.lower(),
        "doc_type": source_file.doc_type or "",
        "adapter_groups": sorted(source_file.groups),
        "size_bytes": 0,
        "sha256": "",
        "mtime": None,
        "status": "error",
        "kind": "",
        "encoding": "",
        "text": "",
        "pages": [],
        "tables_json": None,
        "front_matter_json": None,
        "warnings": [],
        "error_code": None,
        "error_message": None,
    }


def _read(
    source_file: SourceFile,
    source_dir: Path,
    source_set: str,
    adapter_name: str,
    limits: Limits,
    removed: frozenset[str] = frozenset(),
) -> tuple[dict, bytes | None]:
    """The row with file facts filled in, and the bytes to extract (None when rejected)."""
    row = _empty_row(source_file, source_set, adapter_name)
    row["doc_id"] = printable_doc_id(source_file.doc_id)
    try:
        row["doc_id"], renamed = safe_doc_id(source_file.doc_id)
        if renamed:
            row["warnings"].append("doc_id_normalised:NFC")
        if row["doc_id"] in removed:
            raise _Rejected(
                "removed_on_request",
                "Removed with `strata remove`; to index it again, delete its line from "
                "STRATA_HOME/removed/<source_set>.txt.",
            )
        info = os.lstat(source_file.path)
        row["mtime"] = datetime.fromtimestamp(info.st_mtime, tz=UTC)
        if stat.S_ISLNK(info.st_mode):
            raise _Rejected(*symlink_verdict(source_file.path, source_dir))
        if not stat.S_ISREG(info.st_mode):
            raise _Rejected(
                "not_a_regular_file", "Pipes, sockets and devices are not documents; reading one could block."
            )
        row["size_bytes"] = info.st_size
        if info.st_size > limits.max_file_bytes:
            raise _Rejected("too_large", f"File is {info.st_size} bytes, over the {limits.max_file_bytes}-byte limit.")
        data = source_file.path.read_bytes()
    except _Rejected as exc:
        row["error_code"], row["error_message"] = exc.code, exc.message
        return row, None
    except PermissionError as exc:
        row["error_code"], row["error_message"] = "unreadable", f"Permission denied: {exc.strerror}. Grant read access."
        return row, None
    except OSError as exc:
        row["error_code"], row["error_message"] = "unreadable", f"{type(exc).__name__}: {exc.strerror or exc}"
        return row, None
    row["sha256"] = hashlib.sha256(data).hexdigest()
    return row, data


def safe_doc_id(raw: str) -> tuple[str, bool]:
    """The doc_id to record, NFC-normalised, and whether normalising changed it.

    Names no tool downstream can trust (undecodable bytes, control characters such as newlines)
    raise _Rejected; the row then records `printable_doc_id(raw)`.
    """
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise _Rejected("undecodable_filename", "File name is not valid UTF-8; rename the file.") from None
    if any(unicodedata.category(ch) == "Cc" for ch in raw):
        raise _Rejected("unsafe_filename", "File name contains control characters (e.g. a newline); rename the file.")
    normal = unicodedata.normalize("NFC", raw)
    return normal, normal != raw


def printable_doc_id(raw: str) -> str:
    """An escaped, single-line form of any name: undecodable bytes as \\xNN, control chars as \\n etc."""
    text = raw.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) == "Cc" else ch for ch in text
    )


def symlink_verdict(path: Path, boundary: Path) -> tuple[str, str]:
    """Why a symlink is skipped. Symlinks are never followed: a loop or a link out of the source-set
    must not pull content in, and a link inside it would index the same file twice."""
    try:
        target = path.resolve(strict=True)
    except RuntimeError:
        return "symlink_loop", "Symlink loop: the link resolves to itself."
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink_loop", "Symlink loop: the link resolves to itself."
        return "symlink_broken", f"Symlink target does not exist: {os.readlink(path)}."
    if not target.is_relative_to(boundary.resolve()):
        return "symlink_outside", "Symlink points outside the source-set folder; it is never followed."
    return "symlink_skipped", "Symlink inside the source-set; its target is indexed under its own path."


def _extraction_columns(extraction: Extraction, facets: dict[str, str]) -> dict:
    tables = None
    if extraction.tables:
        tables = json.dumps(
            {
                name: json.loads(frame.rename(facets, strict=False).write_json())
                for name, frame in extraction.tables.items()
            }
        )
    front_matter = extraction.metadata.get("front_matter")
    return {
        "status": "ok",
        "kind": extraction.kind,
        "encoding": extraction.encoding,
        "text": extraction.text,
        "pages": [{"page": p.page, "start": p.start, "end": p.end} for p in extraction.pages],
        "tables_json": tables,
        "front_matter_json": json.dumps(front_matter, default=str) if front_matter else None,
        "warnings": list(extraction.warnings),
        "error_code": None,
        "error_message": None,
    }
