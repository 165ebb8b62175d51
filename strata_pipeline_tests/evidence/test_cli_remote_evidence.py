"""`strata ask --evidence` and `strata verify` through STRATA_API_URL: what they send and what they do
with the answers (a stand-in server records the requests)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from strata_pipeline.cli import main

PACKET = {
    "question": "How long is parental leave?",
    "answer": "Parents receive 16 weeks of paid parental leave. [hr/leave.md#s0]",
    "citations": [
        {"quote": "Parents receive 16 weeks of paid parental leave.", "doc_id": "hr/leave.md", "source_set": "notes",
         "chunk_id": "hr/leave.md#s0", "sha256": "ab" * 32, "line_start": 3, "line_end": 3, "char_start": 16,
         "char_end": 65, "page": None, "index_version": "v1"},
    ],
    "model": "minilm",
    "index_versions": {"notes": "v1"},
    "created_at": "2026-12-04T03:00:00+00:00",
    "mode": "extractive",
    "schema_version": "strata.evidence/1",
}  # fmt: skip
REPORT = {
    "ok": False,
    "counts": {"intact": 0, "drifted": 1, "missing": 0},
    "citations": [{"index": 0, "doc_id": "hr/leave.md", "source_set": "notes", "status": "drifted",
                   "reason": "the quote moved", "moved_to": {"line_start": 5, "line_end": 5, "char_start": 40,
                                                             "char_end": 89, "page": None}}],
    "checked_at": "2026-12-04T04:00:00+00:00",
    "schema_version": "strata.evidence/1",
}  # fmt: skip


class Server(BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, dict[str, Any]]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Server.seen.append((self.path, body))
        reply: dict[str, Any] = REPORT if self.path == "/verify" else {
            "question": body["query"], "answer": PACKET["answer"], "abstained": False, "reason": "",
            "mode": "extractive", "citations": [], "redactions": 0, "evidence": PACKET}  # fmt: skip
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def api_url() -> Iterator[str]:
    Server.seen.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Server)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def test_ask_asks_for_evidence_and_verify_posts_the_packet(api_url: str, tmp_path: Path) -> None:
    env = {"STRATA_API_URL": api_url, "STRATA_API_KEY": "", "STRATA_HOME": "/nonexistent"}
    packet_file = tmp_path / "packet.json"
    asked = CliRunner().invoke(main, ["ask", "How long is parental leave?", "--evidence", str(packet_file)], env=env)
    assert asked.exit_code == 0, asked.output
    assert Server.seen == [("/ask", {"query": "How long is parental leave?", "k": 5, "source_set": None,
                                     "evidence": True})]  # fmt: skip
    assert json.loads(packet_file.read_text()) == PACKET

    verified = CliRunner().invoke(main, ["verify", str(packet_file)], env=env)
    assert verified.exit_code == 1
    assert Server.seen[-1] == ("/verify", PACKET)
    row = next(line for line in verified.output.splitlines() if "notes/hr/leave.md" in line)
    assert row.split()[:4] == ["0", "drifted", "3-3", "5-5"] and "(the quote moved)" in row
    assert "1 citation(s): 0 intact, 1 drifted, 0 missing" in verified.output
