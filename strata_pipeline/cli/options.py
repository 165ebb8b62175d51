"""Argument checks and options shared by several `strata` commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from strata_pipeline.validation import K_DEFAULT, K_MAX, K_MIN, check_query, check_source_set

F = TypeVar("F", bound=Callable[..., object])


def valid_source_sets(
    ctx: click.Context, param: click.Parameter, value: str | tuple[str, ...] | None
) -> str | tuple[str, ...] | None:
    """Every --source-set is a partition key (a slug) before it gets near a path: `plan` reads the folder
    and writes its CSVs under the reports folder by this name."""
    names = value if isinstance(value, tuple) else () if value is None else (value,)
    for name in names:
        try:
            check_source_set(name)
        except ValueError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return value


def valid_query(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        return check_query(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def source_set_selection(fn: F) -> F:
    """--source-set, repeatable: the commands that work on several source-sets at once."""
    return click.option(
        "--source-set",
        "selected",
        multiple=True,
        callback=valid_source_sets,
        help="Only these source-sets (default: every folder).",
    )(fn)


def query_options(fn: F) -> F:
    fn = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(fn)
    fn = click.option(
        "--k",
        default=K_DEFAULT,
        show_default=True,
        type=click.IntRange(K_MIN, K_MAX),  # the API's bounds: one rule however a query arrives
        help="How many chunks to return.",
    )(fn)
    fn = click.option(
        "--as",
        "as_name",
        default=None,
        help="Search as the holder of this API key (a name in STRATA_API_KEYS): only its document groups. "
        "Without it you are the local operator and read every group.",
    )(fn)
    return click.option("--source-set", default=None, callback=valid_source_sets, help="Search only this source-set.")(
        fn
    )


def one(source_set: str | None) -> list[str] | None:
    return [source_set] if source_set else None
