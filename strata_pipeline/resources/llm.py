from __future__ import annotations

import dagster as dg

from strata_pipeline.claude import JUDGE_MAX_TOKENS, Claude, check_judge


class AnthropicResource(dg.ConfigurableResource):
    """Dagster config for a `Claude` client (claude.py), for enrichment, generation and judging.
    Disabled when no API key is set."""

    # the defaults are the plain client's, so the two cannot drift apart
    api_key: str = Claude.api_key
    model: str = Claude.model
    judge_model: str = Claude.judge_model  # grades the answers (ragas); never the model that wrote them
    max_tokens: int = Claude.max_tokens

    @property
    def enabled(self) -> bool:
        return bool(self.api_key)

    def judge(self) -> AnthropicResource:
        """This resource with the judge model in place of the generator: same key, client and subclass."""
        check_judge(self.model, self.judge_model)
        return self.model_copy(update={"model": self.judge_model, "max_tokens": max(self.max_tokens, JUDGE_MAX_TOKENS)})

    def complete(self, system: str, user: str) -> str:
        """One message round trip; raises when the API fails so callers can fall back."""
        return Claude(
            api_key=self.api_key, model=self.model, judge_model=self.judge_model, max_tokens=self.max_tokens
        ).complete(system, user)
