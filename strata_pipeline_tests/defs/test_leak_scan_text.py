"""The index's leak check reads a point as ingestion read its document: under its title and headings, a
table's rows under their header row."""

from __future__ import annotations

from strata_pipeline.defs.index.qdrant_collection import scanned_text, table_header
from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector
from strata_pipeline.redaction.verify import Leak, find_leaks

ADDRESS = "Hans-Böckler-Straße 12, 79001 Aarlingen"


def payload(title: str, heading_path: str) -> dict:
    return {"title": title, "heading_path": heading_path, "heading": heading_path.split(" > ")[-1],
            "text": f"## Address\n\n{ADDRESS} (ground floor)"}  # fmt: skip


def test_the_scanned_text_puts_the_heading_path_above_the_chunk() -> None:
    text = scanned_text(payload("Kundencenter Aarlingen", "Kundencenter Aarlingen > Address"))
    assert text.index("# Kundencenter Aarlingen") < text.index("### Address") < text.index(ADDRESS)


def test_a_kept_premises_address_is_no_leak_and_a_persons_is() -> None:
    detector, policy = PresidioDetector(use_ner=False), PiiPolicy()
    centre = scanned_text(payload("Kundencenter Aarlingen", "Kundencenter Aarlingen > Address"))
    notes = scanned_text(payload("Meeting notes", "Meeting notes > Address"))
    assert find_leaks([("centre", centre)], [], detector, policy) == []
    assert find_leaks([("notes", notes)], [], detector, policy) == [Leak("notes", "pii:ADDRESS")]
    strict = PiiPolicy(keep_premises_addresses=False)
    assert find_leaks([("centre", centre)], [], detector, strict) == [Leak("centre", "pii:ADDRESS")]


def test_a_table_row_is_read_under_its_header_row_so_a_companys_address_is_no_leak() -> None:
    header = "Lief.-Nr. | Firma | Strasse | PLZ / Ort | Ansprechpartner"
    row = "L-1002 | Bergkäserei Tux eGen | Hauptstraße 5 | 6293 Tux | [PERSON_2]"
    point = {"title": "lieferantenliste", "heading_path": "lieferantenliste", "heading": "lieferantenliste",
             "context": f"lieferantenliste\n{header}", "text": row}  # fmt: skip
    text = scanned_text(point)
    assert text.index(header) < text.index(row)
    assert find_leaks([("row", text)], [], PresidioDetector(use_ner=False), PiiPolicy()) == []
    # the same row under a header that names no company is a person's record
    point = point | {"context": "lieferantenliste\nNr. | Name | Strasse | PLZ / Ort | Kontakt"}
    leaks = find_leaks([("row", scanned_text(point))], [], PresidioDetector(use_ner=False), PiiPolicy())
    assert Leak("row", "pii:ADDRESS") in leaks


def test_a_header_is_read_only_for_a_row_with_as_many_cells() -> None:
    context = "Fees\n| Zone | Fee |"
    assert table_header("| B | 3.00 |", context) == "| Zone | Fee |"
    assert table_header("| Zone | Fee |\n|---|---|", context) == ""  # the chunk starts with it
    assert table_header("| B | 3.00 | extra |", context) == ""
    assert table_header("Fees are due monthly.", "Fees") == ""
