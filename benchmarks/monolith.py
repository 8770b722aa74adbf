"""Measurements of one registered ``monolith_envs`` environment and configuration."""

from __future__ import annotations

import importlib
import itertools
import json
import traceback
from collections import defaultdict
from collections.abc import Callable
from time import perf_counter
from typing import Any

import numpy as np

from .interleave import measure_interleaved, paired_ratio
from .loops import (
    AecRunner,
    EngineRunner,
    aec_breakdown,
    measure_throughput,
    memory_per_instance,
    play_random_steps,
)
from .specs import BenchSpec
from .timing import Budget, RandomPolicy, median, per_call_us, seed_plus

__all__ = ["empty_row", "guard", "instrument_games", "latencies", "measure_monolith", "measure_paired"]

PHASES = ("early", "mid", "late")


def empty_row(spec: BenchSpec) -> dict:
    """A result row with every section present and empty (filled by the measurement functions)."""
    return {
        "name": spec.name,
        **spec.to_dict(),
        "num_players": None,
        "num_actions": None,
        "obs_size": None,
        "aec": None,
        "paired_c4": None,
        "aec_raw": None,
        "engine": None,
        "engine_obs": None,
        "aec_calls": None,
        "latency": {},
        "memory": {},
        "progress": None,
        "errors": [],
    }


def guard(row: dict, what: str, fn: Callable[[], Any]) -> Any:
    """Run one measurement; on an exception record it in ``row["errors"]`` and return ``None``."""
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - a failing part must not stop the other measurements
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" at {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else ""
        row["errors"].append(f"{what}: {type(exc).__name__}: {exc}{where}")
        return None


def instrument_games(game: Any, budget: Budget, seed: int = 0) -> tuple[dict, list]:
    """Play a few random games timing every ``legal_mask``, ``apply``, ``observe`` and ``clone`` call.

    Each decision is put in the early / mid / late third of its game (by decision index over the game's
    length). Games cut short by ``budget.progress_max_seconds`` contribute sampled states but no
    progress figures.

    Returns:
        ``(progress, states)``: per phase the median microseconds of each call, the mean, 90th and 99th
        percentile of ``legal_mask`` + ``apply`` and the mean number of legal actions; and about ``budget.latency_states`` non-terminal states spread over the games.
    """
    g = game
    policy = RandomPolicy(seed_plus(seed, 99))
    per_phase: dict[str, dict[str, list]] = {p: defaultdict(list) for p in PHASES}
    states: list = []
    lengths: list[int] = []
    per_game = max(2, -(-budget.latency_states // max(1, budget.progress_games)))
    deadline = perf_counter() + budget.progress_max_seconds
    for gi in range(budget.progress_games):
        if gi > 0 and perf_counter() > deadline:
            break
        rng = np.random.default_rng(seed_plus(seed, 500 + gi))
        s = g.initial_state(rng)
        rec = []
        snaps = []
        finished = False
        while True:
            p = g.current_player(s)
            t0 = perf_counter()
            m = g.legal_mask(s)
            t1 = perf_counter()
            g.observe(s, p)
            t2 = perf_counter()
            c = g.clone(s)
            t3 = perf_counter()
            a = policy.from_mask(m)
            t4 = perf_counter()
            g.apply(s, a, rng)
            t5 = perf_counter()
            rec.append((t1 - t0, t5 - t4, t2 - t1, t3 - t2, int(np.count_nonzero(m))))
            snaps.append(c)
            if len(rec) >= g.max_decisions or g.is_terminal(s):
                finished = True
                break
            if perf_counter() > deadline and gi > 0:
                break
        if snaps:
            idx = np.unique(np.linspace(0, len(snaps) - 1, per_game).round().astype(int))
            states.extend(snaps[i] for i in idx)
        if not finished:
            continue
        n = len(rec)
        lengths.append(n)
        for i, (lm, ap, ob, cl, k) in enumerate(rec):
            d = per_phase[PHASES[min(2, i * 3 // n)]]
            d["legal_mask"].append(lm)
            d["apply"].append(ap)
            d["observe"].append(ob)
            d["clone"].append(cl)
            d["legal_actions"].append(k)
    progress: dict[str, Any] = {"games": len(lengths), "decisions_per_game": float(np.mean(lengths)) if lengths else None}
    for ph in PHASES:
        d = per_phase[ph]
        if not d["apply"]:
            progress[ph] = None
            continue
        mask_apply = [a + b for a, b in zip(d["legal_mask"], d["apply"])]
        progress[ph] = {
            "legal_mask_us": median(d["legal_mask"]) * 1e6,
            "apply_us": median(d["apply"]) * 1e6,
            "mask_apply_us": median(mask_apply) * 1e6,
            "mask_apply_mean_us": float(np.mean(mask_apply)) * 1e6,
            "mask_apply_p90_us": float(np.percentile(mask_apply, 90)) * 1e6,
            "mask_apply_p99_us": float(np.percentile(mask_apply, 99)) * 1e6,
            "observe_us": median(d["observe"]) * 1e6,
            "clone_us": median(d["clone"]) * 1e6,
            "legal_actions": float(np.mean(d["legal_actions"])),
            "calls": len(d["apply"]),
        }
    if len(states) > budget.latency_states:
        idx = np.linspace(0, len(states) - 1, budget.latency_states).round().astype(int)
        states = [states[i] for i in idx]
    return progress, states


def latencies(env: Any, game: Any, states: list, budget: Budget, seed: int = 0, row: dict | None = None) -> dict:
    """Per-call microseconds of reset, initial_state, clone, observe, legal_mask and the JSON round trip.

    ``observe_us`` and ``legal_mask_us`` are timed on fresh clones of the sampled states (*cold*: whatever
    the engine caches on a state, e.g. continuous effects, is rebuilt inside the timed call, as on the first
    call after an ``apply``); ``observe_warm_us`` repeats ``observe`` on states whose caches are filled.
    """
    g = game
    row = row if row is not None else {"errors": []}
    live = [s for s in states if not g.is_terminal(s)]
    out: dict[str, Any] = {}
    seeds = [seed_plus(seed, 10_000 + k) for k in range(budget.reset_calls)]
    out["reset_us"] = guard(row, "reset", lambda: per_call_us(lambda k: env.reset(seed=k), seeds,
                                                                 budget.latency_repeats))
    out["initial_state_us"] = guard(
        row, "initial_state",
        lambda: per_call_us(lambda k: g.initial_state(np.random.default_rng(k)), seeds, budget.latency_repeats))
    if not live:
        row["errors"].append("latency: no sampled states")
        return out
    reps = budget.latency_repeats
    out["clone_us"] = guard(row, "clone", lambda: per_call_us(g.clone, live, reps))
    out["observe_us"] = guard(
        row, "observe", lambda: per_call_us(lambda s: g.observe(s, g.current_player(s)), live, reps, fresh=g.clone))
    # warm: the same states again, with whatever the engine caches on a state already computed
    out["observe_warm_us"] = guard(
        row, "observe_warm", lambda: per_call_us(lambda s: g.observe(s, g.current_player(s)), live, reps))
    out["legal_mask_us"] = guard(row, "legal_mask", lambda: per_call_us(g.legal_mask, live, reps, fresh=g.clone))

    def json_parts() -> None:
        texts = [json.dumps(g.to_dict(s)) for s in live]
        out["json_bytes"] = float(np.median([len(t) for t in texts]))
        out["to_json_us"] = per_call_us(lambda s: json.dumps(g.to_dict(s)), live, reps)
        out["from_json_us"] = per_call_us(lambda t: g.from_dict(json.loads(t)), texts, reps)
        out["json_roundtrip_us"] = out["to_json_us"] + out["from_json_us"]
        out["json_roundtrip_exact"] = all(
            g.to_dict(g.from_dict(json.loads(t))) == g.to_dict(s) for t, s in zip(texts, live))

    guard(row, "json", json_parts)
    return out


def measure_paired(runner: Any, c4_runner: Any, budget: Budget) -> dict:
    """The AEC loop ``runner`` and connect four's ``c4_runner`` (both :class:`~benchmarks.loops.AecRunner`)
    measured in turn: ``budget.pair_rounds`` rounds of one ``budget.pair_slice_seconds`` slice each, in
    alternating order, after one untimed slice each (:func:`benchmarks.interleave.measure_interleaved`).

    Returns:
        ``x_cpu`` (the "× C4": the env's decisions per CPU second over all its slices ÷ connect four's over
        the slices of the same rounds), ``x_wall`` (the same from wall seconds), ``x_rounds`` (min / median /
        max of the per-round CPU ratios), ``rounds``, ``slice_seconds``, and ``env`` and ``c4``: each side's
        totals (``decisions``, ``wall_seconds``, ``cpu_seconds``) and ``slices`` (decisions, games, wall and
        CPU seconds of every slice).
    """
    m = measure_interleaved({"c4": c4_runner, "env": runner}, budget.pair_slice_seconds, budget.pair_rounds,
                            budget.pair_slice_seconds, alternate=True)
    return {**paired_ratio(m["env"], m["c4"]), "slice_seconds": budget.pair_slice_seconds,
            "env": m["env"], "c4": m["c4"]}


def measure_monolith(spec: BenchSpec, budget: Budget, seed: int = 0, c4_runner: Any = None) -> dict:
    """Every figure for one Monolith env configuration (errors are recorded in ``row["errors"]``).

    Covers the wrapped and bare AEC loops, the engine loop with and without ``observe``, the per-call
    breakdown of ``last``/``step``, the early / mid / late figures, the latencies and the memory per live
    env instance and per state. With ``c4_runner`` (connect four's :class:`~benchmarks.loops.AecRunner`,
    kept for the whole run), the AEC loop is also measured in turn with it (:func:`measure_paired`,
    ``row["paired_c4"]``), the source of the row's "× C4"; without it ``row["paired_c4"]`` stays ``None``.
    """
    import monolith_envs

    row = empty_row(spec)
    for mod in spec.imports:
        importlib.import_module(mod)
    try:
        env = monolith_envs.make(spec.env_id, **spec.config)
        raw = monolith_envs.make(spec.env_id, wrapped=False, **spec.config)
        game = monolith_envs.make_game(spec.env_id, **spec.config)
        env.reset(seed=seed)
    except Exception as exc:  # noqa: BLE001
        row["errors"].append(f"unavailable: {type(exc).__name__}: {exc}")
        return row
    row["num_players"] = int(game.num_players)
    row["num_actions"] = int(game.layout.n)
    row["obs_size"] = int(game.obs_spec.size)
    row["max_decisions"] = int(game.max_decisions)

    aec_runner = AecRunner(env, seed)
    row["aec"] = guard(row, "aec", lambda: measure_throughput(aec_runner, budget))
    if c4_runner is not None:
        row["paired_c4"] = guard(row, "paired_c4", lambda: measure_paired(aec_runner, c4_runner, budget))
    row["aec_raw"] = guard(row, "aec_raw", lambda: measure_throughput(AecRunner(raw, seed), budget, repeats=1,
                                                                      seconds=budget.secondary_seconds))
    row["engine"] = guard(row, "engine", lambda: measure_throughput(EngineRunner(game, seed), budget))
    row["engine_obs"] = guard(
        row, "engine_obs", lambda: measure_throughput(EngineRunner(game, seed, observe=True), budget, repeats=1,
                                                      seconds=budget.secondary_seconds))
    row["aec_calls"] = guard(row, "aec_calls", lambda: aec_breakdown(env, budget, seed))
    inst = guard(row, "progress", lambda: instrument_games(game, budget, seed))
    states = []
    if inst is not None:
        row["progress"], states = inst
    row["latency"] = latencies(env, game, states, budget, seed, row)
    row["latency"]["make_us"] = guard(row, "make", lambda: per_call_us(
        lambda _k: monolith_envs.make(spec.env_id, **spec.config), range(3), 2))

    def env_factory():
        return monolith_envs.make(spec.env_id, **spec.config)

    def prepare(e, k):
        play_random_steps(e, budget.memory_steps, RandomPolicy(k), seed_plus(seed, 20_000 + k))

    mem = guard(row, "memory", lambda: memory_per_instance(env_factory, prepare, budget.memory_envs))
    if mem:
        row["memory"]["env_bytes"] = mem["bytes_per_instance"]
    live = [s for s in states if not game.is_terminal(s)]
    if live:
        cyc = itertools.cycle(live)
        smem = guard(row, "memory_state",
                      lambda: memory_per_instance(lambda: game.clone(next(cyc)), lambda s, k: None, 4 * len(live)))
        if smem:
            row["memory"]["state_bytes"] = smem["bytes_per_instance"]
    return row
