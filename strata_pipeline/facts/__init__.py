"""Exact aggregation over the sidecar: catalogue (the whitelist), intent, parser, validation, execution."""

from strata_pipeline.facts.catalogue import Catalogue, Column, Table, load_catalogue
from strata_pipeline.facts.execute import execute, format_value
from strata_pipeline.facts.intent import FactResult, FactRow, Filter, Intent, IntentRefused
from strata_pipeline.facts.parse import Parsed, parse
from strata_pipeline.facts.validate import validate

__all__ = [
    "Catalogue", "Column", "FactResult", "FactRow", "Filter", "Intent", "IntentRefused", "Parsed", "Table",
    "execute", "format_value", "load_catalogue", "parse", "validate",
]  # fmt: skip
