"""Walk a source-set and produce one row per file, extracted text or recorded error."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from strata_pipeline.discovery.adapters import SourceAdapter, SourceFile
from strata_pipeline.discovery.extractors import Extraction, ExtractionError, extract

DISCOVERED_SCHEMA: dict[str, pl.DataType] = {
    "doc_id": pl.String(),
    "source_set": pl.String(),
    "project": pl.String(),
    "adapter": pl.String(),
    "extension": pl.String(),
    "size_bytes": pl.Int64(),
    "sha256": pl.String(),
    "mtime": pl.Datetime("us", "UTC"),
    "status": pl.String(),  # "ok" or "error"
    "kind": pl.String(),  # "text", "table" or "" on error
    "encoding": pl.String(),
    "text": pl.String(),
    "pages": pl.List(pl.Struct({"page": pl.Int64(), "start": pl.Int64(), "end": pl.Int64()})),
    "tables_json": pl.String(),
    "error_code": pl.String(),
    "error_message": pl.String(),
}


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 50 * 1024 * 1024
    max_text_chars: int = 5_000_000


def discover_source_set(
    source_dir: Path,
    source_set: str,
    adapter: SourceAdapter,
    limits: Limits = Limits(),
    progress: Callable[[int, str], None] | None = None,
) -> pl.DataFrame:
    """One row per file the adapter offers. A file that cannot be read is an error row."""
    rows = []
    for number, source_file in enumerate(adapter.iter_files(source_dir), start=1):
        rows.append(discover_file(source_file, source_set, adapter.name, limits))
        if progress is not None:
            progress(number, source_file.doc_id)
    return (
        pl.DataFrame(rows, schema=DISCOVERED_SCHEMA, orient="row") if rows else pl.DataFrame(schema=DISCOVERED_SCHEMA)
    )


def discover_file(source_file: SourceFile, source_set: str, adapter_name: str, limits: Limits) -> dict:
    row: dict = {
        "doc_id": source_file.doc_id,
        "source_set": source_set,
        "project": source_file.project,
        "adapter": adapter_name,
        "extension": source_file.path.suffix.lower(),
        "size_bytes": 0,
        "sha256": "",
        "mtime": None,
        "status": "error",
        "kind": "",
        "encoding": "",
        "text": "",
        "pages": [],
        "tables_json": None,
        "error_code": None,
        "error_message": None,
    }
    try:
        if source_file.is_symlink:
            raise ExtractionError(
                "symlink_skipped", "Symlinks are never followed, so content outside the corpus stays out."
            )
        stat = source_file.path.stat()
        row["size_bytes"] = stat.st_size
        row["mtime"] = datetime.fromtimestamp(stat.st_mtime, tz=UTC)
        if stat.st_size > limits.max_file_bytes:
            raise ExtractionError(
                "too_large", f"File is {stat.st_size} bytes, over the {limits.max_file_bytes}-byte limit."
            )
        data = source_file.path.read_bytes()
        row["sha256"] = hashlib.sha256(data).hexdigest()
        extraction = extract(data, source_file.path.name)
        if len(extraction.text) > limits.max_text_chars:
            raise ExtractionError(
                "too_much_text", f"Extracted {len(extraction.text)} characters, over the {limits.max_text_chars} limit."
            )
        row.update(_extraction_columns(extraction))
    except ExtractionError as exc:
        row["error_code"], row["error_message"] = exc.code, exc.message
    except OSError as exc:
        row["error_code"], row["error_message"] = "unreadable", f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # last line of defence: one bad file must never fail the run
        row["error_code"], row["error_message"] = "extract_failed", f"{type(exc).__name__}: {exc}"
    return row


def _extraction_columns(extraction: Extraction) -> dict:
    tables = None
    if extraction.tables:
        tables = json.dumps({name: json.loads(frame.write_json()) for name, frame in extraction.tables.items()})
    return {
        "status": "ok",
        "kind": extraction.kind,
        "encoding": extraction.encoding,
        "text": extraction.text,
        "pages": [{"page": p.page, "start": p.start, "end": p.end} for p in extraction.pages],
        "tables_json": tables,
    }
