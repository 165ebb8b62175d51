"""The query screen: which queries must go to the full detector, and the guard that skips it."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.guard import Audited, PrivacyGuard
from strata_pipeline.redaction.pii import PiiPolicy, PresidioDetector
from strata_pipeline.redaction.screen import might_hold_personal_data, might_hold_personal_data_in_prose


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("How many weeks of paid parental leave do employees get?", False),  # a capital on the first word only
        ("will the leave carry over", False),  # "will" is a given name, but an ordinary word first
        ("what did Anna say about leave", True),
        ("How many days of parental leave can I take?", False),  # the pronoun "I" names nobody
        ("can I ask Anna", True),
        ("call 0171 2345", True),
        ("mail me at a@b.example", True),
        ("talked to pernille yesterday", True),  # a listed given name that is no common word
        ("who is McBride", True),
        ("McBride's address", True),  # inner capitals in the first word
    ],
)
def test_the_screen_sends_anything_a_detector_could_act_on(query: str, expected: bool) -> None:
    assert might_hold_personal_data(query) is expected


def test_a_cleared_query_never_builds_the_detector_but_secrets_are_still_replaced(ner: PresidioDetector) -> None:
    built: list[int] = []

    def make() -> PresidioDetector:
        built.append(1)
        return ner

    guard = PrivacyGuard(make, PiiPolicy())
    cleared = guard.redact_query("password=hunter-correct-horse-staple")
    assert "hunter" not in cleared.text and cleared.redactions == 1  # secrets are scanned either way
    assert guard.redact_query("parental leave weeks").text == "parental leave weeks"
    assert built == []
    assert guard.redact_query("what did Anna say").text == "what did [PERSON_1] say"
    assert built == [1]


def test_a_blank_answer_is_audited_without_building_the_detector(ner: PresidioDetector) -> None:
    """An abstained answer has no text: its audit cannot find anything, so it does not pay for the detector."""
    built: list[int] = []

    def make() -> PresidioDetector:
        built.append(1)
        return ner

    guard = PrivacyGuard(make, PiiPolicy())
    assert guard.audit_answer("") == Audited("", 0)
    assert guard.audit_answer("  \n") == Audited("  \n", 0)
    assert built == []
    assert guard.audit_answer("what did Anna say").text == "what did [PERSON_1] say"
    assert built == [1]


def test_plain_words_are_looked_up_in_a_table_that_says_what_the_name_index_and_wordfreq_say() -> None:
    """A plain a-z word is one lookup in a table worked out once from the name index and wordfreq, so
    a query does not load either. Over wordfreq's 40,000 most common English words (the common-word
    threshold falls among them) and some given names, the table agrees with asking the two directly."""
    from wordfreq import top_n_list

    from strata_pipeline.redaction.screen import PLAIN, _listed_and_uncommon, _lowercase_name

    names = "pernille anna will mark may mohammed siobhan ingrid hansen dupont kreszentia wende joe bob".split()
    words = [w for w in [*top_n_list("en", 40000), *names] if PLAIN.fullmatch(w)]
    expected = [len(w) >= 3 and _listed_and_uncommon(w) for w in words]
    assert [_lowercase_name(w) for w in words] == expected
    assert 100 < sum(expected) < len(words) - 100  # both answers are well represented


def test_a_value_the_corpus_shows_in_clear_stays_in_the_query(ner: PresidioDetector) -> None:
    guard = PrivacyGuard(ner, PiiPolicy())
    asked: list[str] = []

    def shown(value: str) -> bool:
        asked.append(value)
        return value == "Basel"  # the index prints the town; it holds no clear name of a person

    text = "Which printer in Basel did Anna Berg report? Her token: password=hunter-correct-horse-staple"
    redacted = guard.redact_query(text, shown=shown).text
    assert "Basel" in redacted and "Anna Berg" not in redacted and "[PERSON_1]" in redacted
    assert "hunter" not in redacted  # secrets are replaced whatever the index shows
    assert "Anna Berg" in asked
    assert guard.redact_query("Which printer in Basel did Anna Berg report?").text.count("[") >= 1


def test_an_answer_copied_from_indexed_passages_is_audited_without_the_detector(ner: PresidioDetector) -> None:
    """Quotes and citation markers the index vouches for were redacted at ingestion by the same detector:
    only wording the answer adds can bring a name in, and only that wording builds the detector."""
    built: list[int] = []

    def make() -> PresidioDetector:
        built.append(1)
        return ner

    guard = PrivacyGuard(make, PiiPolicy())
    quote = "Full-time staff at the Basel office receive 25 days of leave."
    answer = f"{quote} [hr/leave.md#s2]"
    assert guard.audit_answer(answer, [quote, "[hr/leave.md#s2]"]) == Audited(answer, 0)
    assert built == []
    # a secret is still found in a vouched span: secrets are scanned over the whole text
    leaked = guard.audit_answer("key AKIAIOSFODNN7EXAMPLE", ["key AKIAIOSFODNN7EXAMPLE"])
    assert "AKIAIOSFODNN7EXAMPLE" not in leaked.text and built == []
    # generated wording around the quote is audited in full
    audited = guard.audit_answer(f"Anna Schmidt confirmed: {answer}", [quote, "[hr/leave.md#s2]"])
    assert audited.text.startswith("[PERSON_1] confirmed:") and built == [1]


def test_what_an_answer_copies_from_the_index_is_not_read_again_out_of_its_row(ner: PresidioDetector) -> None:
    """A row read with its column names ("campus: Brandholm") or a facts group ("Autohaus Nord: 7") copies
    cells the ingestion judged under their header and kept; out of the table the NER reads them as
    names. Wording the answer adds is still audited, whatever stands beside it."""
    guard = PrivacyGuard(ner, PiiPolicy())
    record = "code: ADH-4417; procedure: Knee arthroscopy; campus: Brandholm; price_gbp: 3650 GBP"
    cells = ["ADH-4417", "Knee arthroscopy", "Brandholm", "3650"]
    assert guard.audit_answer(record, cells) == Audited(record, 0)
    assert "[PERSON_1]" in guard.audit_answer(record, []).text  # read alone, the campus looks like a name
    groups = "Autohaus Nord: 7; Reifen Huber: 5 (group_by maintenance log per garage; 16 row(s) counted)."
    assert guard.audit_answer(groups, ["Autohaus Nord: 7; Reifen Huber: 5"]).text == groups
    named = guard.audit_answer(f"{record}; approved by Anna Schmidt", cells).text
    assert "Brandholm" in named and "Anna Schmidt" not in named
    # a vouched word covers only itself as a whole word: "Nord" does not cover "Nordmann"
    assert "Nordmann" not in guard.audit_answer("Ask Bernd Nordmann at Autohaus Nord.", ["Nord"]).text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Anna answered.", True),  # a sentence may open with a name
        ("the claim was filed on time", False),
        ("see room 4", True),
        ("ask pernille", True),
    ],
)
def test_the_prose_screen_counts_every_capital(text: str, expected: bool) -> None:
    assert might_hold_personal_data_in_prose(text) is expected
