"""A table that gives what the question asks for other rows than the name's (answering/table_siblings.py),
and the offline answerer's abstention on it. Pure functions, exact expectations."""

from __future__ import annotations

from strata_pipeline.answering.answer import answer_extractively, terms
from strata_pipeline.answering.table_siblings import body_rows, sibling_row
from strata_pipeline.retrieval.candidate import DENSE, Candidate

PRICES = """## water-prices
town | component | unit | price_eur
Aarlingen | drinking water | per m³ | 2.31
Aarlingen | surface water drainage | per m² sealed area | 0.78
Weißbach | drinking water | per m³ | 2.58
Weißbach | surface water drainage | per m² sealed area | 0.64
Colmont | water standing charge | per month | 7.17
"""


def test_body_rows_leave_out_column_names_and_separators() -> None:
    markdown = "Intro.\n\n| Day | Hours |\n|---|---|\n| Monday | 08:00 |\n| Saturday | closed |\n"
    assert body_rows(markdown) == ["| Monday | 08:00 |", "| Saturday | closed |"]
    assert body_rows(PRICES)[0] == "Aarlingen | drinking water | per m³ | 2.31"
    assert len(body_rows(PRICES)) == 5


def test_a_name_whose_rows_lack_what_others_give_is_a_sibling_row() -> None:
    found = sibling_row("What is the surface water drainage charge in Colmont?", [PRICES], terms)
    assert found == ("Colmont", "Aarlingen | surface water drainage | per m² sealed area | 0.78")


def test_a_row_of_the_name_that_matches_as_well_as_any_other_is_no_sibling() -> None:
    assert sibling_row("What is the drinking water price in Weißbach?", [PRICES], terms) is None
    assert sibling_row("What is the drainage charge in Weißbach?", [PRICES], terms) is None
    # "water" is in every row and the column names tell no row apart: only "standing" does, and Colmont has it
    assert sibling_row("What is the water standing charge in Colmont?", [PRICES], terms) is None


def test_a_name_in_no_row_or_in_every_row_is_left_to_the_other_checks() -> None:
    assert sibling_row("What is the surface water drainage charge in Dresden?", [PRICES], terms) is None
    only_colmont = "## prices\ntown | component\nColmont | standing charge\nColmont | drinking water\n"
    assert sibling_row("What is the drainage charge in Colmont?", [only_colmont], terms) is None
    assert sibling_row("what is the drainage charge?", [PRICES], terms) is None  # no name


def test_a_name_only_mentioned_in_a_cell_keys_no_row() -> None:
    servers = (
        "## servers\nhost | site | role | wave\nstg-prt-01 | STG | Print server | wave1\n"
        "stg-wms-01 | STG | Warehouse management server Stuttgart | wave2\n"
    )
    assert sibling_row("In which patch wave is the Stuttgart print server?", [servers], terms) is None


def test_words_the_passage_says_outside_its_tables_tell_no_row_apart() -> None:
    runbook = (
        "ERP database restore runbook v3\n\n| Target | Value |\n|---|---|\n| RPO (database) | 5 minutes |\n"
        "| RTO (database restore) | 2 hours |\n"
    )
    assert sibling_row("What RPO does the current database restore runbook target?", [runbook], terms) is None


def test_one_shared_word_is_chance() -> None:
    holidays = "## holidays\ndate | name | region\n2025-01-01 | New Year's Day | all\n2025-06-19 | Juneteenth | US\n"
    assert sibling_row("Is Juneteenth on our holiday calendar this year? Which date?", [holidays], terms) is None
    assert sibling_row("Is Juneteenth on the calendar in the whole company?", [holidays], terms) is None


def test_a_question_in_another_language_is_left_alone() -> None:
    assert sibling_row("Quel est le prix de l'évacuation des eaux pluviales à Colmont ?", [PRICES], terms) is None


def close(question: str, sentences: list[str]) -> list[float]:
    # the search's choice in the corpus: Colmont's own row and another town's drainage row
    return [0.9 if "Colmont" in s or ("Weißbach" in s and "drainage" in s) else 0.7 for s in sentences]


def test_the_answerer_abstains_on_a_table_that_answers_only_for_siblings() -> None:
    table = Candidate(point_id="p", scores={DENSE: 0.8}, payload={
        "chunk_id": "prices#0", "doc_id": "tariffs/water-prices.csv", "source_set": "utility",
        "title": "water-prices", "heading_path": "", "text": PRICES})  # fmt: skip
    answer = answer_extractively("What is the surface water drainage charge in Colmont?", [table], close)
    assert answer.abstained and "no row of Colmont" in answer.reason
    answered = answer_extractively("What is the surface water drainage charge in Weißbach?", [table], close)
    assert not answered.abstained and "0.64" in answered.text
    assert "7.17" in answer_extractively("What is the water standing charge in Colmont?", [table], close).text
