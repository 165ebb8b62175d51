"""Find encoded runs inside text and decode them, so an encoded instruction is scanned as plain text.

Each decoder accepts a run only when it decodes to readable text (mostly letters and spaces):
a product code or a hash that happens to look like base64 decodes to noise and is ignored.
"""

from __future__ import annotations

import base64
import binascii
import re
import urllib.parse
from collections.abc import Callable, Iterator

BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/_=-])")
BASE32_RUN = re.compile(r"(?<![A-Za-z0-9=])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9=])")
HEX_RUN = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[\s:]?){12,}(?![0-9A-Fa-f])")
PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~-]){12,}")
# Morse: dots and dashes (any dash or dot look-alike), letters split by spaces, words by / or |.
MORSE_CHARS = str.maketrans({"·": ".", "•": ".", "∙": ".", "_": "-", "–": "-", "—": "-", "−": "-"})
MORSE_RUN = re.compile(r"(?:[.\-]{1,8}(?:[ \t]+|[ \t]*[/|][ \t]*)){5,}[.\-]{1,8}")
# Letters spelled one at a time: "i g n o r e  a l l" (two or more spaces, or / between words).
SPACED_RUN = re.compile(r"(?<!\w)(?:\w[ .\-]{1,3}){7,}\w(?!\w)")

MORSE = {
    ".-": "a", "-...": "b", "-.-.": "c", "-..": "d", ".": "e", "..-.": "f", "--.": "g", "....": "h",
    "..": "i", ".---": "j", "-.-": "k", ".-..": "l", "--": "m", "-.": "n", "---": "o", ".--.": "p",
    "--.-": "q", ".-.": "r", "...": "s", "-": "t", "..-": "u", "...-": "v", ".--": "w", "-..-": "x",
    "-.--": "y", "--..": "z", "-----": "0", ".----": "1", "..---": "2", "...--": "3", "....-": "4",
    ".....": "5", "-....": "6", "--...": "7", "---..": "8", "----.": "9", ".-.-.-": ".", "--..--": ",",
    "---...": ":", "..--..": "?", "-.-.--": "!", "-..-.": "/", ".--.-.": "@", "-...-": "=", "-....-": "-",
}  # fmt: skip


def readable(text: str) -> bool:
    """Decoded bytes that read as words: printable, mostly letters, with spaces between words."""
    if len(text) < 8 or any(not ch.isprintable() and ch not in "\n\r\t" for ch in text):
        return False
    letters = sum(ch.isalpha() for ch in text)
    return letters / len(text) >= 0.6 and " " in text.strip()


def _base64(run: str) -> str | None:
    raw = run.rstrip("=")
    padded = raw + "=" * (-len(raw) % 4)
    for alphabet in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            return alphabet(padded.encode("ascii")).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
    return None


def _base32(run: str) -> str | None:
    raw = run.rstrip("=")
    try:
        return base64.b32decode(raw + "=" * (-len(raw) % 8)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def _hex(run: str) -> str | None:
    try:
        return bytes.fromhex(re.sub(r"[\s:]", "", run)).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def _percent(run: str) -> str | None:
    return urllib.parse.unquote(run) if run.count("%") >= 6 else None


def _morse(run: str) -> str | None:
    words = re.split(r"[ \t]*[/|][ \t]*|[ \t]{3,}", run.strip())
    decoded = " ".join("".join(MORSE.get(code, "?") for code in word.split()) for word in words)
    return decoded if decoded.count("?") <= len(decoded) // 5 else None


def _spaced(run: str) -> str | None:
    words = re.split(r"[ ]{2,}|\s*/\s*", run)
    joined = " ".join(re.sub(r"[ .\-]", "", word) for word in words)
    return joined if len(words) > 1 or len(joined) >= 8 else None


DECODERS: tuple[tuple[str, re.Pattern[str], Callable[[str], str | None]], ...] = (
    ("base64", BASE64_RUN, _base64),
    ("base32", BASE32_RUN, _base32),
    ("hex", HEX_RUN, _hex),
    ("url-encoding", PERCENT_RUN, _percent),
    ("morse", MORSE_RUN, _morse),
    ("spaced", SPACED_RUN, _spaced),
)


def decoded_runs(text: str) -> Iterator[tuple[str, str, str]]:
    """(encoder, the run as written, its readable decoding) for every encoded run in `text`."""
    morse_text = text.translate(MORSE_CHARS)
    for name, pattern, decode in DECODERS:
        source = morse_text if name == "morse" else text
        for match in pattern.finditer(source):
            decoded = decode(match.group(0))
            if decoded is not None and readable(decoded):
                yield name, match.group(0), decoded
