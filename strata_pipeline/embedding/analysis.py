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
# How much an attested genitive form of a left piece ("zugangs") favours reading an s after it as
# its linking s: its right part counts as this much (log10) more frequent (see compound_parts).
GENITIVE_CREDIT = 1.0
# Inflectional endings a suffix may carry ("-schaften", "-ungen", "-liche").
ENDINGS = ("", "e", "en", "er", "es", "n", "s", "se", "sen")

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


_NON_ALPHANUMERIC = re.compile(r"[^\w\s]", flags=re.UNICODE)
_NON_WORD = re.compile(r"[^\w]")
_SPACES = re.compile(r"\s+")


def tokens(text: str) -> list[str]:
    """Lower-case word tokens, exactly as fastembed's Bm25 cuts them (so vectors stay comparable):
    its `remove_non_alphanumeric`, then its `SimpleTokenizer.tokenize`, step for step. Written out
    here so that a query does not import fastembed (about 0.6 s of CPU); test_encoders compares."""
    text = _NON_ALPHANUMERIC.sub(" ", text)
    return _SPACES.sub(" ", _NON_WORD.sub(" ", text.lower())).strip().split()


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


@dataclass(frozen=True)
class CompoundRules:
    """A language's word formation, beyond word frequency, that compound_parts respects.

    suffixes: derivational suffixes that make a word rather than join two ("-schaft", "-ung",
        "-keit"): a piece that is one of them (with an inflectional ending) is never a part after a
        cut, even where it is also a word ("Schaft", "Heit"): "Anwaltschaft" is no "Anwalt" + "Schaft".
    linking_s_after: endings after which the linking s is obligatory ("-ung", "-heit", "-ion"), so an s
        that follows one belongs to the left piece ("Wohnungs" + "tür", never "Wohnung" + "stür").
    short_heads: the letters a first piece may have below MIN_PART ("Ruf" + "Bereitschaft", "Amt" +
        "Gericht"); MIN_PART when 0. Short words are the likeliest chance substrings, so such a head
        stands as written (no linking element), before at least `short_head_rest` letters, is a
        common word (Zipf from `short_head_zipf` to below `short_head_max_zipf`: function words are
        far commoner than any noun), no prefix or particle in `prefixes` ("ver", "aus", "ein":
        "Auslieferung" is no "aus" + "Lieferung"), and, when `foreign` gives another language's
        frequencies (English, whose words fill technical German), commoner here than there by
        `short_head_margin`: "dis" + "count", "out" + "going" and "sui" + "table" are no compounds.
    """

    suffixes: frozenset[str] = frozenset()
    linking_s_after: tuple[str, ...] = ()
    short_heads: int = 0
    short_head_rest: int = 5
    short_head_zipf: float = 4.3
    short_head_max_zipf: float = 6.0
    short_head_margin: float = 0.5
    prefixes: frozenset[str] = frozenset()
    foreign: Callable[[str], float] | None = None


def compound_parts(
    word: str,
    zipf: Callable[[str], float],
    links: Sequence[str] = ("",),
    min_zipf: float = MIN_ZIPF,
    max_parts: int = MAX_PARTS,
    rules: CompoundRules | None = None,
) -> tuple[str, ...]:
    """The parts of a lower-case compound, or () when `word` is not one.

    Every way of cutting `word` into 2 to `max_parts` pieces of at least MIN_PART letters is tried, a
    piece before a cut optionally ending in a linking element from `links` (the s of "Urlaubs-", the n
    of "Kunden-"). A cut is kept only when every piece is a word of the language (`zipf` above
    `min_zipf`) more frequent than `word` itself: a real compound is rarer than its parts, so ordinary
    words stay whole ("Urlaub" is not "Url" + "aub", "Deutschland" not "deutsch" + "land"). `rules`
    adds what frequency cannot tell (see CompoundRules): suffixes are no parts, short first pieces.

    Two cuts that differ only in whether an s ends the left piece or starts the right one
    ("Zugangs" + "pass" or "Zugang" + "spass"; "Zeit" + "spanne" or "Zeits" + "panne") are settled by
    the linking s: it stays on the left after a suffix that demands it ("Wohnungs-"), starts the
    right piece when the left piece with it is no word form ("zeits"), and after an attested genitive
    ("zugangs", "orts") stays left unless "s" + the right piece is over ten times more common
    ("Hafens" + "traße" is no cut). After an e ("hundes": "Hund-es" or "Hunde-s") frequency decides.

    Of the other cuts kept, the one with the fewest pieces wins (a third piece only where a piece is
    no word itself: "Zahn" + "Riemen" + "Wechsel", as "zahnriemen" is rare), then the one whose rarest
    piece is most frequent. Fewest pieces first keeps "Netto" + "Vermögen" from "nett" + "over" +
    "mögen" and "Onderhoud" + "plan" from "onder" + "houd" + "plan".

    A piece before a cut is reported as written where that is a word ("urlaubs", "kunden": the stemmer
    reduces them as it does in running text), else without its linking element ("wartungs" ->
    "wartung"); its frequency is that of its most frequent reading.
    """
    rules = rules or CompoundRules()
    short = rules.short_heads or MIN_PART
    n = len(word)
    if n < 2 * MIN_PART or max_parts < 2:
        return ()
    limit = zipf(word)
    known: dict[str, float] = {}

    def frequency(piece: str, least: int = MIN_PART) -> float:
        """`piece`'s Zipf frequency if it is a word that can be a part of `word` (never `word`), else -1."""
        if len(piece) < least:
            return -1.0
        if piece not in known:
            f = zipf(piece) if piece.isalpha() and VOWEL.search(piece) else -1.0
            known[piece] = f if f > min_zipf and f > limit else -1.0
        return known[piece]

    def suffix(piece: str) -> bool:
        return any(piece.endswith(e) and piece[: len(piece) - len(e)] in rules.suffixes for e in ENDINGS)

    def modifier(i: int, written: str) -> tuple[str, float] | None:
        """A piece before a cut as reported (its first reading in `links` order that is a word) and the
        frequency of its most frequent reading; None when no reading is a word."""
        if i > 0 and suffix(written):
            return None
        if len(written) < MIN_PART:  # a short head: the whole word's first piece, as written
            f = frequency(written, short) if written not in rules.prefixes else -1.0
            margin = f - rules.foreign(written) if rules.foreign is not None else rules.short_head_margin
            common = rules.short_head_zipf <= f < rules.short_head_max_zipf
            return (written, f) if common and margin >= rules.short_head_margin else None
        readings = [written[: len(written) - len(link)] for link in links if written.endswith(link)]
        words = [r for r in readings if frequency(r) >= 0]
        return (words[0], max(map(frequency, words))) if words else None

    def s_stays_left(written: str, right: str) -> bool | None:
        """Whether the s ending `written` (a piece before a cut, followed by `right`) is its linking s
        rather than the first letter of "s" + `right`; None when only frequency can tell."""
        bare = written[:-1]
        if bare.endswith(rules.linking_s_after):
            return True
        if frequency(written) < 0:  # "zeits", "jahress": no word form, so no linking s
            return False
        if bare.endswith("e"):  # "hundes" or "hunde"-s: a genitive -es or a plural -e, undecided
            return None
        # An attested genitive ("zugangs", "orts") counts ten times its right part's frequency: the
        # linking s is the rule after it, while "s" + right is often a chance word ("spass", "steil").
        return zipf(right) + GENITIVE_CREDIT >= zipf("s" + right)

    # cuts[(i, k)]: the cut of word[i:] into 1 to k pieces with the fewest pieces, then the most
    # frequent rarest piece, as (-pieces, that frequency, pieces); None when word[i:] cannot be cut so.
    Cut = tuple[int, float, tuple[str, ...]]
    cuts: dict[tuple[int, int], Cut | None] = {}

    def cut(i: int, k: int) -> Cut | None:
        if (i, k) not in cuts:
            f = frequency(word[i:]) if i == 0 or not suffix(word[i:]) else -1.0
            found: Cut | None = (-1, f, (word[i:],)) if f >= 0 else None
            first = i + (short if i == 0 and n - short >= rules.short_head_rest else MIN_PART)
            options: dict[int, Cut] = {}
            for j in range(first, n - MIN_PART + 1) if k > 1 else ():
                head = modifier(i, word[i:j])
                rest = cut(j, k - 1) if head is not None else None
                if head is not None and rest is not None:
                    options[j] = (rest[0] - 1, min(head[1], rest[1]), (head[0], *rest[2]))
            for j in [j for j in options if j - 1 in options and word[j - 1] == "s"]:
                # The same s read as a linking element (cut at j) or as the right part's first letter.
                left = s_stays_left(word[i:j], options[j][2][1])
                if left is not None:
                    options.pop(j - 1 if left else j)
            for option in options.values():
                if found is None or option[:2] > found[:2]:
                    found = option
            cuts[(i, k)] = found
        return cuts[(i, k)]

    found = cut(0, max_parts)
    return found[2] if found is not None else ()
