"""The labelled personal-data sets that redaction is measured on, each split into dev and test.

- `presidio`: sentences from Microsoft's presidio-evaluator generator (its templates and fake
  person records), committed as JSONL by `golden/privacy/generate_presidio_sets.py`.
- `snippets`: hand-written enterprise snippets (signatures, CSV rows, chat logs, addresses and
  phones of several countries, look-alikes that are not personal data) in YAML.

*dev* may be inspected and tuned on; *test* is only scored. The project's own synthetic corpus
(`regression-*.jsonl`, written by `benchmarks/privacy_corpus.py`) is a regression set, not one of
these.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from strata_pipeline.evaluation.labels import LabelledDoc, LabelledSecretDoc, Planted

PARTS = ("dev", "test")
SETS = ("presidio", "snippets")

# Label -> the placeholder type we redact it as. Labels of either set's vocabulary map here.
COUNTED: dict[str, str] = {
    "PERSON": "PERSON",
    "STREET_ADDRESS": "ADDRESS",
    "ADDRESS": "ADDRESS",
    "PHONE_NUMBER": "PHONE",
    "PHONE": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "EMAIL": "EMAIL",
    "CREDIT_CARD": "CREDIT_CARD",
    "IBAN_CODE": "IBAN",
    "IBAN": "IBAN",
    "IP_ADDRESS": "IP_ADDRESS",
    "US_SSN": "SSN",
}
# Labelled, personal or part of an address, but not a value we claim on its own: a city or state
# (GPE), a postcode alone, a driving licence number. Masking one is not a false positive.
NEUTRAL = frozenset({"GPE", "ZIP_CODE", "US_DRIVER_LICENSE"})


def _split_labels(spans: list[Planted]) -> tuple[list[Planted], list[Planted]]:
    counted = [Planted(COUNTED[s.type], s.start, s.end) for s in spans if s.type in COUNTED]
    neutral = [s for s in spans if s.type in NEUTRAL]
    return counted, neutral


def load_presidio(path: Path) -> list[LabelledDoc]:
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        spans = [Planted(e["type"], e["start"], e["end"]) for e in record["entities"]]
        counted, neutral = _split_labels(spans)
        docs.append(LabelledDoc(record["id"], record["text"], counted, neutral))
    return docs


def _occurrences(text: str, value: str) -> list[tuple[int, int]]:
    spans, start = [], text.find(value)
    while start >= 0:
        spans.append((start, start + len(value)))
        start = text.find(value, start + len(value))
    return spans


def load_snippets(path: Path) -> list[LabelledDoc]:
    """Every occurrence of a labelled value is planted; a value missing from its text is an error."""
    docs = []
    for snippet in yaml.safe_load(path.read_text(encoding="utf-8"))["snippets"]:
        text = snippet["text"]
        spans = []
        for entity in snippet.get("entities") or []:
            found = _occurrences(text, entity["value"])
            if not found:
                raise ValueError(f"{path.name}: {snippet['id']}: {entity['value']!r} is not in its text")
            spans += [Planted(entity["type"], start, end) for start, end in found]
        counted, neutral = _split_labels(spans)
        docs.append(LabelledDoc(snippet["id"], text, counted, neutral))
    return docs


BUNDLED = Path(__file__).resolve().parents[2] / "golden" / "privacy"


def privacy_dir(golden_dir: Path) -> Path:
    """`<golden_dir>/privacy` when the golden folder has its own sets, else the ones shipped with the
    project: a corpus's own golden questions do not replace the detector's labelled sets."""
    own = Path(golden_dir) / "privacy"
    return own if (own / "presidio-dev.jsonl").exists() else BUNDLED


def load_set(golden_dir: Path, name: str, part: str) -> list[LabelledDoc]:
    """One part ('dev' or 'test') of one labelled set ('presidio' or 'snippets')."""
    folder = privacy_dir(golden_dir)
    if name == "presidio":
        return load_presidio(folder / f"presidio-{part}.jsonl")
    if name == "snippets":  # a part may come in several files: snippets-dev.yaml, snippets-dev-b.yaml
        files = sorted(folder.glob(f"snippets-{part}.yaml")) + sorted(folder.glob(f"snippets-{part}-*.yaml"))
        return [doc for path in files for doc in load_snippets(path)]
    raise ValueError(f"Unknown PII set {name!r}: use one of {', '.join(SETS)}.")


def _records(name: str) -> list[dict]:
    path = BUNDLED / f"regression-{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def regression_pii() -> list[LabelledDoc]:
    """The regression set's documents with planted personal data (all types counted as labelled)."""
    return [
        LabelledDoc(r["id"], r["text"], [Planted(e["type"], e["start"], e["end"]) for e in r["entities"]])
        for r in _records("pii")
    ]


def regression_secrets() -> list[LabelledSecretDoc]:
    """The regression set's documents with planted secrets (the span is the value only)."""
    return [
        LabelledSecretDoc(r["id"], r["text"], [Planted(e["type"], e["start"], e["end"]) for e in r["secrets"]])
        for r in _records("secrets")
    ]


def regression_clean() -> list[str]:
    """Texts with no secret in them that look as if they might hold one."""
    return [r["text"] for r in _records("clean")]
