from __future__ import annotations

import pytest

from strata_pipeline.indexing.store import DENSE, SPARSE
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.priors import (
    History,
    apply_priors,
    asks_about_history,
    history_of,
    named_old_versions,
    prior_of,
    weighted,
)
from strata_pipeline.retrieval.search import Lists, diversify, merge_and_fuse, rank


@pytest.mark.parametrize(
    ("query", "historical"),
    [
        ("In the old remote access policy, how long could a session stay open?", True),
        ("Which VPN client did we use before the current policy took effect?", True),
        ("Under the previous, archived vehicle policy, what was allowed?", True),
        ("Was galt in der vorherigen Version der Richtlinie?", True),
        ("Que disait l'ancienne politique de retour ?", True),
        ("What core charge is billed today if a part is not returned?", False),
        ("How many days do I have to send back a defective part?", False),
        ("Wie breit muss ein Fahrweg sein?", False),
        ("Where is the folder of bolds and golden samples?", False),  # "old" inside words does not count
        # a time before a change named in the past tense
        ("Before the new check-in app was introduced, how often did engineers call in?", True),
        ("What was the recovery target before the second data centre existed?", True),
        ("Welche Frist galt, bevor das neue Portal eingeführt wurde?", True),
        ("Wie lief das vor der Umstellung auf das neue Werkzeug?", True),
        ("Comment faisait-on avant la mise en place du portail ?", True),
        # ... but not a step of a current procedure, nor a deadline
        ("What must be done before replacing the toothed belt?", False),
        ("Bevor das Teil ersetzt wird, was ist zu tun?", False),
        ("Bis wann muss ich Ersatzteile bestellen?", False),
        ("What must I check before the maintenance window starts?", False),
        # "used to" after a form of "be" or "get" is a present passive or "accustomed to", not history
        ("Which paper form did staff use? The form we used to file was SW-1.", True),
        ("Which form is used to request the destruction of electronic records?", False),
        ("Which port is used to reach the monitoring server?", False),
        ("How long does it take to get used to the new portal?", False),
        # a year naming the change, asked in the past tense; a coming event or a date is no history
        ("What was the response time for on-call staff before the 2025 on-call rules?", True),
        ("Which form did we use before the 2024 reform?", True),
        ("What must be done before the 2026 audit?", False),
        ("What was due before the 2025-01-31 deadline?", False),
        # age, names, determiners, present states and former role holders are no history
        ("How old must a child be to get a library card?", False),
        ("Can employees older than 55 work part time?", False),
        ("Ab welchem Alter darf man allein kommen?", False),
        ("Where is the Old Town customer centre?", False),
        ("Wie komme ich zum Alten Markt?", False),
        ("What did the alte Richtlinie say?", True),
        ("Was stand in der alten Richtlinie?", True),
        ("Do I need prior approval for overtime?", False),
        ("What must be checked prior to travel?", False),
        ("What did the prior policy allow?", True),
        ("How much earlier must I arrive?", False),
        ("Was the limit higher in earlier versions?", True),
        ("How long are firewall logs retained, and where are they archived?", False),
        ("Which API versions are deprecated?", False),
        ("Wo werden die Protokolle archiviert?", False),
        ("Welche Formulare sind veraltet?", False),
        ("Où sont-ils archivés ?", False),
        ("What did the deprecated calibration policy require?", True),
        ("Which policy was archived in 2024?", True),
        ("What happens to the accounts of former employees?", False),
        ("Was passiert mit den Konten ehemaliger Mitarbeiter?", False),
        ("What did the former travel policy allow?", True),
        ("Which payment methods are no longer accepted?", False),
    ],
)
def test_asks_about_history(query: str, historical: bool) -> None:
    assert asks_about_history(query) is historical


def test_prior_of_payloads() -> None:
    assert prior_of({}, historical=False) == 1.0  # indexed before priors existed
    assert prior_of({"rank_weight": 0.95}, historical=True) == 0.95
    archived = {"rank_weight": 0.8, "superseded": True}
    assert prior_of(archived, historical=False) == 0.8
    assert prior_of(archived, historical=True) == 1.25  # "the old policy" wants the old policy: 1 / 0.8
    assert weighted(0.5, 0.8) == pytest.approx(0.4) and weighted(-0.5, 0.8) == pytest.approx(-0.625)


def test_a_query_naming_a_year_or_version_wants_the_document_that_carries_it() -> None:
    assert history_of("In the 2023 MFA procedure, how long was the code valid?") == History(False, frozenset({"2023"}))
    assert history_of("What did policy V2 say?").names == {"v2"}
    assert history_of("What does the current policy say?") == History()
    archived = {"doc_id": "access/archive/mfa-enrolment-2023.md", "rank_weight": 0.8, "superseded": True}
    assert prior_of(archived, history_of("the 2023 MFA procedure")) == 1.25
    assert prior_of(archived, history_of("the 2025 MFA procedure")) == 0.8  # another year: still demoted
    assert prior_of(archived, history_of("the MFA procedure")) == 0.8
    titled = {"doc_id": "policies/archive/remote.md", "title": "Remote access policy v2", "superseded": True,
              "rank_weight": 0.8}  # fmt: skip
    assert prior_of(titled, history_of("remote access under v2")) == 1.25
    assert prior_of({"doc_id": "a-2023.md", "rank_weight": 0.95}, history_of("2023")) == 0.95  # only superseded


def test_diversify_lets_other_documents_in_before_a_third_chunk_of_one() -> None:
    def c(doc: str, n: int) -> Candidate:
        return Candidate(f"{doc}#{n}", {"doc_id": doc, "chunk_id": f"{doc}#{n}"})

    ranked = [c("a", 0), c("a", 1), c("a", 2), c("b", 0), c("a", 3), c("c", 0)]
    assert [x.point_id for x in diversify(ranked, 2)] == ["a#0", "a#1", "b#0", "c#0", "a#2", "a#3"]
    assert [x.point_id for x in diversify(ranked, 1)] == ["a#0", "b#0", "c#0", "a#1", "a#2", "a#3"]
    assert diversify(ranked, 0) == ranked


def test_a_front_matter_chunk_takes_none_of_its_documents_places() -> None:
    front = Candidate("a#0", {"doc_id": "a", "text": "---\ntitle: RX-200 specs\ntags: [payload, reach]\n---"})
    intro = Candidate("a#1", {"doc_id": "a", "text": "# RX-200\n\nThe RX-200 is a cobot."})
    table = Candidate("a#2", {"doc_id": "a", "text": "| Reach | 1,100 mm |"})
    other = Candidate("b#0", {"doc_id": "b", "text": "Parts store."})
    assert [x.point_id for x in diversify([front, intro, table, other], 2)] == ["a#0", "a#1", "a#2", "b#0"]
    # a chunk that starts with front matter and goes on with prose counts as usual
    mixed = Candidate("a#0", {"doc_id": "a", "text": "---\ntitle: x\n---\n\nThe RX-200 is a cobot."})
    assert [x.point_id for x in diversify([mixed, intro, table, other], 2)] == ["a#0", "a#1", "b#0", "a#2"]
    ruled = Candidate("a#0", {"doc_id": "a", "text": "---\ntitle: x\n---\n\nProse.\n\n---"})
    assert [x.point_id for x in diversify([ruled, intro, table, other], 2)] == ["a#0", "a#1", "b#0", "a#2"]


def cand(name: str, dense: int, sparse: int, **payload: object) -> Candidate:
    return Candidate(
        name,
        {"doc_id": f"{name}.md", "chunk_id": f"{name}.md#0", **payload},
        ranks={DENSE: dense, SPARSE: sparse},
        scores={DENSE: 1.0 - dense / 10, SPARSE: 10.0 - sparse},
    )


def lists() -> Lists:
    """An archived twin narrowly ahead of the current policy, and an unrelated third document."""
    archived = cand("policy-v1", 1, 2, rank_weight=0.8, rank_rule="superseded-version", superseded=True)
    current = cand("policy", 2, 1)
    other = cand("other", 20, 20)
    candidates = {c.point_id: c for c in (archived, current, other)}
    for c in candidates.values():
        c.fused_score = sum(1 / (r + 59) for r in c.ranks.values())
    archived.fused_score += 1e-6  # Qdrant put it first
    return Lists(candidates, ["policy-v1", "policy", "other"])


def test_a_superseded_twin_yields_to_the_current_document() -> None:
    ranked = rank(lists(), "hybrid")
    assert [c.point_id for c in ranked] == ["policy", "policy-v1", "other"]
    assert ranked[1].prior == 0.8 and ranked[0].prior == 1.0
    assert ranked[1].fused_score == pytest.approx(1 / 60 + 1 / 61 + 1e-6)  # the raw RRF score is kept for explain


def test_a_question_about_history_lifts_the_superseded_twin() -> None:
    ranked = rank(lists(), "hybrid", historical=True)
    assert [c.point_id for c in ranked] == ["policy-v1", "policy", "other"]
    assert [c.prior for c in ranked] == [1.25, 1.0, 1.0]


def test_priors_apply_to_every_mode_and_across_collections() -> None:
    dense = rank(lists(), "dense")  # dense scores .9 (archived) and .8 (current): .9 x .8 = .72 < .8
    assert [c.point_id for c in dense] == ["policy", "policy-v1", "other"]
    pool = list(lists().candidates.values())
    # Merging re-ranks each list by raw score, so "other" is third in both lists there, and 2/62
    # beats the archived twin's (1/60 + 1/61) x 0.8.
    merged = merge_and_fuse(pool, "hybrid", 60, {DENSE: 1.0, SPARSE: 1.0})
    assert [c.point_id for c in merged] == ["policy", "other", "policy-v1"]
    historical = merge_and_fuse(pool, "hybrid", 60, {DENSE: 1.0, SPARSE: 1.0}, historical=True)
    assert [c.point_id for c in historical] == ["policy-v1", "policy", "other"]  # tie: better dense score first


def test_no_priors_leave_the_order_untouched() -> None:
    plain = [cand("a", 1, 1), cand("b", 2, 2)]
    plain[0].fused_score, plain[1].fused_score = 0.01, 0.02  # deliberately out of score order
    assert [c.point_id for c in apply_priors(plain, historical=False)] == ["a", "b"]


def titled(point: str, doc_id: str, title: str, score: float, superseded: bool = False) -> Candidate:
    payload = {"doc_id": doc_id, "title": title, "superseded": superseded, "rank_weight": 0.8 if superseded else 1.0}
    return Candidate(point, payload, fused_score=score)


def patching_runbooks() -> list[Candidate]:
    return [
        titled("now", "runbooks/linux-patching.md", "Monthly Linux patching (current)", 0.0330),
        titled("old", "runbooks/archive/linux-patching-2024.md", "Monthly Linux patching with Uyuni", 0.0328, True),
        titled("inv", "inventory/servers.csv", "servers", 0.0300),
    ]


def test_a_name_only_the_old_version_carries_asks_for_the_old_version() -> None:
    history = history_of("Wann wurden Produktionsserver beim Patchen mit Uyuni gepatcht?")
    assert named_old_versions(patching_runbooks(), history) == {"runbooks/archive/linux-patching-2024.md"}
    ranked = apply_priors(patching_runbooks(), history)
    assert [c.point_id for c in ranked] == ["old", "now", "inv"]
    assert ranked[0].prior == 1.25  # lifted as "the old procedure" would lift it


def test_a_word_current_documents_are_named_by_too_says_nothing_about_the_version() -> None:
    # "Linux" is in both titles; "patching" is no capitalised name; the current path says "mfa" too
    assert named_old_versions(patching_runbooks(), history_of("How does monthly Linux patching work?")) == set()
    assert named_old_versions(patching_runbooks(), history_of("how is patching done with uyuni")) == set()
    mfa = [
        titled("now", "access/mfa-enrolment.md", "Multi-factor authentication enrolment", 0.03),
        titled("old", "access/archive/mfa-enrolment-2023.md", "MFA enrolment (SMS, superseded)", 0.02, True),
    ]
    assert named_old_versions(mfa, history_of("How long is the pass valid for MFA?")) == set()
    assert [c.point_id for c in apply_priors(patching_runbooks(), history_of("Which servers are patched?"))] == [
        "now",
        "inv",
        "old",
    ]


def test_a_year_inside_a_date_labels_no_version() -> None:
    ended = {
        "doc_id": "runbooks/archive/linux-patching-2024.md",
        "title": "Monthly Linux patching (valid until 2025-01-31)",
        "superseded": True,
        "rank_weight": 0.8,
    }
    # "in March 2025" asks about 2025, which this version's date of expiry does not make it
    assert prior_of(ended, history_of("Which printer driver broke printing in Lyon in March 2025?")) == 0.8
    assert prior_of(ended, history_of("How was patching done in 2024?")) == 1.25  # its own year, in its path
    german_date = ended | {"doc_id": "runbooks/archive/patching.md", "title": "Patching (gültig bis 31.01.2025)"}
    assert prior_of(german_date, history_of("Patching 2025")) == 0.8


def test_a_year_that_dates_an_event_in_the_query_names_no_version() -> None:
    ranged = {
        "doc_id": "tariffs/archiv/grundversorgung-2024.md",
        "title": "Grundversorgung – Preise 2024 bis 2025 (archiviert)",
        "superseded": True,
        "rank_weight": 0.8,
    }
    # the month dates the commissioning of a system a current table is asked about; no price list is meant
    assert history_of("Which feed-in rate applies to a system commissioned in September 2025?").names == frozenset()
    assert prior_of(ranged, history_of("Which rate applies to a system commissioned in September 2025?")) == 0.8
    assert history_of("Welche Vergütung gilt für Anlagen, die im März 2025 in Betrieb gingen?").names == frozenset()
    assert history_of("Quel tarif pour une installation mise en service en mars 2025 ?").names == frozenset()
    assert history_of("Which rate applies from 2025-08-01 or 01.08.2025?").names == frozenset()
    # a year standing alone still names the version that carries it
    assert prior_of(ranged, history_of("What was the base price in the 2025 price list?")) == 1.25
    assert history_of("May 2024 and the 2022 rules").names == {"2022"}


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("What were the ICU visiting hours in version 2 of the visitor policy?", {"v2"}),
        ("Was galt in Fassung 3 der Richtlinie?", {"v3"}),
        ("Que disait la révision 2 de la procédure ?", {"v2"}),
        ("In Version 2.4, which port was used?", {"v2.4"}),
        ("What does policy rev. 4 say?", {"v4"}),
        ("Which version of the agent runs on the server?", set()),  # no number: names nothing
        ("What did the price list version 2023 say?", {"2023"}),  # a year stays a year
    ],
)
def test_a_version_spelt_as_a_word_is_named_as_its_short_form(query: str, names: set[str]) -> None:
    assert history_of(query).names == names


def test_a_title_that_spells_out_its_version_labels_it() -> None:
    archived = {
        "doc_id": "policies/archive/visiting.md",
        "title": "Visiting patients (version 2, superseded)",
        "superseded": True,
        "rank_weight": 0.8,
    }
    assert prior_of(archived, history_of("ICU visiting hours in version 2 of the policy")) == 1.25
    assert prior_of(archived, history_of("ICU visiting hours in v2")) == 1.25
    assert prior_of(archived, history_of("ICU visiting hours in version 3")) == 0.8  # another version
    assert prior_of(archived, history_of("ICU visiting hours")) == 0.8
    dated = archived | {"title": "Room prices, version 2023"}
    assert prior_of(dated, history_of("room prices in 2023")) == 1.25
