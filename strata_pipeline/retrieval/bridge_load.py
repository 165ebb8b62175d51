"""Experiment glue: the bridge's vocabulary from a saved file, and the sparse query it expands."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from strata_pipeline.embedding.analysis import Analyzer, analyse, term_id
from strata_pipeline.retrieval.bridge import Vocabulary, bridged_words, expanded, hubness, query_units

SparseVec = tuple[list[int], list[float]]


@lru_cache(maxsize=2)
def load_vocabulary(path: str) -> Vocabulary:
    data = np.load(path)
    words = [str(w) for w in data["words"]]
    langs = [str(x) for x in data["langs"]]
    vectors = np.load(path.replace(".npz", "_q.npy")).astype(np.float32)
    arr = np.array(langs)
    hub = {lang: hubness(vectors, vectors[arr == lang]) for lang in sorted(set(langs))}
    return Vocabulary(words, langs, vectors, hub)


def bridged_sparse(
    sparse_query: Callable[[str], SparseVec],
    embed: Callable[[list[str]], np.ndarray],
    language_of: Callable[[str], str],
    analyzer: Callable[[str], Analyzer],
) -> Callable[[str], SparseVec]:
    path = os.environ["STRATA_XLING_BRIDGE"]
    threshold = float(os.environ.get("STRATA_XLING_T", "0.1"))
    weight = float(os.environ.get("STRATA_XLING_W", "0.3"))
    debug = bool(os.environ.get("STRATA_XLING_DEBUG"))

    def terms(word: str, lang: str) -> list[int]:
        return [term_id(t) for t in analyse(word, analyzer(lang))[0]]

    def query(text: str) -> SparseVec:
        sparse = sparse_query(text)
        language = language_of(text)
        if not language:
            return sparse
        vocab = load_vocabulary(path)
        stop = analyzer(language).stopwords | analyzer("en").stopwords
        units = query_units(text, stop)
        if not units:
            return sparse
        words = bridged_words(units, embed(units), vocab, language, threshold)
        if debug:
            print("BRIDGE", text, sorted(words, key=lambda w: -w[2]))
        return expanded(sparse, words, terms, weight)

    return query
