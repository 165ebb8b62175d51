"""How the facts parser reads words: a question's words, English plural stems, German endings."""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import Column
from strata_pipeline.facts.cells import LANGUAGES
from strata_pipeline.facts.compounds import GERMAN_ENDINGS
from strata_pipeline.facts.vocabulary import UNITS, english

# A French elision is a word of its own: "d'hygiène" says "hygiène", "l'entrepôt" says "entrepôt"
_ELISION = re.compile(r"^(?:[cdjlmnst]|qu)'(?=\w)")


def words(text: str) -> list[str]:
    found = re.findall(r"[a-z0-9äöüßéèàç$€][\w\-.'/]*", text.lower())
    return [_ELISION.sub("", w) for w in found if w.strip(".'")]


UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
# French accents fall away in matching: "dépôt" names a column `depot`, "procédure" one named `procedure`
ACCENTS = str.maketrans("éèêëàâîïôùûç", "eeeeaaiiouuc")


def said(name: str, stems: set[str]) -> bool:
    """Whether the question's stems hold `name` (a stemmed name word), or it with a German ending."""
    return name in stems or (len(name) >= 4 and any(name + e in stems for e in GERMAN_ENDINGS))


# British and American spellings of data words are one word: a column `cost_centre` is named by "cost center"
SPELLINGS = {
    "centre": "center", "centres": "centers", "metre": "meter", "metres": "meters", "litre": "liter",
    "litres": "liters", "colour": "color", "colours": "colors", "licence": "license", "licences": "licenses",
    "catalogue": "catalog", "catalogues": "catalogs", "programme": "program", "programmes": "programs",
    "labour": "labor",
}  # fmt: skip


def stem_word(word: str) -> str:
    """English plural to singular, the same for a question's words and a column's: "warehouses" and
    "warehouse", "offices" and "office", "entries" and "entry", "boxes" and "box"."""
    word = word.strip(".'").translate(UMLAUTS).translate(ACCENTS)  # "gebühr" and "gebuehr" are one word
    word = SPELLINGS.get(word, word)
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


def inflected_forms(word: str) -> set[str]:
    """`forms` of the word and of it less a German plural or case ending ("Fahrzeuge": fahrzeug, vehicle)."""
    found = forms(word)
    for ending in GERMAN_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            found |= forms(word[: -len(ending)])
    return found


def stems(text: str) -> set[str]:
    """Stemmed words, hyphenated ones and column names also by part ("on-hand", "on_hand": on, hand),
    units as in column names."""
    found = set()
    for word in words(text):
        parts = [word, *re.split(r"[-_]", word)] if re.search(r"[-_]", word) else [word]
        found |= (
            {stem_word(w) for w in parts}
            | {LANGUAGES.get(w, w) for w in parts}
            | {UNITS[w] for w in parts if w in UNITS}
        )
        found |= {stem_word(english(w)) for w in parts if english(w)}  # "Lieferant" also names a column `supplier`
        # a compound adjective's participle names a column: "best-rated" `rating` or `rate`, "top-scored" `score`
        rated = [w for w in parts[1:] if len(w) >= 5 and w.endswith("ed")]
        found |= {f for w in rated for f in (w[:-2] + "ing", w[:-1])}
        bare = [w.strip(".'") for w in parts]  # "Fahrzeuge": fahrzeug, vehicle
        found |= {stem_word(english(w[: -len(e)])) for w in bare for e in GERMAN_ENDINGS
                  if len(w) >= 7 and w.endswith(e) and english(w[: -len(e)])}  # fmt: skip
    return found | {UNITS[sign] for sign in "$€" if sign in text}  # "$1,000": the sign is no word of its own


def unit_named(stems: set[str], column: Column) -> bool:
    """A number column named by its unit: "dollars" for list_price_usd, "days" for duration_days, "weeks" for
    "Lieferzeit Wochen" (a unit the column writes in its own language)."""
    unit = UNITS.get(column.words[-1], column.words[-1]) if column.words else ""
    return column.kind == "number" and len(column.words) > 1 and unit in set(UNITS.values()) & stems


def column_named(stems: set[str], column: Column) -> bool:
    named = [w for w in column.said_words if w not in ("eur", "usd", "the")]
    return bool(named) and all(any(said(f, stems) for f in forms(w)) for w in named[:2])
