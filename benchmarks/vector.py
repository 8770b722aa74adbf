"""Batched stepping against the AEC loop: ``python -m benchmarks.vector``.

Random masked play, each driver sampling its actions the natural way, measured in the same run:

- the AEC loop of ``benchmarks.loops.AecRunner`` (``agent_iter`` / ``last`` / ``step``, one random legal
  action per decision drawn from the mask, ``reset(seed=...)`` between games), with the cheapest per-game
  draw (:class:`benchmarks.timing.RandomPolicy`): the headline ratio;
- the same loop drawing as the README's AEC loop does, ``int(rng.choice(np.flatnonzero(mask)))``
  (:class:`ReadmeDraw`), what a user's own loop typically costs;
- ``make_vec(env_id, N)`` in this process: one vectorised draw per step for all N games
  (:func:`sample_masked`: a uniform legal action in every game);
- the same with ``workers=k`` worker processes;
- the bare engine (:class:`BareEngineRunner`): the engine functions every driver calls per decision, with no API
  around them (one game at a time, the cheapest draw): every driver does this work and more, so
  ``engine ÷ AEC`` is about the most a vector in one process can gain over the AEC loop.

Figures are decisions per second of wall time (median of the repeats) and decisions per CPU second (this
process plus, for the worker runs, the workers' CPU time read from ``/proc``), so the ratios stay
meaningful on a machine shared with other processes. Prints a markdown table; ``--json PATH`` also writes
every figure. Not a test: nothing fails on a slow machine (see benchmarks/README.md, "Batched stepping").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import monolith_envs
from benchmarks.interleave import measure_interleaved
from benchmarks.loops import AecRunner
from benchmarks.timing import RandomPolicy, seed_plus
from monolith_envs.core.cli import ArgumentParser, game_settings
from monolith_envs.core.config import plain_float, plain_int
from monolith_envs.core.interrupt import Interrupted, stop_on_signals
from monolith_envs.core.seeds import seed_arg

__all__ = ["VecRunner", "BareEngineRunner", "ReadmeDraw", "sample_masked", "measure_interleaved", "bench_config", "main",
           "number_arg", "env_config_error"]

DEFAULT_CONFIGS = {
    "monolith_arena_v0": {},
    "monolith_strategy_v0": {},
    "the_monolith_v0": {},
}


def sample_masked(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``int64[N]``: a uniformly drawn legal action of each row of ``mask`` (``bool[N, n]``, no empty row),
    with one vectorised draw: the legal actions of all rows in one ``flatnonzero``, a count per row, and a
    uniform index below each count (about 1 µs per game at N=64, n=500)."""
    n_envs, n = mask.shape
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // n, minlength=n_envs)
    starts = np.cumsum(counts) - counts
    pick = (rng.random(n_envs) * counts).astype(np.int64)
    return flat[starts + pick] - np.arange(n_envs) * n


class ReadmeDraw:
    """The README's AEC loop's draw, ``int(rng.choice(np.flatnonzero(mask)))`` with a numpy ``Generator``, as
    the ``policy`` of an :class:`~benchmarks.loops.AecRunner` (about 7 µs more per decision than
    :class:`~benchmarks.timing.RandomPolicy`'s ``from_mask``)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def from_mask(self, mask: np.ndarray) -> int:
        """A legal action drawn uniformly from a boolean mask, as the README's loop draws it."""
        return int(self.rng.choice(np.flatnonzero(mask)))


class VecRunner:
    """Random masked play on a :func:`monolith_envs.make_vec` vector, one vectorised draw per step.

    Args:
        vec: the vector env (reset here with ``seed``).
        seed: the vector's seed and the draw generator's seed.
    """

    def __init__(self, vec: Any, seed: int = 0):
        self.vec = vec
        self.rng = np.random.default_rng(seed)
        self.res = vec.reset(seed=seed)
        self.lengths: list[int] = []
        pool = getattr(vec, "_pool", None)
        self.worker_pids = [p.pid for p in pool.procs] if pool is not None else []

    def run(self, seconds: float) -> tuple[int, int, float]:
        """Play for about ``seconds``; returns ``(decisions, completed games, elapsed seconds)``."""
        vec, rng, res = self.vec, self.rng, self.res
        n = res.action_mask.shape[0]
        decisions = games = 0
        t0 = time.perf_counter()
        deadline = t0 + seconds
        while True:
            res = vec.step(sample_masked(res.action_mask, rng))
            decisions += n
            games += int(np.count_nonzero(res.terminated | res.truncated))
            if time.perf_counter() > deadline:
                break
        self.res = res
        return decisions, games, time.perf_counter() - t0


class BareEngineRunner:
    """Random play through the engine functions alone: per decision ``is_terminal``, ``current_player``,
    ``legal_mask``, the acting seat's observation written into one preallocated buffer (the writer
    ``make_vec`` uses), ``returns_list``, a draw from the mask (:class:`~benchmarks.timing.RandomPolicy`) and
    ``apply``; a new game (``initial_state`` with the next seed) when one ends.

    This is the per-decision work of every driver with nothing around it: every driver in one process does it
    and more. Unlike :class:`benchmarks.loops.EngineRunner` (the throughput table's ``engine`` and
    ``engine+obs`` loops), it writes the observation into a buffer with make_vec's writer and calls
    ``current_player`` and ``returns_list``, as make_vec does; like make_vec, and unlike the AEC env, it draws
    chance from a plain generator (the AEC env also logs each draw for its episode log).

    Args:
        env_id, config: the game (:func:`monolith_envs.make_game`).
        seed: the first game's seed (``seed + k`` for the k-th, modulo 2**128) and the draw's seed.
    """

    def __init__(self, env_id: str, config: dict, seed: int = 0):
        from monolith_envs.vector._obs import row_writer
        from monolith_envs.vector._slots import returns_lister

        self.game = game = monolith_envs.make_game(env_id, **config)
        self.write = row_writer(game)
        self.out = np.zeros(game.obs_spec.size, np.float32)
        self.pick = RandomPolicy(seed).from_mask
        self.seed = seed
        self.length = 0  # decisions of the game in progress
        self.lengths: list[int] = []  # decisions of each finished game
        self.state, self.rng = self._new()
        self.returns_list = returns_lister(game)
        self.write(self.state, game.current_player(self.state), self.out)

    def _new(self) -> tuple[Any, np.random.Generator]:
        rng = np.random.default_rng(self.seed)
        self.seed = seed_plus(self.seed, 1)
        return self.game.initial_state(rng), rng

    def run(self, seconds: float) -> tuple[int, int, float]:
        """Play for about ``seconds``; returns ``(decisions, completed games, elapsed seconds)``."""
        game, write, out, pick, returns_list = self.game, self.write, self.out, self.pick, self.returns_list
        is_terminal, current_player, legal_mask, apply = (game.is_terminal, game.current_player, game.legal_mask,
                                                         game.apply)
        limit = game.max_decisions
        state, rng = self.state, self.rng
        decisions = games = 0
        t0 = time.perf_counter()
        deadline = t0 + seconds
        length = self.length
        while True:  # as make_vec per game: apply, returns, then the next state's mask and observation
            apply(state, pick(legal_mask(state)), rng)
            returns_list(state)
            decisions += 1
            length += 1
            if is_terminal(state) or length >= limit:
                games += 1
                self.lengths.append(length)
                length = 0
                state, rng = self._new()
            write(state, current_player(state), out)
            if not decisions & 63 and time.perf_counter() > deadline:
                break
        self.state, self.rng, self.length = state, rng, length
        return decisions, games, time.perf_counter() - t0


def bench_config(env_id: str, config: dict, num_envs: int, workers: int, seconds: float, repeats: int,
                 seed: int) -> dict:
    """The five drivers on one config, measured in turn (:func:`measure_interleaved`): the AEC loop with the
    cheapest draw and with the README's, ``make_vec`` in this process, the bare engine
    (:class:`BareEngineRunner`) and, when ``workers``, ``make_vec`` with that many worker processes; with
    their ratios."""
    warmup = min(0.5, seconds / 3)
    runners: dict[str, Any] = {"aec": AecRunner(monolith_envs.make(env_id, **config), seed)}
    runners["aec_readme"] = AecRunner(monolith_envs.make(env_id, **config), seed)
    runners["aec_readme"].policy = ReadmeDraw(seed)
    runners["engine"] = BareEngineRunner(env_id, config, seed)
    vecs = [monolith_envs.make_vec(env_id, num_envs, **config)]
    try:
        runners["vec"] = VecRunner(vecs[0], seed)
        if workers:
            vecs.append(monolith_envs.make_vec(env_id, num_envs, workers=workers, **config))
            runners["vec_workers"] = VecRunner(vecs[1], seed)
        row: dict[str, Any] = {"env_id": env_id, "config": config, "num_envs": num_envs,
                               "players": vecs[0].num_players}
        row.update(measure_interleaved(runners, seconds, repeats, warmup))
    finally:
        for vec in vecs:
            vec.close()
    if workers:
        row["workers"] = workers

    def ratio(a: dict, b: dict, key: str) -> float | None:
        return a[key] / b[key] if a.get(key) and b.get(key) else None

    aec = row["aec"]
    row["vec_over_aec"] = ratio(row["vec"], aec, "decisions_per_s")
    row["vec_over_aec_cpu"] = ratio(row["vec"], aec, "decisions_per_cpu_s")
    row["vec_over_aec_readme"] = ratio(row["vec"], row["aec_readme"], "decisions_per_s")
    row["vec_over_aec_readme_cpu"] = ratio(row["vec"], row["aec_readme"], "decisions_per_cpu_s")
    row["engine_over_aec_cpu"] = ratio(row["engine"], aec, "decisions_per_cpu_s")
    row["vec_over_engine_cpu"] = ratio(row["vec"], row["engine"], "decisions_per_cpu_s")
    if workers:
        row["workers_over_vec"] = ratio(row["vec_workers"], row["vec"], "decisions_per_s")
        row["workers_over_vec_cpu"] = ratio(row["vec_workers"], row["vec"], "decisions_per_cpu_s")
    return row


def _fmt(x: float | None, digits: int = 0) -> str:
    if x is None:
        return "-"
    return f"{x:,.{digits}f}" if digits else f"{x:,.0f}"


def table(rows: list[dict]) -> str:
    """The markdown table of the rows of :func:`bench_config`; the ``workers=k`` columns only when a worker run
    was measured (``--workers 0`` skips it, and its columns)."""
    n = rows[0]["num_envs"] if rows else 0
    k = next((r["workers"] for r in rows if "workers" in r), 0)
    workers = any(r.get("vec_workers") for r in rows)
    cols = [("Env", lambda r: r["env_id"] + ("" if not r["config"] else
                                             " " + ",".join(f"{a}={b}" for a, b in r["config"].items()))),
            ("P", lambda r: str(r["players"])),
            ("AEC dec/s", lambda r: _fmt(r["aec"]["decisions_per_s"])),
            (f"make_vec N={n} dec/s", lambda r: _fmt(r["vec"]["decisions_per_s"])),
            ("× AEC", lambda r: _fmt(r["vec_over_aec"], 2)),
            ("× AEC (CPU)", lambda r: _fmt(r["vec_over_aec_cpu"], 2))]
    if workers:
        cols += [(f"workers={k} dec/s", lambda r: _fmt(r.get("vec_workers", {}).get("decisions_per_s"))),
                 ("× 1 process", lambda r: _fmt(r.get("workers_over_vec"), 2)),
                 ("× 1 process (CPU)", lambda r: _fmt(r.get("workers_over_vec_cpu"), 2)),
                 (f"CPU use, workers={k}", lambda r: _fmt(r.get("vec_workers", {}).get("cpu_share"), 2))]
    cols += [("AEC, README draw, dec/s", lambda r: _fmt(r["aec_readme"]["decisions_per_s"])),
             ("× it (CPU)", lambda r: _fmt(r["vec_over_aec_readme_cpu"], 2)),
             ("bare engine dec/s", lambda r: _fmt(r["engine"]["decisions_per_s"])),
             ("engine ÷ AEC (CPU)", lambda r: _fmt(r["engine_over_aec_cpu"], 2)),
             ("make_vec ÷ engine (CPU)", lambda r: _fmt(r["vec_over_engine_cpu"], 2))]
    lines = ["| " + " | ".join(h for h, _ in cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(f(r) for _, f in cols) + " |" for r in rows]
    return "\n".join(lines)


def _bound(x: float) -> str:
    return str(x) if isinstance(x, int) else f"{x:g}"


def number_arg(kind: type, low: float, high: float):
    """``argparse`` type: a plain decimal integer (``kind`` ``int``) or finite number (``float``) from ``low`` to
    ``high``; anything else (``1.5`` for an integer, ``nan``, ``inf``, ``1_0``, a number out of range) is an
    ``argparse.ArgumentTypeError`` naming the range (argparse turns it into one ``error:`` line, exit status 2)."""
    what = "an integer" if kind is int else "a number"
    read = plain_int if kind is int else plain_float

    def parse(text: str):
        try:
            value = read(text.strip())
        except ValueError:
            value = None
        if value is None or not low <= value <= high:  # NaN fails the comparison too
            raise argparse.ArgumentTypeError(f"expected {what} from {_bound(low)} to {_bound(high)}, "
                                             f"got {text[:40]!r}")
        return value
    return parse


def env_config_error(env_id: str, config: dict) -> str | None:
    """``None`` when ``env_id`` is registered and ``config`` is a valid config of its game (the game is built
    once to check it), else the reason on one line (the registered ids, or the game's ``ConfigError``)."""
    if env_id not in monolith_envs.available_envs():
        return (f"--env: unknown env id {env_id[:60]!r}; registered: "
                f"{', '.join(monolith_envs.available_envs())}")
    try:
        monolith_envs.make_game(env_id, **config)
    except (monolith_envs.MonolithEnvError, ValueError, TypeError) as err:
        return f"--set: {err}"
    return None


#: the ``--set`` help of the commands that take a game config (VALUE is read as TOML, as everywhere)
SET_HELP = "game config key; VALUE as TOML: 4, true, teams, '[\"a\", \"b\"]'"
#: ``--seconds``, ``--repeats``, ``--num-envs`` and ``--workers`` of this command: (low, high)
SECONDS, REPEATS, NUM_ENVS, WORKERS = (0.05, 60.0), (1, 20), (1, 4096), (0, 64)


#: where the table's columns are explained
COLUMNS_DOC = "benchmarks/README.md, section 'Batched stepping (make_vec)'"


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m benchmarks.vector [--env ID ...] [--set KEY=VALUE ...] [--num-envs N]
    [--workers K] [--seconds S] [--repeats R] [--seed N] [--json PATH]``.

    Bad input is one ``error:`` line and exit status 2, before anything is measured. Ctrl-C (SIGINT) or
    SIGTERM stops at once: the table of the env ids measured so far is printed (nothing is written) and the
    exit status is 130 or 143.
    """
    parser = ArgumentParser(prog="python -m benchmarks.vector", description=__doc__.split("\n\n")[0],
                            epilog=f"the columns and their units: {COLUMNS_DOC}; Ctrl-C stops the run and prints "
                                   "the rows measured so far (exit status 130)")
    parser.add_argument("--env", action="append", metavar="ID",
                        help="registered env id (repeatable; default: every registered id of the package)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help=SET_HELP + " (repeatable; for every --env)")
    parser.add_argument("--num-envs", type=number_arg(int, *NUM_ENVS), default=64,
                        help="N, the games of each make_vec vector, an integer from %d to %d (default 64)" % NUM_ENVS)
    parser.add_argument("--workers", type=number_arg(int, *WORKERS), default=2,
                        help="worker processes of the second make_vec run, an integer from %d to %d, at most "
                             "--num-envs and 4 per CPU of this machine, as make_vec allows (default 2; 0 skips "
                             "that run)" % WORKERS)
    parser.add_argument("--seconds", type=number_arg(float, *SECONDS), default=2.0,
                        help="wall seconds per repeat of each driver, a number from %g to %g (default 2)" % SECONDS)
    parser.add_argument("--repeats", type=number_arg(int, *REPEATS), default=3,
                        help="repeats, the median kept, an integer from %d to %d (default 3)" % REPEATS)
    parser.add_argument("--seed", type=seed_arg, default=0, help="base seed, an integer from 0 to 2**128-1 (default 0)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write every figure as JSON")
    args = parser.parse_args(argv)
    envs = args.env or [e for e in DEFAULT_CONFIGS if e in monolith_envs.available_envs()]
    try:
        settings = game_settings(args.set)
    except ValueError as err:
        parser.error(f"--set: {err}")
    configs = {env_id: {**DEFAULT_CONFIGS.get(env_id, {}), **settings} for env_id in envs}
    for env_id, config in configs.items():  # every env id and config, before the first measurement
        problem = env_config_error(env_id, config)
        if problem:
            parser.error(problem)
    if args.workers > args.num_envs:
        parser.error(f"--workers {args.workers} is more than --num-envs {args.num_envs}")
    if args.json is not None:
        from monolith_envs.core.outfiles import EarlierOutput, OutputPathError, check_output_file

        try:  # before the measurements, not after them; only an earlier report of this command is replaced
            check_output_file(str(args.json), "--json", EarlierOutput(
                "a report of benchmarks.vector (JSON)", "{", '"rows"', json_keys=("rows", "argv", "cpus")))
        except OutputPathError as err:
            parser.error(str(err))
    rows: list[dict] = []
    from monolith_envs.core.cli import duration_text

    t0 = time.perf_counter()
    print(f"measuring {len(configs)} env id{'s' if len(configs) != 1 else ''} ({', '.join(configs)}), "
          f"{args.repeats} repeat{'s' if args.repeats != 1 else ''} of {args.seconds:g} s per figure; a line as each "
          "is measured", file=sys.stderr, flush=True)
    try:
        with stop_on_signals():
            for env_id, config in configs.items():
                try:
                    rows.append(bench_config(env_id, config, args.num_envs, args.workers, args.seconds,
                                             args.repeats, args.seed))
                except monolith_envs.ConfigError as err:
                    parser.error(str(err))
                took = time.perf_counter() - t0
                left = took / len(rows) * (len(configs) - len(rows))
                print(f"[+{took:.0f}s] measured {env_id} ({len(rows)} of {len(configs)}"
                      + (f"; about {duration_text(left)} left; the table follows when all are measured)"
                         if len(rows) < len(configs) else ")"), file=sys.stderr, flush=True)
    except Interrupted as exc:
        with stop_on_signals():  # a second Ctrl-C does not cut the summary short
            if rows:
                print(table(rows))
            print(f"interrupted by {exc.name}: {len(rows)} of {len(envs)} env ids measured"
                  f"{' (shown above)' if rows else ''}; nothing written", file=sys.stderr, flush=True)
        sys.exit(exc.exit_code)
    print(table(rows))
    print(f"\n{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, Python "
          f"{platform.python_version()}; {args.seconds:g} s x {args.repeats} repeats per figure; dec/s = decisions per "
          f"second, x = a ratio of decisions per CPU second (CPU) or per wall second; every column: {COLUMNS_DOC}")
    if args.json:
        from monolith_envs.core.outfiles import write_text_atomic

        from .report import machine_info

        write_text_atomic(args.json, json.dumps({"rows": rows, "argv": sys.argv[1:], "cpus": os.cpu_count(),
                                                 "python": platform.python_version(), "machine": machine_info()},
                                                indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
