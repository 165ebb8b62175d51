from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.embedding.identifiers import identifier_vector, identifiers
from strata_pipeline.embedding.models import BM25_LANGUAGES
from strata_pipeline.resources import EmbedderResource
from strata_pipeline.settings import DEFAULT_EMBED_MODEL


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Error E-1042 is not E-1024.", ["e-1042", "e-1024"]),
        ("Upgrade from v3.2 to v3.12 (firmware 4.2.1).", ["v3.2", "v3.12", "4.2.1"]),
        ("Order part NR-4471-B, see INC-20419.", ["nr-4471-b", "inc-20419"]),
        ("The RX-200 runs on x86 and arm64.", ["rx-200", "x86", "arm64"]),
        ("In 2026 we open at 06:00; the arm reaches 1,100 mm.", []),
        ("Use e-mail and the co-op canteen.", []),
    ],
)
def test_identifiers_are_codes_versions_and_part_numbers_only(text: str, expected: list[str]) -> None:
    assert identifiers(text) == expected


def test_identifier_vector_marks_each_distinct_code_once_and_ignores_case() -> None:
    indices, values = identifier_vector("E-1042 then e-1042 again, and E-1024.")
    assert len(indices) == 2 and values == [1.0, 1.0]
    assert identifier_vector("E-1042")[0][0] in indices
    assert identifier_vector("no codes here") == ([], [])


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> EmbedderResource:
    return EmbedderResource(model=DEFAULT_EMBED_MODEL, models_dir=str(tmp_path_factory.mktemp("models")))


def test_stop_words_exist_for_every_supported_language(embedder: EmbedderResource) -> None:
    folder = Path(embedder.models_dir) / "bm25"
    embedder.embed_sparse(["warm up"])
    for language in BM25_LANGUAGES.values():
        assert len((folder / f"{language}.txt").read_text().split()) > 50, language


def test_each_text_is_stemmed_in_its_own_language(embedder: EmbedderResource) -> None:
    german = ["Die Wartungsintervalle der Roboter", "Das Wartungsintervall des Roboters"]
    as_german = embedder.embed_sparse(german, ["de", "de"])
    as_english = embedder.embed_sparse(german, ["en", "en"])
    # German stemming maps both inflections to the same terms; English stemming does not.
    assert set(as_german[0][0]) == set(as_german[1][0])
    assert set(as_english[0][0]) != set(as_english[1][0])
    # German stop words ("die", "der", "das", "des") are dropped: the two content words remain, the
    # compound with its parts (wartungsintervall, wartung, intervall, robot).
    assert len(as_german[0][0]) == 4


def test_a_german_query_matches_german_stems(embedder: EmbedderResource) -> None:
    doc = set(embedder.embed_sparse(["Die Wartungsintervalle der Roboter"], ["de"])[0][0])
    query = set(embedder.query_sparse("Wie lang ist das Wartungsintervall der Roboter?")[0])
    assert doc <= query  # both German stems are in the query vector
