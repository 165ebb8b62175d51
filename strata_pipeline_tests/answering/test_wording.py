"""What a question's wording asks for (answering/wording.py) and the name fixes of branch abstain10:
"how fast", visiting hours, deposits, money columns of tables, acronyms in German
questions, names inflected in another language, hyphenated place names. Exact expectations."""

from __future__ import annotations

from strata_pipeline.answering.abstention import asked_kind, states_kind
from strata_pipeline.answering.answer import _stem, answer_extractively
from strata_pipeline.answering.answer_type import asked_period
from strata_pipeline.answering.names import named_words, question_names, unnamed_words
from strata_pipeline.answering.wording import acronyms, site_names, table_states_money
from strata_pipeline.retrieval.candidate import DENSE, Candidate


def test_how_fast_asks_for_a_speed_or_how_soon() -> None:
    question = "I pricked myself with a used syringe. Who do I ring and how fast?"
    assert asked_kind(question) == "pace"
    assert asked_kind("Wie schnell muss man bei Rufbereitschaft in der Klinik sein?") == "pace"
    assert asked_kind("What is the top speed of the RX-300?") == "speed"
    assert states_kind("pace", "Ring occupational health on 2299 within 2 hours.")
    assert states_kind("pace", "Innerhalb von 30 Minuten in der Klinik.")
    assert states_kind("pace", "The robot moves at 1.5 m/s.")
    assert not states_kind("pace", "Ring occupational health on extension 2299.")


def test_hours_named_by_their_use_ask_for_clock_times() -> None:
    assert asked_kind("What are the visiting hours of the neonatal unit?") == "time"
    assert asked_kind("Wann sind die Besuchszeiten in Lindau?") == "time"
    assert asked_kind("How many hours does the course take?") == "hour"  # a duration, not a time
    assert states_kind("time", "Visiting hours are 10:00 to 20:00 every day.")
    assert not states_kind("time", "Maternity unit and neonatal unit, Rowan building")


def test_a_deposit_or_surcharge_asks_for_an_amount_of_money_or_a_share() -> None:
    assert asked_kind("What deposit is charged for borrowing a measuring device?") == "amount"
    assert asked_kind("Wie hoch ist der Zuschlag für ein Zweibettzimmer?") == "amount"
    assert asked_kind("What surcharge is added when the premium is paid quarterly?") == "amount"
    assert states_kind("amount", "| quarterly | 3 % |")
    assert states_kind("amount", "Reetdach: Zuschlag von 100 % auf den Feuerbeitrag")
    assert states_kind("amount", "A deposit of 50 EUR is charged.")
    assert not states_kind("amount", "A surcharge applies to thatched roofs.")
    assert not states_kind("money", "F-21 | electricity meter | terminal cover opened")


def test_a_charge_named_as_a_thing_asks_for_an_amount_but_a_battery_charge_does_not() -> None:
    assert asked_kind("What is the surface water drainage charge in Colmont?") == "amount"
    assert asked_kind("What is the annual smart meter charge for a household using 25,000 kWh?") == "amount"
    assert asked_kind("What's the hire charge?") == "amount"
    assert asked_kind("How much is the weekly on-call stipend for the secondary engineer?") == "amount"
    assert asked_kind("What is the battery charge level after an hour?") is None
    assert asked_kind("What is a full charge for the RX-300?") is None
    assert asked_kind("Who is in charge of the Porto depot?") is None


def test_a_share_of_a_price_asks_for_an_amount_not_for_money() -> None:
    question = "If I never ship the old part back in time, what share of the catalogue price is billed?"
    assert asked_kind(question) == "amount"
    assert states_kind("amount", "Parts not returned within 30 days are invoiced at 35% of the list price.")
    assert asked_kind("Welchen Anteil des Listenpreises zahlt der Kunde?") == "amount"
    assert asked_kind("What is the catalogue price of the kit?") == "money"


def test_a_table_with_a_money_column_states_money_in_its_rows() -> None:
    table = "code | procedure | campus | price_gbp\nADH-1024 | CT scan head | Kestwick | 310"
    assert table_states_money(table)
    assert states_kind("money", f"self-pay-prices: {table}")
    assert table_states_money("| Parkdauer | Gebühr |\n| je angefangene Stunde | 1,80 |")
    assert not table_states_money("code | procedure | campus\nADH-1024 | CT scan head | Kestwick")
    assert not table_states_money("code | price_gbp")  # a header alone states no amount


def test_a_year_named_after_im_jahr_is_no_rate_per_year() -> None:
    assert asked_period("Wie hoch war der Zuschlag für ein Zweibettzimmer im Jahr 2023?") is None
    assert asked_period("Wie viele Tage Urlaub gibt es im Jahr?") == "year"


def test_acronyms_name_things_in_any_language() -> None:
    assert acronyms("Wie viel kostet das WLAN in der Reha-Klinik Lindau?") == ["WLAN"]
    assert acronyms("Was kostet ein MRT-Befund?") == []  # a compound's part: the identifier checks see it
    names = question_names("Wie viel kostet das WLAN in der Reha-Klinik Lindau?", ["Parkhaus P-See"], _stem)
    assert names.words == ["WLAN"]


def test_a_site_named_after_its_noun_is_a_name_in_german_and_french() -> None:
    assert site_names("Wie hoch ist die Freigabegrenze für Teamleiter im Werk Leipzig?") == ["Leipzig"]
    assert site_names("Combien de places au bureau de Lyon ?") == ["Lyon"]
    assert site_names("Was kostet das Essen im Werk?") == []
    names = question_names("Wie hoch ist die Grenze im Werk Leipzig?", ["Werk Chemnitz | 2.500"], _stem)
    assert names.words == ["Leipzig"]


def test_contractions_of_i_and_plural_weekdays_are_no_names() -> None:
    assert named_words("Can I get internet while I'm in hospital, or I've to pay?") == []
    assert named_words("Is the Aarlingen customer centre open on Saturdays?") == ["Aarlingen"]


def test_a_name_is_mentioned_inflected_in_another_language() -> None:
    assert unnamed_words(["Legionella"], ["Maßnahmenwert für Legionellen: 100 KBE/100 ml"], _stem) == []
    assert unnamed_words(["Munich"], ["The municipal depot"], _stem) == ["Munich"]  # too short to inflect


def test_a_hyphenated_name_of_capitalised_parts_needs_every_part() -> None:
    assert unnamed_words(["Aarlingen-Ost"], ["Aarlingen drinking water 2.31 per m³"], _stem) == ["Aarlingen-Ost"]
    assert unnamed_words(["Aarlingen-Ost"], ["Im Ortsteil Ost von Aarlingen"], _stem) == []
    assert unnamed_words(["AnyConnect-based"], ["The AnyConnect client"], _stem) == []


def german_table(text: str) -> Candidate:
    payload = {"chunk_id": "parken#0", "doc_id": "de/parken.md", "source_set": "hospital", "title": "Parken",
               "heading_path": "Parken", "text": text, "language": "de"}  # fmt: skip
    return Candidate(point_id="parken", payload=payload, scores={DENSE: 0.9})


def test_the_subject_check_reads_the_response_of_quotes_in_another_language() -> None:
    question = "How much does parking cost at the clinic for motorbikes?"
    rate = "Parken an der Klinik kostet je angefangene Stunde 1,80 €."
    other = "Schwerbehinderte parken kostenlos im Erdgeschoss, für 0 € am Tag."
    passages = [german_table(f"{rate}\n\n{other}")]

    def similarity(responds: bool):  # type: ignore[no-untyped-def]
        def score(q: str, texts: list[str]) -> list[float]:
            if "motorbikes" in q:  # the full question: the rate is closest
                return [0.95 if rate in t else 0.5 for t in texts]
            # without "motorbikes": the rate gains (it speaks of cars) unless it responds to the word
            return [(0.80 if responds else 0.97) if rate in t else 0.45 for t in texts]

        return score

    missed = answer_extractively(question, passages, similarity(responds=False))
    assert missed.abstained and missed.reason.startswith("No retrieved passage mentions motorbikes")
    answered = answer_extractively(question, passages, similarity(responds=True))
    assert not answered.abstained and "1,80 €" in answered.text


def test_a_duration_question_asks_for_no_money_though_it_names_costs() -> None:
    assert asked_kind("After a covered loss, for how long are the costs of living elsewhere paid?") is None
    assert asked_kind("Wie lange gilt die Preisgarantie?") is None
    assert asked_kind("What does the hotel cost per night?") == "money"


def test_the_asked_part_leaves_out_the_statements_before_the_question() -> None:
    from strata_pipeline.answering.abstention import asked_kind
    from strata_pipeline.answering.wording import asked_part

    munich = "I'd like to run a workshop at the Munich depot. How many people fit in the training room there?"
    assert asked_part(munich) == "How many people fit in the training room there?"
    assert asked_part("What is X? And what is Y?") == "What is X? And what is Y?"  # from the first question on
    assert asked_part("Opening hours of the Porto depot.") == "Opening hours of the Porto depot."  # no "?"
    assert asked_part("Is St. Mary's open? Thanks") == "Is St. Mary's open? Thanks"  # "St." ends no sentence
    # a statement typed in lower case ends at its full stop too; an abbreviation ends no sentence
    dad = "my dad is at kestwick and i visit every day. is ther a cheaper way to park than by the hour?"
    assert asked_part(dad) == "is ther a cheaper way to park than by the hour?"
    assert asked_part("What is the approx. size of the room?") == "What is the approx. size of the room?"
    assert asked_part("We use e.g. the VPN. what port?") == "what port?"
    # the kind of value asked is read in the question, not in the context before it
    lyon = "Our Lyon backups crawl during office hours. Is the backup traffic capped somewhere?"
    assert asked_kind(lyon) is None and asked_kind("What are the office hours in Lyon?") == "time"
