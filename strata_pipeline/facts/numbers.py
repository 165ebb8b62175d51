"""Numeric conditions as people write them (en, de, fr), before the parser picks the column they are on:

- a comparison word before the number: "more than 5", "at least 8", "mindestens 3", "au moins 2";
- one after it: "40 hours or more", "10 oder mehr", "8 heures ou plus", "5 or fewer";
- a range: "between 10 and 20", "zwischen 10 und 20", "entre 1 000 et 5 000" (both ends included);
- numbers with thousands separators and units: "1,000", "5.000", "1 000", "1.200,50 €", "$1,000".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strata_pipeline.facts.vocabulary import NUMBER_WORD, number_value

COMPARE_WORDS: dict[str, str] = {
    "ge": r"at least|mindestens|au moins|no less than|not less than|wenigstens",
    "le": r"at most|höchstens|au plus|no more than|not more than",
    "gt": r"more than|over|above|greater than|mehr als|über|plus de|supérieure?s? à|größer als|"
    # comparatives of a measure: "payment terms longer than 30 days", "teurer als 500 €", "plus long que 2 jours"
    r"longer than|higher than|larger than|bigger than|more expensive than|länger als|höher als|teurer als|"
    r"plus longu?e?s? que|plus élevée?s? que|plus grande?s? que|plus chère?s? que|"
    r"heavier than|older than|wider than|faster than|schwerer als|älter als|breiter als|schneller als|"
    r"plus lourde?s? que|plus âgée?s? que|plus rapides? que",
    "lt": r"less than|fewer than|under|below|weniger als|unter|moins de|inférieure?s? à|kleiner als|"
    r"shorter than|lower than|smaller than|cheaper than|less expensive than|kürzer als|niedriger als|"
    r"günstiger als|billiger als|plus courte?s? que|moins élevée?s? que|plus petite?s? que|moins chère?s? que|"
    r"lighter than|younger than|narrower than|slower than|leichter als|jünger als|schmaler als|langsamer als|"
    r"plus légère?s? que|moins lourde?s? que|plus jeunes? que",
    "eq": r"exactly|equal to|genau|exakt|gleich|exactement|égale? à",
}
AFTER_WORDS: dict[str, str] = {  # after the number (and its unit): "40 hours or more"
    "ge": r"or more|or above|or higher|or over|and more|and above|and up|oder mehr|und mehr|oder darüber|"
    r"ou plus|et plus|ou davantage",
    "le": r"or less|or fewer|or below|or lower|or under|oder weniger|und weniger|oder darunter|ou moins|et moins",
}
# "1,000", "5.000", "1 000" (a space, or the no-break spaces French uses), "1.200,50", or a plain number
DIGITS = r"\d{1,3}(?:[.,  ]\d{3})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)?"
NUMBER = rf"((?:{DIGITS})|(?:{NUMBER_WORD})(?![\w-]))"  # "40", "2,5", "1.000", "one", "zwei", "trois"
CURRENCY = r"(?:\$|€|£|usd\s*|eur\s*|chf\s*)?"
UNIT = r"(?:\s*(?:[$€£%]|[a-zäöüéè]+\.?)){0,2}"  # "hours", "€", "Stunden", "USD" between number and "or more"
_AFTER = "|".join(AFTER_WORDS.values())
BETWEEN = rf"\b(?:between|zwischen|entre)\s+{CURRENCY}{NUMBER}{UNIT}?\s+(?:and|und|et)\s+{CURRENCY}{NUMBER}"


# A number said with a unit after "of", "with", "have", "every": "a warranty of 24 months", "mit 6 Wochen",
# "have 2 cores", "refreshed every 12 months": equal to it, when the unit ends a number column's name (parse.py checks)
EQUALS = (
    rf"\b(?:of|with|have|has|every|von|mit|haben|hat|alle|de|d'|avec|ont|tous les|toutes les)\s+{CURRENCY}{NUMBER}"
    r"\s*([a-zäöüéè]+|[$€])"
)


@dataclass(frozen=True)
class Compared:
    op: str
    value: float
    start: int  # where the condition is written (the column is looked for around it)
    end: int
    unit: str = ""  # eq only: the unit said after the number, which must end the column's name


def parse_number(text: str) -> float:
    """A written number: "1,000" and "1.000" and "1 000" are a thousand, "1.200,50" and "1,200.50" are
    1200.5, "2,5" is 2.5, words ("zwei") as in vocabulary. A separator followed by exactly three digits
    groups thousands unless the integer part is 0 ("0.250")."""
    text = text.strip().replace(" ", " ").replace(" ", " ")
    if not re.match(r"\d", text):
        return number_value(text)
    separators = re.findall(r"[.,\s]", text)
    if not separators:
        return float(text)
    last = separators[-1]
    groups = re.split(r"[.,\s]", text)
    if len(set(separators)) > 1:  # "1.200,50", "1,200.50": the last separator is the decimal one
        whole, fraction = re.sub(r"[.,\s]", "", text[: text.rfind(last)]), text[text.rfind(last) + 1 :]
        return float(f"{whole}.{fraction}")
    if last.isspace() or len(separators) > 1 or (len(groups[-1]) == 3 and groups[0] != "0"):
        return float("".join(groups))
    return float(text.replace(",", "."))


def comparisons(question: str) -> list[Compared]:
    """Every numeric condition the question writes, ranges first (each text read once)."""
    lowered = question.lower()
    found: list[Compared] = []

    for match in re.finditer(BETWEEN, lowered):
        low, high = sorted((parse_number(match.group(1)), parse_number(match.group(2))))
        found += [Compared("ge", low, match.start(), match.end()), Compared("le", high, match.start(), match.end())]
    ranges = list(found)
    for op, pattern in AFTER_WORDS.items():
        for match in re.finditer(rf"(?<![\w.,]){CURRENCY}{NUMBER}{UNIT}\s+(?:{pattern})\b", lowered):
            if not _inside(match, ranges):
                found.append(Compared(op, parse_number(match.group(1)), match.start(), match.end()))
    for op, pattern in COMPARE_WORDS.items():
        for match in re.finditer(rf"\b(?:{pattern})\s+{CURRENCY}{NUMBER}", lowered):
            if not _inside(match, found):
                found.append(Compared(op, parse_number(match.group(1)), match.start(), match.end()))
    for match in re.finditer(EQUALS, lowered):
        if not _inside(match, found) and not re.match(rf"\s+(?:{_AFTER})\b", lowered[match.end() :]):
            found.append(Compared("eq", parse_number(match.group(1)), match.start(), match.end(), match.group(2)))
    return found


def _inside(match: re.Match[str], found: list[Compared]) -> bool:
    return any(c.start <= match.start() < c.end or match.start() <= c.start < match.end() for c in found)
