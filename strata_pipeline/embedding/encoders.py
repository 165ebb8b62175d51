"""The offline MiniLM vectors, computed as fastembed computes them, without fastembed.

Importing fastembed pulls in huggingface_hub, httpx and its image models: about 0.6 s of CPU, a
third of a cold `strata search`, for code that only downloads models. A query needs an ONNX session
and a tokenizer. DenseEncoder does exactly what fastembed does for this model, step for step, so the
vectors are the same to the last bit (strata_pipeline_tests/embedding/test_encoders.py compares
them); any other fastembed model goes through fastembed (embedding/models.py). BM25 (a regex, a
stemmer and a hash) is embedding/analysis.py, which cuts tokens as fastembed does without it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from tokenizers import Tokenizer


class DenseEncoder:
    """fastembed's TextEmbedding for a mean-pooled, normalised ONNX model in a local folder: its
    tokenizer settings (fastembed's `load_tokenizer`), session options, batches and post-processing."""

    def __init__(self, model_dir: Path, model_file: str = "model.onnx") -> None:
        import onnxruntime as ort

        self._tokenizer = _tokenizer(model_dir)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL  # fastembed's: the same kernels
        available = ort.get_available_providers()
        providers = ["CUDAExecutionProvider"] if "CUDAExecutionProvider" in available else ["CPUExecutionProvider"]
        self._session = ort.InferenceSession(str(model_dir / model_file), sess_options=options, providers=providers)
        self._inputs = {node.name for node in self._session.get_inputs()}

    def embed(self, texts: Sequence[str], batch_size: int = 256) -> list[np.ndarray]:
        """One vector per text; a batch is padded to its longest text, as in fastembed."""
        texts = list(texts)
        return [
            vector
            for start in range(0, len(texts), batch_size)
            for vector in self._batch(texts[start : start + batch_size])
        ]

    def _batch(self, texts: list[str]) -> np.ndarray:
        encoded = self._tokenizer.encode_batch(texts)
        input_ids = np.array([e.ids for e in encoded], dtype=np.int64)
        attention_mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": input_ids}
        if "attention_mask" in self._inputs:
            feed["attention_mask"] = attention_mask
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        output = self._session.run(None, feed)[0]
        # fastembed's mean_pooling (summed in float64) and normalize, then back to the model's dtype
        summed = np.sum(output, axis=1, where=attention_mask[:, :, np.newaxis].astype(bool), dtype=np.float64)
        pooled = summed / np.maximum(np.sum(attention_mask, axis=1, keepdims=True), 1e-9)
        norm = np.maximum(np.linalg.norm(pooled, ord=2, axis=1, keepdims=True), 1e-12)
        return (pooled / norm).astype(output.dtype, copy=False)


def _tokenizer(model_dir: Path) -> Tokenizer:
    """The tokenizer as fastembed's `load_tokenizer` sets it up: truncation at the configured context,
    the special tokens registered, and padding to the longest text of a batch."""
    from tokenizers import Tokenizer

    config = json.loads((model_dir / "tokenizer_config.json").read_text(encoding="utf-8"))
    specials_path = model_dir / "special_tokens_map.json"
    specials = json.loads(specials_path.read_text(encoding="utf-8")) if specials_path.exists() else {}
    model_config_path = model_dir / "config.json"
    model_config = json.loads(model_config_path.read_text(encoding="utf-8")) if model_config_path.exists() else {}
    limits = [config.get(key) for key in ("model_max_length", "max_length")]
    limits = [v for v in limits if isinstance(v, int) and not isinstance(v, bool) and v > 0]
    if not limits or any(not isinstance(token, str) for token in specials.values()):
        raise ValueError(f"{model_dir}: a tokenizer set-up this encoder does not mirror; load it with fastembed.")

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    truncation = tokenizer.truncation or {}
    tokenizer.enable_truncation(
        max_length=min(limits), direction=config.get("truncation_side") or truncation.get("direction", "right")
    )
    for token in specials.values():
        tokenizer.add_special_tokens([token])
    padding = tokenizer.padding or {}
    pad_token = padding.get("pad_token") or config.get("pad_token")
    pad_id = padding.get("pad_id", model_config.get("pad_token_id"))
    if pad_id is None:
        pad_id = tokenizer.token_to_id(pad_token)
    tokenizer.enable_padding(
        direction=config.get("padding_side") or padding.get("direction", "right"),
        pad_id=pad_id,
        pad_type_id=padding.get("pad_type_id", 0),
        pad_token=pad_token,
        pad_to_multiple_of=padding.get("pad_to_multiple_of"),
        length=None,
    )
    return tokenizer
