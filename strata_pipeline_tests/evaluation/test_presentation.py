"""The eval report in the UI: per-source-set trend keys, the question table, progress per question."""

from __future__ import annotations

import dataclasses

from strata_pipeline.evaluation.presentation import per_partition, question_table, trend_figures, trend_names
from strata_pipeline.evaluation.report import evaluate, summarise_parts
from strata_pipeline_tests.evaluation.test_golden_report import ANSWERS, GOLDEN, KNOWN, MODES, _split, search


def test_evaluate_records_the_rank_of_the_first_relevant_document_and_reports_each_question() -> None:
    calls: list[tuple[int, int]] = []
    results = evaluate(GOLDEN, search, KNOWN, answer=lambda q: ANSWERS[q], progress=lambda *a: calls.append(a))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    ranks = {r.id: r.first_relevant for r in results}
    assert ranks["q1"] == {"hybrid": 1, "dense": 3}  # dense sees leave.md third
    assert ranks["q2"]["hybrid"] == 2 and ranks["q4"] == {"hybrid": None, "dense": None}


def test_question_table_shows_question_category_rank_and_verdict() -> None:
    results = evaluate(GOLDEN, search, KNOWN, answer=lambda q: ANSWERS[q])
    assert question_table(results, GOLDEN.k).split("\n") == [
        "| id | part | category | question | first relevant rank (hybrid) | result |",
        "|---|---|---|---|---|---|",
        "| q1 | test | leave | parental leave? | 1 | pass |",
        "| q2 | test | travel | receipts? | 2 | fail |",  # found, but the answer missed a phrase
        "| q3 | test | trap | CEO salary? | n/a | pass |",  # abstained, as it should
        "| q4 | test | misc | not indexed? | – | fail |",
    ]
    unanswered = question_table(evaluate(GOLDEN, search, KNOWN), GOLDEN.k, mode="dense").split("\n")
    # without answer checks the verdict is retrieval's: a relevant document in the top k
    assert [row.rsplit("|", 3)[1:3] for row in unanswered[2:]] == [
        [" 3 ", " pass "], [" 1 ", " pass "], [" n/a ", " pass "], [" – ", " fail "]
    ]  # fmt: skip


def test_question_table_fits_its_budget_and_points_at_the_full_report() -> None:
    many = dataclasses.replace(GOLDEN, questions=GOLDEN.questions * 50)
    results = evaluate(many, search, KNOWN, answer=lambda q: ANSWERS[q])
    table = question_table(results, GOLDEN.k, max_chars=2_000, more="/reports/handbook")
    assert len(table) <= 2_000
    rows = table.split("\n")[2:]
    assert rows[-1] == f"| … | | | {200 - (len(rows) - 1)} more questions in /reports/handbook | | |"
    assert len(question_table(results, GOLDEN.k, max_chars=None).split("\n")) == 202  # the report file: all


def test_question_text_is_one_short_cell() -> None:
    long = dataclasses.replace(GOLDEN.questions[0], question="Which | pipe\nand " + "word " * 40)
    [result] = evaluate(dataclasses.replace(GOLDEN, questions=[long]), lambda q, n: {"hybrid": []}, KNOWN)
    cell = question_table([result], 3).split("\n")[2].split(" | ")[3]
    assert cell.startswith("Which \\| pipe and word") and cell.endswith("…") and len(cell) == 90


def test_trend_figures_carry_the_source_set_and_keep_their_names_across_runs() -> None:
    results = evaluate(_split({"q1"}), search, KNOWN, answer=lambda q: ANSWERS[q])
    summary = summarise_parts(results, GOLDEN.k, MODES) | {"ragas_id_context_recall": 0.5}
    summary |= {"injection/attack_success_rate": 0.1, "pii_recall": 0.9, "hybrid_recall_at_5__travel": 1.0}
    summary |= {"access/cross_group_leaks": 0.0, "access/by_caller/hr": 0.0}
    trends = trend_figures("handbook", summary, GOLDEN.k, MODES)
    assert list(trends)[:3] == ["handbook/recall_at_3", "handbook/mrr", "handbook/ndcg_at_3"]
    assert "handbook/precision_at_3" not in trends and "handbook/hybrid_recall_at_3" not in trends  # in the report
    assert trends["handbook/recall_at_3"] == summary["recall_at_3"] == 0.25
    assert {"handbook/dense_mrr_at_10", "handbook/recall_at_3_dev", "handbook/dev_test_gap"} <= set(trends)
    assert trends["handbook/access/cross_group_leaks"] == 0.0 and "handbook/ragas_id_context_recall" in trends
    # the red-team figures are one set's, the same for every source-set: headline and report only
    assert not any("injection" in key for key in trends) and "handbook/access/by_caller/hr" not in trends
    # per category, per-type redaction figures and everything else stay in the JSON report
    assert "handbook/pii_recall" not in trends and not any("__" in key for key in trends)
    assert len(trends) <= 25  # the UI draws 100 plots at most
    # another run of the same set, and another set: same names, other prefix
    assert trend_names(summary, GOLDEN.k, MODES) == [key.removeprefix("handbook/") for key in trends]
    assert set(trend_figures("products", summary, GOLDEN.k, MODES)) == {
        key.replace("handbook/", "products/", 1) for key in trends
    }


def test_per_partition_renames_numbers_only() -> None:
    assert per_partition("plant", {"mrr_drop": 0.1, "checked": 3, "baseline": "none", "ok": True}) == {
        "plant/mrr_drop": 0.1,
        "plant/checked": 3,
        "baseline": "none",
        "ok": True,
    }
