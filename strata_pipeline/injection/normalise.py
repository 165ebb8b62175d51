"""Undo the obfuscation that hides an instruction from a plain pattern match.

`fold` turns text into one comparable form: NFKC (fullwidth, mathematical and squared letters),
zero-width and soft-hyphen characters removed, accents dropped, Cyrillic and Greek look-alikes and
enclosed alphanumerics mapped to Latin, lower case. `leet` maps digits and symbols that stand for
letters; it is one character for one, so offsets in the folded and the leet view agree.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass

# Invisible characters used to split words so a pattern misses them.
ZERO_WIDTH = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]"
)

# Letters that look Latin but are Cyrillic, Greek, Armenian or IPA (the confusables people use).
_LOOKALIKES = {
    "a": "аɑαа",
    "b": "Ьвβ",
    "c": "сϲς",
    "d": "ԁ",
    "e": "еёєεҽ",
    "g": "ɡ",
    "h": "һнη",
    "i": "іїιɩ",
    "j": "јϳ",
    "k": "кκ",
    "l": "ӏⅼ",
    "m": "м",
    "n": "пոη",
    "o": "оοσօ",
    "p": "рρ",
    "q": "ԛ",
    "r": "г",
    "s": "ѕ",
    "t": "тτ",
    "u": "υսц",
    "v": "ѵν",
    "w": "ԝѡω",
    "x": "хχ",
    "y": "уүγ",
    "z": "",
}
# Small capitals (ɪɢɴᴏʀᴇ) read as their letters too.
for _latin, _small in zip("abcdeghijklmnoprstuvwyz", "ᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ", strict=True):
    _LOOKALIKES[_latin] += _small
HOMOGLYPHS = {ord(ch): latin for latin, chars in _LOOKALIKES.items() for ch in chars}
HOMOGLYPHS |= {ord(ch.upper()): latin for latin, chars in _LOOKALIKES.items() for ch in chars if ch.upper() != ch}
# Enclosed letters NFKC leaves alone or wraps in brackets: parenthesised (⒜), negative circled (🅐),
# negative squared (🅰), regional indicators (🇦). Mapped before NFKC.
ENCLOSED = {base + i: chr(ord("a") + i) for base in (0x249C, 0x1F150, 0x1F170, 0x1F1E6) for i in range(26)}

# Digits and symbols read as letters. "1" is read as "l" and the patterns fold "i" to "l" too
# (see LEET_PATTERN), since writers use "1" for both.
LEET = str.maketrans(
    {
        "0": "o",
        "1": "l",
        "3": "e",
        "4": "a",
        "5": "s",
        "6": "g",
        "7": "t",
        "8": "b",
        "9": "g",
        "@": "a",
        "$": "s",
        "i": "l",
        "|": "l",
        "!": "l",
        "+": "t",
    }
)


@dataclass(frozen=True)
class Folded:
    text: str  # the comparable form
    tricks: tuple[str, ...]  # which obfuscations were undone: zero-width, homoglyph, fullwidth, enclosed


def fold(text: str) -> Folded:
    tricks = []
    without = ZERO_WIDTH.sub("", text)
    if without != text:
        tricks.append("zero-width")
    compat = unicodedata.normalize("NFKC", without.translate(ENCLOSED))
    if any(0xFF01 <= ord(ch) <= 0xFF5E for ch in without):
        tricks.append("fullwidth")
    if any(0x2460 <= ord(ch) <= 0x24FF or 0x1F100 <= ord(ch) <= 0x1F1FF for ch in without):
        tricks.append("enclosed")
    mapped = compat.translate(HOMOGLYPHS)
    if mapped != compat:
        tricks.append("homoglyph")
    # Drop accents (précédentes -> precedentes) after the look-alikes, which include accented forms.
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", mapped) if not unicodedata.combining(ch))
    return Folded(plain.lower(), tuple(tricks))


def leet(folded: str) -> str:
    """The leetspeak reading of folded text, one character for one."""
    return folded.translate(LEET)


def leet_pattern(pattern: str) -> str:
    """A pattern written in plain letters, rewritten to match the `leet` view: "i" becomes "l"
    outside escapes and {m,n} counts."""
    out, escaped, in_count = [], False, False
    for ch in pattern:
        if escaped:
            out.append(ch)
            escaped = False
            continue
        if ch == "\\":
            escaped = True
        elif ch == "{":
            in_count = True
        elif ch == "}":
            in_count = False
        out.append("l" if ch == "i" and not in_count else ch)
    return "".join(out)


def rot13(text: str) -> str:
    return codecs.encode(text, "rot13")
