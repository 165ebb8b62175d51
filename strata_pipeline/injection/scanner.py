"""Scan text for instructions aimed at a model: fold obfuscation, decode encoded runs, match patterns.

Every text is read several ways (views): folded (normalise.fold) and its leetspeak reading, its
rot13 reading, and each base64/base32/hex/url-encoded/morse/spelled-out run decoded. A finding
records its family, the pattern, the matched text (as read) and the encoder it was hidden under.
The risk is 1 - prod(1 - w) over the best weight of each pattern that matched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from strata_pipeline.injection.decode import decoded_runs
from strata_pipeline.injection.normalise import fold, leet, rot13
from strata_pipeline.injection.patterns import PATTERNS, Pattern
from strata_pipeline.injection.vocabulary import ADDRESSEE

ADDRESSEE_WINDOW = 200  # characters either side of a match in which an addressee boosts it
STRONG = 0.6  # a finding this strong in override, role or prompt_leak means the text addresses a model
_TRICKS = ("zero-width", "fullwidth", "enclosed", "homoglyph")  # fold's names for what it undid
LEET_SIGNS = re.compile(r"[0-9@$|!+]")
MAX_SPAN = 160
WEAK = 0.4  # below this a finding is a cue, not evidence (see risk)


@dataclass(frozen=True)
class Finding:
    family: str
    pattern: str
    span: str  # the matched text as read (folded, decoded), cut to MAX_SPAN characters
    encoder: str  # plain, leetspeak, homoglyph, zero-width, fullwidth, enclosed, rot13, base64, morse, ...
    weight: float

    def as_dict(self) -> dict:
        return {
            "family": self.family,
            "pattern": self.pattern,
            "span": self.span,
            "encoder": self.encoder,
            "weight": self.weight,
        }


@dataclass(frozen=True)
class Scan:
    risk: float
    findings: list[Finding] = field(default_factory=list)
    addressed: bool = False  # the text speaks to a model (an addressee or a strong finding)

    @property
    def families(self) -> list[str]:
        return sorted({f.family for f in self.findings})

    @property
    def encoders(self) -> list[str]:
        return sorted({f.encoder for f in self.findings})


@dataclass(frozen=True)
class _Match:
    pattern: Pattern
    view: str  # the folded text the match was found in
    start: int
    end: int
    span: str
    encoder: str


def _views(text: str) -> list[tuple[str, str]]:
    """(encoder, folded text) for every reading of `text`."""
    folded = fold(text)
    base = folded.tricks[0] if folded.tricks else "plain"
    views = [(base, folded.text), ("rot13", rot13(folded.text))]
    for encoder, _run, decoded in decoded_runs(text):
        views.append((encoder, fold(decoded).text))
    return views


def _matches(text: str) -> list[_Match]:
    found = []
    for encoder, view in _views(text):
        leet_view = leet(view)
        for pattern in PATTERNS:
            source = leet_view if pattern.view == "leet" else view
            for m in pattern.regex.finditer(source):
                span = view[m.start() : m.end()]
                leetspeak = pattern.view == "leet" and encoder in ("plain", *_TRICKS) and LEET_SIGNS.search(span)
                label = "leetspeak" if leetspeak else encoder
                found.append(_Match(pattern, view, m.start(), m.end(), span[:MAX_SPAN], label))
    return found


def _near_addressee(match: _Match) -> bool:
    lo, hi = max(0, match.start - ADDRESSEE_WINDOW), match.end + ADDRESSEE_WINDOW
    return ADDRESSEE.search(match.view, lo, hi) is not None


def scan(text: str, addressed: bool = False) -> Scan:
    """Findings and risk of `text`. `addressed=True` says the surrounding text already speaks to a
    model (used when a sentence is scanned on its own, out of a flagged passage)."""
    if not text or not text.strip():
        return Scan(0.0)
    matches = _matches(text)
    strong = any(
        m.pattern.weight >= STRONG and m.pattern.family in ("override", "role", "prompt_leak") for m in matches
    )
    addressed = addressed or strong
    best: dict[tuple[str, str], Finding] = {}
    for m in matches:
        boosted = m.pattern.addressed_weight is not None and (addressed or _near_addressee(m))
        weight = m.pattern.addressed_weight if boosted and m.pattern.addressed_weight is not None else m.pattern.weight
        key = (m.pattern.family, m.pattern.name)
        if key not in best or weight > best[key].weight:
            best[key] = Finding(m.pattern.family, m.pattern.name, m.span, m.encoder, weight)
    findings = sorted(best.values(), key=lambda f: -f.weight)
    return Scan(risk(findings), findings, addressed or any(_near_addressee(m) for m in matches))


def risk(findings: list[Finding]) -> float:
    """1 - prod(1 - w). Weak cues alone (a runbook's "run the command", a URL with a query string)
    do not add up: without a finding of at least WEAK, the risk is the strongest weak one."""
    if not findings or max(f.weight for f in findings) < WEAK:
        return max((f.weight for f in findings), default=0.0)
    remaining = 1.0
    for f in findings:
        remaining *= 1.0 - f.weight
    return round(1.0 - remaining, 4)
