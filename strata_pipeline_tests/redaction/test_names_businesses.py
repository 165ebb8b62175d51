"""Branches, portals, currencies and businesses are not people, and a person beside each still is.

Each false person was met in the dev source-sets (insurance, hospital) or the fleet facts probe, where a
placeholder took the place of the word a question asks about.
"""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.name_cues import holds_organisations
from strata_pipeline.redaction.pii import PresidioDetector
from strata_pipeline_tests.redaction.test_names import people


@pytest.mark.parametrize(
    "text, thing, person",
    [
        # a country after a branch noun is where the branch is
        (
            "Les contrats de la succursale de Luxembourg sont gérés par Madame Claire Dubois.",
            "Luxembourg",
            "Claire Dubois",
        ),
        (
            "title: Résiliation d'un contrat (succursale de Luxembourg)\nOwner: Jonas Weber",
            "Luxembourg",
            "Jonas Weber",
        ),
        ("Die Niederlassung Österreich leitet Frau Anna Gruber.", "Österreich", "Anna Gruber"),
        # "my" before a capitalised word names a thing one has: a portal, an account
        (
            'Customers can download it in the portal "Mein Asterra" or ask Mark Weber for one.',
            "Asterra",
            "Mark Weber",
        ),
        ('Der Chat im Kundenportal "Mein Asterra" ist mit Herrn Weber besetzt.', "Asterra", "Weber"),
        # a currency after an amount is the unit, even when it is a given name
        (
            "Die Versicherungssumme beträgt höchstens 45.000 Mark. Den Antrag prüft Mark Becker.",
            "Mark",
            "Mark Becker",
        ),
        ("The fee was 200 Rand, paid by Rand Paulsen.", "Rand", "Rand Paulsen"),
        # a workshop named by a German business noun or a Garage/Werkstatt head
        (
            "Combien d'heures de travail chez Autohaus Nord ? Demandez à Pierre Garnier.",
            "Autohaus Nord",
            "Pierre Garnier",
        ),
        (
            "Le véhicule est chez Garage Rhône depuis lundi; contact: Pierre Garnier.",
            "Garage Rhône",
            "Pierre Garnier",
        ),
    ],
)
def test_a_business_word_survives_and_a_person_beside_it_does_not(
    ner: PresidioDetector, text: str, thing: str, person: str
) -> None:
    found = people(ner, text)
    assert not any(thing in value for value in found if person not in value), found
    assert any(person in value for value in found), found


@pytest.mark.parametrize(
    "text, person",
    [
        ("Mark Weber paid 300 Mark in cash.", "Mark Weber"),  # a full name is no unit
        ("In 2019 Mark joined the claims team.", "Mark"),  # a year, then a name that is no currency
        ("Liebe Grüße\nDein Max", "Max"),  # "Dein" signs a letter: it is no possessive of a thing
        ("The Luxembourg office is run by Luxembourg Smith.", "Luxembourg Smith"),
    ],
)
def test_names_near_those_cues_stay_names(ner: PresidioDetector, text: str, person: str) -> None:
    assert any(person in value for value in people(ner, text)), people(ner, text)


@pytest.mark.parametrize(
    "header, holds",
    [
        ("Firma", True),
        ("PLZ / Ort", True),  # one part names the place
        ("Beliefert Depots", True),  # the last word, in the plural
        ("Delivery sites", True),
        ("Hersteller / Modell", True),
        ("Standorte", True),
        ("Ansprechpartner", False),
        ("Kontakt / Firma", False),  # a part that may hold a person's name
        ("Firma / Ansprechpartner", False),
        ("Depot manager", False),
        ("Bemerkung", False),
    ],
)
def test_a_column_of_organisations_or_places_is_read_from_its_header(header: str, holds: bool) -> None:
    assert holds_organisations(header) is holds


def test_towns_a_supplier_delivers_to_are_no_people_and_its_contacts_are(ner: PresidioDetector) -> None:
    """A supplier list as exported: the depots a supplier serves under "Beliefert Depots", its postcode and
    town under "PLZ / Ort". Before, rows with as many commas in their depot lists were read as a comma table
    across the "|" table, so the towns lost their column, and one town the NER read as a person lifted the
    same word in every other row."""
    table = """Lief.-Nr. | Firma | PLZ / Ort | Beliefert Depots | Ansprechpartner | Telefon
L-00 | Molkerei Alpstein AG | 9100 Herisau | Innsbruck, Lausanne | Beat Zellweger | +41 71 388 12 40
L-01 | Bergkäserei Tux eGen | 6293 Tux | Salzburg, Linz, Innsbruck | Johanna Kröll | +41 71 388 12 41
L-02 | Fleischwaren Moser GmbH | 6850 Dornbirn | Linz, Chur | Karin Böhler | +41 71 388 12 42
L-03 | Glacerie Riond SA | 1630 Bulle | Innsbruck, Lausanne, Salzburg | Marc Ropraz | +41 71 388 12 43
L-04 | Fisch Handels GmbH | 4020 Linz | Salzburg, Lausanne, St. Gallen, Linz | Gerhard Aigner | +41 71 388 12 44
L-05 | Tiefkühlkost AG | 8590 Romanshorn | Lausanne, Innsbruck, Linz | Sandra Frei | +41 71 388 12 45
L-06 | Bäckerei Knecht AG | 9450 Altstätten SG | Linz, Salzburg, Chur, Lausanne | Urs Bänziger | +41 71 388 12 46
L-07 | Gemüse Tirol GmbH | 6060 Hall in Tirol | St. Gallen, Lausanne, Linz | Petra Moosbrugger | +41 71 388 12 47"""
    contacts = [line.split(" | ")[4] for line in table.splitlines()[1:]]
    assert sorted(people(ner, table)) == sorted(contacts)
