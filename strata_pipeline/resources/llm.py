from __future__ import annotations

import re

import dagster as dg


def _model_family(name: str) -> str:
    """A dated model id and its alias ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5") name one model."""
    return re.sub(r"-(\d{8}|latest)$", "", name.strip().lower())


class AnthropicResource(dg.ConfigurableResource):
    """Claude for enrichment, generation and judging. Disabled when no API key is set."""

    api_key: str = ""
    model: str = "claude-sonnet-4-5"
    judge_model: str = "claude-haiku-4-5"  # grades the answers (ragas); never the model that wrote them
    max_tokens: int = 1024

    @property
    def enabled(self) -> bool:
        return bool(self.api_key)

    def judge(self) -> AnthropicResource:
        """This resource with the judge model in place of the generator: same key, client and subclass."""
        if _model_family(self.judge_model) == _model_family(self.model):
            raise ValueError(
                f"The judge model ({self.judge_model}) is the generator model ({self.model}): answers must be "
                "graded by a different model. Set STRATA_JUDGE_MODEL (or STRATA_ANTHROPIC_MODEL) so they differ."
            )
        # Faithfulness verdicts carry a reason per statement: long answers need room for the JSON.
        return self.model_copy(update={"model": self.judge_model, "max_tokens": max(self.max_tokens, 2048)})

    def complete(self, system: str, user: str) -> str:
        """One message round trip; raises when the API fails so callers can fall back."""
        import anthropic

        client = anthropic.Anthropic(api_key=self.api_key, max_retries=3)
        message = client.messages.create(
            model=self.model,
            max_tokens=self.max_tokens,
            system=system,
            messages=[{"role": "user", "content": user}],
        )
        return "".join(block.text for block in message.content if getattr(block, "type", "") == "text")
