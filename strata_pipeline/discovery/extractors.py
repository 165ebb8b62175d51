"""Text extraction per file format.

Each extractor turns bytes on disk into an `Extraction`. Failures are raised as
`ExtractionError` with a stable code, so the caller can record an error row instead of
failing the run. Every extractor raises nothing but `ExtractionError` for bad input: parser
exceptions (and MemoryError / RecursionError) are wrapped with the format's code.

Error codes (stable): unsupported_format, empty_file, too_much_text, binary_content,
invalid_encoding, corrupt_docx, corrupt_pdf, corrupt_table, corrupt_html, corrupt_text,
corrupt_config, zip_bomb, encrypted_pdf, no_pages, no_text_layer, out_of_memory, too_deeply_nested.
"""

from __future__ import annotations

import codecs
import configparser
import functools
import io
import json
import math
import re
import tomllib
import warnings as _warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import yaml

# Pages of a PDF are joined with a form feed, so any later stage can recover the page number
# of an offset by counting form feeds before it, even after redaction has shifted offsets.
# Form feeds inside a page's own text are turned into newlines so that count stays right.
PAGE_BREAK = "\n\f\n"


class ExtractionError(Exception):
    """A file could not be turned into text. `code` is stable and machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple:
        # Picklable with both arguments, so the error survives the trip back from a worker process.
        return (type(self), (self.code, self.message))


@dataclass(frozen=True)
class PageSpan:
    page: int  # 1-based page number
    start: int  # char offset into the document text
    end: int


@dataclass(frozen=True)
class ExtractLimits:
    """Bounds that keep one hostile file from costing the run its memory or time."""

    max_pages: int = 500  # PDF pages read; later pages are reported, not read
    max_zip_expansion: int = 200 * 1024 * 1024  # total uncompressed bytes of a .docx/.xlsx package
    max_text_chars: int = 5_000_000
    max_zip_entries: int = 10_000  # members of a .docx/.xlsx package

    def __post_init__(self) -> None:
        for name in ("max_pages", "max_zip_expansion", "max_text_chars", "max_zip_entries"):
            if getattr(self, name) < 1:
                raise ValueError(f"ExtractLimits.{name} must be at least 1, got {getattr(self, name)}.")


DEFAULT_LIMITS = ExtractLimits()


@dataclass
class Extraction:
    text: str
    kind: str  # "text" (prose), "table" (spreadsheets) or "config" (.json/.yaml/.toml/.ini)
    encoding: str = ""
    pages: list[PageSpan] = field(default_factory=list)
    # sheet name -> rows, for .csv/.xlsx
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    # things a reader should know but that do not make the file unusable, e.g.
    # "scanned_pages:3,4", "page_cap:500 of 812", "encoding_fallback:cp1252"
    warnings: list[str] = field(default_factory=list)
    # document metadata found in the file itself, e.g. Markdown front matter
    metadata: dict = field(default_factory=dict)


# --- guard ---------------------------------------------------------------------------------

Extractor = Callable[[bytes, str, ExtractLimits], Extraction]


def _short(exc: BaseException, limit: int = 300) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _guarded(code: str, what: str) -> Callable[[Callable[..., Extraction]], Extractor]:
    """Turn any exception of a parser into an ExtractionError with the format's code."""

    def decorate(fn: Callable[..., Extraction]) -> Extractor:
        @functools.wraps(fn)
        def run(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
            try:
                return fn(data, name, limits)
            except ExtractionError:
                raise
            except MemoryError:
                raise ExtractionError("out_of_memory", f"Ran out of memory while extracting the {what}.") from None
            except RecursionError:
                raise ExtractionError(
                    "too_deeply_nested", f"The {what} is nested too deeply to extract (recursion limit)."
                ) from None
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:  # incl. pyo3 PanicException (a BaseException) from polars/fastexcel
                raise ExtractionError(code, f"The {what} could not be parsed: {_short(exc)}") from exc

        return run

    return decorate


# --- text decoding -------------------------------------------------------------------------

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


# --- plain text and markdown ---------------------------------------------------------------

# YAML front matter: a "---" first line, then YAML, then a "---" (or "...") line.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)^(?:---|\.\.\.)[ \t]*$", re.DOTALL | re.MULTILINE)
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml caps nesting depth; the pure one recurses
_MAX_FRONT_MATTER_CHARS = 64 * 1024  # parsed in-process: a bigger block is reported, not parsed
_MAX_FRONT_MATTER_NODES = 10_000
_MAX_FRONT_MATTER_DEPTH = 64


class _TooLarge(Exception):
    pass


def _jsonable(value: Any, budget: list[int], depth: int = 0) -> Any:
    """Front matter values as JSON types: dates etc. become str(). YAML aliases can make a small
    document a huge (or self-referencing) structure, so the node count and depth are capped."""
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_FRONT_MATTER_DEPTH:
        raise _TooLarge
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {(k if isinstance(k, str) else str(k)): _jsonable(v, budget, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v, budget, depth + 1) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(str(v) for v in value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def parse_front_matter(text: str) -> tuple[dict | None, list[str]]:
    """YAML front matter at the top of a Markdown text: (mapping or None, warnings)."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return None, []
    if len(match.group(1)) > _MAX_FRONT_MATTER_CHARS:
        return None, ["front_matter_too_large"]
    try:
        data = yaml.load(match.group(1), Loader=_YAML_LOADER)
    except Exception:  # YAMLError, and RecursionError/ValueError from odd scalars
        return None, ["front_matter_invalid"]
    if data is None:
        return None, []
    if not isinstance(data, dict):
        return None, ["front_matter_invalid"]
    try:
        return _jsonable(data, [_MAX_FRONT_MATTER_NODES]), []
    except (_TooLarge, RecursionError):
        return None, ["front_matter_too_large"]


@_guarded("corrupt_text", "text file")
def extract_plain(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    text, encoding, warnings = _decode(data)
    extraction = Extraction(text=text, kind="text", encoding=encoding, warnings=warnings)
    if Path(name).suffix.lower() in (".md", ".markdown") and len(text) <= limits.max_text_chars:
        front_matter, fm_warnings = parse_front_matter(text)
        extraction.warnings += fm_warnings
        if front_matter is not None:
            extraction.metadata["front_matter"] = front_matter
    return extraction


# --- configuration files -------------------------------------------------------------------


def _parse_ini(text: str) -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=False, allow_no_value=True)
    parser.read_string(text)


_CONFIG_PARSERS: dict[str, Callable[[str], Any]] = {
    ".json": json.loads,
    ".yaml": lambda text: list(yaml.load_all(text, Loader=_YAML_LOADER)),
    ".yml": lambda text: list(yaml.load_all(text, Loader=_YAML_LOADER)),
    ".toml": tomllib.loads,
    ".ini": _parse_ini,
    ".cfg": _parse_ini,
    ".conf": _parse_ini,
}


@_guarded("corrupt_config", "configuration file")
def extract_config(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Config files are kept as text; a parse failure is a warning, not an error."""
    text, encoding, warnings = _decode(data)
    parse = _CONFIG_PARSERS.get(Path(name).suffix.lower())
    if parse is not None and len(text) <= limits.max_text_chars:  # a longer text is refused by extract()
        try:
            parse(text)
        except Exception as exc:  # each parser has its own error types; RecursionError for deep nesting
            reason = " ".join(_short(exc, 160).split())
            warnings.append(f"config_parse_error:{reason}")
    return Extraction(text=text, kind="config", encoding=encoding, warnings=warnings)


# --- zip packages (.docx, .xlsx) -----------------------------------------------------------


def _check_zip(data: bytes, limits: ExtractLimits, corrupt_code: str, label: str) -> None:
    """Open the package without inflating it: refuse non-zips and zip bombs before any parser runs.

    The declared sizes are trustworthy for zipfile (it stops at ZipInfo.file_size and then fails
    the CRC check), so their sum bounds what a reader inflates.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:
        raise ExtractionError(
            corrupt_code, f"Not a readable {label} package (not a zip archive): {_short(exc)}"
        ) from exc
    if len(infos) > limits.max_zip_entries:
        raise ExtractionError(
            "zip_bomb", f"The {label} package has {len(infos)} entries, over the limit of {limits.max_zip_entries}."
        )
    total = sum(info.file_size for info in infos)
    if total > limits.max_zip_expansion:
        raise ExtractionError(
            "zip_bomb",
            f"The {label} package expands to {total} bytes, over the limit of {limits.max_zip_expansion} bytes.",
        )


# --- docx ----------------------------------------------------------------------------------


def _docx_blocks(container: Any, headings: bool) -> list[str]:
    """Paragraphs (headings as Markdown) and table rows (cells joined by " | ") of a body/header."""
    from docx.table import Table

    blocks: list[str] = []
    for item in container.iter_inner_content():
        if isinstance(item, Table):
            for row in item.rows:
                cells = [c.text.strip() for c in row.cells]
                if any(cells):
                    blocks.append(" | ".join(cells))
            continue
        text = item.text.strip()
        if not text:
            continue
        if headings:
            style = (item.style.name if item.style is not None else "") or ""
            if style.startswith("Heading"):
                level = "".join(ch for ch in style if ch.isdigit()) or "1"
                text = "#" * min(int(level), 9) + " " + text
            elif style == "Title":
                text = "# " + text
        blocks.append(text)
    return blocks


def _docx_margin_lines(document: Any, part: str, prefix: str) -> list[str]:
    """Deduplicated lines of every section's headers (or footers): default, first-page, even-page."""
    seen: dict[str, None] = {}
    for section in document.sections:
        for kind in (part, f"first_page_{part}", f"even_page_{part}"):
            margin = getattr(section, kind)
            if margin.is_linked_to_previous:  # no definition of its own; reading it would add one
                continue
            for block in _docx_blocks(margin, headings=False):
                for line in block.splitlines():
                    if line.strip():
                        seen.setdefault(prefix + line.strip(), None)
    return list(seen)


@_guarded("corrupt_docx", ".docx document")
def extract_docx(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Body paragraphs and tables, between "Header: " lines before and "Footer: " lines after."""
    import docx

    _check_zip(data, limits, "corrupt_docx", ".docx")
    document = docx.Document(io.BytesIO(data))  # its many error types for a broken package: see _guarded
    header = _docx_margin_lines(document, "header", "Header: ")
    footer = _docx_margin_lines(document, "footer", "Footer: ")
    blocks = _docx_blocks(document, headings=True)
    if header:
        blocks.insert(0, "\n".join(header))
    if footer:
        blocks.append("\n".join(footer))
    return Extraction(text="\n\n".join(blocks), kind="text", encoding="docx")


# --- pdf -----------------------------------------------------------------------------------

_SURROGATES = re.compile("[\ud800-\udfff]")


def _clean_page(text: str) -> str:
    text = _SURROGATES.sub("\ufffd", text.replace("\x00", "").replace("\f", "\n"))
    return text.strip()


# PDF text carries no heading markup. A short numbered line ("5. Maintenance", "2.1 Mounting the
# base") reads as a section heading, and a short first line on the first page as the title; marked
# as markdown headings, they let the chunker cut sections and give chunks a heading path, as for
# .md and .docx. The number needs a dot, so "10 Nm" stays text; a step that ends in punctuation or
# runs past eight words ("3. Wait until the LED is green.") stays a list item.
_PDF_NUMBERED_HEADING = re.compile(r"^(\d{1,2}\.(?:\d{1,2}\.?)*)[ \t]+([A-Z][^\n.:;,!?]{0,80})$", re.MULTILINE)
_MAX_HEADING_WORDS = 8


def _mark_pdf_headings(text: str, first_page: bool) -> str:
    def promote(match: re.Match[str]) -> str:
        if len(match.group(2).split()) > _MAX_HEADING_WORDS or match.group(2).rstrip() != match.group(2):
            return match.group(0)
        depth = match.group(1).rstrip(".").count(".")
        return f"{'#' * min(2 + depth, 6)} {match.group(0)}"

    text = _PDF_NUMBERED_HEADING.sub(promote, text)
    if first_page:
        first, newline, rest = text.partition("\n")
        title_like = first.strip() and not first.startswith("#") and first.rstrip()[-1] not in ".:;,!?"
        if title_like and len(first.split()) <= _MAX_HEADING_WORDS + 2:
            text = f"# {first}{newline}{rest}"
    return text


@_guarded("corrupt_pdf", "PDF")
def extract_pdf(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Pages joined by PAGE_BREAK with a PageSpan each; at most limits.max_pages pages are read.
    Title and numbered section lines become markdown headings (see _mark_pdf_headings)."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError

    warnings: list[str] = []
    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        try:
            opened = reader.decrypt("")
        except DependencyError as exc:
            raise ExtractionError(
                "encrypted_pdf", f"PDF is encrypted with an algorithm this installation cannot decrypt: {exc}"
            ) from None
        if not opened:
            raise ExtractionError("encrypted_pdf", "PDF is encrypted and the empty password does not open it.")
        warnings.append("encrypted_empty_password")
    total = len(reader.pages)
    if total == 0:
        raise ExtractionError("no_pages", "PDF has no pages.")
    read = min(total, limits.max_pages)
    if total > read:
        warnings.append(f"page_cap:{limits.max_pages} of {total}")
    parts: list[str] = []
    pages: list[PageSpan] = []
    scanned: list[int] = []
    offset = 0
    for number in range(1, read + 1):
        page_text = _mark_pdf_headings(_clean_page(reader.pages[number - 1].extract_text() or ""), number == 1)
        if not page_text:
            scanned.append(number)
        pages.append(PageSpan(page=number, start=offset, end=offset + len(page_text)))
        parts.append(page_text)
        offset += len(page_text) + len(PAGE_BREAK)
    if len(scanned) == read:
        raise ExtractionError(
            "no_text_layer",
            f"PDF has no extractable text: all {read} pages are images without a text layer (scanned); "
            "OCR is not configured.",
        )
    if scanned:
        warnings.append("scanned_pages:" + ",".join(map(str, scanned)))
    return Extraction(text=PAGE_BREAK.join(parts), kind="text", encoding="pdf", pages=pages, warnings=warnings)


# --- html / php ----------------------------------------------------------------------------

_PHP_BLOCK = re.compile(r"<\?.*?(?:\?>|\Z)", re.DOTALL)
_META_CHARSET = re.compile(rb"""<meta\b[^>]{0,512}?charset\s*=\s*["']?\s*([A-Za-z0-9._:\-]{1,40})""", re.IGNORECASE)
# Elements whose content a browser does not show as text (<title> is emitted on its own, first).
_HTML_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "iframe", "head", "title"})
_MAX_LIST_INDENT = 8  # levels of nested lists shown by indentation; deeper ones stay at this level
_HTML_HEADINGS = {f"h{level}": level for level in range(1, 7)}
# Block elements: 2 = separate by a blank line, 1 = start a new line.
_HTML_BLOCKS = {
    **dict.fromkeys(
        "address article aside blockquote body center details dialog div dl fieldset figcaption figure footer "
        "form header hgroup hr html legend main menu nav ol p pre section summary table ul".split(),
        2,
    ),
    **dict.fromkeys("thead tbody tfoot li tr td th dt dd br caption option".split(), 1),
}


def _declared_charset(data: bytes) -> str | None:
    """The codec a <meta charset> in the first 4 KiB names, if Python knows it and it makes sense."""
    match = _META_CHARSET.search(data[:4096])
    if match is None:
        return None
    try:
        codec = codecs.lookup(match.group(1).decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return None
    if codec in ("latin-1", "iso8859-1", "ascii"):  # browsers read these labels as windows-1252
        return "cp1252"
    if codec.startswith(("utf-16", "utf-32", "utf-7")):  # meaningless without a BOM
        return None
    return codec


def _decode_html(data: bytes) -> tuple[str, str, list[str]]:
    """BOM and UTF-8 first, then a declared <meta charset>, then the cp1252 fallback."""
    try:
        text, encoding, warnings = _decode(data)
        error = None
    except ExtractionError as exc:
        if exc.code != "invalid_encoding":
            raise
        text, encoding, warnings, error = "", "", [], exc
    if encoding in ("", "cp1252"):
        declared = _declared_charset(data)
        if declared is not None:
            try:
                candidate = data.decode(declared)
            except Exception:  # undecodable as declared, or not a text codec
                candidate = None
            if candidate is not None and _control_ratio(candidate) <= _MAX_CONTROL_RATIO:
                return candidate.replace("\r\n", "\n"), declared, []
    if error is not None:
        raise error
    return text, encoding, warnings


class _Lines:
    """Collects inline text into lines; breaks between blocks are one newline or a blank line."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.buffer: list[str] = []
        self.pending = 0
        self.prefix = ""

    def text(self, text: str) -> None:
        self.buffer.append(text)

    def line(self, text: str) -> None:
        if self.parts:
            self.parts.append("\n" * max(self.pending, 1))
        self.parts.append(text)
        self.pending = 0

    def flush(self) -> None:
        text = " ".join("".join(self.buffer).split())
        self.buffer.clear()
        if text:
            self.line(self.prefix + text)
            self.prefix = ""

    def brk(self, strength: int) -> None:
        self.flush()
        self.pending = max(self.pending, strength)

    def result(self) -> str:
        self.flush()
        return "".join(self.parts)


def _is_visible_string(node: Any) -> bool:
    from bs4.element import NavigableString, PreformattedString, Script, Stylesheet, TemplateString

    return isinstance(node, NavigableString) and not isinstance(
        node, PreformattedString | Script | Stylesheet | TemplateString
    )


def _is_hidden(tag: Any) -> bool:
    return tag.name in _HTML_SKIP or tag.has_attr("hidden")


_BOUNDARY = object()


def _inline_text(root: Any) -> str:
    """All visible text under `root` on one line (for headings and table cells); no recursion."""
    from bs4.element import Tag

    pieces: list[str] = []
    stack: list[Any] = list(reversed(root.contents))
    while stack:
        node = stack.pop()
        if node is _BOUNDARY:
            pieces.append(" ")
        elif isinstance(node, Tag):
            if _is_hidden(node):
                continue
            if node.name in _HTML_BLOCKS:  # blocks inside a cell or heading are separated by a space
                pieces.append(" ")
                stack.append(_BOUNDARY)
            stack.extend(reversed(node.contents))
        elif _is_visible_string(node):
            pieces.append(str(node))
    return " ".join("".join(pieces).split())


def _html_text(root: Any) -> str:
    """Visible text of a parsed document: headings as Markdown, list items as "- ", rows joined by " | "."""
    from bs4.element import Tag

    out = _Lines()
    title = next((t for t in root.find_all("title", limit=10) if t.find_parent("svg") is None), None)
    if title is not None and (title_text := " ".join(title.get_text(" ").split())):
        out.line("# " + title_text)
        out.pending = 2
    list_depth = 0
    pre_depth = 0
    # (node, None) enters a node; (tag, strength) leaves a tag with that break.
    stack: list[tuple[Any, int | None]] = [(child, None) for child in reversed(root.contents)]
    while stack:
        node, leaving = stack.pop()
        if leaving is not None:
            if node.name in ("ul", "ol"):
                list_depth -= 1
            elif node.name == "pre":
                pre_depth -= 1
            out.brk(leaving)
            if node.name == "li":
                out.prefix = ""
            continue
        if not isinstance(node, Tag):
            if _is_visible_string(node):
                if pre_depth:
                    for index, piece in enumerate(str(node).split("\n")):
                        if index:
                            out.brk(1)
                        out.text(piece)
                else:
                    out.text(str(node))
            continue
        if _is_hidden(node):
            continue
        name = node.name
        if name in _HTML_HEADINGS:
            out.brk(2)
            if text := _inline_text(node):
                out.line("#" * _HTML_HEADINGS[name] + " " + text)
            out.pending = 2
            continue
        if name == "tr":
            cells = [_inline_text(cell) for cell in node.find_all(("td", "th"), recursive=False)]
            out.brk(1)
            if any(cells):
                out.line(" | ".join(cells))
            out.pending = max(out.pending, 1)
            continue
        strength = _HTML_BLOCKS.get(name, 0)
        if name in ("ul", "ol"):
            strength = 2 if list_depth == 0 else 1
            list_depth += 1
        elif name == "pre":
            pre_depth += 1
        if strength:
            out.brk(strength)
        if name == "li":
            out.prefix = "  " * min(max(list_depth - 1, 0), _MAX_LIST_INDENT) + "- "
        if strength or name in ("ul", "ol", "pre"):
            stack.append((node, strength))
        stack.extend((child, None) for child in reversed(node.contents))
    return out.result()


@_guarded("corrupt_html", "HTML page")
def extract_html(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Visible text of an .html/.htm page, or of a .php page once its PHP blocks are removed."""
    from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, XMLParsedAsHTMLWarning

    text, encoding, warnings = _decode_html(data)
    if Path(name).suffix.lower() == ".php":
        text = _PHP_BLOCK.sub("", text)
    with _warnings.catch_warnings():
        _warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        _warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        soup = BeautifulSoup(text, "lxml")
    return Extraction(text=_html_text(soup), kind="text", encoding=encoding, warnings=warnings)


# --- tables --------------------------------------------------------------------------------


@_guarded("corrupt_table", "CSV file")
def extract_csv(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    text, encoding, warnings = _decode(data)
    frame = pl.read_csv(io.StringIO(text), infer_schema_length=1000)
    extraction = _table_extraction({Path(name).stem: frame}, encoding)
    extraction.warnings += warnings
    return extraction


@_guarded("corrupt_table", "spreadsheet")
def extract_xlsx(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    _check_zip(data, limits, "corrupt_table", ".xlsx")
    sheets = pl.read_excel(io.BytesIO(data), sheet_id=0)
    return _table_extraction(dict(sheets), "xlsx")


def _table_extraction(tables: dict[str, pl.DataFrame], encoding: str) -> Extraction:
    """Render tables as text too, so rules (min length) and language detection can see them."""
    rendered = []
    for sheet, frame in tables.items():
        lines = [f"## {sheet}", " | ".join(frame.columns)]
        lines += [" | ".join("" if v is None else str(v) for v in row) for row in frame.iter_rows()]
        rendered.append("\n".join(lines))
    return Extraction(text="\n\n".join(rendered), kind="table", encoding=encoding, tables=tables)


# --- dispatch ------------------------------------------------------------------------------

EXTRACTORS: dict[str, Extractor] = {
    ".md": extract_plain,
    ".markdown": extract_plain,
    ".txt": extract_plain,
    ".docx": extract_docx,
    ".pdf": extract_pdf,
    ".html": extract_html,
    ".htm": extract_html,
    ".php": extract_html,
    ".json": extract_config,
    ".yaml": extract_config,
    ".yml": extract_config,
    ".toml": extract_config,
    ".ini": extract_config,
    ".cfg": extract_config,
    ".conf": extract_config,
    ".csv": extract_csv,
    ".xlsx": extract_xlsx,
}


# Formats whose parsers are complex enough to hang or balloon on a crafted file: discovery runs
# them in a worker process under a timeout. Plain text and config are decoded in-process.
ISOLATED_EXTENSIONS = frozenset({".pdf", ".docx", ".xlsx", ".csv", ".html", ".htm", ".php"})


def extract(data: bytes, name: str, limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """Extract text from the bytes of a file called `name`, by its extension.

    Raises only ExtractionError for bad input. Lone surrogates and NUL characters in the text
    become U+FFFD (same length, so page spans stay exact), keeping the text valid UTF-8.
    """
    ext = Path(name).suffix.lower()
    extractor = EXTRACTORS.get(ext)
    if extractor is None:
        raise ExtractionError("unsupported_format", f"No extractor for {ext or 'files without extension'}.")
    if not data:
        raise ExtractionError("empty_file", "File is empty (0 bytes).")
    extraction = extractor(data, name, limits)
    extraction.text = _SURROGATES.sub("\ufffd", extraction.text).replace("\x00", "\ufffd")
    if len(extraction.text) > limits.max_text_chars:
        raise ExtractionError(
            "too_much_text",
            f"Extracted {len(extraction.text)} characters, over the limit of {limits.max_text_chars}.",
        )
    return extraction
