"""Build every resource from Settings: used by Definitions and the dry-run, remove and redact commands.

The query components (components.py) are built from the same values, so the resources here are
configured with exactly what a query uses.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

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
from strata_pipeline.settings import Settings


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
        "pii": PiiResource(backend=components.pii_backend()),
        "llm": AnthropicResource(**asdict(components.claude(settings))),
        "sidecar": SidecarResource(),
        "cache": CacheResource(dir=str(settings.cache_dir)),
        "reranker": RerankerResource(**asdict(components.reranker(settings))),
    }
