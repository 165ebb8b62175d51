"""The abstention checks on their own: values a sentence states, contradictions between current
documents, and the support check's uncovered question words. Pure functions, exact expectations."""

from __future__ import annotations

import pytest

from strata_pipeline.answering.abstention import (
    ABSTAIN_CODES,
    Statement,
    contradictions,
    template_twins,
    uncovered,
    values,
)
from strata_pipeline.answering.answer import terms


def statement(quote: str, doc_id: str, title: str, score: float = 0.8, superseded: bool = False) -> Statement:
    return Statement(quote, f"{title}: {quote}", doc_id, title, superseded, score)


# --- values ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("New parents receive 16 weeks of fully paid parental leave.", {"week": {"16"}}),
        ("Up to 5 paid days, and 2 days for extended family.", {"day": {"5", "2"}}),
        ("The depot opens Monday to Friday 07:00 - 18:00.", {"time": {"07:00", "18:00"}}),
        ("Client meals are reimbursed up to $120 per person.", {"USD": {"120"}}),
        ("The fee is 37.00 EUR and the reach is 1,100 mm.", {"EUR": {"37"}, "mm": {"1100"}}),
        ("Effective 2026-01-01, the cap is 80 %.", {"date": {"2026-01-01"}, "%": {"80"}}),
        ("Die Frist beträgt 14 Tage.", {"tag": {"14"}}),
        ("Call 3 of them, 2 to 4 times.", {}),  # numbers without a unit state no comparable value
    ],
)
def test_values_by_kind(text: str, expected: dict[str, set[str]]) -> None:
    assert values(text) == {kind: frozenset(v) for kind, v in expected.items()}


def test_one_number_written_two_ways_is_one_value() -> None:
    assert values("A reach of 1,100 mm.") == values("A reach of 1100 mm.") == {"mm": frozenset({"1100"})}
    assert values("Speed 2.0 m/s") == values("Speed 2 m/s") == {"m/s": frozenset({"2"})}


# --- contradictions ----------------------------------------------------------------------------

POLICY = "Leave Policy > Parental Leave"
FAQ = "Employee FAQ"
QUESTION = terms("How many weeks of parental leave do new parents get?")


def test_two_current_documents_giving_different_values_contradict() -> None:
    policy = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    faq = statement("New parents receive 14 weeks of fully paid parental leave.", "hr/faq.txt", FAQ, 0.78)
    [conflict] = contradictions([policy, faq], QUESTION, terms)
    assert (conflict.kind, conflict.first_values, conflict.second_values) == (
        "week",
        frozenset({"16"}),
        frozenset({"14"}),
    )
    assert conflict.reason == (
        "The sources contradict each other: hr/leave-policy.md says 16 and hr/faq.txt says 14 (week)."
    )


def test_agreeing_restatements_and_extra_detail_do_not_contradict() -> None:
    policy = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    same = statement("Every parent receives 16 weeks of fully paid parental leave.", "hr/faq.txt", FAQ)
    detail = statement("New parents receive 16 weeks of paid parental leave, or 20 weeks part-time.", "hr/b.md", "B")
    assert contradictions([policy, same, detail], QUESTION, terms) == []


def test_a_superseded_version_never_contradicts_the_current_one() -> None:
    current = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    old = statement("New parents receive 12 weeks of paid parental leave.", "hr/archive/leave-v1.md", "Old", 0.8, True)
    assert contradictions([current, old], QUESTION, terms) == []


def test_template_twins_describe_different_things() -> None:
    assert template_twins("Lisbon Depot - Site Information", "Porto Depot - Site Information", terms)
    assert template_twins("Controller firmware v3.2", "Controller firmware v3.12", terms)
    assert not template_twins("Leave Policy", "Employee FAQ", terms)
    assert not template_twins("Leave Policy", "Leave Policy", terms)  # one title: not two things
    lisbon = statement("Monday to Friday 07:00 - 18:00", "sites/lisbon.md", "Lisbon Depot - Site Information")
    porto = statement("Monday to Friday 08:00 - 18:00", "sites/porto.md", "Porto Depot - Site Information")
    assert contradictions([lisbon, porto], terms("When do the depots open on weekdays?"), terms) == []


def test_statements_must_cover_the_same_question_words() -> None:
    # the question names the sick leave; only one statement is about it
    sick = statement("Employees receive 10 paid sick days per year.", "hr/leave-policy.md", POLICY)
    other = statement("Employees receive 25 paid days per year.", "hr/faq.txt", FAQ)
    assert contradictions([sick, other], terms("How many paid sick days per year?"), terms) == []


def test_only_statements_near_the_best_score_are_compared() -> None:
    policy = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    weak = statement("New parents receive 14 weeks of fully paid parental leave.", "hr/faq.txt", FAQ, 0.70)
    assert contradictions([policy, weak], QUESTION, terms, margin=0.08) == []
    assert len(contradictions([policy, weak], QUESTION, terms, margin=0.2)) == 1


def test_unrelated_sentences_with_different_values_do_not_contradict() -> None:
    leave = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    unrelated = statement("Parental leave requests are answered within 2 weeks.", "hr/faq.txt", FAQ)
    assert contradictions([leave, unrelated], QUESTION, terms) == []


# --- support -----------------------------------------------------------------------------------


def test_uncovered_lists_heavy_missing_words_only_past_the_share() -> None:
    wanted = {"list", "price", "seal", "kit"}
    weights = {"list": 1.0, "price": 2.0, "seal": 0.5, "kit": 0.5}  # total 4.0
    assert uncovered(wanted, weights, {"seal", "kit"}, max_share=0.5) == ["price", "list"]  # 3.0 / 4.0 missing
    assert uncovered(wanted, weights, {"price", "seal"}, max_share=0.5) == []  # 1.5 / 4.0 missing
    assert uncovered(wanted, weights, {"list", "seal", "kit"}, max_share=0.5) == []  # exactly 0.5 is enough


def test_codes_are_the_contract_names() -> None:
    assert ABSTAIN_CODES == ("no_support", "contradictory_facts", "zero_rows", "withheld")
