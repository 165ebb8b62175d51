"""The visible text of HTML (and PHP) pages, with headings, lists and table rows kept readable."""

from __future__ import annotations

import codecs
import re
import warnings as _warnings
from pathlib import Path
from typing import Any

from strata_pipeline.discovery.extractors.encodings import _MAX_CONTROL_RATIO, _control_ratio, _decode
from strata_pipeline.discovery.extractors.extraction import (
    DEFAULT_LIMITS,
    Extraction,
    ExtractionError,
    ExtractLimits,
    _guarded,
)

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
