"""A lexical bridge across languages for the BM25 query (experiment).

BM25 cannot match a chunk in another language than the query's except for the words the two
languages share. The bridge adds, for each content word (and adjacent pair of content words) of the
query, the index vocabulary word of another language whose dense embedding, the word embedded alone,
is its nearest neighbour by CSLS (cross-domain similarity local scaling, Conneau et al. 2018: twice
the cosine less each side's mean cosine to its K nearest neighbours in the other language, which
keeps "hub" words that sit near everything from being everyone's translation), when that score
clears a threshold. The added terms weigh less than the query's own.

Pure functions over arrays: the caller supplies the vocabulary, its vectors and the query's vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from strata_pipeline.embedding.analysis import tokens

HUB_K = 10  # neighbours averaged for each side's hubness (CSLS)
MIN_LETTERS = 3


@dataclass(frozen=True)
class Vocabulary:
    """Index words with their language, their vectors (rows, L2-normalised) and, per other language,
    each word's mean cosine to its HUB_K nearest words of that language (`hub[lang][i]`)."""

    words: list[str]
    languages: list[str]
    vectors: np.ndarray
    hub: dict[str, np.ndarray]


def hubness(vectors: np.ndarray, among: np.ndarray, k: int = HUB_K) -> np.ndarray:
    """Each row's mean cosine to its `k` nearest rows of `among` (0 when `among` is empty)."""
    if len(among) == 0 or len(vectors) == 0:
        return np.zeros(len(vectors), dtype=np.float32)
    sims = vectors @ among.T
    k = min(k, sims.shape[1])
    return np.sort(sims, axis=1)[:, -k:].mean(axis=1)


def query_units(text: str, stopwords: frozenset[str]) -> list[str]:
    """The query's content words (letters only, at least MIN_LETTERS, no stop word) and each pair of
    adjacent ones: an English open compound ("toothed belt") is one closed German word."""
    content = [t if t.isalpha() and len(t) >= MIN_LETTERS and t not in stopwords else None for t in tokens(text)]
    words = list(dict.fromkeys(t for t in content if t))
    pairs = [f"{a} {b}" for a, b in zip(content, content[1:], strict=False) if a and b]
    return words + list(dict.fromkeys(pairs))


def csls(query: np.ndarray, targets: np.ndarray, target_hub: np.ndarray, k: int = HUB_K) -> np.ndarray:
    """CSLS of every query row against every target row: 2 cos - r(query) - r(target)."""
    sims = query @ targets.T
    return 2 * sims - hubness(query, targets, k)[:, None] - target_hub[None, :]


def bridged_words(
    units: Sequence[str],
    unit_vectors: np.ndarray,
    vocab: Vocabulary,
    language: str,
    threshold: float,
) -> list[tuple[str, str, float]]:
    """(word, its language, score) of the best other-language word of each unit whose CSLS clears
    `threshold`; a word the query itself holds is skipped (BM25 matches it already when it can)."""
    own = {w for u in units for w in u.split()}
    out: dict[tuple[str, str], float] = {}
    for lang in sorted(set(vocab.languages) - {language}):
        if lang not in vocab.hub:
            continue
        idx = np.array([i for i, x in enumerate(vocab.languages) if x == lang])
        scores = csls(unit_vectors, vocab.vectors[idx], vocab.hub[language][idx] if language in vocab.hub else np.zeros(len(idx)))
        for row in scores:
            j = int(row.argmax())
            word = vocab.words[idx[j]]
            if row[j] >= threshold and word not in own:
                out[(word, lang)] = max(out.get((word, lang), float("-inf")), float(row[j]))
    return [(w, lang, s) for (w, lang), s in out.items()]


def expanded(
    sparse: tuple[list[int], list[float]],
    words: Sequence[tuple[str, str, float]],
    term_ids: Callable[[str, str], list[int]],
    weight: float,
) -> tuple[list[int], list[float]]:
    """The query's sparse vector plus each bridged word's terms at `weight`; a term the query already
    holds keeps its own weight."""
    ids = dict(zip(*sparse, strict=True))
    for word, lang, _ in words:
        for term in term_ids(word, lang):
            ids.setdefault(term, weight)
    return list(ids), list(ids.values())
