"""Answer-time layers: keep quarantined passages and flagged sentences out of an answer's context,
and check a generated answer against what was supplied. Each layer can be switched off (Defence),
so the eval measures what each one buys.

A passage's flagged sentences are cut out, not rewritten: what remains is verbatim, so quotes from it
still match the source; the cut keeps its newlines, so line numbers do not move.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from strata_pipeline.injection.decode import decoded_runs
from strata_pipeline.injection.normalise import ZERO_WIDTH
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
# What else a model could be told to emit and a reader would act on or a renderer would fetch: a host
# with a path (no scheme), an e-mail address, a code word in capitals joined by _ or - (ACCESS_GRANTED),
# and a long run in the base64 alphabet with upper case, lower case and digits (an encoded blob).
HOST_PATH = re.compile(r"(?<![\w@./-])(?:[a-z0-9-]+\.)+[a-z]{2,}/[^\s)\]>\"'`]*", re.IGNORECASE)
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
CODE_WORD = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]*(?:[_-][A-Z0-9]+)+(?![\w-])")
BLOB = re.compile(r"(?<![\w+/])(?=[\w+/]*[a-z])(?=[\w+/]*[A-Z])(?=[\w+/]*\d)[A-Za-z0-9+/]{16,}={0,2}(?![\w+/=])")


@dataclass(frozen=True)
class Defence:
    sanitise: bool = True  # drop quarantined passages and cut flagged sentences before answering
    validate: bool = True  # withhold a generated answer with a URL, image or token not in the clean context
    flag_at: float = FLAG_AT
    quarantine_at: float = QUARANTINE_AT


@lru_cache(maxsize=8192)
def cached_scan(text: str, addressed: bool = False) -> Scan:
    return scan(text, addressed)


def sentence_flagged(sentence: str, flag_at: float = FLAG_AT) -> bool:
    """A sentence on its own reads as an instruction to a model."""
    return cached_scan(sentence).risk >= flag_at


def clean_text(text: str, defence: Defence = Defence()) -> str:
    """`text` with every flagged sentence and every encoded run that decodes to one cut out (newlines kept).

    In a passage that is flagged as a whole, a sentence with any finding goes too: "run the command"
    alone is a runbook, next to "note to the AI" it is part of the attack."""
    whole = cached_scan(text)
    if not whole.findings:
        return text
    flagged = whole.risk >= defence.flag_at
    cuts = []
    for _encoder, run, decoded in decoded_runs(text):
        if cached_scan(decoded, flagged).risk >= defence.flag_at:
            cuts += [(m.start(), m.end()) for m in re.finditer(re.escape(run), text)]
    for m in SENTENCE.finditer(text):
        sentence = m.group(0)
        if not sentence.strip():
            continue
        found = cached_scan(sentence, flagged or whole.addressed)
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
    return cached_scan(payload.get("text") or "").risk >= defence.quarantine_at


def passage_flagged(payload: dict, defence: Defence = Defence()) -> bool:
    """Ingestion (or `sanitise`) flagged this passage as a whole as carrying an injection."""
    risk = float(payload.get("injection_risk") or 0.0)
    return bool(payload.get("injection_flagged")) or risk >= defence.flag_at


def sanitise(candidates: list[Candidate], defence: Defence = Defence()) -> list[Candidate]:
    """The passages an answerer may read: quarantined ones dropped, flagged sentences cut from the rest."""
    kept = []
    for cand in candidates:
        if quarantined(cand, defence):
            continue
        text = cand.payload.get("text") or ""
        cleaned = clean_text(text, defence)
        marks: dict[str, object] = {"text": cleaned} if cleaned != text else {}
        if not passage_flagged(cand.payload, defence) and cached_scan(text).risk >= defence.flag_at:
            marks["injection_flagged"] = True  # the cut text no longer shows it; the validator must know
        kept.append(dataclasses.replace(cand, payload=cand.payload | marks) if marks else cand)
    return kept


def comparable(text: str) -> str:
    """The form output and context are compared in: NFKC, invisible characters removed, case folded,
    so "ＴＮ-880" in a passage supports "tn-880" in an answer. Look-alike letters are not folded: a
    token that exists in the passage only in disguise is not the passage's token."""
    return visible(text).casefold()


def visible(text: str) -> str:
    """NFKC with invisible characters removed: the letters a reader sees, case kept."""
    return ZERO_WIDTH.sub("", unicodedata.normalize("NFKC", text))


def _spans(output: str) -> list[str]:
    """The checkable spans of `output`: markdown images, URLs, hosts with a path, e-mail addresses,
    opaque tokens, code words and encoded blobs, in that order, each once."""
    found = [m.group(0) for m in IMAGE.finditer(output)]
    found += [m.group(0).rstrip(".,;:") for pattern in (URL, HOST_PATH, EMAIL) for m in pattern.finditer(output)]
    found += [m.group(0) for pattern in (TOKEN, CODE_WORD, BLOB) for m in pattern.finditer(output)]
    # a span inside an earlier one (an image's URL, a blob's unpadded body) is the same finding
    kept: list[str] = []
    for span in found:
        if not any(span in other for other in kept):
            kept = [other for other in kept if other not in span] + [span]
    return kept


def unsupported(
    output: str,
    context: list[str],
    defence: Defence = Defence(),
    question: str = "",
    flagged: list[bool] | None = None,
) -> list[str]:
    """URLs, markdown images, e-mail addresses and opaque tokens in `output` that neither the clean
    context nor the question holds (compared after `comparable`).

    The context is cleaned here too (flagged sentences cut), so a canary that only an injected
    sentence carried counts as unsupported even when the prompt was not sanitised; a canary a model
    decoded from base64, morse or spelled-out letters is unsupported because the passage never holds
    it as written. A passage flagged as a whole (by its own scan, or `flagged`: ingestion's verdict
    on the text before it was cut) vouches for no link, address or opaque token of 8+
    characters, even in its uncut sentences: a cut may leave the payload's token behind ("...with
    GANNET-4812-VV only.")."""
    marked = flagged or [False] * len(context)
    vouched = [_vouching(text, defence, mark) for text, mark in zip(context, marked, strict=True)]
    allowed = comparable("\n".join([question, *vouched]))
    return list(dict.fromkeys(span for span in _spans(output) if comparable(span) not in allowed))


def _vouching(text: str, defence: Defence, flagged: bool = False) -> str:
    """What a passage vouches for: its clean text, less the checkable spans of a flagged passage."""
    cleaned = clean_text(text, defence)
    if not flagged and cached_scan(text).risk < defence.flag_at:
        return cleaned
    cleaned = visible(cleaned)  # a token in fullwidth or split by zero-width characters is found too
    for span in sorted((s for s in _spans(cleaned) if len(s) >= 8), key=len, reverse=True):
        cleaned = cleaned.replace(span, " ")
    return cleaned


def describe(spans: list[str]) -> str:
    """What was withheld, by kind only: repeating a withheld URL or image in the reason would deliver it."""
    kinds = []
    for span in spans:
        if IMAGE.fullmatch(span):
            kinds.append("markdown image")
        elif URL.match(span) or HOST_PATH.fullmatch(span):
            kinds.append("link")
        elif EMAIL.fullmatch(span):
            kinds.append("e-mail address")
        else:
            kinds.append("code or token")
    counts = {kind: kinds.count(kind) for kind in dict.fromkeys(kinds)}
    plural = {"markdown image": "markdown images", "link": "links", "e-mail address": "e-mail addresses"}
    plural["code or token"] = "codes or tokens"
    return ", ".join(f"{n} {plural[kind] if n > 1 else kind}" for kind, n in counts.items())


def flags(payload: dict, flag_at: float = FLAG_AT) -> list[str]:
    """What a search hit shows: the families found in its chunk at ingestion, and "quarantined"."""
    families = sorted({f.get("family", "") for f in payload.get("injection_findings") or []} - {""})
    risk = float(payload.get("injection_risk") or 0.0)
    out = families if risk >= flag_at else []
    return out + (["quarantined"] if payload.get("injection_action") == "quarantine" else [])
