"""`strata mcp` driven by a real MCP client (the official SDK's ClientSession): over stdio as a
subprocess, as the operator and as a restricted key holder (`--as`), and over streamable HTTP with
bearer keys. Each session lists the tools and calls them against a materialised index."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2  # the MCP SDK's HTTP client
from click.testing import CliRunner
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from strata_pipeline.cli import main
from strata_pipeline.evaluation.golden import load_golden
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline.settings import PROJECT_ROOT, Settings
from strata_pipeline_tests.access import test_cross_group_leaks as leaks
from strata_pipeline_tests.conftest import Stack
from strata_pipeline_tests.test_cli import env_for

two_groups = leaks.two_groups  # the module's two-group corpus and keys file, materialised for these tests too

TOOLS = {"search", "ask", "verify_evidence", "query_facts", "get_audit"}
HOLIDAYS_Q = "How many public holidays apply to all offices?"
SECRETS_DOC = "it-security/legacy-deploy-notes.txt"  # holds a password and API keys
Session = Callable[[ClientSession], Awaitable[None]]


def golden_value(settings: Settings, source_set: str, question: str) -> object:
    """The expected figure the golden set gives for `question` (computed from the corpus files)."""
    golden = load_golden(settings.golden_dir, source_set)
    assert golden is not None
    return next(q.expected_value for q in golden.questions if q.question == question)


def server_env(settings: Settings, keys_file: Path | None = None) -> dict[str, str]:
    env = {**os.environ, **env_for(settings.home, settings.corpus_root), "STRATA_API_URL": ""}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")]))
    env["STRATA_API_KEYS"] = str(keys_file) if keys_file else ""
    env["STRATA_RATE_LIMIT"] = "off"
    return env


def over_stdio(env: dict[str, str], *args: str, session: Session) -> None:
    """Spawn `strata mcp ARGS` and run `session` on a client connected to its stdin/stdout."""
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "strata_pipeline.cli", "mcp", *args], env=env, cwd=PROJECT_ROOT
    )

    async def run() -> None:
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            await session(client)

    anyio.run(run)


async def call(client: ClientSession, tool: str, **arguments: Any) -> Any:
    """A tool's structured result; fails the test on a tool error."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def refused(client: ClientSession, tool: str, **arguments: Any) -> str:
    """The message of a tool call that must fail."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    return " ".join(getattr(block, "text", "") for block in result.content)


def test_stdio_session_lists_the_tools_and_searches_asks_and_audits(stack: Stack) -> None:
    index = PublishedIndex.from_settings(stack.settings)
    try:
        expected_audit = index.engine().audit(SECRETS_DOC)
        expected_count = index.engine().query_facts(HOLIDAYS_Q).value
    finally:
        index.close()

    async def session(client: ClientSession) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        for tool in tools.values():
            assert tool.description and tool.output_schema and tool.annotations.read_only_hint
        query = tools["search"].input_schema["properties"]["query"]
        assert query["maxLength"] == 2000 and "placeholders" in query["description"]
        assert {"hits", "query_redactions"} <= set(tools["search"].output_schema["properties"])

        mileage = "What is the mileage rate for a personal car on a business trip?"
        found = await call(client, "search", query=mileage, k=3)
        assert len(found["hits"]) == 3 and found["candidates"] is None
        assert found["hits"][0]["doc_id"] == "travel/travel-reimbursement.md"
        provenance = {"chunk_id", "line_start", "line_end", "page", "dense_rank", "sparse_rank", "fused_score"}
        assert provenance <= set(found["hits"][0])
        explained = await call(client, "search", query="parental leave", k=2, explain=True)
        assert explained["candidates"] and {c["position"] for c in explained["candidates"]} >= {1, 2}

        warranty = "How long is the standard warranty on RX robots?"
        answered = await call(client, "ask", query=warranty, source_set="products")
        assert not answered["abstained"] and "24 months" in answered["answer"]
        assert answered["citations"] and {c["source_set"] for c in answered["citations"]} == {"products"}
        assert answered["evidence"] is None  # only when asked for

        # an evidence packet, verified as it is, with one quote moved and one document gone
        packet = (await call(client, "ask", query=mileage, evidence=True))["evidence"]
        assert packet["citations"] and packet["question"] == mileage
        report = await call(client, "verify_evidence", packet=packet)
        assert report["ok"] and report["counts"]["intact"] == len(packet["citations"])
        first = packet["citations"][0]
        moved = {**first, "sha256": "0" * 64, "char_start": first["char_start"] + 1, "char_end": first["char_end"] + 1}
        gone = {**first, "doc_id": "travel/no-such-policy.md"}
        report = await call(client, "verify_evidence", packet={**packet, "citations": [first, moved, gone]})
        assert [c["status"] for c in report["citations"]] == ["intact", "drifted", "missing"] and not report["ok"]
        assert report["citations"][1]["moved_to"]["char_start"] == first["char_start"]
        old_format = {**packet, "schema_version": "strata.evidence/0"}
        assert "strata.evidence/1" in await refused(client, "verify_evidence", packet=old_format)

        audit = await call(client, "get_audit", doc_id=SECRETS_DOC)
        assert audit["result"] and audit["result"] == [{"source_set": "handbook", **row} for row in expected_audit[1]]
        assert sum(row["entity"] == "SECRET" and row["decision"] == "redact" for row in audit["result"]) >= 3
        assert not [v for v in ("sk_live_", "Wint3r-Falc0n", "AKIA4NWR") if v in json.dumps(audit)]  # no values

        counted = await call(client, "query_facts", question=HOLIDAYS_Q)
        assert counted["value"] == expected_count == golden_value(stack.settings, "handbook", HOLIDAYS_Q)
        assert counted["rows"] and counted["intent"]["operation"] == "count"
        refusal = await refused(client, "query_facts", intent={"operation": "count", "table": "no_such_table"})
        assert "no_such_table" in refusal
        assert "exactly one" in await refused(client, "query_facts")

        # the API's rules and refusals, as tool errors
        assert "control character" in await refused(client, "search", query="leave\x00policy")
        assert "2000" in await refused(client, "ask", query="x" * 2001)
        assert "less than or equal to 50" in await refused(client, "search", query="leave", k=51)
        assert "ghost" in await refused(client, "search", query="leave", source_set="ghost")
        assert "No document 'hr/nothing.md' in the published index" in await refused(
            client, "get_audit", doc_id="hr/nothing.md"
        )

    over_stdio(server_env(stack.settings), session=session)


def test_stdio_as_a_key_holder_shows_only_that_keys_groups(two_groups: leaks.TwoGroups) -> None:
    async def session(client: ClientSession) -> None:
        for question in leaks.QUESTIONS:
            found = await call(client, "search", query=question, k=10, explain=True)
            assert {h["doc_id"] for h in found["hits"]} <= leaks.HR_SEES
            assert {c["doc_id"] for c in found["candidates"]} <= leaks.HR_SEES
            assert leaks.FIN_CODE not in leaks.answered_text(found)
        for question in (leaks.FIN_Q, f"budget code {leaks.FIN_CODE}"):  # answers from finance's document
            asked = await call(client, "ask", query=question, k=10)
            assert {c["doc_id"] for c in asked["citations"]} <= leaks.HR_SEES
            assert leaks.FIN_CODE not in leaks.answered_text(asked) and "48,000" not in leaks.answered_text(asked)
        assert (await call(client, "search", query=leaks.HR_Q))["hits"][0]["doc_id"] == "hr/bonus.md"
        # a packet naming the other group's document verifies as missing, like one that does not exist
        packet = (await call(client, "ask", query=leaks.HR_Q, evidence=True))["evidence"]
        cited = packet["citations"][0]
        foreign = [{**cited, "source_set": "plant", "doc_id": doc} for doc in ("finance/budget.md", "finance/x.md")]
        report = await call(client, "verify_evidence", packet={**packet, "citations": [cited, *foreign]})
        assert [c["status"] for c in report["citations"]] == ["intact", "missing", "missing"]
        assert report["citations"][1]["reason"] == report["citations"][2]["reason"]
        hidden = await refused(client, "get_audit", doc_id="finance/budget.md")
        missing = await refused(client, "get_audit", doc_id="finance/budgets.md")
        assert hidden.replace("budget.md", "X") == missing.replace("budgets.md", "X")  # says nothing more

    over_stdio(server_env(two_groups.settings, two_groups.keys_file), "--as", "hr-app", session=session)


def free_port() -> int:
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def http_server(env: dict[str, str], port: int) -> Iterator[str]:
    """`strata mcp --http` on a free loopback port; yields its endpoint URL."""
    args = [sys.executable, "-m", "strata_pipeline.cli", "mcp", "--http", "--port", str(port)]
    server = subprocess.Popen(args, env=env, cwd=PROJECT_ROOT, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "strata mcp --http did not start listening"
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(timeout=30)


def over_http(url: str, key: str, session: Session) -> None:
    async def run() -> None:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=120) as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            await session(client)

    anyio.run(run)


def test_http_needs_a_key_and_each_key_reads_only_its_groups(two_groups: leaks.TwoGroups) -> None:
    with http_server(server_env(two_groups.settings, two_groups.keys_file), free_port()) as url:
        hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        for headers in ({}, {"Authorization": "Bearer strata_not-a-key"}):
            answer = httpx.post(url, json=hello, headers=headers)
            assert answer.status_code == 401 and answer.headers["WWW-Authenticate"] == "Bearer"

        async def as_hr(client: ClientSession) -> None:
            assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
            for question in (leaks.FIN_Q, f"budget code {leaks.FIN_CODE}"):
                found = await call(client, "search", query=question, k=10)
                assert {h["doc_id"] for h in found["hits"]} <= leaks.HR_SEES
            assert (await call(client, "search", query=leaks.HR_Q))["hits"][0]["doc_id"] == "hr/bonus.md"

        async def as_finance(client: ClientSession) -> None:
            found = await call(client, "search", query=leaks.FIN_Q, k=10)
            assert found["hits"][0]["doc_id"] == "finance/budget.md"
            assert {h["doc_id"] for h in found["hits"]} <= leaks.FIN_SEES
            assert "hr/bonus.md" not in json.dumps(await call(client, "ask", query=leaks.HR_Q, k=10))

        over_http(url, two_groups.hr_key, as_hr)
        over_http(url, two_groups.finance_key, as_finance)


def test_http_on_a_public_address_needs_a_keys_file_and_options_fit_the_transport() -> None:
    runner = CliRunner()
    refused = runner.invoke(main, ["mcp", "--http", "--host", "0.0.0.0"], env={"STRATA_API_KEYS": ""})
    assert refused.exit_code == 1 and "Refusing to listen on 0.0.0.0 without API keys" in refused.output
    both = runner.invoke(main, ["mcp", "--http", "--as", "hr-app"], env={"STRATA_API_KEYS": ""})
    assert both.exit_code == 2 and "--as is for stdio" in both.output
    stray = runner.invoke(main, ["mcp", "--port", "9000"], env={"STRATA_API_KEYS": ""})
    assert stray.exit_code == 2 and "--host and --port go with --http" in stray.output
