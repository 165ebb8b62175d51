"""Secret detection by shape (token formats, PEM blocks, high entropy) and by context (key: value).

Only the secret *value* is replaced; the label stays, so `api_key: [REDACTED_SECRET]` still tells
a reader which key was removed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

SECRET_PLACEHOLDER = "[REDACTED_SECRET]"

SECRET_KEY_WORDS = (
    r"pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|client[_-]?secret|auth[_-]?key|credential|signing[_-]?key|encryption[_-]?key"
)

# Shape patterns: (kind, regex). The whole match is the secret.
SHAPE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "pem_private_key",
        re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----"),
    ),
    ("aws_access_key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github_token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b")),
    ("stripe_key", re.compile(r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b")),
    ("openai_style_key", re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b")),
    ("slack_token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
]

# Context patterns: only the named group `value` is the secret.
CONTEXT_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "key_value",
        re.compile(
            r"(?im)^[ \t\-*>#]*(?:export[ \t]+|set[ \t]+)?"  # shell exports count too
            rf"[\"']?[\w.\-]*(?:{SECRET_KEY_WORDS})[\w.\-]*[\"']?[ \t]*[:=][ \t]*"
            r"[\"']?(?!\[)(?P<value>[^\s\"',;]{4,})[\"']?[ \t]*,?[ \t]*$"
        ),
    ),
    # scheme://user:password@host, the user may be empty (redis://:password@host)
    ("connection_string", re.compile(r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]*:(?P<value>[^\s@/]{3,})@")),
    # name@example.com:password dumps; not URLs (user:pass@host:port/db) and not git@host:org/repo
    (
        "email_password",
        re.compile(r"(?<![\w:/.+\-])[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+:(?P<value>[^\s@:/]{6,})(?=\s|$)"),
    ),
]

HIGH_ENTROPY_TOKEN = re.compile(r"(?<![\w/+=\-])[A-Za-z0-9+/_\-]{24,}={0,2}(?![\w/+=\-])")
HEX_TOKEN = re.compile(r"\b[0-9a-fA-F]{32,}\b")


@dataclass(frozen=True)
class SecretSpan:
    start: int
    end: int
    kind: str


def shannon_entropy(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


def _looks_random(token: str) -> bool:
    has_letters = any(c.isalpha() for c in token)
    has_digits = any(c.isdigit() for c in token)
    has_mixed_case = any(c.islower() for c in token) and any(c.isupper() for c in token)
    return has_letters and has_digits and has_mixed_case and shannon_entropy(token) >= 4.0


def find_secrets(text: str) -> list[SecretSpan]:
    """Every secret value in `text`, as non-overlapping spans sorted by position."""
    spans: list[SecretSpan] = []
    for kind, pattern in SHAPE_PATTERNS:
        spans += [SecretSpan(m.start(), m.end(), kind) for m in pattern.finditer(text)]
    for kind, pattern in CONTEXT_PATTERNS:
        spans += [SecretSpan(m.start("value"), m.end("value"), kind) for m in pattern.finditer(text)]
    spans += [SecretSpan(m.start(), m.end(), "hex_token") for m in HEX_TOKEN.finditer(text)]
    spans += [
        SecretSpan(m.start(), m.end(), "high_entropy")
        for m in HIGH_ENTROPY_TOKEN.finditer(text)
        if _looks_random(m.group())
    ]
    return merge_spans(spans)


def merge_spans(spans: list[SecretSpan]) -> list[SecretSpan]:
    """Union overlapping spans; the earliest-starting (then longest) span names the kind."""
    merged: list[SecretSpan] = []
    for span in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = SecretSpan(last.start, max(last.end, span.end), last.kind)
        else:
            merged.append(span)
    return merged


def placeholder_for(secret_text: str) -> str:
    """Keep the line count of a multi-line secret, so line numbers still match the source file."""
    return SECRET_PLACEHOLDER + "\n" * secret_text.count("\n")
