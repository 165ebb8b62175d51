"""Coordinated noun phrases, "between A and B", "<aspect>: A vs B" and embedded superlatives
(agent/coordination.py), and the plans they give."""

from __future__ import annotations

import pytest

from strata_pipeline.agent.clauses import split_clauses
from strata_pipeline.agent.coordination import between_question, coordinated, embedded_superlative, topic_pair
from strata_pipeline.agent.loop import _expand
from strata_pipeline.agent.planner import EACH_VALUE, FOUND_DOCUMENTS, plan
from strata_pipeline.agent.tools import Observation
from strata_pipeline.answering.answer import Answer


@pytest.mark.parametrize(
    ("question", "first", "second"),
    [
        # a plural head noun shared by two modifiers goes to each
        (
            "What are the loading times of the Ghent and Bruges warehouses?",
            "What are the loading times of the Ghent warehouse?",
            "What are the loading times of the Bruges warehouse?",
        ),
        (
            "How many docks do the Oslo and Bergen branches have?",
            "How many docks do the Oslo branch have?",
            "How many docks do the Bergen branch have?",
        ),
        (
            "What is the parking fee at the North clinic versus the South clinic?",
            "What is the parking fee at the North clinic?",
            "What is the parking fee at the South clinic?",
        ),
        # each conjunct with its own preposition; the phrase after them stays
        (
            "Wie lange dauert die Lieferung nach Graz und nach Linz im Winter?",
            "Wie lange dauert die Lieferung nach Graz im Winter?",
            "Wie lange dauert die Lieferung nach Linz im Winter?",
        ),
        (
            "What is the visitor quota in Ghent as well as in Bruges?",
            "What is the visitor quota in Ghent?",
            "What is the visitor quota in Bruges?",
        ),
        # modifiers of the attribute itself share its head
        (
            "What are the junior and the senior monthly allowances?",
            "What are the junior monthly allowance?",
            "What are the senior monthly allowance?",
        ),
        # the preposition repeated after the second conjunct: two whole noun phrases
        (
            "What is the fee for a parcel as well as the surcharge for express delivery?",
            "What is the fee for a parcel?",
            "What is the surcharge for express delivery?",
        ),
        (
            "Quel est le délai de livraison du modèle A-7 et du modèle B-9 ?",
            "Quel est le délai de livraison du modèle A-7 ?",
            "Quel est le délai de livraison du modèle B-9 ?",
        ),
    ],
)
def test_a_question_over_two_coordinated_noun_phrases_is_asked_of_each(question: str, first: str, second: str) -> None:
    found = coordinated(question)
    assert found is not None
    assert (found[0][1], found[1][1]) == (first, second)


@pytest.mark.parametrize(
    "question",
    [
        "What are the rules for salt and pepper?",  # two bare words: a fixed pair, not two things
        "How long do I wait and rest?",  # coordinated verbs
        "What is the opening time of the Ghent depot?",  # no coordination
    ],
)
def test_no_coordination_of_two_noun_phrases(question: str) -> None:
    assert coordinated(question) is None


def test_the_planner_asks_each_conjunct_once() -> None:
    planned = plan("What are the loading times of the Ghent and Bruges warehouses?")
    assert planned.form == "compare"
    assert [s.label for s in planned.steps] == ["the Ghent warehouse", "the Bruges warehouse"]
    assert [s.tool for s in planned.steps] == ["semantic_search", "semantic_search"]


def test_a_request_wrapper_is_dropped_before_the_conjuncts() -> None:
    planned = plan("Tell me the fee for a parcel as well as the surcharge for express delivery.")
    assert [s.arguments["query"] for s in planned.steps] == [
        "The fee for a parcel.",
        "The surcharge for express delivery.",
    ]


@pytest.mark.parametrize(
    ("question", "choice"),
    [
        ("Between the X-1 and the X-2, which is heavier?", "Which is heavier, the X-1 or the X-2?"),
        (
            "Between the Ghent and Bruges branches, which has the longer queue?",
            "Which has the longer queue, the Ghent branch or the Bruges branch?",
        ),
        ("What is heavier, the X-1 or the X-2?", ""),
    ],
)
def test_between_a_and_b_which_is_a_choice_between_two(question: str, choice: str) -> None:
    assert between_question(question) == choice


def test_between_a_and_b_plans_one_degree_question_per_side() -> None:
    planned = plan("Between the X-1 and the X-2, which is heavier?")
    assert planned.form == "compare"
    assert [s.ask for s in planned.steps] == ["What is the weight of the X-1?", "What is the weight of the X-2?"]


def test_an_aspect_before_a_colon_is_asked_of_both_sides() -> None:
    assert topic_pair("Loading time: Ghent vs Bruges?") == ("loading time", "Ghent", "Bruges")
    assert topic_pair("UPS runtime: Ghent or Bruges?") == ("UPS runtime", "Ghent", "Bruges")
    assert topic_pair("What is the loading time of Ghent?") is None
    planned = plan("Loading time: Ghent vs Bruges?")
    assert [s.ask for s in planned.steps] == [
        "What is the loading time of Ghent?",
        "What is the loading time of Bruges?",
    ]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "What is the backup window at the branch with the most laptops?",
            ("Number of laptops per branch", "most", "What is the backup window at {value}?"),
        ),
        (
            "For the branch with the fewest laptops, what does its security page say about tokens?",
            ("Number of laptops per branch", "fewest", "What does {value}'s security page say about tokens?"),
        ),
        ("What is the backup window at the Ghent branch?", None),
    ],
)
def test_an_embedded_superlative_is_a_grouped_count_then_the_question_of_its_group(
    question: str, expected: tuple[str, str, str] | None
) -> None:
    assert embedded_superlative(question) == expected


def test_an_embedded_superlative_plans_facts_then_the_question_per_value() -> None:
    planned = plan("What is the backup window at the branch with the most laptops?", facts=True)
    assert planned.form == "facts_then_search"
    assert [s.tool for s in planned.steps] == ["query_facts", "semantic_search"]
    assert planned.steps[0].pick == "most"
    assert planned.steps[1].scope == EACH_VALUE
    # without the facts tool it is no fact question
    assert plan("What is the backup window at the branch with the most laptops?").form != "facts_then_search"


def test_clause_boundaries_before_a_request_and_after_as_well_as() -> None:
    assert split_clauses("Look up code Q-17 and tell me who approves it.") == ["Look up code Q-17?", "Who approves it?"]
    assert split_clauses("Tell me how long a pass lasts as well as what a token costs.") == [
        "How long a pass lasts?",
        "What a token costs?",
    ]
    assert split_clauses("Quels sont les horaires du guichet de Graz, et ceux de Linz ?")[1] == "Ceux de Linz ?"


def test_a_lookup_request_is_a_lookup_and_its_follow_up_is_asked_of_the_identifier() -> None:
    planned = plan("Look up code Q-17 and tell me who approves it.")
    assert planned.form == "lookup_then_ask"
    assert planned.steps[0].arguments == {"name": "Q-17"}
    assert planned.steps[1].arguments["query"] == "Who approves Q-17?"
    # a follow-up without a pronoun is still about what was looked up
    planned = plan("Look up status ST-42 and tell me what the customer should do.")
    assert planned.form == "lookup_then_ask"
    assert planned.steps[1].arguments["query"] == "ST-42 What the customer should do?"
    assert planned.steps[1].scope == FOUND_DOCUMENTS


def test_a_demonstrative_ellipsis_asks_the_first_question_of_the_other_name() -> None:
    planned = plan("Quels sont les horaires du guichet de Graz le lundi, et ceux de Linz ?")
    assert [s.ask for s in planned.steps] == [
        "Quels sont les horaires du guichet de Graz le lundi?",
        "Quels sont les horaires du guichet de Linz le lundi?",
    ]


def test_a_count_then_a_request_for_what_documents_say_is_facts_then_search() -> None:
    planned = plan("How many laptops are in batch b3? Tell me what the guides say about imaging them.", facts=True)
    assert planned.form == "facts_then_search"
    assert planned.steps[0].arguments == {"request": "How many laptops are in batch b3"}
    assert planned.steps[1].scope == EACH_VALUE


def test_a_which_question_that_finds_another_identifier_is_followed_up_on_it() -> None:
    planned = plan("Which host is behind alarm AL-310, and which rack is it in?")
    found = Observation("1 passage", {})
    answer = Answer(text="Code: AL-310; Meaning: `db-host-07` down; Priority: P2 [alarms.md#s1]", citations=[])
    calls = _expand(planned.steps[1], (found, answer), asked=planned.steps[0].ask)
    # asked of the host the answer named, in any document ("P2" is a level, the citation no thing)
    assert calls == [
        ({"query": "Which rack is db-host-07 in?"}, "Which rack is db-host-07 in?", "Which rack is db-host-07 in?")
    ]
    two = Answer(text="`db-host-07` or `db-host-08` down [alarms.md#s1]", citations=[])
    assert "doc_ids" not in calls[0][0]
    assert _expand(planned.steps[1], (found, two), asked=planned.steps[0].ask)[0][2] == "Which rack is it in?"
    # a which-question that named no identifier is followed up on the document it found
    plain = plan("Which depot hosts the lab, and when does it close?")
    assert _expand(plain.steps[1], (found, answer), asked=plain.steps[0].ask)[0][2] == "When does it close?"
