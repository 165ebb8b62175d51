"""Text documents beyond the first formats: .odt, .rtf, .eml and the plain-text aliases, each built
here as a real file (by the standard library or by hand to its specification), and what a broken one
is recorded as."""

from __future__ import annotations

import io
import zipfile
from email.message import EmailMessage

import pytest

from strata_pipeline.discovery.extractors.dispatch import EXTRACTORS, ISOLATED_EXTENSIONS, TABLE_EXTENSIONS, extract
from strata_pipeline.discovery.extractors.extraction import ExtractionError, ExtractLimits
from strata_pipeline.discovery.extractors.rtf import rtf_text
from strata_pipeline_tests.discovery.test_extractors_formats import odf_package


def error_of(data: bytes, name: str, limits: ExtractLimits | None = None) -> ExtractionError:
    with pytest.raises(ExtractionError) as info:
        extract(data, name, limits or ExtractLimits())
    return info.value


# --- .odt ----------------------------------------------------------------------------------

ODT_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
)


def odt_bytes(body: str) -> bytes:
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ODT_NAMESPACES} office:version="1.2">'
        f"<office:body><office:text>{body}</office:text></office:body></office:document-content>"
    )
    return odf_package("application/vnd.oasis.opendocument.text", content)


ODT_BODY = (
    '<text:h text:outline-level="1">Parking policy</text:h>'
    "<text:p>Permits cost <text:span>30 CHF</text:span>.<text:s/>Renew<text:tab/>yearly.</text:p>"
    "<text:p/>"
    '<text:section text:name="s1"><text:h text:outline-level="2">Exceptions</text:h>'
    "<text:list><text:list-item><text:p>Night shifts</text:p>"
    "<text:list><text:list-item><text:p>after 22:00</text:p></text:list-item></text:list></text:list-item>"
    "<text:list-item><text:p>Visitors<text:note><text:note-citation>1</text:note-citation>"
    "<text:note-body><text:p>with a pass</text:p></text:note-body></text:note></text:p></text:list-item>"
    "</text:list></text:section>"
    "<table:table><table:table-header-rows><table:table-row>"
    "<table:table-cell><text:p>zone</text:p></table:table-cell><table:table-cell><text:p>rate</text:p></table:table-cell>"
    "</table:table-row></table:table-header-rows><table:table-row>"
    "<table:table-cell><text:p>A</text:p></table:table-cell><table:table-cell><text:p>1.50</text:p></table:table-cell>"
    '<table:table-cell table:number-columns-repeated="20"/></table:table-row></table:table>'
)


def test_odt_headings_paragraphs_lists_and_tables() -> None:
    extraction = extract(odt_bytes(ODT_BODY), "policy.odt")
    assert (extraction.kind, extraction.encoding) == ("text", "odt")
    assert extraction.text == (
        "# Parking policy\n\nPermits cost 30 CHF. Renew yearly.\n\n## Exceptions\n\n"
        "- Night shifts\n  - after 22:00\n- Visitors with a pass\n\nzone | rate\nA | 1.50"
    )


def test_odt_that_is_not_a_zip_is_corrupt_odt() -> None:
    assert error_of(b"PK\x03\x04 not a document", "broken.odt").code == "corrupt_odt"


def test_odt_without_content_or_with_broken_xml_is_corrupt_odt() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
    assert error_of(buffer.getvalue(), "empty.odt").code == "corrupt_odt"
    assert error_of(odt_bytes("<text:p>unclosed"), "bad.odt").code == "corrupt_odt"


def test_odt_entities_are_not_expanded() -> None:
    content = (
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
        f"<office:document-content {ODT_NAMESPACES}><office:body><office:text><text:p>x&b;y</text:p>"
        "</office:text></office:body></office:document-content>"
    )
    data = odf_package("application/vnd.oasis.opendocument.text", content)
    assert "AAAA" not in extract(data, "entities.odt").text


def test_odt_zip_bomb_is_refused() -> None:
    assert error_of(odt_bytes(ODT_BODY), "big.odt", ExtractLimits(max_zip_expansion=200)).code == "zip_bomb"


# --- .rtf ----------------------------------------------------------------------------------

RTF = (
    rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fswiss Helvetica;}}{\colortbl;\red255\green0\blue0;}"
    rb"{\info{\title Hidden metadata}{\author Someone}}"
    rb"{\*\generator Writer 1.0;}\pard\b Parking policy\b0\par"
    b"\r\n"
    rb"Permits cost 30\~CHF \endash  renew yearly.\par"
    b"\r\n"
    rb"Caf\'e9 opens at 7.\par"
    b"\r\n"
    rb"\uc1 Stra\u223?e und \u8364? 5\par"
    b"\r\n"
    rb"{\field{\*\fldinst HYPERLINK http://example.org}{\fldrslt see the site}}\par"
    b"\r\n"
    rb"\trowd zone\cell rate\cell\row A\cell 1.50\cell\row"
    rb"{\pict\pngblip 89504e470d0a}"
    rb"}"
)


def test_rtf_text_without_font_tables_metadata_or_pictures() -> None:
    extraction = extract(RTF, "policy.rtf")
    assert (extraction.kind, extraction.encoding) == ("text", "cp1252")
    assert extraction.text == (
        "Parking policy\nPermits cost 30\u00a0CHF \u2013 renew yearly.\nCafé opens at 7.\nStraße und € 5\n"
        "see the site\nzone | rate\nA | 1.50"
    )


def test_rtf_code_page_and_escaped_braces() -> None:
    assert rtf_text(rb"{\rtf1\ansi\ansicpg1251 \'cf\'f0\'e8\'e2\'e5\'f2 \{x\}\par}") == ("Привет {x}", "cp1251")


def test_rtf_unicode_beyond_the_basic_plane_and_skip_counts() -> None:
    # U+1F600 as a surrogate pair, each with two fallback characters (\uc2) to drop.
    assert rtf_text(rb"{\rtf1\uc2 smile \u-10179??\u-8704??!}")[0] == "smile \U0001f600!"


def test_text_that_is_not_rtf_is_corrupt_rtf() -> None:
    assert error_of(b"just some words", "notes.rtf").code == "corrupt_rtf"


def test_deeply_nested_rtf_groups_do_not_recurse() -> None:
    assert extract(b"{\\rtf1 " + b"{" * 100_000 + b"deep" + b"}" * 100_000 + b"}", "deep.rtf").text == "deep"


# --- .eml ----------------------------------------------------------------------------------


def eml_bytes(html: bool = False) -> bytes:
    message = EmailMessage()
    message["From"] = "Ana Ops <ana@example.org>"
    message["To"] = "depots@example.org"
    message["Subject"] = "Basel depot opening"
    message["Date"] = "Tue, 03 Mar 2026 09:15:00 +0100"
    if html:
        message.set_content("<html><body><h1>Opening</h1><p>Basel opens on <b>9 March</b>.</p></body></html>", "html")
    else:
        message.set_content("Basel opens on 9 March.\nTwelve bays.\n")
    message.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="site-plan.pdf")
    return message.as_bytes()


def test_eml_subject_headers_plain_body_and_attachment_names() -> None:
    extraction = extract(eml_bytes(), "opening.eml")
    assert (extraction.kind, extraction.encoding) == ("text", "email")
    assert extraction.text == (
        "# Basel depot opening\n\nFrom: Ana Ops <ana@example.org>\nTo: depots@example.org\n"
        "Date: 2026-03-03 09:15 +0100\n\nBasel opens on 9 March.\nTwelve bays.\n\n"
        "Attachments: site-plan.pdf"
    )


def test_eml_html_body_is_read_by_the_html_extractor() -> None:
    text = extract(eml_bytes(html=True), "opening.eml").text
    assert "# Opening\n\nBasel opens on 9 March.\n\nAttachments: site-plan.pdf" in text


def test_eml_encoded_subject_and_quoted_printable_body() -> None:
    data = (
        b"From: a@example.org\r\nSubject: =?utf-8?q?Geb=C3=BChren_2026?=\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
        b"Die Geb=C3=BChr betr=C3=A4gt 30 CHF.\r\n"
    )
    assert extract(data, "fees.eml").text == "# Gebühren 2026\n\nFrom: a@example.org\n\nDie Gebühr beträgt 30 CHF."


def test_bytes_without_mail_headers_are_corrupt_email() -> None:
    assert error_of(b"\x00\x01 this is no message at all", "junk.eml").code == "corrupt_email"


# --- plain-text aliases and dispatch -------------------------------------------------------


@pytest.mark.parametrize("name", ["service.log", "notes.text"])
def test_plain_text_aliases_are_read_as_text(name: str) -> None:
    extraction = extract("Title\n=====\n\nCafé opens at 7.\r\n".encode(), name)
    assert (extraction.kind, extraction.encoding) == ("text", "utf-8")
    assert extraction.text == "Title\n=====\n\nCafé opens at 7.\n"


RST = """=============
 Depot guide
=============

Intro text.

Opening hours
=============

Weekdays 7 to 19.

Holidays
--------

Closed.

----------

===== =====
zone  rate
===== =====
A     1.50
===== =====

Returns
=======
"""


def test_rst_section_titles_become_headings_by_adornment_order() -> None:
    extraction = extract(RST.encode(), "guide.rst")
    assert (extraction.kind, extraction.encoding) == ("text", "utf-8")
    assert extraction.text == (
        "# Depot guide\n\nIntro text.\n\n## Opening hours\n\nWeekdays 7 to 19.\n\n### Holidays\n\nClosed.\n\n"
        "----------\n\n===== =====\nzone  rate\n===== =====\nA     1.50\n===== =====\n\n## Returns\n"
    )


def test_rst_underline_shorter_than_the_title_or_after_a_paragraph_line_is_text() -> None:
    text = "Paragraph line\nstill the paragraph\n===================\n\nLong title here\n===\n"
    assert extract(text.encode(), "notes.rst").text == text


@pytest.mark.parametrize("name", ["guide.adoc", "guide.asciidoc"])
def test_asciidoc_titles_become_headings_outside_delimited_blocks(name: str) -> None:
    text = "= Depot guide\n\n== Opening hours ==\n\nWeekdays.\n\n----\n= not a title\n----\n\n=== Holidays\n"
    assert extract(text.encode(), name).text == (
        "# Depot guide\n\n## Opening hours\n\nWeekdays.\n\n----\n= not a title\n----\n\n### Holidays\n"
    )


def test_binary_log_is_binary_content() -> None:
    assert error_of(b"\x00\x01\x02\x03" * 64, "core.log").code == "binary_content"


def test_every_table_format_runs_isolated_and_has_an_extractor() -> None:
    assert TABLE_EXTENSIONS <= ISOLATED_EXTENSIONS
    assert set(EXTRACTORS) >= TABLE_EXTENSIONS
    assert {".pptx", ".odt", ".rtf", ".eml"} <= ISOLATED_EXTENSIONS


def test_eml_date_that_is_not_rfc_5322_is_kept_as_written() -> None:
    data = b"From: a@example.org\r\nDate: sometime last week\r\nSubject: Keys\r\n\r\nThe keys are at the desk.\r\n"
    assert extract(data, "keys.eml").text == (
        "# Keys\n\nFrom: a@example.org\nDate: sometime last week\n\nThe keys are at the desk."
    )


def test_rtf_binary_picture_data_with_braces_is_skipped() -> None:
    data = b"{\\rtf1 Before.\\par{\\pict\\bin6 }}{{\\}}after.\\par}"
    assert rtf_text(data)[0] == "Before.\nafter."
