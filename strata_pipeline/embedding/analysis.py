"""Lexical analysis behind the BM25 sparse vectors: one code path for documents and queries.

It reproduces fastembed's `Qdrant/bm25` analysis exactly (its tokeniser, stop words, Snowball stem,
term id and BM25 term-frequency weight), so text that needs none of the additions below gets the
vector it always had. Two additions, both switched on per language by the `Analyzer` a caller builds:

- Compounds (German, Dutch): a word that splits is indexed as the whole word *plus* its parts, so
  "Antrag auf Urlaub" finds "Urlaubsantrag" and "Riemen" finds "Zahnriemen", while a query naming the
  compound itself still matches more terms of a chunk that has it.
- Elision (French, Italian): the tokeniser cuts "l'astreinte" into "l" and "astreinte"; the stop
  lists hold "l'" with its apostrophe, so the bare clitic is dropped too (by the caller's stop words).

Pure functions with no I/O: models.load_analyzer supplies the stop words, stemmer and splitter.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import mmh3
from fastembed.common.utils import remove_non_alphanumeric
from fastembed.sparse.utils.tokenizer import SimpleTokenizer

# fastembed's Bm25 defaults. These are ranking parameters: unchanged here, only analysis changes.
K = 1.2
B = 0.75
AVG_LEN = 256.0
TOKEN_MAX_LENGTH = 40

# A compound has two parts of at least MIN_PART letters. Shorter pieces ("Öl", "Arm") are too often a
# chance substring ("Roboter" is not "Robo" + "ter"); missing those few compounds is the cheaper error.
MIN_PART = 4
# Zipf frequency (log10 per billion words) from which a piece counts as a word of its own: 3 is about
# once per million words; below it, word lists are full of abbreviations and names ("stan", "schw").
MIN_ZIPF = 3.0
VOWEL = re.compile(r"[aeiouyäöüàâéèêëîïôûù]")

Sparse = tuple[list[int], list[float]]
# A splitter's ranked guesses for one lower-case word: (score, modifier, head), best first.
Candidates = Callable[[str], Sequence[tuple[float, str, str]]]


@dataclass(frozen=True)
class Analyzer:
    """How one language's text becomes terms."""

    stopwords: frozenset[str]
    stem: Callable[[str], str]
    punctuation: frozenset[str] = frozenset()
    # Parts of a lower-case word when it is a compound, else () (see compound_parts). None: no splitting.
    split: Callable[[str], tuple[str, ...]] | None = None
    token_max_length: int = TOKEN_MAX_LENGTH


def guessed(analyzer: Analyzer, default: Analyzer) -> Analyzer:
    """`analyzer` for a query that may not be in its language: the default language's stop words are
    dropped too, so the German guess at an English query does not bring back "get" or "should" (not
    German stop words) to match English text where "gets" stems to "get"."""
    return replace(analyzer, stopwords=analyzer.stopwords | default.stopwords)


def tokens(text: str) -> list[str]:
    """Lower-case word tokens, exactly as fastembed's Bm25 cuts them (so vectors stay comparable)."""
    return SimpleTokenizer.tokenize(remove_non_alphanumeric(text))


def analyse(text: str, analyzer: Analyzer) -> tuple[list[str], int]:
    """(terms, length): the stemmed terms of `text`, compound parts included, and its length in words.

    The length counts whole words only: a part is another view of a word already counted (as Lucene
    discounts tokens stacked at one position), so splitting does not make a German chunk look longer
    and lower every other term's weight.
    """
    terms: list[str] = []
    length = 0
    for token in tokens(text):
        if token in analyzer.punctuation or token in analyzer.stopwords or len(token) > analyzer.token_max_length:
            continue
        whole = analyzer.stem(token)
        if not whole:
            continue
        terms.append(whole)
        length += 1
        if analyzer.split is not None and token.isalpha() and len(token) >= 2 * MIN_PART:
            terms.extend(_part_terms(token, whole, analyzer))
    return terms, length


def _part_terms(token: str, whole: str, analyzer: Analyzer) -> list[str]:
    """Stemmed parts of one compound token, each once, without the whole word's own stem or stop words."""
    assert analyzer.split is not None
    seen = {whole}
    out = []
    for part in analyzer.split(token):
        if part in analyzer.stopwords:
            continue
        stem = analyzer.stem(part)
        if stem and stem not in seen:
            seen.add(stem)
            out.append(stem)
    return out


def term_id(term: str) -> int:
    """fastembed's Bm25 term id (abs of the signed 32-bit murmur3 hash), so old and new ids agree."""
    return abs(mmh3.hash(term))


def document_vector(text: str, analyzer: Analyzer) -> Sparse:
    """BM25 term-frequency weights of one chunk; Qdrant applies the IDF (Modifier.Idf) at query time."""
    terms, length = analyse(text, analyzer)
    norm = K * (1 - B + B * length / AVG_LEN)
    weights: dict[int, float] = {}
    for term, count in Counter(terms).items():  # first-seen order, as fastembed builds it
        weights[term_id(term)] = count * (K + 1) / (count + norm)
    return list(weights), list(weights.values())


def query_vector(text: str, analyzers: Iterable[Analyzer]) -> Sparse:
    """The query's terms under every analyzer given, each weighted 1 (BM25 scores a query term once).

    Short queries rarely reveal their language, so callers pass several analyses; their union costs
    little (a term the index lacks matches nothing) and misses nothing the right analysis would find.
    """
    ids: dict[int, float] = {}
    for analyzer in analyzers:
        for term in analyse(text, analyzer)[0]:
            ids[term_id(term)] = 1.0
    return list(ids), list(ids.values())


def compound_parts(
    word: str,
    candidates: Candidates,
    zipf: Callable[[str], float],
    links: Sequence[str] = ("",),
    min_zipf: float = MIN_ZIPF,
) -> tuple[str, ...]:
    """The parts of a lower-case compound, or () when `word` is not one.

    The splitter library proposes where to cut (ranked); a word list decides which cut is real. The
    first cut whose modifier (less a linking element such as the s of "Urlaubs-") and head are each a
    word more frequent than `word` itself, or a compound by the same rule, wins. The frequency test
    keeps ordinary words whole ("Urlaub" is not "Url" + "aub", "Deutschland" not "deutsch" + "land"):
    a real compound is rarer than its parts.
    """
    memo: dict[str, tuple[str, ...]] = {}

    def split(w: str) -> tuple[str, ...]:
        if w not in memo:
            memo[w] = ()  # guards against a splitter proposing `w` itself
            memo[w] = _split(w)
        return memo[w]

    def piece(p: str, limit: float) -> tuple[str, ...]:
        if len(p) < MIN_PART or not p.isalpha() or not VOWEL.search(p):
            return ()
        if zipf(p) >= min_zipf and zipf(p) > limit:
            return (p,)  # a word in its own right stays whole: "Unterweisung", not "unter" + "weisung"
        return split(p)  # else it must be a compound itself: "zahnriemen" in "Zahnriemenwechsel"

    def _split(w: str) -> tuple[str, ...]:
        if len(w) < 2 * MIN_PART:
            return ()
        limit = zipf(w)
        for _score, modifier, head in candidates(w):
            modifier, head = modifier.lower(), head.lower()
            if modifier + head != w:
                continue
            head_parts = piece(head, limit)
            if not head_parts:
                continue
            for link in links:
                if modifier.endswith(link) and len(modifier) > len(link):
                    modifier_parts = piece(modifier[: len(modifier) - len(link)], limit)
                    if modifier_parts:
                        return modifier_parts + head_parts
        return ()

    return split(word)
