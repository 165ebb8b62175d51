"""`strata search` through STRATA_API_URL sends STRATA_API_KEY as a bearer token, and only when it is set."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
from click.testing import CliRunner

from strata_pipeline.cli import main


class Recorder(BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, str | None, dict[str, object]]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Recorder.seen.append((self.path, self.headers.get("Authorization"), body))
        answer = json.dumps({"query": body["query"], "hits": []}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format: str, *args: object) -> None:  # quiet test output
        pass


@pytest.fixture
def api_url() -> Iterator[str]:
    Recorder.seen.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.mark.parametrize(("key", "authorization"), [(" strata_abc ", "Bearer strata_abc"), ("", None)])
def test_search_asks_the_api_with_the_configured_key(api_url: str, key: str, authorization: str | None) -> None:
    env = {"STRATA_API_URL": api_url, "STRATA_API_KEY": key, "STRATA_HOME": "/nonexistent"}
    result = CliRunner().invoke(main, ["search", "parental leave", "--json", "--k", "3"], env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"query": "parental leave", "hits": []}
    body = {"query": "parental leave", "k": 3, "source_set": None, "explain": False}
    assert Recorder.seen == [("/search", authorization, body)]  # the trailing "/" of the URL is dropped
