from __future__ import annotations

import dagster as dg


class AnthropicResource(dg.ConfigurableResource):
    """Claude for enrichment, generation and judging. Disabled when no API key is set."""

    api_key: str = ""
    model: str = "claude-sonnet-4-5"
    max_tokens: int = 1024

    @property
    def enabled(self) -> bool:
        return bool(self.api_key)

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
