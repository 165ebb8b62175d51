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
