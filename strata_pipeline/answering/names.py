"""What a question names, and whether the passages an answer would quote mention it.

A near miss on the wrong entity: "the Madrid depot" answered from the Munich page. The names are
redaction placeholders, identifiers and, in an English question, capitalised words (less months,
weekdays, language names and the setting most passages share); a name is mentioned by its spelling,
stem, a part of a hyphenated word, a country's name in another language or a weekday range.

Plain functions over text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from strata_pipeline.answering import wording
from strata_pipeline.answering.asked_identifiers import (
    asked_identifiers,
    redaction_placeholders,
    singular,
    unheld_identifiers,
)
from strata_pipeline.answering.calendar_words import ENGLISH_CALENDAR_WORDS, calendar_named
from strata_pipeline.classification.language import query_language
from strata_pipeline.facts.countries import COUNTRIES, COUNTRY_NAMES
from strata_pipeline.text.slips import slip_of

# A capitalised word inside an English question names something: a place ("the Madrid depot"), a
# product, a team, a month. The first word of a sentence is capitalised anyway, and a lone "I" names
# nothing. German capitalises every noun, so the check runs on English questions only.
_WORD = re.compile(r"[^\W\d_][\w'’\-]*")
_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s+|\(|\")\W*$")


@lru_cache(maxsize=1)
def language_names() -> frozenset[str]:
    """English names of the languages with a two-letter code (pycountry's ISO 639): "German", "Polish",
    the words English also uses for a nationality."""
    import pycountry

    return frozenset(language.name for language in pycountry.languages if hasattr(language, "alpha_2"))


def named_words(question: str) -> list[str]:
    """Capitalised words of an English question that are not the first of a sentence, in order,
    each once: what the question is about by name ("Madrid", "Hamburg", "FleetPay", "AnyConnect-based")."""
    found = []
    for match in _WORD.finditer(question):
        word = match.group().rstrip("'’-")
        if len(word) < 2 or not word[0].isupper() or _SENTENCE_START.search(question[: match.start()]):
            continue
        if word.casefold().rstrip("s") in ENGLISH_CALENDAR_WORDS or re.fullmatch(r"I['’]\w+", word):
            continue  # "Saturdays", "I'm"
        if word in language_names():
            continue  # "speaks Polish", "the German service line": a language, which passages rarely repeat
        word = re.sub(r"['’]s$", "", word)
        if word not in found:
            found.append(word)
    return found


def unnamed_words(words: Sequence[str], passages: Sequence[str], stem: Callable[[str], str]) -> list[str]:
    """Those of `words` that none of `passages` mentions: not as written (case aside), not by stem
    ("Windows" for "Window"), not as a typing slip of a word they hold ("settlment", text/slips.py), and
    for a hyphenated word ("AnyConnect-based") not by any of its parts of three letters or more."""
    tokens = {t.casefold() for p in passages for t in _WORD.findall(p)}
    # parts of compounds and of redaction placeholders: "[IP_ADDRESS_1]" mentions an IP address
    tokens |= {part for t in list(tokens) for part in re.split(r"[-_]", t) if part}
    stems = {stem(t) for t in tokens}
    joined = {t.replace("-", "") for t in tokens if "-" in t}

    written = " ".join(passages)
    text = written.casefold()

    def held(part: str) -> bool:  # also inflected in another language: "Legionellen" for "Legionella"
        return part in tokens or stem(part) in stems or (len(part) >= 8 and any(
            t.startswith(part[:-1]) and len(t) <= len(part) + 2 for t in tokens)) or (
            slip_of(part, tokens, commonness) is not None)  # "settlment", "yaer": a typing slip  # fmt: skip

    def mentioned(word: str) -> bool:
        if singular(word) != word and mentioned(singular(word)):
            return True  # "our RX-300s": a model's plural
        folded = word.casefold()
        parts = [p for p in folded.split("-") if len(p) >= 3]
        if held(folded) or _country_named(folded, text) or calendar_named(folded, written):
            return True  # also "Saturdays" by "Samstag" or "Montag bis Samstag"
        if "-" not in folded and folded in joined:
            return True  # "RX300" typed for "RX-300"
        if word.isupper() and re.search(rf"(?<![\w-]){re.escape(word)}\d", written):
            return True  # "IP" by the rating "IP52", "USB" by "USB3": the acronym heads a code
        # a name of capitalised parts ("Aarlingen-Ost") needs them all; "AnyConnect-based" any part
        capitalised = all(p[:1].isupper() for p in word.split("-")) and len(parts) > 1
        return (all if capitalised else any)(held(p) for p in parts)

    return [w for w in words if not mentioned(w)]


def commonness(word: str) -> float:
    """A word's Zipf frequency as an ordinary word in any language we read (a rare one may be a slip)."""
    from strata_pipeline.redaction.name_evidence import word_commonness

    return word_commonness(word)


def _country_named(word: str, text: str) -> bool:
    """Whether `text` names the country `word` names, in any of en, de, fr ("Germany" in a passage
    that says "Deutschland")."""
    code = COUNTRIES.get(word)
    return code is not None and any(
        re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) for name in COUNTRY_NAMES[code] if name != word
    )


@dataclass(frozen=True)
class Names:
    """What a question names: redaction placeholders (a name not shown in clear anywhere in the index,
    so no passage can be about it), identifiers, and in an English question capitalised names."""

    placeholders: list[str]
    identifiers: list[str]
    words: list[str]

    def __bool__(self) -> bool:
        return bool(self.placeholders or self.identifiers or self.words)

    def __str__(self) -> str:
        return ", ".join(self.placeholders + self.identifiers + self.words)


def question_names(question: str, retrieved: Sequence[str], stem: Callable[[str], str]) -> Names:
    """The names of `question` an answer's passages must mention. A capitalised name more than half
    of the `retrieved` passages mention is the setting, not the subject (the company's name, the
    product all of them are about): a section need not repeat it."""
    english = query_language(question) == "en"
    words = named_words(question) if english else [*wording.acronyms(question), *wording.site_names(question)]
    missing = [set(unnamed_words(words, [t], stem)) for t in retrieved]  # each passage read once
    words = [w for w in words if 2 * sum(w not in m for m in missing) <= len(retrieved)]
    return Names(redaction_placeholders(question), asked_identifiers(question), words)


def unmentioned(names: Names, passages: Sequence[str], stem: Callable[[str], str]) -> list[str]:
    """Those of `names` that none of `passages` mentions ("the Madrid depot" answered from the Munich
    page); a redaction placeholder is never mentioned."""
    return (
        names.placeholders
        + unheld_identifiers(names.identifiers, passages)
        + unnamed_words(names.words, passages, stem)
    )


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def named_sibling(
    words: Sequence[str], stating: Sequence[str], retrieved: Sequence[str], stem: Callable[[str], str]
) -> str:
    """A name the sentences that state the asked value (`stating`) give instead of the question's own
    (`words`: its named_words, the setting included): each names another (named_words) and none names
    one of the question's, and a retrieved passage names that other beside the question's in one
    sentence, so the two are things of a kind ("Friday prayers are held at 13:15 in the Kestwick prayer
    room." for Brandholm's prayer room, where a passage says "at Kestwick ...; at Brandholm ..."). ""
    when there is none."""
    if not words or not stating:
        return ""
    retrieved_sentences = [c for text in retrieved for c in _SENTENCE_END.split(text)]

    def names_own(text: str) -> bool:  # mentions one of the question's names
        return len(unnamed_words(words, [text], stem)) < len(words)

    initials = {w[0].upper() for w in words}  # "CAB" is the question's "Change Advisory Board", no sibling
    found = ""
    for sentence in stating:
        if names_own(sentence):
            return ""
        others = [w for w in named_words(sentence) if unnamed_words([w], [" ".join(words)], stem) and not
                  (w.isupper() and set(w) <= initials)]  # fmt: skip
        beside = [
            o for o in others if any(names_own(c) and not unnamed_words([o], [c], stem) for c in retrieved_sentences)
        ]
        if not beside:
            return ""
        found = found or beside[0]
    return found
