"""The n best rows or groups: "the three cheapest vehicles", "die 5 teuersten Kurse", "les trois véhicules
les moins chers", "top 3". An argmax or argmin with a limit names that many, best first, instead of
every value tied for the best.
"""

from __future__ import annotations

import re

from strata_pipeline.facts.phrasing import EXTREMES
from strata_pipeline.facts.vocabulary import NUMBER_WORDS

_COUNT = "|".join(re.escape(w) for w in sorted(NUMBER_WORDS, key=len, reverse=True) if not w.startswith("a "))
_EXTREME = "|".join(f"(?:{p})" for p in EXTREMES.values())
# "the three cheapest X", "top 3 X", "die drei teuersten X"; French puts the noun before the superlative
TOP_N = rf"\b(?:the|die|den|les|top)\s+(?:top\s+)?(\d{{1,2}}|{_COUNT})\s+(?:(?:{_EXTREME})\s+)?([\wäöüéèàç\-]+)"
MAX_LIMIT = 20


def top_n(question: str) -> tuple[int, str]:
    """(n, the noun of the rows asked for) for "the three cheapest vehicles"; (0, "") when no number of
    best rows is asked (one, or more than MAX_LIMIT, is no list of the best)."""
    lowered = question.lower()
    if not re.search(_EXTREME, lowered):
        return 0, ""
    for found in re.finditer(TOP_N, lowered):
        said = found.group(1)
        n = int(NUMBER_WORDS.get(said, said)) if (said.isdigit() or said in NUMBER_WORDS) else 0
        if 2 <= n <= MAX_LIMIT:
            return n, found.group(2)
    return 0, ""
