"""Rich Text Format (.rtf): the document text, without font tables, pictures and other destinations.

A small reader of the RTF 1.9 syntax (groups, control words, hex and Unicode escapes), one pass
with an explicit stack: no recursion however deep the groups nest.
"""

from __future__ import annotations

import codecs
import re

from strata_pipeline.discovery.extractors.extraction import (
    DEFAULT_LIMITS,
    Extraction,
    ExtractionError,
    ExtractLimits,
    _guarded,
)

_TOKEN = re.compile(
    rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # control word with optional parameter; one space belongs to it
    rb"|\\'([0-9a-fA-F]{2})"  # a byte in the document's code page
    rb"|\\(.)"  # control symbol
    rb"|([{}])"
    rb"|[\r\n]+"  # line ends in the source are not text
    rb"|([^\\{}\r\n]+)",
    re.DOTALL,
)
# Destinations whose content is not document text (fonts, colours, styles, metadata, pictures,
# field instructions, headers/footers are kept: they are text a reader sees).
_SKIP = frozenset(
    b"fonttbl colortbl stylesheet listtable listoverridetable revtbl rsidtbl info pict object objdata "
    b"themedata colorschememapping datastore latentstyles xmlnstbl fldinst generator filetbl "
    b"pgdsctbl bkmkstart bkmkend datafield protusertbl userprops docvar mmathPr".split()
)
_BREAKS = {b"par": "\n", b"line": "\n", b"sect": "\n\n", b"page": "\n\n", b"row": "\n", b"tab": "\t"}
_SYMBOLS = {
    b"emdash": "\u2014", b"endash": "\u2013", b"bullet": "\u2022", b"lquote": "\u2018", b"rquote": "\u2019",
    b"ldblquote": "\u201c", b"rdblquote": "\u201d", b"emspace": " ", b"enspace": " ", b"qmspace": " ",
}  # fmt: skip
_ESCAPED = {b"~": "\u00a0", b"-": "", b"_": "\u2011", b"\\": "\\", b"{": "{", b"}": "}"}


def _codec(number: int) -> str:
    try:
        return codecs.lookup(f"cp{number}").name
    except LookupError:
        return "cp1252"


def rtf_text(data: bytes) -> tuple[str, str]:
    """(text, code page) of an RTF document."""
    out: list[str] = []
    pending = bytearray()  # \'hh bytes, decoded together so double-byte code pages read right
    codec = "cp1252"
    stack: list[tuple[bool, int]] = []  # (skipping, \uc count) of each open group
    skipping, uc, to_skip = False, 1, 0  # to_skip: fallback characters after a \uN still to drop

    def flush() -> None:
        if pending:
            out.append(pending.decode(codec, "replace"))
            pending.clear()

    position = 0
    while position < len(data):
        match = _TOKEN.match(data, position)
        if match is None:  # a lone backslash at the very end
            break
        position = match.end()
        word, param, hexbyte, symbol, brace, text = match.groups()
        if word == b"bin" and param:  # raw binary data (in a picture): its bytes are not RTF syntax
            position += max(int(param), 0)
            continue
        if brace == b"{":
            stack.append((skipping, uc))
            to_skip = 0
        elif brace == b"}":
            if stack:
                skipping, uc = stack.pop()
            to_skip = 0
        elif to_skip and (hexbyte is not None or text is not None or symbol is not None):
            if text is not None and len(text) > to_skip:  # the rest of the run is text again
                consumed, to_skip = to_skip, 0
                if not skipping:
                    flush()
                    out.append(text[consumed:].decode(codec, "replace"))
            else:
                to_skip -= len(text) if text is not None else 1
        elif word is not None:
            if word in _SKIP:
                skipping = True
            elif word == b"ansicpg" and param:
                codec = _codec(int(param))
            elif word == b"uc" and param:
                uc = max(int(param), 0)
            elif skipping:
                continue
            elif word == b"u" and param:
                flush()
                out.append(chr(int(param) % 65536) if int(param) % 65536 else "")
                to_skip = uc
            elif word == b"cell":
                flush()
                out.append(" | ")
            elif word in _BREAKS or word in _SYMBOLS:
                flush()
                out.append(_BREAKS.get(word) or _SYMBOLS[word])
        elif symbol is not None:
            if symbol == b"*":
                skipping = True  # an optional destination this reader does not know
            elif not skipping and symbol in _ESCAPED:
                flush()
                out.append(_ESCAPED[symbol])
        elif skipping:
            continue
        elif hexbyte is not None:
            pending.append(int(hexbyte, 16))
        elif text is not None:
            flush()
            out.append(text.decode(codec, "replace"))
    flush()
    # \uN writes characters beyond the BMP as two surrogates: join the pairs, replace any lone one.
    text = "".join(out).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    lines = [" | ".join(cell.strip() for cell in line.split(" | ")).rstrip(" |") for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in lines)).strip(), codec


@_guarded("corrupt_rtf", "RTF document")
def extract_rtf(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    if not data.lstrip().startswith(b"{\\rtf"):
        raise ExtractionError("corrupt_rtf", "Not an RTF document: it does not start with {\\rtf.")
    text, codec = rtf_text(data)
    return Extraction(text=text, kind="text", encoding=codec)
