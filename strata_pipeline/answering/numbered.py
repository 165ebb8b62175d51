"""The numbered thing a question names, when the quoted sentences speak of others of its kind only.

"How many days does the Level 4 certification course last?" is not answered by "Course: 3 days"
under "Level 1 - Maintenance", nor "the household contents rate in tariff zone 6" by the row for
zone 2. The name and sibling checks cannot see it: "Level" and "zone" are in the passages, and what
tells the things apart is a number. The check reads "<word> <number>" in the question (a number of
one to three digits or a Roman numeral right after a word: "Level 4", "zone 6", "Klasse III") and
abstains when the quoted sentences, read with their headings and as records ("tariff_zone: 2"),
put the same word before other numbers, and neither they nor their passages hold the question's
number at all. A passage that holds it may answer in a row the answer did not quote, so the check
then stays silent. Words that make a number a quantity or a bound ("over 65", "within 24", "per
1,000") and units and calendar words ("May 5", "days 3") name no numbered thing.

Plain functions over text; no index, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from strata_pipeline.answering.abstention import value_word

# A word, a space or hyphen, then a number of one to three digits or a Roman numeral, not the start
# of a larger figure ("per 1,000", "at 7:30", "version 3.2"). Codes ("SEV1", "zrh-prt-01") are
# identifiers, read elsewhere.
_NUMBERED = re.compile(r"(?<![\w-])([^\W\d_]{3,})(?:[ \t]+|[ \t]*-[ \t]*)(\d{1,3}|[IVX]{1,4})\b(?![.,:/]\d|-\w)")
# Words before a number that make it an amount, a bound or a count, not the name of a thing (en, de, fr).
_NOT_NAMES = frozenset(
    """than least most about over under after before within every each per from into until till since
    for with and the top last first next past only approx around nearly almost some all any
    between above below beyond versions release
    takes take took cost costs pay pays get gets got are was were has have had is be can may must
    more less up to ab bis nach vor seit über unter mit pro alle jede jeden jeder als und oder der die
    das den dem des ein eine einen ist sind hat haben wird werden mehr weniger etwa rund höchstens
    mindestens zum zur vom von fassung les des sur pour dans avec après avant plus moins que environ
    tous toutes chaque une est sont par jusqu entre dès aux""".split()
)
_RECORD_KEY = re.compile(r"([^\W\d_])[ \t]*:[ \t]*(?=\d)")


def _read(text: str) -> str:
    """`text` with record keys read as words ("tariff_zone: 2" as "tariff zone 2")."""
    return _RECORD_KEY.sub(r"\1 ", text.replace("_", " "))


def numbered_names(question: str) -> list[tuple[str, str]]:
    """The (word, number) pairs a question names things by, the word case-folded: "Level 4" gives
    ("level", "4"); amounts and bounds ("over 65", "within 24 hours") give none."""
    found = []
    for match in _NUMBERED.finditer(question):
        word, number = match.group(1), match.group(2)
        if word.casefold() in _NOT_NAMES or value_word(word) or (word.isupper() and "-" in match.group(0)):
            continue  # a bound, a unit, or a code ("INV-17")
        if number == "I" and (re.search(r"(?:^|[.!?]\s+)$", question[: match.start()]) or not word[0].isupper()):
            continue  # "Will I have to pay": a pronoun, not "Klasse I"
        after = question[match.end() :].split(maxsplit=1)
        if after and value_word(after[0].strip("?.,;:!")):
            continue  # "Level 4 hours": a quantity
        found.append((word.casefold(), number))
    return found


def _numbers_after(word: str, text: str) -> set[str]:
    """The numbers `text` puts right after `word` (case-folded, a plural "s" allowed)."""
    return {
        m.group(2)
        for m in _NUMBERED.finditer(_read(text))
        if m.group(1).casefold() in (word, f"{word}s") or f"{m.group(1).casefold()}s" == word
    }


def _holds_number(number: str, text: str) -> bool:
    """Whether `text` holds `number` on its own, not as part of a larger figure ("4" is not in "1.45",
    "14" or "E-1042")."""
    return re.search(rf"(?<![\w.,]){re.escape(number)}(?![\w]|[.,]\d)", text) is not None


# A version is held only as a version: "version 5" is not held by "fleets of more than 5 vehicles" in version 7
_VERSION_WORDS = frozenset({"version", "fassung", "revision", "révision", "edition", "ausgabe", "édition"})


def _holds(word: str, number: str, text: str) -> bool:
    """Whether `text` may speak of "<word> <number>": it holds the number after the word, or, unless the word
    names a version, the number on its own (a table row keyed "4" under a "Level" column)."""
    if number in _numbers_after(word, text):
        return True
    if word in _VERSION_WORDS:
        return re.search(rf"(?<![\w.])v\.?\s?{re.escape(number)}(?![\w]|[.,]\d)", text, re.IGNORECASE) is not None
    return _holds_number(number, text)


def other_numbered(question: str, quoted: Sequence[tuple[str, str]]) -> str | None:
    """Why the `quoted` sentences (each its scored text and its passage's text) do not answer
    `question`: it names "<word> <number>", they speak of that word with other numbers only, and
    none of them or their passages holds the number; None when they may answer."""
    texts = [f"{scored} {passage}" for scored, passage in quoted]
    for word, number in numbered_names(question):
        if any(_holds(word, number, text) for text in texts):
            continue
        others = sorted({n for scored, _ in quoted for n in _numbers_after(word, scored)} - {number})
        if others:
            shown = ", ".join(others)
            return f"The quoted sentences speak of {word} {shown}, not {word} {number}, which the question asks about."
    return None
