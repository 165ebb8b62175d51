"""Exact aggregation over the sidecar: catalogue (the whitelist), intent, parser, validation, execution.

`execute` (polars) is imported on first use: a search or a semantic answer never loads polars.
"""

from __future__ import annotations

from typing import Any

from strata_pipeline.facts.catalogue import Catalogue, Column, Table, load_catalogue
from strata_pipeline.facts.intent import FactResult, FactRow, Filter, Intent, IntentRefused, format_value
from strata_pipeline.facts.parse import Parsed, parse
from strata_pipeline.facts.validate import validate

__all__ = [
    "Catalogue", "Column", "FactResult", "FactRow", "Filter", "Intent", "IntentRefused", "Parsed", "Table",
    "execute", "format_value", "load_catalogue", "parse", "validate",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    if name == "execute":
        from strata_pipeline.facts.runner import execute

        return execute
    raise AttributeError(name)
