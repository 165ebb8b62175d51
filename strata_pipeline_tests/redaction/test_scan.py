"""`scan_text`: the same-length text detectors read, so that offsets still point into the document."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector
from strata_pipeline.redaction.redact import redact_text
from strata_pipeline.redaction.scan import delimited_as_tabs, scan_text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a line break exported as backslash-n becomes a real one (same length)
        ("Mackay\\n\\nLa Sagne", "Mackay \n \nLa Sagne"),
        # CSV rows with no space after the comma: unquoted commas become tabs
        (
            "id,name,email\nC-10482,Aino Hämäläinen,aino@x.example\nC-10483,Jonas Weber,jonas@x.example",
            "id\tname\temail\nC-10482\tAino Hämäläinen\taino@x.example\nC-10483\tJonas Weber\tjonas@x.example",
        ),
        # quoted commas are part of the cell
        (
            'id,name,note\n1,"Weber, Jonas",ok\n2,"Müller, Hans",ok',
            'id\tname\tnote\n1\t"Weber, Jonas"\tok\n2\t"Müller, Hans"\tok',
        ),
        ("a;b;c\nd;e;f\n\nplain, text, here", "a\tb\tc\nd\te\tf\n\nplain, text, here"),
        ("x|y|z\n1|2|3", "x\ty\tz\n1\t2\t3"),
        # prose is left alone: one line, or a single separator per line
        ("one, two, three", "one, two, three"),
        ("a,b\nc,d", "a,b\nc,d"),
        ("", ""),
    ],
)
def test_scan_text(text: str, expected: str) -> None:
    scanned = scan_text(text)
    assert scanned == expected
    assert len(scanned) == len(text)


def test_delimited_as_tabs_keeps_a_literal_backslash_n() -> None:
    assert delimited_as_tabs("a\\nb") == "a\\nb"
    assert scan_text("a\\nb") == "a \nb"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Kind regards,\\nJonas Weber\\nPhone +41 44 668 18 00",
            "Kind regards,\\n[PERSON_1]\\nPhone [PHONE_1]",
        ),
        (
            "id,name,email\nC-10482,Aino Hämäläinen,aino@corp.example\nC-10483,Jonas Weber,jonas@corp.example",
            "id,name,email\nC-10482,[PERSON_1],[EMAIL_1]\nC-10483,[PERSON_2],[EMAIL_2]",
        ),
        (
            "Delivery to Flat 3, 47 Chalk Farm Road\\nLondon NW1 8AJ please.",
            "Delivery to [ADDRESS_1] please.",
        ),
    ],
)
def test_detection_on_the_scanned_text_replaces_the_original(ner: PresidioDetector, text: str, expected: str) -> None:
    assert redact_text(text, ner, PiiPolicy()).text == expected


def test_commas_inside_the_cells_of_a_bar_table_are_no_second_table() -> None:
    """Bars are read before commas: two rows of a "|" table that each hold two commas in a cell ("Lausanne,
    Bern, Chur") once became a comma table across it, and every cell was read under the wrong header."""
    text = (
        "No | Firm | Depots | Contact\n"
        "1 | Alpha AG | Lausanne, Bern, Chur | Anna Keller\n"
        "2 | Beta SA | Basel, Linz, Graz | Marc Rey"
    )
    expected = text.replace(" | ", " \t ")  # the commas stay: they are inside cells
    assert scan_text(text) == expected
