"""German compounds in sheet and column names: "Lieferantenliste" is said as "Lieferanten", "Vertragsende"
by "enden". The parts come from the BM25 analysis's splitter (embedding/models.py, over wordfreq's list)."""

from __future__ import annotations

import re

# German plural and case endings a column or sheet name is said with ("Gebühren" for gebuehr, "Bezirke"
# for bezirk, "Zonen" for zone): read only after a name of at least four letters.
GERMAN_ENDINGS = ("e", "en", "n", "er", "ern", "es", "s")
_ENDING = "(?:" + "|".join(GERMAN_ENDINGS) + ")?"
_ENDING_OR_VERB = "(?:" + "|".join((*GERMAN_ENDINGS, "t", "et")) + ")?"  # "endet", "beginnt" too


def compound_label(label_words: list[str]) -> list[str]:
    """A label's words with each German compound in its parts ("lieferantenliste" -> "lieferanten",
    "liste"); the words unchanged when none splits. Only a word of eight letters or more is tried: two
    parts of four."""
    from strata_pipeline.embedding.models import compound_splitter  # loads a word list: only when asked

    split = compound_splitter("de")
    return [part for w in label_words for part in ((split(w) or (w,)) if len(w) >= 8 else (w,))]


def head_said(name_words: tuple[str, ...], lowered: str) -> bool:
    """Whether a name of one compound word has its last part said in the (lower-case) question, with a
    German ending or as a verb ("Vertragsende": "enden", "endet")."""
    if len(name_words) != 1:
        return False
    parts = compound_label(list(name_words))
    return len(parts) > 1 and re.search(rf"\b{re.escape(parts[-1])}{_ENDING_OR_VERB}\b", lowered) is not None


def compound_ending_in(head: str, lowered: str) -> bool:
    """Whether the (lower-case) question says a longer word that ends in `head` (a label word of four letters
    or more), with or without a German ending: "kühlräumen" ends in "räume"."""
    return len(head) >= 4 and re.search(rf"\w{{3,}}{re.escape(head)}{_ENDING}\b", lowered) is not None
