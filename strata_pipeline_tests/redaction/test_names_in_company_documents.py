"""People and the company's own name in a company's documents: the cases a blind German corpus (a gear-motor
maker's purchasing, finance and site documents, written by a helper who saw no code) found leaking or masked.
Each person here leaked before; each kept word was masked."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.documents import policy_for_set
from strata_pipeline.redaction.name_evidence import titled
from strata_pipeline.redaction.name_index import name_index
from strata_pipeline.redaction.organisations import named_organisations
from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector
from strata_pipeline.redaction.redact import redact_text
from strata_pipeline_tests.redaction.test_names import people


@pytest.mark.parametrize(
    "text, expected",
    [
        # a common noun before "von" is no part of the name ("Ludwig van Beethoven" is one name)
        ("Für Werk Augsburg ist das Team von Sabine Wolters zuständig.", ["Sabine Wolters"]),
        # a popular given name and a listed surname in a table, which the small model calls an ORG
        (
            "KST | Bezeichnung | Werk | Verantwortlich\n2100 | Einkauf Augsburg | Augsburg | Günther Maier\n"
            "2150 | Einkauf Chemnitz | Chemnitz | Jens Hartig",
            ["Günther Maier", "Jens Hartig"],
        ),
        # a German header whose head is a role: the column lists people
        (
            "KST | Bezeichnung | Bereich | Kostenstellenverantwortlich\n2100 | Einkauf Augsburg | Einkauf | "
            "Jens Hartig\n6500 | Vertriebsbüro Lyon | Vertrieb | Claire Dubois",
            ["Jens Hartig", "Claire Dubois"],
        ),
        # a common word that is an accepted name's surname after a title, or its given name alone
        ("Zuständig: Kerstin Lange. Frau Lange unterschreibt die Begleitscheine.", ["Kerstin Lange", "Lange"]),
        (
            "Présents : Claire Dubois, Julien Moreau. Julien relancera les leads. Claire souhaite revenir en 2026.",
            ["Claire Dubois", "Julien Moreau", "Julien", "Claire"],
        ),
    ],
)
def test_people_in_company_documents(ner: PresidioDetector, text: str, expected: list[str]) -> None:
    assert people(ner, text) == expected


def test_a_title_still_opens_a_name_with_a_particle(ner: PresidioDetector) -> None:
    assert people(ner, "Gespräch mit Frau von Berg am Montag.") == ["von Berg"]


SET = [
    "Kessler Antriebstechnik GmbH – Reisekostenrichtlinie 2025",
    "Kessler Antriebstechnik GmbH | Personalabteilung",
    "Lieferant: Hoffmann Lagertechnik GmbH. Kessler Antriebstechnik GmbH, Augsburg.",
    "This guide explains how to connect to the Kessler network with your Kessler user account. "
    "Herr Kessler approves exceptions; Anna Kessler is on leave.",
]


def test_the_first_word_of_a_legal_name_several_documents_write_is_an_organisation() -> None:
    found = named_organisations(SET, name_index())
    assert found == frozenset({"Kessler"})  # Hoffmann's name is in one document only
    assert named_organisations(["Thomas Cook Ltd"] * 3, name_index()) == frozenset()  # a popular given name


def test_the_company_name_alone_is_kept_and_a_titled_or_full_name_is_masked(ner: PresidioDetector) -> None:
    policy = policy_for_set(SET, PiiPolicy())
    assert policy.organisations == frozenset({"Kessler"})
    redacted = redact_text(SET[3], ner, policy).text
    assert "the Kessler network with your Kessler user account" in redacted
    assert "Herr [PERSON_" in redacted and "Anna Kessler" not in redacted
    assert titled("Herr Kessler", 5) and not titled("the Kessler", 4)
