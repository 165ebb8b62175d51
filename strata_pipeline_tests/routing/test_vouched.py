"""What an answer copies from indexed passages is vouched for in the privacy audit (routing/dispatch.py
`quoted`, `with_cells`): a quoted table row also by its cells, which an answer reads with their
column names."""

from __future__ import annotations

from strata_pipeline.answering.answer import Answer, Citation
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.routing.dispatch import quoted, with_cells


def test_a_quoted_row_vouches_for_each_of_its_cells() -> None:
    row = "ADH-4417 | Knee arthroscopy | Brandholm | 3650 | no"
    assert with_cells([row]) == [row, "ADH-4417", "Knee arthroscopy", "Brandholm", "3650", "no"]
    assert with_cells(["| STG | 360 | |"]) == ["| STG | 360 | |", "STG", "360"]  # empty cells vouch for nothing
    assert with_cells(["Full-time staff receive 25 days."]) == ["Full-time staff receive 25 days."]


def test_only_rows_the_cited_passage_holds_give_their_cells() -> None:
    row = "ADH-4417 | Knee arthroscopy | Brandholm | 3650 | no"
    text = f"code | procedure | campus | price | report\n{row}"
    passage = Candidate("p1", {"chunk_id": "prices.csv#s0", "text": text})
    held = Citation("prices.csv#s0", "prices.csv", "hospital", 2, 2, row)
    invented = Citation("prices.csv#s0", "prices.csv", "hospital", 2, 2, "ADH-1 | Anna Weber | x")
    answer = Answer(text="campus: Brandholm", citations=[held, invented])
    vouched = quoted(answer, [passage])
    assert "Brandholm" in vouched and "[prices.csv#s0]" in vouched
    assert "Anna Weber" not in vouched


def test_a_quoted_row_vouches_for_its_tables_column_names() -> None:
    # "Depot: Innsbruck" read from a quoted row: the NER took the column name "Depot" for a person's name
    row = "FZ-203 | I-519LT | Innsbruck | Kühl-LKW"
    text = f"## Fahrzeuge\nFz.-Nr. | Kennzeichen | Depot | Typ\n{row}"
    passage = Candidate("p1", {"chunk_id": "fleet.xlsx#s0", "text": text})
    answer = Answer(
        text="Fz.-Nr.: FZ-203; Depot: Innsbruck", citations=[Citation("fleet.xlsx#s0", "fleet.xlsx", "af", 3, 3, row)]
    )
    vouched = quoted(answer, [passage])
    assert {"Depot", "Kennzeichen", "Innsbruck"} <= set(vouched)
    prose = Citation("fleet.xlsx#s0", "fleet.xlsx", "af", 1, 1, "Fahrzeuge")  # a quote that is no row
    assert "Depot" not in quoted(Answer(text="Fahrzeuge", citations=[prose]), [passage])
