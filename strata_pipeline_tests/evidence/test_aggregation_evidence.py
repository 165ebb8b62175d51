"""Evidence for aggregation answers: the packet pins the spreadsheet rows a figure counted, and
`strata verify` / POST /verify report an edited, moved or deleted sheet behind it, through the real
engine over the materialised sample index (a copy of its corpus, so the shared stack is left alone)."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from serving.app import create_app
from strata_pipeline.cli import main
from strata_pipeline.evidence import EvidenceRow, packet_from_dict
from strata_pipeline.evidence.rows import cell_text, cells_match, check_row, find_row, sheet_cells, sheet_sha256
from strata_pipeline.evidence.sources import Source
from strata_pipeline_tests.conftest import Stack
from strata_pipeline_tests.test_cli import env_for

QUESTION = "How many SKUs cost more than 5000 dollars?"  # products/sales/price-list.csv: 8 rows
PRICE_LIST = Path("products") / "sales" / "price-list.csv"


@pytest.fixture
def corpus(stack: Stack, tmp_path: Path) -> Path:
    copy = tmp_path / "corpus"
    shutil.copytree(stack.settings.corpus_root, copy)
    return copy


def price_rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text())))


def write_rows(path: Path, rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue())


def test_strata_verify_checks_the_rows_behind_an_aggregation(stack: Stack, corpus: Path, tmp_path: Path) -> None:
    env = env_for(stack.settings.home, corpus)
    packet_file = tmp_path / "packet.json"
    asked = CliRunner().invoke(main, ["ask", QUESTION, "--evidence", str(packet_file)], env=env)
    assert asked.exit_code == 0, asked.output
    packet = packet_from_dict(json.loads(packet_file.read_text()))
    assert packet.mode == "facts" and packet.citations == []
    assert len(packet.rows) == 8 and {(r.source_set, r.doc_id) for r in packet.rows} == {
        ("products", "sales/price-list.csv")
    }
    source = corpus / PRICE_LIST
    lines = price_rows(source)
    for pinned in packet.rows:  # each row is the sheet's row as counted, with the file's sha256
        assert next(csv.reader([pinned.line])) == lines[pinned.row]
        assert float(lines[pinned.row][3]) > 5000
    assert {r.sha256 for r in packet.rows} == {Source("price-list.csv", source.read_bytes()).sha256}
    assert packet.index_versions.keys() == {"products"} and packet.rows[0].sheet_sha256

    def verify() -> tuple[int, dict]:
        result = CliRunner().invoke(main, ["verify", str(packet_file), "--json"], env=env)
        return result.exit_code, json.loads(result.output)

    code, report = verify()
    assert code == 0 and report["ok"] and report["counts"] == {"intact": 8, "drifted": 0, "missing": 0}
    table = CliRunner().invoke(main, ["verify", str(packet_file)], env=env)
    assert table.exit_code == 0 and "0 citation(s) and 8 row(s): 8 intact, 0 drifted, 0 missing" in table.output

    # moved: a new first row pushes every row one down; the figure may differ, so the rows drift
    write_rows(source, [lines[0], ["NEW-1", "RX-200", "spare", "10", "USD", "1", "1"], *lines[1:]])
    code, report = verify()
    assert code == 1 and report["counts"] == {"intact": 0, "drifted": 8, "missing": 0}
    assert [c["moved_to_row"] for c in report["rows"]] == [r.row + 1 for r in packet.rows]

    # edited: one counted row's price changed; the other rows are in place in a changed sheet
    changed = [list(row) for row in lines]
    edited = packet.rows[0].row
    changed[edited][3] = "4999"
    write_rows(source, changed)
    code, report = verify()
    assert code == 1 and report["counts"]["drifted"] == 8
    by_row = {c["row"]: c for c in report["rows"]}
    assert by_row[edited]["reason"] == "the sheet no longer holds the row" and by_row[edited]["moved_to_row"] is None
    assert all("at its place" in c["reason"] for row, c in by_row.items() if row != edited)

    # an unchanged sheet in a rewritten file (here: the same cells, quoted differently) stays intact
    out = io.StringIO()
    csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL).writerows(lines)
    source.write_text(out.getvalue())
    code, report = verify()
    assert code == 0 and {c["reason"] for c in report["rows"]} == {"sheet unchanged (the file changed elsewhere)"}

    source.unlink()  # deleted
    code, report = verify()
    assert code == 1 and report["counts"] == {"intact": 0, "drifted": 0, "missing": 8}


def test_post_ask_evidence_carries_rows_and_post_verify_checks_them(stack: Stack, corpus: Path) -> None:
    with TestClient(create_app(dataclasses.replace(stack.settings, corpus_root=corpus))) as client:
        body = client.post("/ask", json={"query": "Number of warehouses in the US?", "evidence": True}).json()
        packet = body["evidence"]
        assert body["facts"]["value"] == 2 and len(packet["rows"]) == 2
        assert {(r["doc_id"], r["sheet"]) for r in packet["rows"]} == {("sales/inventory.xlsx", "Warehouses")}
        assert client.post("/verify", json=packet).json()["ok"]
        # like a citation's quote, a row is vouched for by its file's unchanged sha256; once the file changes,
        # a row the sheet never held is reported
        forged = {**packet, "rows": [{**packet["rows"][0], "line": "XXX,nowhere", "sheet_sha256": "0" * 64}]}
        assert client.post("/verify", json=forged).json()["rows"][0]["status"] == "intact"
        forged["rows"][0]["sha256"] = "0" * 64
        check = client.post("/verify", json=forged).json()["rows"][0]
        assert (check["status"], check["reason"]) == ("drifted", "the sheet no longer holds the row")
        (corpus / "products" / "sales" / "inventory.xlsx").unlink()
        gone = client.post("/verify", json=packet).json()
        assert gone["counts"] == {"intact": 0, "drifted": 0, "missing": 2}
        outside = client.post("/verify", json={**packet, "rows": [{**packet["rows"][0], "doc_id": "../x"}]}).json()
        assert outside["rows"][0]["status"] == "missing"  # a name leading out of the source-set reads nothing
        assert client.post("/verify", json={**packet, "rows": [{**packet["rows"][0], "row": "1"}]}).status_code == 422


# --- pure logic ---


def test_cell_text_renders_cells_as_the_sidecar_shows_them() -> None:
    assert [cell_text(v) for v in (None, 12.0, 0.35, True, False, 7, "a")] == ["", "12", "0.35", "1", "0", "7", "a"]


def test_cells_match_by_value_and_placeholder() -> None:
    assert cells_match(["12", "[PERSON_1] desk", "x"], ["12.0", "Ada Lovelace desk", "x"])
    assert not cells_match(["12", "x"], ["13", "x"])
    assert not cells_match(["12"], ["12", "x"])  # a column added or removed


def test_find_row_picks_the_nearest_holder() -> None:
    rows = [["a"], ["b"], ["a"], ["c"], ["a"]]
    assert find_row(rows, ["a"], 4) == 3 and find_row(rows, ["a"], 5) == 5 and find_row(rows, ["z"], 1) is None


def test_sheet_cells_and_fingerprint_follow_the_cells_not_the_types() -> None:
    frame = pl.DataFrame({"sku": ["A", "B"], "qty": [3, None], "price": [1.5, 2.0]})
    assert sheet_cells(frame) == [["A", "3", "1.5"], ["B", "", "2"]]
    assert sheet_sha256(frame) == sheet_sha256(frame.clone())
    assert sheet_sha256(frame) != sheet_sha256(frame.with_columns(pl.Series("qty", [4, None])))


def test_check_row_reports_each_state() -> None:
    data = b"sku,qty\nA,3\nB,4\n"
    pinned = EvidenceRow("s.csv", "shop", "facts_s", "s", 2, "B,4", Source("s.csv", data).sha256,
                         sheet_sha256(Source("s.csv", data).extraction.tables["s"]))  # type: ignore[union-attr]  # fmt: skip

    def status(now: bytes | None) -> tuple[str, str, int | None]:
        check = check_row(0, pinned, Source("s.csv", now) if now is not None else None)
        return check.status, check.reason, check.moved_to_row

    assert status(data) == ("intact", "file unchanged (sha256 matches)", None)
    assert status(b'sku,qty\n"A",3\n"B",4\n') == ("intact", "sheet unchanged (the file changed elsewhere)", None)
    assert status(b"sku,qty\nA,5\nB,4\n")[:2] == (
        "drifted",
        "the row is at its place but the sheet changed: the figure may differ",
    )
    assert status(b"sku,qty\nZ,1\nA,3\nB,4\n") == ("drifted", "the row moved", 3)
    assert status(b"sku,qty\nA,3\nB,5\n") == ("drifted", "the sheet no longer holds the row", None)
    assert status(None) == ("missing", "document not found", None)
    facet = dataclasses.replace(pinned, table="documents", sheet="documents")
    assert (
        check_row(0, facet, Source("s.csv", b"sku,qty\n")).reason
        == "the document changed since its facets were counted"
    )
