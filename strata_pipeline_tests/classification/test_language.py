"""Language identification (langdetect, seeded)."""

from __future__ import annotations

import pytest

from strata_pipeline.classification.language import detect_language

ENGLISH = (
    "Employees receive twenty-five days of paid vacation every year. Unused days can be carried over "
    "into the next year and must be taken before the end of March."
)
GERMAN = (
    "Alle Mitarbeiterinnen und Mitarbeiter erhalten jedes Jahr fünfundzwanzig Tage bezahlten Urlaub. "
    "Nicht genommene Tage können in das nächste Jahr übertragen werden und verfallen Ende März."
)
FRENCH = (
    "Tous les employés reçoivent vingt-cinq jours de congés payés chaque année. Les jours non pris "
    "peuvent être reportés sur l'année suivante et doivent être utilisés avant la fin du mois de mars."
)


@pytest.mark.parametrize(("text", "code"), [(ENGLISH, "en"), (GERMAN, "de"), (FRENCH, "fr")])
def test_detects_the_language(text: str, code: str) -> None:
    assert detect_language(text) == code


def test_detection_is_reproducible() -> None:
    assert [detect_language(GERMAN) for _ in range(3)] == ["de", "de", "de"]


@pytest.mark.parametrize("text", ["", "   ", "Hello world", "12345 67890 !!! ???", "a1 b2 c3 d4 e5 f6 g7 h8 i9 j0"])
def test_short_or_letterless_text_is_unknown(text: str) -> None:
    assert detect_language(text) == ""


@pytest.mark.parametrize(
    "text",
    [
        ENGLISH,
        GERMAN,
        FRENCH,
        "How many weeks of paid parental leave do employees get?",
        "¿Cuántas semanas de permiso parental pagado tienen los empleados?",
        "Москва столица России и крупнейший город страны",
        "E-204 encoder mismatch after firmware 4.2.1 on the RX-200",
    ],
)
def test_the_lazily_filled_table_gives_langdetects_own_probabilities(text: str) -> None:
    """The table is filled per n-gram on first use (a query does not wait for all 55 profiles), with
    the same numbers: every language's probability is langdetect's, to the last bit."""
    from langdetect import detector_factory

    from strata_pipeline.classification.language import _factory

    detector_factory.init_factory()
    theirs = detector_factory._factory.create()  # langdetect's eagerly built table
    theirs.append(text)
    ours = _factory().create()
    ours.append(text)
    expected = [(p.lang, p.prob) for p in theirs.get_probabilities()]
    assert [(p.lang, p.prob) for p in ours.get_probabilities()] == expected
