"""Which extractor reads which extension, which formats run isolated in a worker, and `extract`,
the one entry point: it refuses empty and oversized results and cleans the text."""

from __future__ import annotations

from pathlib import Path

from strata_pipeline.discovery.extractors.email_files import extract_eml
from strata_pipeline.discovery.extractors.extraction import (
    DEFAULT_LIMITS,
    Extraction,
    ExtractionError,
    ExtractLimits,
    Extractor,
)
from strata_pipeline.discovery.extractors.html import extract_html
from strata_pipeline.discovery.extractors.markup import extract_markup
from strata_pipeline.discovery.extractors.office import extract_docx, extract_xlsx
from strata_pipeline.discovery.extractors.opendocument import extract_odt
from strata_pipeline.discovery.extractors.pdf import _SURROGATES, extract_pdf
from strata_pipeline.discovery.extractors.presentation import extract_pptx
from strata_pipeline.discovery.extractors.rtf import extract_rtf
from strata_pipeline.discovery.extractors.tables import extract_csv, extract_tsv
from strata_pipeline.discovery.extractors.text_files import extract_config, extract_plain
from strata_pipeline.discovery.table_extensions import TABLE_EXTENSIONS  # re-exported for the chunker

EXTRACTORS: dict[str, Extractor] = {
    ".md": extract_plain,
    ".markdown": extract_plain,
    ".txt": extract_plain,
    ".text": extract_plain,
    ".rst": extract_markup,
    ".adoc": extract_markup,
    ".asciidoc": extract_markup,
    ".log": extract_plain,
    ".docx": extract_docx,
    ".pptx": extract_pptx,
    ".odt": extract_odt,
    ".rtf": extract_rtf,
    ".eml": extract_eml,
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
    ".tsv": extract_tsv,
    ".tab": extract_tsv,
    ".xlsx": extract_xlsx,
    ".xlsm": extract_xlsx,
    ".xlsb": extract_xlsx,
    ".xls": extract_xlsx,
    ".ods": extract_xlsx,
}


# Formats whose parsers are complex enough to hang or balloon on a crafted file: discovery runs
# them in a worker process under a timeout. Plain text and config are decoded in-process.
ISOLATED_EXTENSIONS = frozenset(
    {".pdf", ".docx", ".pptx", ".odt", ".rtf", ".eml", ".html", ".htm", ".php", *TABLE_EXTENSIONS}
)


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
