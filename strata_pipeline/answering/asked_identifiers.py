"""The identifiers a question names (a code, a model, a version) and whether the passages hold them.

"What does E-4042 mean?" answered from the page on E-4024 is a near miss on a look-alike: `no_support`
(abstention.py) when no supplied passage holds an identifier the question asks about. A code typed without
its hyphen, or as a plural, is the same code; a measure ("5-year") is none; a redaction placeholder stands
for a value, not an identifier.

Plain functions over text; no index, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from strata_pipeline.answering import wording
from strata_pipeline.embedding.identifiers import identifiers
from strata_pipeline.text.placeholders import PLACEHOLDER

# A redaction placeholder ("[PERSON_1]", PLACEHOLDER) stands for a value, not an identifier the passages
# could hold.


def unheld_identifiers(question_identifiers: Sequence[str], passages: Sequence[str]) -> list[str]:
    """Identifiers the question names (a code, a model, a version: E-4042, RX-500) that no supplied
    passage holds: the passages are about look-alikes, not about what was asked. A code typed without
    its hyphen is the same code ("rx200" is held by "RX-200"), and so is its plural ("our RX-300s")."""
    text = " ".join(passages)
    held = {_joined(i) for i in identifiers_in(text)}
    return [
        i
        for i in dict.fromkeys(question_identifiers)
        if not ({_joined(i), _joined(singular(i))} & held) and not _spelled_version(i, text)
    ]


def singular(identifier: str) -> str:
    """A model's plural as the model: "RX-300s" (the letter s after its last digit) is "RX-300"."""
    return identifier[:-1] if re.search(r"\ds$", identifier) else identifier


def _joined(identifier: str) -> str:
    return identifier.replace("-", "").replace("_", "")


# A number joined to a word is a measure, not a code: "the 5-year extended coverage", "a 24-hour hotline".
_MEASURE = re.compile(r"\d+(?:[.,]\d+)?-[^\W\d_]{3,}")


def asked_identifiers(question: str) -> list[str]:
    """The identifiers a question names, for the checks that its passages hold them: not a measure
    ("5-year"), and, when the question itself names identifiers, not those of the statements before it
    ("The controller is still on v3.5. Can we install v3.12 directly?" asks about v3.12; "It shows
    E-4042. What does it mean?" still asks about E-4042)."""
    named = [i for i in identifiers_in(question) if not _MEASURE.fullmatch(i)]
    asked = set(identifiers_in(wording.asked_part(question)))
    return [i for i in named if i in asked] if asked & set(named) else named


_SHORT_VERSION = re.compile(r"v(\d+(?:\.\d+)*)", re.IGNORECASE)


def _spelled_version(identifier: str, text: str) -> bool:
    """Whether `text` spells out a short version the question names: "v3" as "version 3" (or "Version 3",
    "Fassung 3"), not as "version 3.1"."""
    short = _SHORT_VERSION.fullmatch(identifier)
    if short is None:
        return False
    number = re.escape(short.group(1))
    return bool(re.search(rf"\b(?:version|fassung)\s+{number}(?![.,]?\d)", text, re.IGNORECASE))


def redaction_placeholders(text: str) -> list[str]:
    """The redaction placeholders in a text ("[PERSON_1]"), each once."""
    return list(dict.fromkeys(PLACEHOLDER.findall(text)))


# A German compound on an identifier ("RX-300-Akku", "E-1042-Fehler") names the identifier: its tail is
# a noun (a capital, then lower case to the end), the head ends in a digit
_COMPOUND_TAIL = re.compile(r"(?<=\d)-(?=[A-ZÄÖÜ][a-zäöüß]{2,}\b)")


def identifiers_in(text: str) -> list[str]:
    """identifiers() of a text, less redaction placeholders; a German compound on an identifier counts as
    the identifier ("RX-300-Akku" names RX-300)."""
    return identifiers(_COMPOUND_TAIL.sub(" ", PLACEHOLDER.sub(" ", text)))
