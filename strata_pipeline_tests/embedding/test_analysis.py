"""BM25 lexical analysis: German compounds split, French elisions dropped, everything else as fastembed."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.embedding.analysis import Analyzer, analyse, compound_parts, document_vector, term_id
from strata_pipeline.embedding.models import load_analyzer, load_sparse_model
from strata_pipeline.resources import EmbedderResource
from strata_pipeline.settings import DEFAULT_EMBED_MODEL


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def embedder(models_dir: Path) -> EmbedderResource:
    return EmbedderResource(model=DEFAULT_EMBED_MODEL, models_dir=str(models_dir))


@pytest.fixture(scope="module")
def german(models_dir: Path) -> Analyzer:
    return load_analyzer("de", models_dir)


def shared(doc: tuple[list[int], list[float]], query: tuple[list[int], list[float]]) -> set[int]:
    return set(doc[0]) & set(query[0])


def test_a_german_compound_in_a_document_is_found_by_its_parts_in_a_query(embedder: EmbedderResource) -> None:
    doc = embedder.embed_sparse(["Den Urlaubsantrag reichen Sie bis Freitag ein."], ["de"])[0]
    query = embedder.query_sparse("Antrag Urlaub")
    assert shared(doc, query) == set(query[0])  # both words of the query are in the chunk


def test_a_german_compound_in_a_short_query_is_split_too(embedder: EmbedderResource) -> None:
    """Queries this short are never detected as German; they get the German analysis all the same."""
    doc = embedder.embed_sparse(["Stellen Sie einen Antrag auf Urlaub beim Teamleiter."], ["de"])[0]
    assert len(shared(doc, embedder.query_sparse("Urlaubsantrag"))) == 2  # urlaub, antrag
    belt = embedder.embed_sparse(["Der Zahnriemen der Achse 5 wird nach 6.000 Stunden gewechselt."], ["de"])[0]
    assert shared(belt, embedder.query_sparse("Riemen"))


def test_the_german_guess_at_an_english_query_brings_back_no_english_stop_word(embedder: EmbedderResource) -> None:
    """The word "get" is an English stop word but not a German one, and "gets" in English stems to it."""
    doc = embedder.embed_sparse(["The technician gets help from the expert."], ["en"])[0]
    assert shared(doc, embedder.query_sparse("Should I get help?")) == {term_id("help")}


def test_an_english_question_is_analysed_as_before(embedder: EmbedderResource, models_dir: Path) -> None:
    """Detected as English, it gets the English analysis only: no German guess, no splitter loaded."""
    question = "How often must the toothed belt of axis 5 on the RX-200 be replaced?"
    english = next(iter(load_sparse_model("Qdrant/bm25", models_dir, "en").query_embed(question)))
    assert set(embedder.query_sparse(question)[0]) == set(english.indices.tolist())


def test_the_exact_compound_matches_more_terms_than_its_parts_apart(embedder: EmbedderResource) -> None:
    compound, apart = embedder.embed_sparse(
        ["Der Urlaubsantrag liegt vor.", "Der Antrag auf Urlaub liegt vor."], ["de", "de"]
    )
    query = embedder.query_sparse("Urlaubsantrag")
    assert len(shared(compound, query)) > len(shared(apart, query))


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("urlaubsantrag", ("urlaubs", "antrag")),
        ("zahnriemenwechsel", ("zahn", "riemen", "wechsel")),
        ("anwohnerparkausweis", ("anwohner", "park", "ausweis")),
        ("sperrmüllabholung", ("sperrmüll", "abholung")),
        ("baugenehmigungsverfahren", ("baugenehmigung", "verfahren")),
        ("wartungsplan", ("wartung", "plan")),
        ("kundendienst", ("kunden", "dienst")),
        ("ersatzteilliste", ("ersatz", "teil", "liste")),
    ],
)
def test_german_compounds_split_into_their_parts(german: Analyzer, word: str, parts: tuple[str, ...]) -> None:
    assert german.split is not None
    assert german.split(word) == parts


@pytest.mark.parametrize(
    "word", ["roboter", "urlaub", "antrag", "bestellung", "geschwindigkeit", "deutschland", "verantwortung"]
)
def test_a_word_that_is_not_a_compound_stays_whole(german: Analyzer, word: str) -> None:
    assert german.split is not None
    assert german.split(word) == ()
    terms, length = analyse(word.capitalize(), german)
    assert terms == [german.stem(word)] and length == 1


def test_parts_add_terms_but_not_length(german: Analyzer) -> None:
    """BM25 length normalisation sees the words written, so splitting does not dilute the other terms."""
    terms, length = analyse("Wartungsplan für Roboter", german)
    assert length == 2  # "für" is a stop word
    assert terms == ["wartungsplan", "wartung", "plan", "robot"]


@pytest.mark.parametrize(
    "text",
    [
        "How often must the toothed belt of axis 5 on the RX-200 be replaced?",
        "Error E-1042: the controller's 24 V supply dropped below 19.2 V (see firmware v3.12).",
        "Spare parts, returns & core charges — don't ship batteries by courier!",
        "Supercalifragilisticexpialidociousnessofthisverylongtokenindeed and the Wartungsplan",
        "",
    ],
)
def test_english_text_is_analysed_exactly_as_fastembed_does(models_dir: Path, text: str) -> None:
    expected = next(iter(load_sparse_model("Qdrant/bm25", models_dir, "en").embed([text])))
    indices, values = document_vector(text, load_analyzer("en", models_dir))
    assert dict(zip(indices, values, strict=True)) == dict(
        zip(expected.indices.tolist(), expected.values.tolist(), strict=True)
    )


def test_german_text_without_compounds_is_analysed_as_fastembed_does(models_dir: Path, german: Analyzer) -> None:
    text = "Die Roboter der Halle werden täglich geprüft."
    expected = next(iter(load_sparse_model("Qdrant/bm25", models_dir, "de").embed([text])))
    assert dict(zip(*document_vector(text, german), strict=True)) == dict(
        zip(expected.indices.tolist(), expected.values.tolist(), strict=True)
    )


def test_french_elided_articles_are_dropped(models_dir: Path) -> None:
    french = load_analyzer("fr", models_dir)
    terms, _ = analyse("Pendant l'astreinte, le délai d'intervention qu'il faut respecter", french)
    assert terms == analyse("Pendant astreinte, le délai intervention il faut respecter", french)[0]
    assert not {"l", "d", "qu"} & set(terms)
    assert analyse("l’astreinte", french)[0] == [french.stem("astreinte")]  # typographic apostrophe too


def test_english_keeps_its_single_letters(models_dir: Path) -> None:
    """Elision is read from the stop lists: English has none, so its analysis does not change."""
    assert "s" in analyse("the robot's arm", load_analyzer("en", models_dir))[0]


def test_the_splitter_keeps_the_first_ranked_cut_whose_pieces_are_words() -> None:
    """compound_parts with a stand-in splitter and word list: the rule alone, without either library."""
    ranked = {
        "urlaubsantrag": [(0.9, "urlaubsan", "trag"), (0.8, "urlaubs", "antrag")],
        "urlaub": [(0.5, "url", "aub")],
    }
    frequency = {"urlaub": 4.8, "antrag": 4.6, "trag": 2.0, "urlaubsan": 0.0}

    def parts(word: str) -> tuple[str, ...]:
        return compound_parts(word, lambda w: ranked.get(w, []), lambda w: frequency.get(w, 0.0), ("", "s"))

    assert parts("urlaubsantrag") == ("urlaub", "antrag")  # "trag" is no word; "urlaubs" loses its s
    assert parts("urlaub") == ()  # too short to hold two parts of four letters
    frequency["urlaubsantrag"] = 5.0  # a word more common than its would-be parts is not split
    assert parts("urlaubsantrag") == ()


def test_term_ids_are_fastembeds() -> None:
    from fastembed.sparse.bm25 import Bm25

    assert term_id("urlaub") == Bm25.compute_token_id("urlaub")
