"""ragas metrics of the eval report: hand-computed ID precision/recall and string similarity through
ragas's own metric classes, and the judged metrics through a scripted judge (Claude cannot run here)."""

from __future__ import annotations

import json

import pytest

from strata_pipeline.evaluation.golden import GoldenQuestion, GoldenSet
from strata_pipeline.evaluation.ragas_metrics import (
    JUDGE_SYSTEM,
    RagasInput,
    build_inputs,
    offline_scores,
    ragas_markdown,
    reference_doc_ids,
    score_ragas,
)
from strata_pipeline.evaluation.report import evaluate, summarise, summary_markdown
from strata_pipeline.evaluation.results import AnswerCheck
from strata_pipeline.resources import AnthropicResource

KNOWN = {"hr/leave.md", "hr/faq.txt", "travel/a.md", "travel/b.md", "it/vpn.md", "it/mail.md"}
GOLDEN = GoldenSet(
    "s",
    4,
    [
        GoldenQuestion(
            "q1", "parental leave?", relevant=("hr/leave.md", "hr/faq.txt"), expected_answer_contains=("16 weeks",)
        ),
        GoldenQuestion("q2", "receipts?", relevant=("travel/",), expected_answer_contains=("$25", "itemized")),
        GoldenQuestion("q3", "CEO salary?", unanswerable=True),
        GoldenQuestion("q4", "vpn?", relevant=("it/vpn.md",)),
    ],
)
# Passages supplied to the answerer, as (document, text); q1 gets two passages of leave.md.
SUPPLIED = {
    "parental leave?": [
        ("hr/leave.md", "16 weeks of paid leave."),
        ("it/vpn.md", "VPN."),
        ("hr/leave.md", "More."),
        ("it/mail.md", "Mail."),
        ("hr/faq.txt", "FAQ."),
    ],
    "receipts?": [("travel/a.md", "Receipts above $25."), ("hr/faq.txt", "FAQ.")],
    "CEO salary?": [("hr/faq.txt", "FAQ.")],
    "vpn?": [("it/mail.md", "Mail.")],
}
TEXTS = {
    "parental leave?": "New parents get 16 weeks of paid leave.",
    "receipts?": "",
    "CEO salary?": "",
    "vpn?": "Use the mail relay.",
}


def answer(question: str) -> AnswerCheck:
    docs, texts = zip(*SUPPLIED[question], strict=True)
    return AnswerCheck(not TEXTS[question], TEXTS[question], True, context_ids=docs, contexts=texts)


def search(question: str, limit: int) -> dict[str, list[str]]:
    return {"hybrid": [d for d, _ in SUPPLIED[question]]}


def results():
    return evaluate(GOLDEN, search, KNOWN, answer=answer)


def test_folder_labels_expand_to_the_indexed_documents_under_them() -> None:
    assert reference_doc_ids(GOLDEN.questions[1], KNOWN) == ["travel/a.md", "travel/b.md"]
    assert reference_doc_ids(GOLDEN.questions[0], KNOWN) == ["hr/leave.md", "hr/faq.txt"]


def test_inputs_use_the_supplied_passages_documents_and_skip_what_cannot_be_scored() -> None:
    q1, q2, q3, q4 = build_inputs(GOLDEN, results(), KNOWN)
    assert q1.retrieved_ids == ["hr/leave.md", "it/vpn.md", "it/mail.md", "hr/faq.txt"]  # distinct, in order
    assert q1.reference == "16 weeks" and q2.reference == "$25 itemized"  # expected strings joined
    assert q2.reference_ids == ["travel/a.md", "travel/b.md"] and q2.abstained and q2.response == ""
    assert (q3.reference_ids, q3.reference) == (None, None)  # unanswerable: neither context nor string
    assert q4.reference is None  # no expected strings


def test_id_based_precision_and_recall_follow_ragas_set_definitions() -> None:
    scores = offline_scores(build_inputs(GOLDEN, results(), KNOWN))
    # q1: 4 distinct documents retrieved, 2 of them relevant; both relevant ones retrieved.
    assert (scores["q1"]["id_context_precision"], scores["q1"]["id_context_recall"]) == (0.5, 1.0)
    # q2: travel/ expands to a.md and b.md; 1 of 2 retrieved is relevant, 1 of 2 relevant is retrieved.
    assert (scores["q2"]["id_context_precision"], scores["q2"]["id_context_recall"]) == (0.5, 0.5)
    assert scores["q3"] == {}  # unanswerable: skipped
    assert (scores["q4"]["id_context_precision"], scores["q4"]["id_context_recall"]) == (0.0, 0.0)
    assert "string_similarity" not in scores["q4"]


def test_string_similarity_is_one_minus_normalised_levenshtein() -> None:
    def similarity(reference: str, response: str) -> float:
        item = RagasInput("x", "?", [], None, response=response, reference=reference)
        return offline_scores([item])["x"]["string_similarity"]

    assert similarity("kitten", "sitting") == round(1 - 3 / 7, 4)  # 3 edits over 7 characters
    reference = "The early shift starts at 06:00."
    identical = similarity(reference, reference)
    paraphrase = similarity(reference, "The early shift begins at 6:00.")
    unrelated = similarity(reference, "Receipts are required above $25.")
    assert identical == 1.0 > paraphrase > unrelated >= 0.0


def test_an_abstention_on_an_answerable_question_scores_low_string_similarity() -> None:
    scores = offline_scores(build_inputs(GOLDEN, results(), KNOWN))
    assert scores["q2"]["string_similarity"] == 0.0  # "" vs "$25 itemized"
    assert 0.0 < scores["q1"]["string_similarity"] < 1.0


def test_without_a_judge_only_offline_keys_exist_and_the_summary_says_so() -> None:
    rs = results()
    ragas = score_ragas(GOLDEN, rs, KNOWN)
    assert ragas == {
        "ragas_id_context_precision": round((0.5 + 0.5 + 0.0) / 3, 4),
        "ragas_id_context_recall": 0.5,  # (1 + 0.5 + 0) / 3
        "ragas_string_similarity": pytest.approx((rs[0].ragas["string_similarity"] + 0.0) / 2, abs=1e-4),
    }
    assert rs[2].ragas == {} and set(rs[0].ragas) == {"id_context_precision", "id_context_recall", "string_similarity"}
    markdown = summary_markdown(summarise(rs, GOLDEN.k, ["hybrid"]) | ragas, ["hybrid"])
    assert "ragas: ID context precision 0.333, ID context recall 0.500" in markdown
    assert "faithfulness, answer relevancy: not configured" in markdown
    assert ragas_markdown({"recall_at_5": 1.0}) is None


# --- judged metrics ---------------------------------------------------------------------------

QUESTION_VECTORS = {"parental leave?": [1.0, 0.0], "vpn?": [0.0, 1.0]}
GENERATED = {"How long is parental leave?": [0.6, 0.8], "How do I reach the VPN?": [0.0, 1.0]}


def embed(text: str) -> list[float]:
    return (QUESTION_VECTORS | GENERATED)[text]


class ScriptedJudge(AnthropicResource):
    """Replies like Claude would to ragas's three prompts, and records which model was asked."""

    def complete(self, system: str, user: str) -> str:
        CALLS.append((self.model, system))
        assert system == JUDGE_SYSTEM
        if '"noncommittal"' in user:  # answer relevancy: a question the answer answers
            parental = "16 weeks" in user
            question = "How long is parental leave?" if parental else "How do I reach the VPN?"
            return json.dumps({"question": question, "noncommittal": 0 if parental else 1})
        if '"verdict"' in user:  # faithfulness step 2: one verdict per statement
            verdicts = [1, 0] if "16 weeks" in user else [1]
            statements = [{"statement": f"s{i}", "reason": "r", "verdict": v} for i, v in enumerate(verdicts)]
            return "```json\n" + json.dumps({"statements": statements}) + "\n```"  # fenced, as models often do
        statements = ["Parents get 16 weeks.", "The leave is paid."] if "16 weeks" in user else ["Use mail."]
        return "Here you go: " + json.dumps({"statements": statements})


CALLS: list[tuple[str, str]] = []


def test_judged_metrics_use_the_judge_model_and_flow_into_the_summary() -> None:
    CALLS.clear()
    generator = ScriptedJudge(api_key="test-key", model="claude-sonnet-4-5", judge_model="claude-haiku-4-5")
    rs = results()
    ragas = score_ragas(GOLDEN, rs, KNOWN, complete=generator.judge().complete, embed_query=embed)
    assert {model for model, _ in CALLS} == {"claude-haiku-4-5"} != {generator.model}
    # Given answers only (q1, q4): 2 faithfulness steps + 3 relevancy questions each.
    assert len(CALLS) == 10
    by_id = {r.id: r.ragas for r in rs}
    assert by_id["q1"]["faithfulness"] == 0.5 and by_id["q4"]["faithfulness"] == 1.0
    assert by_id["q1"]["answer_relevancy"] == 0.6  # cosine([0.6, 0.8], [1, 0])
    assert by_id["q4"]["answer_relevancy"] == 0.0  # noncommittal answers score 0
    assert "faithfulness" not in by_id["q2"] and "answer_relevancy" not in by_id["q2"]  # abstained: not judged
    assert (ragas["ragas_faithfulness"], ragas["ragas_answer_relevancy"]) == (0.75, 0.3)
    assert (ragas["ragas_judged_answers"], ragas["ragas_judge_errors"]) == (2.0, 0.0)
    line = ragas_markdown(ragas)
    assert line is not None and line.endswith("faithfulness 0.750, answer relevancy 0.300")


class BrokenJudge(AnthropicResource):
    def complete(self, system: str, user: str) -> str:
        if '"noncommittal"' in user:
            raise RuntimeError("overloaded")
        return "I cannot grade this."


def test_failed_judgements_are_counted_never_scored() -> None:
    rs = results()
    ragas = score_ragas(GOLDEN, rs, KNOWN, complete=BrokenJudge(api_key="k").judge().complete, embed_query=embed)
    assert "ragas_faithfulness" not in ragas and "ragas_answer_relevancy" not in ragas
    assert ragas["ragas_judge_errors"] == 4.0  # two metrics for each of the two given answers
    assert all("faithfulness" not in r.ragas for r in rs)
    assert ragas_markdown(ragas).endswith("no judged scores (4 judge errors)")


@pytest.mark.parametrize("judge_model", ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929", " Claude-Sonnet-4-5 "])
def test_the_generator_can_never_judge_itself(judge_model: str) -> None:
    with pytest.raises(ValueError, match="STRATA_JUDGE_MODEL"):
        AnthropicResource(api_key="k", model="claude-sonnet-4-5", judge_model=judge_model).judge()


def test_the_default_judge_differs_from_the_default_generator() -> None:
    from strata_pipeline.settings import load_settings

    settings = load_settings()
    resource = AnthropicResource(api_key="k", model=settings.anthropic_model, judge_model=settings.judge_model)
    assert resource.judge().model == settings.judge_model != settings.anthropic_model
