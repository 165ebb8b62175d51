"""The offline planner: each supported compound form decomposes into exactly these tool calls."""

from __future__ import annotations

import pytest

from strata_pipeline.agent.planner import (
    DOCUMENT,
    EACH_VALUE,
    FOUND_DOCUMENTS,
    PlannedStep,
    plan,
    superlative,
)
from strata_pipeline.agent.references import entity_name, resolve_back_reference, subject_name


def search(
    query: str, label: str | None = None, ask: str | None = None, scope: str = "", refer: str = ""
) -> PlannedStep:
    return PlannedStep("semantic_search", {"query": query}, label or query, ask or query, scope, refer)


@pytest.mark.parametrize(
    ("question", "form", "steps"),
    [
        (
            "Compare the Saturday opening hours of the Lisbon depot and the Porto depot",
            "compare",
            [
                search("Saturday opening hours of the Lisbon depot", "the Lisbon depot",
                       "What is the Saturday opening hours of the Lisbon depot?"),
                search("Saturday opening hours of the Porto depot", "the Porto depot",
                       "What is the Saturday opening hours of the Porto depot?"),
            ],
        ),
        (
            # the aspect runs to the last preposition before the sides: "number of van bays" at each depot
            "Compare the number of van bays at the Munich depot and the Rotterdam depot",
            "compare",
            [
                search("number of van bays of the Munich depot", "the Munich depot",
                       "What is the number of van bays of the Munich depot?"),
                search("number of van bays of the Rotterdam depot", "the Rotterdam depot",
                       "What is the number of van bays of the Rotterdam depot?"),
            ],
        ),
        (
            "Compare RX-200 and RX-300 on warranty",
            "compare",
            [
                search("warranty of RX-200", "RX-200", "What is the warranty of RX-200?"),
                search("warranty of RX-300", "RX-300", "What is the warranty of RX-300?"),
            ],
        ),
        (
            "What is the difference between the Lyon depot and the Hamburg depot in parking?",
            "compare",
            [
                search("parking of the Lyon depot", "the Lyon depot", "What is the parking of the Lyon depot?"),
                search("parking of the Hamburg depot", "the Hamburg depot",
                       "What is the parking of the Hamburg depot?"),
            ],
        ),
        (
            "How many weeks of paid parental leave do parents get, and what is the mileage rate for a personal car?",
            "two_questions",
            [
                search("How many weeks of paid parental leave do parents get?"),
                search("What is the mileage rate for a personal car?"),
            ],
        ),
        (
            "How long is the RX-300 warranty? Where is the Porto depot?",
            "two_questions",
            [search("How long is the RX-300 warranty?"), search("Where is the Porto depot?")],
        ),
        (
            "Which depot has a forklift charging bay, and what are its Saturday opening hours?",
            "find_then_ask",
            [
                search("Which depot has a forklift charging bay?"),
                search("What are its Saturday opening hours?", scope=FOUND_DOCUMENTS, refer=DOCUMENT),
            ],
        ),
        (
            "What does error E-1042 mean, and how do I clear it?",
            "lookup_then_ask",
            [
                PlannedStep("lookup", {"name": "E-1042"}, "What does error E-1042 mean?",
                            "What does error E-1042 mean?"),
                search("How do I clear E-1042?", ask="How do I clear it?", scope=FOUND_DOCUMENTS),
            ],
        ),
        (
            "How long does CarePlus extend the warranty to, and until when after delivery can it be bought?",
            "find_then_ask",
            [
                search("How long does CarePlus extend the warranty to?"),
                # "it" is what the first question names, not the document that answered it
                search("Until when after delivery can CarePlus be bought?", scope=FOUND_DOCUMENTS),
            ],
        ),
        (
            "How long does a field engineer certificate stay valid, and how is it renewed?",
            "find_then_ask",
            # no name to stand in for "it": the question is asked as it is, of the documents found
            [search("How long does a field engineer certificate stay valid?"),
             search("How is it renewed?", scope=FOUND_DOCUMENTS)],
        ),
        (
            "Which depot runs the largest RX-300 fleet in the Benelux, and what are its Saturday opening hours?",
            "find_then_ask",
            # a "which" question asks for a thing: the identifier it names is not what "its" stands for
            [search("Which depot runs the largest RX-300 fleet in the Benelux?"),
             search("What are its Saturday opening hours?", scope=FOUND_DOCUMENTS, refer=DOCUMENT)],
        ),
        (
            "Wie oft wird der Bremsentest durchgeführt, und wie hoch ist der Sollwert der Riemenspannung?",
            "two_questions",
            [search("Wie oft wird der Bremsentest durchgeführt?"),
             search("Wie hoch ist der Sollwert der Riemenspannung?")],
        ),
        (
            "Combien de temps dure une période d'astreinte, et quel est le montant de l'indemnité ?",
            "two_questions",
            [search("Combien de temps dure une période d'astreinte?"), search("Quel est le montant de l'indemnité ?")],
        ),
        (
            "Welches Depot hat die Trainingszelle, und wann schließt es?",
            "find_then_ask",
            [search("Welches Depot hat die Trainingszelle?"),
             search("Wann schließt es?", scope=FOUND_DOCUMENTS, refer=DOCUMENT)],
        ),
        (
            "What does the Opening hours section of sites/porto-depot.md say?",
            "section",
            [
                PlannedStep(
                    "read_document_section",
                    {"doc_id": "sites/porto-depot.md", "heading": "Opening hours"},
                    "Opening hours",
                    "What does the Opening hours section of sites/porto-depot.md say?",
                )
            ],
        ),
        ("How long is the warranty?", "single", [search("How long is the warranty?")]),
        (
            # several codes, then what they mean: each code's entry
            "Cell is down: the controller reports E-1420 and a drive shows E-2240. What do those two codes mean?",
            "lookup_each",
            [
                PlannedStep("lookup", {"name": "E-1420"}, "E-1420", "What does E-1420 mean?"),
                PlannedStep("lookup", {"name": "E-2240"}, "E-2240", "What does E-2240 mean?"),
            ],
        ),
        (
            # a gapped second part after a statement and a dash asks the question that follows the dash
            "I'm starting on both campuses - which car park is for staff at Kestwick and which at Brandholm?",
            "two_questions",
            [
                search("I'm starting on both campuses - which car park is for staff at Kestwick?"),
                search("which car park is for staff at Brandholm?"),
            ],
        ),
        (
            # "they" is the recordings, and "the old version 2.4" is another document than the one found
            "How long are session recordings kept under the current policy, and how long were they kept under "
            "the old version 2.4?",
            "find_then_ask",
            [
                search("How long are session recordings kept under the current policy?"),
                search("How long were session recordings kept under the old version 2.4?"),
            ],
        ),
    ],
)  # fmt: skip
def test_a_compound_question_decomposes_into_exactly_these_steps(
    question: str, form: str, steps: list[PlannedStep]
) -> None:
    planned = plan(question)
    assert planned.form == form
    assert list(planned.steps) == steps


def test_a_fact_filter_with_a_documents_question_is_facts_then_one_search_per_value() -> None:
    question = "Suppliers with more than 3 open tickets, and what their contracts say about penalties?"
    planned = plan(question, facts=True)
    assert planned.form == "facts_then_search"
    assert list(planned.steps) == [
        PlannedStep("query_facts", {"request": "Suppliers with more than 3 open tickets"},
                    "Suppliers with more than 3 open tickets"),
        PlannedStep("semantic_search", {"query": "{value} contracts penalties"}, "{value}: contracts on penalties",
                    "What do the contracts say about penalties for {value}?", EACH_VALUE, unvalued=True),
    ]  # fmt: skip
    about_them = plan("Holidays for the Munich office, and what does the leave policy say about them?", facts=True)
    assert about_them.steps[1] == PlannedStep(
        "semantic_search", {"query": "{value} leave policy"}, "{value}: leave policy",
        "What do the leave policy say about {value}?", EACH_VALUE,
    )  # fmt: skip


def test_without_facts_the_same_question_is_two_dependent_searches() -> None:
    question = "Suppliers with more than 3 open tickets, and what their contracts say about penalties?"
    planned = plan(question, facts=False)
    assert planned.form == "find_then_ask"
    assert [s.tool for s in planned.steps] == ["semantic_search", "semantic_search"]
    assert planned.steps[1].scope == FOUND_DOCUMENTS


def test_whitespace_does_not_change_the_plan() -> None:
    assert plan("  Compare   RX-200 and\nRX-300 on warranty ") == plan("Compare RX-200 and RX-300 on warranty")


def test_a_count_then_documents_question_is_still_facts_then_search() -> None:
    # the plan does not know the figure will be a count; the loop runs the follow-up once (test_loop_steps)
    planned = plan("How many servers are in ZRH, and what do the runbooks say about patching them?", facts=True)
    assert planned.form == "facts_then_search"
    assert planned.steps[0] == PlannedStep("query_facts", {"request": "How many servers are in ZRH"},
                                           "How many servers are in ZRH")  # fmt: skip
    assert planned.steps[1].arguments == {"query": "{value} runbooks patching"} and planned.steps[1].scope == EACH_VALUE


@pytest.mark.parametrize(
    ("question", "request_", "docs", "ask"),
    [
        ("Wie viele Feiertage gelten für alle Büros, und was sagt die Urlaubsrichtlinie über Krankheitstage?",
         "Wie viele Feiertage gelten für alle Büros", "{value} Urlaubsrichtlinie Krankheitstage",
         "Was sagt Urlaubsrichtlinie über Krankheitstage?"),
        ("Combien de jours fériés pour Munich, et que dit la politique de congés sur le report des congés ?",
         "Combien de jours fériés pour Munich", "{value} politique de congés le report des congés",
         "Que dit politique de congés sur le report des congés ?"),
    ],
)  # fmt: skip
def test_german_and_french_fact_questions_with_a_documents_question_are_facts_then_search(
    question: str, request_: str, docs: str, ask: str
) -> None:
    planned = plan(question, facts=True)
    assert planned.form == "facts_then_search"
    assert planned.steps[0].arguments == {"request": request_} and planned.steps[0].pick == ""
    assert planned.steps[1].arguments == {"query": docs} and planned.steps[1].ask == ask
    assert planned.steps[1].scope == EACH_VALUE


@pytest.mark.parametrize(
    ("facts", "grouped", "end"),
    [
        ("Which site has the most servers", "Number of servers per site", "most"),
        ("Which office has the fewest public holidays?", "Number of public holidays per office", "fewest"),
        ("Welcher Standort hat die meisten Drucker", "Anzahl der Drucker pro Standort", "most"),
        ("Quel site a le moins d'imprimantes", "Nombre de imprimantes par site", "fewest"),
        ("How many servers are in ZRH", "How many servers are in ZRH", ""),  # no superlative: as it is
    ],
)
def test_a_superlative_becomes_a_grouped_count_and_the_end_to_keep(facts: str, grouped: str, end: str) -> None:
    assert superlative(facts) == (grouped, end)
    planned = plan(f"{facts}, and what do the runbooks say about patching them?", facts=True)
    assert planned.steps[0].arguments == {"request": grouped} and planned.steps[0].pick == end


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("How long does CarePlus extend the warranty to?", "CarePlus"),
        ("When does the Porto Depot open on Saturdays?", "Porto Depot"),
        ("How long is the probation period?", ""),
        ("What is the minimum password length?", ""),
    ],
)
def test_the_subject_of_a_question_is_its_first_proper_name(question: str, name: str) -> None:
    assert subject_name(question) == name


@pytest.mark.parametrize(
    ("question", "entity", "resolved"),
    [
        ("What time does it close on weekdays?", "Munich Depot", "What time does Munich Depot close on weekdays?"),
        ("What are its weekday opening hours?", "Porto Depot", "What are Porto Depot's weekday opening hours?"),
        ("Which robots is it used on?", "NR-4417-B", "Which robots is NR-4417-B used on?"),
        ("What do they cost, and is their warranty longer?", "RX Dock",
         "What do RX Dock cost, and is RX Dock's warranty longer?"),
        ("Is there parking?", "Lyon Depot", "Is there parking?"),  # "there" also starts other phrases: kept
        ("Which UDP port does it use?", "  ", "Which UDP port does it use?"),  # nothing found: unchanged
        ("Does the kit fit?", "NR-4471-B", "Does the kit fit?"),  # "fit" holds "it" but is no reference
    ],
)  # fmt: skip
def test_a_back_reference_is_replaced_by_the_entity_found(question: str, entity: str, resolved: str) -> None:
    assert resolve_back_reference(question, entity) == resolved


@pytest.mark.parametrize(
    ("title", "doc_id", "name"),
    [
        ("Munich Depot - Site Information", "sites/munich-depot.md", "Munich Depot"),
        ("Post-incident review INC-2025-0422: bsl-db-03 out of memory", "", "Post-incident review INC-2025-0422"),
        # the part before the dash names nothing (no capitalised word): the part after it does
        ("IT on-site support — Zürich office", "", "Zürich office"),
        ("VPN Setup Guide", "it-security/vpn-setup.md", "VPN Setup Guide"),
        ("", "sites/lyon-depot.md", "lyon depot"),
    ],
)
def test_a_found_document_is_named_by_its_title_up_to_a_dash_or_colon(title: str, doc_id: str, name: str) -> None:
    assert entity_name(title, doc_id) == name
