"""A cheap first look at a short text (a search query): could it hold personal data at all?

Loading the NER model and Presidio costs seconds, which a command-line search should not pay for
"parental leave weeks". A query goes to the full detector when it holds anything a detector could
act on: a digit (phones, cards, IBANs, addresses), an @ (e-mail), a capital letter past the first
word (names, places), or a lower-case word that is a listed given name and no common word
("pernille"). Secrets are always scanned (their patterns are cheap). This screen errs towards the
detector: a false alarm costs seconds, a miss would embed a name.
"""

from __future__ import annotations

import re

WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def might_hold_personal_data(text: str) -> bool:
    if re.search(r"[\d@]", text):
        return True
    words = WORD.findall(text)
    if any(any(ch.isupper() for ch in word) for word in words[1:]):
        return True
    if words and any(ch.isupper() for ch in words[0][1:]):
        return True  # "McBride", "DUPONT" as the first word
    return any(_lowercase_name(word) for word in words if word.islower()) or (
        bool(words) and _lowercase_name(words[0].lower())
    )


def _lowercase_name(word: str) -> bool:
    """A listed given name that is not a common English word: "pernille", not "will" or "leave"."""
    if len(word) < 3:
        return False
    from strata_pipeline.redaction.name_index import name_index

    ranks = name_index().ranks(word)
    if ranks is None or ranks.first > 3000:
        return False
    from wordfreq import zipf_frequency  # imported only for a listed name: the import alone takes 0.5 s

    return zipf_frequency(word, "en") < 3.5
