"""Names read in their context: German text, product codes, coordinated phrases, countries, plurals
and labels; and table cells that take the decisions made on the document's text.

Each false person here was met in the sample corpus, where a placeholder took the place of the word a
question asks about ("Basel", "Park and Ride", "Wrist Seal Kit"); each true person beside it must stay
redacted.
"""

from __future__ import annotations

import json

import pytest

from strata_pipeline.redaction.name_layout import reads_german
from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector
from strata_pipeline.redaction.redact import redact_document
from strata_pipeline_tests.redaction.test_names import people


def test_reads_german_counts_function_words_around_a_position() -> None:
    german = "Die Abholung wird nach der Anmeldung bestätigt und ist für Haushalte kostenlos."
    english = "The collection is confirmed after you register and is free for households."
    assert reads_german(german, 10)
    assert not reads_german(english, 10)
    assert not reads_german("Restmüll", 0)  # too little text to tell


@pytest.mark.parametrize(
    "question, german",
    [
        ("Wie viele Tage Urlaub bekomme ich?", True),  # one function word ("wie"); "viele", "bekomme", "ich"
        ("Welche Lieferanten gewähren uns laut Lieferantenliste Skonto?", True),  # none at all
        ("How many days of leave does Anna get?", False),
        ("Combien de jours de congé avons-nous?", False),
    ],
)
def test_a_short_question_reads_german_by_its_lower_case_words(question: str, german: bool) -> None:
    assert reads_german(question, 0) is german


@pytest.mark.parametrize(
    "question, kept, person",
    [
        ("Wie viele Tage Urlaub bekomme ich?", "Tage Urlaub", None),
        ("Welche Lieferanten gewähren uns laut Lieferantenliste Skonto?", "Lieferantenliste Skonto", None),
        ("Wie viele Tage Urlaub hat Anna Becker im Jahr?", "Tage Urlaub", "Anna Becker"),
    ],
)
def test_a_german_question_keeps_its_nouns(ner: PresidioDetector, question: str, kept: str, person: str | None) -> None:
    # the English model tags "Tage Urlaub" a PERSON; read as German, after "viele", it is a noun phrase
    found = people(ner, question)
    assert kept not in found
    assert found == ([person] if person else [])


@pytest.mark.parametrize(
    "text, nouns",
    [
        (
            "Die Sperrmüllabholung wird nach der Anmeldung bestätigt. Stellen Sie den Sperrmüll am Abholtag "
            "bis 6:00 Uhr an den Straßenrand, und die Elektrogeräteabholung ist ein eigener Auftrag.",
            ["Sperrmüllabholung", "Abholtag", "Elektrogeräteabholung"],
        ),
        (
            "Bei einem Ausfall im Serverraum Basel informiert der Incident Manager die Standortleitung Basel "
            "und das Rechenzentrum wird auf den Ausweichstandort umgeschaltet.",
            ["Basel", "Serverraum Basel", "Standortleitung Basel"],
        ),
        (
            "In der Grundgebühr enthalten: Gelber Sack, Altpapiertonne und die Zufahrt über das Tor. "
            "Zusätzliche Säcke kosten 6,50 EUR je Sack; Fliesen werden nicht angenommen.",
            ["Gelber Sack", "Tor", "Sack", "Fliesen"],
        ),
    ],
)
def test_german_nouns_are_not_people(ner: PresidioDetector, text: str, nouns: list[str]) -> None:
    found = people(ner, text)
    assert not any(noun in found for noun in nouns), found


@pytest.mark.parametrize(
    "text, person",
    [
        (
            "Hat jemand die Handynummer von Frau Wróblewska aus der Buchhaltung? Sie ist heute im Homeoffice.",
            "Wróblewska",
        ),
        (
            "bitte überweisen Sie die Kaution auf folgendes Konto:\nKontoinhaber: Gottfried Eberhardinger\n"
            "Der Betrag wird nach dem Auszug zurückgezahlt.",
            "Gottfried Eberhardinger",
        ),
        ("Sehr geehrte Frau Nowak-Schulte,\nvielen Dank für Ihre Rückmeldung und die Unterlagen.", "Nowak-Schulte"),
    ],
)
def test_people_in_german_text_are_still_people(ner: PresidioDetector, text: str, person: str) -> None:
    assert person in people(ner, text)


@pytest.mark.parametrize(
    "text, thing",
    [
        ("# Wrist Seal Kit NR-4471-B\n\nReplacement seals for the revision B wrist.", "Wrist Seal Kit"),
        ("Yes. Park and Ride West (Westring exit) is free for drivers with a bus ticket.", "Park"),
        ("ZRH | 120 | ZRH-STAFF-WLAN | Office Wi-Fi SSID KF-Corp | 10.20.0.0/22", "Wi-Fi SSID"),
        ("COURIER CUT-OFF\n\nParts requested before 14:30 are shipped the same day.", "Parts"),
        ("The Porto depot supports customers in northern Portugal and in Galicia.", "Portugal"),
        ("Parts are shipped the same day for delivery within\nPortugal and to Galicia.", "Galicia"),
        ("Our customers in Bavaria are served from Munich.", "Bavaria"),
        ("| Amount | Approver |\n|---|---|\n| Above $5,000 | VP Finance |", "Finance"),
        ("The outpatient pharmacy at the Kestwick campus opens at 8:00.", "Kestwick"),
        ("job_id | service_type | garage | cost_eur\nMT-003 | tyres | Reifen Huber | 760", "Reifen Huber"),
        ("## Toner und Papier\n\n- Toner wird automatisch bestellt.", "Toner"),
        ("Dienstags ist das Kundencenter Weißbach geschlossen. Bitte kommen Sie am Montag.", "Weißbach"),
        ("Anfang November erhalten Sie eine Ablesekarte von uns. Bitte tragen Sie den Stand ein.", "Anfang"),
        ("iso_week | primary | secondary\n10 | Platform Squad Limmat | Network Squad Rhone", "Rhone"),
        ("Restore runs on **Barman 3.4** on the backup server.", "Barman"),  # a release number after it
        ("The archive_command to the Barman\nserver failed at 09:20.", "Barman"),  # a kind of software after it
        (
            "# Restore with Barman\n\nList the backups with `barman list-backup erp` first.\n",
            "Barman",
        ),  # a program the text runs as a command
        # lower-case words in text that capitalises its sentences are no lower-cased names
        ("Wheels:\n- Drive wheels and lidar windows are cleaned monthly.\n- Check the belts.", "lidar"),
        ("Place the tables at least 1.5 m from the kerb. Keep the footway clear. Ask first.", "kerb"),
        # a town after a premises noun and "de": the English NER reads it as a person
        ("# Consignes du dépôt de Lausanne\n\nLe dépôt de Lausanne ouvre à 5h30.", "Lausanne"),
        # a unit abbreviated after a number or a rate word: "Pal." (pallets), a given name in other languages
        (
            "Zone | 1 Pal. | 2–5 Pal. (je Pal.) | ab 11 Pal. (je Pal.)\nCH-1 | 95 | 78 | 58\nCH-2 | 118 | 96 | 71",
            "Pal",
        ),
    ],
)
def test_products_places_and_functions_are_not_people(ner: PresidioDetector, text: str, thing: str) -> None:
    assert not any(thing in found or found in thing for found in people(ner, text)), people(ner, text)


@pytest.mark.parametrize(
    "text, person",
    [
        ("Rating: exceeds expectations. Calibrated with HRBP Gulnara Sadykova and the panel.", "Gulnara Sadykova"),
        ("I met Jordan Whitfield and Anna Weber at the depot.", "Jordan Whitfield"),
        ("| Name | Approver |\n|---|---|\n| Travel | Maria Keller |", "Maria Keller"),
        ("Die Schlüssel haben Frau Taylor und Schmidt. Bitte dort melden.", "Schmidt"),
        ("Escalations go to the team Anna Kowalski leads.", "Anna Kowalski"),  # a given name after "team"
        ("Sehr geehrte Frau Weißbach, vielen Dank für Ihre Nachricht zum Zählerstand.", "Weißbach"),
        ("Das Kundencenter leitet Gottfried Weißbach seit dem Frühjahr.", "Gottfried Weißbach"),
        ("I met Georgia Lewis and Victoria at the depot in Hamburg.", "Georgia Lewis"),  # popular given names
        ("On call: Network Squad Rhone, backup Jonas Weber.", "Jonas Weber"),
        ("Maria Keller server access was revoked on Friday.", "Maria Keller"),  # a given name before "server"
        ("Approved by Anna Schmidt 12.03.2024. Run `ssh anna@db-01` to check.", "Anna Schmidt"),  # a date after
        ("talked to pernille yesterday\nshe said ok\nwill check", "pernille"),  # all lower case: a chat
        # a name that is also a city ("Milan"), under a header that says who wrote the row, in German and French
        (
            "Datum | Depot | Massnahme | Erfasst von\n11.04.2025 | Linz | Aggregat neu eingestellt | Milan Petrović\n"
            "12.04.2025 | Linz | Tür repariert | Milan Petrović",
            "Milan Petrović",
        ),
        (
            "Date | Dépôt | Mesure | Saisi par\n11.04.2025 | Lausanne | Groupe froid réglé | Milan Petrović\n"
            "12.04.2025 | Lausanne | Porte réparée | Milan Petrović",
            "Milan Petrović",
        ),
    ],
)
def test_people_beside_those_rules_stay_people(ner: PresidioDetector, text: str, person: str) -> None:
    assert any(person in found for found in people(ner, text)), people(ner, text)


def test_table_cells_take_the_decisions_made_on_the_documents_text(ner: PresidioDetector) -> None:
    # a CSV as extraction renders it: the text holds every row under its header
    text = (
        "## abfuhr\nBezirk | Abfallart | Ansprechpartner\nAltstadt | Restmüll | Maria Keller\n"
        "Nordstadt | Biomüll | Jonas Weber"
    )
    rows = [
        {"Bezirk": "Altstadt", "Abfallart": "Restmüll", "Ansprechpartner": "Maria Keller"},
        {"Bezirk": "Nordstadt", "Abfallart": "Biomüll", "Ansprechpartner": "Jonas Weber"},
    ]
    redaction, tables = redact_document(text, json.dumps({"abfuhr": rows}), ner, PiiPolicy())
    assert "Maria Keller" not in redaction.text and "Jonas Weber" not in redaction.text
    cells = json.loads(tables or "{}")["abfuhr"]
    assert [c["Abfallart"] for c in cells] == ["Restmüll", "Biomüll"]  # nouns the text kept stay
    placeholders = [c["Ansprechpartner"] for c in cells]
    assert placeholders == ["[PERSON_1]", "[PERSON_2]"]  # the text's own placeholders
    assert all(p in redaction.text for p in placeholders)


def test_a_cell_missing_from_the_text_is_read_on_its_own(ner: PresidioDetector) -> None:
    rows = [{"contact": "Please call Maria Keller on Monday."}]
    _, tables = redact_document("A short note.", json.dumps({"sheet": rows}), ner, PiiPolicy())
    assert "Maria Keller" not in (tables or "")
    assert "[PERSON_1]" in (tables or "")


def test_a_cell_that_is_only_part_of_a_longer_text_value_is_read_on_its_own(ner: PresidioDetector) -> None:
    # "Maria Keller" stands in the text only inside a company's name, which the text keeps
    text = "## suppliers\nsupplier | city\nMaria Kellermann GmbH | Bonn"
    rows = [{"contact": "Maria Keller"}]
    _, tables = redact_document(text, json.dumps({"contacts": rows}), ner, PiiPolicy())
    assert "Maria Keller" not in (tables or "")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a surname that is also a common word, after a popular given name
        ("Minutes were taken by Laurent Petit after the audit.", ["Laurent Petit"]),
        ("Escalations go to Gemma Hart from Monday.", ["Gemma Hart"]),
        # a role before a full name is no part of it
        ("Die Vorlage zeichnet Bürgermeisterin Claudia Vogt ab.", ["Claudia Vogt"]),
        ("Follow-up call booked by Team Leader Sinead Walsh.", ["Sinead Walsh"]),
        # an initial with its dot belongs to the name, and the lists write "O'Neill" without the apostrophe
        ("Present: Rahul Mehta, K. O'Neill.", ["Rahul Mehta", "K. O'Neill"]),
        ("Auditor: Mr R. Delacroix, for the certification body.", ["R. Delacroix"]),
        # "M." before a name is Monsieur, a title, not an initial
        ("Rédigé par M. Olivier Lambert.", ["Olivier Lambert"]),
        # the dative of "Herr" is a title too
        ("Nächster Termin mit Herrn Weiß.", ["Weiß"]),
    ],
)
def test_roles_titles_and_initials_around_a_name(ner: PresidioDetector, text: str, expected: list[str]) -> None:
    assert people(ner, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Met vriendelijke groet,\nKlantenservice Albert Heijn",  # a business's service desk named after its founder
        "C'mon, the rollout starts on Monday.",  # no "Cm" looked up as a name
    ],
)
def test_a_business_named_after_a_person_keeps_its_head(ner: PresidioDetector, text: str) -> None:
    assert people(ner, text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a role before a lone given name is no part of it, and counts for it
        ("Rückruf durch Kollegin Jana am Nachmittag.", ["Jana"]),
        # a noun before "von" is no part of the name after it ("Ludwig van Beethoven" is one name)
        ("Freigabe von Wolfgang bis Freitag.", ["Wolfgang"]),
    ],
)
def test_a_lone_given_name_after_a_role_or_a_noun(ner: PresidioDetector, text: str, expected: list[str]) -> None:
    assert people(ner, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a name in quotes after a word, or after a noun for a machine or a cell, names a thing
        ('Press "Margarete" ran at 92% OEE after the die change.', []),
        ("La presse « Marianne » fonctionne normalement depuis lundi.", []),
        ("The robot in cell Berta threw a fault twice, reset by the operator.", []),
        # a full name still counts, and so does a name after a role
        ('Press "Margarete" was serviced; Margarete Vogel signed the report.', ["Margarete Vogel"]),
        ("The operator Margarete reset the press.", ["Margarete"]),
    ],
)
def test_things_named_like_people(ner: PresidioDetector, text: str, expected: list[str]) -> None:
    assert people(ner, text) == expected


def test_a_delimited_row_without_spaces_keeps_each_name_whole(ner: PresidioDetector) -> None:
    # spaCy alone keeps 'INC-7,"Sudeshna' and '8,Margarete' one token each, so only the surnames were masked
    text = 'ticket,assignee\nINC-7,"Sudeshna Rao"\nINC-8,Margarete Vogel\n'
    assert people(ner, text) == ["Sudeshna Rao", "Margarete Vogel"]
    assert people(ner, "It costs 1,50 EUR for 3,200 units.") == []  # decimal commas stay inside numbers
