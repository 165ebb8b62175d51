"""Clause rules of the offline planner: splitting, markers, ellipsis, comparisons, definitions, antecedents."""

from __future__ import annotations

import pytest

from strata_pipeline.agent.clauses import (
    Side,
    agrees,
    alternatives,
    antecedent,
    clean_clause,
    elliptic_other,
    is_definition,
    replace_entity,
    resolve_foreign_reference,
    split_clauses,
)
from strata_pipeline.agent.planner import plan


@pytest.mark.parametrize(
    ("question", "clauses"),
    [
        ("What is the cut-off at the Antwerp depot; also, how many van bays does it have?",
         ["What is the cut-off at the Antwerp depot?", "How many van bays does it have?"]),
        ("When does wave 2 run? Also, how long are snapshots kept?",
         ["When does wave 2 run?", "How long are snapshots kept?"]),
        ("First, how often must I check in, then who is alerted after a missed check-in?",
         ["How often must I check in?", "Who is alerted after a missed check-in?"]),
        ("First tell me how many attempts lock an account, then how often keys must be rotated.",
         ["How many attempts lock an account?", "How often keys must be rotated?"]),
        ("How long is a voucher valid, and on how many devices can it be used?",
         ["How long is a voucher valid?", "On how many devices can it be used?"]),
        ("Bis wann muss bestellt sein, und bis zu welchem Betrag darf der Techniker freigeben?",
         ["Bis wann muss bestellt sein?", "Bis zu welchem Betrag darf der Techniker freigeben?"]),
        ("Quel est le serveur, et au bout de combien de temps les travaux sont-ils supprimés ?",
         ["Quel est le serveur?", "Au bout de combien de temps les travaux sont-ils supprimés ?"]),
        ("How heavy is a pack and how long do I wait?", ["How heavy is a pack?", "How long do I wait?"]),
        ("Is the kit in stock, and is it covered?", ["Is the kit in stock?", "Is it covered?"]),
        # one question frame over two noun phrases, the second owned by the first
        ("What are the Saturday opening hours of the Porto depot and its courier cut-off?",
         ["What are the Saturday opening hours of the Porto depot?", "What are Porto's courier cut-off?"]),
        ("What is the length of the probation period and its notice period?",
         ["What is the length of the probation period?", "What is its notice period?"]),
        ("How long is the RX-300 warranty and their battery life?",
         ["How long is the RX-300 warranty?", "How long is RX-300's battery life?"]),
        # "and" between two nouns, or before an auxiliary without a comma, is no clause boundary
        ("Which depots stock seals and gearboxes?", ["Which depots stock seals and gearboxes?"]),
        ("Where are tools received and are they logged?", ["Where are tools received and are they logged?"]),
    ],
)  # fmt: skip
def test_a_question_splits_on_its_first_clause_boundary(question: str, clauses: list[str]) -> None:
    assert split_clauses(question) == clauses


@pytest.mark.parametrize(
    ("clause", "cleaned"),
    [
        ("also, what is the stipend", "What is the stipend?"),
        ("First, tell me how long it takes", "How long it takes?"),
        ("Can you tell me where the lab is.", "Where the lab is?"),
        ("außerdem wie lange dauert es", "Wie lange dauert es?"),
        ("ensuite, quel est le délai ?", "Quel est le délai ?"),
    ],
)
def test_a_clause_loses_its_markers_and_request_wrapper(clause: str, cleaned: str) -> None:
    assert clean_clause(clause) == cleaned


@pytest.mark.parametrize(
    ("clause", "other"),
    [
        ("What about Basel?", "Basel"),
        ("And how about the RX-200?", "the RX-200"),
        ("Und was ist mit Basel?", "Basel"),
        ("Et qu'en est-il de Bâle ?", "Bâle"),
        ("What is the UPS runtime?", ""),
    ],
)
def test_an_elliptic_follow_up_names_the_other_entity(clause: str, other: str) -> None:
    assert elliptic_other(clause) == other


@pytest.mark.parametrize(
    ("question", "other", "asked"),
    [
        ("How fast can the engineer be on site in Zürich?", "Basel", "How fast can the engineer be on site in Basel?"),
        ("What is the ingress protection of the RX-300?", "the RX-200",
         "What is the ingress protection of the RX-200?"),
        # an identifier replaces the identifier, not the name before it
        ("What does the Porto depot stock for the RX-300?", "RX-200",
         "What does the Porto depot stock for the RX-200?"),
        ("What is the warranty?", "Basel", "What is the warranty?"),  # nothing named: as it is
    ],
)  # fmt: skip
def test_the_first_question_is_asked_of_the_other_entity(question: str, other: str, asked: str) -> None:
    assert replace_entity(question, other) == asked


@pytest.mark.parametrize(
    ("question", "sides"),
    [
        ("Which is open longer on Saturdays, the Porto depot or the Lisbon depot?",
         (Side("the Porto depot", "How long is the Porto depot open on Saturdays?"),
          Side("the Lisbon depot", "How long is the Lisbon depot open on Saturdays?"))),
        ("Which office has the longer UPS runtime, Zürich or Basel?",
         (Side("Zürich", "What is the UPS runtime of the Zürich office?"),
          Side("Basel", "What is the UPS runtime of the Basel office?"))),
        # the noun compared names each side as the documents do
        ("Which pharmacy has the shorter usual waiting time: Kestwick or Brandholm?",
         (Side("Kestwick", "What is the usual waiting time of the Kestwick pharmacy?"),
          Side("Brandholm", "What is the usual waiting time of the Brandholm pharmacy?"))),
        ("Which of the two depots has more van bays, Porto or the Lisbon depot?",
         (Side("Porto", "How many van bays does the Porto depot have?"),
          Side("the Lisbon depot", "How many van bays does the Lisbon depot have?"))),
        ("Which weighs more, the RX-200 arm or the RX-300 robot?",
         (Side("the RX-200 arm", "What is the weight of the RX-200 arm?"),
          Side("the RX-300 robot", "What is the weight of the RX-300 robot?"))),
        ("Which robot moves faster, the RX-300 or the RX-200?",  # a verb with no noun for it: asked with "does"
         (Side("the RX-300", "How fast does the RX-300 move?"), Side("the RX-200", "How fast does the RX-200 move?"))),
        ("Which depot has more van bays, Munich or Rotterdam?",
         (Side("Munich", "How many van bays does the Munich depot have?"),
          Side("Rotterdam", "How many van bays does the Rotterdam depot have?"))),
        ("Which is more expensive: the dock or the hitch?",
         (Side("the dock", "What is the price of the dock?"), Side("the hitch", "What is the price of the hitch?"))),
        ("Is the RX-300 heavier than the RX-200?",
         (Side("the RX-300", "What is the weight of the RX-300?"),
          Side("the RX-200", "What is the weight of the RX-200?"))),
        ("Welches Depot hat länger geöffnet, Porto oder Lissabon?",
         (Side("Porto", "Wie lange hat Porto geöffnet?"), Side("Lissabon", "Wie lange hat Lissabon geöffnet?"))),
        ("Was kostet mehr, der Dock oder die Kupplung?",
         (Side("der Dock", "Wie viel kostet der Dock?"), Side("die Kupplung", "Wie viel kostet die Kupplung?"))),
        ("Lequel est plus lourd, le RX-200 ou le RX-300 ?",
         (Side("le RX-200", "Quel est le poids du RX-200 ?"), Side("le RX-300", "Quel est le poids du RX-300 ?"))),
        ("Quel site est plus grand : Lyon ou Annecy ?",
         (Side("Lyon", "Quelle est la taille de Lyon ?"), Side("Annecy", "Quelle est la taille d'Annecy ?"))),
        # a place compared by "where", and a German comparative inflected before its noun
        ("Where is hourly visitor parking cheaper, at the Kestwick campus or at Brandholm?",
         (Side("the Kestwick campus", "What is the price of hourly visitor parking at the Kestwick campus?"),
          Side("Brandholm", "What is the price of hourly visitor parking at Brandholm?"))),
        ("Welches Büro besichtigt Schäden in einem größeren Umkreis, Mannheim oder Dresden?",
         (Side("Mannheim", "Wie groß besichtigt Mannheim Schäden in einem Umkreis?"),
          Side("Dresden", "Wie groß besichtigt Dresden Schäden in einem Umkreis?"))),
        ("Welche Server laufen, Basel oder Zürich?", None),  # no comparative ("Server" is a noun)
        ("Which depots stock seals, Porto or Lisbon?", None),  # no comparative: not a comparison
        ("Which servers run RHEL 9.2 or Rocky Linux 9.4?", None),
    ],
)  # fmt: skip
def test_a_choice_between_two_is_one_degree_question_per_side(question: str, sides: tuple[Side, Side] | None) -> None:
    assert alternatives(question) == sides


@pytest.mark.parametrize(
    ("question", "identifier", "definition"),
    [
        ("What does error E-1042 mean?", "E-1042", True),
        ("What is part NR-4417-B?", "NR-4417-B", True),
        ("What does ERP error KF-5120 mean on the warehouse scanners?", "KF-5120", True),
        ("Was bedeutet Fehler E-1042?", "E-1042", True),
        ("How long does the RX-300 take to charge?", "RX-300", False),
        ("What is the reach of the RX-200?", "RX-200", False),
    ],
)
def test_only_a_question_on_what_an_identifier_is_is_a_definition(
    question: str, identifier: str, definition: bool
) -> None:
    assert is_definition(question, identifier) is definition


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("How many days of paid annual leave do full-time employees get?", "days of paid annual leave"),
        ("How long is parental leave?", "parental leave"),
        ("How long is a guest voucher valid by default?", "a guest voucher"),
        ("Where are torque wrenches calibrated?", "torque wrenches"),
        ("What is the speed limit?", "the speed limit"),  # "speed" is no participle
        ("How long does a certificate stay valid?", ""),  # no "is"/"are", nothing counted
    ],
)
def test_the_antecedent_is_the_noun_phrase_counted_or_described(question: str, phrase: str) -> None:
    assert antecedent(question) == phrase


@pytest.mark.parametrize(
    ("question", "form", "queries"),
    [
        ("How long is parental leave, and within what period must it be taken?", "find_then_ask",
         ["How long is parental leave?", "Within what period must parental leave be taken?"]),
        ("How many days of annual leave do employees get, and how many of them can be carried over?", "find_then_ask",
         ["How many days of annual leave do employees get?", "How many days of annual leave can be carried over?"]),
        # "it" does not stand for the plural "torque wrenches": the follow-up is asked as it is
        ("Where are torque wrenches calibrated, and how long does it take?", "find_then_ask",
         ["Where are torque wrenches calibrated?", "How long does it take?"]),
        ("How long does the RX-300 take to charge, and how long does it run?", "find_then_ask",
         ["How long does the RX-300 take to charge?", "How long does RX-300 run?"]),
        ("What are the Saturday opening hours of the Porto depot and its courier cut-off?", "two_questions",
         ["What are the Saturday opening hours of the Porto depot?", "What are Porto's courier cut-off?"]),
        ("What is the ingress protection of the RX-300, and what about the RX-200?", "two_questions",
         ["What is the ingress protection of the RX-300?", "What is the ingress protection of the RX-200?"]),
        ("Which weighs more, the RX-200 arm or the RX-300 robot?", "compare",
         ["What is the weight of the RX-200 arm?", "What is the weight of the RX-300 robot?"]),
        ("How does the Lyon depot compare to the Lille depot in courier cut-off?", "compare",
         ["courier cut-off of the Lyon depot", "courier cut-off of the Lille depot"]),
        # French subject inversion ("sont-ils") repeats the subject: no back-reference to the first question
        ("Quel est le serveur de Lyon, et au bout de combien de temps les travaux sont-ils supprimés ?",
         "two_questions",
         ["Quel est le serveur de Lyon?", "Au bout de combien de temps les travaux sont-ils supprimés ?"]),
    ],
)  # fmt: skip
def test_the_planner_uses_the_clause_rules(question: str, form: str, queries: list[str]) -> None:
    planned = plan(question)
    assert planned.form == form
    assert [step.arguments["query"] for step in planned.steps] == queries
    assert [step.tool for step in planned.steps] == ["semantic_search", "semantic_search"]


def test_a_comparison_in_a_sentence_of_its_own_then_another_question() -> None:
    planned = plan("Welches Kundencenter hat donnerstags länger offen, Aarlingen oder Weißbach? Und wo finde ich es?")
    assert planned.form == "compare"
    queries = [step.arguments["query"] for step in planned.steps]
    # "es" is the side that wins, which the plan cannot know: the question is asked of each side
    assert queries == ["Wie lange hat Aarlingen donnerstags offen?", "Wie lange hat Weißbach donnerstags offen?",
                       "Aarlingen: Wo finde ich es?", "Weißbach: Wo finde ich es?"]  # fmt: skip


def test_the_thing_a_second_question_takes_as_known_is_the_one_the_first_names() -> None:
    planned = plan("How long does an RX-300 need to charge, and what ingress protection rating does the robot have?")
    queries = [step.arguments["query"] for step in planned.steps]
    assert queries == [
        "How long does an RX-300 need to charge?",
        "RX-300: What ingress protection rating does the robot have?",
    ]
    assert planned.steps[1].label == "What ingress protection rating does the robot have?"
    # a first question with two identifiers, or a second that names its own: asked as it is
    two = plan("How long do the RX-300 and the RX-200 take to charge, and what rating does the robot have?")
    assert not any(step.arguments["query"].startswith(("RX-300: ", "RX-200: ")) for step in two.steps)
    over_many = plan("What is occupancy code BA-6310, and which occupancy code carries the highest fire surcharge?")
    assert not any(step.arguments.get("query", "").startswith("BA-6310: ") for step in over_many.steps)
    counted = plan("What does meter code W-21 mean, and how many display codes are listed for the water meter?")
    assert not any(step.arguments.get("query", "").startswith("W-21: ") for step in counted.steps)
    own = plan("How heavy is the RX-300, and what does the RX-200 arm weigh?")
    assert all(not step.arguments["query"].startswith("RX-300: ") for step in own.steps)


@pytest.mark.parametrize(
    ("question", "follow_up", "agree"),
    [
        ("Where are torque wrenches calibrated?", "How long does it take?", False),
        ("Where are torque wrenches calibrated?", "Who pays for them?", True),
        ("How many days of leave do employees get?", "How many of them can be carried over?", True),
        ("How many days of leave do employees get?", "When does it expire?", False),
        ("How long is parental leave?", "Within what period must it be taken?", True),
    ],
)
def test_a_singular_pronoun_does_not_stand_for_a_plural_antecedent(question: str, follow_up: str, agree: bool) -> None:
    assert agrees(question, follow_up) is agree


def test_foreign_subject_pronoun_stands_for_the_name_the_first_question_gives() -> None:
    first = "Bis wann muss ein Teil im Depot Hamburg angefordert werden, damit es am selben Tag verschickt wird?"
    assert (
        resolve_foreign_reference(first, "Wie viele Stellplätze hat es?") == "Wie viele Stellplätze hat Depot Hamburg?"
    )
    # German nouns are capitalised: a lone one ("Büro") is not taken for a name
    assert resolve_foreign_reference("Wann öffnet das Büro?", "Wann schließt es?") == "Wann schließt es?"
    # French: a capitalised word is a name; an inverted subject ("coûte-t-il") is left alone
    assert resolve_foreign_reference("Où est le dépôt de Lisbonne ?", "Quand ouvre-t-il ?") == "Quand ouvre-t-il ?"
    assert (
        resolve_foreign_reference("Quel est le délai du RX-300 ?", "Et combien il coûte ?")
        == "Et combien RX-300 coûte ?"
    )
    assert resolve_foreign_reference("How long is the lease?", "When does it end?") == "When does it end?"


def test_that_error_is_the_code_the_context_names_and_is_looked_up() -> None:
    planned = plan("The pendant on our RX-200 shows E-101. What is that error, and how long must the arm cool down?")
    assert [step.tool for step in planned.steps] == ["lookup", "semantic_search"]
    assert planned.steps[0].arguments == {"name": "E-101"}
    # the second search is framed by the context once, not also by the code
    assert (
        planned.steps[1].arguments["query"] == "The pendant on our RX-200 shows E-101: How long must the arm cool down?"
    )
    # without a code in the context, "that error" stays as it is
    plain = plan("The pendant beeps. What is that error, and how long must the arm cool down?")
    assert all(step.tool == "semantic_search" for step in plain.steps)
