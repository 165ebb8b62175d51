"""Bytes to text: UTF-16 and UTF-8 with or without a BOM, else plausible cp1252, else an error."""

from __future__ import annotations

from strata_pipeline.discovery.extractors.extraction import ExtractionError

# C0 controls and DEL, except tab, newline, carriage return and form feed.
_CONTROL_CHARS = "".join(chr(c) for c in [*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
_DELETE_CONTROLS = str.maketrans("", "", _CONTROL_CHARS)
_MAX_CONTROL_RATIO = 0.01


def _control_ratio(text: str) -> float:
    return (len(text) - len(text.translate(_DELETE_CONTROLS))) / len(text) if text else 0.0


def decode_text(data: bytes) -> tuple[str, str]:
    """Decode bytes as UTF-16 with BOM, UTF-8 (with or without BOM), else plausible cp1252 text.

    Returns (text, encoding): encoding is "utf-16-le", "utf-16-be", "utf-8-sig", "utf-8" or
    "cp1252" (a guess: callers report it as the warning "encoding_fallback:cp1252").
    NUL bytes in a file without a UTF-16 BOM mean binary content ("binary_content"). Bytes that
    are neither UTF-8 nor plausible cp1252 text raise "invalid_encoding".
    """
    for bom, codec in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            try:
                text = data[len(bom) :].decode(codec)
            except UnicodeDecodeError as exc:
                raise ExtractionError(
                    "invalid_encoding", f"File has a UTF-16 BOM but is not valid {codec}: {exc}."
                ) from None
            if "\x00" in text:  # UTF-32 (its BOM starts like UTF-16's) or binary data after the BOM
                raise ExtractionError("binary_content", "File has a UTF-16 BOM but decodes to NUL characters.")
            return text, codec
    if b"\x00" in data:
        raise ExtractionError("binary_content", "File contains NUL bytes: it is binary, not text.")
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as exc:
            raise ExtractionError("invalid_encoding", f"File has a UTF-8 BOM but is not valid UTF-8: {exc}.") from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError as exc:
        byte = data[exc.start]
        raise ExtractionError(
            "invalid_encoding",
            f"File is not UTF-8/UTF-16 and not plausible cp1252 text: byte 0x{byte:02X} at offset {exc.start} "
            "is undefined in cp1252.",
        ) from None
    ratio = _control_ratio(text)
    if ratio > _MAX_CONTROL_RATIO:
        raise ExtractionError(
            "invalid_encoding",
            f"File is not UTF-8/UTF-16 and not plausible cp1252 text: {ratio:.1%} of its characters are "
            "control characters.",
        )
    return text, "cp1252"


def _decode(data: bytes) -> tuple[str, str, list[str]]:
    """decode_text, newlines normalised, plus the warnings the decoding deserves."""
    text, encoding = decode_text(data)
    return text.replace("\r\n", "\n"), encoding, ["encoding_fallback:cp1252"] if encoding == "cp1252" else []
