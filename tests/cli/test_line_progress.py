"""Progress on a log file or a pipe (``fuzz``, ``check``): plain lines with the count and the time left,
after the first 5 s and then every 30 s; nothing for work that ends sooner."""

from __future__ import annotations

import io
import re

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
    bar.set_postfix_str("1 failure")
    bar.update(49)
    assert out.getvalue().splitlines()[-1] == "fuzz x_v0: 99 of 200 games (49%), 40 s, about 41 s left; 1 failure"
    bar.update(1)
    bar.close()
    bar.close()
    assert out.getvalue().splitlines()[-1] == "fuzz x_v0: 100 of 200 games (50%), 40 s; 1 failure"
    assert out.getvalue().count("\n") == 3


def test_the_last_line_is_not_said_twice_and_long_times_are_in_words():
    out, clock = io.StringIO(), _Clock()
    bar = _bar(out, clock)
    clock.t += 7200.0
    bar.update(1)  # 1 of 200 in two hours: 199 times as long again
    bar.update(198)
    clock.t += 30.0
    bar.update(1)
    bar.close()
    assert out.getvalue().splitlines() == ["fuzz x_v0: 1 of 200 games (0%), 2 h 0 min, about 16 days left",
                                           "fuzz x_v0: 200 of 200 games (100%), 2 h 0 min"]


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


def test_fuzz_and_check_on_a_pipe_print_progress_lines_with_the_failures(tmp_path, monkeypatch, capsys):
    """End to end, with the first line due at once: ``fuzz`` and ``check`` write to stderr that is not a
    terminal (pytest's capture) and print their lines, fuzz's with its failure count; the findings and the
    summary stay on stdout."""
    from monolith_envs.__main__ import main
    from tests.cli import preload_faulty  # noqa: F401  (registers toy_faulty_v0, whose invariants fail)

    monkeypatch.setattr(LineProgress.__init__, "__defaults__", (None, 30.0, 0.0, 0))  # file, every_s, first_s, initial
    assert main(["fuzz", "toy_faulty_v0", "--games", "3", "--workers", "1", "--out", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert lines[0] == "fuzz toy_faulty_v0: 1 of 3 games (33%), 0 s, about 0 s left; 1 failure", err
    failures = int(re.search(r" failures=(\d+) ", out).group(1))
    assert failures >= 2 and lines[-1] == f"fuzz toy_faulty_v0: 3 of 3 games (100%), 0 s; {failures} failures", err
    assert "fuzz toy_faulty_v0: games=3 " in out and " of 3 games" not in out
    assert main(["check", "toy_tictactoe_v0", "--games", "2"]) == 0
    err = capsys.readouterr().err
    assert err.splitlines()[0].startswith("check toy_tictactoe_v0: 1 of 2 games (50%), 0 s"), err


def test_units_are_plural_in_english():
    out, clock = io.StringIO(), _Clock()
    bar = LineProgress(80, "fit", "batch", file=out)
    bar._clock = clock
    bar.t0, bar._next = clock(), clock()  # the first line at the first update
    bar.update(80)
    assert out.getvalue() == "fit: 80 of 80 batches (100%), 0 s\n"
