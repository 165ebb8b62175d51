"""What a source-set's documents say about the parts of its mailboxes, read over the whole set.

A mailbox such as siu@ or sinistres-lu@ is a function's, not a person's, but its parts are no English
role word: the documents say what they are ("Special Investigations Unit (SIU)", "Bureau des
sinistres"). Read over every document of the set before any is redacted (like redaction/places.py),
the evidence is the same for each document and for the leak check, which reads it back from the chunks
of the version it checks. Text only: no Dagster, no model.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

# An e-mail address: the pattern redaction's recogniser finds them by (pii.py takes it from here)
EMAIL_PATTERN = r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b"
_EMAIL = re.compile(EMAIL_PATTERN)


MAX_NAME_RANK = 3000  # a part this common as a given name or surname is never taken for a function's word


@dataclass(frozen=True)
class MailboxWords:
    """Mailbox parts (lower case) the documents write as a function: an acronym they define ("SIU") or
    an ordinary lower-case word ("sinistres")."""

    functions: frozenset[str] = frozenset()

    def held_by(self, text: str) -> list[str]:
        """Those of the words that are parts of a mailbox in `text`: what a document's redaction depends on."""
        parts = {p.lower() for m in _EMAIL.finditer(text) for p in _parts(m.group())}
        return sorted(parts & self.functions)


def _parts(email: str) -> list[str]:
    return [t for t in re.split(r"[-._+]", email.split("@", 1)[0]) if t]


def mailbox_words(texts: Iterable[str]) -> MailboxWords:
    """The evidence the texts give on the parts of the mailboxes they hold, outside any e-mail address:
    a part defined as an acronym ("Special Investigations Unit (SIU)": the initials of the words before
    it, not all of them listed names) or used as one at least twice ("the NOC", "CAB-Genehmigung"), or
    written as an ordinary lower-case word that is no common name, not as a handle ("bureau des
    sinistres"; not "bram.dv:", not "mark the box")."""
    from strata_pipeline.redaction.name_index import name_index

    texts = list(texts)
    parts = {p.lower() for text in texts for m in _EMAIL.finditer(text) for p in _parts(m.group()) if p.isalpha()}
    if not parts:
        return MailboxWords()
    rest = "\n".join(_EMAIL.sub(" ", text) for text in texts)
    index = name_index()
    defined = set()
    for m in _DEFINED.finditer(rest):
        words = _initials(m["words"], m["acronym"])
        if words and not all(index.ranks(w) for w in words):  # "Mary Ann Smith (MAS)" defines no unit
            defined.add(m["acronym"].lower())
    # "the NOC", "den NOC", "CAB-Genehmigung", "BSL-FollowMe": an acronym used as a unit's or a site's name,
    # twice or more. Not after a space alone: meeting notes write a person's initials so ("JK will send").
    used = Counter(m["article"] or m["head"] for m in _ACRONYM_IN_USE.finditer(rest))
    defined |= {acronym.lower() for acronym, count in used.items() if count >= 2}
    functions = {p for p in parts if p in defined}
    for part in parts - functions:
        ranks = index.ranks(part)
        listed = ranks is not None and ranks.best <= MAX_NAME_RANK  # "mark the box" says nothing of mark@
        if len(part) >= 4 and not listed and re.search(rf"(?<![\w@./:#-]){re.escape(part)}(?![\w@-]|\.\w)", rest):
            functions.add(part)
    return MailboxWords(frozenset(functions))


# "Special Investigations Unit (SIU)", "Change Advisory Board (CAB)": capitalised words, then capitals in brackets
_DEFINED = re.compile(
    r"(?P<words>(?:[A-ZÄÖÜ][\w-]*\s+(?:(?:and|of|for|und|de|des|du|et)\s+)?){2,8})\((?P<acronym>[A-Z]{3,6})\)"
)


# An acronym after a definite article ("the NOC", "beim NOC", "au CAB"), or heading a hyphenated compound
# whose next part goes on in lower case ("CAB-Genehmigung", "BSL-FollowMe"; not "BSL-LBL-01").
_ACRONYM_IN_USE = re.compile(
    r"\b(?:the|der|die|das|den|dem|des|beim|vom|zum|im|am|le|la|les|du|au|aux)\s+(?P<article>[A-Z]{2,6})\b(?!-)"
    r"|\b(?P<head>[A-Z]{2,6})-(?=[A-ZÄÖÜ]?[a-zäöüß]{2})"
)


def _initials(words: str, acronym: str) -> list[str]:
    """The words before an acronym whose initials spell it (small words aside), or []."""
    capitalised = [w for w in words.split() if w[:1].isupper()]
    chosen = capitalised[-len(acronym) :]
    return chosen if "".join(w[0] for w in chosen) == acronym else []


@lru_cache(maxsize=256)
def country_code(token: str) -> bool:
    """Whether `token` is a country's ISO 3166 two-letter code ("lu", "de")."""
    import pycountry

    return pycountry.countries.get(alpha_2=token.upper()) is not None


# A word of a language we read: in wordfreq's small list (at least once per million words).
OFFICE_WORD_ZIPF = 3.0
# A word that a name list also holds (and that is no common name: pii.PiiPolicy.is_role_mailbox) must be this
# common to be read as an office's word ("fleet", "campus"); the older "travel@" rule's threshold.
LISTED_WORD_ZIPF = 3.5
_UMLAUT_SPELLINGS = {"ae": "ä", "oe": "ö", "ue": "ü"}


def office_word(token: str, listed: bool, name: Callable[[str], bool]) -> bool:
    """Whether a mailbox part is a word of a language we read, spelt as addresses spell them: accents dropped
    ("comite", "contratacion"), umlauts written ae/oe/ue ("pruefungsamt"), or a German or Dutch compound of
    such words none of which is a `name` ("personalabteilung", "burgerzaken"; not "morganking", "annaweber"). A part a
    name list holds (`listed`) must be a commoner word (LISTED_WORD_ZIPF)."""
    token = token.lower()
    if not token.isalpha() or len(token) < 3:
        return False
    if _spelled_commonness(token) >= (LISTED_WORD_ZIPF if listed else OFFICE_WORD_ZIPF):
        return True
    if listed or len(token) < 8:
        return False
    return any(
        parts and not any(name(part) for part in parts)
        for spelling in _umlaut_spellings(token)
        for parts in _compound_parts(spelling)
    )


@lru_cache(maxsize=4096)
def _spelled_commonness(token: str) -> float:
    """The highest Zipf frequency of any word of the languages we read that folds to `token`."""
    from strata_pipeline.redaction.name_evidence import ZIPF_LANGUAGES

    return max(_folded_words(language).get(token, 0.0) for language in ZIPF_LANGUAGES)


def fold(word: str) -> str:
    """A word as an e-mail address writes it: lower case, umlauts as ae/oe/ue, ß as ss, other accents dropped."""
    import unicodedata

    word = word.casefold().replace("ß", "ss")
    for spelt, umlaut in _UMLAUT_SPELLINGS.items():
        word = word.replace(umlaut, spelt)
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=8)
def _folded_words(language: str) -> dict[str, float]:
    """wordfreq's small list of one language keyed by folded spelling, with the highest Zipf frequency of the
    words that fold to it (about 0.1 s per language, once per process)."""
    import math

    from strata_pipeline.embedding.models import word_frequencies

    table: dict[str, float] = {}
    for word, frequency in word_frequencies(language).items():
        key, zipf = fold(word), math.log10(frequency) + 9
        if zipf > table.get(key, 0.0):
            table[key] = zipf
    return table


def _umlaut_spellings(token: str) -> list[str]:
    """`token` as written and with each ae/oe/ue read as an umlaut or not ("pruefungsamt" -> "prüfungsamt")."""
    spellings = [""]
    i = 0
    while i < len(token):
        pair = token[i : i + 2]
        if pair in _UMLAUT_SPELLINGS:
            spellings = [s + pair for s in spellings] + [s + _UMLAUT_SPELLINGS[pair] for s in spellings]
            i += 2
        else:
            spellings = [s + token[i] for s in spellings]
            i += 1
        if len(spellings) > 16:
            return [token]
    return spellings


def _compound_parts(word: str) -> list[tuple[str, ...]]:
    """`word`'s parts as a German and as a Dutch compound (the BM25 analysis's own splitter; () for none)."""
    from strata_pipeline.embedding.models import compound_splitter

    return [compound_splitter(language)(word) for language in ("de", "nl")]
