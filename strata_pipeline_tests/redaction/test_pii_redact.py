"""Personal-data redaction with the real Presidio analyzer (spaCy NER and the regex-only backend)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector
from strata_pipeline.redaction.redact import Placeholders, Redaction, redact_tables, redact_text

# The `ner` and `regex` detectors are session fixtures (conftest.py).


def redact(text: str, detector: PresidioDetector) -> Redaction:
    return redact_text(text, detector, PiiPolicy())


def test_detector_names(ner: PresidioDetector, regex: PresidioDetector) -> None:
    assert ner.name == "presidio-ner"
    assert regex.name == "presidio-regex"
    assert ner.detect("") == []
    assert ner.detect("   \n ") == []
    text = "Ask Maria Fernandes at maria@corp.internal."
    assert [(f.entity, f.detector) for f in ner.detect(text)] == [
        ("PERSON", "presidio-ner:StrataPersonRecognizer"),
        ("EMAIL", "presidio-ner:StrataEmailRecognizer"),
    ]


def test_same_person_twice_gets_the_same_placeholder(ner: PresidioDetector) -> None:
    text = (
        "Contact: Maria Fernandes (maria.fernandes@northwind-robotics.example, +1 415-555-0178). "
        "Maria Fernandes will meet you at reception."
    )
    result = redact(text, ner)
    assert result.text == "Contact: [PERSON_1] ([EMAIL_1], [PHONE_1]). [PERSON_1] will meet you at reception."
    assert result.counts() == {"PERSON": 2, "EMAIL": 1, "PHONE": 1}


def test_two_people_get_numbered_placeholders_in_order_of_appearance(ner: PresidioDetector) -> None:
    text = "Please ask Jonas Weber or Lena Hoffmann about payroll. Jonas Weber signs the contracts."
    result = redact(text, ner)
    assert result.text == "Please ask [PERSON_1] or [PERSON_2] about payroll. [PERSON_1] signs the contracts."
    assert [(a.entity, a.placeholder) for a in result.audit] == [
        ("PERSON", "[PERSON_1]"),
        ("PERSON", "[PERSON_2]"),
        ("PERSON", "[PERSON_1]"),
    ]


def test_every_type_is_redacted_with_a_typed_placeholder(ner: PresidioDetector) -> None:
    text = (
        "Payroll contact: Lena Hoffmann, phone +1 415-555-0162, IBAN DE89370400440532013000, "
        "email lena.hoffmann@northwind-robotics.example. Card 4111 1111 1111 1111 was charged "
        "from 192.168.40.17."
    )
    result = redact(text, ner)
    assert result.text == (
        "Payroll contact: [PERSON_1], phone [PHONE_1], IBAN [IBAN_1], email [EMAIL_1]. "
        "Card [CREDIT_CARD_1] was charged from [IP_ADDRESS_1]."
    )
    assert result.counts() == {"PERSON": 1, "PHONE": 1, "IBAN": 1, "EMAIL": 1, "CREDIT_CARD": 1, "IP_ADDRESS": 1}


def test_placeholders_ignore_case_of_the_value(ner: PresidioDetector) -> None:
    text = "Send it to LENA.HOFFMANN@northwind-robotics.example and later to lena.hoffmann@northwind-robotics.example."
    assert redact(text, ner).text == "Send it to [EMAIL_1] and later to [EMAIL_1]."


def test_role_mailboxes_are_kept(ner: PresidioDetector) -> None:
    text = (
        "Reach support@northwind-robotics.example, it-helpdesk@northwind-robotics.example, "
        "no-reply@x.example or maria@corp.internal."
    )
    result = redact(text, ner)
    assert result.text == (
        "Reach support@northwind-robotics.example, it-helpdesk@northwind-robotics.example, "
        "no-reply@x.example or [EMAIL_1]."
    )
    assert [(a.entity, a.decision) for a in result.audit] == [
        ("EMAIL", "keep_role_contact"),
        ("EMAIL", "keep_role_contact"),
        ("EMAIL", "keep_role_contact"),
        ("EMAIL", "redact"),
    ]
    assert result.counts() == {"EMAIL": 1}


def test_title_cased_heading_is_not_a_person(ner: PresidioDetector) -> None:
    text = "## Encoder Mismatch\n\nIf the Encoder Mismatch error appears, run the Home Calibration Routine."
    result = redact(text, ner)
    assert result.text == text
    assert result.counts() == {}
    # The heading may be scored as a name candidate, but below the PERSON threshold.
    assert all(a.decision == "below_threshold" for a in result.audit if a.entity == "PERSON")


def test_a_span_ending_on_a_particle_is_not_a_name_but_a_name_with_particles_is(ner: PresidioDetector) -> None:
    # the English NER tags the German "Anzahl der" ("number of") as a person
    assert redact("Anzahl der VLANs pro Standort", ner).text == "Anzahl der VLANs pro Standort"
    assert redact("Please call Jan van der Berg about the audit.", ner).text == (
        "Please call [PERSON_1] about the audit."
    )


def test_honorific_makes_a_surname_a_person(ner: PresidioDetector) -> None:
    assert redact("Ask Dr. Okafor about the results.", ner).text == "Ask Dr. [PERSON_1] about the results."


def test_audit_entries_never_contain_the_raw_value(ner: PresidioDetector) -> None:
    values = [
        "Lena Hoffmann",
        "+1 415-555-0162",
        "DE89370400440532013000",
        "lena.hoffmann@corp.internal",
        "Wint3r-Fa1c0n",
    ]
    text = (
        f"Payroll contact: {values[0]}, phone {values[1]}, IBAN {values[2]}, email {values[3]}.\n"
        f"password: {values[4]}\n"
    )
    result = redact(text, ner)
    assert result.counts() == {"PERSON": 1, "PHONE": 1, "IBAN": 1, "EMAIL": 1, "SECRET": 1}
    for entry in result.audit:
        serialised = json.dumps(dataclasses.asdict(entry))
        assert not any(value in serialised for value in values), serialised
    # Offsets point at the value in the original text, so the audit can be checked later.
    redacted = sorted((a.entity, text[a.start : a.start + a.length]) for a in result.audit if a.decision == "redact")
    assert redacted == sorted(zip(["PERSON", "PHONE", "IBAN", "EMAIL", "SECRET"], values, strict=True))
    assert not any(value in result.text for value in values)


def test_secret_wins_over_personal_data_inside_it(ner: PresidioDetector) -> None:
    text = "Owner: jonas.weber@corp.internal\nuser: jonas.weber@corp.internal:Falcon2019!\n"
    result = redact(text, ner)
    assert result.text == "Owner: [EMAIL_1]\nuser: [EMAIL_1]:[REDACTED_SECRET]\n"
    secret = [a for a in result.audit if a.entity == "SECRET"]
    assert [(a.detector, a.placeholder, a.score) for a in secret] == [
        ("secret:email_password", "[REDACTED_SECRET]", 1.0)
    ]


def test_regex_backend_finds_contacts_and_iban_but_no_person(regex: PresidioDetector) -> None:
    text = (
        "Payroll contact: Lena Hoffmann, phone +1 415-555-0162, IBAN DE89370400440532013000, "
        "email lena.hoffmann@northwind-robotics.example. Jonas Weber approves."
    )
    findings = regex.detect(text)
    assert [(f.entity, text[f.start : f.end]) for f in findings] == [
        ("PHONE", "+1 415-555-0162"),
        ("IBAN", "DE89370400440532013000"),
        ("EMAIL", "lena.hoffmann@northwind-robotics.example"),
    ]
    # "<backend>:<recogniser>": which Presidio recogniser made each finding
    assert [f.detector for f in findings] == [
        "presidio-regex:StrataNumberRecognizer",
        "presidio-regex:IbanRecognizer",
        "presidio-regex:StrataEmailRecognizer",
    ]
    result = redact(text, regex)
    assert result.text == (
        "Payroll contact: Lena Hoffmann, phone [PHONE_1], IBAN [IBAN_1], email [EMAIL_1]. Jonas Weber approves."
    )


def test_internal_domains_are_emails(regex: PresidioDetector) -> None:
    text = "Write to jonas.weber@corp.internal today."
    assert [(f.entity, text[f.start : f.end], f.score) for f in regex.detect(text)] == [
        ("EMAIL", "jonas.weber@corp.internal", 0.9)
    ]


def test_placeholders_are_shared_across_a_documents_tables(ner: PresidioDetector) -> None:
    tables = {
        "Contacts": [
            {"name": "Lena Hoffmann", "email": "lena.hoffmann@corp.internal", "ext": 4410},
            {"name": "Jonas Weber", "email": "support@corp.internal", "ext": 4411},
        ],
        "Escalation": [{"first": "lena.hoffmann@corp.internal", "note": " "}],
    }
    placeholders = Placeholders()
    redacted = json.loads(redact_tables(json.dumps(tables), ner, PiiPolicy(), placeholders))
    assert redacted == {
        "Contacts": [
            {"name": "[PERSON_1]", "email": "[EMAIL_1]", "ext": 4410},
            {"name": "[PERSON_2]", "email": "support@corp.internal", "ext": 4411},
        ],
        "Escalation": [{"first": "[EMAIL_1]", "note": " "}],
    }
    assert placeholders.for_value("EMAIL", "someone.else@corp.internal") == "[EMAIL_2]"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A whole postal address (street, unit, postcode, city, state) is one placeholder.
        (
            "Ship it to 221 Baker Street, London NW1 6XE or to 1600 Amphitheatre Parkway, Suite 400, "
            "Mountain View, CA 94043.",
            "Ship it to [ADDRESS_1] or to [ADDRESS_2].",
        ),
        (
            "Neue Adresse: Hauptstraße 5, 10115 Berlin; vorher Lindenstraße 27a, 80331 München.",
            "Neue Adresse: [ADDRESS_1]; vorher [ADDRESS_2].",
        ),
        (
            "Siège: 12, rue de la Paix, 75002 Paris. Oficina: Calle de Alcalá 42, Madrid. Sede: Via Roma, 12, Milano.",
            "Siège: [ADDRESS_1]. Oficina: [ADDRESS_2]. Sede: [ADDRESS_3].",
        ),
        (
            "The White House is at 1600 Pennsylvania Ave NW, Washington, DC 20500.",
            "The White House is at [ADDRESS_1].",
        ),
        # A year or a chapter number after a word is not a house number.
        ("During 2013 we moved to Chapter 12 of the plan.", "During 2013 we moved to Chapter 12 of the plan."),
    ],
)
def test_street_addresses(regex: PresidioDetector, text: str, expected: str) -> None:
    assert redact(text, regex).text == expected


def test_phone_numbers_in_national_and_international_formats(regex: PresidioDetector) -> None:
    text = (
        "Call +1 415-555-0134, (415) 555-0134, +44 20 7946 0958, +49 30 123456, +33 1 42 68 53 00, "
        "645 223 734 or 347 123 4567."
    )
    assert redact(text, regex).text == (
        "Call [PHONE_1], [PHONE_2], [PHONE_3], [PHONE_4], [PHONE_5], [PHONE_6] or [PHONE_7]."
    )


def test_numbers_that_are_not_phone_numbers_or_ip_addresses(regex: PresidioDetector) -> None:
    text = "Order #344246 was paid on 2025-03-14 for EUR 4,168.50. Client version 4.2.0.1 is current."
    result = redact(text, regex)
    assert result.text == text
    assert [a.decision for a in result.audit if a.entity == "IP_ADDRESS"] == ["version_number"]


def test_iban_before_a_four_letter_word_and_mastercard_2_series(regex: PresidioDetector) -> None:
    text = "Salary goes to ES3018437246157675645213 from March; card 2223 0031 2200 3222 was charged."
    assert redact(text, regex).text == "Salary goes to [IBAN_1] from March; card [CREDIT_CARD_1] was charged."


def test_ner_tag_around_an_ip_does_not_hide_it(ner: PresidioDetector) -> None:
    text = "16:04:07Z sign-in success user=gregory@corp.internal src=192.168.38.128 app=portal"
    assert redact(text, ner).text == "16:04:07Z sign-in success user=[EMAIL_1] src=[IP_ADDRESS_1] app=portal"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Attendees: Melina Guidotti, Vitus Niemeier and Lodovico Morrocco",
            "Attendees: [PERSON_1], [PERSON_2] and [PERSON_3]",
        ),
        (
            "Attendees: Melina Guidotti; Vitus Niemeier; Lodovico Morrocco",
            "Attendees: [PERSON_1]; [PERSON_2]; [PERSON_3]",
        ),
        ("Orazio was contacted.", "[PERSON_1] was contacted."),
        (
            "ID;Name;Email\n86407;Luke Rhodes;luke.rhodes@corp.example\n86408;Aino Hämäläinen;aino@corp.example",
            "ID;Name;Email\n86407;[PERSON_1];[EMAIL_1]\n86408;[PERSON_2];[EMAIL_2]",
        ),
        ("| Griffin, Mark | SRE |", "| [PERSON_1] | SRE |"),
        (
            "[10:02] Sarah: can someone look at this?\n[10:03] anna.k: on it",
            "[10:02] [PERSON_1]: can someone look at this?\n[10:03] [PERSON_2]: on it",
        ),
        ("Ms Poole called; Sr. Lledó approved.", "Ms [PERSON_1] called; Sr. [PERSON_2] approved."),
        ("Kind regards,\nJonas Weber", "Kind regards,\n[PERSON_1]"),
        # given names inside the names of places, rooms and firms are not people
        ("Taxi from Victoria Station to Room Aurora.", "Taxi from Victoria Station to Room Aurora."),
        ("Customer: Pedro y Asociados S.L.", "Customer: Pedro y Asociados S.L."),
        ("Customer: Bachmann GmbH (account 4411)", "Customer: Bachmann GmbH (account 4411)"),
    ],
)
def test_names(ner: PresidioDetector, text: str, expected: str) -> None:
    assert redact(text, ner).text == expected
