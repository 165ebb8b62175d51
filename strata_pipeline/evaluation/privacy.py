"""Redaction quality on labelled sets: PII recall/precision and secret recall.

A planted personal value counts as caught when at least 80% of its characters are masked by what
the real pipeline path (`redact_text`: secrets first, then detector and policy) replaces, whatever
type the mask has: a masked value no longer leaks. A detection counts as wrong when it overlaps no
labelled value (planted or neutral, see `LabelledDoc`).

A planted secret is found only when the secret detector covers its whole value (a partly replaced
secret still leaks); a clean document is flagged when the secret detector finds anything in it.

Every result is a flat dict of floats with stable keys, so it can go straight into asset metadata.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from strata_pipeline.evaluation.labels import LabelledDoc, LabelledSecretDoc, Planted
from strata_pipeline.evaluation.pii_sets import regression_clean, regression_pii, regression_secrets
from strata_pipeline.redaction.mailboxes import mailbox_words
from strata_pipeline.redaction.names import programs_run
from strata_pipeline.redaction.pii import PiiPolicy
from strata_pipeline.redaction.redact import PiiDetector, redact_text
from strata_pipeline.redaction.secrets import find_secrets

# Reported in this order; types found only in a set follow.
PII_TYPES = ("PERSON", "ADDRESS", "PHONE", "EMAIL", "CREDIT_CARD", "IBAN", "IP_ADDRESS", "SSN")
CAUGHT_SHARE = 0.8  # share of a value's characters that must be masked


@dataclass(frozen=True)
class Detection:
    type: str
    start: int
    end: int


def _overlaps(a: Planted | Detection, b: Planted | Detection) -> bool:
    return a.start < b.end and b.start < a.end


def masked_share(planted: Planted, masks: Sequence[Detection]) -> float:
    """Share of `planted`'s characters covered by the union of `masks`."""
    covered: set[int] = set()
    for mask in masks:
        covered.update(range(max(mask.start, planted.start), min(mask.end, planted.end)))
    return len(covered) / max(1, planted.end - planted.start)


def redaction_masks(text: str, detector: PiiDetector, policy: PiiPolicy) -> list[Detection]:
    """Everything redaction replaces in `text`: secrets (type SECRET) and personal data."""
    audit = redact_text(text, detector, policy).audit
    return [Detection(a.entity, a.start, a.start + a.length) for a in audit if a.decision == "redact"]


def pii_detections(text: str, detector: PiiDetector, policy: PiiPolicy) -> list[Detection]:
    """What redaction replaces in `text` as personal data (secrets excluded)."""
    return [d for d in redaction_masks(text, detector, policy) if d.type != "SECRET"]


@dataclass
class PiiMatch:
    """Per document: planted values that were missed, detections that matched nothing."""

    doc_id: str
    missed: list[Planted]
    false_positives: list[Detection]
    planted: list[Planted]
    detections: list[Detection]


def match_pii(doc: LabelledDoc, masks: Sequence[Detection]) -> PiiMatch:
    """Score one document. `masks` is all that redaction replaced, secrets included."""
    detections = [m for m in masks if m.type != "SECRET"]
    labelled = list(doc.entities) + list(doc.neutral)
    missed = [p for p in doc.entities if masked_share(p, masks) < CAUGHT_SHARE]
    false_positives = [d for d in detections if not any(_overlaps(d, p) for p in labelled)]
    return PiiMatch(doc.doc_id, missed, false_positives, list(doc.entities), detections)


def pii_matches(
    detector: PiiDetector, policy: PiiPolicy | None = None, docs: Iterable[LabelledDoc] | None = None
) -> list[PiiMatch]:
    docs = list(regression_pii() if docs is None else docs)
    # read over the whole set first, as redaction reads a source-set (redaction/documents.py)
    policy = dataclasses.replace(
        policy or PiiPolicy(),
        mailbox_words=mailbox_words(doc.text for doc in docs),
        systems=programs_run(doc.text for doc in docs),
    )
    return [match_pii(doc, redaction_masks(doc.text, detector, policy)) for doc in docs]


def _ratio(numerator: int, denominator: int, empty: float) -> float:
    return numerator / denominator if denominator else empty


def scores_from_matches(matches: Sequence[PiiMatch]) -> dict[str, float]:
    """Recall and precision overall and per type; a type with no detections has precision 1.0 (nothing
    wrong was redacted) and one with nothing planted has recall 1.0."""
    seen = {d.type for m in matches for d in m.detections} | {p.type for m in matches for p in m.planted}
    types = list(PII_TYPES) + sorted(seen - set(PII_TYPES))
    scores: dict[str, float] = {}
    totals = {"planted": 0, "found": 0, "detected": 0, "correct": 0}
    for entity in types:
        planted = sum(1 for m in matches for p in m.planted if p.type == entity)
        missed = sum(1 for m in matches for p in m.missed if p.type == entity)
        detected = sum(1 for m in matches for d in m.detections if d.type == entity)
        wrong = sum(1 for m in matches for d in m.false_positives if d.type == entity)
        key = entity.lower()
        scores[f"pii_recall_{key}"] = _ratio(planted - missed, planted, 1.0)
        scores[f"pii_precision_{key}"] = _ratio(detected - wrong, detected, 1.0)
        scores[f"pii_planted_{key}"] = float(planted)
        scores[f"pii_detected_{key}"] = float(detected)
        totals["planted"] += planted
        totals["found"] += planted - missed
        totals["detected"] += detected
        totals["correct"] += detected - wrong
    scores["pii_recall"] = _ratio(totals["found"], totals["planted"], 1.0)
    scores["pii_precision"] = _ratio(totals["correct"], totals["detected"], 1.0)
    scores["pii_planted"] = float(totals["planted"])
    scores["pii_detected"] = float(totals["detected"])
    scores["pii_docs"] = float(len(matches))
    return scores


def pii_scores(
    detector: PiiDetector, policy: PiiPolicy | None = None, docs: Iterable[LabelledDoc] | None = None
) -> dict[str, float]:
    """PII recall and precision of `detector` + `policy` on `docs` (default: the synthetic corpus)."""
    return scores_from_matches(pii_matches(detector, policy, docs))


def _covered(planted: Planted, spans: Sequence[tuple[int, int]]) -> bool:
    """True when the union of `spans` covers planted.start..planted.end."""
    position = planted.start
    for start, end in sorted(spans):
        if start <= position < end:
            position = end
        if position >= planted.end:
            return True
    return position >= planted.end


def missed_secrets(docs: Iterable[LabelledSecretDoc]) -> list[tuple[str, Planted]]:
    missed = []
    for doc in docs:
        spans = [(s.start, s.end) for s in find_secrets(doc.text)]
        missed += [(doc.doc_id, p) for p in doc.secrets if not _covered(p, spans)]
    return missed


def secret_scores(
    docs: Iterable[LabelledSecretDoc] | None = None, clean: Iterable[str] | None = None
) -> dict[str, float]:
    """Share of planted secrets fully covered by `find_secrets`, per kind; clean documents flagged."""
    docs = list(regression_secrets() if docs is None else docs)
    clean = list(regression_clean() if clean is None else clean)
    missed = missed_secrets(docs)
    kinds = list(dict.fromkeys(p.type for d in docs for p in d.secrets))  # in the order they first appear
    scores: dict[str, float] = {}
    for kind in kinds:
        planted = sum(1 for d in docs for p in d.secrets if p.type == kind)
        lost = sum(1 for _, p in missed if p.type == kind)
        scores[f"secret_recall_{kind}"] = _ratio(planted - lost, planted, 1.0)
        scores[f"secret_planted_{kind}"] = float(planted)
    planted_total = sum(len(d.secrets) for d in docs)
    scores["secret_recall"] = _ratio(planted_total - len(missed), planted_total, 1.0)
    scores["secret_planted"] = float(planted_total)
    flagged = sum(1 for text in clean if find_secrets(text))
    scores["clean_docs"] = float(len(clean))
    scores["clean_docs_flagged"] = float(flagged)
    scores["clean_flagged_rate"] = _ratio(flagged, len(clean), 0.0)
    return scores


GAP_WARNING = 0.05  # a dev/test gap above this is called out: the detector may be tuned to dev


def labelled_set_figures(
    detector: PiiDetector, policy: PiiPolicy, sets: dict[tuple[str, str], list[LabelledDoc]]
) -> dict[str, float]:
    """Headline figures on the labelled sets: test parts pooled (the figure), dev beside it.

    `sets` maps (set name, part) to documents. Keys: pii_recall / pii_precision (test), the same with
    _dev, per type pii_recall_<type>[_dev], per set pii_<set>_recall[_dev] and _precision[_dev], and
    pii_dev_test_gap, the largest dev/test difference of any set's recall or precision.
    """
    matches = {key: pii_matches(detector, policy, docs) for key, docs in sets.items()}
    figures: dict[str, float] = {}
    pooled = {
        part: scores_from_matches([m for (_, p), ms in matches.items() if p == part for m in ms])
        for part in ("test", "dev")
    }
    for part, suffix in (("test", ""), ("dev", "_dev")):
        scores = pooled[part]
        figures[f"pii_recall{suffix}"] = scores["pii_recall"]
        figures[f"pii_precision{suffix}"] = scores["pii_precision"]
        figures[f"pii_planted{suffix}"] = scores["pii_planted"]
        for entity in PII_TYPES:
            if pooled["test"].get(f"pii_planted_{entity.lower()}", 0) or pooled["dev"].get(
                f"pii_planted_{entity.lower()}", 0
            ):
                figures[f"pii_recall_{entity.lower()}{suffix}"] = scores[f"pii_recall_{entity.lower()}"]
                figures[f"pii_precision_{entity.lower()}{suffix}"] = scores[f"pii_precision_{entity.lower()}"]
    gap = 0.0
    for name in sorted({name for name, _ in sets}):
        per_part = {part: scores_from_matches(matches.get((name, part), [])) for part in ("test", "dev")}
        for metric in ("recall", "precision"):
            figures[f"pii_{name}_{metric}"] = per_part["test"][f"pii_{metric}"]
            figures[f"pii_{name}_{metric}_dev"] = per_part["dev"][f"pii_{metric}"]
            gap = max(gap, abs(per_part["test"][f"pii_{metric}"] - per_part["dev"][f"pii_{metric}"]))
    figures["pii_dev_test_gap"] = gap
    return figures


def privacy_markdown(figures: dict[str, float], set_names: Sequence[str]) -> str:
    """A small table for the UI: test and dev recall/precision per type and per set."""
    lines = ["| | test recall | test precision | dev recall | dev precision |", "|---|---|---|---|---|"]
    rows = [("all", "")] + [(e, f"_{e.lower()}") for e in PII_TYPES if f"pii_recall_{e.lower()}" in figures]
    rows += [(f"set: {name}", f"_{name}") for name in set_names]
    for label, key in rows:
        recall, precision = (
            (f"pii{key}_recall", f"pii{key}_precision")
            if label.startswith("set:")
            else (
                f"pii_recall{key}",
                f"pii_precision{key}",
            )
        )
        lines.append(
            f"| {label} | {figures[recall]:.3f} | {figures[precision]:.3f} | "
            f"{figures[recall + '_dev']:.3f} | {figures[precision + '_dev']:.3f} |"
        )
    if figures.get("pii_dev_test_gap", 0.0) > GAP_WARNING:
        lines.append(
            f"\n**Dev/test gap {figures['pii_dev_test_gap']:.3f} > {GAP_WARNING}**: the detector does better on the "
            "part it was tuned on; trust the test figures."
        )
    return "\n".join(lines)
