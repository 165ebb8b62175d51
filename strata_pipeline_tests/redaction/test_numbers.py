"""Phone numbers and payment cards from `numbers.py`: number plans, Luhn, and what is never a phone."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.numbers import card_spans, luhn_valid, phone_spans
from strata_pipeline.redaction.pii import DEFAULT_THRESHOLDS, PresidioDetector

PHONE_THRESHOLD = DEFAULT_THRESHOLDS["PHONE"]


def phones(text: str) -> list[str]:
    """Phone spans that redaction would replace (at or above the PHONE threshold)."""
    return [text[s.start : s.end] for s in phone_spans(text) if s.score >= PHONE_THRESHOLD]


def cards(text: str) -> list[str]:
    return [text[s.start : s.end] for s in card_spans(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Call +1 415-555-0134 today.", "+1 415-555-0134"),
        ("Call (415) 555-0134 today.", "(415) 555-0134"),
        ("Tel: +1 (415) 555-0134", "+1 (415) 555-0134"),
        ("Phone: 415.555.0134", "415.555.0134"),
        ("+1 415-555-0134 x204", "+1 415-555-0134 x204"),
        ("Tel. +44 20 7946 0958", "+44 20 7946 0958"),
        ("Mobile: 07700 900123", "07700 900123"),
        ("Call me on +44 7700 900123", "+44 7700 900123"),
        ("Tel: +49 30 123456", "+49 30 123456"),
        ("Telefon: +49 (0)30 40640037", "+49 (0)30 40640037"),
        ("Handy: 0170 1234567", "0170 1234567"),
        ("tél. +33 1 42 68 53 00", "+33 1 42 68 53 00"),
        ("+41 44 668 18 00", "+41 44 668 18 00"),
        ("Tel. 0041 44 668 18 00", "0041 44 668 18 00"),
        ("+31 20 794 0958", "+31 20 794 0958"),
        ("0031 20 794 0958", "0031 20 794 0958"),
        ("+39 06 6988 3145", "+39 06 6988 3145"),
        ("+34 912 345 678", "+34 912 345 678"),
        ("móvil 645 223 734", "645 223 734"),
        ("+353 1 234 5678", "+353 1 234 5678"),
        ("Phone +61 2 9374 4000", "+61 2 9374 4000"),
        ("Call 347 123 4567.", "347 123 4567"),
    ],
)
def test_phone_numbers(text: str, expected: str) -> None:
    assert phones(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "16.875520",
        "The coordinates are 48.137154, 11.576124 and the value 16.875520.",
        "2024-03-05 10:22",
        "Logged at 2024-03-05 10:22 by the job.",
        "Meeting 05.03.2024 10:22",
        "Windows v10.0.19045 is installed.",
        "Windows 10.0.19045",
        "Build 10.0.19045.3693 installed",
        "The server 192.168.40.17 answered.",
        "IP 10.20.30.40 is blocked",
        "order 2024-118734",
        "Your order 2024-118734 has shipped.",
        "Ticket 2024-118734 closed",
        "Invoice 20240311 is due.",
        "ISBN 978-3-16-148410-0",
        "EUR 4,168.50",
        "pi is 3.14159265",
        # case and ticket numbers filed by year, and numbers labelled as a customer's
        "Rückrufbitte zu Vorgang 2024/11873 vom 03.05.2024",
        "Ticket n° 2024-03-1187 – rappel client",
        "Your customer number: 0044 1290 7731 (please quote it)",
    ],
)
def test_not_phone_numbers(text: str) -> None:
    assert phone_spans(text) == []


def test_phone_words_raise_the_score() -> None:
    [bare] = phone_spans("+41 44 668 18 00")
    [labelled] = phone_spans("Tel. +41 44 668 18 00")
    assert labelled.score > bare.score >= PHONE_THRESHOLD
    assert "phone word" in labelled.reason and "phone word" not in bare.reason
    assert "country code" in bare.reason and "valid number plan" in bare.reason


def test_luhn() -> None:
    assert luhn_valid("4111111111111111")
    assert luhn_valid("378282246310005")
    assert not luhn_valid("4111111111111112")
    assert not luhn_valid("378282246310006")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 12 digits (Maestro)
        ("Maestro 6759 6498 2648", "6759 6498 2648"),
        ("Paid with 501812345673 yesterday.", "501812345673"),
        # 14 digits (Diners)
        ("Diners 3056 930902 5904", "3056 930902 5904"),
        # 15 digits (Amex), grouped 4-6-5 or not
        ("Amex 3782 822463 10005", "3782 822463 10005"),
        ("Amex 378282246310005", "378282246310005"),
        # 16 digits: Visa, Mastercard (5 and 2 series), Discover
        ("Card 4111 1111 1111 1111 was charged.", "4111 1111 1111 1111"),
        ("card 4111111111111111", "4111111111111111"),
        ("card 4111-1111-1111-1111", "4111-1111-1111-1111"),
        ("card 5555 5555 5555 4444", "5555 5555 5555 4444"),
        ("card 2223 0031 2200 3222", "2223 0031 2200 3222"),
        ("Discover 6011 1111 1111 1117", "6011 1111 1111 1117"),
        # 19 digits (UnionPay, Discover, Maestro)
        ("card 6221 2612 3456 7890 129", "6221 2612 3456 7890 129"),
        ("card 6221261234567890129", "6221261234567890129"),
        ("card 6011 0000 0000 0000 001", "6011 0000 0000 0000 001"),
    ],
)
def test_cards(text: str, expected: str) -> None:
    assert cards(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "card 4111 1111 1111 1112",  # fails the Luhn check
        "Visa 4111 1111 1111 1113 was declined",
        "order 4000123412341234",  # passes Luhn, but labelled as an order
        "card 4111 1111-1111 1111",  # mixed separators
        "card 41111111111",  # 11 digits
    ],
)
def test_not_cards(text: str) -> None:
    assert card_spans(text) == []


def test_a_card_word_raises_the_card_score() -> None:
    [bare] = card_spans("4111 1111 1111 1111")
    [labelled] = card_spans("Card 4111 1111 1111 1111")
    assert labelled.score > bare.score >= 0.5


def test_a_card_that_is_also_phone_shaped_is_redacted_as_a_card(regex: PresidioDetector) -> None:
    text = "Maestro 6759 6498 2648"
    assert [(f.entity, text[f.start : f.end]) for f in regex.detect(text)] == [("CREDIT_CARD", "6759 6498 2648")]
