"""Sibling qualifiers (answering/siblings.py): a quoted sentence about the question's head noun with
another qualifier ("partial cover" for "comprehensive cover") does not answer it. Exact expectations,
with the real spaCy tagger."""

from __future__ import annotations

from strata_pipeline.answering.answer import _stem, answer_extractively
from strata_pipeline.answering.siblings import (
    english_sibling_qualifier,
    linked_heads,
    qualified_heads,
    sibling_qualifier,
)
from strata_pipeline.classification.nouns import english_tags
from strata_pipeline.retrieval.candidate import DENSE, Candidate

EXCESS = "What excess applies to a windscreen replacement under comprehensive cover?"
PARTIAL = "The policy excess applies (usually 150 € in partial cover)."


def always(sentence: str) -> bool:
    return True


def check(question: str, sentence: str, passage: str = "") -> str | None:
    return sibling_qualifier(question, [(sentence, passage or sentence)], _stem, english_tags, always)


def test_the_qualifier_is_the_word_before_the_head_of_its_phrase() -> None:
    assert qualified_heads(EXCESS, english_tags) == [("windscreen", "replacement"), ("comprehensive", "cover")]
    # "legal expenses insurance": the head is the last noun, its qualifier the noun before it
    assert qualified_heads("What commission do brokers receive for legal expenses insurance?", english_tags) == [
        ("expenses", "insurance")
    ]


def test_time_version_size_and_the_askers_role_are_no_qualifiers() -> None:
    for question in (
        "How many visitors were allowed under the previous policy?",  # versions are the priors' business
        "A stone left a tiny chip in my windscreen. Will I have to pay?",  # a size, not a kind of chip
    ):
        assert qualified_heads(question, english_tags) == [], question
    asker = "How many paid days off does a staff member get when a close relative dies?"
    assert ("staff", "member") not in qualified_heads(asker, english_tags)  # the phrase before the verb: who asks


def test_a_sentence_on_a_sibling_of_the_asked_thing_does_not_answer() -> None:
    assert check(EXCESS, PARTIAL) == (
        "The quoted sentences speak of partial cover, not comprehensive cover, which the question asks about."
    )


def test_the_asked_qualifier_anywhere_in_the_passage_lets_the_answer_stand() -> None:
    passage = f"Glass claims under partial or comprehensive cover. {PARTIAL}"
    assert check(EXCESS, PARTIAL, passage) is None


def test_a_sentence_with_no_qualifier_on_the_head_may_answer_in_other_words() -> None:
    assert check(EXCESS, "The excess for a new windscreen is 150 € under any cover.") is None
    assert check(EXCESS, "A windscreen replacement costs the customer 150 €.") is None  # no cover at all


def test_a_sibling_that_is_a_word_of_the_question_is_the_question_s_own() -> None:
    question = "What is the per diem meal allowance for international business travel?"
    assert check(question, "- $110 per day for international travel") is None


def test_hyphenated_qualifiers_are_read_as_the_tagger_splits_them() -> None:
    question = "How long are the sample results of a boil-water notice kept?"
    assert check(question, "The boil-water notice is lifted after two clean samples.") is None


def test_only_sentences_that_state_the_asked_kind_of_value_are_read() -> None:
    question = "What excess in euros applies under comprehensive cover?"
    stating = sibling_qualifier(question, [(PARTIAL, PARTIAL)], _stem, english_tags, lambda s: "€" in s)
    assert stating is not None and "partial cover" in stating
    # the best sentence that states a value is not about cover: nothing to compare
    quoted = [("Glass repairs have no excess.", ""), (PARTIAL, PARTIAL)]
    assert sibling_qualifier(question, quoted, _stem, english_tags, lambda s: "€" in s or "no" in s) is None


def test_german_and_french_questions_are_not_read() -> None:
    assert english_sibling_qualifier("Welche Selbstbeteiligung gilt bei Vollkasko?", [(PARTIAL, PARTIAL)],
                                     _stem, always) is None  # fmt: skip


def candidate(text: str) -> Candidate:
    payload = {"chunk_id": "glass#0", "doc_id": "claims/motor-glass.md", "source_set": "insurance",
               "title": "Motor glass claims", "heading_path": "Excess", "text": text, "language": "en"}  # fmt: skip
    return Candidate(point_id="glass", payload=payload, scores={DENSE: 0.9})


def test_the_answerer_abstains_on_a_sibling_and_answers_the_asked_thing() -> None:
    close = lambda q, texts: [0.95] * len(texts)  # noqa: E731 (every sentence on the topic)
    missed = answer_extractively(EXCESS, [candidate(PARTIAL)], close)
    assert (missed.abstained, missed.abstain_code) == (True, "no_support")
    assert "partial cover, not comprehensive cover" in missed.reason
    answered = answer_extractively(EXCESS, [candidate(PARTIAL.replace("partial", "comprehensive"))], close)
    assert not answered.abstained and "150 €" in answered.text


def test_a_spreadsheet_row_for_another_kind_does_not_answer() -> None:
    question = "What hourly rate does an external adjuster get on a cyber claim?"
    row = "adjuster-fees: band: M3; line: motor; claim_value_from_eur: 25001; hourly_rate_eur: 120"
    assert check(question, row) == (
        "The quoted sentences speak of motor claim, not cyber claim, which the question asks about."
    )
    assert check(question.replace("cyber", "motor"), row) is None  # the row's own kind
    # a row with no cell in words names no kind
    assert check(question, "adjuster-fees: band: M3; claim_value_from_eur: 25001; hourly_rate_eur: 120") is None


def test_a_qualifier_after_its_head_is_read_after_of_or_for() -> None:
    # "cost" ends the question as a verb, though the small tagger reads it as a noun
    assert linked_heads("How much does an MRI scan of the shoulder cost?", english_tags) == [("shoulder", "scan")]
    assert linked_heads("What does a hearing test for a child cost?", english_tags) == [("child", "test")]
    assert linked_heads("What is the price of a hearing test?", english_tags) == []  # a figure of, no kind of price
    assert linked_heads("Is there a test for a child seat?", english_tags) == []  # "child" qualifies the seat


def test_a_row_for_a_sibling_after_the_head_does_not_answer() -> None:
    row = "self-pay prices: code: ADH-1042; procedure: MRI scan knee; campus: Kestwick; price_gbp: 420"
    assert check("How much does an MRI scan of the shoulder cost?", row) == (
        "The quoted sentences speak of knee scan, not shoulder scan, which the question asks about."
    )
    assert check("How much does an MRI scan of the knee cost?", row) is None  # the row's own qualifier
    adult = "self-pay prices: code: ADH-2240; procedure: Hearing test adult; campus: Brandholm; price_gbp: 120"
    assert check("What does a hearing test for a child cost?", adult) is not None
    # in prose only "of" or "for" puts a qualifier after its head: "the test results" name no other test
    assert check("What does a hearing test for a child cost?", "The hearing test results cost nothing.") is None
    assert check("What does a hearing test for a child cost?", "A hearing test for an adult costs 120 £.") is not None


def test_how_often_a_thing_recurs_is_a_kind_of_it() -> None:
    weekly = "Frequent visitors can buy a weekly ticket for £15 at the main reception."
    question = "How much does a monthly parking ticket cost at Kestwick?"
    assert ("monthly", "ticket") in qualified_heads(question, english_tags)
    assert check(question, weekly, "Parking at Kestwick campus\n" + weekly) == (
        "The quoted sentences speak of weekly ticket, not monthly ticket, which the question asks about."
    )
    assert check("How much does a weekly parking ticket cost at Kestwick?", weekly) is None


def test_a_sibling_before_the_head_counts_against_a_qualifier_after_it() -> None:
    # both quoted rows are on other tests: an adult's hearing test, and a blood test
    rows = [
        ("self-pay prices: procedure: Hearing test adult; price_gbp: 120", "Self-pay prices"),
        ("self-pay prices: procedure: Blood test full blood count; price_gbp: 35", "Self-pay prices"),
    ]
    reason = sibling_qualifier("What does a hearing test for a child cost?", rows, _stem, english_tags, always)
    assert reason == "The quoted sentences speak of adult test, not child test, which the question asks about."


def test_degree_words_and_yes_no_cells_name_no_kind() -> None:
    # "the smallest amount" asks for an extreme, not for a kind of amount: "higher amounts" is no sibling
    assert qualified_heads("What's the smallest amount I'm allowed to pay?", english_tags) == []
    higher = "For arrears of up to 1,500 € we agree a plan; higher amounts need the approval of the team."
    assert check("What's the smallest amount I'm allowed to pay?", higher) is None
    # a yes/no cell says whether the row has its column's thing; the row's kinds are its words
    question = "What hourly rate does an external adjuster get on a cyber claim?"
    assert (
        check(
            question,
            "adjuster-fees: band: M3; line: motor; claim_value_from_eur: 25001; travel: yes; hourly_rate_eur: 120",
        )
        is not None
    )
    assert (
        check(
            question,
            "adjuster-fees: band: M3; claim_value_from_eur: 25001; travel: yes; night: no; hourly_rate_eur: 120",
        )
        is None
    )
    # a cell that names the question's own row: its other cells are that row's, no sibling kinds
    row = "ppe-matrix: task: chlorination of a water tank; helmet: no; gloves: chemical gloves; other: full face mask"
    assert check("What kind of respiratory protection do I need for chlorinating a water tank?", row) is None


def test_the_subject_of_a_passive_question_is_what_it_asks_about() -> None:
    # "how long are dental records kept": after a form of "be" the phrase before the verb is the asked thing
    question = "How long are dental records kept under the records retention schedule?"
    assert ("dental", "records") in qualified_heads(question, english_tags)
    assert ("staff", "member") not in qualified_heads("How many days does a staff member get?", english_tags)
    # a row that puts another qualifier after the head ("Records of deceased patients") is a sibling too
    row = "retention: record: Records of deceased patients; kept: 8 years after death"
    assert check(question, row) == (
        "The quoted sentences speak of deceased records, not dental records, which the question asks about."
    )
    assert check(question.replace("dental", "deceased"), row) is None
    # in prose "for" may give a purpose, not a kind: "your own car for business trips" is no business car
    own = "Using your own car for business trips is reimbursed at $0.67 per mile."
    assert check("What is the mileage rate for a personal car?", own) is None


def test_a_qualified_thing_of_the_statement_before_the_question_is_context() -> None:
    sentence = "E-3204 is common in unheated cold-storage warehouses; let the pack warm up for 2 hours."
    said = "Our RX-300 works in a freezer warehouse and shows E-3204. How long should the pack warm up before charging?"
    assert check(said, sentence) is None
    asked = "How long should the pack warm up in a freezer warehouse before charging?"
    assert check(asked, "Storage warehouses: let the pack warm up for 2 hours.") is not None
