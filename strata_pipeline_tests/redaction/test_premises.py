"""An organisation's published address is kept; a person's is not (redaction/premises.py and the policy)."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.pii import Finding, PiiPolicy
from strata_pipeline.redaction.premises import company_row_address, headings_above, names_premises, premises_address
from strata_pipeline.redaction.redact import redact_text

CENTRE = "# Kundencenter Aarlingen\n\nHans-Böckler-Straße 12, 79001 Aarlingen (im Erdgeschoss)\n\n## Öffnungszeiten\n"


def span(text: str, value: str) -> tuple[int, int]:
    start = text.index(value)
    return start, start + len(value)


@pytest.mark.parametrize(
    ("heading", "premises"),
    [
        ("Kundencenter Aarlingen", True),
        ("Centre clients de Colmont", True),
        ("Service Point Hafenviertel", True),
        ("Regulierungsbüro Dresden", True),  # a German compound ends on the premises word
        ("Zutritt zu den Umspannwerken", True),  # and may be inflected
        ("Library branch Nordstadt", True),
        ("Bureau des sinistres de Luxembourg", True),
        ("Onboarding checklist", False),
        ("Meeting notes 12 March", False),
        ("Jane's contact details", False),
    ],
)
def test_headings_that_name_a_place_of_business(heading: str, premises: bool) -> None:
    assert names_premises(heading) is premises


def test_the_heading_path_over_a_position_is_read_outermost_first() -> None:
    text = "# Service Point Hafenviertel\n\n## Opening hours\n\nMon\n\n## Address\n\nHafenstraße 22\n"
    assert headings_above(text, text.index("Hafenstraße")) == ["Service Point Hafenviertel", "Address"]


def test_a_plain_text_title_counts_only_when_set_apart() -> None:
    titled = "Depot Aarlingen\n\nAm Lindenhof 4, Aarlingen\n"
    assert headings_above(titled, titled.index("Am ")) == ["Depot Aarlingen"]
    sentence = "Our depot is at Am Lindenhof 4, Aarlingen.\nCall first."
    assert headings_above(sentence, sentence.index("Am ")) == []


def test_the_address_on_a_premises_page_is_the_organisations() -> None:
    assert premises_address(CENTRE, *span(CENTRE, "Hans-Böckler-Straße 12, 79001 Aarlingen"))


def test_a_person_named_in_the_paragraph_makes_it_someones_address() -> None:
    text = "# Office move\n\nJana Novak, Elm Close 12, Leeds\n"
    start, end = span(text, "Elm Close 12, Leeds")
    assert not premises_address(text, start, end, people=[span(text, "Jana Novak")])
    # the person on the line above an address line that names no premises is its addressee
    text = "# Depot Nord\n\nJana Novak\nElm Close 12, Leeds\n"
    start, end = span(text, "Elm Close 12, Leeds")
    assert not premises_address(text, start, end, people=[span(text, "Jana Novak")])
    # a name inside the address itself ("rue Victor-Hugo") is the street's
    text = "# Centre clients de Colmont\n\n8, rue Victor-Hugo, Colmont\n"
    start, end = span(text, "8, rue Victor-Hugo, Colmont")
    assert premises_address(text, start, end, people=[span(text, "Victor-Hugo")])


@pytest.mark.parametrize(
    "text",
    [
        "# Branch office Leeds\n\nOur branch manager lives at 12 Elm Close, Leeds.\n",
        "# Büro Stuttgart\n\nPrivatanschrift der Leitung: Hauptstraße 5, 70173 Stuttgart\n",
        "# Staff records\n\nHauptstraße 5, 70173 Stuttgart\n",  # no premises in any heading
        "Our offices are located at 12 Elm Close, Leeds.",  # a sentence, no structure: read as any address
    ],
)
def test_an_address_that_may_be_someones_is_not_kept(text: str) -> None:
    value = "12 Elm Close, Leeds" if "Elm" in text else "Hauptstraße 5, 70173 Stuttgart"
    assert not premises_address(text, *span(text, value))


class _Found:
    name = "test"

    def __init__(self, *findings: tuple[str, str]) -> None:
        self.findings = findings

    def detect(self, text: str) -> list[Finding]:
        return [Finding(entity, *span(text, value), 0.9, "test") for entity, value in self.findings]


def test_the_policy_keeps_a_premises_address_and_records_why() -> None:
    value = "Hans-Böckler-Straße 12, 79001 Aarlingen"
    result = redact_text(CENTRE, _Found(("ADDRESS", value)), PiiPolicy())
    assert value in result.text
    assert [a.decision for a in result.audit] == ["organisation_address"]
    strict = redact_text(CENTRE, _Found(("ADDRESS", value)), PiiPolicy(keep_premises_addresses=False))
    assert "[ADDRESS_1]" in strict.text and value not in strict.text


def test_a_person_beside_the_address_is_redacted_with_it() -> None:
    text = "# Office Leeds\n\nJana Novak\n12 Elm Close, Leeds\n"
    result = redact_text(text, _Found(("PERSON", "Jana Novak"), ("ADDRESS", "12 Elm Close, Leeds")), PiiPolicy())
    assert result.text == "# Office Leeds\n\n[PERSON_1]\n[ADDRESS_1]\n"


def test_a_person_on_the_next_line_is_not_the_addressee_of_a_line_that_names_the_premises() -> None:
    """A house-rules page opens with the depot's line and its manager's below it; before, the manager
    in the same paragraph made the depot's address someone's."""
    text = (
        "# Hausordnung Depot Nord\n\n**Muster AG · Depot Nord · Hafenstraße 61, 4020 Linz**\n"
        "Gültig ab 01.09.2024 · Verantwortlich: Jana Novak (Depotleiterin)\n"
    )
    start, end = span(text, "Hafenstraße 61, 4020 Linz")
    assert premises_address(text, start, end, people=[span(text, "Jana Novak")])
    # the same line with the person on it is hers
    text = "# Hausordnung Depot Nord\n\nDepot Nord · Jana Novak · Hafenstraße 61, 4020 Linz\n"
    start, end = span(text, "Hafenstraße 61, 4020 Linz")
    assert not premises_address(text, start, end, people=[span(text, "Jana Novak")])


@pytest.mark.parametrize(
    ("table", "value", "kept"),
    [
        # a supplier list: the row is about a company, its postcode and town are the company's
        ("Lief.-Nr. | Firma | PLZ / Ort | Ansprechpartner\nL-1 | Muster AG | 9200 Gossau SG | Beat Keller\n"
         "L-2 | Beispiel GmbH | 6850 Dornbirn | Anna Moser", "9200 Gossau SG", True),
        ("supplier,street,city\nNorthwind Ltd,12 Elm Close,Leeds\nContoso plc,4 Mill Lane,York", "12 Elm Close", True),
        # a person's record: no company cell in the row
        ("Name | PLZ / Ort\nBeat Keller | 9200 Gossau SG\nAnna Moser | 6850 Dornbirn", "9200 Gossau SG", False),
        # a company cell, but the address's own column says it is a home
        ("Firma | Privatadresse\nMuster AG | Hauptstraße 5, 70173 Stuttgart\nBeispiel GmbH | Ringweg 2, 10115 Berlin",
         "Hauptstraße 5, 70173 Stuttgart", False),
    ],
)  # fmt: skip
def test_an_address_in_a_table_row_about_an_organisation_is_the_organisations(
    table: str, value: str, kept: bool
) -> None:
    assert company_row_address(table, *span(table, value)) is kept
