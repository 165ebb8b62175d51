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
# A piece counts as a word of its own when its Zipf frequency (log10 per billion words) is above this:
# more often than once per million words. Lower, the cuts it adds are half junk ("verh" + "aken",
# "einge" + "rammt", "vivi" + "sektionen"); at 3.5 most of the cuts it loses are real ("Kolben" +
# "Ente", "Messing" + "Rohr", "Deich" + "Krone") and so are "Riemen" (3.38) and "Abholung" (3.28).
MIN_ZIPF = 3.0
# A compound is cut into at most this many parts ("Zahn" + "Riemen" + "Wechsel").
MAX_PARTS = 3
VOWEL = re.compile(r"[aeiouyäöüàâéèêëîïôûù]")

Sparse = tuple[list[int], list[float]]


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
    zipf: Callable[[str], float],
    links: Sequence[str] = ("",),
    min_zipf: float = MIN_ZIPF,
    max_parts: int = MAX_PARTS,
) -> tuple[str, ...]:
    """The parts of a lower-case compound, or () when `word` is not one.

    Every way of cutting `word` into 2 to `max_parts` pieces of at least MIN_PART letters is tried, a
    piece before a cut optionally ending in a linking element from `links` (the s of "Urlaubs-", the n
    of "Kunden-"). A cut is kept only when every piece is a word of the language (`zipf` above
    `min_zipf`) more frequent than `word` itself: a real compound is rarer than its parts, so ordinary
    words stay whole ("Urlaub" is not "Url" + "aub", "Deutschland" not "deutsch" + "land").

    Of the cuts kept, the one with the fewest pieces wins (a third piece only where a piece is no word
    itself: "Zahn" + "Riemen" + "Wechsel", as "zahnriemen" is rare), then the one whose rarest piece
    is most frequent. Fewest pieces first keeps "Netto" + "Vermögen" from "nett" + "over" + "mögen"
    and "Onderhoud" + "plan" from "onder" + "houd" + "plan", whose rarest pieces are more frequent.

    A piece before a cut is reported as written where that is a word ("urlaubs", "kunden": the stemmer
    reduces them as it does in running text), else without its linking element ("wartungs" ->
    "wartung"); its frequency is that of its most frequent reading.
    """
    n = len(word)
    if n < 2 * MIN_PART or max_parts < 2:
        return ()
    limit = zipf(word)
    known: dict[str, float] = {}

    def frequency(piece: str) -> float:
        """`piece`'s Zipf frequency if it is a word that can be a part of `word` (never `word`), else -1."""
        if piece not in known:
            f = zipf(piece) if len(piece) >= MIN_PART and piece.isalpha() and VOWEL.search(piece) else -1.0
            known[piece] = f if f > min_zipf and f > limit else -1.0
        return known[piece]

    def modifier(written: str) -> tuple[str, float] | None:
        """A piece before a cut as reported (its first reading in `links` order that is a word) and the
        frequency of its most frequent reading; None when no reading is a word."""
        readings = [written[: len(written) - len(link)] for link in links if written.endswith(link)]
        words = [r for r in readings if frequency(r) >= 0]
        return (words[0], max(map(frequency, words))) if words else None

    # cuts[(i, k)]: the cut of word[i:] into 1 to k pieces with the fewest pieces, then the most
    # frequent rarest piece, as (-pieces, that frequency, pieces); None when word[i:] cannot be cut so.
    Cut = tuple[int, float, tuple[str, ...]]
    cuts: dict[tuple[int, int], Cut | None] = {}

    def cut(i: int, k: int) -> Cut | None:
        if (i, k) not in cuts:
            f = frequency(word[i:])
            found: Cut | None = (-1, f, (word[i:],)) if f >= 0 else None
            for j in range(i + MIN_PART, n - MIN_PART + 1) if k > 1 else ():
                head = modifier(word[i:j])
                rest = cut(j, k - 1) if head is not None else None
                if head is not None and rest is not None:
                    option = (rest[0] - 1, min(head[1], rest[1]), (head[0], *rest[2]))
                    if found is None or option[:2] > found[:2]:
                        found = option
            cuts[(i, k)] = found
        return cuts[(i, k)]

    found = cut(0, max_parts)
    return found[2] if found is not None else ()
