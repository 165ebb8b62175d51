"""Compound forms read from questions written by someone who had not seen the planner (examples from outside
the sample corpus): a place the framing sentence names, a follow-up on the side a comparison picks, a third
part, softened and French clause openings, and clauses that are no elliptic fragments."""

from __future__ import annotations

import pytest

from strata_pipeline.agent.anchors import there_as, there_in_context
from strata_pipeline.agent.clauses import split_clauses
from strata_pipeline.agent.fragments import is_fragment
from strata_pipeline.agent.grammar import expand_ellipsis, has_object_clitic
from strata_pipeline.agent.planner import FOUND_DOCUMENTS, plan


def queries(question: str) -> list[str]:
    return [str(step.arguments.get("query")) for step in plan(question).steps]


@pytest.mark.parametrize(
    ("question", "context", "resolved"),
    [
        ("Wann hat die Bücherei dort samstags offen?", "Ich wohne in Grünfeld",
         "Wann hat die Bücherei in Grünfeld samstags offen?"),
        ("Wie lange dauert die Anmeldung dort?", "Ich arbeite am Standort Kiel",
         "Wie lange dauert die Anmeldung am Standort Kiel?"),
        ("Where do I park there?", "I work at the Dunmore campus", "Where do I park at the Dunmore campus?"),
        ("Quand la piscine est-elle ouverte là ?", "J'habite à Vernon", "Quand la piscine est-elle ouverte à Vernon ?"),
        ("When does it open there?", "I have a question", "When does it open there?"),  # no place named
    ],
)  # fmt: skip
def test_there_is_the_place_the_framing_sentence_names(question: str, context: str, resolved: str) -> None:
    assert there_in_context(question, context) == resolved


def test_a_place_in_the_context_makes_the_parts_independent_searches() -> None:
    question = "Ich wohne in Grünfeld. Wie teuer ist das Wasser, und wann hat die Bücherei dort samstags offen?"
    steps = plan(question).steps
    assert [s.scope for s in steps] == ["", ""]  # not searched within the water-price document
    assert "die Bücherei in Grünfeld" in str(steps[1].arguments["query"])


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        # an adverb between the conjunction and the question word
        ("Which firmware broke the scanner, and roughly how long did the outage last?",
         ["Which firmware broke the scanner?", "Roughly how long did the outage last?"]),
        ("Wer ist zuständig, und ungefähr wie viele Tage dauert es?",
         ["Wer ist zuständig?", "Ungefähr wie viele Tage dauert es?"]),
        # French "pendant" before "combien"
        ("Quelle remise obtient-on, et pendant combien de temps le devis reste-t-il valable ?",
         ["Quelle remise obtient-on?", "Pendant combien de temps le devis reste-t-il valable ?"]),
    ],
)  # fmt: skip
def test_softened_and_french_openings_start_a_second_clause(text: str, parts: list[str]) -> None:
    assert split_clauses(text) == parts


def test_a_french_verb_with_its_subject_after_it_is_a_clause_not_a_pronoun_or_fragment() -> None:
    assert not has_object_clitic("Combien de temps le devis protège-t-il l'acheteur ?")  # a noun phrase
    assert has_object_clitic("Peut-on la prolonger ?")  # a pronoun before an infinitive
    assert not is_fragment("jours de congé puis-je garder")
    assert is_fragment("pour un stagiaire")
    steps = queries("Combien de jours de congé ai-je, et combien de jours non pris puis-je garder ?")
    assert steps[1] == "Combien de jours non pris puis-je garder ?"  # asked as written, not merged into the first


def test_a_clause_with_its_own_question_word_is_no_elliptic_phrase() -> None:
    first = "Bis zu welchem Betrag darf ein Teamleiter Schäden selbst regulieren?"
    assert expand_ellipsis(first, "An welchen Tagen tagt der Ausschuss?") == ""
    second = queries(f"{first[:-1]}, und an welchen Tagen tagt der Ausschuss?")[1]
    assert second == "An welchen Tagen tagt der Ausschuss?"


def test_a_third_part_is_asked_on_its_own() -> None:
    assert queries("Is the library open on Sundays, and if so, during which hours? Also, is there a cafe?") == [
        "Is the library open on Sundays?",
        "During which hours is the library open on Sundays?",
        "Is there a cafe?",
    ]


@pytest.mark.parametrize(
    ("question", "follow_ups"),
    [
        ("Which is lighter, the K2 drone or the K5 drone? And what is the flight time of the lighter one?",
         ["What is the flight time of the K2 drone?", "What is the flight time of the K5 drone?"]),
        ("Welches Lager hat mehr Paletten, Kiel oder Bremen? Und wann schließt es dort freitags?",
         ["Und wann schließt es in Kiel freitags?", "Und wann schließt es in Bremen freitags?"]),
        ("Entre le dépôt de Nantes et celui de Brest, lequel est le plus grand ? Et est-il ouvert le dimanche ?",
         ["le dépôt de Nantes: Est-il ouvert le dimanche ?", "Brest: Est-il ouvert le dimanche ?"]),
    ],
)  # fmt: skip
def test_a_question_on_the_side_a_comparison_picks_is_asked_of_each_side(question: str, follow_ups: list[str]) -> None:
    found = plan(question)
    assert found.form == "compare"
    assert [q.removeprefix("Und ").capitalize() for q in queries(question)[2:]] == [
        q.removeprefix("Und ").capitalize() for q in follow_ups
    ]


def test_a_question_after_a_comparison_that_names_a_side_is_asked_once() -> None:
    question = "Which is lighter, the K2 drone or the K5 drone? And what does the K5 drone cost?"
    assert queries(question)[2:] == ["What does the K5 drone cost?"]


def test_there_as_names_the_place_in_the_questions_language() -> None:
    assert there_as("Bis wann muss ich dort bestellen?", "Kiel") == "Bis wann muss ich in Kiel bestellen?"
    assert there_as("Until when must I order there?", "Kiel") == "Until when must I order at Kiel?"
    assert there_as("Until when must I order?", "Kiel") == ""


def test_found_documents_scope_is_kept_when_the_first_part_asks_which() -> None:
    steps = plan("Which depot hosts the paint shop, and when does it close?").steps
    assert steps[1].scope == FOUND_DOCUMENTS
