"""Every kind of hostile or broken file becomes an error row; the rest is indexed; the run succeeds."""

from __future__ import annotations

import ctypes
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import polars as pl
from pypdf import PdfWriter

from strata_pipeline.settings import PROJECT_ROOT

GOOD = {
    "guides/valves.md": "# Valve guide\n\nThe alpha valve must be inspected every 12 days by the night shift.\n",
    "guides/pumps.txt": "Beta pumps run at 3,000 rpm and are serviced twice a year by the maintenance crew.\n",
    "guides/Überblick – 概要.md": "# Überblick\n\nThe gamma line produces 400 crates per hour on weekdays.\n",
}
EXPECTED_ERRORS = {
    "bad/zero.md": "empty_file",
    "bad/binary.md": "binary_content",
    "bad/truncated.pdf": "corrupt_pdf",
    "bad/encrypted.pdf": "encrypted_pdf",
    "bad/not-a-zip.docx": "corrupt_docx",
    "bad/bomb.docx": "zip_bomb",
    "bad/huge.txt": "too_large",
    "bad/invalid-utf8.txt": "invalid_encoding",
    "bad/loop": "symlink_loop",
    "bad/outside.md": "symlink_outside",
    "bad/locked.md": "unreadable",
    "bad/pipe.md": "not_a_regular_file",
    "bad/line\\nbreak.md": "unsafe_filename",  # recorded escaped, on one line
    "bad/caf\\xe9.md": "undecodable_filename",
    "bad/unknown.xyz": "unsupported_format",
}
BULK_FILES = 10_000


def encrypted_pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.encrypt(user_password="s3cret", owner_password="owner")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def zip_bomb_docx() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", "<Types/>")
        package.writestr("word/document.xml", b"\0" * 1_000_000)  # 1 MB that compresses to ~1 KB
    return out.getvalue()


def build_corpus(root: Path) -> Path:
    source = root / "hostile"
    for rel, text in GOOD.items():
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        (source / rel).write_text(text, encoding="utf-8")
    bad = source / "bad"
    bad.mkdir()
    (bad / "zero.md").write_bytes(b"")
    (bad / "binary.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (bad / "truncated.pdf").write_bytes(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R")
    (bad / "encrypted.pdf").write_bytes(encrypted_pdf())
    (bad / "not-a-zip.docx").write_bytes(b"plain text wearing a .docx name")
    (bad / "bomb.docx").write_bytes(zip_bomb_docx())
    (bad / "huge.txt").write_text("lorem ipsum " * 25_000)  # 300 kB, over the 200 kB cap of this run
    (bad / "invalid-utf8.txt").write_bytes(b"caf\xc3\x28 menu \x81\x8d\x8f\x90 prices")
    (bad / "loop").symlink_to(bad / "loop")
    (bad / "outside.md").symlink_to("/etc/hostname")
    (bad / "locked.md").write_text("secret plans")
    (bad / "locked.md").chmod(0)
    os.mkfifo(bad / "pipe.md")
    (bad / "line\nbreak.md").write_text("a file name with a newline")  # a real newline
    with open(os.fsencode(bad) + b"/caf\xe9.md", "wb") as handle:  # a Latin-1 byte, not UTF-8
        handle.write(b"menu")
    (bad / "unknown.xyz").write_text("some proprietary format")
    bulk = source / "bulk"
    bulk.mkdir()
    for n in range(BULK_FILES):
        (bulk / f"setting-{n:05d}.json").write_text(f'{{"n": {n}}}')
    return root


def _drop_root_read_override() -> None:
    """Root reads any file; without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH it obeys file modes."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def test_hostile_corpus_becomes_error_rows_and_the_rest_is_indexed(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path / "corpus")
    home = tmp_path / "home"
    completed = subprocess.run(
        [sys.executable, "-m", "strata_pipeline_tests.defs.ingest.hostile_run", str(home), str(corpus), "hostile"],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=600,
        preexec_fn=_drop_root_read_override if os.geteuid() == 0 else None,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    summary = json.loads(completed.stdout.strip().splitlines()[-1])
    assert summary["success"], completed.stderr[-3000:]
    assert all(summary["checks"].values())

    docs = pl.read_parquet(home / "assets" / "discovered_docs" / "hostile.parquet")
    assert docs.height == len(GOOD) + len(EXPECTED_ERRORS) + BULK_FILES  # every file is one row
    assert "guides/Überblick – 概要.md" in docs["doc_id"].to_list()
    errors = dict(docs.filter(pl.col("status") == "error").select("doc_id", "error_code").iter_rows())
    assert errors == EXPECTED_ERRORS
    messages = docs.filter(pl.col("status") == "error")["error_message"].to_list()
    assert all(m and len(m) > 15 for m in messages)

    classified = pl.read_parquet(home / "assets" / "classified_docs" / "hostile.parquet")
    bulk = classified.filter(pl.col("doc_id").str.starts_with("bulk/"))
    assert bulk.height == BULK_FILES and set(bulk["rule"].to_list()) == {"config-files"}

    chunks = pl.read_parquet(home / "assets" / "chunks" / "hostile.parquet")
    assert set(chunks["doc_id"].to_list()) == set(GOOD)
    assert summary["metadata"]["discovered_docs"]["errors"] == len(EXPECTED_ERRORS)
    assert summary["metadata"]["qdrant_collection"]["points"] == chunks.height
