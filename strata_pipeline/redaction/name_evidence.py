"""How much a word looks like part of a person's name: popular as a first or last name worldwide
(names-dataset) against common as an ordinary word (wordfreq, imported on first use), and the
candidate type every name finder returns."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from strata_pipeline.redaction.name_cues import GREETING_WORDS, HONORIFICS, LEADING_WORDS, NAME_WORD, PLACE_HEADS
from strata_pipeline.redaction.name_index import NO_RANK, NameIndex, NameRanks
from strata_pipeline.text.slips import one_slip_edits

NO_RANK_RANKS = NameRanks(NO_RANK, NO_RANK)

ZIPF_LANGUAGES = ("en", "de", "fr", "es", "it", "nl")


class Token(Protocol):  # the parts of a spaCy token we read
    text: str
    idx: int
    pos_: str
    ent_type_: str
    whitespace_: str
    is_sent_start: bool | None


@dataclass
class PersonCandidate:
    start: int
    end: int
    score: float
    reasons: list[str] = field(default_factory=list)

    def weaken(self, by: float, reason: str) -> None:
        """Count `by` less (never below 0), saying why."""
        self.score = round(max(0.0, self.score - by), 3)
        self.reasons.append(reason)


@lru_cache(maxsize=200_000)
def word_commonness(word: str) -> float:
    """Zipf frequency of `word` as an ordinary word: the highest over the languages we read."""
    from wordfreq import zipf_frequency

    lowered = word.casefold()
    return max(zipf_frequency(lowered, language) for language in ZIPF_LANGUAGES)


@lru_cache(maxsize=20_000)
def misspells_common_word(word: str, commonness: float = 4.0) -> bool:
    """Whether `word` is one typing slip (a letter dropped, added, changed or two swapped) from an ordinary
    word at least as common as `commonness` (Zipf) in a language we read: "shiping" for "shipping", "hich"
    for "hitch". A typed query is full of them, and a rare name spelt like one is the weaker reading."""
    common = _common_words(commonness)
    return any(e in common for e in one_slip_edits(word) if len(e) >= 3)


@lru_cache(maxsize=4)
def _common_words(commonness: float) -> frozenset[str]:
    """The ordinary words at least as common as `commonness` (Zipf) in any language we read."""
    from wordfreq import get_frequency_dict

    least = 10 ** (commonness - 9)  # Zipf is log10 of the frequency per billion words
    return frozenset(w for lang in ZIPF_LANGUAGES for w, f in get_frequency_dict(lang).items() if f >= least)


def given_name(word: str, index: NameIndex) -> bool:
    """Whether a name list ranks the word among its 2,000 most popular given names."""
    return (index.ranks(word.rstrip(".")) or NO_RANK_RANKS).first <= 2000


# A given name this popular before a listed surname makes a full name, whatever else the words are.
POPULAR_GIVEN_NAME_RANK = 300


def popular_given_name(word: str, index: NameIndex) -> bool:
    """Whether a name list ranks the word among its 300 most popular given names ("Gemma", "Laurent")."""
    return (index.ranks(word.rstrip(".")) or NO_RANK_RANKS).first <= POPULAR_GIVEN_NAME_RANK


_WORD_BEFORE = re.compile(r"([^\W\d_][\w.]*)\.?[ \t]+$")


def titled(text: str, start: int) -> bool:
    """Whether a title stands right before `start` ("Herr Kessler", "Mme Girard", "Sig.ra Rossi")."""
    before = _WORD_BEFORE.search(text[max(0, start - 40) : start])
    return before is not None and before.group(1).casefold().rstrip(".") in HONORIFICS


def noun_before_a_particle(word: str, index: NameIndex) -> bool:
    """Whether a word before "von", "van" or "de" is a noun, not the given name of "Ludwig van Beethoven":
    no list holds it ("Rückmeldung von"), or it is a common word and no popular given name ("Team von"). A
    title is neither: "Frau von Berg"."""
    if word.casefold().rstrip(".") in HONORIFICS:
        return False
    return index.ranks(word) is None or (word_commonness(word) >= 4.0 and not popular_given_name(word, index))


def given_then_surname(words: list[str], index: NameIndex) -> bool:
    """A popular given name, then a word a list holds as a surname: "Günther Maier", "Sabine Wolters"."""
    return len(words) >= 2 and popular_given_name(words[0], index) and surname_evidence(words[-1], index) > 0.0


def surname_evidence(word: str, index: NameIndex) -> float:
    """How much a word after a popular given name looks like a surname, by its rank as one alone: "Hart"
    after "Gemma", "Petit" after "Laurent" are surnames there, however common they are as words."""
    ranks = index.ranks(word.rstrip("."))
    return 0.8 * _rank_score(ranks.last) if ranks else 0.0


def _rank_score(rank: int) -> float:
    if rank >= NO_RANK:
        return 0.0
    if rank <= 300:
        return 1.0
    if rank <= 1500:
        return 0.85
    if rank <= 5000:
        return 0.65
    return 0.45


def token_name_evidence(word: str, index: NameIndex) -> float:
    """How much a single word looks like part of a name (-1..1): popular as a name, rare as a word."""
    ranks = index.ranks(word)
    name = _rank_score(ranks.best) if ranks else 0.0
    zipf = word_commonness(word)
    if ranks and ranks.first >= NO_RANK and zipf >= 3.0:
        # listed only as a surname somewhere and an ordinary word ("Automation", "Python"): the surname
        # lists hold many such words, and a surname alone rarely stands for a person in running text
        name *= 0.7
    if not ranks and zipf < 2.5:
        name = 0.25  # a rare word that no dictionary knows: names are the most common such words
    penalty = max(0.0, zipf - 3.6) * 0.6
    if ranks and ranks.best <= 100 and zipf < 5.5:
        penalty = min(penalty, 0.3)  # "John", "Wilson": frequent in text because they are frequent names
    return name - penalty


def _is_name_shaped(text: str) -> bool:
    if text.isupper():
        return len(text) >= 4 and NAME_WORD.match(text) is not None  # "DUPONT", never "VP", "HR", "API"
    return len(text) >= 2 and NAME_WORD.match(text) is not None and text[0].isupper()


def _leading_context(word: str) -> bool:
    """Words that open a name-shaped run without being part of the name: "Mrs", "Hi", "The"."""
    lowered = word.casefold().rstrip(".,")
    return lowered in HONORIFICS or lowered in GREETING_WORDS or lowered in LEADING_WORDS


def _common_opener(word: str, index: NameIndex) -> bool:
    """An ordinary word that happens to be capitalised before a name ("Contact", "Ask", "Thanks")."""
    if word.lower() in PLACE_HEADS:
        return False  # "Room Aurora" stays whole, so it reads as a room
    ranks = index.ranks(word)
    return word_commonness(word) >= 4.5 and (ranks is None or ranks.best > 300)


def word_parts(word: str) -> list[str]:
    """The parts of a hyphenated word, without a trailing dot ("Adeyemi-Hart" -> Adeyemi, Hart)."""
    return [p for p in re.split(r"[-‑]", word.rstrip(".")) if p]


def _hyphenated_evidence(word: str, index: NameIndex) -> float:
    """A double name or double-barrelled surname counts by the mean of its parts ("Adeyemi-Hart")."""
    parts = word_parts(word)
    return sum(token_name_evidence(p, index) for p in parts) / len(parts) if parts else 0.0


def _compound_noun(word: str, index: NameIndex) -> bool:
    """ "Hotelkontingente", "Standplanung", "Versicherungsnehmer": a long capitalised word that is no listed
    name and ends in an ordinary German or Dutch noun. Names built the same way ("Hoffmann") are listed."""
    if len(word) < 9 or not word[0].isupper() or index.ranks(word) is not None:
        return False
    from wordfreq import zipf_frequency

    lowered = word.casefold()
    return any(
        zipf_frequency(lowered[k:], language) >= 3.5 for k in range(3, len(lowered) - 3) for language in ("de", "nl")
    )


def _unlisted_german_word(word: str, index: NameIndex) -> bool:
    """ "Sollwert", "Zahnriemen": a capitalised word that no name list holds but German text uses (the
    small English NER model takes many German nouns for people). Listed names ("Vogel", "Koch") are
    exempt."""
    if len(word) < 5 or not word[0].isupper() or index.ranks(word) is not None:
        return False
    from wordfreq import zipf_frequency

    lowered = word.casefold()
    return zipf_frequency(lowered, "de") >= 2.0 and zipf_frequency(lowered, "en") < 2.0


def only_german(word: str) -> bool:
    """A common German word that English and French text do not use ("Autohaus", "Reifen"; not "Wolf")."""
    from wordfreq import zipf_frequency

    lowered = word.casefold()
    return zipf_frequency(lowered, "de") >= 3.0 and max(zipf_frequency(lowered, lang) for lang in ("en", "fr")) < 2.0
