"""Comparisons with an elliptic second side and "how do A and B differ" questions (examples from outside the
sample corpus)."""

from __future__ import annotations

import pytest

from strata_pipeline.agent.comparison import compare_sides, differ, how_much_sides, than_sides
from strata_pipeline.agent.planner import plan


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        # the other side is a prepositional phrase: the subject asked with each
        ("Is bread more expensive in Graz than in Linz?",
         ("What is the price of bread in Graz?", "What is the price of bread in Linz?")),
        # a possessive: the other owner's attribute
        ("Is the Graz office's opening time later than Linz's?",
         ("When is the Graz office's opening time?", "When is the Linz office's opening time?")),
        # "the one" and "that of": the subject's head noun
        ("Is the fare for adults higher than the one for students?",
         ("How high is the fare for adults?", "How high is the fare for students?")),
        ("Is the fare for adults higher than that for students?",
         ("How high is the fare for adults?", "How high is the fare for students?")),
        # a whole noun phrase
        ("Is the ferry slower than the train?", ("How fast is the ferry?", "How fast is the train?")),
    ],
)  # fmt: skip
def test_each_side_of_an_elliptic_than_comparison_is_asked_its_degree(text: str, asks: tuple[str, str]) -> None:
    sides = than_sides(text)
    assert sides is not None
    assert (sides[0].ask, sides[1].ask) == asks


def test_a_than_comparison_that_differs_in_two_things_is_not_read() -> None:
    assert than_sides("Is the ferry slower in winter than the train?") is None
    assert than_sides("What is the fare?") is None


def test_how_much_more_asks_the_degree_of_each_side() -> None:
    sides = how_much_sides("How much longer does the ferry take in winter than in summer?")
    assert sides is not None
    assert [s.ask for s in sides] == [
        "How long does the ferry take in winter?",
        "How long does the ferry take in summer?",
    ]
    counted = how_much_sides("How many more rooms does the Graz hotel have than Linz?")
    assert counted is not None
    assert [s.ask for s in counted] == [
        "How many rooms does the Graz hotel have?",
        "How many rooms does the Linz hotel have?",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("How do the Graz and Linz offices differ in opening hours?",
         ("the Graz office", "the Linz office", "opening hours", "en")),
        ("How does the ferry differ from the train in price?", ("the ferry", "the train", "price", "en")),
        ("What is the difference in price between the ferry and the train?",
         ("the ferry", "the train", "price", "en")),
        ("Wie unterscheiden sich Graz und Linz bei den Öffnungszeiten?", ("Graz", "Linz", "den Öffnungszeiten", "de")),
        ("En quoi Nantes et Rennes diffèrent-elles pour le tarif ?", ("Nantes", "Rennes", "le tarif", "fr")),
    ],
)  # fmt: skip
def test_a_how_do_they_differ_question_gives_its_sides_and_aspect(
    text: str, expected: tuple[str, str, str, str]
) -> None:
    assert differ(text) == expected


def test_comparisons_plan_one_search_per_side() -> None:
    differing = plan("How do the Graz and Linz offices differ in opening hours?")
    assert differing.form == "compare"
    assert [s.ask for s in differing.steps] == [
        "What is the opening hours of the Graz office?",
        "What is the opening hours of the Linz office?",
    ]
    elliptic = plan("Is bread more expensive in Graz than in Linz?")
    assert [s.arguments["query"] for s in elliptic.steps] == [
        "What is the price of bread in Graz?",
        "What is the price of bread in Linz?",
    ]


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Does the Graz office or the Linz office have more desks?",
         ["How many desks does the Graz office have?", "How many desks does the Linz office have?"]),
        ("Is the ferry or the train faster?", ["How fast is the ferry?", "How fast is the train?"]),
        ("How many desks does the Graz office have compared with the Linz office?",
         ["How many desks does the Graz office have?", "How many desks does the Linz office have?"]),
        ("Ferry vs train: which is cheaper?", ["What is the price of Ferry?", "What is the price of train?"]),
        ("Which is cheaper, the ferry or the train, and by how much?",
         ["What is the price of the ferry?", "What is the price of the train?"]),
    ],
)  # fmt: skip
def test_more_comparison_forms_ask_each_side(text: str, asks: list[str]) -> None:
    assert [s.ask for s in plan(text).steps] == asks


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Ist das Brot in Graz teurer als in Linz?",
         ["Wie teuer ist das Brot in Graz?", "Wie teuer ist das Brot in Linz?"]),
        ("Hat das Büro Graz mehr Schalter als das Büro Linz?",
         ["Wie viele Schalter hat das Büro Graz?", "Wie viele Schalter hat das Büro Linz?"]),
        ("Ist die Fähre schneller als der Zug?", ["Wie schnell ist die Fähre?", "Wie schnell ist der Zug?"]),
    ],
)  # fmt: skip
def test_a_german_als_comparison_asks_each_side_its_degree(text: str, asks: list[str]) -> None:
    assert [s.ask for s in plan(text).steps] == asks


def test_a_plural_the_sides_share_and_a_criterion_after_a_dash() -> None:
    sides = compare_sides(
        "Compare the mobile backup links of the Stuttgart and Lyon sites - which one has more bandwidth?"
    )
    assert sides is not None
    assert [label for _, label, _ in sides] == ["the Stuttgart site", "the Lyon site"]
    assert [query for query, _, _ in sides] == [
        "mobile backup links of the Stuttgart site",
        "mobile backup links of the Lyon site",
    ]
    depots = compare_sides("Compare the Saturday opening hours of the Lisbon and Porto depots")
    assert depots is not None and [label for _, label, _ in depots] == ["the Lisbon depot", "the Porto depot"]
