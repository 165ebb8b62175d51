"""Twin documents told apart by the word the query names.

Corpora hold families of documents whose paths differ in one word: `sites/drucker-basel.md`,
`sites/drucker-zuerich.md`; `depots/lisbon-depot.md`, `depots/porto-depot.md`; `kb/vpn-windows.md`,
`kb/vpn-macos.md`. Their texts are near-identical, so dense and BM25 scores barely separate them,
yet the query usually names the one it means ("Welcher Drucker am Standort Basel ..."). When the
query names the distinguishing word of one twin and not of a twin ranked above it, the named twin
moves up to just above it. Only the path is read: it is what a corpus's authors chose to tell the
twins apart by.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from strata_pipeline.retrieval.candidate import Candidate

_SPLIT = re.compile(r"[/\\_.\-\s]+")
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def _plain(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def word_forms(word: str) -> set[str]:
    """A word as it may be spelt in a file name: "Zürich" -> zürich, zuerich, zurich."""
    lower = word.casefold()
    return {lower, lower.translate(_UMLAUTS), _plain(lower)}


def query_words(query: str) -> frozenset[str]:
    return frozenset(form for word in re.findall(r"\w+", query) for form in word_forms(word))


def proper_words(query: str) -> frozenset[str]:
    """The forms of the query's words written with a capital after its first word: names ("Hamburg",
    "Lyon") and, in German, nouns; never the capital that opens a sentence."""
    words = re.findall(r"\w+", query)[1:]
    return frozenset(form for word in words if word[:1].isupper() for form in word_forms(word))


@lru_cache(maxsize=8192)  # every query compares the same few hundred paths pairwise
def path_words(doc_id: str) -> tuple[str, ...]:
    """The words of a document's path without its extension: "sites/drucker-basel.md" ->
    ("sites", "drucker", "basel")."""
    stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", doc_id)
    return tuple(w for w in _SPLIT.split(stem.casefold()) if w)


def distinguishing_words(a: str, b: str) -> tuple[str, str] | None:
    """The one path word in which twins `a` and `b` differ, or None when they are not twins (other
    folders, other lengths, or more than one word apart)."""
    wa, wb = path_words(a), path_words(b)
    if len(wa) != len(wb) or len(wa) < 2:
        return None
    differ = [(x, y) for x, y in zip(wa, wb, strict=True) if x != y]
    if len(differ) != 1:
        return None
    x, y = differ[0]
    return (x, y) if x.isalpha() and y.isalpha() else None  # numbers are versions: see priors


def named_twins_first(ranked: list[Candidate], words: Iterable[str]) -> list[Candidate]:
    """`ranked` with each document the query names by its distinguishing word moved just above
    every twin that ranked higher but whose own word the query does not name."""
    named = frozenset(words)
    if not named:
        return ranked

    def key(c: Candidate) -> tuple[str, str]:
        return (c.payload.get("source_set") or "", c.doc_id)  # twins live in one source-set

    order = list(dict.fromkeys(key(c) for c in ranked))
    moved = False
    for doc in list(order):
        position = order.index(doc)
        above = [
            other
            for other in order[:position]
            if other[0] == doc[0]
            and (pair := distinguishing_words(doc[1], other[1]))
            and pair[0] in named
            and pair[1] not in named
        ]
        if above:
            order.remove(doc)
            order.insert(order.index(above[0]), doc)
            moved = True
    if not moved:
        return ranked
    place = {doc: i for i, doc in enumerate(order)}
    return sorted(ranked, key=lambda c: place[key(c)])  # stable: chunk order within a document kept


# How far down the ranking a document named by its file name is looked for (documents, not chunks).
NAMED_WITHIN = 10


def file_words(doc_id: str) -> tuple[str, ...]:
    """The words of a document's file name without folder and extension: "sites/hamburg-depot.md" ->
    ("hamburg", "depot")."""
    return path_words(doc_id.rsplit("/", 1)[-1])


def named_by_file_name(doc_id: str, words: frozenset[str], proper: frozenset[str]) -> bool:
    """Whether the query names the document by its file name: every word of a name of two or more
    words, none of them a number or version, one of them written with a capital ("im Depot Hamburg"
    names sites/hamburg-depot.md). Lower-case words name topics, not documents: "international
    business travel" does not single out international-travel.md among the travel documents."""
    parts = file_words(doc_id)
    return len(parts) >= 2 and all(w.isalpha() and w in words for w in parts) and any(w in proper for w in parts)


def named_documents_first(
    ranked: list[Candidate], words: Iterable[str], proper: Iterable[str], within: int = NAMED_WITHIN
) -> list[Candidate]:
    """`ranked` with the documents among the first `within` that the query names by their file name
    (named_by_file_name) moved ahead of the others, each keeping its order."""
    named, capital = frozenset(words), frozenset(proper)
    if not capital:
        return ranked

    def key(c: Candidate) -> tuple[str, str]:
        return (c.payload.get("source_set") or "", c.doc_id)

    order = list(dict.fromkeys(key(c) for c in ranked))[:within]
    first = [doc for doc in order if named_by_file_name(doc[1], named, capital)]
    if not first:
        return ranked
    place = {doc: (0, i) for i, doc in enumerate(first)}
    place |= {doc: (1, i) for i, doc in enumerate(order) if doc not in place}
    return sorted(ranked, key=lambda c: place.get(key(c), (2, 0)))  # stable: the rest keep their order
