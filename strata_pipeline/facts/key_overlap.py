"""Which columns an anti-join compares when two sheets name their key differently: `vehicle_id` in the vehicle
list, `fahrzeug` in the fuel-card sheet. Names say nothing here, values do: the pair of text columns whose
distinct values overlap most is the key, when most of the smaller column's values are in the other (a
reference column holds the keys it refers to). Dates and one-value columns never count: they overlap by chance.
"""

from __future__ import annotations

import re

from strata_pipeline.facts.catalogue import MAX_VALUES, Table

MIN_SHARE = 0.5  # of the smaller column's distinct values present in the other
MIN_COMMON = 2  # values both columns hold: one shared value ("yes", a city) is chance
DEFER = ("", "")  # the catalogue holds too few values to tell: compare the loaded rows instead
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def overlapping_columns(
    rows: dict[str, set[str]], other: dict[str, set[str]], prefer: str = ""
) -> tuple[str, str, float] | None:
    """(column of `rows`, column of `other`, share) of the pair whose values overlap most: most values in
    common, then the higher share, then `prefer` (the rows' key); None when no pair passes the floors.
    Values are compared as `normalised` texts."""
    best: tuple[tuple[int, float, bool], tuple[str, str, float]] | None = None
    for name, held in rows.items():
        for other_name, other_held in other.items():
            common = len(held & other_held)
            if common < MIN_COMMON or not _keyish(held) or not _keyish(other_held):
                continue
            share = common / min(len(held), len(other_held))
            rank = (common, share, name == prefer)
            if share >= MIN_SHARE and (best is None or rank > best[0]):
                best = (rank, (name, other_name, round(share, 3)))
    return best[1] if best else None


def normalised(values: list[str] | tuple[str, ...]) -> set[str]:
    """Texts as an anti-join compares them: case and outer spaces ignored, empty cells dropped."""
    return {v.strip().lower() for v in values if v and v.strip()}


def catalogue_columns(rows: Table, other: Table) -> tuple[str, str] | None:
    """The key pair read from the catalogue's value lists; DEFER when a text column on either side may have had
    too many values to be listed (the loaded rows decide); None when no pair overlaps."""
    found = overlapping_columns(_listed(rows), _listed(other), prefer=rows.columns[0].name if rows.columns else "")
    if found:
        return found[0], found[1]
    # a text column of a table with more rows than the catalogue lists values for may be a key it did not
    # list; in a shorter table, an unlisted column holds long texts (notes), never keys
    unlisted = any(
        c.kind == "text" and not c.values and t.row_count > MAX_VALUES for t in (rows, other) for c in t.columns
    )
    return DEFER if unlisted else None


def _listed(table: Table) -> dict[str, set[str]]:
    return {c.name: normalised(c.values) for c in table.columns if c.kind == "text" and c.values}


def _keyish(values: set[str]) -> bool:
    """Whether a column's values can be keys: two or more, not ISO dates."""
    return len(values) >= 2 and not all(_DATE.fullmatch(v) for v in values)
