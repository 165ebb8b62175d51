"""Qualifiers: the numbers a question pins its subject down with, which the answer's passage must hold.

A question may name its subject by a number rather than a word: a year ("the holidays in 2023", "sick
days in 2019") or a numbered label, a noun followed by its number ("the Level 4 course", "week 14",
"gate 3"). A passage that states the asked-for value for another year or another label is a near miss:
the 2025 holiday calendar does not say which holidays there were in 2023, and the Level 2 course's
length is not the Level 4 course's. A number before its noun is a quantity, not a label ("a 500 kg
load", "after 2 hours"), and is not checked: it is a condition the question sets, which a passage may
word differently.

Codes and versions ("E-4042", "v3.14") are identifiers, checked elsewhere (abstention.py). Plain
functions over text; no index, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

# A year on its own, not a part of a date, a version or a code ("2025-01-15", "v2019.1", "ISO 9001")
_YEAR = re.compile(r"(?<![\w.\-/:])(?:19|20)\d{2}(?![\w.\-/:])")
# A noun and the small whole number after it: "Level 4", "week 14", "Gate 3"
_LABEL = re.compile(r"\b([^\W\d_]{3,})\s+(?:no\.?\s+|nr\.?\s+|number\s+)?(\d{1,3})(?![\w.,:/%\-])")
_TOKEN = re.compile(r"[^\W_]+")
_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s+|\(|\")\W*$")
# Words before a number that make it a quantity or a rank, not a label: "up to 5", "at least 3",
# "the first 2", "more than 10", "for 3", "über 5", "plus de 3".
_NOT_LABELS = frozenset(
    "about above after and any are around at before below between but by can could does each every "
    "first for from have how into last least less many more most much next only over per than that "
    "the their then these this those under until upto was were what when which with within "
    "als auf aus bei bis das der die ein eine für mehr mit nach pro über und unter von vor wie "
    "après avant avec dans des les moins par plus pour que qui sur une".split()
)
# The calendar's own units name a count or a date in a question ("in 3 days", "day 1 of the course"
# is rare); a week number is a label ("week 14"), so only these are left out.
_NOT_LABEL_NOUNS = frozenset("day days hour hours minute minutes second seconds year years".split())


def question_qualifiers(question: str, labels_too: bool = True) -> tuple[list[str], list[tuple[str, str]]]:
    """The years and the (noun, number) labels a question names, each once, in order. Labels only with
    `labels_too` (an English question: German capitalises every noun, "Kalenderwoche 12")."""
    years = list(dict.fromkeys(_YEAR.findall(question)))
    labels: list[tuple[str, str]] = []
    for match in _LABEL.finditer(question) if labels_too else ():
        noun, number = match.group(1).casefold(), match.group(2)
        # a label is a name: capitalised, and not only because it starts the sentence ("Level 4", "Gate
        # 3"); "axis 5" or "week 23" may be worded otherwise in a passage ("Achse 5", a table's column)
        if not match.group(1)[0].isupper() or _SENTENCE_START.search(question[: match.start()]):
            continue
        if noun in _NOT_LABELS or noun in _NOT_LABEL_NOUNS or number in years:
            continue
        if (noun, number) not in labels:
            labels.append((noun, number))
    return years, labels


def _label_held(noun: str, number: str, tokens: list[str], stem: Callable[[str], str]) -> bool:
    """Whether `tokens` hold the noun (by stem, also as a part of "iso_week") with the number within
    three tokens after it: "Level 2 - Repair", "iso_week: 14"."""
    wanted = stem(noun)
    for i, token in enumerate(tokens):
        if token == number and any(stem(t) == wanted for t in tokens[max(0, i - 3) : i]):
            return True
    return False


def unheld_qualifiers(
    question: str, passages: Sequence[str], stem: Callable[[str], str], labels_too: bool = True
) -> list[str]:
    """The question's years and numbered labels that none of `passages` holds, as written ("2023",
    "level 4"): the passages state the value for another year or another numbered thing."""
    years, labels = question_qualifiers(question, labels_too)
    if not years and not labels:
        return []
    texts = [p.casefold() for p in passages]
    missing = [y for y in years if not any(re.search(rf"(?<!\d){y}(?!\d)", t) for t in texts)]
    split = [_TOKEN.findall(t) for t in texts]
    missing += [f"{noun} {number}" for noun, number in labels
                if not any(_label_held(noun, number, tokens, stem) for tokens in split)]  # fmt: skip
    return missing
