"""Overlapping window chunking and the provenance recorded for every chunk."""

from __future__ import annotations

import hashlib
import itertools
import random

import polars as pl
import pytest

from strata_pipeline.chunking.chunker import (
    CHUNK_SCHEMA,
    ChunkingConfig,
    chunk_context,
    chunk_document,
    chunk_documents,
    heading_at,
    parent_bounds,
    sections,
    table_header_above,
    window_bounds,
)
from strata_pipeline.discovery.extractors.extraction import PAGE_BREAK

WORDS = "robot arm joint torque speed limit calibration encoder reach payload mode safety bolt base".split()


def prose(seed: int, paragraphs: int = 12) -> str:
    """Markdown with headings, paragraphs of sentences and single-line list items."""
    rng = random.Random(seed)
    blocks = []
    for number in range(paragraphs):
        if number % 4 == 0:
            blocks.append(f"## Section {number // 4 + 1}")
        sentences = [
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12))).capitalize() + "."
            for _ in range(rng.randint(1, 5))
        ]
        if number % 3 == 2:
            blocks.append("\n".join(f"- {s}" for s in sentences))
        else:
            blocks.append(" ".join(sentences))
    return "\n\n".join(blocks) + "\n"


def doc(text: str, extension: str = ".md", **extra) -> dict:
    return {"doc_id": "hr/policy" + extension, "source_set": "handbook", "project": "hr", "text": text,
            "extension": extension, **extra}  # fmt: skip


CONFIG = ChunkingConfig(size=200, overlap=40)
TEXTS = [prose(seed) for seed in range(5)]


@pytest.mark.parametrize("text", TEXTS)
def test_windows_never_exceed_the_size(text: str) -> None:
    bounds = window_bounds(text, CONFIG)
    assert len(bounds) > 5
    assert all(0 < end - start <= CONFIG.size for start, end in bounds)


@pytest.mark.parametrize("text", TEXTS)
def test_windows_cover_the_whole_text(text: str) -> None:
    bounds = window_bounds(text, CONFIG)
    covered = [False] * len(text)
    for start, end in bounds:
        covered[start:end] = [True] * (end - start)
    assert all(covered[i] for i, ch in enumerate(text) if not ch.isspace())
    assert bounds[0][0] == 0
    assert bounds[-1][1] == len(text)


@pytest.mark.parametrize("text", TEXTS)
def test_consecutive_windows_overlap_by_about_the_configured_overlap(text: str) -> None:
    bounds = window_bounds(text, CONFIG)
    longest_word = max(len(w) for w in WORDS) + 2  # the next window starts on a word boundary
    for (prev_start, prev_end), (start, end) in itertools.pairwise(bounds):
        assert prev_start < start < prev_end < end
        overlap = prev_end - start
        assert CONFIG.overlap - longest_word <= overlap <= CONFIG.overlap
        assert text[start - 1].isspace()  # never mid-word


def test_windows_end_at_natural_breaks() -> None:
    text = ("First paragraph sentence. " * 4).strip() + "\n\n" + ("Second paragraph here. " * 4).strip()
    [(start, end), *_] = window_bounds(text, ChunkingConfig(size=150, overlap=20))
    assert start == 0
    assert text[:end].endswith("sentence.\n\n")  # the paragraph break in the second half wins


def test_text_without_any_break_is_cut_hard() -> None:
    text = "abcdefghij" * 3
    assert window_bounds(text, ChunkingConfig(size=10, overlap=3)) == [(0, 10), (7, 17), (14, 24), (21, 30)]


def test_empty_and_blank_text_have_no_windows() -> None:
    assert window_bounds("", CONFIG) == []
    assert window_bounds(" \n\n\t ", CONFIG) == []
    assert chunk_document(doc("   \n"), CONFIG) == []


def test_short_text_is_one_window_without_leading_space() -> None:
    assert window_bounds("\n\n  Hello world.\n", CONFIG) == [(4, 17)]


@pytest.mark.parametrize(("size", "overlap"), [(100, 100), (100, 150)])
def test_overlap_must_be_smaller_than_size(size: int, overlap: int) -> None:
    with pytest.raises(ValueError, match=r"^Chunk overlap must be smaller than chunk size\.$"):
        window_bounds("some text", ChunkingConfig(size=size, overlap=overlap))


def test_chunk_rows_carry_provenance() -> None:
    text = TEXTS[0]
    rows = chunk_document(doc(text, title="Leave policy", language="en"), CONFIG)
    bounds = [b for start, end, _ in parent_bounds(text, CONFIG) for b in window_bounds(text, CONFIG, start, end)]
    assert [(r["char_start"], r["char_end"]) for r in rows] == bounds
    for index, row in enumerate(rows):
        body = text[row["char_start"] : row["char_end"]].strip()
        assert row["chunk_id"] == f"hr/policy.md#{index}"
        assert row["chunk_index"] == index
        assert (row["source_set"], row["doc_id"], row["project"]) == ("handbook", "hr/policy.md", "hr")
        assert (row["title"], row["language"]) == ("Leave policy", "en")
        assert row["text"] == body
        assert row["sha256"] == hashlib.sha256(body.encode("utf-8")).hexdigest()
        assert row["page"] is None  # not a PDF


def test_line_numbers_point_at_the_chunk_in_the_source() -> None:
    text = TEXTS[1]
    lines = text.split("\n")
    for row in chunk_document(doc(text), CONFIG):
        start, end = row["char_start"], row["char_end"]
        assert row["line_start"] == text.count("\n", 0, start) + 1
        # line_end is the line of the chunk's last character of text, not of trailing blank lines.
        last_text_char = start + len(text[start:end].rstrip()) - 1
        assert row["line_end"] == text.count("\n", 0, last_text_char) + 1
        # The first line of the chunk is (part of) line `line_start` of the source, the last of `line_end`.
        chunk_lines = row["text"].split("\n")
        assert chunk_lines[0] in lines[row["line_start"] - 1]
        if len(chunk_lines) > 1:
            assert lines[row["line_start"] - 1].endswith(chunk_lines[0])
        # Every line of the chunk lies within [line_start, line_end].
        assert row["line_start"] + row["text"].count("\n") <= row["line_end"]


def test_line_numbers_on_a_hand_made_text() -> None:
    text = "line one\nline two\nline three\nline four\nline five\n"
    rows = chunk_document(doc(text), ChunkingConfig(size=20, overlap=8))
    assert [(r["text"], r["line_start"], r["line_end"]) for r in rows] == [
        ("line one\nline two", 1, 2),
        ("two\nline three", 2, 3),
        ("three\nline four", 3, 4),
        ("four\nline five", 4, 5),
    ]


def test_pdf_chunks_get_the_page_of_their_start() -> None:
    pages = [f"Page {n} text. " + "Torque values for the base bolts are listed here. " * 3 for n in (1, 2, 3)]
    text = PAGE_BREAK.join(p.strip() for p in pages)
    rows = chunk_document(doc(text, extension=".pdf"), ChunkingConfig(size=120, overlap=20))
    assert [r["page"] for r in rows] == [text.count("\f", 0, r["char_start"]) + 1 for r in rows]
    assert {r["page"] for r in rows} == {1, 2, 3}
    for row in rows:
        if row["text"].startswith("Page "):
            assert row["text"].startswith(f"Page {row['page']} ")
    assert [r["page"] for r in chunk_document(doc(text, extension=".txt"), ChunkingConfig(120, 20))] == [None] * len(
        rows
    )


def test_heading_at_returns_the_last_heading_before_the_offset() -> None:
    text = "# Intro\n\nalpha beta.\n\n## Setup\n\nepsilon zeta.\n\n### Details\n\nmore.\n"
    assert heading_at(text, 0) == ""
    assert heading_at(text, text.index("alpha")) == "Intro"
    assert heading_at(text, text.index("epsilon")) == "Setup"
    assert heading_at(text, len(text)) == "Details"
    assert heading_at("no headings at all", 10) == ""
    assert heading_at("#hashtag is not a heading\ntext", 28) == ""


def test_heading_at_an_offset_inside_a_heading_line_returns_the_whole_heading() -> None:
    # The heading "## Setup" starts before the offset; the regex must not be cut at the offset.
    text = "# Intro\n\nalpha beta.\n\n## Setup\n\nepsilon zeta.\n"
    inside = text.index("Setup") + 1
    assert heading_at(text, inside) == "Setup"


def test_first_chunk_of_a_document_that_starts_with_a_heading_has_that_heading() -> None:
    text = "# Leave Policy\n\n" + "Employees get twenty-five days of paid leave per year. " * 3
    rows = chunk_document(doc(text), CONFIG)
    assert rows[0]["heading"] == "Leave Policy"


def test_chunk_headings_follow_the_document() -> None:
    text = TEXTS[2]
    for row in chunk_document(doc(text), CONFIG):
        before = text[: row["char_start"] + 1]
        complete = [line[3:] for line in before.split("\n")[:-1] if line.startswith("## ")]
        if not before.split("\n")[-1].startswith("#"):
            assert row["heading"] == (complete[-1] if complete else "")


def test_chunk_documents_builds_a_typed_frame() -> None:
    frame = chunk_documents(pl.DataFrame([doc(TEXTS[0]), doc("  ")]), CONFIG)
    assert frame.schema == pl.Schema(CHUNK_SCHEMA)
    assert frame.height == len(window_bounds(TEXTS[0], CONFIG))
    assert frame["chunk_id"].n_unique() == frame.height
    empty = chunk_documents(pl.DataFrame([doc("")]), CONFIG)
    assert empty.height == 0
    assert empty.schema == pl.Schema(CHUNK_SCHEMA)


SECTIONED = """# Leave policy

Intro paragraph about leave.

## Vacation

Employees get 25 days.

### Carry-over

Up to 5 days carry over until March 31.

## Sick leave

| Days | Rule |
|---|---|
| 1-3 | no note needed |
| 4+ | doctor's note |
"""


def test_sections_follow_headings_with_their_path() -> None:
    found = [(SECTIONED[s:e].split("\n", 1)[0], path) for s, e, path in sections(SECTIONED)]
    assert found == [
        ("# Leave policy", "Leave policy"),
        ("## Vacation", "Leave policy > Vacation"),
        ("### Carry-over", "Leave policy > Vacation > Carry-over"),
        ("## Sick leave", "Leave policy > Sick leave"),
    ]
    assert sections("no headings at all") == [(0, 18, "")]


def test_children_never_cross_a_section_and_point_at_their_parent() -> None:
    rows = chunk_document(doc(SECTIONED, title="Leave policy"), ChunkingConfig(size=60, overlap=10, parent_size=3000))
    for row in rows:
        assert row["parent_start"] <= row["char_start"] < row["char_end"] <= row["parent_end"]
        assert row["parent_text"] == SECTIONED[row["parent_start"] : row["parent_end"]].strip()
        assert row["parent_line_start"] == SECTIONED.count("\n", 0, row["parent_start"]) + 1
    carry = next(r for r in rows if "March 31" in r["text"])
    assert carry["heading_path"] == "Leave policy > Vacation > Carry-over"
    assert carry["context"] == "Leave policy > Vacation > Carry-over"  # the title is not repeated
    assert carry["parent_id"] == "hr/policy.md#s2"


def test_a_table_row_is_never_split_from_its_row_when_a_break_exists() -> None:
    rows = chunk_document(doc(SECTIONED), ChunkingConfig(size=70, overlap=10, parent_size=3000))
    table_rows = [ln for ln in SECTIONED.splitlines() if ln.startswith("|")]
    for row in rows:
        for line in row["text"].splitlines():
            if line.startswith("|"):
                assert line in table_rows  # every table line in a chunk is a whole row


def test_long_sections_are_split_into_parent_windows() -> None:
    text = "# Big\n\n" + "A sentence about robots. " * 200
    parents = parent_bounds(text, ChunkingConfig(size=200, overlap=20, parent_size=1000))
    assert len(parents) > 1 and all(e - s <= 1000 for s, e, _ in parents)
    assert {path for _, _, path in parents} == {"Big"}


def test_chunk_context_joins_title_and_path_once() -> None:
    assert chunk_context("Manual", "Manual > Setup") == "Manual > Setup"
    assert chunk_context("Manual", "Setup") == "Manual > Setup"
    assert chunk_context("", "") == ""


def test_chunk_context_puts_a_table_header_on_its_own_line() -> None:
    assert chunk_context("Fees", "Fees > 2026", "zone | fee") == "Fees > 2026\nzone | fee"
    assert chunk_context("", "", "zone | fee") == "zone | fee"


def test_table_header_above_names_the_columns_of_a_chunk_cut_from_a_table() -> None:
    text = "# Fees\n\nIntro line.\n\nzone | fee | period\nA | 30 | year\nB | 45 | year\nC | 60 | year\n"
    assert table_header_above(text, text.index("B | 45")) == "zone | fee | period"
    assert table_header_above(text, text.index("zone |")) == ""  # the chunk holds the header itself
    assert table_header_above(text, text.index("Intro")) == ""  # not inside a table
    second = text + "\nOther prose.\n\nkind | days\nx | 1\ny | 2\n"
    assert table_header_above(second, second.index("y | 2")) == "kind | days"  # the nearest table's header


def test_children_of_a_long_table_carry_its_header_in_their_context() -> None:
    rows = "\n".join(f"district {i} | bin {i % 4} | weekday {i % 5}" for i in range(80))
    text = "# Collection calendar\n\ndistrict | bin | weekday\n" + rows + "\n"
    chunks = chunk_document(doc(text, title="Calendar"), CONFIG)
    assert len(chunks) > 2
    assert chunks[0]["context"] == "Calendar > Collection calendar"  # holds the header row itself
    for chunk in chunks[1:]:
        assert chunk["context"] == "Calendar > Collection calendar\ndistrict | bin | weekday"


def test_every_spreadsheet_row_is_a_child_under_its_header() -> None:
    text = (
        "## servers\nhostname | os\nbsl-db-03 | RHEL 9.2\nzrh-db-03 | Rocky 9.4\n\n## sites\ncode | name\nBSL | Basel"
    )
    rows = chunk_document(doc(text, extension=".csv", title="servers"), CONFIG)
    assert [(r["text"], r["context"], r["line_start"]) for r in rows] == [
        ("hostname | os", "servers", 2),  # the header row stands for the table (no categorical column)
        ("bsl-db-03 | RHEL 9.2", "servers\nhostname | os", 3),
        ("zrh-db-03 | Rocky 9.4", "servers\nhostname | os", 4),
        ("code | name", "servers > sites", 7),
        ("BSL | Basel", "servers > sites\ncode | name", 8),
    ]
    assert rows[0]["parent_id"] == rows[1]["parent_id"] == rows[2]["parent_id"] != rows[4]["parent_id"]
    assert "hostname | os" in rows[1]["parent_text"]  # a sheet is the parent


def test_a_spreadsheets_header_child_names_its_categorical_values() -> None:
    body = "\n".join(
        f"{name} | {site} | {env} | 10.0.0.{i}"
        for i, (name, site, env) in enumerate(
            [("a1", "BSL", "prod"), ("a2", "ZRH", "prod"), ("a3", "BSL", "standby"), ("a4", "ZRH", "prod")]
        )
    )
    text = f"hostname | site | environment | ip_address\n{body}"
    rows = chunk_document(doc(text, extension=".csv", title="servers"), CONFIG)
    assert rows[0]["text"] == "hostname | site | environment | ip_address"
    # hostnames and addresses are one per row: not what the table is about
    assert rows[0]["context"] == "servers\nsite: BSL, ZRH; environment: prod, standby"
    assert [r["context"] for r in rows[1:]] == ["servers\nhostname | site | environment | ip_address"] * 4
    # the header child of a prose document's table is not made: only spreadsheets get one
    prose = chunk_document(doc("# Servers\n\n" + text, title="servers"), CONFIG)
    assert all("environment: prod" not in r["context"] for r in prose)
