"""What every extractor returns and raises, the limits it works under, and the guard that turns
any parser failure into an `ExtractionError` with the format's code."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl

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
