"""BM25 lexical analysis: German compounds split, French elisions dropped, everything else as fastembed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks.compound_split import cuts_of, load
from strata_pipeline.embedding.analysis import (
    Analyzer,
    CompoundRules,
    analyse,
    compound_parts,
    document_vector,
    term_id,
)
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
        ("krankenversicherung", ("kranken", "versicherung")),
        ("stromzähler", ("strom", "zähler")),
        ("fahrzeugschein", ("fahrzeug", "schein")),
        ("datenschutzerklärung", ("datenschutz", "erklärung")),  # a word part stays whole, not daten+schutz
        ("wasserhahn", ("wasser", "hahn")),
        ("rechnungsadresse", ("rechnung", "adresse")),  # "rechnungs" is no word: the s goes
        ("nettovermögen", ("netto", "vermögen")),  # not "nett" + "over" + "mögen": fewest pieces first
        ("kindergarten", ("kinder", "garten")),  # lexicalised, but both parts are more common: split
        ("straßenbahn", ("straßen", "bahn")),
        ("rufnummer", ("ruf", "nummer")),  # a noun of three letters heads a compound
        ("zugverbindung", ("zug", "verbindung")),
        ("uhrmacher", ("uhr", "macher")),
        ("ausbildungsplatz", ("ausbildungs", "platz")),
    ],
)
def test_german_compounds_split_into_their_parts(german: Analyzer, word: str, parts: tuple[str, ...]) -> None:
    assert german.split is not None
    assert german.split(word) == parts


@pytest.mark.parametrize(
    "word",
    [
        "roboter",
        "urlaub",
        "antrag",
        "bestellung",
        "geschwindigkeit",
        "deutschland",
        "verantwortung",
        "bahnhof",  # "hof" is under four letters
        "führerschein",  # more common than "schein": lexicalised compounds as common as a part stay whole
        "krankenhaus",  # more common than "kranken"
        "donnerstag",  # more common than "donner" ("tag" is under four letters anyway)
        "anwaltschaft",  # "Schaft" is a word, but -schaft a suffix
        "meisterschaft",
        "auslieferung",  # "aus" is a particle, not a noun heading a compound
        "vorstellung",
        "discount",  # "dis" is commoner in English than in German
        "outgoing",
    ],
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


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("onderhoudsplan", ("onderhoud", "plan")),  # not "onder" + "houd" + "plan"
        ("klantenservice", ("klanten", "service")),
        ("ziektekostenverzekering", ("ziekte", "kosten", "verzekering")),
        ("vergunningaanvraag", ("vergunning", "aanvraag")),
        ("ziekenhuis", ()),
        ("verantwoordelijkheid", ()),
    ],
)
def test_dutch_compounds_split_into_their_parts(models_dir: Path, word: str, parts: tuple[str, ...]) -> None:
    dutch = load_analyzer("nl", models_dir)
    assert dutch.split is not None
    assert dutch.split(word) == parts


def _stand_in(frequency: dict[str, float]) -> Callable[[str], float]:
    return lambda w: frequency.get(w, 0.0)


def test_a_cut_needs_every_piece_a_word_more_common_than_the_compound() -> None:
    """compound_parts with a stand-in word list: the rule alone, without wordfreq."""
    frequency = {"urlaub": 4.8, "antrag": 4.6, "trag": 2.9, "urlaubsan": 3.5}
    zipf = _stand_in(frequency)
    assert compound_parts("urlaubsantrag", zipf, ("", "s")) == ("urlaub", "antrag")  # "trag" is no word
    assert compound_parts("urlaubsantrag", zipf, ("",)) == ()  # "urlaubs" is a word only less its s
    assert compound_parts("urlaub", zipf, ("", "s")) == ()  # too short to hold two parts of four letters
    frequency["urlaubsantrag"] = 4.7  # more common than one of its would-be parts: stays whole
    assert compound_parts("urlaubsantrag", zipf, ("", "s")) == ()
    frequency["urlaubsantrag"] = 3.0
    assert compound_parts("urlaubsantrag", zipf, ("", "s"), min_zipf=4.7) == ()  # "antrag" under the line


def test_the_fewest_pieces_win_then_the_most_frequent_rarest_piece() -> None:
    frequency = {"abcd": 5.0, "efgh": 5.0, "ijkl": 5.0, "abcdefgh": 3.5, "efghijkl": 3.2}
    zipf = _stand_in(frequency)
    # Two two-piece cuts, rarest pieces 3.5 and 3.2: the first; not the three-piece cut (rarest 5.0).
    assert compound_parts("abcdefghijkl", zipf) == ("abcdefgh", "ijkl")
    frequency |= {"abcde": 4.0, "fghijkl": 3.9}  # a third two-piece cut, rarest piece 3.9
    assert compound_parts("abcdefghijkl", zipf) == ("abcde", "fghijkl")
    for word in ("abcde", "abcdefgh", "efghijkl"):
        del frequency[word]  # no two-piece cut left: three pieces
    assert compound_parts("abcdefghijkl", zipf) == ("abcd", "efgh", "ijkl")
    assert compound_parts("abcdefghijkl", zipf, max_parts=2) == ()
    four = _stand_in({"abcd": 5.0, "efgh": 5.0, "ijkl": 5.0, "mnop": 5.0})
    assert compound_parts("abcdefghijklmnop", four) == ()  # at most three pieces


def test_a_modifier_is_reported_as_written_when_that_is_a_word() -> None:
    """ "urlaubs" as written (the stemmer reduces it), "wartung" less its s as "wartungs" is no word."""
    frequency = {"urlaub": 4.8, "urlaubs": 3.4, "antrag": 4.6, "wartung": 3.7, "plan": 4.9}
    zipf = _stand_in(frequency)
    assert compound_parts("urlaubsantrag", zipf, ("", "s")) == ("urlaubs", "antrag")
    assert compound_parts("wartungsplan", zipf, ("", "s")) == ("wartung", "plan")


def test_a_derivational_suffix_is_never_a_part() -> None:
    frequency = {"anwalt": 4.5, "schaft": 3.5, "schaften": 3.1, "anwaltschaft": 3.2, "anwaltschaften": 0.0}
    zipf = _stand_in(frequency)
    assert compound_parts("anwaltschaft", zipf) == ("anwalt", "schaft")  # by frequency alone
    rules = CompoundRules(suffixes=frozenset({"schaft"}))
    assert compound_parts("anwaltschaft", zipf, rules=rules) == ()
    assert compound_parts("anwaltschaften", zipf, rules=rules) == ()  # with an inflectional ending too


def test_a_linking_s_stays_left_where_that_form_is_a_word_or_a_suffix_demands_it() -> None:
    """Cuts that differ only in which side of a cut an s is on."""
    frequency = {"zugang": 4.6, "zugangs": 3.03, "spass": 5.22, "pass": 4.56}
    zipf = _stand_in(frequency)
    # By frequency alone the s would start "spass" (rarest piece 4.6 against 4.56).
    assert compound_parts("zugangspass", zipf, ("", "s"), rules=CompoundRules()) == ("zugangs", "pass")
    del frequency["zugangs"]  # "zugangs" no word form, no suffix asks for an s: it starts the right part
    assert compound_parts("zugangspass", zipf, ("", "s"), rules=CompoundRules()) == ("zugang", "spass")
    frequency |= {"zugangs": 3.03, "spass": 6.0}  # "s" + right over ten times commoner: it starts it
    assert compound_parts("zugangspass", zipf, ("", "s")) == ("zugang", "spass")
    frequency |= {"hund": 4.86, "hunde": 4.55, "hundes": 3.47, "steuer": 4.42, "teuer": 4.57}
    # "hundes" is "Hund-es" or "Hunde-s": frequency decides as it does for any two cuts.
    assert compound_parts("hundesteuer", zipf, ("", "s", "es")) == ("hundes", "teuer")
    frequency["teuer"] = 4.0
    assert compound_parts("hundesteuer", zipf, ("", "s", "es")) == ("hunde", "steuer")
    frequency |= {"zeit": 5.8, "spanne": 3.9, "panne": 4.0}
    assert compound_parts("zeitspanne", zipf, ("", "s")) == ("zeit", "spanne")  # "zeits" is no word
    frequency |= {"wohnung": 4.8, "steil": 3.8, "teil": 5.6}
    assert compound_parts("wohnungsteil", zipf, ("", "s")) == ("wohnung", "steil")  # no rules
    rules = CompoundRules(linking_s_after=("ung",))  # an s after -ung is a linking s
    assert compound_parts("wohnungsteil", zipf, ("", "s"), rules=rules) == ("wohnung", "teil")


def test_a_short_first_piece_must_be_a_noun_of_the_length_allowed() -> None:
    frequency = {"ruf": 4.56, "bereitschaft": 4.03, "aus": 6.6, "lieferung": 4.2, "und": 7.4}
    zipf = _stand_in(frequency)
    assert compound_parts("rufbereitschaft", zipf) == ()  # "ruf" is under four letters
    rules = CompoundRules(short_heads=3, prefixes=frozenset({"aus"}))
    assert compound_parts("rufbereitschaft", zipf, rules=rules) == ("ruf", "bereitschaft")
    assert compound_parts("auslieferung", zipf, rules=rules) == ()  # a particle
    assert compound_parts("undlieferung", zipf, rules=rules) == ()  # a function word: too common
    assert compound_parts("rulieferung", zipf, rules=replace(rules, short_heads=2)) == ()  # "ru" no word
    assert compound_parts("rufliefer", zipf, rules=rules) == ()  # "liefer" no word
    frequency |= {"dis": 4.0, "count": 4.5, "discount": 3.0}
    assert compound_parts("discount", zipf, rules=replace(rules, short_head_rest=4, short_head_zipf=3.5)) == (
        "dis",
        "count",
    )
    english = replace(rules, short_head_rest=4, short_head_zipf=3.5, foreign=_stand_in({"dis": 3.7}))
    assert compound_parts("discount", zipf, rules=english) == ()  # not commoner in German by 0.5
    assert compound_parts("rufbereitschaft", zipf, rules=english) == ("ruf", "bereitschaft")  # no English


def test_the_benchmark_reads_cuts_as_labelled() -> None:
    assert cuts_of("wartungsplan", ("wartung", "plan")) == (8,)
    assert cuts_of("wartungsplan", ("wartungs", "plan")) == (8,)
    assert cuts_of("zahnriemenwechsel", ("zahn", "riemen", "wechsel")) == (4, 10)
    assert cuts_of("urlaub", ()) == ()
    rows = load()
    assert {part for part, _, _ in rows} == {"dev", "test"}
    assert ("dev", "arbeitszeit", (7,)) in rows and ("dev", "verwaltung", ()) in rows


def test_any_splitter_can_stand_in_for_the_default(german: Analyzer) -> None:
    """Analyzer.split is the seam: a word -> parts callable, whatever proposes the cuts."""
    other = replace(german, split=lambda w: ("urlaub", "antrag") if w == "urlaubsantrag" else ())
    assert analyse("Urlaubsantrag", other) == (["urlaubsantrag", "urlaub", "antrag"], 1)


@pytest.mark.parametrize("language", ["de", "nl"])
def test_the_word_list_lookup_is_wordfreqs(language: str) -> None:
    from wordfreq import zipf_frequency

    from strata_pipeline.embedding.models import _zipf

    zipf = _zipf(language)
    words = ["urlaub", "Urlaubs", "straße", "STRASSE", "zähler", "ziekenhuis", "urlaubsantrag", "plan", "xqzt"]
    assert [zipf(w) for w in words] == [zipf_frequency(w, language, wordlist="small") for w in words]


@pytest.mark.parametrize("language", ["de", "nl"])
def test_the_word_list_is_read_as_wordfreq_reads_it(language: str) -> None:
    """models.word_frequencies reads wordfreq's data file without importing wordfreq: the same table."""
    from wordfreq import get_frequency_dict

    from strata_pipeline.embedding.models import word_frequencies

    ours = word_frequencies(language)
    assert ours == get_frequency_dict(language, "small") and len(ours) > 10_000


def test_term_ids_are_fastembeds() -> None:
    from fastembed.sparse.bm25 import Bm25

    assert term_id("urlaub") == Bm25.compute_token_id("urlaub")
