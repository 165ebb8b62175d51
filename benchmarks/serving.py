"""Serving speed: `strata search` and `strata ask` start-up, cold, and `/search` throughput by worker
count, measured in one run over the index `make demo` publishes (`python -m benchmarks.serving`, part
of `make bench`; `--cold-only` stops after the cold start).

- Cold start: wall time of `strata search` and `strata ask` as a new process each, searching locally
  (no server, STRATA_API_URL unset), after one warm-up run that writes the .pyc caches; median of 5
  (--runs) against the 2 s target, with each run's CPU time beside it (on a shared machine the wall
  time waits for other processes, the CPU time does not). The commands run this checkout's code
  (`python -c "from strata_pipeline.cli import main; main()"`, which is what the `strata` script does).
- Through `STRATA_API_URL` (asking a running `strata serve`): `strata search`, median of 5.
- API: `strata serve --workers N` started as users start it; 1, 16 and 64 concurrent clients send
  the golden questions to `/search` for a fixed time each (an asyncio client over httpx); requests/s
  and p50/p95/p99 latency per client count.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

from strata_pipeline.evaluation.golden import load_golden
from strata_pipeline.settings import PROJECT_ROOT, load_settings

BIN = Path(sys.executable).parent
CLIENTS = (1, 16, 64)
COLD_TARGET_S = 2.0
STRATA = [sys.executable, "-c", "from strata_pipeline.cli import main; main()"]
COLD_COMMANDS = {
    "search": ["search", "How many weeks of paid parental leave?", "--k", "3"],
    "ask": ["ask", "What is the mileage rate for a personal car on a business trip?"],
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def questions() -> list[str]:
    found = []
    for name in ("handbook", "products"):
        golden = load_golden(PROJECT_ROOT / "golden", name)
        found += [q.question for q in golden.questions] if golden else []
    return found or ["How many weeks of parental leave?"]


def cli_seconds(env: dict[str, str], args: list[str], runs: int = 5) -> tuple[float, float]:
    """Median wall and CPU seconds of `strata <args>` as a new process, after one warm-up run."""
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}  # users have .pyc caches
    walls, cpus = [], []
    for run in range(runs + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run([*STRATA, *args], env=env, cwd=PROJECT_ROOT, check=True, capture_output=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if run:  # the first run writes the .pyc caches
            walls.append(wall)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def cold_start(env: dict[str, str], runs: int) -> dict[str, tuple[float, float]]:
    """`strata search` and `strata ask`, each a new process searching locally, against the target."""
    found = {}
    for name, args in COLD_COMMANDS.items():
        wall, cpu = found[name] = cli_seconds(env, args, runs)
        verdict = "met" if wall < COLD_TARGET_S else "NOT met"
        print(
            f"`strata {name}` cold, median of {runs}: {wall:.2f} s wall ({cpu:.2f} s CPU); "
            f"target {COLD_TARGET_S:.0f} s: {verdict}",
            flush=True,
        )
    return found


class Server:
    def __init__(self, workers: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [str(BIN / "strata"), "serve", "--port", str(self.port), "--workers", str(workers)],
            # every client here is 127.0.0.1: measure throughput, not the per-client rate limit
            env={**os.environ, "STRATA_RATE_LIMIT": "off"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def wait(self, texts: list[str]) -> None:
        deadline = time.time() + 180
        while time.time() < deadline:
            try:
                # every worker loads its engine on its first query: warm them all
                for text in texts[:16]:
                    httpx.post(f"{self.url}/search", json={"query": text}, timeout=60).raise_for_status()
                return
            except httpx.HTTPError:
                time.sleep(0.5)
        raise RuntimeError("strata serve did not answer within 180 s")

    def stop(self) -> None:
        os.killpg(self.process.pid, 15)
        self.process.wait(timeout=30)


async def load(
    url: str, texts: list[str], clients: int, seconds: float, errors: list[str] | None = None
) -> tuple[float, list[float]]:
    """Requests/s and latencies (ms) of `clients` concurrent /search callers for `seconds`. A failed
    request ends the run, unless `errors` is given: then it is kept there and the callers go on."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def client(offset: int, http: httpx.AsyncClient) -> None:
        n = offset
        while time.perf_counter() < stop:
            started = time.perf_counter()
            try:
                response = await http.post(f"{url}/search", json={"query": texts[n % len(texts)], "k": 5})
                if response.status_code != 200 and errors is not None:
                    errors.append(f"{response.status_code}: {response.text[:200]}")
                else:
                    response.raise_for_status()
            except httpx.HTTPError as exc:
                if errors is None:
                    raise
                errors.append(f"{type(exc).__name__}: {exc}")
            latencies.append((time.perf_counter() - started) * 1000)
            n += 1

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        started = time.perf_counter()
        await asyncio.gather(*(client(i, http) for i in range(clients)))
        elapsed = time.perf_counter() - started
    return len(latencies) / elapsed, latencies


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", default="1,4", help="worker counts to compare")
    parser.add_argument("--seconds", type=float, default=10.0, help="load time per client count")
    parser.add_argument("--runs", type=int, default=5, help="cold starts per command (after one warm-up)")
    parser.add_argument("--cold-only", action="store_true", help="stop after the cold-start figures")
    args = parser.parse_args()
    settings = load_settings()
    if not any((settings.index_dir).glob("*/CURRENT")):
        sys.exit(f"No published index under {settings.index_dir}: run `make demo` first.")
    texts = questions()
    env = {**os.environ, "STRATA_API_URL": ""}
    print(f"Index: {settings.index_dir}; {len(texts)} golden questions; {os.cpu_count()} CPUs")
    print(f"Load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    local = cold_start(env, args.runs)["search"][0]
    if args.cold_only:
        return
    rows = []
    for workers in [int(w) for w in args.workers.split(",")]:
        server = Server(workers)
        try:
            server.wait(texts)
            if workers == 1:
                remote = cli_seconds({**env, "STRATA_API_URL": server.url}, COLD_COMMANDS["search"])[0]
            for clients in CLIENTS:
                rate, lat = asyncio.run(load(server.url, texts, clients, args.seconds))
                rows.append((workers, clients, rate, pct(lat, 0.5), pct(lat, 0.95), pct(lat, 0.99), len(lat)))
        finally:
            server.stop()
    print(f"\n`strata search` as a new process, median of 5: local {local:.2f} s; via STRATA_API_URL {remote:.2f} s")
    print(f"\n/search under load ({args.seconds:.0f} s per row):")
    print(f"{'workers':>8}{'clients':>9}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'n':>7}")
    for workers, clients, rate, p50, p95, p99, n in rows:
        print(f"{workers:>8}{clients:>9}{rate:>9.1f}{p50:>9.1f}{p95:>9.1f}{p99:>9.1f}{n:>7}")
    base = {c: r for w, c, r, *_ in rows if w == rows[0][0]}
    for workers, clients, rate, *_ in rows:
        if workers != rows[0][0]:
            print(f"  {workers} workers / {rows[0][0]} at {clients} clients: {rate / base[clients]:.2f}x requests/s")


if __name__ == "__main__":
    main()
