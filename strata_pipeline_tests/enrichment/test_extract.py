"""Deterministic metadata: front matter, `key: value` lines, headings and filename fallbacks."""

from __future__ import annotations

import pytest

from strata_pipeline.enrichment.extract import (
    DocMetadata,
    extract_metadata,
    front_matter,
    guess_title,
    key_values,
    keyword_tags,
    summarise,
)

FRONT_MATTER_DOC = (
    "---\n"
    "title: Leave Policy\n"
    "category: hr\n"
    "tags: [leave, vacation]\n"
    "---\n"
    "# Ignored Heading\n"
    "\n"
    "Employees get 25 days. Unused days carry over. More text here.\n"
)
KEY_VALUE_DOC = (
    "Title: Employee FAQ\n"
    "Owner: HR Team\n"
    "Category: benefits\n"
    "Tags: payroll, benefits , faq\n"
    "\n"
    "Payday is the last business day of the month.\n"
)
HEADING_DOC = "# VPN Setup Guide\n\n## Install\n\nDownload the client. Then connect.\n- step one\n| a | b |\n"


def test_front_matter_wins() -> None:
    assert extract_metadata(FRONT_MATTER_DOC, "hr/leave.md", "hr", "en") == DocMetadata(
        title="Leave Policy",
        category="hr",
        tags=["leave", "vacation"],
        summary="Employees get 25 days. Unused days carry over. More text here.",
        language="en",
        enriched_by="extractor",
    )


def test_key_value_lines() -> None:
    assert key_values(KEY_VALUE_DOC) == {
        "title": "Employee FAQ",
        "owner": "HR Team",
        "category": "benefits",
        "tags": "payroll, benefits , faq",
    }
    meta = extract_metadata(KEY_VALUE_DOC, "hr/faq.txt", "hr", "en")
    assert (meta.title, meta.category, meta.tags) == ("Employee FAQ", "benefits", ["payroll", "benefits", "faq"])
    assert meta.summary == "Payday is the last business day of the month."


def test_key_values_only_near_the_top() -> None:
    text = "\n".join(["filler line"] * 30) + "\nTitle: Too late\n"
    assert key_values(text) == {}
    assert key_values(text, max_lines=31) == {"title": "Too late"}


def test_heading_title_and_project_category() -> None:
    meta = extract_metadata(HEADING_DOC, "it/vpn-setup.md", "it", "en")
    assert meta.title == "VPN Setup Guide"
    assert meta.category == "it"
    assert meta.summary == "Download the client. Then connect."  # headings, list items and table rows skipped
    assert meta.tags == ["setup", "guide", "install", "download", "client"]


def test_filename_fallbacks() -> None:
    text = "plain text without any heading. Robot robot robot torque torque arm."
    meta = extract_metadata(text, "engineering/torque_values-list.txt", "", "de")
    assert meta.title == "Torque values list"
    assert meta.category == "uncategorised"
    assert meta.language == "de"
    assert guess_title("", "a/b/README.md") == "Readme"
    # a date in a file name stays a date: "2025 04 07" would read as a phone number to the leak check
    assert guess_title("", "kundendienst/beschwerde_fahrgast_2025-04-07.txt") == "Beschwerde fahrgast 2025-04-07"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("---\n: bad: [\n---\nbody", {}),  # invalid YAML
        ("---\n- a list\n---\nbody", {}),  # not a mapping
        ("no front matter\n---\ntitle: x\n---\n", {}),
        ("---\ntitle: X\nsummary: Short.\n---\nbody", {"title": "X", "summary": "Short."}),
    ],
)
def test_front_matter_parsing(text: str, expected: dict) -> None:
    assert front_matter(text) == expected


def test_front_matter_summary_and_string_tags() -> None:
    text = "---\ntitle: X\nsummary: Given summary.\ntags: alpha, beta\n---\nBody sentence.\n"
    meta = extract_metadata(text, "a.md", "p", "en")
    assert (meta.summary, meta.tags) == ("Given summary.", ["alpha", "beta"])


def test_summary_skips_headings_front_matter_and_key_lines() -> None:
    text = FRONT_MATTER_DOC + "Owner: Jane\n* bullet\n"
    assert summarise(text) == "Employees get 25 days. Unused days carry over. More text here."


def test_summary_stops_at_whole_sentences_within_the_limit() -> None:
    text = "First sentence is here. Second sentence is a bit longer. Third."
    assert summarise(text, max_chars=50) == "First sentence is here."
    assert summarise(text, max_chars=5) == "First"  # no sentence fits: the text is cut
    assert summarise("") == ""


def test_keyword_tags_skip_stop_words_and_placeholders() -> None:
    text = "[PERSON_1] person redacted email robots robots robots arms arms this this this these"
    assert keyword_tags(text) == ["robots", "arms"]
    assert keyword_tags("robot robot arm arm arm", limit=1) == ["robot"]  # words of 3 letters are ignored
