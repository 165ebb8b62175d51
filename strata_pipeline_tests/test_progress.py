"""Progress lines of long work: one per `every` items or `seconds`, the first and the last always."""

from __future__ import annotations

import pytest

from strata_pipeline.progress import PREFIX, progress_line, throttled


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_line_every_n_items_and_always_the_first_and_the_last() -> None:
    lines: list[str] = []
    report = throttled(lines.append, "redacted documents", every=100, seconds=1e9, clock=Clock())
    for done in range(1, 451):
        report(done, 450)
    assert [line.split()[3] for line in lines] == ["1/450", "101/450", "201/450", "301/450", "401/450", "450/450"]
    assert all(line.startswith(PREFIX + "redacted documents ") for line in lines)


def test_a_slow_item_writes_a_line_once_the_interval_has_passed() -> None:
    clock, lines = Clock(), []
    report = throttled(lines.append, "evaluated golden questions", every=1000, seconds=5.0, clock=clock)
    report(1, 40)
    for done in range(2, 6):
        clock.now += 2.0  # 2 s per question: a line once 5 s have passed since the last one
        report(done, 40)
    assert [line.split()[4] for line in lines] == ["1/40", "4/40"]


def test_the_line_says_rate_and_time_left_then_the_total_time() -> None:
    assert progress_line("embedded new chunk texts", 0, 64, 0.0) == f"{PREFIX}embedded new chunk texts 0/64"
    assert progress_line("embedded", 16, 64, 2.0) == f"{PREFIX}embedded 16/64 (8.0/s, ~6 s left)"
    assert progress_line("embedded", 64, 64, 8.0) == f"{PREFIX}embedded 64/64 in 8.0 s"


@pytest.mark.parametrize("total", [1, 2, 7])
def test_small_runs_report_every_item_they_have_up_to_the_last(total: int) -> None:
    lines: list[str] = []
    report = throttled(lines.append, "x", every=5, seconds=1e9, clock=Clock())
    for done in range(1, total + 1):
        report(done, total)
    assert lines[0].startswith(f"{PREFIX}x 1/{total}") and lines[-1].startswith(f"{PREFIX}x {total}/{total}")


def test_batches_write_their_first_and_last_line_too() -> None:
    lines: list[str] = []
    report = throttled(lines.append, "embedded new chunk texts", every=64, seconds=1e9, clock=Clock())
    for done in (16, 32, 48, 64, 80, 96, 112, 113):  # a batch of 16 at a time
        report(done, 113)
    assert [line.split()[5] for line in lines] == ["16/113", "80/113", "113/113"]
