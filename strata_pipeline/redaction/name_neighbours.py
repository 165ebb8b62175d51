"""Where a run sits among its neighbours: the places around it, and the table column it fills.

Evidence for `name_runs._score_run`, kept apart from the run's own words: "northern Portugal" and
"in Aarlingen,\nWeißbach and Colmont" name places, and a "name" column of "Munich EU Depot" and "Reno
Logistics Hub" names things.
"""

from __future__ import annotations

import re
from functools import lru_cache

from strata_pipeline.facts.countries import COUNTRIES, REGIONS
from strata_pipeline.redaction.name_cues import HYPHENATED_WORD, PARTICLES, THING_WORDS
from strata_pipeline.redaction.name_evidence import NO_RANK_RANKS, Token, given_name, word_commonness
from strata_pipeline.redaction.name_index import NameIndex
from strata_pipeline.redaction.name_layout import TableColumn, body_cells, table_column

# A preposition of place before a run, or before a list that the run goes on: "in Basel", "in
# Aarlingen,\nWeißbach and Colmont".
PLACE_PREPOSITION_BEFORE = re.compile(
    r"(?:^|\s)(?:in|from|near|to|at|en|à|aus|nach|bei|dans|desde|da|naar|uit)[ \t]+"
    r"(?:[A-ZÀ-Ý][^\W\d_]*(?:-[^\W\d_]+)*,\s+){0,4}$"
)
_CONJUNCTIONS = frozenset({"and", "or", "und", "oder", "et", "ou", "&", ","})


def beside_a_place(tokens: list[Token], i: int, j: int, index: NameIndex) -> bool:
    """Whether the run is listed with a place the NER knows and no list holds as a given name: "update
    Basel and Stuttgart", "Zürich, Basel". The small model calls many a given name a place ("Marie,
    Brooke, Anna"): those neighbours say nothing."""

    def next_word(k: int, step: int) -> int:  # past the line breaks spaCy keeps as tokens
        while 0 <= k < len(tokens) and not tokens[k].text.strip():
            k += step
        return k

    def place_beyond(k: int, step: int) -> bool:
        k = next_word(k, step)
        if not (0 <= k < len(tokens) and tokens[k].text.casefold() in _CONJUNCTIONS):
            return False
        k = next_word(k + step, step)
        return 0 <= k < len(tokens) and tokens[k].ent_type_ in ("GPE", "LOC") and not given_name(tokens[k].text, index)

    return place_beyond(j, 1) or place_beyond(i - 1, -1)


def column_of_people(text: str, position: int, index: NameIndex) -> bool:
    """Whether the table column holding `position` lists people: more than half of its cells could be a
    name: one to four capitalised words, no digit, no word that ends a place's or a thing's name, and
    not one everyday word unless a list ranks it among its 200 most popular names ("Weber", "Low"; not
    "Critical", "Medium"). Most cells, not any: the lists are noisy. A column of one cell (a form
    field), or none, is taken at its header's word."""
    column = table_column(text, position)
    return column is None or _lists_people(text, column, index)


@lru_cache(maxsize=64)
def _lists_people(text: str, column: TableColumn, index: NameIndex) -> bool:
    """The verdict of `column_of_people`, once per column of a text: each of its cells asks."""
    cells = [c for c in body_cells(text, column) if c]
    if len(cells) < 2:
        return True

    def could_be_a_name(cell: str) -> bool:
        words = HYPHENATED_WORD.findall(cell)
        if not 1 <= len(words) <= 4 or any(ch.isdigit() for ch in cell):
            return False
        if any(w.casefold().rstrip(".") in THING_WORDS for w in words) or not all(
            w[0].isupper() or w.casefold() in PARTICLES for w in words
        ):
            return False
        lone = words[0].rstrip(".")
        return len(words) > 1 or word_commonness(lone) < 3.5 or (index.ranks(lone) or NO_RANK_RANKS).best <= 200

    return 2 * sum(could_be_a_name(c) for c in cells) > len(cells)


# Before a place: a preposition of place or a compass adjective ("in", "within", "northern", "nach").
_PLACE_BEFORE = re.compile(
    r"(?i)(?:^|[\s(])(?:in|within|to|from|across|throughout|northern|southern|eastern|western|central"
    r"|nach|aus|ganz|en|au|aux|dans"
    # the branch of a company in a country: "succursale de Luxembourg", "Niederlassung Österreich"
    r"|(?:branch|succursale|filiale|agence|sucursal|niederlassung|zweigniederlassung|vestiging|filiaal)"
    r"(?:[ \t]+(?:of|in|de|du|di|del|von|für))?)\s+$"
)


def _country_or_region(casefolded: str) -> bool:
    return casefolded in COUNTRIES or casefolded in REGIONS


def place_name(phrase: str, before: str, words: list[str], index: NameIndex) -> bool:
    """A country, or a first-level region in a place's context: "Deutschland", "northern Portugal",
    "within Galicia", "Portugal and Galicia". A popular given name needs more ("Georgia", "Victoria":
    the 500 most popular; a country outside a place's context: the 2,000)."""
    casefolded = phrase.casefold()
    if not _country_or_region(casefolded):
        return False
    first = min((index.ranks(w) or NO_RANK_RANKS).first for w in words)
    coordinated = re.search(r"([^\W\d_]+)[ \t]+(?:and|und|et|,)[ \t]+$", before)
    in_context = bool(_PLACE_BEFORE.search(before)) or bool(
        coordinated and _country_or_region(coordinated.group(1).casefold())
    )
    if in_context:
        return first > 500
    return casefolded in COUNTRIES and first > 2000
