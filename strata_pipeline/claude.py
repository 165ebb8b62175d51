"""Claude for enrichment, generated answers and judging: one message round trip, no Dagster.

The pipeline's AnthropicResource configures one of these; a query (CLI, API) builds one directly.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, cast


def model_family(name: str) -> str:
    """A dated model id and its alias ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5") name one model."""
    return re.sub(r"-(\d{8}|latest)$", "", name.strip().lower())


def check_judge(model: str, judge_model: str) -> None:
    """Answers must be graded by a different model than the one that wrote them."""
    if model_family(judge_model) == model_family(model):
        raise ValueError(
            f"The judge model ({judge_model}) is the generator model ({model}): answers must be "
            "graded by a different model. Set STRATA_JUDGE_MODEL (or STRATA_ANTHROPIC_MODEL) so they differ."
        )


# Faithfulness verdicts carry a reason per statement: long answers need room for the JSON.
JUDGE_MAX_TOKENS = 2048


@dataclass(frozen=True, kw_only=True)
class Claude:
    """Disabled when no API key is set."""

    api_key: str = ""
    model: str = "claude-sonnet-4-5"
    judge_model: str = "claude-haiku-4-5"  # grades the answers (ragas); never the model that wrote them
    max_tokens: int = 1024

    @property
    def enabled(self) -> bool:
        return bool(self.api_key)

    def judge(self) -> Claude:
        """This client with the judge model in place of the generator."""
        check_judge(self.model, self.judge_model)
        return dataclasses.replace(self, model=self.judge_model, max_tokens=max(self.max_tokens, JUDGE_MAX_TOKENS))

    def complete(self, system: str, user: str) -> str:
        """One message round trip; raises when the API fails so callers can fall back."""
        import anthropic  # only a configured key pays for the import

        client = anthropic.Anthropic(api_key=self.api_key, max_retries=3)
        message = client.messages.create(
            model=self.model,
            max_tokens=self.max_tokens,
            system=system,
            messages=[{"role": "user", "content": user}],
        )
        return "".join(block.text for block in message.content if block.type == "text")

    def create_message(self, system: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
        """One tool-use round trip (the agent, agent/claude_loop.py): the SDK's Message, with its tool_use
        blocks and token usage."""
        import anthropic

        client = anthropic.Anthropic(api_key=self.api_key, max_retries=3)
        return client.messages.create(
            model=self.model,
            max_tokens=self.max_tokens,
            system=system,
            messages=cast(Any, messages),
            tools=cast(Any, tools),
        )
