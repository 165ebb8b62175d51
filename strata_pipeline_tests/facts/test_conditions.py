"""Rules of the facts8 round, on a small tool-hire catalogue (not the probe's data): qualities the table
cannot tell apart are refused; a year alone and a span of months are periods; a number column counted
"together" is summed; "which X is the most ..." names rows; a value said in another form; a sheet named
for what it lists; "both sheets" with one other sheet sharing the key."""

from __future__ import annotations

import pytest

from strata_pipeline.facts.catalogue import Catalogue, Column, Table
from strata_pipeline.facts.intent import Filter, Intent, IntentRefused
from strata_pipeline.facts.parse import parse
from strata_pipeline.facts.periods import read_periods
from strata_pipeline.facts.qualities import unread_quality
from strata_pipeline.facts.ranking import top_n
from strata_pipeline.facts.validate import validate
from strata_pipeline.facts.values import cognate, tier
from strata_pipeline.facts.wording import stems
from strata_pipeline.routing.route import route

TOOLS = Table(
    "facts_tools",
    "hire",
    "stock/tools.csv",
    "tools",
    (
        Column("tool_id", "text", ("T-1", "T-2", "T-3")),
        Column("kind", "text", ("drill", "saw", "sander")),
        Column("power", "text", ("electric", "manual", "petrol")),
        Column("bought", "text", ("2023-04-02", "2024-07-19", "2025-01-08")),
        Column("weight_kg", "number"),
        Column("price_eur", "number"),
        Column("battery", "text", ("yes", "no")),
    ),
    3,
)
LOANS = Table(
    "facts_loans",
    "hire",
    "stock/loan-log.csv",
    "loan log",
    (
        Column("loan_id", "text", ("L-1", "L-2")),
        Column("tool_id", "text", ("T-1", "T-2")),
        Column("loan_date", "text", ("2025-02-03", "2025-06-30")),
        Column("loan_type", "text", ("repairs", "rentals")),
        Column("rental_hours", "number"),
        Column("fee_eur", "number"),
    ),
    2,
)
CATALOGUE = Catalogue((TOOLS, LOANS))


def intent_of(question: str) -> Intent:
    parsed = parse(question, CATALOGUE)
    assert parsed.intent is not None, parsed
    return parsed.intent


@pytest.mark.parametrize(
    ("question", "quality"),
    [
        ("How many tools have no dust extraction?", "dust"),
        ("How many tools have a carry case?", "carry"),
        ("Wie viele Werkzeuge haben keine Staubabsaugung?", "staubabsaugung"),
        ("Combien d'outils ont une mallette ?", "mallette"),
    ],
)
def test_a_quality_the_table_lacks_is_refused_with_the_columns(question: str, quality: str) -> None:
    parsed = parse(question.replace("Werkzeuge", "tools").replace("outils", "tools"), CATALOGUE)
    assert parsed.intent is None
    assert quality in parsed.why
    assert parsed.unplaced.startswith(quality)  # the answer from passages must then state it
    assert unread_quality("how many tools have no dust extraction", TOOLS) == "dust"


@pytest.mark.parametrize(
    "question",
    [
        "Which tools have a mass of at least 3 kg?",
        "Which tools have a maximum mass of at least 3 kg?",
        "Quels tools ont une masse maximale d'au moins 3 kg ?",
    ],
)
def test_the_noun_a_unit_condition_measures_is_no_quality_nor_an_extreme(question: str) -> None:
    # the column is named by its unit ("kg": weight_kg) in words it does not use ("mass", "masse"); an extreme
    # word inside that phrase names the measure, it does not ask for the heaviest tool
    intent = intent_of(question)
    assert intent.operation == "list"
    assert intent.filters == (Filter("weight_kg", "ge", 3.0),)


def test_a_quality_beside_a_unit_condition_in_another_clause_is_still_unread() -> None:
    parsed = parse("How many tools have a laser and more than 2 kg?", CATALOGUE)
    assert parsed.intent is None and "laser" in parsed.why


@pytest.mark.parametrize(
    "question",
    [
        "How many tools have a battery?",
        "How many tools have more than 2 kg?",
        "Which kind has the most tools?",
        "How many tools does each kind have?",
        "Wie viele tools hat jeder kind?",
    ],
)
def test_known_columns_numbers_and_extremes_are_no_unknown_quality(question: str) -> None:
    assert unread_quality(question, TOOLS) == ""


def test_a_yes_no_column_after_have_still_filters() -> None:
    assert intent_of("How many tools have no battery?").filters == (Filter("battery", "eq", "no"),)


def test_a_year_alone_is_a_period_of_a_count_but_never_refuses_a_table_without_dates() -> None:
    assert read_periods("bought in 2024")[0] == [("ge", "2024-01", "lt", "2025-01")]
    assert read_periods("im Jahr 2024")[0] == [("ge", "2024-01", "lt", "2025-01")]
    assert read_periods("bought in 2024", years=False)[0] == []
    intent = intent_of("How many tools were bought in 2024?")
    assert set(intent.filters) == {Filter("bought", "ge", "2024-01"), Filter("bought", "lt", "2025-01")}


def test_a_list_reads_a_year_only_when_it_names_the_date_column() -> None:
    assert intent_of("Which tools were bought in 2024?").filters == (
        Filter("bought", "ge", "2024-01"),
        Filter("bought", "lt", "2025-01"),
    )
    parsed = parse("Which tools did the Acme branch use in 2024?", CATALOGUE)
    filters = parsed.intent.filters if parsed.intent else ()
    assert not any(f.column == "bought" for f in filters)


@pytest.mark.parametrize(
    "text", ["between March and May 2025", "von März bis Mai 2025", "entre mars et mai 2025", "from March to May 2025"]
)
def test_a_span_of_months_in_one_year(text: str) -> None:
    assert read_periods(text)[0] == [("ge", "2025-03", "lt", "2025-06")]


def test_a_number_column_counted_together_is_summed() -> None:
    intent = intent_of("How many rental hours did all repair loans take together?")
    assert intent.operation == "sum"
    assert intent.columns == ("rental_hours",)
    assert intent.filters == (Filter("loan_type", "eq", "repairs"),)  # "repair" for the stored plural


def test_the_rows_together_are_still_counted() -> None:
    assert intent_of("How many loans are there together?").operation == "count"


@pytest.mark.parametrize(
    ("question", "operation"),
    [
        ("Welches Werkzeug ist am teuersten?", "argmax"),
        ("Quel est le tool le moins cher ?", "argmin"),
        ("Which tool has the highest weight?", "argmax"),
    ],
)
def test_which_row_is_the_most_names_the_row(question: str, operation: str) -> None:
    intent = intent_of(question.replace("Werkzeug", "Tool"))
    assert (intent.operation, intent.group_by) == (operation, ("tool_id",))


def test_what_is_the_highest_price_stays_a_figure() -> None:
    assert intent_of("What is the highest price of the tools?").operation == "max"


def test_french_and_german_adjectives_read_as_english_values() -> None:
    assert cognate("electriques".removesuffix("s")) == "electric"
    assert cognate("elektrisch") == "elektric"
    assert tier("electriques", "electric", clipped=False) == "same"
    assert tier("repair", "repairs", clipped=False) == "same"
    intent = intent_of("Combien de tools ne sont pas électriques ?")
    assert intent.filters == (Filter("power", "ne", "electric"),)


def test_per_prefers_the_column_named_in_full() -> None:
    assert intent_of("What is the average fee per loan type?").group_by == ("loan_type",)
    assert intent_of("What is the average fee per loan date?").group_by == ("loan_date",)


def test_a_sheet_named_for_what_it_lists() -> None:
    parsed = parse("What was the total loan fee in 2025?", CATALOGUE)
    assert parsed.intent is not None and parsed.intent.table == "facts_loans"
    assert "table 'loan log'" in parsed.evidence
    assert route("What was the average loan fee in 2025?", CATALOGUE)[0].route == "aggregation"


def test_both_sheets_intersects_with_the_one_other_sheet_holding_the_key() -> None:
    intent = intent_of("Which tools appear in both sheets?")
    assert (intent.operation, intent.tables, intent.columns) == ("intersect", ("facts_loans",), ("tool_id",))


@pytest.mark.parametrize(
    ("question", "operation", "limit"),
    [
        ("What are the three cheapest tools?", "argmin", 3),
        ("List the 2 heaviest tools", "", 0),  # "heaviest" is no extreme word the parser knows: no top n
        ("Nenne die drei teuersten Werkzeuge.", "argmax", 3),
        ("Quels sont les deux tools les moins chers ?", "argmin", 2),
    ],
)
def test_the_n_best_rows(question: str, operation: str, limit: int) -> None:
    parsed = parse(question.replace("Werkzeuge", "Tools"), CATALOGUE)
    if not operation:
        assert parsed.intent is None or parsed.intent.limit == 0
        return
    assert parsed.intent is not None
    assert (parsed.intent.operation, parsed.intent.limit, parsed.intent.group_by) == (operation, limit, ("tool_id",))
    assert parsed.intent.columns == ("price_eur",)


def test_top_n_reads_the_number_and_the_noun() -> None:
    assert top_n("What are the three cheapest vehicles?") == (3, "vehicles")
    assert top_n("top 5 products with the highest price") == (5, "products")
    assert top_n("Which site has the most servers?") == (0, "")
    assert top_n("the 500 most expensive") == (0, "")


def test_a_limit_belongs_to_argmax_only() -> None:
    with pytest.raises(IntentRefused):
        validate(Intent("count", "facts_tools", limit=3), CATALOGUE)
    assert Intent.from_dict({"operation": "argmin", "table": "facts_tools", "limit": 2}).limit == 2


def test_a_german_plural_names_the_table_by_its_english_word() -> None:
    assert "vehicle" in stems("Nenne die drei teuersten Fahrzeuge.")


def test_a_capitalised_column_word_with_a_name_it_does_not_hold_is_refused() -> None:
    depots = Table(
        "facts_vans",
        "hire",
        "fleet/vans.csv",
        "vans",
        (Column("van_id", "text", ("V-1", "V-2")), Column("depot", "text", ("Munich", "Hamburg"))),
        2,
    )
    catalogue = Catalogue((depots,))
    refused = parse("Wie viele vans stehen im Depot Köln?", catalogue)
    assert refused.intent is None and "depot Köln" in refused.why
    counted = parse("Wie viele vans stehen im Depot Hamburg?", catalogue).intent
    assert counted is not None and counted.filters == (Filter("depot", "eq", "Hamburg"),)


@pytest.mark.parametrize(
    "question",
    [
        "Which tool has the highest price, and how much is it?",
        "Welches tool hat den höchsten Preis, und was kostet es?",
    ],
)
def test_the_best_row_asked_with_its_figure_is_that_figure(question: str) -> None:
    intent = intent_of(question)  # the maximum, its holding rows named by the runner
    assert (intent.operation, intent.columns, intent.group_by) == ("max", ("price_eur",), ())


@pytest.mark.parametrize(
    "question",
    ["Which tool has the highest price?", "Which kind has the most tools, and how many tools is that?"],
)
def test_the_best_row_alone_or_a_best_group_stays_an_argmax(question: str) -> None:
    assert intent_of(question).operation == "argmax"


def test_a_masked_name_in_the_question_picks_no_rows_so_the_count_is_refused() -> None:
    # the query screen masks "Anna Berg" as the cells were masked at ingestion: counting every tool would answer
    # another question
    parsed = parse("How many tools did [PERSON_1] buy in 2024?", CATALOGUE)
    assert parsed.intent is None
    assert "[PERSON_1]" in parsed.why


MACHINES = Table(
    "facts_machines",
    "plant",
    "facility/machines.csv",
    "machine list",
    (Column("machine_id", "text", ("M-1", "M-2")), Column("cost_centre", "number"), Column("built", "number")),
    2,
)
COST_CENTRES = Table(
    "facts_cost_centres",
    "plant",
    "finance/cost-centres.csv",
    "cost centres",
    (Column("cost_centre", "number"), Column("area", "text", ("production", "quality"))),
    2,
)


def test_a_figure_over_every_row_that_names_a_keyed_second_sheet_is_refused() -> None:
    # a condition across the two sheets (a join) is not read: counting every machine would answer another question
    catalogue = Catalogue((MACHINES, COST_CENTRES))
    parsed = parse("How many machines in the machine list run on cost centres that the plant manager owns?", catalogue)
    assert parsed.intent is None
    assert "cost centres" in parsed.why
    assert parse("How many machines are in the machine list?", catalogue).intent is not None
    grouped = parse("How many machines in the machine list per cost centre?", catalogue).intent
    assert grouped is not None and grouped.group_by == ("cost_centre",)


def test_another_version_of_the_same_sheet_is_no_second_sheet() -> None:
    older = Table("facts_machines_2024", "plant", "facility/machines-2024.csv", "machine list",
                  MACHINES.columns, 2)  # fmt: skip
    parsed = parse("What is the average built year in the machine list?", Catalogue((MACHINES, older)))
    assert parsed.intent is not None and parsed.intent.operation == "avg"


@pytest.mark.parametrize(
    ("question", "operation"),
    [
        ("What is the cheapest tool with more than 2 kg?", "min"),
        ("Which is the cheapest tool heavier than 2 kg?", "argmin"),
        ("Quel est l'outil le moins cher de plus de 2 kg ?", "argmin"),
    ],
)
def test_a_price_extreme_measures_the_price_of_the_rows_a_unit_condition_keeps(question: str, operation: str) -> None:
    # "kg" names the weight column for the condition; "cheapest" asks for a price, not the lightest weight
    intent = intent_of(question.replace("l'outil", "le tool"))
    assert (intent.operation, intent.columns) == (operation, ("price_eur",))
    assert intent.filters == (Filter("weight_kg", "gt", 2.0),)


def test_comparative_adjectives_compare() -> None:
    assert intent_of("Which tools are lighter than 3 kg?").filters == (Filter("weight_kg", "lt", 3.0),)
    assert intent_of("How many tools are heavier than 3 kg?").filters == (Filter("weight_kg", "gt", 3.0),)


@pytest.mark.parametrize(
    "question",
    ["How many tools were out of warranty on 1 April 2025?", "Wie viele Tools waren am 01.04.2025 ausgeliehen?"],
)
def test_a_day_no_condition_reads_is_refused_not_dropped(question: str) -> None:
    # the tools table has no warranty or loan day: counting every tool (3) answered another question
    parsed = parse(question, CATALOGUE)
    assert parsed.intent is None
    assert parsed.why == "names the day 2025-04-01, which no condition reads"


def test_a_day_a_condition_reads_still_counts() -> None:
    assert intent_of("How many tools were bought on 2024-07-19?").filters == (Filter("bought", "eq", "2024-07-19"),)
    assert intent_of("How many tools were bought before 2025-01-01?").filters == (Filter("bought", "lt", "2025-01-01"),)
