"""Evidence packets built from answers and verified against sources that stay, change, move or vanish."""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import partial
from pathlib import Path

import docx
import pytest

from strata_pipeline.answering.answer import Answer, Citation
from strata_pipeline.evidence import PACKET_SCHEMA, build_packet, packet_from_dict, read_source, verify_packet
from strata_pipeline.evidence.locate import locate
from strata_pipeline.indexing.versions import IndexVersion

POLICY = (
    "# Leave policy\n"
    "\n"
    "Parents receive 16 weeks of paid parental leave.\n"
    "Leave requests go to HR two weeks ahead.\n"
    "\n"
    "## Carry-over\n"
    "\n"
    "Up to five unused days carry over to the next year.\n"
)
QUOTE = "Parents receive 16 weeks of paid parental leave."
VERSION = IndexVersion("notes", "20261204T0300", ".", "notes_v1", "minilm", 384, 3, "sections-v3")


def cite(doc_id: str, quote: str, line: int, source_set: str = "notes", page: int | None = None) -> Citation:
    return Citation(f"{doc_id}#s0", doc_id, source_set, line, line + quote.count("\n"), quote, page)


def packet_for(corpus: Path, *citations: Citation, question: str = "How long is parental leave?"):
    answer = Answer(text=" ".join(c.quote for c in citations), citations=list(citations))
    return build_packet(question, answer, {"notes": VERSION}, partial(read_source, corpus))


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "notes" / "hr").mkdir(parents=True)
    (tmp_path / "notes" / "hr" / "leave.md").write_text(POLICY)
    return tmp_path


def test_the_packet_pins_each_quote_to_its_file_lines_and_characters(corpus: Path) -> None:
    packet = packet_for(corpus, cite("hr/leave.md", QUOTE, 3))
    [pinned] = packet.citations
    assert pinned.quote == QUOTE and (pinned.doc_id, pinned.source_set) == ("hr/leave.md", "notes")
    assert POLICY[pinned.char_start : pinned.char_end] == QUOTE
    assert (pinned.line_start, pinned.line_end, pinned.page) == (3, 3, None)
    import hashlib

    assert pinned.sha256 == hashlib.sha256(POLICY.encode()).hexdigest()
    assert (pinned.index_version, packet.model, packet.index_versions) == (
        VERSION.version,
        "minilm",
        {"notes": VERSION.version},
    )
    assert packet.schema_version == PACKET_SCHEMA and packet.created_at.endswith("+00:00")
    assert packet.question == "How long is parental leave?" and packet.answer == QUOTE


def test_an_unchanged_source_is_intact_by_its_sha256(corpus: Path) -> None:
    report = verify_packet(packet_for(corpus, cite("hr/leave.md", QUOTE, 3)), corpus)
    assert report.ok and report.counts == {"intact": 1, "drifted": 0, "missing": 0}
    assert report.citations[0].reason == "file unchanged (sha256 matches)"


def test_an_edit_elsewhere_keeps_the_quote_intact(corpus: Path) -> None:
    packet = packet_for(corpus, cite("hr/leave.md", QUOTE, 3))
    (corpus / "notes" / "hr" / "leave.md").write_text(POLICY.replace("five unused days", "three unused days"))
    check = verify_packet(packet, corpus).citations[0]
    assert (check.status, check.moved_to) == ("intact", None)
    assert check.reason == "quote at its place (the file changed elsewhere)"


def test_an_edited_quote_drifts_with_no_new_place(corpus: Path) -> None:
    packet = packet_for(corpus, cite("hr/leave.md", QUOTE, 3))
    (corpus / "notes" / "hr" / "leave.md").write_text(POLICY.replace("16 weeks", "12 weeks"))
    report = verify_packet(packet, corpus)
    assert not report.ok and report.counts == {"intact": 0, "drifted": 1, "missing": 0}
    check = report.citations[0]
    assert (check.status, check.moved_to, check.reason) == ("drifted", None, "the document no longer holds the quote")


def test_moved_lines_drift_and_report_the_new_place(corpus: Path) -> None:
    packet = packet_for(corpus, cite("hr/leave.md", QUOTE, 3))
    moved = POLICY.replace("# Leave policy\n\n", "# Leave policy\n\nUpdated in 2026.\nSee also the travel policy.\n\n")
    (corpus / "notes" / "hr" / "leave.md").write_text(moved)
    check = verify_packet(packet, corpus).citations[0]
    assert check.status == "drifted" and check.reason == "the quote moved"
    assert check.moved_to is not None
    assert (check.moved_to.line_start, check.moved_to.line_end) == (6, 6)
    assert moved[check.moved_to.char_start : check.moved_to.char_end] == QUOTE


def test_a_deleted_source_is_missing_and_so_is_one_the_caller_may_not_read(corpus: Path) -> None:
    packet = packet_for(corpus, cite("hr/leave.md", QUOTE, 3))
    hidden = verify_packet(packet, corpus, readable=lambda source_set, doc_id: False).citations[0]
    (corpus / "notes" / "hr" / "leave.md").unlink()
    gone = verify_packet(packet, corpus)
    assert not gone.ok and gone.counts == {"intact": 0, "drifted": 0, "missing": 1}
    assert (
        (hidden.status, hidden.reason)
        == (gone.citations[0].status, gone.citations[0].reason)
        == (
            "missing",
            "document not found",
        )
    )


@pytest.mark.parametrize("doc_id", ["../outside.md", "/etc/hostname", "hr/../../outside.md"])
def test_a_doc_id_that_leads_out_of_the_source_set_is_missing(corpus: Path, doc_id: str) -> None:
    (corpus / "outside.md").write_text(POLICY)
    packet = packet_for(corpus, cite("hr/leave.md", QUOTE, 3))
    packet.citations[0].doc_id = doc_id
    assert verify_packet(packet, corpus).citations[0].status == "missing"


PERSONAL = (
    "# Contacts\n\nFor payroll questions write to Jane Doe at jane.doe@example.org before the 20th.\n"
    "Jane Doe also approves overtime.\n"
)


def test_placeholders_match_the_values_the_source_holds_and_the_report_never_copies_them(corpus: Path) -> None:
    (corpus / "notes" / "contacts.md").write_text(PERSONAL)
    quote = "For payroll questions write to [PERSON_1] at [EMAIL_ADDRESS_1] before the 20th."
    packet = packet_for(corpus, cite("contacts.md", quote, 3))
    pinned = packet.citations[0]
    assert PERSONAL[pinned.char_start : pinned.char_end].startswith("For payroll questions write to Jane Doe")
    assert "Jane" not in json.dumps(asdict(packet))  # the packet carries the redacted quote only
    (corpus / "notes" / "contacts.md").write_text("Updated.\n" + PERSONAL)
    report = verify_packet(packet, corpus)
    assert report.citations[0].status == "drifted" and report.citations[0].moved_to is not None
    assert report.citations[0].moved_to.line_start == 4
    shown = json.dumps(asdict(report))
    assert "Jane" not in shown and "example.org" not in shown


def test_a_repeated_placeholder_must_stand_for_the_same_value() -> None:
    text = "Jane Doe hands over to Jane Doe.\nJane Doe hands over to Tom Roe.\n"
    assert locate(text, "[PERSON_1] hands over to [PERSON_1].") == (0, 32)
    found = locate(text, "[PERSON_1] hands over to [PERSON_2].", near_line=2)
    assert found is not None and text[found[0] : found[1]] == "Jane Doe hands over to Tom Roe."
    assert locate(text, "[PERSON_1] hands over to [PERSON_1] tomorrow.") is None


def test_a_docx_source_is_read_through_the_ingestion_extractor(corpus: Path) -> None:
    path = corpus / "notes" / "guide.docx"
    document = docx.Document()
    document.add_heading("Robot guide", level=1)
    document.add_paragraph("The RX-300 battery lasts 9 hours on a full charge.")
    document.add_paragraph("Charge it overnight at room temperature.")
    document.save(str(path))
    quote = "The RX-300 battery lasts 9 hours on a full charge."
    packet = packet_for(corpus, cite("guide.docx", quote, 3))
    assert packet.citations[0].char_start is not None
    assert verify_packet(packet, corpus).citations[0].reason == "file unchanged (sha256 matches)"
    edited = docx.Document()
    edited.add_heading("Robot guide", level=1)
    edited.add_paragraph("The RX-300 battery lasts 7 hours on a full charge.")
    edited.save(str(path))
    check = verify_packet(packet, corpus).citations[0]
    assert (check.status, check.moved_to) == ("drifted", None)


def test_a_quote_the_file_no_longer_held_when_built_is_never_vouched_for(corpus: Path) -> None:
    packet = packet_for(corpus, cite("hr/leave.md", "Parents receive 20 weeks of paid parental leave.", 3))
    pinned = packet.citations[0]
    assert (pinned.char_start, pinned.line_start) == (None, 3)  # the index's lines, no character range
    assert verify_packet(packet, corpus).citations[0].status == "drifted"


def test_a_packet_survives_json_and_malformed_ones_are_refused(corpus: Path) -> None:
    packet = packet_for(corpus, cite("hr/leave.md", QUOTE, 3))
    assert packet_from_dict(json.loads(json.dumps(asdict(packet)))) == packet
    data = asdict(packet)
    for broken, message in (
        ({**data, "extra": 1}, "unknown fields"),
        ({**data, "schema_version": "other/9"}, "unknown packet schema"),
        ({**data, "citations": [{**data["citations"][0], "line_start": "3"}]}, "line_start must be int"),
        ({**data, "citations": [{**data["citations"][0], "line_start": True}]}, "line_start must be int"),
        ({**data, "citations": data["citations"] * 51}, "at most 50"),
        ({k: v for k, v in data.items() if k != "question"}, "question is missing"),
        ({**data, "citations": [{**data["citations"][0], "source_set": "../etc"}]}, "not a source-set name"),
        ({**data, "citations": [{**data["citations"][0], "doc_id": "a\udc80.md"}]}, "lone surrogate"),
    ):
        with pytest.raises(ValueError, match=message):
            packet_from_dict(broken)


def test_the_api_reads_the_packet_format_this_code_writes() -> None:
    from serving.models import VerifyRequest

    assert VerifyRequest.model_fields["schema_version"].default == PACKET_SCHEMA
    with pytest.raises(ValueError, match="schema_version"):
        VerifyRequest.model_validate({**asdict_packet(), "schema_version": "strata.evidence/0"})
    assert VerifyRequest.model_validate(asdict_packet()).schema_version == PACKET_SCHEMA


def asdict_packet() -> dict:
    citation = cite("hr/leave.md", QUOTE, 3)
    packet = build_packet("q", Answer(text=QUOTE, citations=[citation]), {"notes": VERSION}, lambda s, d: None)
    return asdict(packet)
