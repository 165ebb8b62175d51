"""Build every resource from Settings: used by Definitions, the API and the CLI alike."""

from __future__ import annotations

import os
from typing import Any

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
        ),
        "embedder": EmbedderResource(
            model=settings.embed_model,
            model_path=settings.embed_model_path,
            sparse_model=settings.sparse_model,
            models_dir=str(settings.models_dir),
        ),
        "qdrant": QdrantResource(url=settings.qdrant_url, api_key=os.environ.get("QDRANT_API_KEY", "")),
        "pii": PiiResource(backend=os.environ.get("STRATA_PII_BACKEND", "presidio-ner")),
        "llm": AnthropicResource(
            api_key=os.environ.get("ANTHROPIC_API_KEY", ""),
            model=settings.anthropic_model,
            judge_model=settings.judge_model,
        ),
        "sidecar": SidecarResource(),
        "cache": CacheResource(dir=str(settings.cache_dir)),
        "reranker": RerankerResource(
            model=settings.rerank_model,
            model_path=settings.rerank_model_path,
            floor=settings.rerank_floor,
            candidates=settings.rerank_candidates,
            models_dir=str(settings.models_dir),
        ),
    }
