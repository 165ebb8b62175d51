"""Serving through a materialisation and its flip: does the API answer every request while a run
rebuilds a source-set and re-points CURRENT under it (`python -m benchmarks.serving_flip`, part of
`make bench`)?

Everything happens in a temporary STRATA_HOME: the sample source-set `handbook` (golden/corpus) is
published once; then `strata serve --workers N` is started as users start it, and for 16 and 64
concurrent clients the golden questions go to `/search` for --seconds (60) each, while
`strata materialize --source-set handbook --force` runs again and again in the background (every run
ends by publishing a new version, i.e. flipping CURRENT). Reported per client count: requests, errors
(any non-200 answer or failed connection; the target is 0), requests/s, p50/p95/p99 latency, and how
many flips the window saw. The commands run this checkout's code.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import httpx

from benchmarks.serving import STRATA, free_port, load, pct, questions
from strata_pipeline.home import HomeLayout
from strata_pipeline.indexing.versions import current_version_name, published_history
from strata_pipeline.settings import PROJECT_ROOT

SOURCE_SET = "handbook"
CLIENTS = (16, 64)


class Rebuilds:
    """`strata materialize --force` of one source-set in a loop, in the background, until stopped."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env, self.runs, self.failed = env, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self._stop.is_set():
            done = subprocess.run(
                [*STRATA, "materialize", "--source-set", SOURCE_SET, "--force"],
                env=self.env, cwd=PROJECT_ROOT, capture_output=True, text=True,
            )  # fmt: skip
            self.runs += 1
            self.failed += done.returncode != 0

    def __enter__(self) -> Rebuilds:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()  # lets the current run finish: a killed one would leave a dead run


def start_server(env: dict[str, str], workers: int, texts: list[str], log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [*STRATA, "serve", "--port", str(port), "--workers", str(workers)],
        env={**env, "STRATA_RATE_LIMIT": "off"},  # every client is 127.0.0.1: measure serving, not the limit
        cwd=PROJECT_ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    deadline = time.time() + 180
    while time.time() < deadline:
        try:
            for text in texts[:16]:  # every worker loads its engine on its first query: warm them all
                httpx.post(f"{url}/search", json={"query": text}, timeout=60).raise_for_status()
            return process, url
        except httpx.HTTPError:
            time.sleep(0.5)
    os.killpg(process.pid, 15)
    raise RuntimeError("strata serve did not answer within 180 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="load time per client count")
    parser.add_argument("--workers", type=int, default=1, help="API worker processes")
    args = parser.parse_args()
    texts = questions()
    with tempfile.TemporaryDirectory(prefix="strata-flip-") as tmp:
        root = Path(tmp)
        shutil.copytree(PROJECT_ROOT / "golden" / "corpus" / SOURCE_SET, root / "corpus" / SOURCE_SET)
        env = {
            **os.environ, "STRATA_HOME": str(root / "home"), "STRATA_CORPUS_ROOT": str(root / "corpus"),
            "DAGSTER_HOME": str(root / "home" / "dagster_home"), "STRATA_API_URL": "", "QDRANT_URL": "",
        }  # fmt: skip
        index_dir = HomeLayout(root / "home").index_dir
        started = time.perf_counter()
        subprocess.run([*STRATA, "materialize", "--source-set", SOURCE_SET], env=env, cwd=PROJECT_ROOT, check=True)
        print(f"{SOURCE_SET} published in {time.perf_counter() - started:.0f} s; load average {os.getloadavg()[0]:.2f}")
        server_log = root / "serve.log"
        server, url = start_server(env, args.workers, texts, server_log)
        rows = []
        try:
            for clients in CLIENTS:
                flips_before = len(published_history(index_dir, SOURCE_SET))
                with Rebuilds(env) as rebuilds:
                    errors: list[str] = []
                    rate, lat = asyncio.run(load(url, texts, clients, args.seconds, errors))
                    flips = len(published_history(index_dir, SOURCE_SET)) - flips_before  # within the window
                rows.append((clients, len(lat), len(errors), rate, lat, flips, rebuilds.runs, rebuilds.failed))
                for error in sorted(set(errors))[:5]:
                    print(f"  error at {clients} clients: {error}")
                if errors:  # what the server said about them, without its access log of answered requests
                    said = [line for line in server_log.read_text().splitlines() if not line.endswith(" 200 OK")]
                    print("\n".join(said[-60:]))
        finally:
            os.killpg(server.pid, 15)
            server.wait(timeout=30)
        served = current_version_name(index_dir, SOURCE_SET)
        print(f"\n/search for {args.seconds:.0f} s per row while `strata materialize --force` rebuilt and re-published")
        print(f"{SOURCE_SET} in a loop ({args.workers} API worker(s); served at the end: {served}):")
        header = ("clients", 8), ("requests", 10), ("errors", 8), ("req/s", 8), ("p50 ms", 9), ("p95 ms", 9)
        print("".join(f"{name:>{width}}" for name, width in header) + f"{'p99 ms':>9}{'flips':>7}{'runs':>6}")
        for clients, n, n_errors, rate, lat, flips, runs, failed in rows:
            print(
                f"{clients:>8}{n:>10}{n_errors:>8}{rate:>8.1f}{pct(lat, 0.5):>9.1f}{pct(lat, 0.95):>9.1f}"
                f"{pct(lat, 0.99):>9.1f}{flips:>7}{runs:>6}" + (f"  ({failed} runs FAILED)" if failed else "")
            )


if __name__ == "__main__":
    main()
