"""Coreference and quantifier rules of the offline planner (agent/coreference.py) and the plans they give."""

from __future__ import annotations

import pytest

from strata_pipeline.agent.coreference import (
    bind_demonstrative,
    distributive,
    owner_phrase,
    pair_question,
    resolve_possessive,
    self_contained,
)
from strata_pipeline.agent.grammar import expand_ellipsis
from strata_pipeline.agent.planner import EACH_VALUE, FOUND_DOCUMENTS, plan


@pytest.mark.parametrize(
    ("question", "canonical"),
    [
        ("Which of Oslo and Bergen has the larger warehouse?", "Which has the larger warehouse, Oslo or Bergen?"),
        # a shared plural head noun is given to both modifiers
        (
            "Which of the Ghent and Bruges offices is open longer on Fridays?",
            "Which is open longer on Fridays, the Ghent office or the Bruges office?",
        ),
        ("Which one of the X-1 and the X-2 weighs more?", "Which weighs more, the X-1 or the X-2?"),
        ("Lequel de la pompe A et la pompe B est plus lourd ?", "Lequel est plus lourd, la pompe A ou la pompe B ?"),
    ],
)
def test_which_of_a_pair_is_asked_as_a_choice_between_two(question: str, canonical: str) -> None:
    assert pair_question(question) == canonical


@pytest.mark.parametrize(
    "question",
    ["Which of the offices opens first?", "Which of Oslo and Bergen hosts the archive?", "What is the price of A?"],
)
def test_no_pair_question_without_two_sides_and_a_comparative(question: str) -> None:
    assert pair_question(question) == ""


def test_a_pair_question_plans_one_degree_question_per_side() -> None:
    p = plan("Which of the Ghent and Bruges depots has more loading docks?")
    assert p.form == "compare"
    assert [s.arguments["query"] for s in p.steps] == [
        "How many loading docks does the Ghent depot have?",
        "How many loading docks does the Bruges depot have?",
    ]


@pytest.mark.parametrize(
    ("question", "reading"),
    [
        (
            "For each pump in building C, what does the maintenance manual say about seals?",
            "pumps in building C, and what does the maintenance manual say about seals?",
        ),
        (
            "For every contract with a penalty clause, what does the procurement policy say about it?",
            "contracts with a penalty clause, and what does the procurement policy say about it?",
        ),
        (
            "Für jeden Lieferanten in Bern, was sagt die Richtlinie über Fristen?",
            "Lieferanten in Bern, und was sagt die Richtlinie über Fristen?",
        ),
        ("Pour chaque site, que dit la politique sur les clés ?", "site, et que dit la politique sur les clés ?"),
    ],
)
def test_a_for_each_question_is_a_filter_and_its_follow_up(question: str, reading: str) -> None:
    assert distributive(question) == reading
    assert distributive("What does the manual say about seals?") == ""


def test_a_for_each_question_plans_the_filter_then_one_search_per_value() -> None:
    p = plan("For each pump in building C, what does the maintenance manual say about seals?", facts=True)
    assert p.form == "facts_then_search"
    assert p.steps[0].tool == "query_facts"
    assert p.steps[0].arguments["request"] == "pumps in building C"
    assert p.steps[1].scope == EACH_VALUE
    assert p.steps[1].arguments["query"] == "{value} maintenance manual seals"


def test_an_attribute_question_is_no_fact_filter() -> None:
    # "what is the X of Y, and what does the policy say about it": two searches, the second on Y
    question = "What is the lifetime of the K-9 filter, and what does the service manual say about cleaning it?"
    p = plan(question, facts=True)
    assert p.form == "find_then_ask"
    assert [s.tool for s in p.steps] == ["semantic_search", "semantic_search"]
    assert p.steps[1].arguments["query"] == "What does the service manual say about cleaning the K-9 filter?"


@pytest.mark.parametrize(
    ("question", "owner"),
    [
        ("What is the escalation contact of the Oslo data center?", "the Oslo data center"),
        ("What is the P2 response target for the HR portal?", "the HR portal"),
        ("What are the opening hours at the Ghent depot on Saturdays?", "the Ghent depot"),
        ("What is the price of the Zürich and Basel licences?", ""),  # coordinated: no single owner
        ("What is the price of a spare battery?", ""),  # names nothing
        ("How long is parental leave?", ""),
    ],
)
def test_the_owner_of_the_attribute_asked(question: str, owner: str) -> None:
    assert owner_phrase(question) == owner


def test_its_stands_for_the_owner_not_for_a_modifier_of_the_attribute() -> None:
    p = plan("What is the P2 response target of the HR portal, and who runs it?")
    assert p.steps[1].arguments["query"] == "Who runs the HR portal?"
    assert p.steps[1].scope == FOUND_DOCUMENTS


@pytest.mark.parametrize(
    ("clause", "contained"),
    [
        ("Who approves a refund if the manager rejects it?", True),
        ("What happens to an alarm when nobody clears it?", True),
        ("Who approves it if the manager is away?", False),
        ("How long does it take?", False),
    ],
)
def test_a_pronoun_after_an_indefinite_of_its_own_clause_is_no_back_reference(clause: str, contained: bool) -> None:
    assert self_contained(clause) is contained


def test_a_self_contained_follow_up_is_asked_on_its_own() -> None:
    p = plan("What is the travel allowance for interns, and who approves a refund if the manager rejects it?")
    assert p.form == "two_questions"
    assert p.steps[1].arguments["query"] == "Who approves a refund if the manager rejects it?"
    assert p.steps[1].scope == ""


@pytest.mark.parametrize(
    ("question", "owner", "resolved"),
    [
        ("Quelle est son autonomie ?", "X-7", "Quelle est l'autonomie de X-7 ?"),
        ("Quelle est sa vitesse ?", "X-7", "Quelle est la vitesse de X-7 ?"),
        ("Wie hoch ist seine Traglast?", "X-7", "Wie hoch ist die Traglast von X-7?"),
        ("Quelle est son autonomie ?", "", "Quelle est son autonomie ?"),
        ("Wie hoch ist die Traglast?", "X-7", "Wie hoch ist die Traglast?"),
    ],
)
def test_a_foreign_possessive_names_its_owner(question: str, owner: str, resolved: str) -> None:
    assert resolve_possessive(question, owner) == resolved


def test_quel_est_asks_what_so_the_follow_up_is_about_the_named_thing() -> None:
    p = plan("Quel est le prix du X-7, et quelle est sa garantie ?")
    assert p.form == "find_then_ask"
    assert p.steps[1].arguments["query"] == "Quelle est la garantie de X-7 ?"
    assert p.steps[1].refer == ""


def test_a_superlative_then_a_back_reference_follows_up_the_top_group() -> None:
    p = plan("Which plant has the most boilers, and who is its safety officer?", facts=True)
    assert p.form == "facts_then_search"
    assert p.steps[0].arguments == {"request": "Number of boilers per plant"}
    assert p.steps[0].pick == "most"
    assert p.steps[1].scope == EACH_VALUE
    assert p.steps[1].arguments["query"] == "Who is {value}'s safety officer?"
    # without the facts tool, the thing found by search is followed up
    assert plan("Which plant has the most boilers, and who is its safety officer?").form == "find_then_ask"


def test_german_pronominal_adverbs_refer_back() -> None:
    p = plan("Wie viele Urlaubstage gibt es pro Jahr, und wie viele davon verfallen?")
    assert p.form == "find_then_ask"
    assert p.steps[1].scope == FOUND_DOCUMENTS


def test_a_clause_opens_after_a_compound_preposition() -> None:
    p = plan("Wie oft wird der Filter getauscht, und unterhalb welchen Drucks muss er getauscht werden?")
    assert len(p.steps) == 2
    p = plan("Tous les combien change-t-on le filtre, et en dessous de quelle pression faut-il le changer ?")
    assert p.steps[1].arguments["query"] == "En dessous de quelle pression faut-il changer le filtre ?"


@pytest.mark.parametrize(
    ("first", "second", "expanded"),
    [
        (
            "Combien de jours de congé pour un stagiaire à temps plein ?",
            "Combien pour un stagiaire à temps partiel ?",
            "Combien de jours de congé pour un stagiaire à temps partiel ?",
        ),
        (
            "How many parking permits are issued for residents of zone A?",
            "How many for residents of zone B?",
            "How many parking permits are issued for residents of zone B?",
        ),
    ],
)
def test_a_repeated_question_word_before_a_phrase_is_elliptic(first: str, second: str, expanded: str) -> None:
    assert expand_ellipsis(first, second) == expanded


@pytest.mark.parametrize(
    ("question", "bound"),
    [
        ("When does that wave run?", "When does wave2 run?"),
        ("Who owns this team?", "Who owns Database Ops?"),
        ("What does that site report?", "What does ZRH report?"),
        ("When does it run?", ""),  # no demonstrative
        ("When does that window open?", ""),  # no column is named "window"
    ],
)
def test_a_demonstrative_stands_for_the_value_of_the_column_it_names(question: str, bound: str) -> None:
    header = ("hostname", "site", "owner_team", "patch_wave")
    cells = ("zrh-db-03", "ZRH", "Database Ops", "wave2")
    assert bind_demonstrative(question, header, cells) == bound
