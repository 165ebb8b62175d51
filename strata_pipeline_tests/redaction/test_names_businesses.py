"""Branches, portals, currencies and businesses are not people, and a person beside each still is.

Each false person was met in the dev source-sets (insurance, hospital) or the fleet facts probe, where a
placeholder took the place of the word a question asks about.
"""

from __future__ import annotations

import pytest

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
