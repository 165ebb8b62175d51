"""Whole postal addresses from `address_spans`: street, number, unit, postcode, city, state as one span."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.addresses import address_spans
from strata_pipeline.redaction.scan import scan_text


def addresses(text: str) -> list[str]:
    return [text[s.start : s.end] for s in address_spans(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # United States: number first, directional, city, state and ZIP
        (
            "The White House is at 1600 Pennsylvania Ave NW, Washington, DC 20500.",
            "1600 Pennsylvania Ave NW, Washington, DC 20500",
        ),
        ("350 Fifth Avenue, New York, NY 10118", "350 Fifth Avenue, New York, NY 10118"),
        ("PO Box 1234, Springfield, IL 62704", "PO Box 1234, Springfield, IL 62704"),
        # Germany: street then number, postcode before the city, on one line or two
        ("Please send it to Heilbronner Straße 150, 70191 Stuttgart.", "Heilbronner Straße 150, 70191 Stuttgart"),
        ("Heilbronner Straße 150\n70191 Stuttgart", "Heilbronner Straße 150\n70191 Stuttgart"),
        ("Mercedes-Benz Museum, Mercedesstraße 100, 70372 Stuttgart", "Mercedesstraße 100, 70372 Stuttgart"),
        # France: "12, rue ..."
        ("Our shop: 12, rue des Tanneurs, 29200 Brest", "12, rue des Tanneurs, 29200 Brest"),
        # Italy and Spain: street word first, number after the name
        ("Indirizzo: Via Roma 10, 30172 Venezia", "Via Roma 10, 30172 Venezia"),
        ("Calle Mayor 18, 28013 Madrid", "Calle Mayor 18, 28013 Madrid"),
        # Netherlands: compound street word, postcode with letters
        ("Herengracht 452, 1017 CA Amsterdam", "Herengracht 452, 1017 CA Amsterdam"),
        # United Kingdom: flat, building number, street, then city and postcode on the next line
        ("Flat 3, 47 Chalk Farm Road\nLondon NW1 8AJ", "Flat 3, 47 Chalk Farm Road\nLondon NW1 8AJ"),
        (
            "Deliver to Flat 3, 47 Chalk Farm Road\nLondon NW1 8AJ\nThanks",
            "Flat 3, 47 Chalk Farm Road\nLondon NW1 8AJ",
        ),
        # opening days after the town are no part of the address
        (
            "Collect it at our depot, Am Lindenhof 4, Aarlingen, Monday to Friday 7:00-15:00.",
            "Am Lindenhof 4, Aarlingen",
        ),
    ],
)
def test_whole_addresses(text: str, expected: str) -> None:
    assert addresses(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "During 2013 we moved to a new office.",
        "During 2013 we moved",
        "Chapter 12",
        "See Chapter 12 for the details.",
        "Version 2 Release Notes",
        "Top 10 Tips",
        "Room 101 is booked.",
        "Release 5 Quick Start",
        "Technischer Maßnahmenwert: 100 KBE je 100 ml.",  # a rate, not a building and house number
        "Grenzwert: 10 Legionella per 100 ml Wasser.",
        # a section of a law and a period after it, not a building and house number
        "Qualifizierte Mahnung nach § 38 VVG 35 Tage nach Fälligkeit.",
        "Recht auf Auskunft nach Art. 15 DSGVO 3 Monate lang.",
        # a numbered step or a clock time before a verb that is also a street word ("Close", "Lock", "Port")
        "1. Lock out the robot and move the wrist to the service position first.",
        "4. Close the air supply valve and open the dump valve.",
        "  6) Close the ticket with resolution code SVC-ROTATED.",
        "3. Check Drive belt tension.",
        "- 11:20 Port am Access-Switch deaktiviert; Netz stabilisiert sich.",
        # an amount after a count, a date with an abbreviated month, a year that ends a sentence
        "Kurzstrecke bis 4 Haltestellen 1,70 € 0,85 €",
        "The new timetable applies from 14 Dec 2025 on all lines.",
        "Route knowledge trips take place in the week of 1 December 2025. Route maps follow.",
        # a column headed by a placeholder is no address column
        "| Line | New (from [ADDRESS_1]) |\n|---|---|\n| T1 | every 7 min |",
        # a pipe table's commas, read as tabs by the scanner, make no tab table ("address | [address_1]")
        scan_text("Address | [ADDRESS_1], Altfeld | x\nVehicles | [PERSON_1], electric buses | Diesel, CNG"),
    ],
)
def test_not_addresses(text: str) -> None:
    assert addresses(text) == []


def test_several_addresses_in_one_text_stay_apart() -> None:
    text = "Siège: 12, rue de la Paix, 75002 Paris. Oficina: Calle de Alcalá 42, Madrid. Sede: Via Roma, 12, Milano."
    assert addresses(text) == ["12, rue de la Paix, 75002 Paris", "Calle de Alcalá 42, Madrid", "Via Roma, 12, Milano"]


def test_spans_carry_a_score_and_the_rule_that_found_them() -> None:
    [span] = address_spans("Heilbronner Straße 150, 70191 Stuttgart")
    assert span.score >= 0.5
    assert span.reason == "street then number"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # street and unit lines above a postcode-and-city line belong to the same block
        ("Guarantor:\nFlat 2/1\n118 Gallowgate\nGlasgow G1 5AX\n", "Flat 2/1\n118 Gallowgate\nGlasgow G1 5AX"),
        ("Henrike Mittelstaedt\nZur Alten Ziegelei 11\n84030 Landshut\n", "Zur Alten Ziegelei 11\n84030 Landshut"),
        (
            "M. Théophile Brunschwig\nAppartement 12, escalier B\n12 rue des Lilas\n67000 Strasbourg\n",
            "Appartement 12, escalier B\n12 rue des Lilas\n67000 Strasbourg",
        ),
        # units in lower case, after a dash, before the street
        (
            "in Corso Vittorio Emanuele II 214, int. 7, 10139 Torino.",
            "Corso Vittorio Emanuele II 214, int. 7, 10139 Torino",
        ),
        ("Unit 1504 – 88 Harbour Street\nToronto, ON M5J 0C3", "Unit 1504 – 88 Harbour Street\nToronto, ON M5J 0C3"),
    ],
)
def test_address_blocks_over_several_lines(text: str, expected: str) -> None:
    assert addresses(text) == [expected]


def test_a_heading_line_with_a_year_is_not_taken_into_the_address() -> None:
    assert addresses("Invoice 2024\n12 Main Street\nSpringfield, IL 62704") == ["12 Main Street\nSpringfield, IL 62704"]


def test_quoted_blocks_are_read_without_their_marks() -> None:
    text = "> Ella Carlsen\n> 99 Fitzherbert Street\n> Suite 748\n> Beachlands"
    scanned = scan_text(text)
    assert [text[s.start : s.end] for s in address_spans(scanned)] == [
        "99 Fitzherbert Street\n> Suite 748\n> Beachlands"
    ]


@pytest.mark.parametrize("mark", ["}} ", ">> ", "-- ", "?? ", "| "])
def test_any_short_line_mark_is_read_past(mark: str) -> None:
    text = f"{mark}Mira Holm\n{mark}41 Terrick Rd\n{mark}Apt. 655\n{mark}Egmere\n{mark}United Kingdom 01967"
    assert addresses(text) == [text[text.index("41") :]]


def test_a_blank_line_still_ends_a_marked_block() -> None:
    text = "}} 41 Terrick Rd\n}} Egmere\n\n}} Minutes of the meeting"
    assert addresses(text) == ["41 Terrick Rd\n}} Egmere"]


def test_a_crossing_after_an_address_cue_is_one_address() -> None:
    assert addresses("Meet me at Gaetano and Ziegelgasse 13 tomorrow.") == ["Gaetano and Ziegelgasse 13"]
    # without a cue, the word before "and" may be a person: only the street is an address
    assert addresses("Ask Gaetano and 12 Main Street will reply.") == ["12 Main Street"]


def test_a_list_item_may_hold_an_address_after_its_number() -> None:
    assert addresses("Depots:\n1. 350 Fifth Avenue, New York, NY 10118") == ["350 Fifth Avenue, New York, NY 10118"]


def test_a_dotted_room_number_stays_whole() -> None:
    text = "The fines office is in the Technisches Rathaus, Gleisweg 8, Room 1.12."
    assert addresses(text) == ["Gleisweg 8, Room 1.12."]  # "12" is not left behind after "[ADDRESS_1]"


def test_a_companys_row_keeps_its_address_and_a_persons_row_does_not() -> None:
    suppliers = (
        "Name | PLZ | Ort | Ansprechpartner\n"
        "Brandner Gusswerk GmbH | 94036 | Passau | Markus Feichtinger\n"
        "Zahnrad Polska Sp. z o.o. | 53-234 | Wrocław | Anna Nowak"
    )
    assert addresses(suppliers) == []
    staff = "Name | PLZ | Ort\nMarkus Feichtinger | 94036 | Passau"
    assert addresses(staff) == ["94036", "Passau"]
