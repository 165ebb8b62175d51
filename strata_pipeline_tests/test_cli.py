"""The `strata` command line, invoked through click against real state."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
from click.testing import CliRunner

from strata_pipeline.cli import main
from strata_pipeline_tests.conftest import SAMPLE_CORPUS, Stack


def env_for(home: Path, corpus: Path, dagster_home: Path | None = None) -> dict[str, str]:
    env = {"STRATA_HOME": str(home), "STRATA_CORPUS_ROOT": str(corpus), "QDRANT_URL": "", "ANTHROPIC_API_KEY": ""}
    if dagster_home is not None:
        env["DAGSTER_HOME"] = str(dagster_home)
    return env


def test_search_json_lists_hits_best_first_with_provenance(stack: Stack) -> None:
    result = CliRunner().invoke(
        main,
        ["search", "What is the mileage rate for a personal car on a business trip?", "--json", "--k", "3"],
        env=env_for(stack.settings.home, stack.settings.corpus_root),
    )
    assert result.exit_code == 0, result.output
    hits = json.loads(result.output)["hits"]
    assert len(hits) == 3
    assert hits[0]["doc_id"] == "travel/travel-reimbursement.md"
    assert {"doc_id", "chunk_id", "line_start", "line_end", "dense_rank", "sparse_rank", "fused_score"} <= set(hits[0])


def test_ask_json_and_source_set_filter(stack: Stack) -> None:
    result = CliRunner().invoke(
        main,
        ["ask", "How long is the standard warranty on RX robots?", "--json", "--source-set", "products"],
        env=env_for(stack.settings.home, stack.settings.corpus_root),
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert not body["abstained"] and "24 months" in body["answer"]
    assert {c["source_set"] for c in body["citations"]} == {"products"}
    assert {h["source_set"] for h in body["hits"]} == {"products"}


def test_materialize_registers_partitions_runs_on_the_project_instance_and_shows_progress(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "notes" / "ops").mkdir(parents=True)
    (corpus / "notes" / "ops" / "shifts.md").write_text(
        "# Shifts\n\nThe early shift starts at 06:00 and hands over to the late shift at 14:00.\n"
    )
    (corpus / "Not A Slug").mkdir()
    dagster_home = tmp_path / "dagster_home"
    result = CliRunner().invoke(main, ["materialize"], env=env_for(tmp_path / "home", corpus, dagster_home))
    assert result.exit_code == 0, result.output
    assert "[1/1] notes" in result.output
    assert "✓ published_index" in result.output and "check qdrant_collection_point_count: passed" in result.output
    assert "skipping folder 'Not A Slug'" in result.output
    # progress inside the long steps: per file, per document, per batch of texts
    assert "discovered_docs: extracted files 1/1" in result.output
    assert "redacted_docs: redacted documents 1/1" in result.output
    assert "embeddings: embedded new chunk texts 1/1" in result.output
    instance = dg.DagsterInstance.from_config(str(dagster_home))
    try:
        assert instance.get_dynamic_partitions("source_sets") == ["notes"]
        runs = instance.get_runs()
        assert len(runs) == 1 and runs[0].is_success and runs[0].tags["dagster/partition"] == "notes"
    finally:
        instance.dispose()


def test_materialize_unknown_source_set_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "corpus" / "notes").mkdir(parents=True)
    result = CliRunner().invoke(
        main,
        ["materialize", "--source-set", "ghost"],
        env=env_for(tmp_path / "home", tmp_path / "corpus", tmp_path / "dh"),
    )
    assert result.exit_code == 2 and "ghost" in result.output


def test_search_without_an_index_says_how_to_build_one(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["search", "anything"], env=env_for(tmp_path / "home", tmp_path))
    assert result.exit_code == 1 and "strata materialize" in result.output


def test_unknown_source_set_is_one_clear_line(stack: Stack) -> None:
    env = env_for(stack.settings.home, stack.settings.corpus_root)
    result = CliRunner().invoke(main, ["search", "warranty", "--source-set", "ghost"], env=env)
    assert result.exit_code == 1
    assert "No published index for source-set(s): ghost" in result.output and "Traceback" not in result.output


def test_plan_shows_reasons_blind_spots_and_estimates_without_embedding(tmp_path: Path) -> None:
    home = tmp_path / "home"
    result = CliRunner().invoke(main, ["plan", "--source-set", "products", "--json"], env=env_for(home, SAMPLE_CORPUS))
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)["products"]
    assert report["blind_spot_projects"] == ["legacy-firmware"]
    assert report["estimated_chunks"] > 0 and report["secrets_to_redact"] >= 1
    assert Path(report["documents_csv"]).exists()
    # no access rule for products: every document is public, and the plan says so before any embedding
    assert [(g["groups"], g["access_rule"]) for g in report["access_groups"]] == [("public", "default-public")]
    assert not (home / "index").exists() and not (home / "cache").exists()  # nothing embedded or indexed
    text = CliRunner().invoke(main, ["plan", "--source-set", "products"], env=env_for(home, SAMPLE_CORPUS)).output
    assert "blind spots (projects with nothing indexed): legacy-firmware" in text
    assert "excluded  legacy-firmware/build-config.json  (config-files)" in text


def test_search_explain_shows_ranks_and_dropped_candidates(stack: Stack) -> None:
    env = env_for(stack.settings.home, stack.settings.corpus_root)
    result = CliRunner().invoke(main, ["search", "error E-204 encoder mismatch", "--explain", "--k", "2"], env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["pos", "dense", "bm25", "ids", "rrf", "prior", "rerank", "chunk"]
    assert lines[1].split()[0] == "1" and lines[2].split()[0] == "2"
    assert "(dropped: beyond top 2)" in lines[3] and "not configured" in lines[1]
    assert lines[1].split()[5] == "1.00"  # no ranking rule matches these sample documents


def test_search_and_ask_go_to_a_running_server_when_strata_api_url_is_set(stack: Stack) -> None:
    """The same answers as the local path, from the real app served by uvicorn; a dead URL falls back."""
    import socket
    import threading
    import time

    import uvicorn

    from serving.app import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(stack.settings), host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(300):
            if server.started:
                break
            time.sleep(0.1)
        env = env_for(stack.settings.home, stack.settings.corpus_root)
        question = "What is the mileage rate for a personal car on a business trip?"
        local = json.loads(CliRunner().invoke(main, ["search", question, "--json", "--k", "3"], env=env).output)
        remote_env = env | {"STRATA_API_URL": f"http://127.0.0.1:{port}", "STRATA_HOME": "/nonexistent"}
        result = CliRunner().invoke(main, ["search", question, "--json", "--k", "3"], env=remote_env)
        assert result.exit_code == 0, result.output
        assert [h["chunk_id"] for h in json.loads(result.output)["hits"]] == [h["chunk_id"] for h in local["hits"]]
        asked = CliRunner().invoke(main, ["ask", question, "--json"], env=remote_env)
        assert asked.exit_code == 0, asked.output
        answer = json.loads(asked.output)
        assert answer["citations"] and answer["hits"][0]["doc_id"] == "travel/travel-reimbursement.md"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    dead = env_for(stack.settings.home, stack.settings.corpus_root) | {"STRATA_API_URL": f"http://127.0.0.1:{port}"}
    fallback = CliRunner().invoke(main, ["search", question, "--json", "--k", "3"], env=dead)
    assert fallback.exit_code == 0 and "did not answer" in fallback.output


def test_a_copied_strata_home_serves_the_same_answers(stack: Stack, tmp_path: Path) -> None:
    """Manifests hold no absolute path and Edge shards are plain folders: copy the home, delete nothing,
    point STRATA_HOME at the copy, and search gives the same hits from the copy's own files."""
    import shutil

    copy = tmp_path / "moved-home"
    shutil.copytree(stack.settings.home, copy, ignore=shutil.ignore_patterns("dagster_home"))
    question = "How long is the standard warranty on RX robots?"
    original = CliRunner().invoke(
        main, ["search", question, "--json", "--k", "5"], env=env_for(stack.settings.home, stack.settings.corpus_root)
    )
    moved = CliRunner().invoke(
        main, ["search", question, "--json", "--k", "5"], env=env_for(copy, stack.settings.corpus_root)
    )
    assert original.exit_code == 0 and moved.exit_code == 0, moved.output
    hits = [(h["source_set"], h["chunk_id"], h["fused_score"]) for h in json.loads(moved.output)["hits"]]
    assert hits == [(h["source_set"], h["chunk_id"], h["fused_score"]) for h in json.loads(original.output)["hits"]]
    assert hits and all(
        '"path": "."' in manifest.read_text() for manifest in (copy / "index").glob("*/versions/*/manifest.json")
    )


def test_chat_json_reads_the_history_file_and_appends_the_turn(stack: Stack, tmp_path: Path) -> None:
    history = tmp_path / "history.json"
    history.write_text(json.dumps([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]))
    result = CliRunner().invoke(
        main,
        [
            "chat",
            "Compare RX-200 and RX-300 on warranty",
            "--json",
            "--history",
            str(history),
            "--source-set",
            "products",
        ],
        env=env_for(stack.settings.home, stack.settings.corpus_root),
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert body["mode"] == "agent" and "24 months" in body["answer"]
    assert [s["tool"] for s in body["trajectory"]] == ["semantic_search", "semantic_search"]
    turns = json.loads(history.read_text())
    assert [t["role"] for t in turns] == ["user", "assistant", "user", "assistant"]
    assert turns[2]["content"] == "Compare RX-200 and RX-300 on warranty" and turns[3]["content"] == body["answer"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"role": "user"}')
    refused = CliRunner().invoke(
        main,
        ["chat", "x", "--json", "--history", str(bad)],
        env=env_for(stack.settings.home, stack.settings.corpus_root),
    )
    assert refused.exit_code != 0 and "must hold a JSON list" in refused.output
