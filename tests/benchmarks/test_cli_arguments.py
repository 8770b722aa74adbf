"""Bad command-line input of ``benchmarks.profiling``, ``benchmarks.distributed`` and ``benchmarks.vector`` is
one ``error:`` line and exit status 2 before anything is measured (Ray never started), and a signal stops
``benchmarks.vector`` cleanly (the rows measured so far, exit status 130 / 143)."""

from __future__ import annotations

import signal
import sys

import pytest

from benchmarks import distributed, profiling, vector
from tests.usage import one_usage_error


def _usage_error(main, argv: list[str], capsys) -> str:
    """The one ``error:`` line of ``main(argv)``, which must exit with status 2 and print no traceback."""
    return one_usage_error(capsys, lambda: main(argv))


@pytest.fixture
def no_profiling(monkeypatch):
    monkeypatch.setattr(profiling, "profile_loop", lambda *a, **k: pytest.fail("profiled despite a bad argument"))


@pytest.mark.parametrize("argv, fragment", [
    (["--env", "foo"], "error: --env: unknown env id 'foo'; registered: monolith_arena_v0"),
    (["--set", "foo=1"], "error: --set: monolith_arena_v0: unknown config key(s) 'foo'; valid keys: num_players"),
    (["--set", "num_players"], "error: --set: a setting is KEY=VALUE (e.g. num_players=4), got 'num_players'"),
    (["--set", "num_players=99"], "error: --set: monolith_arena_v0: config num_players=99 is not allowed"),
    (["--import", "nosuch"], "error: --import 'nosuch': cannot import it (No module named 'nosuch')"),
    (["--seconds", "nan"], "error: argument --seconds: expected a number from 0.05 to 3600, got 'nan'"),
    (["--seconds", "1e9"], "error: argument --seconds: expected a number from 0.05 to 3600, got '1e9'"),
    (["--seconds", "-1"], "error: argument --seconds: expected a number from 0.05 to 3600, got '-1'"),
    (["--seconds", "0"], "error: argument --seconds: expected a number from 0.05 to 3600, got '0'"),
    (["--seconds", "inf"], "error: argument --seconds: expected a number from 0.05 to 3600, got 'inf'"),
    (["--top", "0"], "error: argument --top: expected an integer from 1 to 1000, got '0'"),
    (["--top", "-3"], "error: argument --top: expected an integer from 1 to 1000, got '-3'"),
    (["--top", "2.5"], "error: argument --top: expected an integer from 1 to 1000, got '2.5'"),
    (["--top", "10001"], "error: argument --top: expected an integer from 1 to 1000, got '10001'"),
])
def test_profiling_rejects_bad_arguments_before_profiling(argv, fragment, capsys, no_profiling):
    assert fragment in _usage_error(profiling.main, argv, capsys)


def test_profiling_help_states_meaning_and_ranges(capsys):
    with pytest.raises(SystemExit) as info:
        profiling.main(["--help"])
    assert info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for text in ("--env ID registered env id to profile", "a number from 0.05 to 3600", "an integer from 1 to 1000",
                 "an integer from 0 to 2**128-1", "--import MODULE import MODULE first", "VALUE as TOML"):
        assert text in out


def test_profiling_still_profiles_good_arguments(capsys):
    text = profiling.main(["--env", "the_monolith_v0", "--loop", "engine", "--seconds", "0.05", "--top", "2"])
    assert "the_monolith_v0  loop=engine" in text and "profiled decisions:" in text


@pytest.fixture
def no_ray(monkeypatch):
    """Reaching the run (or importing Ray) fails the test: every argument is checked first."""
    monkeypatch.setattr(distributed, "_run", lambda *a, **k: pytest.fail("the run started despite a bad argument"))
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` raises ImportError


@pytest.mark.parametrize("argv, fragment", [
    (["--env", "foo"], "error: --env: unknown env id 'foo'; registered: monolith_arena_v0"),
    (["--set", "foo=1"], "error: --set: monolith_arena_v0: unknown config key(s) 'foo'"),
    (["--set", "foo"], "error: --set: a setting is KEY=VALUE (e.g. num_players=4), got 'foo'"),
    (["--cpus", "-1"], "error: argument --cpus: expected an integer from 0 to 1024, got '-1'"),
    (["--cpus", "2.5"], "error: argument --cpus: expected an integer from 0 to 1024, got '2.5'"),
    (["--workers", "0"], "error: argument --workers: expected an integer from 1 to 64, got '0'"),
    (["--repeats", "0"], "error: argument --repeats: expected an integer from 1 to 20, got '0'"),
    (["--repeats", "x"], "error: argument --repeats: expected an integer from 1 to 20, got 'x'"),
])
def test_distributed_rejects_bad_arguments_before_ray(argv, fragment, capsys, no_ray, tmp_path):
    assert fragment in _usage_error(distributed.main, argv + ["--out-dir", str(tmp_path / "out")], capsys)
    assert not (tmp_path / "out").exists()  # the arguments are checked before the output folder is made


def test_distributed_help_states_ranges(capsys):
    with pytest.raises(SystemExit) as info:
        distributed.main(["--help"])
    assert info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for text in ("an integer from 0 to 1024", "an integer from 1 to 64", "an integer from 1 to 20",
                 "--env ID registered env id", "VALUE as TOML"):
        assert text in out


@pytest.mark.parametrize("argv, fragment", [
    (["--repeats", "1.5"], "error: argument --repeats: expected an integer from 1 to 20, got '1.5'"),
    (["--seconds", "nan"], "error: argument --seconds: expected a number from 0.05 to 60, got 'nan'"),
    (["--num-envs", "1_0"], "error: argument --num-envs: expected an integer from 1 to 4096, got '1_0'"),
    (["--workers", "65"], "error: argument --workers: expected an integer from 0 to 64, got '65'"),
    (["--set", "num_players"], "error: --set: a setting is KEY=VALUE (e.g. num_players=4), got 'num_players'"),
    (["--env", "monolith_arena_v0", "--set", "foo=1"], "error: --set: monolith_arena_v0: unknown config key(s)"),
])
def test_vector_rejects_bad_arguments_before_measuring(argv, fragment, capsys, monkeypatch):
    monkeypatch.setattr(vector, "bench_config", lambda *a, **k: pytest.fail("measured despite a bad argument"))
    assert fragment in _usage_error(vector.main, argv, capsys)


def test_vector_set_reads_toml_values(monkeypatch, capsys):
    seen = []

    def fake(env_id, config, *rest):
        seen.append(config)
        raise vector.Interrupted(signal.SIGINT)

    monkeypatch.setattr(vector, "bench_config", fake)
    with pytest.raises(SystemExit):
        vector.main(["--env", "monolith_arena_v0", "--set", "num_players=4", "--set", "mode=ffa"])
    assert seen == [{"num_players": 4, "mode": "ffa"}]


def test_vector_help_states_ranges(capsys):
    with pytest.raises(SystemExit) as info:
        vector.main(["--help"])
    assert info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for text in ("an integer from 1 to 4096", "an integer from 0 to 64", "a number from 0.05 to 60",
                 "an integer from 1 to 20", "VALUE as TOML"):
        assert text in out
    assert "JSON value" not in out


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_vector_stops_cleanly_on_a_signal(signum, code, monkeypatch, capsys):
    """The signal arrives while the second env id is measured: the first one's row is printed, exit 130/143."""
    real = vector.bench_config
    calls = []

    def measure(env_id, *rest):
        calls.append(env_id)
        if len(calls) == 2:
            signal.raise_signal(signum)
            pytest.fail("the signal did not stop the run")
        return real(env_id, *rest)

    monkeypatch.setattr(vector, "bench_config", measure)
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as info:
        vector.main(["--env", "the_monolith_v0", "--env", "monolith_arena_v0", "--num-envs", "2", "--workers", "0",
                     "--seconds", "0.05", "--repeats", "1"])
    assert info.value.code == code
    captured = capsys.readouterr()
    assert "| the_monolith_v0 | 4 |" in captured.out and "monolith_arena_v0 |" not in captured.out
    name = signal.Signals(signum).name
    assert f"interrupted by {name}: 1 of 2 env ids measured (shown above); nothing written" in captured.err
    assert "Traceback" not in captured.err
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before  # handlers restored


def test_vector_interrupted_before_any_row(monkeypatch, capsys):
    monkeypatch.setattr(vector, "bench_config", lambda *a, **k: signal.raise_signal(signal.SIGINT))
    with pytest.raises(SystemExit) as info:
        vector.main(["--env", "the_monolith_v0"])
    assert info.value.code == 130
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "interrupted by SIGINT: 0 of 1 env ids measured; nothing written" in captured.err


def test_profiling_and_vector_replace_only_their_own_earlier_output(tmp_path, capsys, no_profiling, monkeypatch):
    """``--out`` / ``--json`` pointed at a file of something else (a README, a script) replaced it without a
    word; such a file is now refused before anything is measured, and an earlier output is replaced."""
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n")
    err = _usage_error(profiling.main, ["--out", str(notes)], capsys)
    assert f"--out {notes}: the file exists and is not a profile written by benchmarks.profiling, so it is not " \
           "replaced" in err
    monkeypatch.setattr(vector, "bench_config", lambda *a, **k: pytest.fail("measured despite a bad argument"))
    err = _usage_error(vector.main, ["--env", "monolith_arena_v0", "--json", str(notes)], capsys)
    assert f"--json {notes}: the file exists and is not a report of benchmarks.vector (JSON)" in err
    assert notes.read_text() == "my notes\n"
    earlier = tmp_path / "profile.txt"
    earlier.write_text("monolith_arena_v0  loop=engine\nprofiled decisions: 10; total own time 0.1 s; 1.0 µs per "
                       "decision (with profiler overhead)\n")
    monkeypatch.setattr(profiling, "profile_loop", lambda *a, **k: (None, 7))
    monkeypatch.setattr(profiling, "format_profile", lambda stats, decisions, top: f"profiled decisions: {decisions}\n")
    profiling.main(["--loop", "engine", "--out", str(earlier)])
    assert earlier.read_text() == "monolith_arena_v0  loop=engine\nprofiled decisions: 7\n"
