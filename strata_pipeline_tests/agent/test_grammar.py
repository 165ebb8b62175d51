"""Grammar readings of compound questions: list follow-ups, ellipsis, relative clauses, French clitics, and the
plans and comparisons built on them (examples from outside the sample corpus)."""

from __future__ import annotations

import pytest

from strata_pipeline.agent.grammar import (
    expand_ellipsis,
    has_object_clitic,
    list_of_count,
    relative_parts,
    resolve_clitic,
)
from strata_pipeline.agent.planner import FOUND_DOCUMENTS, head_noun, plan
from strata_pipeline.agent.references import entity_name, named_in


@pytest.mark.parametrize(
    ("first", "second", "listed"),
    [
        ("How many libraries open on Sundays?", "Which are they?", "Which libraries open on Sundays?"),
        ("How many invoices are overdue?", "Which ones?", "Which invoices are overdue?"),
        ("Wie viele Filialen haben samstags geöffnet?", "Welche sind es?", "Welche Filialen haben samstags geöffnet?"),
        ("Combien de bus partent après minuit ?", "Lesquels ?", "Quels bus partent après minuit ?"),
    ],
)
def test_a_which_follow_up_after_a_count_lists_what_was_counted(first: str, second: str, listed: str) -> None:
    assert list_of_count(first, second) == listed


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("How many invoices are overdue?", "Who approves them?"),  # a question of its own
        ("What is the fee?", "Which ones?"),  # nothing was counted
    ],
)
def test_other_follow_ups_are_no_list_of_the_count(first: str, second: str) -> None:
    assert list_of_count(first, second) == ""


@pytest.mark.parametrize(
    ("first", "second", "expanded"),
    [
        # a name: the first question asked of it
        ("How late is the Oslo branch open?", "Bergen?", "How late is the Bergen branch open?"),
        ("Quel est le tarif horaire à Nantes ?", "À Rennes ?", "Quel est le tarif horaire à Rennes ?"),
        # a prepositional phrase replaces the first question's phrase with the same preposition
        ("What is the fine for a first offence?", "For a second offence?", "What is the fine for a second offence?"),
        # a possessive noun phrase: the copula frame asked of that attribute of the thing named
        ("What is the height of the Ravel bridge?", "Its length?", "What is the length of Ravel?"),
        ("Quelle est la capacité du stade Delaune ?", "Sa surface ?", "Quelle est la surface de Delaune ?"),
    ],
)
def test_an_elliptic_follow_up_is_the_first_question_asked_again(first: str, second: str, expanded: str) -> None:
    assert expand_ellipsis(first, second) == expanded


@pytest.mark.parametrize(
    "second",
    ["Why?", "Who signs it?", "An wen wird der Antrag danach geschickt?", "And how long does it take?"],
)
def test_a_follow_up_with_a_verb_or_question_word_is_no_ellipsis(second: str) -> None:
    assert expand_ellipsis("What is the fine for a first offence in Oslo?", second) == ""


@pytest.mark.parametrize(
    ("question", "find", "ask"),
    [
        ("What is the phone number of the branch that lends e-readers?", "Which branch lends e-readers?",
         "What is the phone number of it?"),
        ("When is the deadline for the permit whose fee is waived for students?",
         "Which permit's fee is waived for students?", "When is the deadline for it?"),
        ("Quel est le numéro du bureau qui délivre les passeports ?", "Quel bureau délivre les passeports ?",
         "Quel est le numéro de celui-ci ?"),
        ("Wann schließt die Filiale, die E-Reader verleiht?", "Welche Filiale verleiht E-Reader?", "Wann schließt es?"),
    ],
)  # fmt: skip
def test_a_relative_clause_is_found_first_then_the_main_question_asked_of_it(
    question: str, find: str, ask: str
) -> None:
    assert relative_parts(question) == (find, ask)


def test_an_english_that_clause_without_an_owner_is_no_relative_to_find_first() -> None:
    # "the rule that ..." is what is asked, not a thing whose attribute is asked
    assert relative_parts("What is the rule that applies to night shifts?") is None


def test_a_relative_question_plan_finds_then_asks_within_what_it_found() -> None:
    planned = plan("What is the phone number of the branch that lends e-readers?")
    assert planned.form == "find_then_ask"
    assert [s.arguments["query"] for s in planned.steps] == [
        "Which branch lends e-readers?",
        "What is the phone number of it?",
    ]
    assert planned.steps[1].scope == FOUND_DOCUMENTS


def test_a_french_object_pronoun_refers_back_and_is_replaced_by_the_first_noun_phrase() -> None:
    assert has_object_clitic("Peut-on le prolonger ?")
    assert not has_object_clitic("Le musée est-il ouvert ?")
    assert resolve_clitic("Combien de temps dure le permis de stationnement ?", "Peut-on le prolonger ?") == (
        "Peut-on prolonger le permis de stationnement ?"
    )


@pytest.mark.parametrize(
    ("question", "queries"),
    [
        ("Vergleiche die Gebühr des Reisepasses und des Personalausweises",
         ["die Gebühr des Reisepasses", "die Gebühr des Personalausweises"]),
        ("Compare les tarifs du dimanche des piscines de Nantes et de Rennes",
         ["les tarifs du dimanche des piscines de Nantes", "les tarifs du dimanche des piscines de Rennes"]),
        # each side names its own attribute: two noun phrases, not one aspect of two owners
        ("Compare the late fee for books and the replacement cost of a lost card",
         ["the late fee for books", "the replacement cost of a lost card"]),
        ("Compare the opening hours of the north branch and the south branch",
         ["opening hours of the north branch", "opening hours of the south branch"]),
    ],
)  # fmt: skip
def test_comparisons_in_german_french_and_of_two_attributes(question: str, queries: list[str]) -> None:
    planned = plan(question)
    assert planned.form == "compare"
    assert [s.arguments["query"] for s in planned.steps] == queries


def test_a_fact_filter_followed_by_what_a_document_says_about_them_names_the_listed_things() -> None:
    planned = plan("The branches closed on Mondays and what the staff handbook says about working in them", facts=True)
    assert planned.form == "facts_then_search"
    assert planned.steps[0].arguments == {"request": "The branches closed on Mondays"}
    assert planned.steps[1].arguments["query"] == "{value} staff handbook working in branches"
    assert head_noun("Which permits expire this year") == "permits"
    assert head_noun("The address of the office") == ""


def test_the_document_a_which_question_found_is_the_one_its_answer_names() -> None:
    found = [("net/overview.md", "Network overview - all sites"), ("sites/bergen.md", "Branch support — Bergen office")]
    assert named_in(found, "Oslo is the hub; Bergen hosts the backup room.") == 1
    assert named_in(found, "No site is named here.") == 0
    assert entity_name("IT support — Bergen office") == "Bergen office"
    assert entity_name("Bergen Branch - Site Information") == "Bergen Branch"
