"""Progress of long work (extraction, redaction, embedding, the eval), reported at a readable rate.

Stage functions take an optional `progress(done, total)` callback and call it once per item; they
know nothing of where it goes. `throttled` turns a line writer (`context.log.info` in an asset, `print`
elsewhere) into such a callback that writes a line every `every` items or every `seconds`, whichever
comes first, and always for the first and the last item: a 5,000-document run logs tens of lines, not
thousands, and a slow one still shows life every few seconds.

Every line starts with PREFIX, so `strata materialize` can pick them out of the run's event log and
print them under the step they belong to.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Progress = Callable[[int, int], None]  # (items done, items in all)

PREFIX = "progress: "


def progress_line(label: str, done: int, total: int, elapsed_s: float) -> str:
    """`progress: embedded 64/512 chunk texts (12.3/s, ~36 s left)`."""
    line = f"{PREFIX}{label} {done}/{total}"
    if done and elapsed_s > 0:
        rate = done / elapsed_s
        left = (total - done) / rate if rate else 0.0
        line += f" ({rate:.1f}/s, ~{left:.0f} s left)" if done < total else f" in {elapsed_s:.1f} s"
    return line


def throttled(
    write: Callable[[str], object],
    label: str,
    every: int = 100,
    seconds: float = 5.0,
    clock: Callable[[], float] = time.monotonic,
) -> Progress:
    """A progress callback writing `progress_line`s through `write`, at most one per `every` items
    unless `seconds` have passed since the last line; the first call and the last item always write."""
    started = clock()
    last = {"at": started, "done": 0, "lines": 0}

    def report(done: int, total: int) -> None:
        now = clock()
        first = last["lines"] == 0  # the first call writes, whatever it counts (a batch of 16, say)
        due = first or done >= total or done - last["done"] >= every or now - last["at"] >= seconds
        if not due:
            return
        last["at"], last["done"], last["lines"] = now, done, last["lines"] + 1
        write(progress_line(label, done, total, now - started))

    return report
