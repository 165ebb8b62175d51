"""`strata redact`: the redacted_docs code path on a user's own text, without indexing anything."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
from click.testing import CliRunner

from strata_pipeline.cli import main
from strata_pipeline.redaction.redact import redact_document
from strata_pipeline.resources.factory import build_resources
from strata_pipeline.settings import load_settings

TEXT = (
    "Hi Siobhan,\nplease call Oluwaseun Adeyemi on +44 7700 900283 or write to o.adeyemi@corp.example.\n"
    "Ship to 221B Baker Street, London NW1 6XE. Questions to support@corp.example.\n"
    "api_key: sk_live_9fQ2xLm7Vb4Rt8Kp1Zs6Wd3Yh5Nc0Ja2Ge7Tu4Bq\nBest regards,\nMilenko Vučković\n"
)


def env(tmp_path: Path) -> dict[str, str]:
    return {"STRATA_HOME": str(tmp_path / "home"), "QDRANT_URL": "", "ANTHROPIC_API_KEY": ""}


def test_plain_output_is_the_redacted_text(tmp_path: Path) -> None:
    source = tmp_path / "note.txt"
    source.write_text(TEXT, encoding="utf-8")
    result = CliRunner().invoke(main, ["redact", str(source)], env=env(tmp_path))
    assert result.exit_code == 0, result.output
    out = result.output
    for value in (
        "Siobhan",
        "Oluwaseun",
        "7700 900283",
        "o.adeyemi@",
        "Baker Street",
        "NW1 6XE",
        "sk_live_",
        "Vučković",
    ):
        assert value not in out, value
    assert "support@corp.example" in out  # a role mailbox stays
    assert "api_key: [REDACTED_SECRET]" in out  # the label stays, the value goes
    assert "[PERSON_1]" in out and "[PHONE_1]" in out and "[EMAIL_1]" in out and "[ADDRESS_1]" in out


def test_json_lists_every_span_with_offsets_into_the_input(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["redact", "-", "--json"], input=TEXT, env=env(tmp_path))
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    spans = body["spans"]
    assert {"start", "end", "type", "detector", "score", "decision", "placeholder"} <= set(spans[0])
    redacted = {(TEXT[s["start"] : s["end"]], s["type"]) for s in spans if s["decision"] == "redact"}
    assert ("+44 7700 900283", "PHONE") in redacted
    assert ("o.adeyemi@corp.example", "EMAIL") in redacted
    assert ("Oluwaseun Adeyemi", "PERSON") in redacted
    assert any(value.startswith("221B Baker Street") and kind == "ADDRESS" for value, kind in redacted)
    kept = [s for s in spans if s["decision"] == "keep_role_contact"]
    assert [TEXT[s["start"] : s["end"]] for s in kept] == ["support@corp.example"]
    assert all(s["placeholder"] == "" for s in spans if s["decision"] != "redact")
    assert all(s["detector"].startswith(("presidio-ner:", "secret:")) for s in spans)
    # No raw value travels in the span records, only offsets.
    assert "Oluwaseun" not in json.dumps(spans)


def test_jsonl_reads_and_writes_one_object_per_line(tmp_path: Path) -> None:
    lines = [{"id": "a", "text": "Müller, Hans;Finance;4410\nWeber, Jonas;Legal;4411"}, {"text": "Nothing personal."}]
    result = CliRunner().invoke(
        main, ["redact", "--jsonl"], input="\n".join(json.dumps(x) for x in lines) + "\n\n", env=env(tmp_path)
    )
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.output.splitlines()]
    assert len(out) == 2
    assert out[0]["id"] == "a" and "Müller" not in out[0]["text"] and "Jonas" not in out[0]["text"]
    assert out[1] == {"text": "Nothing personal.", "spans": []}


def test_jsonl_rejects_a_line_without_text(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["redact", "--jsonl"], input='{"body": "x"}\n', env=env(tmp_path))
    assert result.exit_code != 0
    assert 'line 1: expected a JSON object with a string "text" field' in result.output


def test_same_result_as_the_redacted_docs_path(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("STRATA_HOME", str(tmp_path / "home"))
    pii = build_resources(load_settings())["pii"]
    expected, _ = redact_document(TEXT, None, pii.detector(), pii.policy())
    result = CliRunner().invoke(main, ["redact", "-", "--json"], input=TEXT, env=env(tmp_path))
    assert json.loads(result.output)["text"] == expected.text
    assert pl.DataFrame(json.loads(result.output)["spans"]).height == len(expected.audit)
