"""Table rows in passage text, as the answerer and the agent's row answers read them."""

from __future__ import annotations

from collections.abc import Sequence


def cells(line: str) -> list[str]:
    """The cells of a "| a | b |" or "a | b" row, stripped."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def as_record(names: Sequence[str], values: Sequence[str]) -> str:
    """A row read with its column names, "name: value; ...", empty cells left out: alone,
    "| Saturday | 09:00 - 12:00 |" says nothing about opening hours."""
    return "; ".join(f"{name}: {value}" for name, value in zip(names, values, strict=True) if value)
