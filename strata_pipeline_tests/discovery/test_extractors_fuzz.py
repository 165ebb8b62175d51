"""Property tests: whatever the bytes, `extract` returns an Extraction or raises ExtractionError.

Nothing else may escape (no parser exception, no panic, no RecursionError), and what comes back
must be usable downstream: valid UTF-8 text, page spans inside it, JSON-serialisable metadata.
"""

from __future__ import annotations

import io
import json
import re
import zipfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strata_pipeline.discovery.extractors.dispatch import EXTRACTORS, extract
from strata_pipeline.discovery.extractors.extraction import PAGE_BREAK, Extraction, ExtractionError

EXTENSIONS = [*sorted(EXTRACTORS), ".xyz", ""]
FUZZ = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SNAKE_CASE = re.compile(r"[a-z]+(_[a-z]+)*")


def check(data: bytes, name: str) -> None:
    """The contract of `extract`, checked on one input."""
    try:
        extraction = extract(data, name)
    except ExtractionError as error:
        assert SNAKE_CASE.fullmatch(error.code), error.code
        assert isinstance(error.message, str) and error.message
        return
    assert isinstance(extraction, Extraction)
    assert isinstance(extraction.text, str)
    extraction.text.encode("utf-8")  # no lone surrogates: the text must be storable
    assert extraction.kind in ("text", "table", "config")
    assert all(isinstance(w, str) and w for w in extraction.warnings)
    json.dumps(extraction.metadata, allow_nan=False)
    for number, span in enumerate(extraction.pages, start=1):
        assert span.page == number
        assert 0 <= span.start <= span.end <= len(extraction.text)
        assert extraction.text[: span.start].count("\f") == number - 1
    if extraction.pages:
        assert extraction.text.count("\f") == len(extraction.pages) - 1 == extraction.text.count(PAGE_BREAK)


@FUZZ
@given(ext=st.sampled_from(EXTENSIONS), data=st.binary(max_size=2048))
def test_random_bytes_for_every_extension(ext: str, data: bytes) -> None:
    check(data, "f" + ext)


MAGIC = [b"%PDF-1.", b"PK\x03\x04", b"<html>", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"---\n", b"<?php"]


@FUZZ
@given(ext=st.sampled_from(EXTENSIONS), magic=st.sampled_from(MAGIC), rest=st.binary(max_size=2048))
def test_magic_headers_followed_by_random_bytes(ext: str, magic: bytes, rest: bytes) -> None:
    check(magic + rest, "f" + ext)


HTML_PIECES = st.sampled_from(
    [
        "<p>", "</p>", "<div>", "</div>", "<ul>", "</ul>", "<ol>", "<li>", "</li>", "<table>", "<tr>", "<td>",
        "<th>", "</tr>", "<thead>", "<h1>", "</h1>", "<h4>", "<pre>", "</pre>", "<br>", "<!--", "-->", "<?php",
        "<?", "?>", "<script>", "</script>", "<style>", "<svg>", "<title>", "</title>", "<head>", "<body>",
        "<template>", "<p hidden>", "&amp;", "&#xD800;", "&#0;", "\n", "\r\n", "\t", " ", "text", "é", "\x0c",
        '<meta charset="utf-8">', '<meta charset="shift_jis">', "<![CDATA[x]]>", "<!DOCTYPE html>",
    ]
)  # fmt: skip


@FUZZ
@given(
    ext=st.sampled_from([".html", ".htm", ".php"]),
    pieces=st.lists(HTML_PIECES | st.text(max_size=6), max_size=60),
    codec=st.sampled_from(["utf-8", "cp1252", "utf-16"]),
)
def test_html_built_from_random_tags(ext: str, pieces: list[str], codec: str) -> None:
    check("".join(pieces).encode(codec, "replace"), "page" + ext)


YAML_PIECES = st.sampled_from(
    [
        "---\n", "...\n", "key: ", "value", "\n", "- ", "[", "]", "{", "}", "&a ", "*a", "!!set ", "!!binary ",
        "2024-01-01", ".nan", "? ", ": ", "'", '"', "|\n  ", "  ", "#", "=", "[section]\n",
    ]
)  # fmt: skip


@FUZZ
@given(
    ext=st.sampled_from([".md", ".markdown", ".yaml", ".yml", ".json", ".toml", ".ini", ".cfg", ".conf"]),
    pieces=st.lists(YAML_PIECES | st.text(max_size=6), max_size=60),
)
def test_front_matter_and_config_built_from_random_pieces(ext: str, pieces: list[str]) -> None:
    check(("---\n" + "".join(pieces)).encode("utf-8", "replace"), "doc" + ext)


PACKAGE_MEMBERS = st.sampled_from(
    [
        "[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/_rels/document.xml.rels",
        "word/header1.xml", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/worksheets/sheet1.xml",
        "xl/sharedStrings.xml",
    ]
)  # fmt: skip
XML_CONTENT = st.sampled_from(
    [b"", b"<?xml version='1.0'?>", b"<Types/>", b"<w:document/>", b"<workbook/>", b"<x>&bad;</x>", b"\x00\xff"]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ext=st.sampled_from([".docx", ".xlsx"]),
    members=st.dictionaries(PACKAGE_MEMBERS, XML_CONTENT | st.binary(max_size=200), max_size=6),
)
def test_zip_packages_with_broken_members(ext: str, members: dict[str, bytes]) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    check(buffer.getvalue(), "package" + ext)
