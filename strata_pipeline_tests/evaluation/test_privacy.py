"""Redaction quality on the deterministic synthetic corpora, with the real Presidio detector.

Scoring is coverage-based: a planted value is caught when >= 80% of its characters are masked by any
redaction (whatever its type); a detection is wrong when it overlaps no labelled value, planted or neutral.

The Faker corpus (`pii_documents()`) is the project's own regression corpus, not the headline measure
(that is the labelled dev/test sets of `pii_sets.py`): its thresholds sit a little below what the
detector measures today, so that a regression fails. Secrets keep the acceptance bar of the redaction
issue: every planted secret found, at most 1% of the clean documents flagged.
"""

from __future__ import annotations

import ipaddress
import itertools
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.privacy_corpus import PII_TYPES as CORPUS_TYPES
from benchmarks.privacy_corpus import (
    SECRET_KINDS,
    V,
    clean_documents,
    pii_documents,
    regression_jsonl,
    regression_records,
    render,
    secret_documents,
)
from strata_pipeline.evaluation.labels import LabelledDoc, LabelledSecretDoc, Planted
from strata_pipeline.evaluation.pii_sets import (
    BUNDLED,
    PARTS,
    SETS,
    load_set,
    load_snippets,
    regression_clean,
    regression_pii,
    regression_secrets,
)
from strata_pipeline.evaluation.privacy import (
    CAUGHT_SHARE,
    PII_TYPES,
    Detection,
    masked_share,
    match_pii,
    pii_scores,
    scores_from_matches,
    secret_scores,
)
from strata_pipeline.redaction.pii import Finding, PiiPolicy, PresidioDetector
from strata_pipeline.settings import PROJECT_ROOT


@pytest.fixture(scope="module")
def ner() -> PresidioDetector:
    return PresidioDetector()


@pytest.fixture(scope="module")
def docs() -> list[LabelledDoc]:
    return pii_documents()


# --- the corpora -------------------------------------------------------------------------------


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def test_pii_corpus_is_deterministic(docs: list[LabelledDoc]) -> None:
    random.seed(1)  # the global random state plays no part
    assert pii_documents() == docs
    assert pii_documents(seed=8)[0].text != docs[0].text
    assert len(pii_documents(n_docs=10)) == 10


def test_pii_corpus_size_and_coverage(docs: list[LabelledDoc]) -> None:
    counts = Counter(p.type for doc in docs for p in doc.entities)
    assert len(docs) == 120
    assert len({doc.doc_id for doc in docs}) == len(docs)
    assert sum(counts.values()) >= 300
    assert set(counts) == set(CORPUS_TYPES)
    assert set(CORPUS_TYPES) <= set(PII_TYPES)  # every planted type is scored (SSN is not planted here)
    assert all(counts[t] >= 30 for t in CORPUS_TYPES), counts
    assert len({doc.doc_id.split("/")[0] for doc in docs}) >= 5  # several document styles


def test_pii_offsets_are_exact_and_values_have_their_shape(docs: list[LabelledDoc]) -> None:
    for doc in docs:
        spans = sorted(doc.entities, key=lambda p: p.start)
        for previous, span in itertools.pairwise(spans):
            assert previous.end <= span.start, doc.doc_id  # planted values never overlap
        for p in doc.entities:
            value = doc.text[p.start : p.end]
            assert value and value == value.strip(), (doc.doc_id, p)
            digits = "".join(ch for ch in value if ch.isdigit())
            if p.type == "EMAIL":
                assert "@" in value
            elif p.type == "CREDIT_CARD":
                assert 15 <= len(digits) <= 16 and _luhn(digits), value
            elif p.type == "IBAN":
                assert value[:2].isalpha() and value[2:4].isdigit(), value
            elif p.type == "IP_ADDRESS":
                assert isinstance(ipaddress.ip_address(value), ipaddress.IPv4Address)
            elif p.type == "PHONE":
                assert len(digits) >= 7, value
            elif p.type == "PERSON":
                assert not digits and "@" not in value, value
            elif p.type == "ADDRESS":
                assert digits, value  # a street address has a house number


def test_role_contacts_are_in_the_corpus_but_not_planted(docs: list[LabelledDoc]) -> None:
    role_contacts = [doc for doc in docs if "support@" in doc.text or "billing@" in doc.text or "payroll@" in doc.text]
    assert len(role_contacts) >= 20
    for doc in role_contacts:
        emails = [doc.text[p.start : p.end] for p in doc.entities if p.type == "EMAIL"]
        assert not any(e.startswith(("support@", "billing@", "payroll@")) for e in emails)


def test_render_records_exact_spans() -> None:
    text, planted = render(
        "Dear {name}, call {phone}. Ref {ref}.",
        {"name": V("PERSON", "Lena Hoffmann"), "phone": V("PHONE", "+49 30 123456"), "ref": "INC-20419"},
    )
    assert text == "Dear Lena Hoffmann, call +49 30 123456. Ref INC-20419."
    assert planted == [Planted("PERSON", 5, 18), Planted("PHONE", 25, 38)]


def test_secret_corpus_is_deterministic_and_covers_every_kind() -> None:
    docs = secret_documents()
    assert secret_documents() == docs
    counts = Counter(p.type for doc in docs for p in doc.secrets)
    assert set(counts) == set(SECRET_KINDS)
    assert all(n >= 10 for n in counts.values()), counts
    for doc in docs:
        for p in doc.secrets:
            value = doc.text[p.start : p.end]
            assert value and value == value.strip(), (doc.doc_id, p)


def test_clean_corpus_is_deterministic() -> None:
    clean = clean_documents()
    assert clean == clean_documents()
    assert len(clean) >= 100
    assert clean_documents(seed=8) != clean


# --- the metric math on a hand-made labelled set -------------------------------------------------


def test_match_and_scores_by_hand() -> None:
    text = "Lena Hoffmann, lena@corp.example, +49 30 123456, 10.0.0.1, ref 4410-2231"
    doc = LabelledDoc(
        "hand/1.txt",
        text,
        [Planted("PERSON", 0, 13), Planted("EMAIL", 15, 32), Planted("PHONE", 34, 47), Planted("IP_ADDRESS", 49, 57)],
    )
    ref = text.index("4410")
    detections = [
        Detection("PERSON", 0, 4),  # 4 of 13 characters: the name still leaks (missed), but it is no false positive
        Detection("EMAIL", 15, 32),  # exact: caught, correct
        Detection("PERSON", 34, 47),  # the phone, typed PERSON: masked all the same, so caught and correct
        Detection("CREDIT_CARD", 49, 57),  # another type on the IP: caught, correct
        Detection("PHONE", ref, ref + 9),  # overlaps no labelled value: wrong
    ]
    match = match_pii(doc, detections)
    assert match.missed == [Planted("PERSON", 0, 13)]
    assert match.false_positives == [Detection("PHONE", ref, ref + 9)]
    scores = scores_from_matches([match])
    assert scores["pii_recall"] == 0.75
    assert scores["pii_precision"] == 0.8
    assert scores["pii_planted"] == 4.0
    assert scores["pii_detected"] == 5.0
    assert scores["pii_recall_person"] == 0.0
    assert scores["pii_precision_person"] == 1.0  # both PERSON masks overlap a planted value
    assert scores["pii_recall_phone"] == 1.0  # caught by a mask of another type
    assert scores["pii_precision_phone"] == 0.0
    assert scores["pii_recall_ip_address"] == 1.0
    assert scores["pii_precision_ip_address"] == 1.0  # no IP detections: nothing wrong was redacted
    assert scores["pii_recall_address"] == 1.0  # nothing planted
    assert scores["pii_precision_credit_card"] == 1.0
    assert all(isinstance(v, float) for v in scores.values())


def test_a_value_is_caught_when_80_percent_of_it_is_masked() -> None:
    assert CAUGHT_SHARE == 0.8
    name = Planted("PERSON", 0, 10)  # "Jonas Webr": 10 characters
    doc = LabelledDoc("hand/cover.txt", "Jonas Webr said hi.", [name])
    assert masked_share(name, [Detection("PERSON", 0, 8)]) == 0.8
    assert match_pii(doc, [Detection("PERSON", 0, 8)]).missed == []
    assert masked_share(name, [Detection("PERSON", 0, 5)]) == 0.5
    assert match_pii(doc, [Detection("PERSON", 0, 5)]).missed == [name]
    # Coverage is the union of the masks, whatever their types; overlapping masks count once.
    masks = [Detection("PERSON", 0, 4), Detection("ADDRESS", 3, 6), Detection("PHONE", 6, 9)]
    assert masked_share(name, masks) == 0.9
    assert match_pii(doc, masks).missed == []
    assert masked_share(name, [Detection("PERSON", 0, 4), Detection("PERSON", 0, 4)]) == 0.4
    # A mask outside the value covers nothing of it.
    assert masked_share(name, [Detection("PERSON", 10, 19)]) == 0.0


def test_a_secret_mask_covers_a_value_but_is_not_a_pii_detection() -> None:
    text = "login: jonas@corp.example:Falcon2019!"
    email = Planted("EMAIL", 7, 25)
    doc = LabelledDoc("hand/secret.txt", text, [email])
    match = match_pii(doc, [Detection("SECRET", 7, 37)])
    assert match.missed == []
    assert match.detections == [] and match.false_positives == []


def test_masking_a_neutral_span_is_not_a_false_positive() -> None:
    text = "Ship to Heilbronner Straße 150, 70191 Stuttgart, or call the desk in Berlin."
    street = text.index("Heilbronner")
    city = text.index("Stuttgart")
    berlin = text.index("Berlin")
    doc = LabelledDoc(
        "hand/neutral.txt",
        text,
        [Planted("ADDRESS", street, street + len("Heilbronner Straße 150"))],
        neutral=[
            Planted("ZIP_CODE", city - 6, city - 1),
            Planted("GPE", city, city + 9),
            Planted("GPE", berlin, berlin + 6),
        ],
    )
    whole = Detection("ADDRESS", street, city + 9)  # street, postcode and city as one mask
    lone_city = Detection("ADDRESS", berlin, berlin + 6)  # a labelled city alone: neutral, not wrong
    match = match_pii(doc, [whole, lone_city])
    assert match.missed == []
    assert match.false_positives == []
    # A neutral span is never a miss: nothing planted is left when only neutral spans go unmasked.
    assert match_pii(doc, [Detection("ADDRESS", street, street + 22)]).missed == []
    # The same mask on an unlabelled word is wrong.
    desk = text.index("desk")
    assert match_pii(doc, [Detection("PERSON", desk, desk + 4)]).false_positives == [
        Detection("PERSON", desk, desk + 4)
    ]
    scores = scores_from_matches([match])
    assert scores["pii_precision_address"] == 1.0
    assert scores["pii_recall_address"] == 1.0


class ScriptedDetector:
    """Returns fixed findings, to check the scoring path through `redact_text` (not a stand-in for Presidio)."""

    name = "scripted"

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings

    def detect(self, text: str) -> list[Finding]:
        return self.findings


def test_pii_scores_go_through_policy_and_secrets() -> None:
    text = "Mail support@corp.example or lena@corp.example.\npassword: Wint3r-Falc0n!2019\n"
    doc = LabelledDoc("hand/2.txt", text, [Planted("EMAIL", 29, 46)])
    secret_start = text.index("Wint3r")
    detector = ScriptedDetector(
        [
            Finding("EMAIL", 5, 25, 1.0, "scripted"),  # a role mailbox: kept, so not a detection
            Finding("EMAIL", 29, 46, 1.0, "scripted"),
            Finding("PHONE", secret_start, secret_start + 6, 0.9, "scripted"),  # inside a secret: skipped
        ]
    )
    scores = pii_scores(detector, PiiPolicy(), [doc])
    assert scores["pii_recall"] == 1.0
    assert scores["pii_precision"] == 1.0
    assert scores["pii_detected"] == 1.0


def test_secret_scores_need_the_whole_value() -> None:
    text = "token: ghp_7hR2kLp9Qx4Vm1Zc8Tn5Wb3Yd6Fs0Ge2Ja9K\nthe pin is Summer-Falcon-2019 now\n"
    token = text.index("ghp_")
    pin = text.index("Summer")
    docs = [
        LabelledSecretDoc(
            "hand/s.txt",
            text,
            [Planted("github_token", token, token + 40), Planted("prose_password", pin, pin + 18)],
        )
    ]
    scores = secret_scores(docs, ["Release v3.2.1 fixes INC-20419 (3f9c2ab).", "api_key: AKIA4NWR7QK2ZP9TLX3M"])
    assert scores["secret_recall_github_token"] == 1.0
    assert scores["secret_recall_prose_password"] == 0.0  # "the pin is ..." has no key the detector knows
    assert scores["secret_recall"] == 0.5
    assert scores["secret_planted"] == 2.0
    assert scores["clean_docs"] == 2.0
    assert scores["clean_docs_flagged"] == 1.0
    assert scores["clean_flagged_rate"] == 0.5


# --- the labelled sets --------------------------------------------------------------------------


def test_labelled_sets_load_with_exact_offsets() -> None:
    for name in SETS:
        parts = {part: load_set(PROJECT_ROOT / "golden", name, part) for part in PARTS}
        assert not {d.doc_id for d in parts["dev"]} & {d.doc_id for d in parts["test"]}, name
        for part, docs in parts.items():
            assert docs, (name, part)
            for doc in docs:
                for span in list(doc.entities) + list(doc.neutral):
                    assert 0 <= span.start < span.end <= len(doc.text), (name, doc.doc_id, span)
                assert {p.type for p in doc.entities} <= set(PII_TYPES), (name, doc.doc_id)


def test_snippets_plant_every_occurrence_and_keep_neutral_labels(tmp_path: Path) -> None:
    path = tmp_path / "snippets.yaml"
    path.write_text(
        "snippets:\n"
        "  - id: a\n"
        "    text: 'Jonas Weber, Stuttgart. Jonas Weber signs.'\n"
        "    entities:\n"
        "      - {type: PERSON, value: Jonas Weber}\n"
        "      - {type: GPE, value: Stuttgart}\n"
        "      - {type: NRP, value: signs}\n",
        encoding="utf-8",
    )
    [doc] = load_snippets(path)
    assert doc.entities == [Planted("PERSON", 0, 11), Planted("PERSON", 24, 35)]
    assert doc.neutral == [Planted("GPE", 13, 22)]  # labelled, not claimed; unknown labels are dropped
    path.write_text(
        "snippets:\n  - id: b\n    text: 'Hello there.'\n    entities:\n      - {type: PERSON, value: Jonas}\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="'Jonas' is not in its text"):
        load_snippets(path)


# --- regression thresholds on the Faker corpus ---------------------------------------------------

# The project's own regression corpus, NOT the headline measure (that is the labelled dev/test sets in
# golden/privacy/). Each floor is about 0.03 below what the NER detector measured when the detector
# was redesigned (coverage scoring), so that a regression fails:
#   recall:    overall 0.978, PERSON 0.948, ADDRESS 0.987, every other type 1.0
#   precision: overall 0.882, PERSON 0.830, ADDRESS 0.722, PHONE 0.870, every other type 1.0
# Raise them when the detector improves; do not lower them to make a change pass.
FAKER_RECALL = {"PERSON": 0.91, "ADDRESS": 0.95}
FAKER_PRECISION = {"PERSON": 0.80, "ADDRESS": 0.69, "PHONE": 0.84}
FAKER_OTHER = 0.97  # types measured at 1.0


def test_pii_regression_with_the_ner_detector(ner: PresidioDetector, docs: list[LabelledDoc]) -> None:
    scores = pii_scores(ner, PiiPolicy(), docs)
    assert scores["pii_planted"] >= 300
    assert scores["pii_recall"] >= 0.94, scores
    assert scores["pii_precision"] >= 0.85, scores
    for entity in PII_TYPES:  # every type is reported and held to its floor
        key = entity.lower()
        assert scores[f"pii_recall_{key}"] >= FAKER_RECALL.get(entity, FAKER_OTHER), (entity, scores)
        assert scores[f"pii_precision_{key}"] >= FAKER_PRECISION.get(entity, FAKER_OTHER), (entity, scores)


def test_regex_backend_finds_everything_but_names(docs: list[LabelledDoc]) -> None:
    scores = pii_scores(PresidioDetector(use_ner=False), PiiPolicy(), docs)
    assert scores["pii_recall_person"] == 0.0
    assert scores["pii_detected_person"] == 0.0
    for entity in set(PII_TYPES) - {"PERSON"}:
        key = entity.lower()
        assert scores[f"pii_recall_{key}"] >= FAKER_RECALL.get(entity, FAKER_OTHER), (entity, scores)
        assert scores[f"pii_precision_{key}"] >= FAKER_PRECISION.get(entity, FAKER_OTHER), (entity, scores)


# --- secret acceptance ---------------------------------------------------------------------------


def test_secret_acceptance() -> None:
    scores = secret_scores()
    assert scores["secret_recall"] == 1.0, {k: v for k, v in scores.items() if v < 1.0}
    assert all(scores[f"secret_recall_{kind}"] == 1.0 for kind in SECRET_KINDS)
    assert scores["clean_docs"] >= 100
    assert scores["clean_flagged_rate"] <= 0.01


def test_the_committed_regression_sets_are_what_the_generator_writes() -> None:
    """The eval reads golden/privacy/regression-*.jsonl without Faker; they must not drift from the
    generator (rewrite them with `python -m benchmarks.privacy_corpus`)."""
    for name, records in regression_records().items():
        committed = (BUNDLED / f"regression-{name}.jsonl").read_text(encoding="utf-8")
        assert committed == regression_jsonl(records), name
    assert regression_pii() == pii_documents()
    assert regression_secrets() == secret_documents()
    assert regression_clean() == clean_documents()


def test_the_runtime_package_does_not_import_faker() -> None:
    sources = (PROJECT_ROOT / "strata_pipeline").rglob("*.py")
    assert not [p for p in sources if re.search(r"^\s*(from|import) faker\b", p.read_text(), re.M)]
