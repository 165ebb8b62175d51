"""The offline planner: each supported compound form decomposes into exactly these tool calls."""

from __future__ import annotations

import pytest

from strata_pipeline.agent.planner import EACH_VALUE, FOUND_DOCUMENTS, PlannedStep, plan


def search(query: str, label: str | None = None, ask: str | None = None, scope: str = "") -> PlannedStep:
    return PlannedStep("semantic_search", {"query": query}, label or query, ask or query, scope)


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
                search("What are its Saturday opening hours?", scope=FOUND_DOCUMENTS),
            ],
        ),
        (
            "What does error E-1042 mean, and how do I clear it?",
            "lookup_then_ask",
            [
                PlannedStep("lookup", {"name": "E-1042"}, "What does error E-1042 mean?",
                            "What does error E-1042 mean?"),
                search("How do I clear it?", scope=FOUND_DOCUMENTS),
            ],
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
                    "What do the contracts say about penalties for {value}?", EACH_VALUE),
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
