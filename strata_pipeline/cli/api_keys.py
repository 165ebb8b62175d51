"""`strata keys`: create API key entries in the keys file (STRATA_API_KEYS); the key is printed once.
And whom `strata search/ask --as NAME` run as (`caller_named`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from strata_pipeline.access.groups import Access


@click.group()
def keys() -> None:
    """API keys for `strata serve`: who may call it and which document groups each caller reads."""


@keys.command("add")
@click.argument("name")
@click.option("--group", "groups", multiple=True, required=True, help="A document group it reads (repeat; '*': all).")
@click.option("--rate-limit", default=None, help="Its own rate limit, e.g. '60/minute' (default: STRATA_RATE_LIMIT).")
@click.option(
    "--file",
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The keys file (default: STRATA_API_KEYS).",
)
def add(name: str, groups: tuple[str, ...], rate_limit: str | None, path: Path | None) -> None:
    """Create a key for NAME: its sha256 goes into the keys file, the key itself is printed once."""
    from strata_pipeline.access.keys import KEYS_ENV, add_key, keys_path

    path = path or keys_path()
    if path is None:
        raise click.ClickException(f"Name the keys file with --file or {KEYS_ENV}.")
    if rate_limit is not None:
        import limits

        try:
            limits.parse_many(rate_limit)
        except ValueError:
            raise click.BadParameter(f"{rate_limit!r} is not a rate limit; use e.g. '60/minute'.") from None
    try:
        key = add_key(path, name, list(groups), rate_limit)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"Added {name!r} (groups: {', '.join(groups)}) to {path}. The key, shown only now:", err=True)
    click.echo(key)


def caller_named(as_name: str | None) -> Access:
    """Whom a local search runs as. Without --as: the operator, every group. Whoever can run this
    command here can open the index and sidecar files directly, so hiding groups from them would
    protect nothing; --as shows exactly what one key's holder gets from the API."""
    from strata_pipeline.access.groups import Access
    from strata_pipeline.access.keys import KEYS_ENV, keys_path, load_keys

    if as_name is None:
        return Access.operator()
    path = keys_path()
    if path is None:
        raise click.ClickException(f"--as {as_name} reads the keys file: set {KEYS_ENV}.")
    try:
        return load_keys(path).by_name(as_name).access
    except (ValueError, LookupError) as exc:
        raise click.ClickException(str(exc)) from exc
