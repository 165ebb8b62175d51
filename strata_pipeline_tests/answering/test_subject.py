"""Near misses on what a question asks a value about (answering/subject.py): a specific word of the
question that no retrieved passage mentions and that the quoted sentences do not respond to, offline
and on the Claude path. Exact expectations."""

from __future__ import annotations

from strata_pipeline.answering.abstention import value_word, without_kind_cues
from strata_pipeline.answering.answer import _stem, answer_extractively, answer_with_llm, supported
from strata_pipeline.answering.subject import (
    english_subject_words,
    outranked,
    subject_words,
    unmentioned_subject,
    unsupported_subject,
    without_word,
)
from strata_pipeline.classification.nouns import english_nouns
from strata_pipeline.embedding.models import zipf_frequency
from strata_pipeline.retrieval.candidate import DENSE, Candidate

ZIPF = zipf_frequency("en")
JURY = "How many days of paid jury duty leave do employees get?"


def test_the_kind_cues_are_taken_out_of_the_question() -> None:
    assert without_kind_cues("How many weeks of notice must an employee give?").split() == [
        "of", "notice", "must", "an", "employee", "give?"
    ]  # fmt: skip
    assert "price" not in without_kind_cues("What is the price of a trailer plate?")


def test_units_months_weekdays_and_percent_are_values_not_things() -> None:
    assert [w for w in ("weeks", "kg", "January", "Monday", "weekdays", "percentage") if value_word(w)] == [
        "weeks", "kg", "January", "Monday", "weekdays", "percentage"
    ]  # fmt: skip
    assert not any(value_word(w) for w in ("wedding", "trailer", "notice"))


def test_subject_words_are_the_specific_words_of_an_english_question() -> None:
    # "paid", "days", "leave" are common or a unit; "jury", "duty", "employees" are rarer than Zipf 5
    assert subject_words(JURY, ZIPF) == ["jury", "duty", "employees"]
    assert subject_words("How much does it cost to register a trailer?", ZIPF) == ["register", "trailer"]
    assert subject_words("Wie viele Tage Urlaub gibt es bei der Hochzeit?", ZIPF) == []  # English only
    # a capitalised word is a name (question_names checks it), not a subject word
    assert subject_words("How many days of leave do Hamburg employees get?", ZIPF) == ["employees"]
    # a statement before the question is context: "workshop" is not what it asks about
    assert subject_words(f"Our trailer broke down. {JURY}", ZIPF) == ["jury", "duty", "employees"]


def test_the_words_of_the_wh_phrase_name_the_answer_type_and_are_left_out() -> None:
    # a passage answers "what seal material" with "FKM", not with the word "material"
    assert subject_words("What seal material is used in the NR-4471-D kit?", ZIPF) == []
    assert subject_words("Which operating system runs on the database server?", ZIPF) == ["database", "server"]
    assert subject_words("What is the mileage reimbursement rate for a motorcycle?", ZIPF) == ["motorcycle"]


def test_with_the_tagger_only_nouns_are_subject_words() -> None:
    borrowed = "How many spare label printers can be borrowed from the IT desk?"
    assert subject_words(borrowed, ZIPF) == ["label", "printers", "borrowed", "desk"]
    assert subject_words(borrowed, ZIPF, english_nouns) == ["label", "printers", "desk"]
    assert english_subject_words(borrowed) == ["label", "printers", "desk"]


def test_a_subject_is_mentioned_as_written_by_stem_by_prefix_or_by_a_part() -> None:
    passages = ["Registration of a car or a trailer costs 30 EUR.", "Marriage leave: 2 days."]
    assert unmentioned_subject(["register", "trailer"], passages, _stem) == []
    assert unmentioned_subject(["employees", "wedding"], passages, _stem) == ["employees", "wedding"]
    assert unmentioned_subject(["on-call"], ["Call the duty phone."], _stem) == []  # a part of it


def test_a_cognate_in_a_passage_of_another_language_holds_the_word() -> None:
    from strata_pipeline.answering.subject import cognate

    french = ["Astreinte des techniciens : indemnité forfaitaire de 250 euros par semaine."]
    assert cognate("technicians", french, _stem)
    assert not cognate("motorbike", ["Motorräder parken im Hof, je Stunde 1,80 €."], _stem)
    assert not cognate("parking", ["Parkplatz P2"], _stem)  # a stem of four letters says too little


def test_a_word_is_taken_out_whole_and_case_aside() -> None:
    assert without_word(JURY, "jury") == "How many days of paid duty leave do employees get?"
    assert without_word("Jury duty and jury-rigged", "jury") == "duty and jury-rigged"


def table(values: dict[tuple[str, str], float]):  # type: ignore[no-untyped-def]
    return lambda question, texts: [values[(question, t)] for t in texts]


def test_outranked_is_the_share_of_sentences_that_respond_more_than_the_quoted_one() -> None:
    ablated = without_word(JURY, "jury")
    readings = [("A", "S > A"), ("B", "S > B"), ("C", "S > C"), ("D", "S > D")]
    base = [0.90, 0.88, 0.87, 0.86]  # the closer reading of each, as the answerer keeps it
    # without "jury" the quoted sentence A gains (0.91): it is about leave, not jury duty; B, C, D lose
    sims = {"A": 0.91, "S > A": 0.80, "B": 0.85, "S > B": 0.84, "C": 0.86, "S > C": 0.80, "D": 0.86, "S > D": 0.85}
    similarity = table({(ablated, t): v for t, v in sims.items()})
    # responses (fall without the word): A -0.01, B 0.03, C 0.01, D 0.00
    assert outranked(JURY, "jury", readings, base, [0], similarity) == 0.75  # B, C and D respond more than A
    # quoting B (responds 0.03, the most) instead: nothing responds more
    assert outranked(JURY, "jury", readings, base, [1], similarity) == 0.0
    # the best of two quoted sentences counts
    assert outranked(JURY, "jury", readings, base, [0, 2], similarity) == 0.25
    assert outranked(JURY, "jury", [], [], [0], similarity) == 0.0


# No qualifier on "leave": "bereavement leave" would be read as a sibling of "jury duty leave" first
# (siblings.py), and these tests are about the subject check.
BEREAVEMENT = "Employees may take up to 5 paid days off after a death in the family."
CARE = "Employees may take up to 3 paid days of leave to care for a sick child."
MOVE = "Relocation support is arranged through the HR portal within 4 weeks."


def leave(title: str, text: str) -> Candidate:
    payload = {"chunk_id": f"{title}#0", "doc_id": f"hr/{title.lower()}.md", "source_set": "handbook",
               "title": "Leave Policy", "heading_path": title, "text": text, "language": "en"}  # fmt: skip
    return Candidate(point_id=title, payload=payload, scores={DENSE: 0.9})


PASSAGES = [leave("Bereavement", BEREAVEMENT), leave("Care", CARE), leave("Relocation", MOVE)]


def meaning(responds: bool):  # type: ignore[no-untyped-def]
    """A similarity in which the bereavement sentence is the closest to the question. Taking "jury" out
    of the question raises it (`responds` False: it speaks of another leave) or lowers it (`responds`
    True: it speaks of jury duty in other words); the two other sentences fall a little."""

    def similarity(question: str, texts: list[str]) -> list[float]:
        if "jury" in question:
            return [0.95 if BEREAVEMENT in t else 0.3 for t in texts]
        return [(0.80 if responds else 0.97) if BEREAVEMENT in t else 0.25 for t in texts]

    return similarity


def test_a_value_about_something_no_passage_mentions_and_the_quote_ignores_is_not_an_answer() -> None:
    missed = answer_extractively(JURY, PASSAGES, meaning(responds=False))
    assert (missed.abstained, missed.abstain_code) == (True, "no_support")
    assert missed.reason == (
        "No retrieved passage mentions jury, which the question asks about, and the closest sentences do not "
        "speak of it in other words."
    )


def test_a_quote_that_responds_to_the_word_answers_in_other_words() -> None:
    answered = answer_extractively(JURY, PASSAGES, meaning(responds=True))
    assert not answered.abstained and "5 paid days" in answered.text


def test_a_question_that_asks_no_kind_of_value_is_not_checked() -> None:
    question = "Who approves paid jury duty leave for employees?"
    reason = unsupported_subject(question, [BEREAVEMENT], _stem, english_subject_words, [(BEREAVEMENT,)],
                                 [0.9], [0], lambda q, texts: [0.99] * len(texts))  # fmt: skip
    assert reason is None
    asked = unsupported_subject(JURY, [BEREAVEMENT], _stem, english_subject_words, [(BEREAVEMENT,), (CARE,)],
                                [0.9, 0.9], [0], table({(without_word(JURY, "jury"), BEREAVEMENT): 0.95,
                                                        (without_word(JURY, "jury"), CARE): 0.8}))  # fmt: skip
    assert asked is not None and asked.startswith("No retrieved passage mentions jury")


def test_passages_in_another_language_are_not_searched_for_the_word() -> None:
    german = leave("Sonderurlaub", "Für Schöffendienst gibt es 5 bezahlte Tage Sonderurlaub.")
    german.payload["language"] = "de"
    answered = answer_extractively(JURY, [german], lambda q, texts: [0.95] * len(texts))
    assert not answered.abstained and "5 bezahlte Tage" in answered.text


class Claude:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, system: str, user: str) -> str:
        self.calls += 1
        return "Employees get 5 paid days [P1]."


def test_the_claude_path_abstains_on_the_same_near_miss_without_asking_the_model() -> None:
    claude = Claude()
    similarity = meaning(responds=False)
    answer = answer_with_llm(JURY, PASSAGES, claude, support=lambda q, passages: supported(q, passages, similarity))
    assert (answer.abstained, answer.abstain_code, answer.mode, claude.calls) == (True, "no_support", "llm", 0)
    assert "jury" in answer.reason


def test_a_where_question_is_checked_only_over_passages_all_in_its_language() -> None:
    question = "Where do contractors park at the Kestwick campus?"
    staff, visitors = "Staff park in car park P4 with a permit.", "Visitors park in the multi-storey car park P2."
    ablated = without_word(question, "contractors")
    similarity = table({(ablated, staff): 0.9, (ablated, visitors): 0.7})
    args = ([staff, visitors], _stem, english_subject_words, [(staff,), (visitors,)], [0.9, 0.9], [0], similarity)
    # the quoted staff sentence loses nothing when "contractors" is taken out; the visitors' one loses more
    reason = unsupported_subject(question, *args, places=True)
    assert reason is not None and reason.startswith("No retrieved passage mentions contractors")
    # a passage in another language may say the word in its own: no place is read then
    assert unsupported_subject(question, *args, places=False) is None


def test_the_words_that_ask_for_an_answer_type_are_no_subject() -> None:
    from strata_pipeline.answering.subject import english_subject_words

    assert english_subject_words("What's the e-mail address of the Dresden claims office?") == ["claims"]
    assert "number" not in english_subject_words("What is the phone number of the service desk?")
