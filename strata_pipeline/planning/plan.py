"""Build the dry-run plan of a classified source-set.

It answers, before anything is embedded: which documents are in and out and by which rule, which
projects end up with no indexed content (blind spots) or dominate the index (outliers), how much
redaction the text needs, and roughly how many chunks (hence embedding time) the index will cost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import polars as pl

from strata_pipeline.chunking.chunker import ChunkingConfig, window_bounds

OUTLIER_FACTOR = 5.0  # a project with more than 5x the median project's estimated chunks

# doc text -> (secret values, personal-data values) it would redact
RedactionCounter = Callable[[str], tuple[int, int]]


@dataclass(frozen=True)
class Plan:
    documents: pl.DataFrame  # one row per file
    projects: pl.DataFrame  # one row per project (first folder level)

    @property
    def blind_spots(self) -> list[str]:
        return self.projects.filter(pl.col("status") == "blind_spot")["project"].to_list()

    @property
    def outliers(self) -> list[str]:
        return self.projects.filter(pl.col("status") == "outlier")["project"].to_list()

    def totals(self) -> dict[str, int]:
        docs = self.documents
        return {
            "files": docs.height,
            "included": docs.filter(pl.col("decision") == "include").height,
            "excluded": docs.filter(pl.col("decision") == "exclude").height,
            "metadata_only": docs.filter(pl.col("decision") == "metadata_only").height,
            "estimated_chunks": int(docs["estimated_chunks"].sum() or 0),
            "secrets_to_redact": int(docs["secrets"].sum() or 0),
            "pii_to_redact": int(docs["pii"].sum() or 0),
            "blind_spots": len(self.blind_spots),
            "outliers": len(self.outliers),
        }


def estimate_chunks(text: str, config: ChunkingConfig) -> int:
    return len(window_bounds(text, config)) if text.strip() else 0


def build_plan(classified: pl.DataFrame, config: ChunkingConfig, count_redactions: RedactionCounter) -> Plan:
    rows = []
    for doc in classified.iter_rows(named=True):
        indexed = doc["decision"] == "include" and doc["status"] == "ok"
        secrets, pii = (
            count_redactions(doc["text"]) if doc["decision"] != "exclude" and doc["status"] == "ok" else (0, 0)
        )
        rows.append(
            {
                "doc_id": doc["doc_id"],
                "project": doc["project"] or "(top level)",
                "decision": doc["decision"],
                "rule": doc["rule"],
                "doc_type": doc.get("doc_type") or doc.get("kind") or "",
                "chars": len(doc["text"] or ""),
                "estimated_chunks": estimate_chunks(doc["text"] or "", config) if indexed else 0,
                "secrets": secrets,
                "pii": pii,
                "error_code": doc["error_code"] or "",
                "warnings": ", ".join(doc.get("warnings") or []),
            }
        )
    schema = {
        "doc_id": pl.String, "project": pl.String, "decision": pl.String, "rule": pl.String, "doc_type": pl.String,
        "chars": pl.Int64, "estimated_chunks": pl.Int64, "secrets": pl.Int64, "pii": pl.Int64,
        "error_code": pl.String, "warnings": pl.String,
    }  # fmt: skip
    documents = pl.DataFrame(rows, schema=schema, orient="row")
    return Plan(documents=documents, projects=project_coverage(documents))


def project_coverage(documents: pl.DataFrame) -> pl.DataFrame:
    """Per project: files by decision, estimated chunks, and ok / blind_spot / outlier."""
    if documents.is_empty():
        return pl.DataFrame(
            schema={"project": pl.String, "files": pl.UInt32, "included": pl.UInt32, "excluded": pl.UInt32,
                    "metadata_only": pl.UInt32, "estimated_chunks": pl.Int64, "status": pl.String}
        )  # fmt: skip
    projects = (
        documents.group_by("project")
        .agg(
            pl.len().alias("files"),
            (pl.col("decision") == "include").sum().alias("included"),
            (pl.col("decision") == "exclude").sum().alias("excluded"),
            (pl.col("decision") == "metadata_only").sum().alias("metadata_only"),
            pl.col("estimated_chunks").sum().alias("estimated_chunks"),
        )
        .sort("project")
    )
    with_content = projects.filter(pl.col("estimated_chunks") > 0)["estimated_chunks"]
    median = float(cast(float, with_content.median()) or 0.0) if with_content.len() else 0.0
    return projects.with_columns(
        pl.when(pl.col("included") == 0)
        .then(pl.lit("blind_spot"))
        .when((with_content.len() >= 3) & (pl.col("estimated_chunks") > OUTLIER_FACTOR * median))
        .then(pl.lit("outlier"))
        .otherwise(pl.lit("ok"))
        .alias("status")
    )
