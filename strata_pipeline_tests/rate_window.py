"""Rate-limit tests count requests in a sliding window aligned to the clock (the `limits` library's
sliding-window counter): a test that crosses a minute boundary sees its earlier requests weigh less
and its last one let through. Such a test starts early in a minute instead."""

from __future__ import annotations

import time


def start_early_in_the_window(needed_s: float = 30.0, period_s: float = 60.0) -> None:
    """Sleep until the next window starts when fewer than `needed_s` seconds of this one are left."""
    left = period_s - time.time() % period_s
    if left < needed_s:
        time.sleep(left + 0.05)
