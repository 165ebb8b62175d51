"""Small helpers that turn frames into the compact markdown previews shown in the Dagster UI."""

from __future__ import annotations

import polars as pl


def markdown_table(frame: pl.DataFrame, max_rows: int = 20, max_cell: int = 120) -> str:
    if frame.is_empty():
        return "_none_"
    header = "| " + " | ".join(frame.columns) + " |\n|" + "---|" * len(frame.columns)
    rows = [
        "| " + " | ".join(str(v).replace("|", "\\|").replace("\n", " ")[:max_cell] for v in row) + " |"
        for row in frame.head(max_rows).iter_rows()
    ]
    if frame.height > max_rows:
        rows.append(f"| … {frame.height - max_rows} more rows |" + " |" * (len(frame.columns) - 1))
    return "\n".join([header, *rows])
