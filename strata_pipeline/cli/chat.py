"""`strata chat`: the agent (docs/agent.md) as an interactive prompt, or one turn with --json.

Through a running `strata serve` (POST /chat) when STRATA_API_URL names one, else over the published
index in this process, like `strata ask`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from strata_pipeline.cli.api_keys import caller_named
from strata_pipeline.cli.options import one, query_options, valid_query
from strata_pipeline.cli.query import _ask_server, _engine
from strata_pipeline.settings import load_settings
from strata_pipeline.validation import HISTORY_MAX_MESSAGES, TURN_MAX_CHARS

if TYPE_CHECKING:
    from strata_pipeline.query_engine import QueryEngine

QUIT = ("", "exit", "quit", ":q")


def _question(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    return None if value is None else valid_query(ctx, param, value)


def read_history(path: Path | None) -> list[dict[str, str]]:
    """The conversation so far from a JSON list of {role, content}; none when the file does not exist."""
    if path is None or not path.exists():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "[]")
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"{path} is not JSON: {exc}") from exc
    if not isinstance(data, list) or not all(
        isinstance(m, dict) and m.get("role") in ("user", "assistant") and isinstance(m.get("content"), str)
        for m in data
    ):
        raise click.ClickException(f'{path} must hold a JSON list of {{"role": "user"|"assistant", "content": "..."}}.')
    return [{"role": m["role"], "content": m["content"]} for m in data]


def turn(question: str, response: dict[str, Any]) -> list[dict[str, str]]:
    """This turn as history: the question and the answer (or why there is none)."""
    said = response["answer"] if not response["abstained"] else f"(no answer) {response['reason']}"
    return [{"role": "user", "content": question}, {"role": "assistant", "content": said}]


@click.command()
@click.argument("question", required=False, callback=_question)
@query_options
@click.option(
    "--history",
    "history_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A JSON file with the conversation so far ([{role, content}]); each turn is appended to it.",
)
def chat(
    question: str | None, source_set: str | None, as_name: str | None, k: int, as_json: bool, history_file: Path | None
) -> None:
    """Ask the agent: compound questions become tool calls, shown as a trajectory. With QUESTION (or
    --json, which needs it) one turn; without, an interactive prompt (an empty line or `exit` ends it)."""
    if as_json and question is None:
        raise click.UsageError("--json answers one QUESTION: give it as an argument.")
    history = read_history(history_file)
    caller = caller_named(as_name)
    operator: QueryEngine | None = None
    settings = load_settings()

    def answer(q: str) -> dict[str, Any]:
        nonlocal operator
        latest = history[-HISTORY_MAX_MESSAGES:]
        recent = [{"role": m["role"], "content": m["content"][:TURN_MAX_CHARS]} for m in latest]
        body = {"question": q, "history": recent, "k": k, "source_set": source_set}  # what /chat accepts
        remote = None if as_name else _ask_server("/chat", body)
        if remote is not None:
            return remote
        from dataclasses import asdict

        from strata_pipeline.agent import AgentBudgetExceeded, Budget, run_agent
        from strata_pipeline.redaction.guard import AnswerWithheld
        from strata_pipeline.responses import chat_response

        operator = operator or _engine(settings, source_set)
        budget = Budget(settings.agent_max_steps, settings.agent_max_tokens)
        try:
            result = run_agent(operator.scoped(caller), q, history, k, one(source_set), budget)
        except (AgentBudgetExceeded, AnswerWithheld) as exc:
            raise click.ClickException(str(exc)) from exc
        return asdict(chat_response(result))

    try:
        for q in [question] if question is not None else _prompt():
            response = answer(q)
            history.extend(turn(q, response))
            if history_file is not None:
                history_file.write_text(json.dumps(history, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            click.echo(json.dumps(response, indent=2) if as_json else _render(response))
    finally:
        if operator is not None:
            operator.close()


def _prompt() -> Any:
    while True:
        try:
            line = click.prompt("you", default="", show_default=False, prompt_suffix="> ")
        except (EOFError, click.Abort):
            return
        if line.strip().lower() in QUIT:
            return
        try:
            yield valid_query(click.get_current_context(), click.Argument(["question"]), line)
        except click.BadParameter as exc:
            click.echo(f"({exc.message})", err=True)


def _render(response: dict[str, Any]) -> str:
    lines = [f"(no answer) {response['reason']}" if response["abstained"] else response["answer"]]
    for c in response["citations"]:
        lines.append(f"  [{c['chunk_id']}] {c['source_set']}/{c['doc_id']} lines {c['line_start']}-{c['line_end']}")
    for number, step in enumerate(response.get("trajectory") or [], start=1):
        args = ", ".join(f"{key}={value!r}" for key, value in step["arguments"].items())
        lines.append(f"  step {number}: {step['tool']}({args}) -> {step['summary']} ({step['ms']:.0f} ms)")
    return "\n".join(lines)
