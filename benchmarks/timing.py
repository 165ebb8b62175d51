"""Cost per 1,000 characters, the unit every redaction benchmark reports."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def ms_per_kchar(run: Callable[[str], object], texts: list[str], repeats: int = 3) -> float:
    """Median over `repeats` passes of `run` over all `texts`, in ms per 1,000 characters."""
    chars = sum(len(t) for t in texts)
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        for text in texts:
            run(text)
        timings.append(time.perf_counter() - started)
    return statistics.median(timings) * 1000 / (chars / 1000)
