"""How the facts parser reads words: a question's words, English plural stems, German endings."""

from __future__ import annotations

import re

from strata_pipeline.facts.vocabulary import english


def words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9äöüßéèàç$€][\w\-.'/]*", text.lower()) if w.strip(".'")]


# German plural and case endings a column or sheet name is said with ("Gebühren" for gebuehr, "Bezirke"
# for bezirk, "Zonen" for zone): read only after a name of at least four letters.
GERMAN_ENDINGS = ("e", "en", "n", "er", "ern", "es", "s")
UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def said(name: str, stems: set[str]) -> bool:
    """Whether the question's stems hold `name` (a stemmed name word), or it with a German ending."""
    return name in stems or (len(name) >= 4 and any(name + e in stems for e in GERMAN_ENDINGS))


def stem_word(word: str) -> str:
    """English plural to singular, the same for a question's words and a column's: "warehouses" and
    "warehouse", "offices" and "office", "entries" and "entry", "boxes" and "box"."""
    word = word.strip(".'").translate(UMLAUTS)  # "gebühr" and "gebuehr" are one word
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


def forms(word: str) -> set[str]:
    """A column word as matched: its stem, and the stem of its English word when it is German or French
    ("lieferant": lieferant, supplier), so that "per supplier" names a column `Lieferant` too."""
    return {stem_word(word)} | ({stem_word(english(word))} if english(word) else set())
