"""Which capitalised words are people: the name candidates of `names.py`, alone and through Presidio.

The detector-level cases ask what a reader expects to be replaced as a person; the pure-function
cases check the evidence that leads there (honorifics, place words, company suffixes, headings,
chat handles, lower-cased names).
"""

from __future__ import annotations

import pytest
import spacy

from strata_pipeline.redaction.name_evidence import PersonCandidate, token_name_evidence
from strata_pipeline.redaction.name_handles import handle_candidates
from strata_pipeline.redaction.name_index import NameIndex, name_index
from strata_pipeline.redaction.name_layout import column_cells
from strata_pipeline.redaction.names import (
    _same_person_again,
    code_words,
    command_words,
    lowercase_candidates,
    person_candidates,
    programs_run,
    sentence_starts,
    writes_in_case,
)
from strata_pipeline.redaction.pii import SPACY_MODEL, PiiPolicy, PresidioDetector


@pytest.fixture(scope="module")
def nlp() -> spacy.language.Language:
    return spacy.load(SPACY_MODEL)


@pytest.fixture(scope="module")
def index() -> NameIndex:
    return name_index()


def people(detector: PresidioDetector, text: str) -> list[str]:
    """The values redaction replaces as PERSON in `text`."""
    policy = PiiPolicy()
    return [
        text[f.start : f.end]
        for f in detector.detect(text)
        if f.entity == "PERSON" and policy.decide(f, text) == "redact"
    ]


def candidates(nlp: spacy.language.Language, index: NameIndex, text: str) -> dict[str, PersonCandidate]:
    doc = nlp(text)
    ner_people = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "PERSON"]
    return {text[c.start : c.end]: c for c in person_candidates(list(doc), text, index, ner_people)}


# --- through the detector ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an honorific makes any following name a person, and is not part of it
        ("Please ask Mrs Adaeze Okonjo about the invoice.", ["Adaeze Okonjo"]),
        ("Ask Dr. Okafor about the results.", ["Okafor"]),
        ("Frau Hoffmann hat angerufen.", ["Hoffmann"]),
        ("Mr Wilson will join the call.", ["Wilson"]),
        # greetings, introductions, role labels, sign-offs
        ("Hi Lena, thanks for the update.", ["Lena"]),
        ("My name is Aino Hämäläinen.", ["Aino Hämäläinen"]),
        ("Contact: Maria", ["Maria"]),
        ("Assignee: Vitus Niemeier", ["Vitus Niemeier"]),
        ("Apologies: Laurence Bourdon", ["Laurence Bourdon"]),
        ("Thekla van der Dussen joined the team.", ["Thekla van der Dussen"]),
        ("Maria Fernandes joined the team.", ["Maria Fernandes"]),
        ("Regina, Isabel and Sean joined the call.", ["Regina", "Isabel", "Sean"]),
        ("Viele Grüße\nJonas Weber", ["Jonas Weber"]),
        ("Mit freundlichen Grüßen\nJonas Weber", ["Jonas Weber"]),
        ("Ich habe mit Walther von der Vogelweide gesprochen.", ["Walther von der Vogelweide"]),
        ("Der Zahnriemen wurde von Herrn Vogel gewechselt.", ["Vogel"]),
        ("Gottfried Eberhardinger joined the team.", ["Gottfried Eberhardinger"]),
        ("Is there a laptop for Maria Fernandes?", ["Maria Fernandes"]),  # a determiner, then a full name
        ("Gespräch mit Frau von Berg am Montag.", ["von Berg"]),
        ("Cordialement,\nCamille Dubois", ["Camille Dubois"]),
        # "Last, First" filling a cell or following a label is one person
        ("Name: Müller, Hans", ["Müller, Hans"]),
        ("Employee: Müller, Hans (Finance)", ["Müller, Hans"]),
        ("| Müller, Hans | Finance |", ["Müller, Hans"]),
        ("Müller, Hans\nFinance", ["Müller, Hans"]),
        # chat speakers after a time stamp, and @mentions
        ("[09:14] anna.k: can someone restart the VPN?", ["anna.k"]),
        ("2024-03-05 10:22 anna.k: build is green", ["anna.k"]),
        ("10:22 anna.k: build is green", ["anna.k"]),
        ("[09:14] anna.k: restart the VPN?\n[09:15] tom.b: on it", ["anna.k", "tom.b"]),
        ("ping @m.schroeder please", ["m.schroeder"]),
        # listed given names written in lower case
        ("talked to pernille yesterday about the rollout", ["pernille"]),
        ("i'll ask siobhan tomorrow", ["siobhan"]),
        ("pernille and siobhan joined", ["pernille", "siobhan"]),
        # a saint's place name after a given name is a surname; a full name in quoted code is a name
        ("Please call Yves Saint-Laurent tomorrow.", ["Yves Saint-Laurent"]),
        ("Ticket from Marie Saint-Pierre: printer broken", ["Marie Saint-Pierre"]),
        ("Run `git config user.name 'Jonas Weber'` first.", ["Jonas Weber"]),
        ("Lena Hoffmann day off on Friday", ["Lena Hoffmann"]),  # a holiday's "Day" is capitalised
        # a "name" column of surnames is a column of people, though each is also a word
        ("name | team\nWeber | Finance\nHoffmann | HR\nSchmidt | IT", ["Weber", "Hoffmann", "Schmidt"]),
    ],
)
def test_people_are_found(ner: PresidioDetector, text: str, expected: list[str]) -> None:
    assert people(ner, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # given names inside the names of places, things and firms
        "Taxi from Victoria Station to the office.",
        "We use Victoria Station as the meeting point.",
        "The Grace Period ends on Friday.",
        "Grace Period: 30 days",
        "Our Grace Period Policy applies.",
        "Book Room Aurora for the review.",
        "Closed on German Unity Day.",
        "Stanford University published it.",
        "Customer: Hoenle AG (account 4411)",
        "The order was shipped by Hoenle AG yesterday.",
        "Angebot von Hoenle AG, Gilching",
        # title-cased headings
        "## Encoder Mismatch",
        "## Encoder Mismatch\n\nIf the Encoder Mismatch error appears, run the Home Calibration Routine.",
        "## Encoder Mismatch – Home Calibration Routine",
        "## Victoria Release Highlights",
        "# Migration Guide For Jordan Cluster",
        "Troubleshooting Encoder Mismatch On Startup",
        # words that are also given names, used as words
        "May is the busiest month.",
        "See Power Supply for details.",
        "ask will about it",
        "the mark is set",
        # a typing slip of a common word that is also a rare listed name ("Shiping", "Hich")
        "whats the same day shiping cutoff at the porto depo",
        "list price rx300 tow hich",
        # codes, day ranges and versioned products around name-like words
        "hostname | site\nbsl-db-03 | BSL\nmay-app-01 | BSL",
        "Open Mon-Fri 08:00-18:00, Sa-So closed; Mo–Fr by phone.",
        "zrh-db-03 | Rocky Linux 9.4 | prod",
        # German nouns, capitalised by grammar, with a genitive article between them
        "Was ist der Sollwert der Riemenspannung beim RX200?",
        "Sollwert der Riemenspannung",
        "Gibt es am Depot Lyon Ladepunkte für Elektrofahrzeuge?",
        "Wie lange hat das Depot Porto geöffnet?",
        # a lone word after an indefinite or negative determiner; a particle before a site code
        "Welche Server haben kein Duplex und stehen außerhalb von ZRH?",
        "Is there a Laptop in the store room?",
        # ordinary words that a surname list holds somewhere, in a course or product title
        "When does the Python for Automation course start?",
        # a lone word after an interrogative determiner
        "Welcher Kurs ist am günstigsten?",
        # values in quoted code, a product with its version, a place named after a saint
        '```\nawx job_templates launch "Linux Patch - Prod" --limit wave2\n```',
        "Scope: all RHEL 9 and Rocky Linux 9 servers in Zürich.",
        "| Zone | Source |\n|---|---|\n| Colmont | Quelle Saint-Aubin |\n| Nord | Brunnen Sonnenhang |",
        # a "name" column whose cells are things or everyday words, not people
        "code | name\nRNO | Reno Logistics Hub\nMUC | Munich EU Depot\nLIS | Lisbon Depot",
        "level | name | response\n1 | Critical | 15 minutes\n2 | High | 1 hour\n3 | Medium | 4 hours\n4 | Low | 1 day",
        # a holiday named after a person, past the generation
        "2025-01-20 | Martin Luther King Jr. Day | US",
        # a place in a list after a preposition of place
        "The price applies to up to 20,000 kWh in Aarlingen,\nWeißbach and Colmont.",
    ],
)
def test_not_people(ner: PresidioDetector, text: str) -> None:
    assert people(ner, text) == []


def test_a_name_is_one_span_without_its_honorific(ner: PresidioDetector) -> None:
    text = "Please ask Mrs Adaeze Okonjo about the invoice."
    [finding] = [f for f in ner.detect(text) if f.entity == "PERSON"]
    assert (finding.start, finding.end) == (text.index("Adaeze"), text.index(" about"))
    assert finding.score >= 0.9
    assert finding.detector == "presidio-ner:StrataPersonRecognizer"


# --- the evidence, on spaCy tokens ---------------------------------------------------------------


def test_word_evidence_weighs_name_popularity_against_commonness(index: NameIndex) -> None:
    # popular names, even when frequent in text
    assert token_name_evidence("Siobhan", index) > 0.5
    assert token_name_evidence("Wilson", index) > 0.5
    # ordinary words, even when listed somewhere as a name
    assert token_name_evidence("Street", index) < 0
    assert token_name_evidence("Period", index) < 0
    assert token_name_evidence("the", index) < -1
    # a rare word no dictionary knows leans a little towards a name
    assert 0 < token_name_evidence("Kreszentia", index) < 0.5
    assert token_name_evidence("Siobhan", index) > token_name_evidence("Okonjo", index) > 0
    # listed only as a surname somewhere and an ordinary word: weak evidence (0.73 before that rule)
    assert token_name_evidence("Automation", index) < 0.5 < token_name_evidence("Wilson", index)


def test_honorific_is_context_not_part_of_the_name(nlp: spacy.language.Language, index: NameIndex) -> None:
    found = candidates(nlp, index, "Please ask Mrs Adaeze Okonjo about the invoice.")
    assert "Mrs Adaeze Okonjo" not in found
    assert "honorific" in found["Adaeze Okonjo"].reasons
    assert found["Adaeze Okonjo"].score == 1.0


def test_place_and_thing_words_zero_the_candidate(nlp: spacy.language.Language, index: NameIndex) -> None:
    found = candidates(nlp, index, "Taxi from Victoria Station to the office.")
    assert found["Victoria Station"].score == 0.0
    assert found["Victoria Station"].reasons == ["names a place or thing"]


def test_company_suffix_counts_against_a_name(nlp: spacy.language.Language, index: NameIndex) -> None:
    found = candidates(nlp, index, "The order was shipped by Hoenle AG yesterday.")
    assert "company suffix" in found["Hoenle"].reasons
    assert found["Hoenle"].score < 0.3


def test_title_cased_line_counts_against_a_name(nlp: spacy.language.Language, index: NameIndex) -> None:
    found = candidates(nlp, index, "## Encoder Mismatch – Home Calibration Routine")
    assert "title-cased line" in found["Encoder Mismatch"].reasons
    assert found["Encoder Mismatch"].score < 0.3


def test_last_first_after_a_label_is_one_candidate(nlp: spacy.language.Language, index: NameIndex) -> None:
    found = candidates(nlp, index, "Name: Müller, Hans")
    assert "Müller" not in found and "Hans" not in found
    assert found["Müller, Hans"].score >= 0.5
    assert "role label" in found["Müller, Hans"].reasons


def test_a_run_of_names_keeps_particles_inside(nlp: spacy.language.Language, index: NameIndex) -> None:
    found = candidates(nlp, index, "Thekla van der Dussen joined the team.")
    assert found["Thekla van der Dussen"].score >= 0.5


@pytest.mark.parametrize(
    ("text", "handles"),
    [
        ("[09:14] anna.k: can someone restart the VPN?", ["anna.k"]),
        ("2024-03-05 10:22 anna.k: build is green", ["anna.k"]),
        ("<tom.b> hello", ["tom.b"]),
        ("ping @m.schroeder please", ["m.schroeder"]),
        # labels and day names before a colon are not speakers
        ("Attendees: Maria", []),
        ("Note: check this", []),
        ("Monday: off", []),
        ("See https://example.com/a:b", []),
        # a compound with an acronym heads a rule's paragraph: "Ware" is also an English surname
        (
            "TK-Ware: beim Umschlag kurzzeitig bis -15 °C, höchstens 15 Minuten.\n\n"
            "Kühlware: kurzzeitig bis +7 °C, höchstens 30 Minuten.",
            [],
        ),
        ("[09:14] anna-lena.k: can someone restart the VPN?", ["anna-lena.k"]),
    ],
)
def test_handle_candidates(index: NameIndex, text: str, handles: list[str]) -> None:
    found = handle_candidates(text, index)
    assert [text[c.start : c.end] for c in found] == handles
    assert all(c.score >= 0.5 for c in found)


def test_a_personal_handle_shape_scores_higher(index: NameIndex) -> None:
    [initial] = handle_candidates("[09:14] anna.k: hi", index)
    [plain] = handle_candidates("[09:14] anna: hi", index)
    assert initial.score > plain.score >= 0.5


def test_command_words_are_the_programs_quoted_commands_run() -> None:
    text = "List with `barman list-backup kf-erp`.\n```bash\nsudo pgbackrest restore\n$ kerpctl failover\n```\n`kf-erp`"
    assert command_words(text) == {"barman", "pgbackrest", "kerpctl"}


@pytest.mark.parametrize(
    ("text", "cased"),
    [
        ("- Contact pads\n- Drive wheels and lidar windows.\n- Belts.", True),
        ("Hello. I talked to pernille. She agreed.", True),
        ("[09:14] anna.k: hi\n[09:15] bob: talked to pernille\n[09:16] anna.k: ok", False),
        ("talked to pernille yesterday about the rollout", False),  # one start: too little to tell
        # hard-wrapped prose: a line that goes on with a sentence starts nothing
        ("A sketch shows the seating area and the\n   distance to the kerb.\nApply early. Pay the\nfee online.", True),
        # front matter keys and the lower-case items of a list led into by a colon
        ("---\ntitle: Terraces\n---\nAttach:\n\n1. a sketch,\n2. the licence.\nApply by May. Ask the office.", True),
        ("hi all\nsee below\nok\nbye", False),  # no sentence ends: too little to tell
    ],
)
def test_writes_in_case(text: str, cased: bool) -> None:
    assert writes_in_case(text) is cased


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ("One. Two\nthree. Four", "OTF"),  # "three" goes on with the sentence "Two three."
        ("See e.g. the list. Then stop.", "ST"),  # an abbreviation of one letter ends nothing
        ("Steps:\n- open the lid\n- Clean it\n\nDone.", "SCD"),  # a led-in list: only its capitals
        ("id,name,city\nx1,anna,Oslo\nb2,Bo,Rome", "ixb"),  # each delimited row is a record
    ],
)
def test_sentence_starts(text: str, starts: str) -> None:
    assert "".join(sentence_starts(text)) == starts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("talked to pernille yesterday about the rollout", ["pernille"]),
        ("i'll ask siobhan tomorrow", ["siobhan"]),
        # listed as names somewhere, but ordinary words first
        ("ask will about it", []),
        ("the rose garden", []),
        ("the mark is set", []),
    ],
)
def test_lowercase_candidates(nlp: spacy.language.Language, index: NameIndex, text: str, expected: list[str]) -> None:
    found = lowercase_candidates(list(nlp(text)), text, index)
    assert [text[c.start : c.end] for c in found] == expected
    assert all(c.score >= 0.5 and c.reasons == ["lower-case listed name"] for c in found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # registers: SURNAME Given at the start of a line, SURNAME/GIVEN with a title
        (
            "Badge queue:\n- KALNIŅŠ Edgars — Riga Port Authority\n- MWANGI Wanjiru — Nairobi Hub\n",
            ["KALNIŅŠ Edgars", "MWANGI Wanjiru"],
        ),
        ("PNR X7QK2L\n1. OKONKWO/CHIDI MR\n2. WIŚNIEWSKA/HALINA MRS\n", ["OKONKWO/CHIDI", "WIŚNIEWSKA/HALINA"]),
        # a list of names takes in the items the detector doubts on their own
        ("They had 6: Marie, Melody, Brooke, Anna, Brian and April.", ["Marie", "Melody", "Brooke", "Anna", "Brian"]),
        # account names that name a person, where the text says they are accounts
        ("Assigned to: jkowalski", ["jkowalski"]),
        ("failed login for user k.schroeder from 10.42.7.118", ["k.schroeder"]),
        # a speaker in a dialogue between people, though the name is unknown
        (
            "Gabrjel: What a wife.\nChristopher: Remember me?\nRobert: You saved my life!",
            ["Gabrjel", "Christopher", "Robert"],
        ),
        # generational suffixes belong to the name; an apposition to a role marks a person
        ("including Eduard Kvarda Jr. of First Merchants", ["Eduard Kvarda Jr."]),
        ("contact your case worker, Dolores Yazzie, at the office", ["Dolores Yazzie"]),
        # hyphenated Korean given names, capitalised particles, Slack exports with the time after the speaker
        ("Hi Seo-yeon,\nThanks for the deck.", ["Seo-yeon"]),
        ("Alessandro De Luca aggiorna sullo stato della gara.", ["Alessandro De Luca"]),
        ("aiyana  2:41 PM  can someone share the doc?\nmarek  2:42 PM  here it is", ["aiyana", "marek"]),
        # a cell of a name column, whatever its shape
        ("Nom;Prénom;Ville\nN'DIAYE;Mamadou;Lyon\n", ["N'DIAYE", "Mamadou"]),
    ],
)
def test_people_in_registers_lists_accounts_and_dialogues(
    ner: PresidioDetector, text: str, expected: list[str]
) -> None:
    assert people(ner, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # form fields are not chat speakers: their values are names, numbers and codes
        "Trifon Yudin\nMobile: 386 3694\nDesk: 001-585-653-8607\nFax: 296-210-4357\n",
        "Melder: Thijs Koopmans\nDatum: 12-03-2024\nOmschrijving: laptop gestolen",
        "PASSENGER: DUPONT Jean-Baptiste MR\nPNR: K7QX2M   FLIGHT: AF1846\n",
        # job titles under a name, titles alone, weekday abbreviations, a common word opening a sentence
        "Best,\nMariam Al-Khatib\nCompliance Officer\n",
        "Cordiali saluti,\nIng. Gianluca Sbarbaro\nResponsabile Qualità\n",
        "Call 505-555-0137 (Mon–Thu).",
        "Refund approved for order #A-771203.",
        # ordinary accounts
        "failed login for user root from 10.0.0.1",
        # capitalised German compounds, places and things named after people, labels of forms
        "TOP 1: Standplanung und Hotelkontingente",
        "je te confirme la réservation de la salle Victor Hugo pour le séminaire",
        "Flights via Charles de Gaulle airport must be booked early.",
        "Leaver: Jordan Whitfield (Customer Success)",
    ],
)
def test_labels_titles_and_accounts_that_are_not_people(ner: PresidioDetector, text: str) -> None:
    names = people(ner, text)
    assert not any(
        w in names
        for w in (
            "Mobile",
            "Desk",
            "Fax",
            "Melder",
            "Datum",
            "PNR",
            "Compliance Officer",
            "Ing",
            "Responsabile Qualità",
            "Thu",
            "Refund",
            "root",
            "Standplanung",
            "Hotelkontingente",
            "Victor Hugo",
            "Charles de Gaulle",
            "Leaver",
        )
    )


def test_code_words_are_the_words_of_host_codes() -> None:
    text = "Log on to `zrh-uyuni-01`, then mail anna-meier@example.com or check prod-awx-2 and bsl-db-03."
    # hosts give their words; an e-mail's local part and two-letter pieces do not
    assert code_words(text) == frozenset({"zrh", "uyuni", "prod", "awx", "bsl"})


def test_a_system_the_text_writes_as_a_host_code_is_no_person(ner: PresidioDetector) -> None:
    title = "---\ntitle: Monthly Linux patching with Uyuni (valid until 2025-01-31)\n---\n\n"
    # The small NER reads the unknown word after "with" as a person ...
    assert people(ner, title + "Patches were distributed by Uyuni.\n") == ["Uyuni", "Uyuni"]
    # ... unless the text also writes it as part of a host code, or a kind of system follows it.
    assert people(ner, title + "Patches were distributed by Uyuni (`zrh-uyuni-01`).\n") == []
    # (a kind of system after the word reads that mention only; the title's stays the NER's person)
    assert people(ner, title + "Patches were distributed from the Uyuni server.\n") == ["Uyuni"]


def test_people_beside_host_codes_are_still_people(ner: PresidioDetector) -> None:
    text = "The restore of zrh-db-03 was approved by Anna Meier on Monday.\n"
    assert people(ner, text) == ["Anna Meier"]


def test_a_column_is_read_whole_from_any_of_its_cells() -> None:
    text = "| code | name |\n|---|---|\n| RNO | Reno Logistics Hub |\n| MUC | Munich EU Depot |\n\nAfter the table."
    assert column_cells(text, text.index("Munich")) == ["Reno Logistics Hub", "Munich EU Depot"]
    assert column_cells("code,name\nA,Jonas Weber\nB,Lena", len("code,name\nA,")) == ["Jonas Weber", "Lena"]
    assert column_cells("No table here, only prose.", 5) == []


def test_the_programs_a_set_runs_are_read_from_its_quoted_commands() -> None:
    texts = ["List backups with `barman list-backup kf-erp`.", "```\n$ sudo systemctl restart nginx\n```", "Ask Anna."]
    assert programs_run(texts) == {"barman", "systemctl"}
    assert programs_run(["The host anna-pc-01 is Anna's laptop."]) == frozenset()  # host codes are not read


def _readings(text: str, word: str, reasons: list[list[str]], scores: list[float]) -> list[PersonCandidate]:
    """One candidate per occurrence of `word` in `text`, with the given reasons and scores."""
    starts = [i for i in range(len(text)) if text.startswith(word, i)]
    return [PersonCandidate(s, s + len(word), sc, list(r)) for s, r, sc in zip(starts, reasons, scores, strict=True)]


def test_one_person_reading_of_a_word_the_ner_reads_as_a_thing_elsewhere_lifts_nothing(index: NameIndex) -> None:
    """An inventory names a scanner pool "Pool Rampe SG" in nine rows: the NER reads "Rampe" as an ORG or a
    PRODUCT eight times and as a person once. That one reading made the other eight the "same person"."""
    text = "\n".join(f"SC-{k},scanner,Pool Rampe SG" for k in range(4))
    thing = ["name-likeness 0.33", "NER ORG", "capitalised mid-sentence"]
    candidates = _readings(
        text, "Rampe", [thing, thing, ["name-likeness 0.33", "NER person"], thing], [0.2] * 2 + [0.58, 0.2]
    )
    _same_person_again(candidates, text, index)
    assert all(c.score < 0.5 for c in candidates)
    # a full name makes its surname a person's wherever the NER reads it alone
    text = "Anna Weber signs. Weber AG, Weber GmbH and Weber KG are suppliers; ask Weber."
    full = PersonCandidate(0, 10, 0.9, ["full name", "NER person"])
    alone = _readings(text[11:], "Weber", [thing] * 4, [0.2] * 4)
    alone = [PersonCandidate(c.start + 11, c.end + 11, c.score, c.reasons) for c in alone]
    _same_person_again([full, *alone], text, index)
    assert all(c.score >= 0.5 for c in alone)
