"""Progress on a log file or a pipe (``fuzz``, ``check``): plain lines with the count and the time left,
after the first 5 s and then every 30 s; nothing for work that ends sooner."""

from __future__ import annotations

import io

from monolith_envs.core.cli import LineProgress, progress_bar


class _Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def _bar(out, clock):
    bar = LineProgress(200, "fuzz x_v0", "game", file=out)
    bar._clock = clock
    bar.t0, bar._next = clock(), clock() + 5.0
    return bar


def test_lines_come_after_5_s_then_every_30_s_with_the_time_left():
    out, clock = io.StringIO(), _Clock()
    bar = _bar(out, clock)
    clock.t += 4.0
    bar.update(10)
    assert out.getvalue() == ""
    clock.t += 6.0  # 10 s in, 40 of 200 done: 40 s left at this rate
    bar.update(30)
    assert out.getvalue() == "fuzz x_v0: 40 of 200 games (20%), 10 s, about 40 s left\n"
    clock.t += 29.0
    bar.update(10)
    assert out.getvalue().count("\n") == 1
    clock.t += 1.0  # 40 s in, 30 s after the last line
    bar.update(50)
    assert out.getvalue().splitlines()[-1] == "fuzz x_v0: 100 of 200 games (50%), 40 s, about 40 s left"
    bar.close()
    bar.close()
    assert out.getvalue().splitlines()[-1] == "fuzz x_v0: 100 of 200 games (50%), 40 s" and out.getvalue().count("\n") == 3


def test_work_done_within_5_s_prints_nothing():
    out, clock = io.StringIO(), _Clock()
    bar = _bar(out, clock)
    bar.update(200)
    clock.t += 4.9
    bar.close()
    assert out.getvalue() == ""


def test_the_display_follows_the_stream():
    assert progress_bar(5, "d", "game", enabled=False, file=io.StringIO()) is None
    assert isinstance(progress_bar(5, "d", "game", file=io.StringIO()), LineProgress)

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    bar = progress_bar(5, "d", "game", file=Terminal())
    assert type(bar).__name__ == "tqdm" and bar.total == 5
    bar.close()
