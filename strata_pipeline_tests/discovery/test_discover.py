"""discover_source_set: every file offered is a row; bad files are error rows; it never raises."""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path

import polars as pl
import pytest

from strata_pipeline.discovery.adapters import FolderAdapter
from strata_pipeline.discovery.discover import DISCOVERED_SCHEMA, Limits, discover_source_set
from strata_pipeline.discovery.extractors.extraction import ExtractLimits

GOOD_MD = b"# Leave policy\n\nEmployees get 25 days of paid vacation per year.\n"


def build_source_set(root: Path) -> Path:
    source = root / "handbook"
    (source / "hr").mkdir(parents=True)
    (source / "engineering").mkdir()
    (source / "elsewhere").mkdir()
    (source / "hr" / "leave.md").write_bytes(GOOD_MD)
    (source / "hr" / "empty-notes.md").write_bytes(b"")
    (source / "hr" / "binary-blob.md").write_bytes(b"\x00\x01\x02\x89PNG\x00\x00 not text")
    (source / "hr" / "not-really.docx").write_bytes(b"this is plain text wearing a .docx name")
    (source / "engineering" / "truncated.pdf").write_bytes(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R")
    (source / "engineering" / "photo.png").write_bytes(b"\x89PNG\r\n")
    (source / "engineering" / "stock.csv").write_bytes(b"sku,qty\nA,1\n")
    (source / "top-level.txt").write_bytes(b"At the top of the source-set.")
    (root / "outside.md").write_bytes(b"secret content outside the corpus")
    (source / "hr" / "link.md").symlink_to(root / "outside.md")
    (source / "elsewhere" / "linked-dir").symlink_to(root, target_is_directory=True)
    (source / "elsewhere" / "alias.md").symlink_to(source / "hr" / "leave.md")
    (source / "elsewhere" / "loop.md").symlink_to(source / "elsewhere" / "loop.md")
    return source


def rows_by_id(frame: pl.DataFrame) -> dict[str, dict]:
    return {row["doc_id"]: row for row in frame.iter_rows(named=True)}


def test_every_file_is_a_row_with_the_right_status_and_error_code(tmp_path: Path) -> None:
    source = build_source_set(tmp_path)
    frame = discover_source_set(source, "handbook", FolderAdapter())
    assert frame.schema == pl.Schema(DISCOVERED_SCHEMA)
    rows = rows_by_id(frame)
    assert {doc_id: (row["status"], row["error_code"]) for doc_id, row in rows.items()} == {
        "elsewhere/alias.md": ("error", "symlink_skipped"),  # its target is indexed as hr/leave.md
        "elsewhere/linked-dir": ("error", "symlink_outside"),
        "elsewhere/loop.md": ("error", "symlink_loop"),
        "engineering/photo.png": ("error", "unsupported_format"),
        "engineering/stock.csv": ("ok", None),
        "engineering/truncated.pdf": ("error", "corrupt_pdf"),
        "hr/binary-blob.md": ("error", "binary_content"),
        "hr/empty-notes.md": ("error", "empty_file"),
        "hr/leave.md": ("ok", None),
        "hr/link.md": ("error", "symlink_outside"),
        "hr/not-really.docx": ("error", "corrupt_docx"),
        "top-level.txt": ("ok", None),
    }
    for row in rows.values():
        assert row["source_set"] == "handbook"
        assert row["adapter"] == "folder"
        if row["status"] == "error":
            assert row["error_message"]
            assert row["kind"] == ""
            assert row["text"] == ""
        else:
            assert row["error_message"] is None


def test_ok_rows_carry_text_hash_size_project_and_kind(tmp_path: Path) -> None:
    source = build_source_set(tmp_path)
    rows = rows_by_id(discover_source_set(source, "handbook", FolderAdapter()))
    leave = rows["hr/leave.md"]
    assert leave["text"] == GOOD_MD.decode()
    assert leave["sha256"] == hashlib.sha256(GOOD_MD).hexdigest()
    assert leave["size_bytes"] == len(GOOD_MD)
    assert leave["extension"] == ".md"
    assert leave["project"] == "hr"
    assert (leave["kind"], leave["encoding"]) == ("text", "utf-8")
    assert isinstance(leave["mtime"], datetime)
    assert leave["mtime"].timestamp() == pytest.approx((source / "hr" / "leave.md").stat().st_mtime, abs=1e-6)
    assert leave["pages"] == []
    assert leave["tables_json"] is None
    stock = rows["engineering/stock.csv"]
    assert stock["kind"] == "table"
    assert stock["tables_json"] == '{"stock": [{"sku": "A", "qty": 1}]}'
    assert rows["top-level.txt"]["project"] == ""


def test_symlinks_are_never_followed(tmp_path: Path) -> None:
    source = build_source_set(tmp_path)
    rows = rows_by_id(discover_source_set(source, "handbook", FolderAdapter()))
    link = rows["hr/link.md"]
    assert link["text"] == ""
    assert link["sha256"] == ""
    assert link["size_bytes"] == 0
    # Nothing below the symlinked folder is listed (it points at the corpus root itself).
    assert not any(doc_id.startswith("elsewhere/linked-dir/") for doc_id in rows)


def test_too_large_files_are_error_rows_with_their_size(tmp_path: Path) -> None:
    source = build_source_set(tmp_path)
    rows = rows_by_id(discover_source_set(source, "handbook", FolderAdapter(), Limits(max_file_bytes=20)))
    leave = rows["hr/leave.md"]
    assert (leave["status"], leave["error_code"]) == ("error", "too_large")
    assert leave["size_bytes"] == len(GOOD_MD)
    assert leave["sha256"] == ""  # never read
    assert leave["error_message"] == f"File is {len(GOOD_MD)} bytes, over the 20-byte limit."
    assert rows["engineering/stock.csv"]["status"] == "ok"  # 12 bytes, under the limit


def test_too_much_text_is_an_error_row(tmp_path: Path) -> None:
    source = build_source_set(tmp_path)
    rows = rows_by_id(
        discover_source_set(source, "handbook", FolderAdapter(), Limits(extract=ExtractLimits(max_text_chars=30)))
    )
    assert rows["hr/leave.md"]["error_code"] == "too_much_text"
    assert rows["top-level.txt"]["status"] == "ok"  # 29 characters


def test_unreadable_file_is_an_error_row(tmp_path: Path) -> None:
    source = tmp_path / "docs"
    source.mkdir()
    (source / "folder.md").mkdir()  # a folder posing as a file

    class OneFileAdapter(FolderAdapter):
        def iter_files(self, source_dir: Path):
            from strata_pipeline.discovery.adapters import SourceFile

            yield SourceFile(path=source_dir / "folder.md", doc_id="folder.md", project="")
            yield SourceFile(path=source_dir / "missing.md", doc_id="missing.md", project="")

    rows = rows_by_id(discover_source_set(source, "docs", OneFileAdapter()))
    assert rows["folder.md"]["error_code"] == "not_a_regular_file"
    assert rows["missing.md"]["error_code"] == "unreadable"
    assert rows["missing.md"]["error_message"].startswith("FileNotFoundError")


def test_progress_is_reported_per_file(tmp_path: Path) -> None:
    source = build_source_set(tmp_path)
    seen: list[tuple[int, int]] = []
    frame = discover_source_set(source, "handbook", FolderAdapter(), progress=lambda n, total: seen.append((n, total)))
    assert seen == [(n, frame.height) for n in range(1, frame.height + 1)]


def test_empty_source_set_gives_an_empty_frame_with_the_schema(tmp_path: Path) -> None:
    frame = discover_source_set(tmp_path, "empty", FolderAdapter())
    assert frame.height == 0
    assert frame.schema == pl.Schema(DISCOVERED_SCHEMA)


def test_unexpected_extractor_failure_is_extract_failed(tmp_path: Path, monkeypatch) -> None:
    from strata_pipeline.discovery import discover

    def boom(data: bytes, name: str, limits: object):
        raise RuntimeError("extractor bug")

    monkeypatch.setattr(discover, "extract", boom)
    (tmp_path / "a.md").write_bytes(b"text")
    row = discover_source_set(tmp_path, "s", FolderAdapter()).row(0, named=True)
    assert (row["status"], row["error_code"], row["error_message"]) == (
        "error",
        "extract_failed",
        "RuntimeError: extractor bug",
    )
    assert row["sha256"] == hashlib.sha256(b"text").hexdigest()
