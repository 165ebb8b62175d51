"""Evidence packets through the real surfaces over the materialised sample index: POST /ask and
POST /verify, `strata ask --evidence` and `strata verify`, and the scoped engine's access rule.

The sources are a copy of the stack's corpus, so editing, moving and deleting them leaves the shared
stack alone (verifying reads only the corpus; the index stays as it was built)."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from serving.app import create_app
from strata_pipeline.access.groups import Access
from strata_pipeline.cli import main
from strata_pipeline.evidence import packet_from_dict
from strata_pipeline.evidence.locate import quote_pattern
from strata_pipeline.evidence.service import verify_for
from strata_pipeline.indexing.versions import current_version
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline_tests.conftest import Stack
from strata_pipeline_tests.test_cli import env_for

QUESTION = "How many weeks of paid parental leave do parents get?"
POLICY = ("handbook", "hr/leave-policy.md")


@pytest.fixture
def corpus(stack: Stack, tmp_path: Path) -> Path:
    copy = tmp_path / "corpus"
    shutil.copytree(stack.settings.corpus_root, copy)
    return copy


@pytest.fixture
def client(stack: Stack, corpus: Path) -> Iterator[TestClient]:
    with TestClient(create_app(dataclasses.replace(stack.settings, corpus_root=corpus))) as test_client:
        yield test_client


def cited_files(corpus: Path, citations: list[dict]) -> list[Path]:
    return sorted({corpus / c["source_set"] / c["doc_id"] for c in citations})


def test_ask_with_evidence_returns_a_packet_that_verify_finds_intact_then_drifted(
    client: TestClient, stack: Stack, corpus: Path
) -> None:
    plain = client.post("/ask", json={"query": QUESTION}).json()
    assert plain["evidence"] is None
    body = client.post("/ask", json={"query": QUESTION, "evidence": True}).json()
    packet = body["evidence"]
    assert (
        packet["question"] == body["question"] and packet["answer"] == body["answer"] and "16 weeks" in body["answer"]
    )
    assert packet["model"] == stack.settings.embed_model
    assert packet["index_versions"] == {"handbook": current_version(stack.settings.index_dir, "handbook").version}
    assert [c["quote"] for c in packet["citations"]] == [c["quote"] for c in body["citations"]]
    assert POLICY in {(c["source_set"], c["doc_id"]) for c in packet["citations"]}
    for cited in packet["citations"]:
        source = (corpus / cited["source_set"] / cited["doc_id"]).read_text()
        assert quote_pattern(cited["quote"]).fullmatch(source, cited["char_start"], cited["char_end"])
        lines = source.split("\n")[cited["line_start"] - 1 : cited["line_end"]]
        assert source[cited["char_start"] : cited["char_end"]].split("\n")[0] in lines[0]

    report = client.post("/verify", json=packet)
    assert report.status_code == 200
    assert report.json()["ok"] and report.json()["counts"]["intact"] == len(packet["citations"]) > 0

    for path in cited_files(corpus, packet["citations"]):
        path.write_text("Reviewed in 2026.\n\n" + path.read_text())
    moved = client.post("/verify", json=packet).json()
    assert not moved["ok"] and {c["status"] for c in moved["citations"]} == {"drifted"}
    for cited, check in zip(packet["citations"], moved["citations"], strict=True):
        assert check["moved_to"]["line_start"] == cited["line_start"] + 2

    for path in cited_files(corpus, packet["citations"]):
        path.unlink()
    gone = client.post("/verify", json=packet).json()
    assert gone["counts"]["missing"] == len(packet["citations"])


def test_verify_refuses_what_is_not_a_packet_and_is_documented(client: TestClient) -> None:
    assert client.post("/verify", json={"question": "x"}).status_code == 422
    bad = {"question": "q", "answer": "a", "citations": [], "model": "m", "index_versions": {}, "created_at": "t",
           "schema_version": "other/2"}  # fmt: skip
    refused = client.post("/verify", json=bad)
    assert refused.status_code == 422 and refused.json()["detail"][0]["loc"] == ["body", "schema_version"]
    surrogate = client.post("/verify", content=json.dumps({**bad, "schema_version": "strata.evidence/1", "citations": [
        {"quote": "q", "doc_id": "a\udc80.md", "source_set": "handbook", "chunk_id": "c", "sha256": "", "line_start": 1,
         "line_end": 1}]}), headers={"Content-Type": "application/json"})  # fmt: skip
    assert surrogate.status_code == 422
    schema = client.get("/openapi.json").json()
    assert "/verify" in schema["paths"]
    parts = schema["components"]["schemas"]
    assert parts["AskRequest"]["properties"]["evidence"]["description"]
    assert "evidence" not in parts["SearchRequest"]["properties"]
    assert "evidence packet" in parts["AskResponse"]["properties"]["evidence"]["description"]
    assert parts["CitationCheck"]["properties"]["status"]["description"].startswith("intact")
    assert parts["EvidenceCitation"]["properties"]["sha256"]["description"]
    assert parts["VerifyRequest"]["properties"]["citations"]["maxItems"] == 50
    assert parts["VerifyCitation"]["properties"]["quote"]["description"].startswith("The exact quote")


def test_a_document_the_caller_may_not_read_verifies_as_missing_like_a_nonexistent_one(stack: Stack) -> None:
    index = PublishedIndex.from_settings(stack.settings)
    try:
        engine = index.engine()
        from strata_pipeline.evidence.service import evidence_for

        answer = engine.ask(QUESTION)
        packet = evidence_for(engine, engine.redact_query(QUESTION).text, answer, stack.settings.corpus_root)
        assert packet.citations and verify_for(engine, packet, stack.settings.corpus_root).ok
        nobody = engine.scoped(Access("nobody", frozenset({"no-such-group"})))
        hidden = verify_for(nobody, packet, stack.settings.corpus_root)
        ghost = dataclasses.replace(packet, citations=[dataclasses.replace(packet.citations[0], doc_id="hr/ghost.md")])
        absent = verify_for(engine, ghost, stack.settings.corpus_root)
        assert hidden.counts["missing"] == len(packet.citations)
        assert {(c.status, c.reason, c.moved_to) for c in hidden.citations} == {
            (c.status, c.reason, c.moved_to) for c in absent.citations
        }
        # the packet the hidden caller would get for the same answer pins nothing of the file
        assert evidence_for(nobody, packet.question, answer, stack.settings.corpus_root).citations[0].char_start is None
    finally:
        index.close()


def test_strata_verify_detects_an_edited_a_moved_and_a_deleted_source(
    stack: Stack, corpus: Path, tmp_path: Path
) -> None:
    env = env_for(stack.settings.home, corpus)
    packet_file = tmp_path / "packet.json"
    asked = CliRunner().invoke(main, ["ask", QUESTION, "--evidence", str(packet_file)], env=env)
    assert asked.exit_code == 0, asked.output
    packet = packet_from_dict(json.loads(packet_file.read_text()))
    assert POLICY in {(c.source_set, c.doc_id) for c in packet.citations}

    def verify(*extra: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["verify", str(packet_file), *extra], env=env)
        return result.exit_code, result.output

    code, output = verify()
    assert code == 0 and "intact" in output and f"{len(packet.citations)} intact, 0 drifted, 0 missing" in output

    paths = cited_files(corpus, [dataclasses.asdict(c) for c in packet.citations])
    originals = {path: path.read_text() for path in paths}
    for path, text in originals.items():
        path.write_text("Reviewed in 2026.\nOwner: HR.\n\n" + text)  # moved: three lines down
    code, output = verify("--json")
    report = json.loads(output)
    assert code == 1 and report["counts"] == {"intact": 0, "drifted": len(packet.citations), "missing": 0}
    assert [c["moved_to"]["line_start"] for c in report["citations"]] == [c.line_start + 3 for c in packet.citations]

    edited = dict(originals)
    for cited in sorted(packet.citations, key=lambda c: -(c.char_start or 0)):
        path = corpus / cited.source_set / cited.doc_id
        assert cited.char_start is not None and cited.char_end is not None
        text = edited[path]
        edited[path] = (
            text[: cited.char_start]
            + "Changed: "
            + text[cited.char_start : cited.char_end].upper()
            + text[cited.char_end :]
        )
    for path, text in edited.items():
        path.write_text(text)  # edited: the quotes are no longer in the documents
    code, output = verify("--json")
    report = json.loads(output)
    assert code == 1 and all(c["status"] == "drifted" and c["moved_to"] is None for c in report["citations"])

    for path in paths:
        path.unlink()  # deleted
    code, output = verify()
    assert code == 1 and "missing" in output and f"0 intact, 0 drifted, {len(packet.citations)} missing" in output

    (tmp_path / "junk.json").write_text('{"question": 1}')
    refused = CliRunner().invoke(main, ["verify", str(tmp_path / "junk.json")], env=env)
    assert refused.exit_code == 1 and "is not an evidence packet" in refused.output
