"""A multi-turn agent over the query engine's tools (docs/agent.md).

tools.py runs one tool call through a scoped QueryEngine and turns its result into data; planner.py
decomposes the compound questions it knows offline; loop.py runs a plan (offline) or Claude's tool
calls (claude_loop.py) and composes the audited answer with its trajectory. No Dagster here.
"""

from strata_pipeline.agent.loop import AgentResult, run_agent
from strata_pipeline.agent.tools import AgentBudgetExceeded, Budget, Step

__all__ = ["AgentBudgetExceeded", "AgentResult", "Budget", "Step", "run_agent"]
