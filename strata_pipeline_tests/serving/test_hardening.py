"""How the API admits requests, through the real app over the materialised sample index: body and field
limits, strict validation, hostile Unicode and JSON, short error bodies, liveness and readiness, the
offline docs pages, the per-client rate limit and the metrics."""

from __future__ import annotations

import dataclasses
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient

from serving.app import create_app
from serving.config import DEFAULT_MAX_BODY_BYTES, ServingConfig
from strata_pipeline.settings import load_settings
from strata_pipeline.validation import K_MAX, QUERY_MAX_CHARS
from strata_pipeline_tests.conftest import Stack
from strata_pipeline_tests.rate_window import start_early_in_the_window

JSON = {"content-type": "application/json"}
UNLIMITED = ServingConfig(rate_limit="off")
MiB = 1 << 20


@pytest.fixture(scope="module")
def client(stack: Stack) -> Iterator[TestClient]:
    with TestClient(create_app(stack.settings, config=UNLIMITED)) as test_client:
        yield test_client


def _short_json_422(response, limit: int = 1000) -> list[dict]:
    """A 422 whose body is small, valid UTF-8 JSON in FastAPI's shape."""
    assert response.status_code == 422, response.text[:300]
    assert len(response.content) < limit, len(response.content)
    body = json.loads(response.content.decode("utf-8"))  # strict: a raw surrogate would fail here
    assert body["detail"] and all({"type", "loc", "msg"} <= set(e) for e in body["detail"])
    return body["detail"]


# --- body and field limits ---------------------------------------------------------------------


@pytest.mark.parametrize("size", [10 * MiB, 100 * MiB])
def test_a_body_over_the_limit_is_refused_with_413_and_not_echoed(client: TestClient, size: int) -> None:
    body = b'{"query": "' + b"a" * size + b'"}'
    response = client.post("/search", content=body, headers=JSON)
    assert response.status_code == 413
    assert len(response.content) < 200 and str(DEFAULT_MAX_BODY_BYTES) in response.json()["detail"]


def test_a_streamed_body_without_a_length_is_stopped_at_the_limit(client: TestClient) -> None:
    sent = 0

    def chunks() -> Iterator[bytes]:
        nonlocal sent
        yield b'{"query": "'
        for _ in range(64):  # 64 MiB offered
            sent += MiB
            yield b"a" * MiB
        yield b'"}'

    response = client.post("/search", content=chunks(), headers=JSON)
    assert response.status_code == 413 and "over 65536 bytes" in response.json()["detail"]


def test_a_body_under_the_limit_with_a_too_long_query_gets_a_short_422(client: TestClient) -> None:
    detail = _short_json_422(client.post("/search", json={"query": "q" * 60_000}))
    assert detail[0]["type"] == "string_too_long" and detail[0]["ctx"] == {"max_length": QUERY_MAX_CHARS}
    assert detail[0]["input"].startswith("'qqqq") and "60000 characters" in detail[0]["input"]


def test_the_longest_allowed_query_is_served(client: TestClient) -> None:
    assert client.post("/search", json={"query": "leave " * (QUERY_MAX_CHARS // 6), "k": 1}).status_code == 200


def test_field_limits_on_source_set_and_doc_id(client: TestClient) -> None:
    _short_json_422(client.post("/search", json={"query": "leave", "source_set": "s" * 256}))
    assert client.get("/audit/" + "d" * 1025).status_code == 422
    _short_json_422(client.get("/audit/x", params={"source_set": "../handbook"}))


# --- strict validation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "error_type"),
    [
        ({"query": "leave", "k": "5"}, "int_type"),
        ({"query": "leave", "k": True}, "int_type"),
        ({"query": "leave", "k": 5.5}, "int_type"),
        ({"query": "leave", "k": "5.0"}, "int_type"),
        ({"query": "leave", "k": 0}, "greater_than_equal"),
        ({"query": "leave", "k": -1}, "greater_than_equal"),
        ({"query": "leave", "k": K_MAX + 1}, "less_than_equal"),
        ({"query": "leave", "k": 1_000_000}, "less_than_equal"),
        ({"query": 42}, "string_type"),
        ({"query": ["leave"]}, "string_type"),
        ({"query": "leave", "explain": "yes"}, "bool_type"),
        ({"query": "leave", "explain": 1}, "bool_type"),
        ({"query": "leave", "source_set": 7}, "string_type"),
        ({"query": "leave", "top_k": 5}, "extra_forbidden"),
        ({"query": "leave", "source_set": "../../etc"}, "string_pattern_mismatch"),
        ({}, "missing"),
    ],
)
def test_strict_request_bodies(client: TestClient, body: dict, error_type: str) -> None:
    detail = _short_json_422(client.post("/search", json=body))
    assert error_type in {e["type"] for e in detail}


def test_ask_takes_no_explain_field(client: TestClient) -> None:
    detail = _short_json_422(client.post("/ask", json={"query": "leave", "explain": True}))
    assert detail[0]["type"] == "extra_forbidden" and detail[0]["loc"] == ["body", "explain"]


def test_k_at_its_bounds_is_served(client: TestClient) -> None:
    assert len(client.post("/search", json={"query": "parental leave", "k": 1}).json()["hits"]) == 1
    # JSON has one number type: 2.0 is the integer 2, as the schema's "integer" says
    assert len(client.post("/search", json={"query": "parental leave", "k": 2.0}).json()["hits"]) == 2
    assert client.post("/search", json={"query": "parental leave", "k": K_MAX}).status_code == 200


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("", "at least 1 character"),
        ("   ", "empty or only whitespace"),
        ("\t\n \r\n", "empty or only whitespace"),
        ("\u200b\ufeff", "empty or only whitespace"),
        ("\x00", "control character U+0000"),
        ("\x00" * 50, "control character U+0000"),
        ("\x01\x02\x03", "control character U+0001"),
        ("parental\x00leave", "control character U+0000"),
    ],
)
def test_empty_whitespace_and_control_queries_are_422_not_arbitrary_hits(client: TestClient, query, says) -> None:
    for path in ("/search", "/ask"):
        detail = _short_json_422(client.post(path, json={"query": query}))
        assert says in detail[0]["msg"]


def test_tabs_and_newlines_around_a_real_query_are_fine(client: TestClient) -> None:
    hits = client.post("/search", json={"query": "\tparental leave\n", "k": 3}).json()["hits"]
    assert hits[0]["doc_id"] == "hr/leave-policy.md"


# --- hostile Unicode and JSON: always a 422, never a 500 -------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b'{"query": "\\ud800"}',
        b'{"query": "parental leave \\udfff"}',
        b'{"query": "leave", "source_set": "\\ud800"}',
        b'{"query": "leave", "\\ud800": 1}',
        b'{"\\ud800": "\\udc00\\ud800"}',
    ],
)
def test_lone_surrogates_give_a_422_whose_body_is_valid_utf8(client: TestClient, raw: bytes) -> None:
    for path in ("/search", "/ask"):
        detail = _short_json_422(client.post(path, content=raw, headers=JSON))
        assert detail[0]["loc"][0] == "body"


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b'{"query": "\xff\xfe leave"}', "invalid UTF-8"),
        (b'{"query": "\xed\xa0\x80"}', "invalid UTF-8"),  # a surrogate encoded as UTF-8 bytes
        (b'{"query": "leave"', "Expecting"),
        (b"not json", "Expecting value"),
        (b'{"query": "x", "k": ' + b"9" * 5000 + b"}", "Exceeds the limit"),
        (b"[" * 20_000 + b"]" * 20_000, "nesting too deep"),
        (b"\xef\xbb\xbf" + b'{"query": "leave"}', "BOM"),
    ],
)
def test_undecodable_or_malformed_json_is_a_422(client: TestClient, raw: bytes, says: str) -> None:
    detail = _short_json_422(client.post("/search", content=raw, headers=JSON))
    assert detail[0]["type"] == "json_invalid" and says in detail[0]["ctx"]["error"]


def test_a_real_server_answers_a_surrogate_with_422_and_keeps_the_connection(stack: Stack) -> None:
    """Measured before: uvicorn answered 500 and reset the connection. And a 100 MiB declared body is
    refused from its headers, without the server waiting for the body."""
    import http.client

    with _served(create_app(stack.settings, config=UNLIMITED)) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("POST", "/search", body=b'{"query": "\\ud800 leave"}', headers=JSON)
        first = connection.getresponse()
        assert first.status == 422 and json.loads(first.read().decode("utf-8"))["detail"]
        connection.request("POST", "/search", body=json.dumps({"query": "parental leave", "k": 1}), headers=JSON)
        second = connection.getresponse()  # the same connection still serves
        assert second.status == 200 and json.loads(second.read())["hits"]
        connection.close()

        with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
            raw.sendall(
                b"POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n{" % (100 * MiB)
            )
            head = raw.recv(4096)
        assert head.startswith(b"HTTP/1.1 413"), head[:100]


class _served:
    def __init__(self, app) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="error"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> int:
        self.thread.start()
        for _ in range(300):
            if self.server.started:
                break
            time.sleep(0.1)
        return self.port

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


# --- liveness and readiness --------------------------------------------------------------------


def test_health_is_live_and_ready_is_ready_with_a_published_index(client: TestClient) -> None:
    health = client.get("/health")
    assert health.status_code == 200 and health.json()["status"] == "ok" and health.json()["ready"] is True
    ready = client.get("/ready")
    assert ready.status_code == 200 and ready.json() == {"status": "ready", "source_sets": ["handbook", "products"]}


def test_without_an_index_health_stays_200_and_ready_is_503(tmp_path: Path) -> None:
    empty = dataclasses.replace(load_settings(), home=tmp_path)
    with TestClient(create_app(empty, config=UNLIMITED)) as no_index:
        health = no_index.get("/health")
        assert health.status_code == 200  # a liveness probe must not restart a process that is only waiting
        assert health.json()["status"] == "no_index" and health.json()["ready"] is False
        assert health.json()["points"] == 0 and health.json()["source_sets"] == {}
        ready = no_index.get("/ready")
        assert ready.status_code == 503
        assert ready.json()["status"] == "not_ready" and "strata materialize" in ready.json()["detail"]


# --- offline docs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "assets"),
    [("/docs", ["swagger-ui-bundle.js", "swagger-ui.css"]), ("/redoc", ["redoc.standalone.js"])],
)
def test_docs_pages_load_every_asset_from_this_server(client: TestClient, page: str, assets: list[str]) -> None:
    html = client.get(page)
    assert html.status_code == 200
    assert "cdn" not in html.text.lower() and "https://" not in html.text and "http://" not in html.text
    assert "/openapi.json" in html.text
    for asset in assets:
        assert f"/static-offline-docs/{asset}" in html.text
        served = client.get(f"/static-offline-docs/{asset}")
        assert served.status_code == 200 and len(served.content) > 50_000  # the real bundle, not a stub
    assert client.get("/openapi.json").json()["paths"]["/search"]


# --- rate limit --------------------------------------------------------------------------------


def test_the_rate_limit_answers_429_with_retry_after_per_client(stack: Stack) -> None:
    app = create_app(stack.settings, config=ServingConfig(rate_limit="3/minute"))
    with TestClient(app) as first, TestClient(app, client=("203.0.113.7", 40000)) as second:
        start_early_in_the_window()
        for _ in range(3):
            assert first.post("/search", json={"query": "leave", "k": 1}).status_code == 200
        refused = first.post("/search", json={"query": "leave", "k": 1})
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert "3 per 1 minute" in refused.json()["detail"]
        assert first.get("/audit/hr/leave-policy.md").status_code == 429  # every query route counts
        # probes and the metrics scrape are never limited
        for _ in range(5):
            assert first.get("/health").status_code == 200 and first.get("/ready").status_code == 200
            assert first.get("/metrics").status_code == 200
        # another address has its own allowance
        assert second.post("/search", json={"query": "leave", "k": 1}).status_code == 200


def test_the_rate_limit_reads_the_environment(monkeypatch: pytest.MonkeyPatch, stack: Stack) -> None:
    monkeypatch.setenv("STRATA_RATE_LIMIT", "1/minute;100/hour")
    monkeypatch.setenv("STRATA_MAX_BODY_BYTES", "100")
    config = ServingConfig.from_env()
    assert config.rate_limit == "1/minute;100/hour" and config.max_body_bytes == 100
    with TestClient(create_app(stack.settings)) as limited:
        assert limited.post("/search", json={"query": "x" * 200}).status_code == 413
        assert limited.post("/search", json={"query": "leave"}).status_code == 429  # the 413 counted
    monkeypatch.setenv("STRATA_RATE_LIMIT", "off")
    assert not ServingConfig.from_env().rate_limited
    monkeypatch.setenv("STRATA_RATE_LIMIT", "lots")
    with pytest.raises(ValueError, match="STRATA_RATE_LIMIT='lots' is not a rate limit"):
        create_app(stack.settings)
    monkeypatch.setenv("STRATA_RATE_LIMIT", "10/minute")
    monkeypatch.setenv("STRATA_RATE_LIMIT_STORAGE", "nosuch://")
    with pytest.raises(ValueError, match="STRATA_RATE_LIMIT_STORAGE='nosuch://' cannot be used"):
        create_app(stack.settings)
    monkeypatch.setenv("STRATA_RATE_LIMIT", "off")
    monkeypatch.setenv("STRATA_MAX_BODY_BYTES", "64k")
    with pytest.raises(ValueError, match="STRATA_MAX_BODY_BYTES"):
        create_app(stack.settings)


# --- metrics -----------------------------------------------------------------------------------


def _samples(text: str, name: str) -> dict[str, float]:
    return {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines() if line.startswith(name + "{")}


def test_metrics_count_requests_by_route_and_status_and_time_them(stack: Stack) -> None:
    config = ServingConfig(rate_limit="5/minute", max_body_bytes=300)
    with TestClient(create_app(stack.settings, config=config)) as fresh:
        start_early_in_the_window()
        fresh.post("/search", json={"query": "parental leave", "k": 2})
        fresh.post("/search", json={"query": "parental leave", "k": 2})
        fresh.post("/ask", json={"query": "How many weeks of paid parental leave do parents get?"})
        fresh.post("/search", json={"query": "   "})
        fresh.post("/search", json={"query": "q" * 400})  # over the 300-byte body limit
        fresh.post("/search", json={"query": "leave"})  # the sixth: over the rate limit
        fresh.get("/health")
        metrics = fresh.get("/metrics")
    assert metrics.status_code == 200 and metrics.headers["content-type"].startswith("text/plain")
    counts = _samples(metrics.text, "strata_http_requests_total")
    search = 'strata_http_requests_total{handler="/search",method="POST",status="%s"}'
    assert {code: counts.get(search % code) for code in ("200", "413", "422", "429")} == {
        "200": 2, "413": 1, "422": 1, "429": 1
    }  # fmt: skip
    assert counts['strata_http_requests_total{handler="/ask",method="POST",status="200"}'] == 1
    assert counts['strata_http_requests_total{handler="/health",method="GET",status="200"}'] == 1
    assert not any('handler="/metrics"' in key for key in counts)  # the scrape does not count itself
    latency = _samples(metrics.text, "strata_http_request_duration_seconds_count")
    assert latency['strata_http_request_duration_seconds_count{handler="/search",method="POST"}'] == 5
    assert latency['strata_http_request_duration_seconds_count{handler="/ask",method="POST"}'] == 1
    for family in ("strata_http_request_duration_highr_seconds_bucket", "strata_http_request_size_bytes",
                   "strata_http_response_size_bytes"):  # fmt: skip
        assert family in metrics.text
