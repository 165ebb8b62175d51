"""Near misses by name and by kind of value: the question names what the quoted passages do not
mention, or asks for a number, weight or speed they do not state (answering/abstention.py, answering/names.py)."""

from __future__ import annotations

from strata_pipeline.answering.abstention import asked_kind, states_kind
from strata_pipeline.answering.answer import _stem, answer_extractively
from strata_pipeline.answering.asked_identifiers import redaction_placeholders
from strata_pipeline.answering.names import named_words, unnamed_words
from strata_pipeline.retrieval.candidate import DENSE, Candidate


def test_named_words_are_capitalised_words_inside_a_sentence() -> None:
    assert named_words("How many van bays are there at the Madrid depot?") == ["Madrid"]
    assert named_words("Which VPN client does the Zürich office use? Where is NW Connect set up?") == [
        "VPN",
        "Zürich",
        "NW",
        "Connect",
    ]
    # the first word of a sentence, a lone "I", months and weekdays are no names
    assert named_words("Am I allowed to work in April or on Saturday?") == []
    assert named_words("Is the RX-300's dock rated IP54?") == ["RX-300", "IP54"]
    # a language (or the nationality English names by it) is no name a passage must repeat
    assert named_words("My mother only speaks Polish. Can someone translate in Lyon?") == ["Lyon"]
    assert named_words("Is the German customer service line open in Mannheim?") == ["Mannheim"]


def test_a_name_the_quoted_passages_do_not_mention_is_reported() -> None:
    passages = ["Munich Depot - Site Information\nEight van bays are available in the inner courtyard."]
    assert unnamed_words(["Madrid"], passages, _stem) == ["Madrid"]
    assert unnamed_words(["Munich", "munich"], passages, _stem) == []  # case aside


def test_a_country_is_mentioned_by_its_name_in_another_language() -> None:
    passages = ["Mitarbeitende in Deutschland haben Anspruch auf 5 Tage Bildungsurlaub."]
    assert unnamed_words(["Germany", "Allemagne"], passages, _stem) == []
    assert unnamed_words(["France", "Ireland"], passages, _stem) == ["France", "Ireland"]
    assert unnamed_words(["Britain"], ["Our Royaume-Uni office"], _stem) == []  # an everyday name too


def test_names_match_by_stem_compound_part_and_placeholder_part() -> None:
    passages = ["Restore with Barman.", "Printer address: [IP_ADDRESS_3]", "Open the window settings."]
    assert unnamed_words(["Barman-based", "IP", "Windows"], passages, _stem) == []
    assert unnamed_words(["AnyConnect-based"], passages, _stem) == ["AnyConnect-based"]


def test_a_redacted_name_in_the_question_is_a_placeholder() -> None:
    assert redaction_placeholders("Opening hours of the [PERSON_1] depot, [PERSON_1] and [EMAIL_2]?") == [
        "[PERSON_1]",
        "[EMAIL_2]",
    ]
    assert redaction_placeholders("Opening hours of the Porto depot?") == []


def test_a_number_weight_or_speed_is_stated_or_not() -> None:
    assert states_kind("number", "The training room seats twelve people.")
    assert states_kind("number", "Loans: 4 laptops.")
    # a clock time, a date, a room or an ordinal counts nothing ("how many label printers")
    assert not states_kind("number", "| Location | 1st floor, room 1.02 |")
    assert not states_kind("number", "Opening hours: Monday–Friday 08:30–17:30, from 2025-01-06")
    assert states_kind("number", "Room 1.02 holds 12 label printers.")
    # a number after the word of what it labels ("how many beds does the ICU have")
    assert not states_kind("number", "- Intensive care unit, level 3")
    assert not states_kind("number", "Die Station liegt in Gebäude 2, Ebene 4.")
    assert states_kind("number", "The unit on level 3 has 14 beds.")
    assert states_kind("number", "Setup takes 3 steps.")
    assert not states_kind("number", "Courses are held online or at our training center.")
    assert states_kind("weight", "The compact van may carry at most 400 kg of tools.")
    assert not states_kind("weight", "| RX Dock charging station | 24 months from delivery |")
    assert states_kind("speed", "Maximum speed: 2.0 m/s")
    assert not states_kind("speed", "Maximum payload: 300 kg (top module), 500 kg towing")
    assert states_kind("km", "Private use was allowed up to 300 km per month.")
    assert states_kind("length", "Parameter: Reach; Value: 1,100 mm")
    assert states_kind("length", "Mindestgangbreite für Fahrwege: 1,4 m")
    assert not states_kind("length", "The RX-200 is a six-axis collaborative robot arm for machine tending.")
    assert not states_kind("length", "Rated payload: 12 kg")


def test_a_percentage_noise_level_or_weekday_is_asked_for_and_stated_or_not() -> None:
    assert asked_kind("What discount do government agencies receive?") == "percent"
    assert asked_kind("Who must approve a total discount of more than 15%?") is None  # asks for a person
    assert states_kind("percent", "| 5 to 9 | 5% |")
    assert not states_kind("percent", "Volume discounts apply to robots ordered on a single purchase order.")
    # a past cost and a currency named ask for money: a reference to a collective agreement states none
    assert asked_kind("Wie hoch ist das Tagesgeld in Euro für Fahrer des Depots Nord?") == "money"
    assert asked_kind("Combien a coûté la réparation de la boîte de vitesses du camion ?") == "money"
    assert asked_kind("Wie viel hat das Zimmer im Jahr 2024 pro Tag gekostet?") == "money"
    assert not states_kind("money", "Tagesgelder gelten nach dem Kollektivvertrag und § 26 Z 4 EStG.")
    # a change by a share asks for a percentage, not the money a supplier's row states
    assert asked_kind("Um wie viel Prozent erhöht die Molkerei 2025 ihre Preise?") == "percent"
    assert asked_kind("By what percentage do the prices rise in 2025?") == "percent"
    assert asked_kind("De combien de pour cent les tarifs augmentent-ils ?") == "percent"
    assert asked_kind("Wie viel Prozent der Kosten übernimmt die Firma?") == "amount"  # a share: or its money
    assert not states_kind("percent", "L-1002 | Bergkäserei | Käse | 30 Tage netto | Jahresvolumen (CHF): 1312450,50")
    assert states_kind("percent", "Die Preise für Joghurt steigen um 4,8 %.")
    assert asked_kind("What is the noise level of the robot while driving?") == "noise"
    assert states_kind("noise", "Noise level: Below 65 dB(A)")
    assert not states_kind("noise", "The robot slows down to 1.2 m/s in shared zones.")
    assert asked_kind("On which weekdays are the courses held?") == "weekday"
    assert states_kind("weekday", "Standard support is available Monday to Friday.")
    assert not states_kind("weekday", "Courses are held online or at our training center.")


def depot(city: str, text: str) -> Candidate:
    payload = {"chunk_id": f"{city}#0", "doc_id": f"sites/{city.lower()}-depot.md", "source_set": "fieldops",
               "title": f"{city} Depot - Site Information", "heading_path": "Parking", "text": text}  # fmt: skip
    return Candidate(point_id=city, payload=payload, scores={DENSE: 0.8})


def close(question: str, sentences: list[str]) -> list[float]:
    return [0.8] * len(sentences)  # every sentence reads as close: only the name checks decide


def test_the_answerer_abstains_when_the_quoted_passage_is_about_another_place() -> None:
    munich = depot("Munich", "Eight van bays are available in the inner courtyard.")
    answered = answer_extractively("How many van bays does the Munich depot have?", [munich], close)
    assert not answered.abstained and "Eight van bays" in answered.text
    missed = answer_extractively("How many van bays does the Madrid depot have?", [munich], close)
    assert missed.abstained and missed.abstain_code == "no_support" and "Madrid" in missed.reason


def test_the_asked_value_must_come_from_the_passage_about_the_named_place() -> None:
    basel = depot("Basel", "The diesel generator has fuel for 48 hours.")
    zurich = depot("Zurich", "The diesel generator starts after 10 seconds.")
    question = "For how many hours does the Zurich generator have fuel?"
    missed = answer_extractively(question, [zurich, basel], close)
    assert missed.abstained and "hour" in missed.reason and "Zurich" in missed.reason
    assert not answer_extractively(question.replace("Zurich", "Basel"), [basel, zurich], close).abstained


def test_the_quote_comes_from_the_passage_about_the_named_place_when_one_passes() -> None:
    # the Lyon sentence scores higher (ranked first, the same language), the Dresden one still passes
    lyon = depot("Lyon", "An adjuster visits within 3 working days of the report.")
    dresden = depot("Dresden", "Termin innerhalb von 5 Arbeitstagen nach Schadenmeldung.")
    question = "Within how many working days does the Dresden office arrange a visit?"
    # two Lyon sentences fill the quote before the Dresden one (closer to the question, as a sentence in
    # the question's language is): before, the answerer said Dresden was not mentioned
    lyon_too = depot("Lyon", "An adjuster visits within 3 working days. Reports take 2 working days.")

    def nearer_in_english(q: str, texts: list[str]) -> list[float]:
        return [0.8 if "Arbeitstagen" in t else 0.9 for t in texts]

    answered = answer_extractively(question, [lyon_too, dresden], nearer_in_english)
    assert not answered.abstained and "5 Arbeitstagen" in answered.text and "3 working days" not in answered.text
    assert [c.doc_id for c in answered.citations] == ["sites/dresden-depot.md"]
    # a German compound states its unit: "Arbeitstagen" are days
    assert states_kind("day", "Termin innerhalb von 5 Arbeitstagen.") and not states_kind("day", "5 Anträge")
    # no passage about the named place: the answerer abstains as before
    missed = answer_extractively(question.replace("Dresden", "Madrid"), [lyon, dresden], close)
    assert missed.abstained and "Madrid" in missed.reason


def test_a_redacted_name_in_the_question_is_never_answered() -> None:
    porto = depot("Porto", "Ten van bays are available in the open yard.")
    missed = answer_extractively("How many van bays does the [PERSON_1] depot have?", [porto], close)
    assert missed.abstained and "[PERSON_1]" in missed.reason


def test_a_name_most_passages_mention_is_the_setting_and_need_not_be_repeated() -> None:
    sick = depot("Leave", "Employees receive 10 paid sick days per calendar year.")
    others = [depot(f"Northwind {n}", "Northwind Robotics pays salaries monthly.") for n in ("Pay", "Faq")]
    question = "How many paid sick days does Northwind give each year?"
    assert not answer_extractively(question, [sick, *others], close).abstained
    # named by a minority of the passages, the name is the subject: the quote must mention it
    madrid = "How many paid sick days does the Madrid office give each year?"
    assert answer_extractively(madrid, [sick, depot("Madrid", "The Madrid office opened in 2020."), *others[:1]],
                               close).abstained  # fmt: skip


def test_a_limit_asks_for_a_number() -> None:
    assert asked_kind("What is the monthly spending limit on the fuel card?") == "number"
    assert not states_kind("number", "Pay for fuel only with the FleetPay card that belongs to the van.")


def test_an_acronym_need_not_be_repeated_by_a_quoted_passage_in_another_language() -> None:
    from strata_pipeline.answering.near_miss import Quoted, near_miss
    from strata_pipeline.answering.wording import is_acronym

    assert [is_acronym(w) for w in ("USV", "WLAN", "RX-300", "E-1042", "Basel")] == [True, True, False, False, False]
    question = "Wie lange läuft die USV in Basel bei Volllast?"
    english = "- UPS runtime at full load: **30 minutes**; diesel generator with fuel for 48 hours."
    passage = f"IT on-site support - Basel office\nServer room\n{english}"
    german = Quoted(english, english, passage, foreign=False)  # were it a German passage: USV is unmentioned
    assert near_miss(question, [german], [passage], _stem) == (
        "The passages the answer would quote do not mention USV, which the question names."
    )
    assert near_miss(question, [Quoted(english, english, passage, foreign=True)], [passage], _stem) is None
    # a code reads alike in every language: still required of a passage in another language
    coded = "Wie lange läuft die USV des Servers BSL-DB-30 bei Volllast?"
    assert near_miss(coded, [Quoted(english, english, passage, foreign=True)], [passage], _stem) is not None


def test_how_recently_or_how_old_asks_for_an_age_whatever_its_noun_costs() -> None:
    assert asked_kind("How recently must a car have been registered to get new-price compensation?") == "age"
    assert asked_kind("How old can a house be before proof of renewed water pipes is required?") == "age"
    assert asked_kind("Wie alt darf das Haus höchstens sein?") == "age"
    assert asked_kind("What is the new-price compensation for a car?") == "money"  # a price is still asked
    assert states_kind("age", "Bei Gebäuden, die älter als 40 Jahre sind, ...")
    assert states_kind("age", "first registered no more than 18 months before the loss")
    assert not states_kind("age", "We pay the list price of a new car, at most 25,000 €.")


def test_a_betrag_or_montant_asks_for_money() -> None:
    assert asked_kind("Bis zu welchem Betrag werden Hotelkosten pro Nacht erstattet?") == "money"
    assert asked_kind("Quel est le montant de l'indemnité de télétravail versée chaque mois ?") == "money"
    assert states_kind("money", "Hotel costs are reimbursed up to 110 € per night.")
    assert not states_kind("money", "Sie können Ihren Abschlag bis zu dreimal pro Kalenderjahr ändern.")


def test_a_currency_written_as_a_word_states_money() -> None:
    assert states_kind("money", "Indemnité forfaitaire de 250 euros par semaine d'astreinte.")
    assert states_kind("money", "Die Pauschale beträgt 250 Euro pro Woche.")
    assert states_kind("money", "A day pass costs 12 dollars.")
    assert not states_kind("money", "Book the 5 Eurostar seats early.")  # a word that starts like one is none


def test_an_acronym_is_mentioned_by_the_code_it_heads() -> None:
    assert unnamed_words(["IP"], ["- Ingress protection: IP52"], _stem) == []
    assert unnamed_words(["IP"], ["Ingress protection is rated for dust."], _stem) == ["IP"]
    assert unnamed_words(["IP"], ["Order part VIP52 today."], _stem) == ["IP"]  # inside another word


def test_a_table_row_for_another_named_key_does_not_answer() -> None:
    rows = (
        "Aarlingen | surface water drainage | per m² sealed area per year | 0.78 €\n"
        "Weißbach | surface water drainage | per m² sealed area per year | 0.64 €\n"
        "Colmont | drinking water | per m³ | 2.07 €"
    )
    payload = {"chunk_id": "prices#0", "doc_id": "tariffs/water-prices.csv", "source_set": "utility",
               "title": "water-prices", "heading_path": "", "text": rows}  # fmt: skip
    prices = Candidate(point_id="prices", payload=payload, scores={DENSE: 0.8})
    missed = answer_extractively("What's the surface water drainage charge in Colmont?", [prices], close)
    assert missed.abstained and "quoted table rows do not mention Colmont" in missed.reason
    answered = answer_extractively("What's the surface water drainage charge in Weißbach?", [prices], close)
    assert not answered.abstained and "0.64" in answered.text


def test_a_value_sentence_that_names_a_sibling_instead_of_the_asked_name() -> None:
    from strata_pipeline.answering.names import named_sibling

    prayers = "- Friday prayers are held at 13:15 in the Kestwick prayer room."
    rooms = "The prayer room at Kestwick is on level 1; at Brandholm, in building A, ground floor."
    retrieved = [f"{prayers}\n{rooms}"]
    assert named_sibling(["Brandholm"], [prayers], retrieved, _stem) == "Kestwick"
    assert named_sibling(["Kestwick"], [prayers], retrieved, _stem) == ""  # the sentence names the asked one
    # the other name is never named beside the asked one: no evidence the two are things of a kind
    assert named_sibling(["Brandholm"], [prayers], [prayers, "Brandholm has a chapel."], _stem) == ""
    # one value sentence that names no other name may answer
    assert named_sibling(["Brandholm"], [prayers, "Prayers are held at 13:15."], retrieved, _stem) == ""
    # an acronym of the question's own names is no sibling
    cab = "Approval by the CAB is needed by 12:00 on Tuesday."
    board = ["Changes go to the Change Advisory Board (CAB). Approval by the CAB is needed by 12:00 on Tuesday."]
    assert named_sibling(["Change", "Advisory", "Board"], [cab], board, _stem) == ""


def test_a_year_the_quoted_passages_do_not_cover_is_a_near_miss() -> None:
    from strata_pipeline.answering.near_miss import Quoted, near_miss

    rows = "public holidays 2025\n2025-10-03 | German Unity Day | Munich\n2025-12-26 | Second Day of Christmas | Munich"
    row = Quoted("2025-10-03 | German Unity Day | Munich", "2025-10-03 | German Unity Day | Munich", rows)
    assert near_miss("Which holidays does the Munich office observe in 2026?", [row], [rows], _stem) == (
        "The passages the answer would quote speak of 2025, not 2026, which the question asks about."
    )
    assert near_miss("Which holidays does the Munich office observe in 2025?", [row], [rows], _stem) is None
    # a year in the statement before the question is context, and passages without any year cover every one
    said = "I placed a policy this year (2026). Which holiday is on 3 October in Munich?"
    assert near_miss(said, [row], [rows], _stem) is None
    plain = Quoted("German Unity Day is a holiday in Munich.", "German Unity Day is a holiday in Munich.", "Munich")
    assert near_miss("Which holidays does Munich observe in 2026?", [plain], ["Munich"], _stem) is None


def test_a_models_plural_is_a_mention_of_the_model() -> None:
    assert unnamed_words(["RX-300s", "RX-200s"], ["The RX-300 pack warms up for 2 hours."], _stem) == ["RX-200s"]
