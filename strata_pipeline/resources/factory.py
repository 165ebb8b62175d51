"""Build every resource from Settings: `dagster_resources` for the Definitions, `build_resources`
for the dry-run, remove and redact commands, which call the resources directly.

The query components (components.py) are built from the same values, so the resources here are
configured with exactly what a query uses.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import dagster as dg

from strata_pipeline import components
from strata_pipeline.io_manager import StrataIOManager
from strata_pipeline.resources.cache import CacheResource
from strata_pipeline.resources.corpus import CorpusResource
from strata_pipeline.resources.embedder import EmbedderResource
from strata_pipeline.resources.llm import AnthropicResource
from strata_pipeline.resources.pii import PiiResource
from strata_pipeline.resources.qdrant import QdrantResource
from strata_pipeline.resources.reranker import RerankerResource
from strata_pipeline.resources.sidecar import SidecarResource
from strata_pipeline.settings import ANTHROPIC_API_KEY_ENV, QDRANT_API_KEY_ENV, Settings, secret_is_from_env


def build_resources(settings: Settings) -> dict[str, Any]:
    return {
        "io_manager": StrataIOManager(base_dir=str(settings.assets_dir)),
        "corpus": CorpusResource(
            root=str(settings.corpus_root),
            home=str(settings.home),
            rules_dir=str(settings.rules_dir),
            golden_dir=str(settings.golden_dir),
            plugins_dir=settings.plugins_dir,
            api_url=settings.api_url,
        ),
        "embedder": EmbedderResource(**asdict(components.embedder(settings))),
        "qdrant": QdrantResource(**asdict(components.index_storage(settings))),
        "pii": PiiResource(backend=components.pii_backend(settings)),
        "llm": AnthropicResource(**asdict(components.claude(settings))),
        "sidecar": SidecarResource(),
        "cache": CacheResource(dir=str(settings.cache_dir)),
        "reranker": RerankerResource(**asdict(components.reranker(settings))),
    }


def dagster_resources(settings: Settings) -> dict[str, Any]:
    """The resources the Definitions bind. A secret set in the environment is given as
    `dg.EnvVar(NAME)`: the UI shows the variable's name, never its value, and every run process
    resolves it itself. An unset secret stays "" (offline: no Claude, embedded Qdrant), since an
    EnvVar of an unset variable would fail every run that uses the resource."""
    resources = build_resources(settings)
    llm = components.claude(settings)
    storage = components.index_storage(settings)
    resources["llm"] = AnthropicResource(**{**asdict(llm), "api_key": _secret(ANTHROPIC_API_KEY_ENV, llm.api_key)})
    resources["qdrant"] = QdrantResource(**{**asdict(storage), "api_key": _secret(QDRANT_API_KEY_ENV, storage.api_key)})
    return resources


def _secret(name: str, value: str) -> str:
    return dg.EnvVar(name) if secret_is_from_env(name, value) else value
