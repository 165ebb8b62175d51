"""Near misses by name and by kind of value: the question names what the quoted passages do not
mention, or asks for a number, weight or speed they do not state (answering/abstention.py)."""

from __future__ import annotations

from strata_pipeline.answering.abstention import (
    named_words,
    redaction_placeholders,
    states_kind,
    unnamed_words,
)
from strata_pipeline.answering.answer import _stem


def test_named_words_are_capitalised_words_inside_a_sentence() -> None:
    assert named_words("How many van bays are there at the Madrid depot?") == ["Madrid"]
    assert named_words("Which VPN client does the Zürich office use? Where is NW Connect set up?") == [
        "VPN",
        "Zürich",
        "NW",
        "Connect",
    ]
    # the first word of a sentence, a lone "I", months and weekdays are no names
    assert named_words("Am I allowed to work in April or on Saturday?") == []
    assert named_words("Is the RX-300's dock rated IP54?") == ["RX-300", "IP54"]


def test_a_name_the_quoted_passages_do_not_mention_is_reported() -> None:
    passages = ["Munich Depot - Site Information\nEight van bays are available in the inner courtyard."]
    assert unnamed_words(["Madrid"], passages, _stem) == ["Madrid"]
    assert unnamed_words(["Munich", "munich"], passages, _stem) == []  # case aside


def test_names_match_by_stem_compound_part_and_placeholder_part() -> None:
    passages = ["Restore with Barman.", "Printer address: [IP_ADDRESS_3]", "Open the window settings."]
    assert unnamed_words(["Barman-based", "IP", "Windows"], passages, _stem) == []
    assert unnamed_words(["AnyConnect-based"], passages, _stem) == ["AnyConnect-based"]


def test_a_redacted_name_in_the_question_is_a_placeholder() -> None:
    assert redaction_placeholders("Opening hours of the [PERSON_1] depot, [PERSON_1] and [EMAIL_2]?") == [
        "[PERSON_1]",
        "[EMAIL_2]",
    ]
    assert redaction_placeholders("Opening hours of the Porto depot?") == []


def test_a_number_weight_or_speed_is_stated_or_not() -> None:
    assert states_kind("number", "The training room seats twelve people.")
    assert states_kind("number", "Loans: 4 laptops.")
    assert not states_kind("number", "Courses are held online or at our training center.")
    assert states_kind("weight", "The compact van may carry at most 400 kg of tools.")
    assert not states_kind("weight", "| RX Dock charging station | 24 months from delivery |")
    assert states_kind("speed", "Maximum speed: 2.0 m/s")
    assert not states_kind("speed", "Maximum payload: 300 kg (top module), 500 kg towing")
    assert states_kind("km", "Private use was allowed up to 300 km per month.")
