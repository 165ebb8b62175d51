"""Complex formats are parsed in worker processes: a file that hangs a parser costs only its row."""

from __future__ import annotations

import io
import time
from pathlib import Path

from fpdf import FPDF
from pypdf import PdfReader, PdfWriter

from strata_pipeline.discovery.adapters import FolderAdapter
from strata_pipeline.discovery.discover import Limits, discover_source_set
from strata_pipeline.discovery.extractors.extraction import ExtractLimits


def pdf_bytes(pages: int) -> bytes:
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for n in range(pages):
        pdf.add_page()
        pdf.cell(text=f"Page {n + 1} of the maintenance manual.")
    return bytes(pdf.output())


def long_pdf(pages: int) -> bytes:
    """Many copies of one text page: seconds of parsing, generated in milliseconds."""
    reader = PdfReader(io.BytesIO(pdf_bytes(1)))
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_page(reader.pages[0])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_parse_that_exceeds_the_timeout_becomes_an_error_row_and_the_rest_survives(tmp_path: Path) -> None:
    (tmp_path / "manual.pdf").write_bytes(long_pdf(5000))  # several seconds to parse every page
    (tmp_path / "notes.md").write_text("# Notes\n\nPlain text is decoded in-process and is never timed out.\n")
    limits = Limits(timeout_s=0.3, extract=ExtractLimits(max_pages=10_000))  # stands for a parser that hangs
    started = time.perf_counter()
    frame = discover_source_set(tmp_path, "s", FolderAdapter(), limits)
    assert time.perf_counter() - started < 30  # the worker was stopped, not waited for
    rows = {r["doc_id"]: r for r in frame.iter_rows(named=True)}
    assert rows["manual.pdf"]["error_code"] == "extract_timeout"
    assert "longer than 0.3s" in rows["manual.pdf"]["error_message"]
    assert rows["manual.pdf"]["sha256"]  # the file was read; only its parse was stopped
    assert rows["notes.md"]["status"] == "ok"


def test_worker_results_come_back_intact_with_warnings_and_pages(tmp_path: Path) -> None:
    (tmp_path / "manual.pdf").write_bytes(pdf_bytes(3))
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj <<")
    frame = discover_source_set(tmp_path, "s", FolderAdapter(), Limits(timeout_s=60))
    rows = {r["doc_id"]: r for r in frame.iter_rows(named=True)}
    manual = rows["manual.pdf"]
    assert manual["status"] == "ok" and [p["page"] for p in manual["pages"]] == [1, 2, 3]
    assert "Page 3 of the maintenance manual." in manual["text"]
    assert rows["broken.pdf"]["error_code"] == "corrupt_pdf"  # an ExtractionError crosses the process boundary
