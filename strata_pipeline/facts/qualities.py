"""What a question says the counted rows have: "vehicles that have no air conditioning", "Fahrzeuge mit
Standheizung", "véhicules avec une boîte automatique". A quality the table has no column or value for
cannot pick rows, so the count over every row would be a confident figure for another question: the
parser refuses it and names the columns that exist.
"""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import Table
from strata_pipeline.facts.vocabulary import NUMBER_WORDS, UNITS
from strata_pipeline.facts.wording import forms, stem_word, words

# a verb or preposition of having, an optional article or negation, then the noun said of the rows
HAVE = (
    r"\b(?:have|has|having|with|without|haben|hat|besitzen|besitzt|mit|ohne|ont|avec|sans|possèdent|possède)\s+"
    r"(?:(?:a|an|no|any|kein\w*|eine?\w*|un|une|des|de|du|pas\s+de|pas\s+d'|d')(?:\s+|(?<=')))?"
    r"([\wäöüéèàçîôû\-]+)"
)
# words after "have"/"with" that start a comparison, an extreme or an article, not a quality
FUNCTION_WORDS = frozenset(
    "the a an more less fewer most least highest lowest largest smallest biggest fewest best worst over under above "
    "below at than exactly between same different value values status been only at least each every "
    "der die das den dem des mehr weniger meisten wenigsten höchsten niedrigsten über unter genau jede jeder jedes "
    "jeden chaque "
    "le la les l plus moins au exactement".split()
)


def known_words(table: Table) -> set[str]:
    """The words that name something in `table`: its label, its column words and cell values (stemmed,
    and in English for German and French names)."""
    known = {f for w in words(table.label) for f in forms(w)}
    known |= {f for c in table.columns for w in c.words for f in forms(w)}
    known |= {v.lower() for c in table.columns for v in c.values}
    known |= {stem_word(w) for c in table.columns for v in c.values for w in words(v)}
    return known


def unread_quality(question: str, table: Table) -> str:
    """The noun a question says its rows have (or lack) when `table` has no column or value for it; ""
    when every such noun is known. Numbers, units and comparison words are no quality ("have 2 cores",
    "with more than", "with the highest")."""
    known = known_words(table)
    for match in re.finditer(HAVE, question.lower()):
        word = match.group(1).strip("-")
        if not word or word[0].isdigit() or word in FUNCTION_WORDS or word in NUMBER_WORDS or word in UNITS:
            continue
        if forms(word) & known or word in known:
            continue
        parts = [p for p in word.split("-") if p]
        if parts and all(forms(p) & known or p.isdigit() for p in parts):
            continue
        if len(word) >= 8 and any(len(k) >= 8 and word[:6] == k[:6] for k in known):
            continue  # a German compound or inflection of a known word ("Wartungskosten" for wartungskost...)
        return word
    return ""
