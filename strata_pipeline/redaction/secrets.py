"""Secret detection by shape (token formats, PEM blocks, high entropy) and by context (key: value).

Only the secret *value* is replaced; the label stays, so `api_key: [REDACTED_SECRET]` still tells
a reader which key was removed.

What looks random but is published on purpose is left alone: commit SHAs, checksums and image
digests, trace ids, certificates and public keys, Subresource-Integrity hashes, and long
CamelCase identifiers. What names a secret without holding it is left alone too: references
(`${DB_PASSWORD}`, `var.db_password`, `os.environ[...]`, `getpass()`), placeholders
(`<your-key>`, `changeme`) and settings about secrets (`token_ttl_seconds: 3600`,
`secret_name: db-credentials`, `password_min_length: 12`).
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
    ("gitlab_token", re.compile(r"\bgl(?:pat|dt|rt|ptt|ft|cbt|oas|soat)-[A-Za-z0-9_\-]{20,}(?![\w\-])")),
    ("stripe_key", re.compile(r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b")),
    ("openai_style_key", re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b")),
    ("slack_token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}(?![\w\-])")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("npm_token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("sendgrid_key", re.compile(r"\bSG\.[A-Za-z0-9_\-]{20,24}\.[A-Za-z0-9_\-]{40,46}(?![\w\-])")),
]

_CONNECTION_KEYS = "password|pwd|accountkey|sharedaccesskey|sharedaccesssignature"

# Context patterns: only the named group `value` is the secret.
CONTEXT_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "key_value",
        # The key starts a line or follows a space ("[09:12] tom: DB_PASSWORD=..."); the value ends it.
        re.compile(
            r"(?im)(?:^|(?<=[\s(\[{,;]))[\-*>#]*[ \t]*(?:export[ \t]+|set[ \t]+)?"  # shell exports count too
            rf"(?P<key>[\"']?[\w.\-]*(?:{SECRET_KEY_WORDS})[\w.\-]*[\"']?)[ \t]*[:=][ \t]*"
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
    # A UUID is an API key when a secret word precedes it on the line ("Datadog API key 3f6c...",
    # "X-API-Key: 3f6c..."); elsewhere it is a request or record id.
    (
        "uuid_key",
        re.compile(
            r"(?i)(?:api[_ \-]?key|apikey|token|secret|password|access[_ \-]?key|licen[cs]e[_ \-]?key)"
            r"[^\n]{0,40}?(?<![\w\-])(?P<value>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![\w\-])"
        ),
    ),
    # .NET and Azure connection strings: "Server=...;Password=...;", "AccountKey=...;". The pair must be
    # part of a ;-separated list, so `password=password)` in code is not one.
    (
        "connection_string",
        re.compile(rf"(?i)(?<=;)[ \t]*(?:{_CONNECTION_KEYS})=(?P<value>[^;\s\"']{{4,}})"),
    ),
    (
        "connection_string",
        re.compile(rf"(?i)(?<![\w.\-])(?:{_CONNECTION_KEYS})=(?P<value>[^;\s\"']{{4,}})(?=;)"),
    ),
    # Secrets in a URL: the Slack webhook path, or a query parameter named like a secret.
    ("slack_webhook", re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/(?P<value>[A-Za-z0-9/_\-]{20,})")),
    (
        "url_secret",
        re.compile(
            r"(?i)[?&](?:access_token|token|api_key|apikey|key|secret|client_secret|password|sig|signature|auth)="
            r"(?P<value>[^&\s#\"'<>]{8,})"
        ),
    ),
    # AWS secret access keys are 40 characters of base64 after "secret access key" or "secret key".
    (
        "aws_secret_key",
        re.compile(
            r"(?i)(?:aws[_ \-]?)?secret[_ \-]?(?:access[_ \-]?)?key\b[^\n]{0,30}?"
            r"(?<![A-Za-z0-9/+])(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
    ),
]

HIGH_ENTROPY_TOKEN = re.compile(r"(?<![\w/+=\-])[A-Za-z0-9+/_\-]{24,}={0,2}(?![\w/+=\-])")
HEX_TOKEN = re.compile(r"\b[0-9a-fA-F]{32,}\b")

# Published, not secret: certificates and public keys, and the key blob after an SSH key type.
PUBLIC_BLOCK = re.compile(
    r"-----BEGIN (?:CERTIFICATE|TRUSTED CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|SSH2 PUBLIC KEY|X509 CRL"
    r"|(?:NEW )?CERTIFICATE REQUEST|PGP PUBLIC KEY BLOCK|PGP SIGNATURE)-----[\s\S]*?-----END [A-Z0-9 ]+-----"
)
SSH_KEY_TYPE_BEFORE = re.compile(
    r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)[ \t]+$"
)
# A digest, checksum or id announced as such on its line ("commit 3f9c...", "sha256:...",
# "trace_id=...", "integrity=\"sha384-...\""), unless a secret word is there too.
DIGEST_CONTEXT = re.compile(
    r"(?i)(?:sha-?(?:1|224|256|384|512)|md5|checksum|digest|hash|commit|revision|\brev\b|trace|span|etag"
    r"|fingerprint|integrity|object|blob|tree|parent|request[_ \-]?id|correlation|build|uuid|\bhex\b)"
)
URL = re.compile(r"\b(?:https?|s3|gs|ftp)://[^\s\"'<>()\[\]]+")
FILE_EXTENSION_AFTER = re.compile(r"\.[A-Za-z][A-Za-z0-9]{1,4}\b")
SRI_PREFIX = re.compile(r"(?i)sha(?:256|384|512)-")
CHECKSUM_LINE_AFTER = re.compile(r"(?:  | \*)[\w.\-/]+\.\w+")  # "<sha256>  helix-1.2.3.tar.gz" (sha256sum)
SECRET_WORD = re.compile(rf"(?i){SECRET_KEY_WORDS}|\bkey\b")

# Values of secret-named keys that are not secrets.
NOT_SECRET_VALUES = frozenset(
    "true false null none nil yes no on off required optional enabled disabled unset empty hidden masked redacted "
    "n/a tbd todo changeme change_me change-me changeit replace_me replaceme placeholder example dummy secret "
    "password token string str bytes int bool boolean number any object".split()
)
REFERENCE_PREFIXES = ("$", "%(", "{{", "<", "#{", "env:", "vault:", "secret:", "ssm:", "arn:", "ref+", "op://")
DOTTED_REFERENCE = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+")  # var.db_password, settings.secret_key
SECRET_NAME = re.compile(
    r"(?i)(?:(?:self|this|cls)\.)?(?:[a-z]+_)*(?:pass(?:word|wd)?|pwd|secret|token|key|api_?key|credentials?)"
    r"(?:_[a-z]+)*"
)
PLACEHOLDER_VALUE = re.compile(r"(?i)^(?:your|my)[_\-]|[_\-](?:here|goes[_\-]here)$|^x{4,}$|^\*{3,}$|^\.{3}$")
# Words in a key that make it a setting about a secret, or a pointer to one, rather than the secret.
SETTING_WORDS = frozenset(
    "name names file path ref existing length len min max ttl seconds secs minutes hours days expiry expires "
    "expiration timeout lifetime age rotation policy enabled required type field header version count format "
    "mount env var provider manager store location dir prefix suffix url uri endpoint limit size tokens "
    "strategy mode method algorithm scheme mechanism backend flow grant source style kind".split()
)
KEY_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


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
    return has_letters and has_digits and has_mixed_case and shannon_entropy(token) >= 4.0 and not _is_identifier(token)


def _is_identifier(token: str) -> bool:
    """CamelCase names ("DefaultOAuth2AuthorizedClientManager") are runs of words; random tokens
    change case or class every one or two characters."""
    runs = re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^A-Za-z\d]+", token)
    return len(token) / max(len(runs), 1) >= 3.5


def _published(text: str, start: int, end: int, public: list[tuple[int, int]]) -> bool:
    """A random-looking token that is a digest, an id, part of a public key, part of a URL path
    (document and file ids: docs.google.com/document/d/1Xk9...) or inline image data, not a secret."""
    if any(s <= start and end <= e for s, e in public):
        return True
    token = text[start:end]
    if SRI_PREFIX.match(token):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    before = text[max(line_start, start - 48) : start]
    if SSH_KEY_TYPE_BEFORE.search(before) or before.endswith("base64,"):
        return True
    if before.endswith("/") or FILE_EXTENSION_AFTER.match(text, end):
        return True  # a content-addressed path or file name: uploads/2025/03/8f14e45f....pdf
    # the line so far and the line before it: "Checksum (SHA-256):\n<hex>", "hexdigest()\n# e.g. <hex>"
    previous_line = text[text.rfind("\n", 0, max(line_start - 1, 0)) + 1 : line_start]
    context = previous_line[-64:] + before
    if DIGEST_CONTEXT.search(context) and not SECRET_WORD.search(context):
        return True
    return CHECKSUM_LINE_AFTER.match(text, end) is not None


def _reference_or_placeholder(value: str) -> bool:
    return (
        value.startswith(REFERENCE_PREFIXES)
        or value.startswith("{")
        or PLACEHOLDER_VALUE.search(value) is not None
        or value.lower() in NOT_SECRET_VALUES
    )


def _settings_key(key: str) -> bool:
    parts = {p.lower() for p in KEY_PARTS.findall(key)}
    return bool(parts & SETTING_WORDS)


def _not_a_secret_value(key: str, value: str) -> bool:
    """`key: value` where the value refers to, describes or stands in for a secret."""
    lowered = value.lower()
    if _settings_key(key) or lowered in NOT_SECRET_VALUES:
        return True
    if value.startswith(REFERENCE_PREFIXES) or "(" in value or ")" in value or "://" in value:
        return True  # ${DB_PASSWORD}, <your-key>, getpass.getpass(), os.getenv(...), a URL
    if DOTTED_REFERENCE.fullmatch(value) or PLACEHOLDER_VALUE.search(value):
        return True
    return SECRET_NAME.fullmatch(value) is not None  # self.api_key = api_key, passwordSecretKey: password


def find_secrets(text: str) -> list[SecretSpan]:
    """Every secret value in `text`, as non-overlapping spans sorted by position."""
    spans: list[SecretSpan] = []
    for kind, pattern in SHAPE_PATTERNS:
        spans += [SecretSpan(m.start(), m.end(), kind) for m in pattern.finditer(text)]
    for kind, pattern in CONTEXT_PATTERNS:
        for m in pattern.finditer(text):
            if kind == "key_value" and _not_a_secret_value(m.group("key"), m.group("value")):
                continue
            if kind in ("connection_string", "url_secret") and _reference_or_placeholder(m.group("value")):
                continue
            spans.append(SecretSpan(m.start("value"), m.end("value"), kind))
    public = [(m.start(), m.end()) for m in PUBLIC_BLOCK.finditer(text)]
    public += [(m.start(), m.end()) for m in URL.finditer(text)]
    spans += [
        SecretSpan(m.start(), m.end(), "hex_token")
        for m in HEX_TOKEN.finditer(text)
        if not _published(text, m.start(), m.end(), public)
    ]
    spans += [
        SecretSpan(m.start(), m.end(), "high_entropy")
        for m in HIGH_ENTROPY_TOKEN.finditer(text)
        if _looks_random(m.group()) and not _published(text, m.start(), m.end(), public)
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
