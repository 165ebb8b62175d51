"""The labels of a composed answer that the asker wrote: kept by the answer audit only when the question's
own redaction kept them."""

from __future__ import annotations

from strata_pipeline.agent.loop import asked_labels

ANSWER = "ZRH: The answer is 18 (count servers where site = ZRH).\nBSL: The answer is 11.\nno label here"


def test_labels_the_question_holds_verbatim_are_the_askers_words() -> None:
    assert asked_labels(ANSWER, "Which site has more servers, ZRH or BSL?") == ["ZRH", "BSL"]


def test_a_label_the_questions_redaction_replaced_is_not_vouched_for() -> None:
    answer = "What is the phone number of John Smith?: no answer (none)\nThe Lisbon depot: 4 bays"
    redacted = "What is the phone number of [PERSON_1], and how many bays has the Lisbon depot?"
    assert asked_labels(answer, redacted) == []  # "The Lisbon depot" is capitalised otherwise than asked
    assert asked_labels("the Lisbon depot: 4 bays", redacted) == ["the Lisbon depot"]


def test_a_label_is_listed_once_and_text_without_labels_gives_none() -> None:
    assert asked_labels("ZRH: 18\nZRH: again", "ZRH?") == ["ZRH"]
    assert asked_labels("The answer is 18.", "How many servers in ZRH?") == []


def test_a_part_of_the_question_asked_alone_is_vouched_for_without_its_question_mark() -> None:
    question = "Why did Hoffmann Lagertechnik miss the date in May, and until when are their prices fixed?"
    answer = "Why did Hoffmann Lagertechnik miss the date in May?: a strike\nUntil when are their prices fixed?: June"
    # the first part's words stand in the question as the asker wrote them; the second is capitalised otherwise
    assert asked_labels(answer, question) == ["Why did Hoffmann Lagertechnik miss the date in May?"]
    assert asked_labels("Hoffmann?: yes", question) == []  # a lone word is vouched only as written
