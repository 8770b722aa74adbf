"""Ray throughput next to the single-machine paths: RLlib PPO against ``training.train``'s MaskablePPO, and
the Ray fuzz backend against the local process pool, with the same worker counts, in one run.

Command line (needs the ``[distributed]``, ``[train]`` extras)::

    python -m benchmarks.distributed [--env monolith_arena_v0] [--quick] [--cpus N] [--publish | --out-dir DIR]

Writes ``distributed.{md,json}`` (``distributed-quick`` with ``--quick``) into ``runs/benchmarks/``, or with
``--publish`` into the committed ``benchmarks/results/`` (as ``benchmarks.run`` does).  Every figure is a wall-clock
rate after an untimed warm-up (model build, first rollouts, worker start), on a local Ray instance of
``--cpus`` CPUs (default: those this process may use); the machine's load average is recorded before and after.

* Training: learner decisions/s and all-seat decisions/s (learner plus opponents) of whole training
  iterations (sampling + PPO updates), the learner seat against uniformly random opponents.  MaskablePPO:
  :func:`benchmarks.train_bench.measure_training` (2 envs, ``DummyVecEnv`` and ``SubprocVecEnv``, MLP
  [64, 64], ``n_steps`` 256, so 512 decisions per update, minibatch 64, 4 epochs; ``--quick`` too).  RLlib:
  :mod:`training.rllib` with 1 and 2 env runners (one env each, one CPU each: a count that does not fit
  ``--cpus`` is skipped and the report says so), the learner in the driver, the same network, batch (512
  decisions per iteration), minibatch and epochs.
* Fuzzing: decisions/s of :func:`~monolith_envs.core.fuzz.fuzz_rollout` over the same seeds, with
  ``--check-every 0`` (invariants only, a campaign's setting) and ``--check-every 1`` (every per-step
  check), local pool of W processes against W Ray tasks at once; the two alternate ``--repeats`` times
  and the median is reported.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing as mp
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.vector import SET_HELP, env_config_error, number_arg
from monolith_envs.core.cli import ArgumentParser, game_settings
from monolith_envs.core.interrupt import (
    Interrupted,
    children_ignore_sigint,
    signals_deferred,
    stop_on_signals,
)
from monolith_envs.core.words import count

__all__ = ["main", "measure_fuzz", "measure_rllib", "skipped_runners"]

#: ``--cpus`` (0: the CPUs this process may use), ``--workers`` and ``--repeats``: (low, high)
CPUS, WORKERS, REPEATS = (0, 1024), (1, 64), (1, 20)
#: the committed results (written only with ``--publish``)
RESULTS_DIR = Path(__file__).resolve().parent / "results"
#: default output folder (relative to the working directory; ``runs/`` is git-ignored), as ``benchmarks.run``'s
RUNS_DIR = Path("runs") / "benchmarks"
#: decisions per PPO update of every training setup (MaskablePPO: ``n_steps`` x its 2 envs; RLlib: the batch)
DECISIONS_PER_UPDATE = 512
#: RLlib env runner counts measured (each runner is a Ray actor of one CPU)
ENV_RUNNERS = (1, 2)


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def measure_rllib(env_id: str, env_config: dict, runners: int, steps: int, seed: int = 0,
                  batch: int = DECISIONS_PER_UPDATE) -> dict:
    """Time RLlib PPO iterations of ``batch`` decisions (Ray must be initialised); returns steps, seconds and
    rates.

    A SIGINT or SIGTERM waits for the Ray call under way (building the algorithm, one iteration) and then
    stops the run: raised inside Ray's core, the handler's exception would come out as a bare
    ``KeyboardInterrupt`` (see :mod:`monolith_envs.core.fuzz_ray`)."""
    from training.rllib import _opponent_steps, build_config
    from training.rllib_callbacks import steps_sampled
    from training.rllib_config import apply_overrides, load_config

    cfg = apply_overrides(load_config(None), [
        f"env_id='{env_id}'", f"num_env_runners={runners}", f"train_batch_size={batch}", "batch_size=64", "n_epochs=4",
        "net_arch=[64, 64]", "opponent_mix={random = 1}", f"seed={seed}"])
    cfg["env_config"] = dict(env_config)
    with signals_deferred():
        algo = build_config(cfg).build_algo()
    try:
        with signals_deferred():
            s0 = steps_sampled(algo.train())  # warm-up iteration
            o0 = _opponent_steps(algo)
        t0 = time.perf_counter()
        s = s0
        while s - s0 < steps:
            with signals_deferred():
                s = steps_sampled(algo.train())
        dt = time.perf_counter() - t0
        with signals_deferred():
            opp = _opponent_steps(algo) - o0
    finally:
        with signals_deferred():
            algo.stop()
    return {"env_runners": runners, "train_batch_size": batch, "steps": s - s0, "seconds": dt, "steps_per_s": (s - s0) / dt,
            "all_seat_decisions_per_s": (s - s0 + opp) / dt, "opponent_steps": opp}


def _local_pool(game_cls: Any, config: dict, workers: int):
    from monolith_envs.core import fuzz

    with children_ignore_sigint():  # a terminal's Ctrl-C is the parent's to handle: it ends the pool
        pool = mp.get_context("spawn").Pool(workers, initializer=fuzz._init_worker, initargs=(game_cls, config))
    # warm the workers: each builds its game at its first rollout (one job a worker, chunksize 1)
    pool.map(fuzz._work, [(10**9 + i, 8, ("invariants",), 0, None) for i in range(4 * workers)], chunksize=1)
    return pool


def measure_fuzz(env_id: str, config: dict, workers: int, games: int, check_every: int, backend: str) -> dict:
    """Decisions/s of ``games`` fuzz rollouts (seeds 0..games-1) on ``workers`` (Ray initialised for ray)."""
    import monolith_envs
    from monolith_envs.core import fuzz
    from monolith_envs.core.testing import CHECKS

    game_cls = monolith_envs.game_class(env_id)
    jobs = [(s, 8, tuple(CHECKS), check_every, None) for s in range(games)]
    if backend == "ray":
        from monolith_envs.core.fuzz_ray import ray_results

        list(ray_results(game_cls, config, [(10**9 + i, 8, ("invariants",), 0, None) for i in range(2 * workers)],
                         workers, chunk=1))  # warm the workers
        t0 = time.perf_counter()
        results = list(ray_results(game_cls, config, jobs, workers))
        dt = time.perf_counter() - t0
    else:
        pool = _local_pool(game_cls, config, workers)
        try:
            t0 = time.perf_counter()
            chunk = max(1, min(16, games // (workers * 8) or 1))
            results = list(pool.imap_unordered(fuzz._work, jobs, chunksize=chunk))
            dt = time.perf_counter() - t0
        except BaseException:  # Ctrl-C or an error: stop the workers now, not after their queued games
            pool.terminate()
            raise
        else:
            pool.close()
        finally:
            pool.join()
    dec = sum(r.decisions for r in results)
    return {"backend": backend, "workers": workers, "check_every": check_every, "games": games,
            "decisions": dec, "seconds": dt, "decisions_per_s": dec / dt,
            "failures": sum(1 for r in results if r.failure)}


def _median_rate(rows: list[dict], backend: str, check_every: int) -> float:
    from statistics import median

    return median(r["decisions_per_s"] for r in rows if r["backend"] == backend and r["check_every"] == check_every)


def _markdown(res: dict) -> str:
    m = res["meta"]
    lines = [f"# Ray throughput, {m['env_id']} {json.dumps(m['env_config'])}", "",
             f"{m['date']}, {m['machine']}, {count(m['cpus'], 'CPU')}; load average {m['load_before']} before, "
             f"{m['load_after']} after (other users' processes shared the cores).", "",
             "## Training (learner seat against random opponents; sampling + PPO updates)", "",
             "| Trainer | learner dec/s | all-seat dec/s | timed steps |", "|---|---:|---:|---:|"]
    for r in res["train"]:
        lines.append(f"| {r['label']} | {r['steps_per_s']:,.0f} | {r['all_seat_decisions_per_s']:,.0f} | {r['steps']} |")
    lines += ["", f"Every setup: {m.get('decisions_per_update', DECISIONS_PER_UPDATE)} decisions per PPO update."]
    lines += [f"Not measured: {s}." for s in m.get("skipped", [])]
    lines += ["", "## Fuzzing (decisions/s, same seeds)", "",
              "| checks | workers | local pool | Ray tasks | Ray / local |", "|---|---:|---:|---:|---:|"]
    for ce in sorted({r["check_every"] for r in res["fuzz"]}):
        lo, ra = (_median_rate(res["fuzz"], b, ce) for b in ("local", "ray"))
        what = "invariants only (--check-every 0)" if ce == 0 else f"per-step checks every {ce}"
        workers = res["fuzz"][0]["workers"]
        lines.append(f"| {what} | {workers} | {lo:,.0f} | {ra:,.0f} | {ra / lo:.2f}x |")
    lines += ["", "Fuzz figures: the median of the alternating repeats (each one in the JSON)."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict:
    """Command-line entry point (see the module docstring).

    Every argument is checked before Ray is imported (one ``error:`` line, exit status 2); Ctrl-C (SIGINT)
    or SIGTERM stops the run (Ray shut down, nothing written) with exit status 130 or 143.
    """
    ap = ArgumentParser(prog="python -m benchmarks.distributed", description=__doc__.split("\n\n")[0])
    ap.add_argument("--env", default="monolith_arena_v0", metavar="ID",
                    help="registered env id (default monolith_arena_v0)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help=SET_HELP + " (repeatable)")
    ap.add_argument("--quick", action="store_true", help="smaller budgets (about 2 minutes)")
    ap.add_argument("--cpus", type=number_arg(int, *CPUS), default=0,
                    help="CPUs of the local Ray instance, an integer from %d to %d (default 0: those this "
                         "process may use, its affinity and container quota)" % CPUS)
    ap.add_argument("--workers", type=number_arg(int, *WORKERS), default=2,
                    help="fuzz workers of both backends, an integer from %d to %d (default 2)" % WORKERS)
    ap.add_argument("--repeats", type=number_arg(int, *REPEATS), default=3,
                    help="alternating repeats of each fuzz measurement, an integer from %d to %d (default 3)"
                         % REPEATS)
    ap.add_argument("--out-dir", default=None, metavar="DIR",
                    help=f"output folder (default: {RUNS_DIR}; with --publish: benchmarks/results); created and "
                         "checked before the run")
    ap.add_argument("--publish", action="store_true",
                    help="write into the committed benchmarks/results/ (replaces the published tables)")
    args = ap.parse_args(argv)
    try:
        env_config = game_settings(args.set)
    except ValueError as exc:
        ap.error(f"--set: {exc}")
    problem = env_config_error(args.env, env_config)
    if problem:
        ap.error(problem)
    from monolith_envs.core.outfiles import OutputPathError, check_output_dir, write_text_atomic

    try:
        out = check_output_dir(args.out_dir or (RESULTS_DIR if args.publish else RUNS_DIR), "--out-dir")
    except OutputPathError as exc:
        ap.error(str(exc))
    cpus = ray_cpus(args)
    for line in skipped_runners(cpus):
        print(f"note: not measured: {line}", file=sys.stderr, flush=True)
    try:
        with stop_on_signals():
            res = _run(args, env_config)
    except Interrupted as exc:
        print(f"interrupted by {exc.name}: nothing written", file=sys.stderr, flush=True)
        sys.exit(exc.exit_code)
    stem = "distributed-quick" if args.quick else "distributed"
    write_text_atomic(out / f"{stem}.json", json.dumps(res, indent=2))
    md = _markdown(res)
    write_text_atomic(out / f"{stem}.md", md)
    print(md)
    print(f"wrote {out / f'{stem}.md'} and {out / f'{stem}.json'}", file=sys.stderr, flush=True)
    return res


def ray_cpus(args: Any) -> int:
    """The CPUs of the local Ray instance: ``--cpus``, or (0) the CPUs this process may use
    (:func:`monolith_envs.core.processes.usable_cpus`: its affinity and the container's CPU quota, as
    ``training.rllib`` counts them)."""
    from monolith_envs.core.processes import usable_cpus

    return args.cpus or usable_cpus()


def skipped_runners(cpus: int) -> list[str]:
    """Why each RLlib env runner count of :data:`ENV_RUNNERS` that does not fit ``cpus`` is skipped (each runner
    is an actor of one CPU; Ray would wait without end for the CPUs it lacks)."""
    return [f"training.rllib PPO with {count(n, 'env runner')}: needs {count(n, 'CPU')} for its env runners, "
            f"the Ray instance has {cpus} (--cpus)" for n in ENV_RUNNERS if n > cpus]


def _run(args: Any, env_config: dict) -> dict:
    """Every measurement of :func:`main` (the arguments checked): training, then Ray's PPO and fuzzing."""
    import ray

    from benchmarks.specs import BenchSpec
    from benchmarks.timing import BUDGETS
    from benchmarks.train_bench import N_ENVS, measure_training
    from monolith_envs.core.fuzz_ray import connect

    budget = BUDGETS["quick" if args.quick else "full"]
    # the same decisions per update for every setup, --quick included (its budget's n_steps is 128 per env)
    budget = dataclasses.replace(budget, train_n_steps=DECISIONS_PER_UPDATE // N_ENVS)
    steps = budget.train_steps
    games = (40, 6) if args.quick else (120, 12)
    cpus = ray_cpus(args)
    runners = [n for n in ENV_RUNNERS if n <= cpus]
    meta: dict[str, Any] = {"env_id": args.env, "env_config": env_config, "date": time.strftime("%Y-%m-%d %H:%M UTC",
                            time.gmtime()), "machine": platform.processor() or platform.machine(),
                            "cpus": cpus, "load_before": _load(), "budget": budget.name,
                            "decisions_per_update": DECISIONS_PER_UPDATE, "env_runners": runners,
                            "skipped": skipped_runners(cpus), "ray": ray.__version__}
    train = []
    spec = BenchSpec("monolith", args.env, "bench", env_config)
    for vec in ("dummy", "subproc"):
        r = measure_training(spec, budget, vec=vec)
        train.append({"label": f"training.train MaskablePPO, 2 envs {vec}", **r})
    # signals wait for ray.init, Ray's processes ignore a terminal's Ctrl-C (this one stops them), and the
    # handlers of stop_on_signals are put back after it (ray.init installs a SIGTERM handler that exits)
    _ray, started = connect(None, cpus)
    fuzz = []
    try:
        for n in runners:
            r = measure_rllib(args.env, env_config, n, steps)
            train.append({"label": f"training.rllib PPO, {count(n, 'env runner')}", **r})
        # the backends alternate, so that a change of the machine's load falls on both alike
        for _ in range(args.repeats):
            for ce, g in ((0, games[0]), (1, games[1])):
                for backend in ("ray", "local"):
                    fuzz.append(measure_fuzz(args.env, env_config, args.workers, g, ce, backend))
    finally:
        if started:
            with signals_deferred():
                ray.shutdown()
    meta["load_after"] = _load()
    return {"meta": meta, "train": train, "fuzz": fuzz}


if __name__ == "__main__":
    main()
