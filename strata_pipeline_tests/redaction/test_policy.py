"""The redaction policy on hand-made findings: thresholds, role mailboxes, version numbers, overlaps."""

from __future__ import annotations

import pytest

from strata_pipeline.redaction.pii import (
    DEFAULT_THRESHOLDS,
    Finding,
    PiiPolicy,
    _trim,
    resolve_overlaps,
)
from strata_pipeline.redaction.redact import Placeholders, apply_replacements


def finding(text: str, value: str, entity: str, score: float = 0.9) -> Finding:
    start = text.index(value)
    return Finding(entity, start, start + len(value), score, "test")


@pytest.mark.parametrize(
    ("email", "decision"),
    [
        ("support@northwind.example", "keep_role_contact"),
        ("it-helpdesk@northwind.example", "keep_role_contact"),
        ("No-Reply@northwind.example", "keep_role_contact"),
        ("billing-team@northwind.example", "keep_role_contact"),
        ("press-office@northwind.example", "keep_role_contact"),
        # ordinary words that name no one are a function's mailbox; a given name is a person's
        ("travel@northwind.example", "keep_role_contact"),
        ("fleet@northwind.example", "keep_role_contact"),
        ("mark@northwind.example", "redact"),
        ("anna@northwind.example", "redact"),
        # a role word beside a given name is a person's mailbox
        ("sales.maria@northwind.example", "redact"),
        ("hr.jonas@northwind.example", "redact"),
        ("maria.fernandes@northwind.example", "redact"),
        ("jweber@northwind.example", "redact"),
    ],
)
def test_role_mailboxes(email: str, decision: str) -> None:
    text = f"Write to {email} today."
    assert PiiPolicy().decide(finding(text, email, "EMAIL"), text) == decision


def test_what_the_documents_say_of_a_mailboxs_parts_makes_it_a_functions() -> None:
    from strata_pipeline.redaction.mailboxes import mailbox_words

    documents = [
        "Owner: Special Investigations Unit (SIU). Questions: siu@asterra.example",
        "# Bureau des sinistres de Luxembourg\n- Courriel : sinistres-lu@asterra.example",
        "Contact Jonas Weber (jonas.weber@asterra.example) or Maria in sales: sales.maria@asterra.example",
        "[13:12] bram.dv: call bram.terhorst@polderdata.example; mark the box for mark@asterra.example",
        "Minutes by Mary Ann Smith (MAS): mas@asterra.example, initials only: hr.jd@asterra.example",
    ]
    words = mailbox_words(documents)
    assert words.functions == {"siu", "sinistres"}  # no handle, no common name, no person's initials
    policy = PiiPolicy(mailbox_words=words)
    assert policy.is_role_mailbox("siu@asterra.example") and policy.is_role_mailbox("sinistres-lu@asterra.example")
    people = ["jonas.weber", "sales.maria", "bram.terhorst", "mark", "mas", "hr.jd"]
    assert not any(policy.is_role_mailbox(f"{p}@asterra.example") for p in people)
    # without the documents' evidence the functions' mailboxes are redacted, as before
    assert not PiiPolicy().is_role_mailbox("siu@asterra.example")


def test_an_acronym_the_documents_use_as_a_units_name_makes_its_mailbox_a_functions() -> None:
    from strata_pipeline.redaction.mailboxes import mailbox_words

    documents = [
        "P1 and P2 go via the NOC (noc@kestrel.example); after 19:00 the NOC takes the calls.",
        "A normal change needs CAB-Genehmigung; the CAB chair signs. Requests: cab@kestrel.example",
        "Queue `BSL-FollowMe`; the label printers stay on BSL-FollowMe. Mailbox: it-bsl@kestrel.example",
        "JK will send the deck. JK will call the vendor. Ask jk@kestrel.example. The ZRH site: zrh@kestrel.example",
    ]
    words = mailbox_words(documents)
    assert words.functions == {"noc", "cab", "bsl"}  # a person's initials before a verb are no unit ("JK will")
    policy = PiiPolicy(mailbox_words=words)
    assert all(policy.is_role_mailbox(f"{m}@kestrel.example") for m in ("noc", "cab", "it-bsl"))
    assert not policy.is_role_mailbox("jk@kestrel.example")
    assert not policy.is_role_mailbox("zrh@kestrel.example")  # used once only: no evidence yet


@pytest.mark.parametrize(
    ("email", "decision"),
    [
        # a word of a language we read, spelt as addresses spell it: umlauts as ae/oe/ue, accents dropped
        ("standesamt@lindau-land.example", "keep_role_contact"),
        ("pruefungsamt@uni.example", "keep_role_contact"),
        ("comite.ethique@chu.example", "keep_role_contact"),
        ("contratacion@diputacion.example", "keep_role_contact"),
        # a German or Dutch compound of words
        ("schadenmeldung-kfz@versicherung.example", "keep_role_contact"),
        ("burgerzaken@gemeente.example", "keep_role_contact"),
        # a number ends a part
        ("wahlen2025@stadt.example", "keep_role_contact"),
        # a lone initial beside a word is a person's, as is a surname that is also a word
        ("k.sonnenschein@stadt.example", "redact"),
        ("m.keller-einkauf@werk.example", "redact"),
        ("bauer@gemeinde.example", "redact"),
        ("marie@gemeinde.example", "redact"),
        # a name written as one word is no compound of words: by its capitals or by a common given name
        ("RubyChristie@mailbox.example", "redact"),
        ("annaweber@mailbox.example", "redact"),
        # no word of any language: no evidence of a function
        ("kdekoning@installatie.example", "redact"),
    ],
)
def test_mailboxes_named_by_words_of_other_languages(email: str, decision: str) -> None:
    text = f"Bitte an {email} schreiben."
    assert PiiPolicy().decide(finding(text, email, "EMAIL"), text) == decision


def test_a_mailbox_named_by_a_person_the_text_names_is_theirs() -> None:
    text = "Verantwortlich: Petra Haus, Kita-Leitung. Anmeldung: haus@kita.example"
    email = finding(text, "haus@kita.example", "EMAIL")
    person = finding(text, "Petra Haus", "PERSON")
    assert PiiPolicy().decide(email, text, [person, email]) == "redact"
    # the same mailbox in a text that names no one: "Haus", a listed surname, is far commoner as a word
    assert PiiPolicy().decide(email, text, [email]) == "keep_role_contact"
    # a person below the threshold names no one
    weak = Finding("PERSON", person.start, person.end, 0.3, "test")
    assert PiiPolicy().decide(email, text, [weak, email]) == "keep_role_contact"


@pytest.mark.parametrize(
    ("text", "decision"),
    [
        # one sentence with a function's mailbox and no person: the function's line
        (
            "Bitte das Flottenmanagement informieren: fleet@corp.example oder +41 71 228 44 30 (Mo–Fr).",
            "keep_role_contact",
        ),
        ("Helpdesk: phone +41 71 228 44 77, or e-mail it-support@corp.example.", "keep_role_contact"),
        # a person in the sentence makes the number theirs
        ("Reto Gmür, +41 71 228 44 30, or fleet@corp.example.", "redact"),
        # the mailbox is a person's
        ("Bei Fragen: anna.weber@corp.example oder +41 71 228 44 30.", "redact"),
        # the function's mailbox is in another sentence
        ("Call +41 71 228 44 30 if it breaks. Orders go to fleet@corp.example.", "redact"),
        # another cell or line of a signature or table: the number is a person's direct line
        ("Direct: +41 71 228 44 30 | For general enquiries: fleet@corp.example", "redact"),
        ("| Desk phone | +41 71 228 44 30 |\n| Shared | fleet@corp.example |", "redact"),
        # no mailbox at all
        ("Call +41 71 228 44 30 if it breaks.", "redact"),
    ],
)
def test_a_phone_number_beside_a_functions_mailbox_is_the_functions(text: str, decision: str) -> None:
    phone = finding(text, "+41 71 228 44 30" if "44 30" in text else "+41 71 228 44 77", "PHONE")
    others = [phone]
    for value, entity in (
        ("fleet@corp.example", "EMAIL"),
        ("it-support@corp.example", "EMAIL"),
        ("anna.weber@corp.example", "EMAIL"),
        ("Reto Gmür", "PERSON"),
    ):
        if value in text:
            others.append(finding(text, value, entity))
    assert PiiPolicy().decide(phone, text, others) == decision


def test_default_thresholds() -> None:
    assert DEFAULT_THRESHOLDS["PERSON"] == 0.5
    assert DEFAULT_THRESHOLDS["PHONE"] == 0.45
    assert all(0.0 < value <= 1.0 for value in DEFAULT_THRESHOLDS.values())


def test_thresholds_per_entity() -> None:
    text = "Call +1 415-555-0162 or write to maria.fernandes@northwind.example."
    policy = PiiPolicy()
    assert policy.decide(finding(text, "+1 415-555-0162", "PHONE", 0.45), text) == "redact"
    assert policy.decide(finding(text, "+1 415-555-0162", "PHONE", 0.44), text) == "below_threshold"
    assert policy.decide(finding(text, "maria.fernandes@northwind.example", "EMAIL", 0.49), text) == "below_threshold"
    strict = PiiPolicy(thresholds={"PHONE": 0.9})
    assert strict.decide(finding(text, "+1 415-555-0162", "PHONE", 0.8), text) == "below_threshold"
    # An entity without a configured threshold uses 0.5.
    assert strict.decide(finding(text, "maria.fernandes@northwind.example", "EMAIL", 0.5), text) == "redact"


@pytest.mark.parametrize(
    ("text", "value", "score", "decision"),
    [
        # Names are weighed by the recogniser: the policy only applies the PERSON threshold, whatever the text.
        ("Maria Fernandes joined.", "Maria Fernandes", 0.85, "redact"),
        ("Maria Fernandes joined.", "Maria Fernandes", 0.5, "redact"),
        ("Maria Fernandes joined.", "Maria Fernandes", 0.49, "below_threshold"),
        ("## Encoder Mismatch", "Encoder Mismatch", 0.45, "below_threshold"),
        ("## Encoder Mismatch", "Encoder Mismatch", 0.85, "redact"),
    ],
)
def test_person_findings_are_decided_by_score(text: str, value: str, score: float, decision: str) -> None:
    assert PiiPolicy().decide(finding(text, value, "PERSON", score), text) == decision


@pytest.mark.parametrize(
    ("text", "value", "decision"),
    [
        ("Client version 4.2.0.1 is current.", "4.2.0.1", "version_number"),
        ("Installed build 10.0.1.7 yesterday.", "10.0.1.7", "version_number"),
        ("Firmware v2.1.0.3 fixes it.", "2.1.0.3", "version_number"),
        ("My VPN drops since the 4.2.0.1 client update.", "4.2.0.1", "version_number"),
        ("Agent 4.2.0.1 was rolled out.", "4.2.0.1", "version_number"),
        ("Blocked 10.20.30.40 at the firewall.", "10.20.30.40", "redact"),
        ("src=192.168.38.128 app=portal", "192.168.38.128", "redact"),
        # a network in CIDR notation is many hosts; a /32 is one host
        ("Scanners use 10.43.70.0/23 (VLAN 370).", "10.43.70.0/23", "network_range"),
        ("Allow 10.0.0.0/8 through.", "10.0.0.0/8", "network_range"),
        ("Pin the laptop to 10.43.70.17/32.", "10.43.70.17/32", "redact"),
    ],
)
def test_ip_shaped_version_numbers_and_networks_are_kept(text: str, value: str, decision: str) -> None:
    assert PiiPolicy().decide(finding(text, value, "IP_ADDRESS", 0.6), text) == decision


@pytest.mark.parametrize(
    ("text", "value", "decision"),
    [
        ("The prayer room at Kestwick is on level 1.", "Kestwick", "known_place"),
        ("Campuses (Kestwick, Brandholm) share one lodge.", "Kestwick, Brandholm", "known_place"),
        ("Ask Anna Kestwick at the lodge.", "Anna Kestwick", "redact"),  # a person who bears the word
        ("Ask Anna at the lodge.", "Anna", "redact"),
    ],
)
def test_a_name_made_only_of_the_sets_place_words_is_a_known_place(text: str, value: str, decision: str) -> None:
    policy = PiiPolicy(places=frozenset({"Kestwick", "Brandholm"}))
    assert policy.decide(finding(text, value, "PERSON", 0.6), text) == decision
    assert PiiPolicy().decide(finding(text, value, "PERSON", 0.6), text) == "redact"  # no places: as before


def test_below_threshold_wins_over_version_number() -> None:
    text = "Client version 4.2.0.1 is current."
    assert PiiPolicy().decide(finding(text, "4.2.0.1", "IP_ADDRESS", 0.3), text) == "below_threshold"


def test_resolve_overlaps_prefers_confidence_then_length_then_score() -> None:
    a = Finding("PERSON", 0, 10, 0.85, "t")
    b = Finding("EMAIL", 5, 30, 0.6, "t")  # longer and confident: wins over the higher-scoring name
    c = Finding("PHONE", 40, 50, 0.4, "t")
    d = Finding("PHONE", 40, 55, 0.4, "t")  # neither is confident: the longer one
    assert resolve_overlaps([a, b, c, d]) == [b, d]
    assert resolve_overlaps([]) == []


def test_a_whole_address_is_not_cut_down_by_a_name_inside_it() -> None:
    address = Finding("ADDRESS", 0, 40, 0.85, "t")
    name = Finding("PERSON", 10, 25, 1.0, "t")
    assert resolve_overlaps([name, address]) == [address]


def test_a_confident_finding_beats_a_longer_unconfident_one() -> None:
    confident = Finding("CREDIT_CARD", 5, 24, 0.95, "t")
    weak = Finding("PHONE", 0, 30, 0.4, "t")
    assert resolve_overlaps([weak, confident]) == [confident]
    # The bar is a parameter: at 0.3 both are confident and the longer span wins.
    assert resolve_overlaps([weak, confident], confident=0.3) == [weak]


def test_same_length_goes_to_the_higher_score_and_disjoint_findings_are_all_kept() -> None:
    phone = Finding("PHONE", 5, 19, 0.65, "t")
    card = Finding("CREDIT_CARD", 5, 19, 0.95, "t")
    later = Finding("EMAIL", 19, 40, 0.9, "t")  # touching, not overlapping
    first = Finding("PERSON", 0, 4, 0.7, "t")
    assert resolve_overlaps([later, phone, card, first]) == [first, card, later]


def test_trim_strips_whitespace_and_markup_from_names() -> None:
    text = " **Maria Fernandes**, hi "
    assert _trim(text, 0, 21, names_only=True) == (3, 18)
    assert _trim(" +1 415 ", 0, 8, names_only=False) == (1, 7)
    # A trailing period is kept (initials such as "J.").
    assert _trim("Jonas W.", 0, 8, names_only=True) == (0, 8)
    # A name tag that runs onto the next line stops at the line break.
    assert _trim("Kreszentia Wende\nDate", 0, 21, names_only=True) == (0, 16)


def test_placeholders_number_per_type() -> None:
    placeholders = Placeholders()
    assert placeholders.for_value("PERSON", "Maria  Fernandes") == "[PERSON_1]"
    assert placeholders.for_value("EMAIL", "a@b.example") == "[EMAIL_1]"
    assert placeholders.for_value("PERSON", "maria fernandes") == "[PERSON_1]"
    assert placeholders.for_value("PERSON", "Jonas Weber") == "[PERSON_2]"


def test_apply_replacements_in_order_skipping_overlaps() -> None:
    text = "0123456789"
    assert apply_replacements(text, [(6, 8, "B"), (1, 3, "A")]) == "0A345B89"
    assert apply_replacements(text, [(1, 5, "A"), (3, 7, "B")]) == "0A56789"
    assert apply_replacements(text, []) == text


@pytest.mark.parametrize(
    ("text", "value", "decision"),
    [
        # a title-case heading over a body that uses the word as a common noun
        ("## Toner and paper\n\nThe toner is ordered by the print service.", "Toner", "common_word"),
        ("# Interpreter services\n\nAsk for a professional interpreter.", "Interpreter", "common_word"),
        # a name whose lower-case form is only inside an e-mail address or a handle is still a name
        ("From: Olumide Bakare <olumide.bakare@northwind.example>", "Olumide Bakare", "redact"),
        ("Owner: @grace.park, reviewer: Grace Park", "Grace Park", "redact"),
        # every capitalised word must be written in lower case: "hope" alone does not make "Hope Mills" a phrase
        ("Hope Mills will call; we hope it works.", "Hope Mills", "redact"),
    ],
)
def test_a_name_the_text_also_writes_as_a_common_noun_is_kept(text: str, value: str, decision: str) -> None:
    assert PiiPolicy().decide(finding(text, value, "PERSON", 0.6), text) == decision
