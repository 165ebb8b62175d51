"""Dagster resources: every external system the pipeline touches, configurable per deployment."""

from strata_pipeline.resources.cache import CacheResource
from strata_pipeline.resources.corpus import CorpusResource
from strata_pipeline.resources.embedder import EmbedderResource
from strata_pipeline.resources.llm import AnthropicResource
from strata_pipeline.resources.pii import PiiResource
from strata_pipeline.resources.qdrant import QdrantResource
from strata_pipeline.resources.reranker import RerankerResource
from strata_pipeline.resources.sidecar import SidecarResource

__all__ = [
    "AnthropicResource",
    "CacheResource",
    "CorpusResource",
    "EmbedderResource",
    "PiiResource",
    "QdrantResource",
    "RerankerResource",
    "SidecarResource",
]
