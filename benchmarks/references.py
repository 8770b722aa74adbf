"""The same loops on the reference games: PettingZoo classic (AEC API) and OpenSpiel (C++ with Python API).

PettingZoo envs get the AEC loop, the ``last``/``step`` breakdown, ``reset`` and memory per instance (no
clone or engine API exists). OpenSpiel games get the AEC-equivalent loop (``observation_tensor`` +
``legal_actions`` + ``apply_action``), the engine loop without observations, ``new_initial_state``,
``clone``, ``observation_tensor`` and the ``serialize``/``deserialize_state`` round trip; their memory lives
in C++ and is not visible to tracemalloc, so it is not reported.
"""

from __future__ import annotations

import importlib
from time import perf_counter
from typing import Any

import numpy as np

from .loops import (
    AecRunner,
    OpenSpielRunner,
    aec_breakdown,
    measure_throughput,
    memory_per_instance,
    play_random_steps,
)
from .monolith import empty_row, guard
from .specs import BenchSpec
from .timing import Budget, RandomPolicy, per_call_us, seed_plus

__all__ = ["measure_openspiel", "measure_pettingzoo", "measure_reference", "pettingzoo_runner"]


def pettingzoo_runner(env_id: str, seed: int = 0) -> AecRunner:
    """The AEC loop of the ``pettingzoo.classic`` env ``env_id`` (``env()`` with its default wrappers, as in
    its reference row), reset with ``seed``: connect four's runner for the paired "× C4" measurement.

    Raises:
        ImportError: PettingZoo classic (or the module ``env_id``) is not installed.
    """
    env = importlib.import_module(f"pettingzoo.classic.{env_id}").env()
    env.reset(seed=seed)
    return AecRunner(env, seed)


def measure_pettingzoo(spec: BenchSpec, budget: Budget, seed: int = 0) -> dict:
    """Figures for a ``pettingzoo.classic`` env (``env()`` with its default wrappers; ``raw_env()`` bare)."""
    row = empty_row(spec)
    try:
        mod = importlib.import_module(f"pettingzoo.classic.{spec.env_id}")
        env = mod.env()
        raw = mod.raw_env()
        env.reset(seed=seed)
    except Exception as exc:  # noqa: BLE001
        row["errors"].append(f"unavailable: {type(exc).__name__}: {exc}")
        return row
    a0 = env.possible_agents[0]
    row["num_players"] = len(env.possible_agents)
    row["num_actions"] = int(env.action_space(a0).n)
    row["obs_size"] = int(np.prod(env.observation_space(a0)["observation"].shape))
    row["aec"] = guard(row, "aec", lambda: measure_throughput(AecRunner(env, seed), budget))
    row["aec_raw"] = guard(row, "aec_raw", lambda: measure_throughput(AecRunner(raw, seed), budget, repeats=1))
    row["aec_calls"] = guard(row, "aec_calls", lambda: aec_breakdown(env, budget, seed))
    seeds = [seed_plus(seed, 10_000 + k) for k in range(budget.reset_calls)]
    row["latency"]["reset_us"] = guard(
        row, "reset", lambda: per_call_us(lambda k: env.reset(seed=k), seeds, budget.latency_repeats))
    if row["aec_calls"]:
        row["latency"]["observe_us"] = row["aec_calls"]["last_us"]
    row["latency"]["make_us"] = guard(row, "make", lambda: per_call_us(lambda _k: mod.env(), range(3), 2))
    mem = guard(row, "memory", lambda: memory_per_instance(
        mod.env, lambda e, k: play_random_steps(e, budget.memory_steps, RandomPolicy(k), seed_plus(seed, 20_000 + k)),
        budget.memory_envs))
    if mem:
        row["memory"]["env_bytes"] = mem["bytes_per_instance"]
    return row


def _openspiel_states(game: Any, budget: Budget, seed: int) -> list:
    """Decision-node states spread over a few random games."""
    policy = RandomPolicy(seed_plus(seed, 99))
    states = []
    deadline = perf_counter() + budget.progress_max_seconds
    per_game = max(2, -(-budget.latency_states // max(1, budget.progress_games)))
    for gi in range(budget.progress_games):
        if gi and perf_counter() > deadline:
            break
        s = game.new_initial_state()
        snaps = []
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(policy.from_outcomes(s.chance_outcomes()))
                continue
            snaps.append(s.clone())
            s.apply_action(policy.from_list(s.legal_actions()))
        if snaps:
            idx = np.unique(np.linspace(0, len(snaps) - 1, per_game).round().astype(int))
            states.extend(snaps[i] for i in idx)
    return states[: max(budget.latency_states, 1)] if len(states) > budget.latency_states else states


def measure_openspiel(spec: BenchSpec, budget: Budget, seed: int = 0) -> dict:
    """Figures for an OpenSpiel game loaded with ``pyspiel.load_game(spec.env_id)``."""
    row = empty_row(spec)
    try:
        import pyspiel

        game = pyspiel.load_game(spec.env_id)
    except Exception as exc:  # noqa: BLE001
        row["errors"].append(f"unavailable: {type(exc).__name__}: {exc}")
        return row
    row["num_players"] = int(game.num_players())
    row["num_actions"] = int(game.num_distinct_actions())
    row["obs_size"] = int(game.observation_tensor_size())
    row["aec"] = guard(row, "aec", lambda: measure_throughput(OpenSpielRunner(game, seed, observe=True), budget))
    row["engine"] = guard(row, "engine",
                           lambda: measure_throughput(OpenSpielRunner(game, seed, observe=False), budget))
    states = guard(row, "states", lambda: _openspiel_states(game, budget, seed)) or []
    lat = row["latency"]
    reps = budget.latency_repeats
    lat["reset_us"] = guard(row, "reset", lambda: per_call_us(lambda _k: game.new_initial_state(),
                                                                 range(budget.reset_calls), reps))
    if states:
        lat["clone_us"] = guard(row, "clone", lambda: per_call_us(lambda s: s.clone(), states, reps))
        lat["observe_us"] = guard(row, "observe", lambda: per_call_us(
            lambda s: s.observation_tensor(s.current_player()), states, reps))
        lat["legal_mask_us"] = guard(row, "legal", lambda: per_call_us(lambda s: s.legal_actions_mask(), states,
                                                                         reps))

        def ser() -> None:
            texts = [s.serialize() for s in states]
            lat["json_bytes"] = float(np.median([len(t) for t in texts]))
            lat["to_json_us"] = per_call_us(lambda s: s.serialize(), states, reps)
            lat["from_json_us"] = per_call_us(game.deserialize_state, texts, reps)
            lat["json_roundtrip_us"] = lat["to_json_us"] + lat["from_json_us"]

        guard(row, "serialize", ser)
    return row


def measure_reference(spec: BenchSpec, budget: Budget, seed: int = 0) -> dict:
    """Dispatch on ``spec.kind`` (``"pettingzoo"`` or ``"openspiel"``)."""
    if spec.kind == "pettingzoo":
        return measure_pettingzoo(spec, budget, seed)
    if spec.kind == "openspiel":
        return measure_openspiel(spec, budget, seed)
    raise ValueError(f"unknown reference kind {spec.kind!r}")
