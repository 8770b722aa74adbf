"""A seeded campaign of bad command-line arguments against every command of the repository.

Each case is one command (``monolith_envs`` fuzz / replay / check, ``training.train``, ``training.evaluate``,
``agents.play`` in the terminal and with ``--web``, ``benchmarks.run``) with one bad argument among valid
ones, drawn from pools of hostile values: unknown env ids, negative / huge / float / non-numeric / 2**130
seeds and counts, NUL bytes and control characters, paths under /proc, folders where files are expected,
/dev/zero and FIFOs as files, malformed JSON and TOML, bad ``--set`` values, malformed agent specs and
unknown flags.  Every case must end with exit status 2, exactly one ``error:`` line (a parser of
plain argparse may print its usage before it), no raw control character and no traceback.

Commands run in-process through their ``main(argv)`` with stdout and stderr captured, stdin replaced by a
closed stream and a per-case alarm, so a case that hangs or starts real work is a finding, not a stuck
suite.  ``python -m tests.hostile.cli_campaign [per_command] [seed]`` runs a larger campaign and prints
every finding.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ENVS = ("monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0")

BAD_ENV_IDS = ("nope_v0", "", "monolith_arena_v0\x00", "\x1b]0;X\x07\x1b[2J", "../../etc/passwd", "MONOLITH_ARENA_V0",
               "a" * 3000, "monolith_arena_v1", " ", "monolith_envs/MonolithArena-v0")
BAD_INTS = ("-1", str(2**130), "2**130", "1e3", "1.5", "nan", "inf", "-inf", "abc", "", " ", "0x10", "\u00b2",
            "9" * 5000, "1\x00", "\x1b[2J", "--", "-9" * 3, "10**9")
BAD_SEEDS = BAD_INTS + (str(2**128),)
BAD_JSON = ("{", "[1]", "1", "null", '"x"', '{"num_players": NaN}', '{"num_players": Infinity}',
            '{"num_players": 1e400}', '{"num_players": "3"}', '{"num_players": 2.5}', '{"nope": 1}',
            '{"num_players": {"a": 1}}', '{"num_players": [2]}', "[" * 100000 + "]" * 100000,
            '{"\\u0000": 1}', '{"num_players": 99}', '{"num_players": -1}', '{"wrapped": true}',
            '{"env_id": "x"}', '{"render_mode": "human"}', '{"illegal_action": "raise"}', "\x00", '{"a": 1, "a": 2}', '{"num_players": true}')
BAD_SETS = ("num_players=nan", "num_players=inf", "num_players={}", "num_players=[1]", "=3", "noequals",
            "num_players=", "num_players=1e400", "a.b.c=1", "num_players=9", "num_players=-1",
            "num_players=\x00", "\x00=1", "num_players=2.5", "num_players=true", "nope=1",
            "num_players=" + "[" * 50000, "reward_mode=\x1b[2J", "env_id=x", "wrapped=false",
            "render_mode=human", "illegal_action=raise", "num_players=99999999999999999999999")
BAD_AGENTS = ("mcts:nan", "mcts:10:c=inf", "mcts:10:c=nan", "mcts:-1", "mcts:0", "mcts:2**130", str("mcts:" + "9" * 400),
              "mcts:10:c=-1", "mcts:10:zzz=1", "mcts:10:c", "mcts:1.5", "nope", ":", "heuristic:5",
              "random:x", "ppo:", "ppo:{garbage}", "ppo:{empty_dir}", "ppo:/dev/zero", "ppo:{fifo}", "ppo:/proc/self",
              "ppo:\x00", "rllib:{empty_dir}", "rllib:", "rllib:{garbage}", "rllib:/proc/self", "\x1b[2J",
              "mcts:10:c=1e400", "mcts:10:c=1:c=2", "mcts:1000000000000")
BAD_FILES = ("/dev/zero", "{fifo}", "{dir}", "/proc/self/mem", "/proc/self/status", "/nonexistent/x/y",
             "a\x00b", "\x1b]0;X\x07", "{garbage}", "{non_utf8}", "/dev/full", "")
BAD_OUT_FILES = ("/proc/x/out.json", "{dir}", "/dev/full", "a\x00b", "/proc/self/status", "{file}/sub/x.json",
                 "/dev/zero", "", " ")
BAD_OUT_DIRS = ("/proc/x/y", "{file}", "/dev/full", "a\x00b", "/proc/self", "{file}/sub", "")
BAD_TOML = ("[", "a = ", "a.a.a." * 5000 + "a = 1", "x = 1\nx = 2", "[" * 60000, "env_id = 1",
            "total_timesteps = nan", "\x00", "seed = -1", "learning_rate = inf", "gamma = 2.0",
            "net_arch = [-1]", "name = '../escaped'", "name = '\x1b[2J'", "nope = 1", "env_config = 3",
            "eval_opponents = ['nope']", "total_timesteps = " + "9" * 400)
BAD_TRAIN_SETS = ("learning_rate=nan", "gamma=inf", "gamma=2.0", "seed=-1", "seed=" + str(2**130), "net_arch=[-1]",
                  "total_timesteps=-5", "n_steps=1e9", "env_config={a=1}", "env_config.num_players=nan",
                  "env_config.num_players=9", "name=../x", "name=", "nope=1", "=1", "x", "seat=9",
                  "eval_opponents=['nope']", "eval_opponents=['mcts:nan']", "out_dir=/proc/x",
                  "learning_rate=" + "[" * 50000, "env_id=nope_v0", "env_id=\x00", "env_config.env_id=x", "env_config.wrapped=true",
                  "env_config.render_mode=human", "features=nope",
                  "total_timesteps=1e400", "batch_size=0")
BAD_PORTS = ("-1", "65536", "1e3", "x", "", "\u00b2", "0x50", "9" * 400, "\x00", "80.5")
BAD_HOSTS = ("\x00", "999.999.1.1", "nonexistent.invalid", "a" * 300, "\x1b[2J", "[::1", "-1", "")
UNKNOWN_FLAGS = ("--nope", "-x", "--games=", "---", "--\x00", "--se")


@dataclass
class Finding:
    """One case that broke the contract: the command line and what went wrong."""

    argv: list
    what: str
    output: str

    def __str__(self) -> str:
        return f"{self.argv!r}\n  {self.what}\n  output: {self.output[-800:]!r}"


@dataclass
class Tally:
    """Cases run and findings, with the time of the slowest case."""

    tried: int = 0
    findings: list = field(default_factory=list)
    slowest: tuple = (0.0, None)


class _Hang(BaseException):
    """Raised by the per-case alarm."""


def _alarm(signum, frame):
    raise _Hang()


class _ClosedStdin(io.StringIO):
    def read(self, *a):
        raise EOFError

    readline = read


def _closed_input(prompt=""):
    raise EOFError


# --------------------------------------------------------------------------------------- entry points
def _entry(module: str) -> Callable:
    if module == "monolith_envs":
        from monolith_envs.__main__ import main
    elif module == "training.train":
        from training.train import main
    elif module == "training.evaluate":
        from training.evaluate import main
    elif module == "agents.play":
        from agents.play import main

        return lambda argv: main(argv, input_fn=_closed_input, output_fn=lambda *a, **k: None)
    elif module == "benchmarks.run":
        from benchmarks.run import main
    else:  # pragma: no cover
        raise KeyError(module)
    return main


def run_case(module: str, argv: list, timeout: float = 20.0) -> tuple[int | None, str, str | None]:
    """Run ``python -m module *argv`` in-process. Returns (exit status, output, problem or None).

    The problem is an escaped exception (with its traceback), a hang past ``timeout`` seconds, or a normal
    return (the command accepted the bad arguments)."""
    out, err = io.StringIO(), io.StringIO()
    env_before = dict(os.environ)
    old_alarm = signal.signal(signal.SIGALRM, _alarm)
    old_stdin = sys.stdin
    sys.stdin = _ClosedStdin()
    code, problem = None, None
    cwd = os.getcwd()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                ret = _entry(module)(argv)
                if isinstance(ret, int) and not isinstance(ret, bool):  # monolith_envs returns its status
                    code = ret
                else:
                    code, problem = 0, f"returned {type(ret).__name__} (the bad arguments were accepted)"
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except _Hang:
                from monolith_envs.core.interrupt import end_children

                end_children()  # the workers of a command that started its work
                problem = f"still running after {timeout:.0f} s (hang, or the bad arguments were accepted)"
            except BaseException as e:  # noqa: BLE001 - every escape is a finding
                problem = "raised " + "".join(traceback.format_exception(type(e), e, e.__traceback__))[-1500:]
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, old_alarm)
        sys.stdin = old_stdin
        os.environ.clear()
        os.environ.update(env_before)
        os.chdir(cwd)
    return code, out.getvalue() + err.getvalue(), problem


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")


def check_output(code: int | None, output: str, problem: str | None, expect: int = 2) -> str | None:
    """``None`` when a case ended as a bad argument should, else what is wrong."""
    if problem:
        return problem
    if "Traceback" in output:
        return "a traceback in the output"
    if code != expect:
        return f"exit status {code}, expected {expect}"
    errors = [ln for ln in output.splitlines() if re.match(r"^(\S+( \S+)*: )?error:", ln)]
    if len(errors) != 1:
        return f"{len(errors)} error lines, expected one"
    if len(errors[0]) > 2000:
        return f"an error line of {len(errors[0])} characters"
    if _CONTROL.search(output):
        return f"a raw control character in the output: {_CONTROL.search(output).group()!r}"
    return None


# --------------------------------------------------------------------------------------- fixtures
def make_files(tmp: Path) -> dict:
    """The hostile files the cases name: a FIFO, a folder, garbage, non-UTF-8 bytes, an empty folder."""
    tmp = Path(tmp)
    fifo = tmp / "fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    (tmp / "dir").mkdir(exist_ok=True)
    (tmp / "empty_dir").mkdir(exist_ok=True)
    (tmp / "garbage").write_bytes(bytes(range(256)) * 16)
    (tmp / "non_utf8").write_bytes(b"name = '\xff\xfe'\n")
    (tmp / "file").write_text("x")
    (tmp / "toml").mkdir(exist_ok=True)
    return {"fifo": str(fifo), "dir": str(tmp / "dir"), "empty_dir": str(tmp / "empty_dir"),
            "garbage": str(tmp / "garbage"), "non_utf8": str(tmp / "non_utf8"), "file": str(tmp / "file"),
            "tmp": str(tmp)}


def _fill(text: str, files: dict) -> str:
    for k, v in files.items():
        text = text.replace("{" + k + "}", v)
    return text


def _toml_file(k: int, files: dict) -> str:
    text = BAD_TOML[k]
    p = Path(files["tmp"]) / "toml" / f"bad_toml_{k}.toml"
    p.write_bytes(text.encode("utf-8", "surrogateescape"))
    return str(p)


# --------------------------------------------------------------------------------------- generators
def gen_cases(rng: random.Random, files: dict, per_command: int) -> list[tuple[str, list]]:
    """``per_command`` seeded cases for each command: (module, argv), each with one bad argument."""
    tmp = files["tmp"]
    out = []
    c = lambda pool: _fill(rng.choice(pool), files)  # noqa: E731
    env = lambda: rng.choice(ENVS)  # noqa: E731
    flag = lambda: rng.choice(UNKNOWN_FLAGS)  # noqa: E731

    fuzz_ok = lambda: ["fuzz", env(), "--games", "1", "--workers", "1", "--no-progress", "--sample", "1",  # noqa
                       "--out", f"{tmp}/fuzz_out"]
    fuzz = [
        lambda: ["fuzz", c(BAD_ENV_IDS), "--games", "1", "--workers", "1", "--no-progress", "--out", f"{tmp}/fo"],
        lambda: fuzz_ok() + ["--games", c(BAD_INTS)],
        lambda: fuzz_ok() + ["--seed", c(BAD_SEEDS)],
        lambda: fuzz_ok() + ["--workers", c(BAD_INTS)],
        lambda: fuzz_ok() + ["--sample", c(BAD_INTS)],
        lambda: fuzz_ok() + ["--check-every", c(BAD_INTS)],
        lambda: fuzz_ok() + ["--config", c(BAD_JSON)],
        lambda: fuzz_ok() + ["--out", c(BAD_OUT_DIRS)],
        lambda: fuzz_ok() + ["--preload", rng.choice(("nope_mod", "\x00", "os.path.\x1b", "", "..x"))],
        lambda: fuzz_ok() + ["--backend", rng.choice(("nope", "", "\x00", "RAY"))],
        lambda: fuzz_ok() + ["--address", rng.choice(("127.0.0.1:9", "auto", "\x00"))],
        lambda: fuzz_ok() + [flag()],
    ]
    replay = [
        lambda: ["replay", c(BAD_FILES)],
        lambda: ["replay", c(BAD_FILES), "--html", f"{tmp}/r.html"],
        lambda: ["replay", f"{tmp}/garbage", "--html", c(BAD_OUT_FILES)],
        lambda: ["replay", f"{tmp}/file", flag()],
    ]
    check = [
        lambda: ["check", c(BAD_ENV_IDS), "--games", "1"],
        lambda: ["check", env(), "--games", c(BAD_INTS)],
        lambda: ["check", env(), "--games", "1", "--seed", c(BAD_SEEDS)],
        lambda: ["check", env(), "--games", "1", "--config", c(BAD_JSON)],
        lambda: ["check", env(), "--games", "1", flag()],
    ]
    for gens in (fuzz, replay, check):
        out += [("monolith_envs", rng.choice(gens)()) for _ in range(per_command)]

    train_ok = lambda: ["--set", f"out_dir={tmp}/runs"]  # noqa: E731
    train = [
        lambda: ["--config", c(BAD_FILES)] + train_ok(),
        lambda: ["--config", _toml_file(rng.randrange(len(BAD_TOML)), files)] + train_ok(),
        lambda: ["--quick"] + train_ok() + ["--set", c(BAD_TRAIN_SETS)],  # the last --set wins
        lambda: ["--quick", "--set", f"out_dir={c(BAD_OUT_DIRS)}"],
        lambda: ["--resume", c(BAD_FILES + ("{empty_dir}",))],
        lambda: ["--quick", flag()] + train_ok(),
    ]
    out += [("training.train", rng.choice(train)()) for _ in range(per_command)]

    ev_ok = lambda: ["--games", "1", "--workers", "1", "--out", f"{tmp}/ev.json"]  # noqa: E731
    ev = [
        lambda: ["--env", c(BAD_ENV_IDS), "--agents", "random,heuristic"] + ev_ok(),
        lambda: ["--env", env(), "--agents", "random," + c(BAD_AGENTS)] + ev_ok(),
        lambda: ["--env", env(), "--agents", rng.choice(("", ",", "random", "random,random", "human,random",
                                                          ",".join(f"mcts:{i}" for i in range(1, 40))))]
        + ev_ok(),
        lambda: ["--env", env(), "--agents", "random,heuristic"] + ev_ok() + ["--games", c(BAD_INTS)],
        lambda: ["--env", env(), "--agents", "random,heuristic"] + ev_ok() + ["--seed", c(BAD_SEEDS)],
        lambda: ["--env", env(), "--agents", "random,heuristic"] + ev_ok() + ["--workers", c(BAD_INTS)],
        lambda: ["--env", env(), "--agents", "random,heuristic"] + ev_ok() + ["--set", c(BAD_SETS)],
        lambda: ["--env", env(), "--agents", "random,heuristic"] + ev_ok() + ["--out", c(BAD_OUT_FILES)],
        lambda: ["--env", env(), "--agents", "random,heuristic"] + ev_ok() + ["--record-dir", c(BAD_OUT_DIRS)],
        lambda: ["--env", env(), "--agents", "random,heuristic"] + ev_ok()
        + ["--preload", rng.choice(("nope_mod", "\x00", "", "..x"))],
        lambda: ["--env", env(), "--agents", "random,heuristic"] + ev_ok() + [flag()],
    ]
    out += [("training.evaluate", rng.choice(ev)()) for _ in range(per_command)]

    play = [
        lambda: [c(BAD_ENV_IDS), "--seed", "1"],
        lambda: [env(), "--seed", c(BAD_SEEDS)],
        lambda: [env(), "--seed", "1", "--seat", rng.choice(("-1", "9", "\u00b2", "1.5", "x", "", "\x00", "9" * 400))],
        lambda: [env(), "--seed", "1", "--opponents", c(BAD_AGENTS)],
        lambda: [env(), "--seed", "1", "--set", c(BAD_SETS)],
        lambda: [env(), "--seed", "1", "--record", c(BAD_OUT_FILES)],
        lambda: [env(), "--seed", "1", "--preload", rng.choice(("nope_mod", "\x00", "", "..x"))],
        lambda: [env(), "--seed", "1", flag()],
        lambda: [env(), "--seed", "1", "--web", "--port", c(BAD_PORTS)],
        lambda: [env(), "--seed", "1", "--web", "--port", "0", "--host", c(BAD_HOSTS)],
        lambda: [env(), "--seed", "1", "--web", "--port", "0", "--opponents", c(BAD_AGENTS)],
        lambda: [env(), "--seed", "1", "--port", "0"],
        lambda: [env(), "--seed", "1", "--web", "--record", f"{tmp}/rec.json"],
    ]
    out += [("agents.play", rng.choice(play)()) for _ in range(per_command)]

    bench_ok = lambda: ["--quick", "--no-refs", "--no-train", "--quiet", "--out-dir", f"{tmp}/bench"]  # noqa
    bench = [
        lambda: bench_ok() + ["--env", c(BAD_ENV_IDS)],
        lambda: bench_ok() + ["--seed", c(BAD_SEEDS)],
        lambda: bench_ok() + ["--out-dir", c(BAD_OUT_DIRS)],
        lambda: bench_ok() + ["--stem", rng.choice(("../../x", "", "\x00", "a/b", ".hidden", "x" * 300, "\x1b[2J"))],
        lambda: bench_ok() + ["--budget", rng.choice(("nope", "", "\x00"))],
        lambda: bench_ok() + ["--refs", rng.choice(("nope", "\x00", ""))],
        lambda: bench_ok() + ["--import", rng.choice(("nope_mod", "\x00", "", "..x"))],
        lambda: bench_ok() + [flag()],
    ]
    out += [("benchmarks.run", rng.choice(bench)()) for _ in range(per_command)]
    return out


def run_campaign(tally: Tally, per_command: int, seed: int, tmp: Path, timeout: float = 20.0) -> Tally:
    """Generate and run ``per_command`` cases per command (seeded), adding findings to ``tally``."""
    files = make_files(tmp)
    for module, argv in gen_cases(random.Random(seed), files, per_command):
        t0 = time.perf_counter()
        code, output, problem = run_case(module, argv, timeout)
        dt = time.perf_counter() - t0
        tally.tried += 1
        if dt > tally.slowest[0]:
            tally.slowest = (dt, [module, *argv])
        what = check_output(code, output, problem)
        if what:
            tally.findings.append(Finding([module, *argv], what, output))
    return tally


if __name__ == "__main__":  # pragma: no cover
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    s = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        t = run_campaign(Tally(), n, s, Path(d))
    print(f"{t.tried} cases, {len(t.findings)} findings, {time.perf_counter() - t0:.1f} s; slowest "
          f"{t.slowest[0]:.1f} s: {t.slowest[1]!r:.200}")
    for f in t.findings:
        print(f)
