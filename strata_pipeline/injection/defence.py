"""Answer-time layers: keep quarantined passages and flagged sentences out of an answer's context,
and check a generated answer against what was supplied. Each layer can be switched off (Defence),
so the eval measures what each one buys.

A passage's flagged sentences are cut out, not rewritten: what remains is verbatim, so quotes from it
still match the source; the cut keeps its newlines, so line numbers do not move.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache

from strata_pipeline.injection.decode import decoded_runs
from strata_pipeline.injection.scanner import Scan, scan
from strata_pipeline.retrieval.candidate import Candidate

FLAG_AT = 0.5
QUARANTINE_AT = 0.8
# A sentence ends at . ! ? before whitespace, or at a newline; "example.com/a?q=1" and "15.30" stay whole.
SENTENCE = re.compile(r"(?:[^\n.!?]|[.!?]+(?![\s.!?]|$))*(?:[.!?]+(?=\s|$)|\n|$)")
URL = re.compile(r"(?:https?://|www\.)[^\s)\]>\"'`]+", re.IGNORECASE)
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
# An opaque token: letters and digits mixed, 8+ characters (a canary, a key, an id a model made up).
TOKEN = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]{6,}[A-Za-z0-9](?![\w-])")


@dataclass(frozen=True)
class Defence:
    sanitise: bool = True  # drop quarantined passages and cut flagged sentences before answering
    validate: bool = True  # withhold a generated answer with a URL, image or token not in the clean context
    flag_at: float = FLAG_AT
    quarantine_at: float = QUARANTINE_AT


@lru_cache(maxsize=8192)
def _scan(text: str, addressed: bool = False) -> Scan:
    return scan(text, addressed)


def sentence_flagged(sentence: str, flag_at: float = FLAG_AT) -> bool:
    """A sentence on its own reads as an instruction to a model."""
    return _scan(sentence).risk >= flag_at


def clean_text(text: str, defence: Defence = Defence()) -> str:
    """`text` with every flagged sentence and every encoded run that decodes to one cut out (newlines kept).

    In a passage that is flagged as a whole, a sentence with any finding goes too: "run the command"
    alone is a runbook, next to "note to the AI" it is part of the attack."""
    whole = _scan(text)
    if not whole.findings:
        return text
    flagged = whole.risk >= defence.flag_at
    cuts = []
    for _encoder, run, decoded in decoded_runs(text):
        if _scan(decoded, flagged).risk >= defence.flag_at:
            cuts += [(m.start(), m.end()) for m in re.finditer(re.escape(run), text)]
    for m in SENTENCE.finditer(text):
        sentence = m.group(0)
        if not sentence.strip():
            continue
        found = _scan(sentence, flagged or whole.addressed)
        if found.risk >= defence.flag_at or (flagged and found.findings):
            cuts.append((m.start(), m.end()))
    out = list(text)
    for start, end in cuts:
        for i in range(start, end):
            if out[i] != "\n":
                out[i] = ""
    return "".join(out)


def quarantined(candidate: Candidate, defence: Defence = Defence()) -> bool:
    """Ingestion's verdict (payload `injection_action`), or the scanner's when the index predates it."""
    payload = candidate.payload
    if "injection_action" in payload:
        return payload["injection_action"] == "quarantine"
    return _scan(payload.get("text") or "").risk >= defence.quarantine_at


def sanitise(candidates: list[Candidate], defence: Defence = Defence()) -> list[Candidate]:
    """The passages an answerer may read: quarantined ones dropped, flagged sentences cut from the rest."""
    kept = []
    for cand in candidates:
        if quarantined(cand, defence):
            continue
        text = cand.payload.get("text") or ""
        cleaned = clean_text(text, defence)
        kept.append(cand if cleaned == text else dataclasses.replace(cand, payload=cand.payload | {"text": cleaned}))
    return kept


def unsupported(output: str, context: list[str], defence: Defence = Defence()) -> list[str]:
    """URLs, markdown images and opaque tokens in `output` that the clean context does not hold.

    The context is cleaned here too (flagged sentences cut), so a canary that only an injected
    sentence carried counts as unsupported even when the prompt was not sanitised."""
    clean = "\n".join(clean_text(text, defence) for text in context)
    lowered = clean.lower()
    found = [m.group(0) for m in IMAGE.finditer(output) if m.group(0) not in clean]
    found += [
        m.group(0).rstrip(".,;:") for m in URL.finditer(output) if m.group(0).rstrip(".,;:").lower() not in lowered
    ]
    found += [m.group(0) for m in TOKEN.finditer(output) if m.group(0).lower() not in lowered]
    return list(dict.fromkeys(found))


def flags(payload: dict, flag_at: float = FLAG_AT) -> list[str]:
    """What a search hit shows: the families found in its chunk at ingestion, and "quarantined"."""
    families = sorted({f.get("family", "") for f in payload.get("injection_findings") or []} - {""})
    risk = float(payload.get("injection_risk") or 0.0)
    out = families if risk >= flag_at else []
    return out + (["quarantined"] if payload.get("injection_action") == "quarantine" else [])
