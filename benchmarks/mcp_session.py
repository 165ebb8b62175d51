"""One MCP client session against `strata mcp` over stdio, timed as an agent client sees it
(`python -m benchmarks.mcp_session`, over the index STRATA_HOME holds, as the operator):
spawn and handshake, the first `search` (it loads the query models), the median of warm searches
over the golden questions, then one `ask`. The server runs this checkout's code.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from strata_pipeline.evaluation.golden import load_golden
from strata_pipeline.settings import PROJECT_ROOT, load_settings


async def session(questions: list[str], k: int) -> dict[str, float | int]:
    """Figures of one session: seconds, except the warm median (milliseconds) and its count."""
    env = {**os.environ, "STRATA_API_URL": ""}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")]))
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "strata_pipeline.cli", "mcp"], env=env, cwd=PROJECT_ROOT
    )
    started = time.perf_counter()
    async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        ready = time.perf_counter()
        timed = []
        for question in questions:
            before = time.perf_counter()
            result = await client.call_tool("search", {"query": question, "k": k})
            if result.is_error:
                raise SystemExit(f"search failed: {result.content}")
            timed.append(time.perf_counter() - before)
        before = time.perf_counter()
        asked = await client.call_tool("ask", {"query": questions[0], "k": k})
        if asked.is_error:
            raise SystemExit(f"ask failed: {asked.content}")
        return {
            "spawn_and_initialize_s": ready - started,
            "first_search_s": timed[0],
            "warm_search_median_ms": 1000 * statistics.median(timed[1:]),
            "warm_searches": len(timed) - 1,
            "ask_s": time.perf_counter() - before,
        }


def show(figures: dict[str, float | int]) -> None:
    for name, value in figures.items():
        print(f"{name:>24}: {value:.2f}" if isinstance(value, float) else f"{name:>24}: {value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source-set", default="handbook", help="Whose golden questions to send.")
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    golden = load_golden(load_settings().golden_dir, args.source_set)
    if golden is None:
        raise SystemExit(f"No golden questions for {args.source_set!r}.")
    questions = [q.question for q in golden.questions]
    show(anyio.run(session, questions, args.k))


if __name__ == "__main__":
    main()
