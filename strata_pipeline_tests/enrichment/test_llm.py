"""LLM enrichment with a scripted `complete` standing in for Claude."""

from __future__ import annotations

import json

from strata_pipeline.enrichment.extract import DocMetadata
from strata_pipeline.enrichment.llm import MAX_CHARS, SYSTEM, llm_metadata

FALLBACK = DocMetadata(title="Leave policy", category="hr", tags=["leave"], summary="Days off.", language="en")


def scripted(reply: str, prompts: list[tuple[str, str]] | None = None):
    def complete(system: str, user: str) -> str:
        if prompts is not None:
            prompts.append((system, user))
        return reply

    return complete


def test_valid_json_fills_the_fields() -> None:
    reply = json.dumps(
        {
            "title": "  Parental and Vacation Leave ",
            "category": "Benefits",
            "tags": ["leave", "vacation", 3, "", "parental", "holidays", "pto", "extra"],
            "summary": "How much leave employees get.",
        }
    )
    prompts: list[tuple[str, str]] = []
    meta = llm_metadata("Document body " * 1000, "hr/leave.md", FALLBACK, scripted(f"Sure!\n{reply}\n", prompts))
    assert meta == DocMetadata(
        title="Parental and Vacation Leave",
        category="Benefits",
        tags=["leave", "vacation", "parental", "holidays", "pto"],
        summary="How much leave employees get.",
        language="en",
        enriched_by="llm",
    )
    [(system, user)] = prompts
    assert system == SYSTEM
    assert user.startswith("Document id: hr/leave.md\n<document>\n")
    assert user.endswith("\n</document>")
    assert len(user) == len("Document id: hr/leave.md\n<document>\n") + MAX_CHARS + len("\n</document>")


def test_missing_or_wrong_fields_keep_the_fallback_values() -> None:
    meta = llm_metadata("text", "a.md", FALLBACK, scripted('{"title": 5, "tags": "leave", "summary": "New."}'))
    assert meta == DocMetadata(
        title="Leave policy", category="hr", tags=["leave"], summary="New.", language="en", enriched_by="llm"
    )


def test_long_values_are_cut() -> None:
    meta = llm_metadata("text", "a.md", FALLBACK, scripted(json.dumps({"title": "T" * 500, "tags": ["x" * 99]})))
    assert (len(meta.title), meta.tags) == (200, ["x" * 40])


def test_invalid_json_keeps_the_fallback() -> None:
    assert llm_metadata("text", "a.md", FALLBACK, scripted("{not json}")) is FALLBACK
    assert llm_metadata("text", "a.md", FALLBACK, scripted('{"title": "a", } trailing }')) is FALLBACK


def test_a_failing_call_keeps_the_fallback() -> None:
    def broken(system: str, user: str) -> str:
        raise TimeoutError("model overloaded")

    assert llm_metadata("text", "a.md", FALLBACK, broken) is FALLBACK


def test_a_reply_without_any_json_object_keeps_the_fallback() -> None:
    # A refusal, or a reply cut off before its closing brace, holds no JSON object: nothing came
    # from the model, so the deterministic metadata must come back unchanged (enriched_by
    # "extractor"), not relabelled "llm" and counted as LLM-enriched.
    for reply in ("Sorry, I can't help with that.", '{"title": "Leave and vacation'):
        meta = llm_metadata("text", "a.md", FALLBACK, scripted(reply))
        assert meta == FALLBACK, reply
