"""Optional cross-encoder rerank of the fused candidates, and the fastembed loader for its model.

The reranker reads the top N fused candidates (query and passage together, which a bi-encoder cannot
do), reorders them by its score, and drops those under an optional score floor. Candidates below the
top N are not scored. No dagster import, and fastembed only when a model is loaded: the resource, the
engine and the tests share this module, and a query without a reranker never pays for it.

A candidate is scored on its child chunk led by its section context ("Title > Section"), exactly the
text the dense model embedded, not on its parent section: children are what search ranks and returns,
they fit a cross-encoder's 512-token window whole (parents run to 3,000 characters and would be cut),
and siblings that share one parent keep distinct scores.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from strata_pipeline.chunking.context import chunk_context, embedded_text
from strata_pipeline.retrieval.candidate import Candidate

if TYPE_CHECKING:
    from fastembed.rerank.cross_encoder import TextCrossEncoder

RERANK = "rerank"  # key of the rerank score in Candidate.scores
RERANKED_MODE = "hybrid+rerank"
DEFAULT_RERANK_CANDIDATES = 20
# The tokenizer files fastembed reads from a model folder; config.json and the special tokens map
# are optional there, these two are not.
REQUIRED_TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json")

ScoreFn = Callable[[list[str]], list[float]]  # passages -> one score each, higher is better


class RerankerUnavailable(RuntimeError):
    """The configured reranker model cannot be loaded; the message says what to set."""


@dataclass(frozen=True)
class Reranked:
    candidate: Candidate  # carries the rerank score in .scores[RERANK] when it was scored
    score: float | None  # None when the candidate was below the reranked top N
    dropped: str | None  # "below rerank floor 0.3", "beyond top 20 fused (not reranked)", or None


def passage(candidate: Candidate) -> str:
    """What the cross-encoder reads for a candidate: the same text the dense model embedded."""
    p = candidate.payload
    return embedded_text(chunk_context(p.get("title") or "", p.get("heading_path") or ""), p.get("text", ""))


def rerank(
    candidates: Sequence[Candidate],
    scores_fn: ScoreFn,
    floor: float | None = None,
    keep: int = DEFAULT_RERANK_CANDIDATES,
) -> list[Reranked]:
    """Every candidate with its fate: the top `keep` (in fused order) scored and sorted best first,
    those under `floor` after them with the reason, then the unscored rest in fused order.

    The sort is stable, so equal scores keep their fused order. Callers take the undropped head.
    """
    head, tail = list(candidates[:keep]), list(candidates[keep:])
    scores = [float(s) for s in scores_fn([passage(c) for c in head])] if head else []
    if len(scores) != len(head):
        raise ValueError(f"The reranker returned {len(scores)} scores for {len(head)} passages.")
    kept: list[Reranked] = []
    below: list[Reranked] = []
    for s, c in sorted(zip(scores, head, strict=True), key=lambda pair: -pair[0]):
        scored = dataclasses.replace(c, scores={**c.scores, RERANK: s})
        if floor is None or s >= floor:
            kept.append(Reranked(scored, s, None))
        else:
            below.append(Reranked(scored, s, f"below rerank floor {floor:g}"))
    unscored = [Reranked(c, None, f"beyond top {keep} fused (not reranked)") for c in tail]
    return kept + below + unscored


def find_model_file(folder: Path) -> str:
    """The ONNX file of a model folder, relative to it: model.onnx, onnx/model.onnx, or the only one."""
    for name in ("model.onnx", "onnx/model.onnx"):
        if (folder / name).is_file():
            return name
    found = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.onnx"))
    if len(found) != 1:
        raise RerankerUnavailable(
            f"STRATA_RERANK_MODEL_PATH={folder} should hold one ONNX cross-encoder (model.onnx or "
            f"onnx/model.onnx); found {', '.join(found) or 'none'}."
        )
    return found[0]


def _registered(name: str) -> dict | None:
    from fastembed.rerank.cross_encoder import TextCrossEncoder

    return next((m for m in TextCrossEncoder.list_supported_models() if m["model"].lower() == name.lower()), None)


def load_cross_encoder(name: str, model_path: str = "", cache_dir: str | None = None) -> TextCrossEncoder:
    """A fastembed cross-encoder from a local folder (offline) or, by fastembed name, from the hub.

    A folder needs the ONNX file and the tokenizer files. Under a name fastembed already knows, the
    folder must have that model's layout (a snapshot of its hub repo); under any other name the folder
    is registered as a custom model, with its ONNX file found in the folder.
    """
    from fastembed.common.model_description import ModelSource
    from fastembed.rerank.cross_encoder import TextCrossEncoder

    if model_path:
        folder = Path(model_path)
        if not folder.is_dir():
            raise RerankerUnavailable(f"STRATA_RERANK_MODEL_PATH={model_path} is not a folder.")
        missing = [f for f in REQUIRED_TOKENIZER_FILES if not (folder / f).is_file()]
        if missing:
            raise RerankerUnavailable(
                f"STRATA_RERANK_MODEL_PATH={model_path} lacks the tokenizer file(s) {', '.join(missing)}."
            )
        known = _registered(name)
        if known is None:
            # Custom models live in a class-level registry, once per name for the process.
            TextCrossEncoder.add_custom_model(
                model=name, sources=ModelSource(hf=name), model_file=find_model_file(folder)
            )
        elif not (folder / known["model_file"]).is_file():
            raise RerankerUnavailable(
                f"{name} expects {known['model_file']} in STRATA_RERANK_MODEL_PATH={model_path}. Give the "
                "folder that layout, or set STRATA_RERANK_MODEL to another name to load the folder as a custom model."
            )
        try:
            return TextCrossEncoder(name, specific_model_path=str(folder))
        except Exception as exc:
            raise RerankerUnavailable(f"Could not load the reranker in {model_path}: {exc}") from exc
    if _registered(name) is None:
        raise RerankerUnavailable(
            f"STRATA_RERANK_MODEL={name!r} is not a fastembed reranker "
            f"({', '.join(m['model'] for m in TextCrossEncoder.list_supported_models())}). "
            "Set STRATA_RERANK_MODEL_PATH to a local model folder to use another model."
        )
    try:
        return TextCrossEncoder(name, cache_dir=cache_dir)
    except Exception as exc:
        raise RerankerUnavailable(
            f"Could not load the reranker {name!r}: {exc}. Hub models download on first use, which needs a "
            "network; offline, set STRATA_RERANK_MODEL_PATH to a folder holding the model's ONNX file and "
            "tokenizer files, or unset STRATA_RERANK_MODEL to turn reranking off."
        ) from exc
