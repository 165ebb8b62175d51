"""The abstention checks on their own: values a sentence states, contradictions between current
documents, and the support checks (identifiers the passages lack, the kind of value asked for). Pure
functions, exact expectations."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from strata_pipeline.answering.abstention import (
    ABSTAIN_CODES,
    Statement,
    asked_kind,
    contradictions,
    states_kind,
    template_twins,
    values,
)
from strata_pipeline.answering.answer import Answer, terms
from strata_pipeline.answering.asked_identifiers import identifiers_in, unheld_identifiers
from strata_pipeline.responses import AskResponse, ask_response


def statement(quote: str, doc_id: str, title: str, score: float = 0.8, superseded: bool = False) -> Statement:
    return Statement(quote, f"{title}: {quote}", doc_id, title, superseded, score)


# --- values ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("New parents receive 16 weeks of fully paid parental leave.", {"week": {"16"}}),
        ("Up to 5 paid days, and 2 days for extended family.", {"day": {"5", "2"}}),
        ("The depot opens Monday to Friday 07:00 - 18:00.", {"time": {"07:00", "18:00"}}),
        ("Client meals are reimbursed up to $120 per person.", {"USD": {"120"}}),
        ("The fee is 37.00 EUR and the reach is 1,100 mm.", {"EUR": {"37"}, "mm": {"1100"}}),
        ("Effective 2026-01-01, the cap is 80 %.", {"date": {"2026-01-01"}, "%": {"80"}}),
        ("Die Frist beträgt 14 Tage.", {"day": {"14"}}),  # units of time in English, any language
        ("Le délai est de 3 semaines et 2 heures.", {"week": {"3"}, "hour": {"2"}}),
        ("Colour copies cost 2.50 EUR; pick-up from 14.30 Uhr or 9h15.", {"EUR": {"2.5"}, "time": {"14:30", "09:15"}}),
        ("Das Ticket kostet 20 €. Parken: 1,80 € pro Stunde.", {"EUR": {"20", "1.8"}}),  # "€" then no letter
        ("Call 3 of them, 2 to 4 times.", {}),  # numbers without a unit state no comparable value
    ],
)
def test_values_by_kind(text: str, expected: dict[str, set[str]]) -> None:
    assert values(text) == {kind: frozenset(v) for kind, v in expected.items()}


def test_one_number_written_two_ways_is_one_value() -> None:
    assert values("A reach of 1,100 mm.") == values("A reach of 1100 mm.") == {"mm": frozenset({"1100"})}
    assert values("Speed 2.0 m/s") == values("Speed 2 m/s") == {"m/s": frozenset({"2"})}


# --- contradictions ----------------------------------------------------------------------------

POLICY = "Leave Policy > Parental Leave"
FAQ = "Employee FAQ"
QUESTION = terms("How many weeks of parental leave do new parents get?")


def test_two_current_documents_giving_different_values_contradict() -> None:
    policy = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    faq = statement("New parents receive 14 weeks of fully paid parental leave.", "hr/faq.txt", FAQ, 0.78)
    [conflict] = contradictions([policy, faq], QUESTION, terms)
    assert (conflict.kind, conflict.first_values, conflict.second_values) == (
        "week",
        frozenset({"16"}),
        frozenset({"14"}),
    )
    assert conflict.reason == (
        "The sources contradict each other: hr/leave-policy.md says 16 and hr/faq.txt says 14 (week)."
    )


def test_agreeing_restatements_and_extra_detail_do_not_contradict() -> None:
    policy = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    same = statement("Every parent receives 16 weeks of fully paid parental leave.", "hr/faq.txt", FAQ)
    detail = statement("New parents receive 16 weeks of paid parental leave, or 20 weeks part-time.", "hr/b.md", "B")
    assert contradictions([policy, same, detail], QUESTION, terms) == []


def test_a_superseded_version_never_contradicts_the_current_one() -> None:
    current = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    old = statement("New parents receive 12 weeks of paid parental leave.", "hr/archive/leave-v1.md", "Old", 0.8, True)
    assert contradictions([current, old], QUESTION, terms) == []


def test_template_twins_describe_different_things() -> None:
    assert template_twins("Lisbon Depot - Site Information", "Porto Depot - Site Information", terms)
    assert template_twins("Controller firmware v3.2", "Controller firmware v3.12", terms)
    assert not template_twins("Leave Policy", "Employee FAQ", terms)
    assert not template_twins("Leave Policy", "Leave Policy", terms)  # one title: not two things
    assert template_twins("waste/recyclinghof-ost.md", "waste/recyclinghof-west.md", terms)
    assert not template_twins("hr/leave-policy.md", "hr/employee-faq.txt", terms)
    lisbon = statement("Monday to Friday 07:00 - 18:00", "sites/lisbon.md", "Lisbon Depot - Site Information")
    porto = statement("Monday to Friday 08:00 - 18:00", "sites/porto.md", "Porto Depot - Site Information")
    assert contradictions([lisbon, porto], terms("When do the depots open on weekdays?"), terms) == []


def test_statements_must_cover_the_same_question_words() -> None:
    # the question names the sick leave; only one statement is about it
    sick = statement("Employees receive 10 paid sick days per year.", "hr/leave-policy.md", POLICY)
    other = statement("Employees receive 25 paid days per year.", "hr/faq.txt", FAQ)
    assert contradictions([sick, other], terms("How many paid sick days per year?"), terms) == []


def test_only_statements_near_the_best_score_are_compared() -> None:
    policy = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    weak = statement("New parents receive 14 weeks of fully paid parental leave.", "hr/faq.txt", FAQ, 0.70)
    assert contradictions([policy, weak], QUESTION, terms, margin=0.08) == []
    assert len(contradictions([policy, weak], QUESTION, terms, margin=0.2)) == 1


def test_unrelated_sentences_with_different_values_do_not_contradict() -> None:
    leave = statement("New parents receive 16 weeks of fully paid parental leave.", "hr/leave-policy.md", POLICY)
    unrelated = statement("Parental leave requests are answered within 2 weeks.", "hr/faq.txt", FAQ)
    assert contradictions([leave, unrelated], QUESTION, terms) == []


# --- support -----------------------------------------------------------------------------------


def test_identifiers_the_question_names_must_be_in_a_passage() -> None:
    passages = ["| E-1042 | Drive overcurrent |", "Error E-1024 means the brake is open."]
    assert unheld_identifiers(identifiers_in("What does error E-4042 mean?"), passages) == ["e-4042"]
    assert unheld_identifiers(identifiers_in("What does error E-1024 mean?"), passages) == []
    # a short version is held when a passage spells it out, and only that version
    runbook = ["Power outage escalation runbook (version 3, superseded)"]
    assert unheld_identifiers(["v3"], runbook) == [] and unheld_identifiers(["v4", "v3.1"], runbook) == ["v4", "v3.1"]
    # a redaction placeholder is not an identifier a passage could hold
    assert identifiers_in("Opening hours of the [PERSON_1] depot near E-1042?") == ["e-1042"]
    # a German compound on an identifier names the identifier: the passages on E-1042 hold it
    assert unheld_identifiers(identifiers_in("Was bedeutet der E-1042-Fehler?"), passages) == []


def test_an_identifier_typed_without_its_hyphen_is_held_and_a_measure_is_no_identifier() -> None:
    from strata_pipeline.answering.asked_identifiers import asked_identifiers

    spec = ["| Pose repeatability | +/- 0.03 mm |\nThe RX-200 arm reaches 1,100 mm."]
    assert unheld_identifiers(asked_identifiers("whats the pose repeatibility of the rx200 arm"), spec) == []
    assert unheld_identifiers(asked_identifiers("What is the reach of the RX-300?"), spec) == ["rx-300"]
    assert asked_identifiers("Can I still buy the 5-year extended coverage?") == []
    assert asked_identifiers("Does the 24-hour hotline take E-1042 calls?") == ["e-1042"]


def test_a_models_plural_is_the_model() -> None:
    from strata_pipeline.answering.asked_identifiers import asked_identifiers

    spec = ["The RX-300 battery pack must warm up for 2 hours before charging."]
    assert unheld_identifiers(asked_identifiers("One of our RX-300s shows a cold battery. How long?"), spec) == []
    # a plural of another model is still another model
    assert unheld_identifiers(asked_identifiers("Do RX-200s need it too?"), spec) == ["rx-200s"]


def test_identifiers_of_the_statements_before_the_question_are_context_when_it_names_its_own() -> None:
    from strata_pipeline.answering.asked_identifiers import asked_identifiers

    upgrade = "The controller is still on firmware v3.5. Can we install v3.12 directly?"
    assert asked_identifiers(upgrade) == ["v3.12"]
    # with no identifier of its own, the question asks about the one it refers to
    assert asked_identifiers("My robot shows E-4042. What does it mean?") == ["e-4042"]
    assert identifiers_in("Wie lange gilt die Garantie für den RX-300-Akku?") == ["rx-300"]
    assert identifiers_in("Is NR-4471-B or BSL-PR-HALLE-01 meant?") == ["nr-4471-b", "bsl-pr-halle-01"]


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is the list price of the NR-4471-D kit?", "money"),
        ("Was kostet ein Reisepass?", "money"),
        ("How many hours does the generator have fuel for?", "hour"),
        ("Wie viele Tage Urlaub gibt es?", "day"),
        ("Combien de semaines de préavis ?", "week"),
        ("What are the opening hours of the Porto depot?", "time"),
        # hours asked by which ones are clock times; "how many hours" counts hours
        ("During which hours can I reach customer service on Saturdays?", "time"),
        ("Zu welchen Zeiten ist die Hotline besetzt?", "time"),
        ("À quelles heures puis-je appeler le service client ?", "time"),
        ("Quels sont les horaires de la déchetterie ?", "time"),
        # a count of things that are no unit: any number answers it ("6 persons", "a group of six")
        ("How many robots are in the fleet?", "number"),
        ("How many people fit in the group room?", "number"),
        ("How many paid volunteering days are there?", "day"),  # the unit may follow adjectives
        ("How many kilometres may I drive per day?", "km"),
        ("How much does the charging station weigh?", "weight"),
        ("What is the top speed when towing?", "speed"),
        ("What is the maximum reach of the RX-200 arm?", "length"),
        ("Wie breit muss ein Fahrweg mindestens sein?", "length"),
        ("Which VPN client is used?", None),
        # no size: "reach" as a verb, remote help "from a distance", the RADIUS protocol, an amount's "Höhe"
        ("How do I reach the IT desk after hours?", None),
        ("When should I get an expert to help me from a distance?", None),
        ("To what value was the RADIUS timeout raised?", None),
        ("In welcher Höhe wird die Brille bezuschusst?", None),
        # the thing after "which" is asked, the money word picks it; a cost centre is an account's code
        ("Auf welche Kostenstelle buche ich Kosten der Wicklerei?", None),
        ("Which supplier charges the lowest fee?", None),
        ("Which fee applies to a late return?", "money"),
        ("Quel est le prix du permis ?", "money"),
        ("What is the cost centre of the Lyon sales office?", None),
    ],
)
def test_the_kind_of_value_a_question_asks_for(question: str, kind: str | None) -> None:
    assert asked_kind(question) == kind


def test_a_sentence_states_the_asked_kind_or_not() -> None:
    assert states_kind("money", "The kit costs $120 per set.")
    assert states_kind("money", "Gebühr: 37.00 EUR")
    assert not states_kind("money", "- Wrist seal kits NR-4471-D")
    assert states_kind("money", "Wrist seal kit: sku: NR-4471-B; list_price_usd: 185")  # a table row's column
    assert states_kind("hour", "Diesel generator with fuel for 48 hours.")
    assert not states_kind("hour", "UPS runtime at full load: 45 minutes; the generator starts after 10 seconds.")
    assert states_kind("week", "Parental leave lasts two weeks.")  # a number written as a word
    assert states_kind("time", "| Monday to Friday | 07:30 - 18:00 |")


def test_a_price_in_cents_states_money() -> None:
    assert states_kind("money", "| Unit rate | 29.95 ct/kWh |")
    assert states_kind("money", "The unit rate is 31.2 cents per kWh.")
    assert states_kind("money", "commissioned_from: 2025-08-01; system_size: up to 10 kWp; ct_per_kwh: 7.86")
    assert states_kind("money", "from | size | ct_per_kwh\n2025-08-01 | up to 10 kWp | 7.86")
    assert not states_kind("money", "select | ctrl\n1 | 2") and not states_kind("money", "up to 10 kWp")


@pytest.mark.parametrize(
    "text", ["Collection is on Wednesday.", "Open Saturdays only.", "Tue and Thur", "Abholung am Mittwoch", "le samedi"]
)
def test_every_weekday_states_a_weekday(text: str) -> None:
    assert states_kind("weekday", text)


def test_codes_are_the_contract_names() -> None:
    assert ABSTAIN_CODES == ("no_support", "contradictory_facts", "zero_rows", "withheld")


def test_the_response_model_carries_the_code_with_a_description() -> None:
    answer = Answer(text="", abstained=True, reason="Nothing close enough.", abstain_code="no_support")
    assert ask_response("Can I bring my dog?", answer).abstain_code == "no_support"
    assert ask_response("q", Answer(text="16 weeks [a#0]")).abstain_code == ""
    described = TypeAdapter(AskResponse).json_schema()["properties"]["abstain_code"]
    assert described["default"] == "" and "contradictory_facts" in described["description"]


def test_a_load_asks_for_a_weight_and_a_torque_for_newton_metres() -> None:
    from strata_pipeline.answering.abstention import asked_kind, states_kind

    assert asked_kind("Wie hoch ist die Nennlast des RX-200?") == "weight"
    assert asked_kind("What is the rated payload of the arm?") == "weight"
    assert asked_kind("At what torque should the wheel screws be checked?") == "nm"
    assert asked_kind("Quel est le couple de serrage des vis de roue ?") == "nm"
    assert asked_kind("À quel couple faut-il serrer les boulons du socle ?") == "nm"
    assert asked_kind("Mit welchem Moment werden die Schrauben angezogen?") == "nm"
    # a tool named by its torque asks for nothing of the kind
    assert asked_kind("How often must torque wrenches be calibrated?") != "nm"
    assert states_kind("nm", "| Contrôle du couple de serrage des vis de roue (40 Nm) | à chaque visite |")
    assert not states_kind("nm", "| Contrôle des contacts de charge | chaque mois |")
