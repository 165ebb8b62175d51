"""Golden set loading, and evaluate/summarise over a fixed ranking (a pure function of its inputs)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from strata_pipeline.evaluation.golden import GoldenQuestion, GoldenSet, load_golden
from strata_pipeline.evaluation.report import (
    AnswerCheck,
    evaluate,
    summarise,
    summarise_parts,
    summary_markdown,
    total_relevant,
    unknown_labels,
)
from strata_pipeline.settings import PROJECT_ROOT


def test_load_golden(tmp_path: Path) -> None:
    (tmp_path / "handbook.yaml").write_text(
        "source_set: handbook\n"
        "k: 3\n"
        "questions:\n"
        "  - id: hb-001\n"
        "    question: How many weeks of parental leave?\n"
        "    category: leave\n"
        "    part: dev\n"
        "    relevant: [hr/leave-policy.md, travel/]\n"
        "    expected_answer_contains: ['16 weeks']\n"
        "  - id: 7\n"
        "    question: What is the CEO's salary?\n"
        "    unanswerable: true\n",
        encoding="utf-8",
    )
    golden = load_golden(tmp_path, "handbook")
    assert (golden.source_set, golden.k) == ("handbook", 3)
    assert golden.questions == [
        GoldenQuestion(
            id="hb-001",
            question="How many weeks of parental leave?",
            category="leave",
            relevant=("hr/leave-policy.md", "travel/"),
            expected_answer_contains=("16 weeks",),
            part="dev",
        ),
        # no part: a set nobody tuned on is all test
        GoldenQuestion(id="7", question="What is the CEO's salary?", category="general", unanswerable=True),
    ]
    assert golden.questions[1].part == "test"
    before = golden.digest
    assert len(before) == 12
    (tmp_path / "handbook.yaml").write_text("k: 3\nquestions: []\n", encoding="utf-8")
    assert load_golden(tmp_path, "handbook").digest != before  # an edited set has a new digest


def test_unknown_part_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "questions:\n  - id: q1\n    question: Where?\n    part: train\n", encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"^s.yaml question q1: part is 'train'; use one of dev, test\.$"):
        load_golden(tmp_path, "s")


def test_load_golden_defaults(tmp_path: Path) -> None:
    assert load_golden(tmp_path, "missing") is None
    (tmp_path / "empty.yaml").write_text("", encoding="utf-8")
    empty = load_golden(tmp_path, "empty")
    assert (empty.source_set, empty.k, empty.questions) == ("empty", 5, [])
    assert load_golden(tmp_path, "empty", default_k=10).k == 10


@pytest.mark.parametrize(
    "question",
    ["  - question: Where is it?\n", "  - id: q1\n", "  - id: ''\n    question: Where?\n"],
)
def test_question_without_id_or_text_is_rejected(tmp_path: Path, question: str) -> None:
    (tmp_path / "s.yaml").write_text(f"questions:\n  - id: ok\n    question: Fine?\n{question}", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^s.yaml question #2: 'id' and 'question' are required\.$"):
        load_golden(tmp_path, "s")


# The test part of each bundled set (ranking, aggregation and unanswerable questions); later rounds add dev only.
TEST_QUESTIONS = {"handbook": 18, "products": 25, "fieldops": 30}


def test_the_bundled_golden_sets_load() -> None:
    for source_set in ("handbook", "products", "fieldops"):
        golden = load_golden(PROJECT_ROOT / "golden", source_set)
        assert golden is not None
        assert golden.source_set == source_set
        assert golden.k == 5
        assert len(golden.questions) >= 10
        parts = [q.part for q in golden.questions]
        # split in halves, stratified by category; questions written later for tuning (dev-only aggregation
        # phrasings, near misses, cross-language and twin questions) go to dev, so the held-out test part
        # keeps at least a seventh of the set (a quarter before the broadened abstention dev questions, *-nx-*,
        # a fifth before round 12's, *-r12-*, a sixth before round 14's, *-r14-*) and never loses a question
        # (TEST_QUESTIONS pins its size)
        assert parts.count("dev") >= parts.count("test") - 1 and parts.count("test") >= len(parts) // 7
        assert parts.count("test") == TEST_QUESTIONS[source_set]
        assert len({q.id for q in golden.questions}) == len(golden.questions)
        assert all(q.relevant or q.unanswerable for q in golden.questions)
    handbook = load_golden(PROJECT_ROOT / "golden", "handbook")
    assert handbook.questions[0].id == "hb-001"
    assert handbook.questions[0].expected_answer_contains == ("16 weeks",)


@pytest.mark.parametrize("source_set", ["hospital", "utility", "insurance"])
def test_the_new_domain_sets_are_dev_only_and_label_files_of_their_corpus(source_set: str) -> None:
    golden = load_golden(PROJECT_ROOT / "golden", source_set)
    assert golden is not None and golden.source_set == source_set
    assert {q.part for q in golden.questions} == {"dev"}  # tuned on, never a held-out score
    assert len({q.id for q in golden.questions}) == len(golden.questions)
    assert sum(q.unanswerable for q in golden.questions) >= 8
    corpus = PROJECT_ROOT / "golden" / "corpus" / source_set
    for q in golden.questions:
        assert q.unanswerable == (not q.relevant), q.id
        assert all((corpus / doc_id).is_file() for doc_id in q.relevant), q.id


KNOWN = {"hr/leave.md", "hr/faq.txt", "it/vpn.md", "travel/a.md", "travel/b.md"}
GOLDEN = GoldenSet(
    source_set="handbook",
    k=3,
    questions=[
        GoldenQuestion("q1", "parental leave?", "leave", ("hr/leave.md",), ("16 weeks",)),
        GoldenQuestion("q2", "receipts?", "travel", ("travel/",), ("$25", "itemized receipt")),
        GoldenQuestion("q3", "CEO salary?", "trap", (), (), unanswerable=True),
        GoldenQuestion("q4", "not indexed?", "misc", ("hr/missing.md",), ()),
    ],
)
RANKINGS = {
    "parental leave?": ["hr/leave.md", "hr/leave.md", "hr/faq.txt", "it/vpn.md"],
    "receipts?": ["it/vpn.md", "travel/b.md", "hr/leave.md", "travel/a.md"],
    "CEO salary?": ["hr/faq.txt"],
    "not indexed?": [],
}
ANSWERS = {
    "parental leave?": AnswerCheck(False, "New parents get 16\n  WEEKS of paid leave [hr/leave.md#0].", True),
    "receipts?": AnswerCheck(False, "Receipts are needed above $25.", False),
    "CEO salary?": AnswerCheck(True, "", True),
    "not indexed?": AnswerCheck(True, "", True),
}
MODES = ("dense", "hybrid")


def search(question: str, limit: int) -> dict[str, list[str]]:
    assert limit == 50
    # dense sees the same documents in reverse order
    return {"hybrid": RANKINGS[question], "dense": list(reversed(RANKINGS[question]))}


def test_total_relevant_counts_folder_members_and_explicit_labels() -> None:
    assert total_relevant(GOLDEN.questions[0], KNOWN) == 1
    assert total_relevant(GOLDEN.questions[1], KNOWN) == 2
    assert total_relevant(GOLDEN.questions[2], KNOWN) == 0
    assert total_relevant(GOLDEN.questions[3], KNOWN) == 1  # labelled but not indexed: still counts


def test_unknown_labels_name_question_and_label() -> None:
    assert unknown_labels(GOLDEN, KNOWN) == ["q4: hr/missing.md"]
    assert unknown_labels(GOLDEN, KNOWN | {"hr/missing.md"}) == []
    folder = GoldenSet("s", 5, [GoldenQuestion("f", "?", relevant=("legal/",))])
    assert unknown_labels(folder, KNOWN) == ["f: legal/"]


def test_evaluate_scores_each_question_per_mode() -> None:
    results = evaluate(GOLDEN, search, KNOWN, answer=lambda q: ANSWERS[q])
    by_id = {r.id: r for r in results}
    q1, q2, q3, q4 = (by_id[i] for i in ("q1", "q2", "q3", "q4"))
    assert q1.ranked_docs["hybrid"] == ["hr/leave.md", "hr/faq.txt", "it/vpn.md"]
    hybrid = q1.scores["hybrid"]
    assert (hybrid["recall_at_1"], hybrid["recall_at_3"], hybrid["mrr_at_10"], hybrid["ndcg_at_10"]) == (1, 1, 1, 1)
    assert hybrid["precision_at_3"] == pytest.approx(1 / 3) and hybrid["precision_at_5"] == pytest.approx(1 / 5)
    assert q1.scores["dense"]["mrr_at_10"] == pytest.approx(1 / 3)  # dense ranks leave.md third
    assert (q1.answer_ok, q1.abstained, q1.citations_valid) == (True, False, True)  # case/space-insensitive
    assert q2.ranked_docs["hybrid"] == ["it/vpn.md", "travel/b.md", "hr/leave.md", "travel/a.md"]
    assert (q2.scores["hybrid"]["recall_at_3"], q2.scores["hybrid"]["recall_at_5"]) == (0.5, 1.0)
    assert q2.scores["hybrid"]["mrr_at_3"] == 0.5
    assert q2.scores["hybrid"]["ndcg_at_3"] == pytest.approx(0.38685280723454163)
    assert (q2.answer_ok, q2.citations_valid) == (False, False)  # "itemized receipt" missing, bad citation
    assert q3.scores == {} and (q3.unanswerable, q3.answer_ok, q3.abstained) == (True, True, True)
    assert q3.citations_valid is None  # an abstention cites nothing
    assert (q4.scores["hybrid"]["recall_at_5"], q4.ranked_docs["hybrid"]) == (0.0, [])
    assert (q4.answer_ok, q4.abstained) == (False, True)  # abstaining on an answerable question is a miss


def test_unanswerable_question_answered_is_a_miss() -> None:
    golden = GoldenSet("s", 3, [GoldenQuestion("q", "CEO salary?", unanswerable=True)])
    [result] = evaluate(golden, search, KNOWN, answer=lambda q: AnswerCheck(False, "It is $1.", True))
    assert (result.answer_ok, result.abstained) == (False, False)


def test_without_an_answer_function_answers_are_not_checked() -> None:
    results = evaluate(GOLDEN, search, KNOWN)
    assert [(r.answer_ok, r.abstained) for r in results] == [(None, None)] * 4
    summary = summarise(results, 3, MODES)
    assert (summary["answer_accuracy"], summary["abstention_accuracy"], summary["citation_validity"]) == (0, 0, 0)


def test_summarise_gives_stable_keys_per_mode_category_and_headline() -> None:
    summary = summarise(evaluate(GOLDEN, search, KNOWN, answer=lambda q: ANSWERS[q]), GOLDEN.k, MODES)
    assert summary["recall_at_3"] == summary["hybrid_recall_at_3"] == 0.5  # (1 + 0.5 + 0) / 3
    assert summary["precision_at_3"] == 0.2222  # (1/3 + 1/3 + 0) / 3
    assert summary["mrr"] == summary["hybrid_mrr_at_3"] == 0.5  # (1 + 0.5 + 0) / 3
    assert summary["ndcg_at_3"] == 0.4623  # (1 + 0.3869 + 0) / 3
    assert summary["hybrid_recall_at_10"] == pytest.approx(0.6667)  # q2 finds both travel docs by rank 4
    assert summary["dense_mrr_at_10"] == pytest.approx(round((1 / 3 + 1 + 0) / 3, 4))  # travel/a.md is first
    assert summary["hybrid_recall_at_5__leave"] == 1.0 and summary["hybrid_mrr_at_10__travel"] == 0.5
    assert "hybrid_recall_at_5__trap" not in summary  # unanswerable-only categories are not scored
    assert (summary["answer_accuracy"], summary["abstention_accuracy"]) == (0.5, 1.0)
    assert summary["citation_validity"] == 0.5  # q1 valid, q2 not; abstentions not counted
    assert (summary["questions"], summary["answerable_questions"]) == (4.0, 3.0)


def test_summarise_of_nothing_is_all_zero() -> None:
    summary = summarise([], 5, MODES)
    assert summary["recall_at_5"] == summary["mrr"] == summary["questions"] == 0.0


def test_summary_markdown_is_a_table_then_one_paragraph_per_figure_group() -> None:
    results = evaluate(GOLDEN, search, KNOWN, answer=lambda q: ANSWERS[q])
    summary = summarise(results, GOLDEN.k, MODES)
    lines = summary_markdown(summary, MODES).split("\n")
    assert lines[0] == "| mode | recall_at_1 | recall_at_5 | recall_at_10 | precision_at_5 | mrr_at_10 | ndcg_at_10 |"
    assert lines[3].startswith("| hybrid | 0.333 | 0.667 | 0.667 |")
    # a blank line before each paragraph, so markdown does not merge them into one
    assert lines[4:] == [
        "",
        "answers: accuracy 0.500, abstention 1.000, citation validity 0.500; "
        "abstention recall 1.000, precision 0.500, false abstention 0.333",
    ]
    figures = summary | {"pii_recall": 0.9, "pii_precision": 0.95, "secret_recall": 1.0, "clean_flagged_rate": 0.0}
    figures |= {"injection/attack_success_rate": 0.25}
    paragraphs = summary_markdown(figures, MODES).split("\n\n")
    assert [p.split(" ")[0] for p in paragraphs[1:]] == ["answers:", "redaction", "injection"]
    assert (
        paragraphs[3]
        == "injection (red-team test set): attack success 25.0% (per family and encoder in the full report)"
    )


def _split(dev_ids: set[str]) -> GoldenSet:
    return GoldenSet(
        GOLDEN.source_set,
        GOLDEN.k,
        [dataclasses.replace(q, part="dev" if q.id in dev_ids else "test") for q in GOLDEN.questions],
    )


def test_summarise_parts_headlines_the_test_part_with_dev_beside_it() -> None:
    results = evaluate(_split({"q1"}), search, KNOWN, answer=lambda q: ANSWERS[q])
    summary = summarise_parts(results, GOLDEN.k, MODES)
    # test part: q2 (recall@3 0.5, RR 0.5) and q4 (0, 0); q3 is unanswerable
    assert (summary["recall_at_3"], summary["mrr"]) == (0.25, 0.25)
    assert summary["hybrid_recall_at_5__travel"] == 1.0 and "hybrid_recall_at_5__leave" not in summary
    assert (summary["recall_at_3_dev"], summary["mrr_dev"], summary["hybrid_mrr_at_10_dev"]) == (1.0, 1.0, 1.0)
    assert not any("__" in key and key.endswith("_dev") for key in summary)  # no per-category dev keys
    assert (summary["test_questions"], summary["dev_questions"]) == (3.0, 1.0)
    assert summary["dev_test_gap"] == 0.75
    markdown = summary_markdown(summary, MODES)
    assert markdown.startswith("Test part (3 questions), dev part (1) in brackets")
    assert "| hybrid | 0.000 (1.000) | 0.500 (1.000) |" in markdown
    assert "**Dev and test differ by 0.750**" in markdown


def test_summarise_parts_without_dev_is_the_plain_summary() -> None:
    results = evaluate(GOLDEN, search, KNOWN, answer=lambda q: ANSWERS[q])
    summary = summarise_parts(results, GOLDEN.k, MODES)
    assert summary == summarise(results, GOLDEN.k, MODES) | {"test_questions": 4.0, "dev_questions": 0.0}
    assert "dev_test_gap" not in summary and "Dev and test" not in summary_markdown(summary, MODES)
    only_dev = evaluate(_split({"q1", "q2", "q3", "q4"}), search, KNOWN)
    assert summarise_parts(only_dev, GOLDEN.k, MODES)["recall_at_3"] == 0.5  # no test part: all questions
