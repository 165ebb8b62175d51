"""Answer types beyond a unit (answering/answer_type.py) and the near-miss checks that use them
(answering/near_miss.py, through the offline answerer). Pure functions, exact expectations."""

from __future__ import annotations

import pytest

from strata_pipeline.answering.abstention import states_kind
from strata_pipeline.answering.answer import answer_extractively, terms
from strata_pipeline.answering.answer_type import (
    asked_period,
    asked_type,
    asks_colour,
    asks_name,
    states_colour,
    states_name,
    states_number,
    states_period,
    states_type,
)
from strata_pipeline.answering.near_miss import Quoted, near_miss, stating_kind
from strata_pipeline.retrieval.candidate import DENSE, Candidate

# --- periods -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "period"),
    [
        ("How many days a week may employees work from home?", "week"),
        ("How many kilometres may an engineer drive in one day?", "day"),
        ("Wie viele Stunden pro Woche darf man mobil arbeiten?", "week"),
        ("Combien de jours de télétravail par semaine sont possibles ?", "week"),
        ("What is the spending limit per calendar month?", "month"),
        ("How many days of annual leave do employees get?", None),  # "annual leave" names a thing
        ("How many days per week and per year?", None),  # two periods: no single one is asked
        ("How many van bays does the depot have?", None),
    ],
)
def test_the_period_a_rate_is_asked_per(question: str, period: str | None) -> None:
    assert asked_period(question) == period


def test_a_period_in_the_statements_before_the_question_is_context() -> None:
    contractor = (
        "An external contractor will be working in our office for about a week and needs internet access. "
        "What is the longest a guest voucher can be valid for?"
    )
    assert asked_period(contractor) is None
    assert asked_period("We have a contractor in. How much does a voucher cost per week?") == "week"


def test_a_sentence_states_the_period_in_any_form() -> None:
    assert not states_period("week", "Employees may work remotely for up to 20 working days per calendar year.")
    assert states_period("week", "Employees may work from home up to 2 days a week.")
    assert states_period("week", "Remote work is limited to a 40-hour week.")
    assert states_period("week", "Höchstens zwei Tage wöchentlich.")
    assert states_period("year", "Twenty days p.a.")


def test_a_count_of_periods_is_a_duration_not_a_rate() -> None:
    # "at least 2 weeks before departure" says how long ahead, not how many days per week
    assert not states_period("week", "Submit the request at least 2 weeks before departure.")
    assert not states_period("week", "Die Frist beträgt zwei Wochen.")
    assert not states_period("day", "Employees receive 5 days of leave.")
    assert states_period("week", "Up to 2 days per week, requested at least 2 weeks ahead.")
    assert states_period("week", "Ein Tag pro Woche.")


# --- names of providers and brands -------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Which internet provider supplies the primary fibre link?", True),
        ("Which elevator controller brands does FleetOS support?", True),
        ("Welcher Mobilfunkanbieter liefert die Diensthandys?", True),
        ("Quel fournisseur livre les badges ?", True),
        ("Which company car may I take home?", False),  # "company" is not asked about
        ("How fast is the primary fibre link?", False),
    ],
)
def test_questions_that_ask_which_provider_or_brand(question: str, asks: bool) -> None:
    assert asks_name(question) is asks


def test_a_sentence_names_a_provider_by_a_capitalised_word_the_question_does_not_hold() -> None:
    question = "Which internet provider supplies the primary fibre link in Stuttgart?"
    assert states_name("The primary link in Stuttgart is supplied by Swisscom.", question)
    assert states_name("Swisscom supplies the primary link.", question)  # a first word may be the name
    assert not states_name("The primary link in Stuttgart is 1 Gbit/s fibre.", question)  # a unit, a known name
    assert not states_name("| Stuttgart | `stg-sdw-01` | 1 Gbit/s fibre | yes |", question)
    assert not states_name("It uses a 4G/5G router as backup.", question)


# --- colours, versions, numbers ----------------------------------------------------------------


def test_colour_questions_and_sentences() -> None:
    assert asks_colour("Which paint colors can the RX-300 be ordered in?")
    assert asks_colour("In welchen Farben gibt es das Gehäuse?")
    assert not asks_colour("What is the IP address of the colour printer?")  # the colour names the printer
    assert not asks_colour("Welcher Drucker kann in Farbe drucken?")
    assert states_colour("Available in signal white (RAL 9003) and graphite grey.")
    assert not states_colour("The RX-300 can be ordered online around the clock.")


def test_version_questions_need_a_version_number() -> None:
    assert asked_type("Which minimum controller firmware version is needed?") == "version"
    assert asked_type("How many versions are supported?") is None
    assert states_type("version", "Requires controller firmware v3.2 or later.")
    assert states_type("version", "Introduced in FleetOS 2.7.1.")
    assert not states_type("version", "Update the controller firmware before mounting the wrist.")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is the email address of the claims office?", "email"),
        ("An welche E-Mail-Adresse wende ich mich mit Fragen an die SIU?", "email"),
        ("Quelle est l'adresse e-mail du bureau ?", "email"),
        ("What is the phone number of the IT helpdesk?", "phone"),
        ("Wie lautet die Telefonnummer der Hotline?", "phone"),
        ("Quel est le numéro de téléphone du bureau ?", "phone"),
        ("How do I e-mail the helpdesk?", None),  # how to write, not which address
        ("What is the address of the Kestwick campus?", "address"),
    ],
)
def test_questions_that_ask_for_an_email_address_or_a_phone_number(question: str, kind: str | None) -> None:
    assert asked_type(question) == kind


def test_a_sentence_states_an_email_address_or_a_phone_number_or_their_placeholder() -> None:
    assert states_type("email", "- Courriel : sinistres-lu@asterra.example")
    assert states_type("email", "oder per E-Mail an [EMAIL_1].")
    assert not states_type("email", "Contact the claims office by phone.")
    assert states_type("phone", "Hotline: +49 621 555 0100") and states_type("phone", "Call [PHONE_2].")
    assert not states_type("phone", "Valid from 12.03.2025 in room 104.")  # a date and a room are no numbers to call


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("**8** loaner laptops and 4 spare label printers.", True),
        ("Runtime at full load: 20min.", True),
        ("Walk-in services: laptop swaps, FIDO2 key handout.", False),
        ("Protection class IP52 for the RX-300 and the E-4042 fault.", False),
        ("Twelve seats in the training room.", False),  # words are for states_kind, which maps them
    ],
)
def test_a_number_is_a_numeral_of_its_own_not_a_digit_inside_a_name(text: str, states: bool) -> None:
    assert states_number(text) is states


def test_the_number_kind_reads_number_words_and_skips_digits_in_names() -> None:
    assert states_kind("number", "Twelve seats in the training room.")
    assert not states_kind("number", "Badge linking, FIDO2 key handout.")


# --- near misses through the answerer ----------------------------------------------------------


def passage(name: str, title: str, text: str, heading: str = "") -> Candidate:
    payload = {"chunk_id": f"{name}#0", "doc_id": f"{name}.md", "source_set": "itops", "title": title,
               "heading_path": heading, "text": text}  # fmt: skip
    return Candidate(point_id=name, payload=payload, scores={DENSE: 0.8})


def close(question: str, sentences: list[str]) -> list[float]:
    return [0.8] * len(sentences)  # every sentence reads as close: only the wording checks decide


def test_a_rate_per_year_does_not_answer_a_question_per_week() -> None:
    faq = passage("faq", "Employee FAQ", "Employees may work remotely from abroad for up to 20 working days per year.")
    answer = answer_extractively("How many days a week may employees work from home?", [faq], close)
    assert answer.abstained and answer.abstain_code == "no_support" and "per week" in answer.reason
    weekly = passage("remote", "Remote work", "Employees may work from home up to 2 days per week.")
    answered = answer_extractively("How many days a week may employees work from home?", [weekly], close)
    assert not answered.abstained and "2 days per week" in answered.text


def test_a_provider_question_abstains_when_no_quoted_sentence_names_one() -> None:
    links = passage("wan", "WAN links", "The primary link in Stuttgart is 1 Gbit/s fibre with a 4G backup.")
    question = "Which internet provider supplies the primary fibre link in Stuttgart?"
    answer = answer_extractively(question, [links], close)
    assert answer.abstained and "provider" in answer.reason
    named = passage("wan2", "WAN links", "The primary fibre link in Stuttgart is supplied by Swisscom.")
    assert "Swisscom" in answer_extractively(question, [named], close).text


def test_a_value_from_the_twin_of_the_named_document_does_not_answer() -> None:
    stuttgart = passage("stg", "IT on-site support - Stuttgart office", "The desk keeps 4 spare label printers.")
    lyon = passage("lyo", "IT on-site support - Lyon office", "Walk-in services: laptop swaps and badge linking.")
    question = "How many spare label printers can be borrowed from the Lyon IT desk?"
    answer = answer_extractively(question, [stuttgart, lyon, lyon], close)
    assert answer.abstained and "IT on-site support - Stuttgart office" in answer.reason
    asked = "How many spare label printers can be borrowed from the Stuttgart IT desk?"
    answered = answer_extractively(asked, [stuttgart, lyon, lyon], close)
    assert not answered.abstained and "4 spare label printers" in answered.text


def test_a_sentence_from_the_twin_of_the_named_document_does_not_answer_a_question_of_no_kind() -> None:
    # "how long is the induction" asks for no kind the checks know; the Lisbon depot's sentence still
    # speaks of Lisbon, and the Hamburg depot's page (retrieved, the setting) has no induction section
    lisbon = passage(
        "lis",
        "Lisbon Depot - Site Information",
        "First-time visitors complete a 20-minute induction. Hi-vis vests are required.",
        "Safety induction",
    )
    hamburg = passage("ham", "Hamburg Depot - Site Information", "Twelve van bays are in the shared yard.")
    question = "How long is the visitor safety induction at the Hamburg depot?"
    answer = answer_extractively(question, [hamburg, lisbon, hamburg], close)
    assert answer.abstained and "Lisbon Depot - Site Information" in answer.reason
    asked = "How long is the visitor safety induction at the Lisbon depot?"
    answered = answer_extractively(asked, [hamburg, lisbon, hamburg], close)
    assert not answered.abstained and "20-minute" in answered.text


def test_near_miss_is_none_when_the_quoted_sentence_states_what_was_asked() -> None:
    quoted = [Quoted("Available in white and grey.", "Paint: Available in white and grey.", "RX-300\nPaint", "RX-300")]
    assert (
        near_miss("Which paint colours can the RX-300 be ordered in?", quoted, ["RX-300"], str, ["RX-300"], terms)
        is None
    )
    plain = [Quoted("Order online.", "Order online.", "RX-300\nOrder online.", "RX-300")]
    reason = near_miss("Which paint colours can the RX-300 be ordered in?", plain, ["RX-300"], str, ["RX-300"], terms)
    assert reason is not None and "colour" in reason


def test_a_sentence_nearly_as_close_that_states_the_kind_asked_is_quoted_first() -> None:
    ranked = [(1.0, "Opening hours: Day: Saturday; Hours: closed"), (0.99, "Opening hours: Day: Sunday; Hours: closed"),
              (0.94, "Opening hours: Day: Monday to Friday; Hours: 07:00 - 17:00"),
              (0.85, "Courier cut-off: parts requested before 14:00 ship the same day")]  # fmt: skip
    question = "What time does the depot close on weekdays?"
    chosen = stating_kind(question, ranked, str, 0.08, 2)
    assert chosen == [(0.94, "Opening hours: Day: Monday to Friday; Hours: 07:00 - 17:00")]
    assert stating_kind(question, ranked, str, 0.0, 2) == []  # off
    assert stating_kind(question, ranked, str, 0.05, 2) == []  # none that close states a time
    assert stating_kind("Is the depot open on Saturdays?", ranked, str, 0.08, 2) == []  # no kind asked
    # the best already state a time: the caller keeps its choice
    assert stating_kind(question, ranked[2:], str, 0.08, 2) == []


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is the address of the registry office in Kelso?", "address"),
        ("À quelle adresse dois-je envoyer le formulaire ?", "address"),
        ("Welche Anschrift hat die Zulassungsstelle?", "address"),
        ("What is the IP address of the print server?", None),  # not a postal address
        ("Quelle est l'adresse e-mail du service ?", "email"),  # an e-mail address, not a postal one
        ("Wie lautet die E-Mail-Adresse der Hotline?", "email"),
        ("How should managers address late arrivals?", None),  # a verb
        ("I've filled in form SAR-2. Can I e-mail it, and if so to which address?", None),  # an e-mail address
    ],
)
def test_questions_that_ask_for_a_postal_address(question: str, kind: str | None) -> None:
    assert asked_type(question) == kind


def test_a_sentence_states_an_address_by_the_postal_grammar_or_its_placeholder() -> None:
    assert states_type("address", "Visit us at Lindenweg 40, 12345 Kelso (ground floor).")
    assert states_type("address", "Office: [ADDRESS_1], ground floor.")  # there, withheld by redaction
    assert not states_type("address", "You can pay in cash at the registry office in Kelso.")


def scored(question: str, sentences: list[str]) -> list[float]:
    # the model prefers the sentences that name the office to the one that gives its address
    return [0.86 if "pay" in s else 0.85 if "open" in s else 0.8 for s in sentences]


def test_an_address_question_quotes_the_near_sentence_that_gives_one() -> None:
    text = ("You can pay in cash at the registry office in Kelso. The registry office is open on weekdays. "
            "The office is at Lindenweg 40, 12345 Kelso.")  # fmt: skip
    office = passage("office", "Registry office Kelso", text)
    answer = answer_extractively("What is the address of the registry office in Kelso?", [office], scored)
    assert answer.text.startswith("The office is at Lindenweg 40, 12345 Kelso.")  # not the two that score higher
    far = passage("far", "Registry office Kelso", "You can pay in cash at the registry office in Kelso.")
    declined = answer_extractively("What is the address of the registry office in Kelso?", [far], scored)
    assert declined.abstained and "postal address" in declined.reason


def test_a_code_headed_by_an_acronym_covers_the_acronym() -> None:
    assert "ip" in terms("Ingress protection: IP52")
    assert {"usb", "iso"} <= terms("USB3 port, certified to ISO9001")
    assert "ip" not in terms("Ingress protection is rated for dust")


def test_which_room_asks_for_a_room_by_its_number() -> None:
    from strata_pipeline.answering.answer_type import asked_type, states_type

    assert asked_type("In welchem Raum befindet sich der Serverraum am Standort Stuttgart?") == "room"
    assert asked_type("Which room is the outpatient pharmacy in?") == "room"
    assert asked_type("Which room type is the cheapest?") is None
    assert asked_type("What is the room rate at the guest house?") is None
    assert states_type("room", "- Server room **B-UG-01** (basement of building B)")
    assert states_type("room", "Location: ground floor, opposite reception: G.14")
    # a product or error code, or a host name, is no room
    assert not states_type("room", "RX-300 shows E-1042 on `stg-prt-01`")


def test_which_command_asks_for_a_command_to_run_or_type() -> None:
    from strata_pipeline.answering.answer_type import asked_type, states_type

    assert asked_type("What command triggers the ERP failover to the Basel data center?") == "command"
    assert asked_type("If the site goes down, what's the exact command to fail the ERP over?") == "command"
    assert asked_type("Mit welchem Befehl wird der Failover ausgelöst?") == "command"
    assert asked_type("Quelle commande déclenche la bascule ?") == "command"
    assert asked_type("When does the incident commander escalate?") is None
    assert states_type("command", "2. Failover auslösen:\n   `kerpctl failover --to bsl --confirm`")
    assert states_type("command", "Type /incident declare in the #ops channel.")
    assert states_type("command", "sudo systemctl stop postgresql-16")
    assert states_type("command", "Then run systemctl restart nginx on the host.")
    # a host name in code, a path or a list item is no command
    assert not states_type("command", "The repository is on `zrh-bkp-01` (`/backup/pgbackrest`).")
    assert not states_type("command", "- Data center room DC-1, access with the badge group and/or a key")
    # code spans pair up: the text between two of them is no code
    assert not states_type("command", "The `archive_command` to the backup\n  server `zrh-bkp-02` had been failing.")


def test_a_command_nearly_as_close_as_the_best_sentence_is_quoted_first() -> None:
    runbook = passage(
        "erp", "ERP failover to Basel",
        "The failover to Basel is decided by the incident manager within 30 minutes. "
        "Trigger it with `kerpctl failover --to bsl`.",
    )  # fmt: skip
    answer = answer_extractively("What command triggers the ERP failover to Basel?", [runbook], close)
    assert not answer.abstained and answer.citations[0].quote.startswith("Trigger it with `kerpctl")
    decided = passage("dec", "ERP failover to Basel", "The failover to Basel is decided by the incident manager.")
    declined = answer_extractively("What command triggers the ERP failover to Basel?", [decided], close)
    assert declined.abstained and "command" in declined.reason


def test_which_code_asks_for_a_code() -> None:
    from strata_pipeline.answering.answer_type import asked_type, states_type

    assert asked_type("What is the app location code for paying at the P-See car park in Lindau?") == "code"
    assert asked_type("Which occupancy codes are in hazard class D?") == "code"
    assert asked_type("Wie lautet der Zugangscode für das Lager?") == "code"
    assert asked_type("Quel est le code de la porte ?") == "code"
    # its meaning, a code the question gives, and codes that are texts ask for no code
    assert asked_type("An RX-300 shows E-3204. What does that code mean?") is None
    assert asked_type("Which hazard class does occupancy code BA-5102 have?") is None
    assert asked_type("What is the dress code for the gala?") is None
    assert asked_type("What does the code of conduct say about gifts?") is None
    assert states_type("code", "Line codes: KF motor, HR household contents.")
    assert states_type("code", "Enter location code **4711** in the app.")
    assert states_type("code", "| BA-6310 | Restaurant | D |")
    # a price, a time, a name with a hyphen are no code
    assert not states_type("code", "| je angefangene Stunde | 1,80 € |")
    assert not states_type("code", "Das Parkhaus **P-See** an der Seestraße ist rund um die Uhr geöffnet, 1200 €.")


def test_a_question_on_one_weekday_quotes_the_row_that_names_it_in_any_language() -> None:
    from strata_pipeline.answering.near_miss import on_asked_day

    ranked = [
        (0.910, "Dienstags und samstags ist das Kundencenter geschlossen."),
        (0.909, "| Montag, Mittwoch, Freitag | 9:00 – 16:00 |"),
        (0.907, "| Donnerstag | 9:00 – 19:00 |"),
    ]
    question = "Until what time is the customer centre open on Thursdays?"
    assert on_asked_day(question, ranked, ranked[:2], str, 0.1, 2) == [ranked[2]]
    # a range covers the day; a chosen sentence that names the day is kept; a day too far below is not taken
    assert on_asked_day("Is it open on Wednesday?", ranked, ranked[:1], str, 0.1, 2) == [ranked[1]]
    assert on_asked_day(question, ranked, ranked[2:], str, 0.1, 2) == []
    assert on_asked_day(question, ranked, ranked[:2], str, 0.001, 2) == []
    assert on_asked_day("What time does it open?", ranked, ranked[:2], str, 0.1, 2) == []
