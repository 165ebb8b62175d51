"""Redacting a source-set's documents: per-document progress, skipped rows, and the cache reused."""

from __future__ import annotations

from pathlib import Path

from strata_pipeline.incremental.cache import DocumentCache
from strata_pipeline.redaction.documents import redact_documents
from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector

DOCS = [
    {"decision": "include", "status": "ok", "text": "Mail jane.roe@example.com about the rota.", "tables_json": None},
    {"decision": "exclude", "status": "ok", "text": "Excluded: bob@example.com", "tables_json": None},
    {"decision": "include", "status": "error", "text": "", "tables_json": None},
    {"decision": "include", "status": "ok", "text": "Call +44 20 7946 0958 after 5pm.", "tables_json": None},
]


def test_every_document_reports_progress_and_a_second_pass_reuses_the_cache(
    regex: PresidioDetector, tmp_path: Path
) -> None:
    loads: list[int] = []

    def detector() -> PresidioDetector:
        loads.append(1)
        return regex

    calls: list[tuple[int, int]] = []
    with DocumentCache(tmp_path / "redaction.sqlite") as cache:
        first = redact_documents(DOCS, len(DOCS), detector, PiiPolicy(), "d1", cache, lambda *a: calls.append(a))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert "jane.roe@example.com" not in first[0]["text"] and "[EMAIL" in first[0]["text"]
    assert first[1] == first[2] == {"text": "", "tables_json": None, "audit": []}  # nothing of theirs travels
    assert first[3]["text"] == "Call [PHONE_1] after 5pm." and [a["entity"] for a in first[3]["audit"]] == ["PHONE"]
    assert loads == [1]  # loaded once, when the first document needed it

    with DocumentCache(tmp_path / "redaction.sqlite") as cache:
        second = redact_documents(DOCS, len(DOCS), detector, PiiPolicy(), "d1", cache)
        assert (cache.hits, cache.misses) == (2, 0)
    assert second == first and loads == [1]  # all from the cache: the detector never loaded again


def test_a_word_the_set_names_as_a_place_stays_in_every_document(ner: PresidioDetector, tmp_path: Path) -> None:
    """ "Kestwick campus" in two documents makes "Kestwick" a place in a third that only says "at Kestwick";
    a person in that document is still redacted, and the key of a document holds the places it has."""
    docs = [
        {"decision": "include", "status": "ok", "text": "Office: Kestwick campus, level 2.", "tables_json": None},
        {"decision": "include", "status": "ok", "text": "Parking at the Kestwick campus is free.", "tables_json": None},
        {
            "decision": "include",
            "status": "ok",
            "text": "The prayer room at Kestwick is on level 1. The chaplain is Siobhan Gallagher.",
            "tables_json": None,
        },
    ]
    with DocumentCache(tmp_path / "redaction.sqlite") as cache:
        out = redact_documents(docs, len(docs), lambda: ner, PiiPolicy(), "d1", cache)
    assert "prayer room at Kestwick" in out[2]["text"] and "Siobhan Gallagher" not in out[2]["text"]
    assert {a["decision"] for a in out[2]["audit"] if a["entity"] == "PERSON"} >= {"redact"}
    with DocumentCache(tmp_path / "other.sqlite") as cache:
        alone = redact_documents(docs[2:], 1, lambda: ner, PiiPolicy(), "d1", cache)
    assert "Kestwick" not in alone[0]["text"]  # without the other documents' evidence the NER takes it for a name


def test_a_program_one_document_runs_is_no_person_in_another(ner: PresidioDetector, tmp_path: Path) -> None:
    """ "`barman recover`" in a runbook makes "Barman" a program in an incident report of the same set; a
    person beside it is still redacted, and without the runbook the NER takes the program for a name."""
    runbook = "Restore the database:\n\n```\nbarman recover --target-time 09:15 kf-erp /var/lib/pgsql\n```\n"
    report = "Replace Barman with pgBackRest, as Siobhan Gallagher proposed."
    docs = [{"decision": "include", "status": "ok", "text": t, "tables_json": None} for t in (runbook, report)]
    with DocumentCache(tmp_path / "redaction.sqlite") as cache:
        out = redact_documents(docs, len(docs), lambda: ner, PiiPolicy(), "d1", cache)
    assert out[1]["text"].startswith("Replace Barman with pgBackRest") and "Siobhan Gallagher" not in out[1]["text"]
    assert "known_program" in {a["decision"] for a in out[1]["audit"]}
    with DocumentCache(tmp_path / "other.sqlite") as cache:
        alone = redact_documents(docs[1:], 1, lambda: ner, PiiPolicy(), "d1", cache)
    assert "Barman" not in alone[0]["text"]
