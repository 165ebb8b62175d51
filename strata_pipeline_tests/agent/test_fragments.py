"""Verbless second parts, "one" anaphora and framing context in compound questions, and the plans built on
them (examples from outside the sample corpus)."""

from __future__ import annotations

import pytest

from strata_pipeline.agent.fragments import elliptic_tail, gapped, is_fragment, resolve_one, split_context
from strata_pipeline.agent.grammar import relative_parts
from strata_pipeline.agent.planner import plan


@pytest.mark.parametrize(
    ("first", "second", "expanded"),
    [
        # the question word repeated, then a name: the name replaces the first part's, its head noun kept once
        ("Who manages the Oslo branch?", "Who the Bergen branch?", "Who manages the Bergen branch?"),
        # a prepositional phrase with another preposition replaces the first part's last one
        ("How many beds are there on the surgical ward?", "How many in the children's unit?",
         "How many beds are there in the children's unit?"),
        # a long prepositional phrase with the same preposition
        ("How much is the allowance for a full day?", "How much for a day of more than 8 hours without a night?",
         "How much is the allowance for a day of more than 8 hours without a night?"),
        # a noun phrase with the head noun of one in the first part
        ("How often must first aid training be repeated?", "Fire warden training?",
         "How often must Fire warden training be repeated?"),
        # a bare definite noun phrase in the first part's copula frame
        ("What is the late return fee?", "The replacement card fee?", "What is the replacement card fee?"),
        ("Wie viel kostet die Miete pro Tag in Linz?", "Wie viel in Graz?",
         "Wie viel kostet die Miete pro Tag in Graz?"),
    ],
)  # fmt: skip
def test_a_gapped_second_part_is_the_first_question_with_its_parallel_phrase_replaced(
    first: str, second: str, expanded: str
) -> None:
    assert gapped(first, second) == expanded


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("How long is the loan period?", "Bis zu welchem Betrag werden Kosten erstattet?"),  # a clause: a verb
        ("Combien de temps dure la garde ?", "Combien de semaines à l'avance le planning est-il publié ?"),
        ("What is the fee?", "Where do I pay it?"),  # another question word
    ],
)
def test_a_clause_of_its_own_is_no_gapped_fragment(first: str, second: str) -> None:
    assert gapped(first, second) == ""


@pytest.mark.parametrize(
    ("first", "second", "expanded"),
    [
        # "it" stands for what the first part asks; the phrase after it replaces the one it parallels
        ("What is the hourly visitor parking rate at Kestwick?", "what is it at Brandholm?",
         "What is the hourly visitor parking rate at Brandholm?"),
        ("What is the cover screw torque for the NR-4471-B kit?", "what is it for the NR-4471-D kit?",
         "What is the cover screw torque for the NR-4471-D kit?"),
        ("Within how many minutes must the engineer be on site under runbook version 4?",
         "what was it under version 3?",
         "Within how many minutes must the engineer be on site under version 3?"),
        # "how many" with no noun counts what the first part counts
        ("How many robots per site does FleetOS 2.7 support?", "how many does FleetOS 2.17 support?",
         "how many robots per site does FleetOS 2.17 support?"),
        ("How many visitors may be at a bedside under the current policy?", "how many were allowed under version 2?",
         "how many visitors were allowed under version 2?"),
    ],
)  # fmt: skip
def test_a_second_part_that_asks_it_again_of_another_phrase_is_the_first_question(
    first: str, second: str, expanded: str
) -> None:
    assert gapped(first, second) == expanded


def test_it_with_a_verb_of_its_own_is_no_repetition_of_the_first_question() -> None:
    assert gapped("What is the hourly parking rate at Kestwick?", "where do I pay it?") == ""
    assert gapped("Which depot has the most packs?", "how many does it have?") == ""  # no count in the first


def test_a_fragment_has_no_verb_no_question_word_and_few_words() -> None:
    assert is_fragment("for a second offence")
    assert not is_fragment("faut-il pour le niveau 3")
    assert not is_fragment("which ones")
    assert not is_fragment(" ".join(["word"] * 13))


def test_a_trailing_fragment_after_a_comma_is_a_second_part() -> None:
    assert elliptic_tail("How long must a ferry trip be for a cabin, and for a reclining seat?") == [
        "How long must a ferry trip be for a cabin?",
        "for a reclining seat?",
    ]
    assert elliptic_tail("Quel est le tarif à Nantes, et à Rennes ?") == ["Quel est le tarif à Nantes ?", "à Rennes ?"]
    assert elliptic_tail("What is the fee, and who pays it?") == []  # a clause of its own
    assert elliptic_tail("Compare the fees of A, and B") == []  # no question before the comma


@pytest.mark.parametrize(
    ("first", "second", "resolved"),
    [
        ("Which plant hosts the main boiler?", "Which hosts the backup one?", "Which plant hosts the backup boiler?"),
        ("Name the ticket office in Graz.", "The one in Linz.", "The ticket office in Linz."),
        ("What is the fee?", "Is it the one-time fee?", "Is it the one-time fee?"),  # "one-time" is no "one"
    ],
)
def test_one_stands_for_the_head_noun_of_the_first_part(first: str, second: str, resolved: str) -> None:
    assert resolve_one(first, second) == resolved


@pytest.mark.parametrize(
    ("text", "context", "question"),
    [
        ("I am planning a boat trip. How long is the crossing, and what does it cost?", "I am planning a boat trip",
         "How long is the crossing, and what does it cost?"),
        ("The Graz office: when does it open, and who runs it?", "The Graz office",
         "When does it open, and who runs it?"),
        ("For the advanced course, how long is it and what does it cost?", "the advanced course",
         "How long is it and what does it cost?"),
    ],
)  # fmt: skip
def test_a_statement_topic_or_fronted_phrase_frames_the_question(text: str, context: str, question: str) -> None:
    assert split_context(text) == (context, question)


@pytest.mark.parametrize(
    "text",
    [
        "What is the fee. How is it paid?",  # two questions, the first without its question mark
        "Opening hours: Graz vs Linz?",  # a topic and two sides, no question
        "How long is the crossing?",
    ],
)
def test_other_questions_have_no_framing_context(text: str) -> None:
    assert split_context(text) is None


def test_a_context_frames_every_search_and_a_topic_stands_for_its_back_references() -> None:
    framed = plan("The Graz office: when does it open, and where do its visitors park?")
    assert [s.arguments["query"] for s in framed.steps] == [
        "When does the Graz office open?",  # the topic is in each question already
        "Where do the Graz office's visitors park?",
    ]
    statement = plan("I am planning a boat trip. How long is the crossing, and how much is a cabin?")
    assert [s.ask for s in statement.steps] == [
        "I am planning a boat trip: How long is the crossing?",
        "I am planning a boat trip: How much is a cabin?",
    ]


def test_gapped_and_elliptic_parts_plan_two_searches() -> None:
    gapping = plan("Who manages the Oslo branch and who the Bergen branch?")
    assert [s.ask for s in gapping.steps] == ["Who manages the Oslo branch?", "Who manages the Bergen branch?"]
    tail = plan("How often must first aid training be repeated, and fire warden training?")
    assert tail.steps[1].ask == "How often must fire warden training be repeated?"


def test_a_relative_clause_inside_the_subject_finds_the_subject_first() -> None:
    assert relative_parts("When does the branch that is closed on Mondays open on Saturdays?") == (
        "Which branch is closed on Mondays?",
        "When does it open on Saturdays?",
    )
    assert relative_parts("When does the branch that hosts the archive close?") == (
        "Which branch hosts the archive?",
        "When does it close?",
    )


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        # a yes/no question, then only a question word
        ("Is the museum pass refundable, and if so, for how long?",
         ["Is the museum pass refundable?", "For how long is the museum pass refundable?"]),
        # a clause that only swaps the name ("wie viele hat Linz")
        ("Wie viele Schalter hat Graz, und wie viele hat Linz?",
         ["Wie viele Schalter hat Graz?", "Wie viele Schalter hat Linz?"]),
        # one subject, two predicates
        ("When does the Graz office open on Saturdays and close on weekdays?",
         ["When does the Graz office open on Saturdays?", "When does the Graz office close on weekdays?"]),
        # "the one" after a named noun phrase
        ("Who runs the Graz office, and who runs the one in Linz?",
         ["Who runs the Graz office?", "Who runs the office in Linz?"]),
        # a question word, then a clause of its own, is no fragment
        ("Who runs the Graz office, and who signs the leases?", ["Who runs the Graz office?", "Who signs the leases?"]),
    ],
)  # fmt: skip
def test_more_elliptic_second_parts_are_whole_questions(text: str, asks: list[str]) -> None:
    assert [s.ask for s in plan(text).steps] == asks


def test_a_name_after_a_german_noun_is_the_part_an_elliptic_name_replaces() -> None:
    steps = plan("Wie viele Schalter hat das Büro Graz? Und Linz?").steps
    assert [s.ask for s in steps] == ["Wie viele Schalter hat das Büro Graz?", "Wie viele Schalter hat das Büro Linz?"]
    # an English run of capitalised words is one name: it is replaced whole
    steps = plan("When does the Northwind Metrology Lab open? And Hamburg?").steps
    assert steps[1].ask == "When does the Hamburg open?"


def test_a_request_over_a_noun_phrase_and_its_attribute_is_two_questions() -> None:
    steps = plan("Tell me the opening time of the Graz office and also its phone number.").steps
    assert [s.ask for s in steps] == ["What is the opening time of the Graz office?", "What is Graz's phone number?"]
    compared = plan("Compare the desks at Graz with those at Linz.").steps
    assert [s.ask for s in compared] == ["What is the desks of Graz?", "What is the desks of Linz?"]


def test_the_named_one_asks_the_first_question_of_that_name() -> None:
    from strata_pipeline.agent.fragments import named_one

    first = "What's the e-mail address of the Mannheim claims office?"
    assert named_one(first, "what is the Dresden one?") == "What's the e-mail address of the Dresden claims office?"
    assert named_one(first, "What is the Dresden one?") == "What's the e-mail address of the Dresden claims office?"
    # "one" after a common word, or a first part that names nothing, is not this form
    assert named_one(first, "what is the cheaper one?") == ""
    assert named_one("What is the e-mail address of the claims office?", "what is the Dresden one?") == ""
