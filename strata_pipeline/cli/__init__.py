"""`strata`: materialise source-sets, search, ask and serve from the command line.

One module per concern: runs.py (materialize, remove, rollback), documents.py (plan, redact),
query.py (search, ask, facts), chat.py (chat), evidence.py (verify), servers.py (serve, mcp, ui),
api_keys.py (keys). Each imports its heavy libraries inside its commands, so `strata search` loads no
Dagster.
"""

from __future__ import annotations

import click

from strata_pipeline.cli.api_keys import keys
from strata_pipeline.cli.chat import chat
from strata_pipeline.cli.documents import plan, redact
from strata_pipeline.cli.evidence import verify
from strata_pipeline.cli.query import ask, facts, search
from strata_pipeline.cli.runs import materialize, remove, rollback
from strata_pipeline.cli.servers import mcp, serve, ui


class _Group(click.Group):
    """Turns expected user errors into one clear line instead of a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        from strata_pipeline.retrieval.search import UnknownSourceSetError

        try:
            return super().invoke(ctx)
        except UnknownSourceSetError as exc:
            raise click.ClickException(str(exc)) from exc


@click.group(cls=_Group)
def main() -> None:
    """Strata Pipeline: turn document folders into a governed, evaluated retrieval index."""


for command in (materialize, plan, search, ask, chat, facts, verify, remove, rollback, redact, serve, mcp, ui, keys):
    main.add_command(command)
