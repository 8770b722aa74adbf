"""The timed loops: random masked play through the AEC API, through a bare engine and through OpenSpiel.

Every runner keeps its match across calls of :meth:`run`, so a long game simply continues in the next
repeat; decisions per game are measured over the games completed during warm-up and all repeats.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from time import perf_counter, process_time
from typing import Any

import numpy as np

from .timing import Budget, RandomPolicy, median, seed_plus

__all__ = [
    "AecRunner",
    "EngineRunner",
    "OpenSpielRunner",
    "aec_breakdown",
    "measure_throughput",
    "memory_per_instance",
    "play_random_steps",
]

_CHECK_EVERY = 31  # check the clock every 32 decisions (bit mask)


class AecRunner:
    """Random masked play through the full PettingZoo AEC API (``agent_iter``/``last``/``step``).

    Args:
        env: any AEC env whose observations are ``{"observation", "action_mask"}`` dicts.
        seed: first episode seed (``reset(seed=seed + k)`` for the k-th game, modulo 2**128) and policy seed.
    """

    def __init__(self, env: Any, seed: int = 0):
        self.env = env
        self.policy = RandomPolicy(seed)
        self.next_seed = seed
        self.need_reset = True
        self.current = 0
        self.lengths: list[int] = []

    def run(self, seconds: float) -> tuple[int, int, float]:
        """Play for about ``seconds``; returns ``(decisions, completed games, elapsed seconds)``."""
        env = self.env
        pick = self.policy.from_mask
        decisions = games = 0
        t0 = perf_counter()
        deadline = t0 + seconds
        while True:
            if self.need_reset:
                env.reset(seed=self.next_seed)
                self.next_seed = seed_plus(self.next_seed, 1)
                self.need_reset = False
                self.current = 0
            stopped = False
            for _agent in env.agent_iter():
                _obs, _rew, term, trunc, _info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                env.step(pick(_obs["action_mask"]))
                decisions += 1
                self.current += 1
                if not (decisions & _CHECK_EVERY) and perf_counter() > deadline:
                    stopped = True
                    break
            if stopped:
                break
            games += 1
            self.lengths.append(self.current)
            self.need_reset = True
            if perf_counter() > deadline:
                break
        return decisions, games, perf_counter() - t0


class EngineRunner:
    """Random masked play on a bare :class:`~monolith_envs.core.game.Game`: ``legal_mask`` + ``apply``.

    A match ends when the game is terminal or after ``game.max_decisions`` decisions (truncation), as in
    the AEC env. ``initial_state`` of the next match is part of the timed loop.

    Args:
        game: the rules engine.
        seed: seed of the first match (``k``-th match: ``seed + k``, modulo 2**128) and of the policy.
        observe: also call ``observe(state, current_player)`` once per decision.
    """

    def __init__(self, game: Any, seed: int = 0, observe: bool = False):
        self.game = game
        self.policy = RandomPolicy(seed)
        self.next_seed = seed
        self.observe = observe
        self.state = None
        self.rng: np.random.Generator | None = None
        self.current = 0
        self.lengths: list[int] = []

    def run(self, seconds: float) -> tuple[int, int, float]:
        """Play for about ``seconds``; returns ``(decisions, completed games, elapsed seconds)``."""
        g = self.game
        pick = self.policy.from_mask
        legal_mask, apply, is_terminal = g.legal_mask, g.apply, g.is_terminal
        observe, current_player = g.observe, g.current_player
        with_obs = self.observe
        limit = g.max_decisions
        decisions = games = 0
        t0 = perf_counter()
        deadline = t0 + seconds
        s, rng, cur = self.state, self.rng, self.current
        while True:
            if s is None:
                rng = np.random.default_rng(self.next_seed)
                self.next_seed = seed_plus(self.next_seed, 1)
                s = g.initial_state(rng)
                cur = 0
            if with_obs:
                observe(s, current_player(s))
            apply(s, pick(legal_mask(s)), rng)
            decisions += 1
            cur += 1
            if cur >= limit or is_terminal(s):
                games += 1
                self.lengths.append(cur)
                s = None
            if not (decisions & _CHECK_EVERY) and perf_counter() > deadline:
                break
        self.state, self.rng, self.current = s, rng, cur
        return decisions, games, perf_counter() - t0


class OpenSpielRunner:
    """Random play on an OpenSpiel game (chance nodes sampled by their probabilities).

    Args:
        game: a ``pyspiel.Game``.
        seed: policy seed.
        observe: call ``observation_tensor(player)`` before each decision (the AEC-equivalent loop).
    """

    def __init__(self, game: Any, seed: int = 0, observe: bool = True):
        self.game = game
        self.policy = RandomPolicy(seed)
        self.observe = observe
        self.state = None
        self.current = 0
        self.lengths: list[int] = []

    def run(self, seconds: float) -> tuple[int, int, float]:
        """Play for about ``seconds``; returns ``(decisions, completed games, elapsed seconds)``."""
        game = self.game
        pick, pick_chance = self.policy.from_list, self.policy.from_outcomes
        with_obs = self.observe
        decisions = games = 0
        t0 = perf_counter()
        deadline = t0 + seconds
        s, cur = self.state, self.current
        while True:
            if s is None:
                s = game.new_initial_state()
                cur = 0
            if s.is_terminal():
                s.returns()
                games += 1
                self.lengths.append(cur)
                s = None
                continue
            if s.is_chance_node():
                s.apply_action(pick_chance(s.chance_outcomes()))
                continue
            p = s.current_player()
            if with_obs:
                s.observation_tensor(p)
            s.apply_action(pick(s.legal_actions()))
            decisions += 1
            cur += 1
            if not (decisions & _CHECK_EVERY) and perf_counter() > deadline:
                break
        self.state, self.current = s, cur
        return decisions, games, perf_counter() - t0


def measure_throughput(runner: Any, budget: Budget, repeats: int | None = None, seconds: float | None = None) -> dict:
    """Warm up, then time ``repeats`` runs (default ``budget.repeats``) of ``seconds`` each (default
    ``budget.loop_seconds``).

    Returns:
        ``decisions_per_s`` (median over repeats), ``decisions_per_s_all`` (each repeat), ``games_per_s``
        (completed games over the total timed seconds), ``decisions_per_game`` (mean over completed games,
        warm-up included; ``None`` if no game completed), ``games_completed``, ``seconds``; ``cpu_share``
        (process CPU time over wall time: well below 1 means other processes took the CPU and the wall-clock
        figures are pessimistic) and ``decisions_per_cpu_s`` (median decisions per CPU second).
    """
    repeats = budget.repeats if repeats is None else repeats
    seconds = budget.loop_seconds if seconds is None else seconds
    runner.run(budget.warmup_seconds)
    rates, cpu_rates, total_games, total_time, total_cpu = [], [], 0, 0.0, 0.0
    gc.collect()
    for _ in range(repeats):
        c0 = process_time()
        d, g, t = runner.run(seconds)
        c = process_time() - c0
        rates.append(d / t if t > 0 else None)
        cpu_rates.append(d / c if c > 0 else None)
        total_games += g
        total_time += t
        total_cpu += c
    lengths = runner.lengths
    return {
        "decisions_per_s": median(rates),
        "decisions_per_s_all": rates,
        "games_per_s": total_games / total_time if total_time > 0 else None,
        "decisions_per_game": float(np.mean(lengths)) if lengths else None,
        "games_completed": len(lengths),
        "seconds": total_time,
        "cpu_share": total_cpu / total_time if total_time > 0 else None,
        "decisions_per_cpu_s": median(cpu_rates),
    }


def aec_breakdown(env: Any, budget: Budget, seed: int = 0) -> dict:
    """Per-call cost of ``last()`` (observation + mask) and ``step(action)`` during random play.

    Returns:
        Median microseconds of ``last()`` and of ``step()`` over the calls of a few games (capped at
        ``budget.loop_seconds`` seconds).
    """
    policy = RandomPolicy(seed_plus(seed, 7))
    last_t: list[float] = []
    step_t: list[float] = []
    deadline = perf_counter() + budget.loop_seconds
    game = 0
    while perf_counter() < deadline and game < max(2, budget.progress_games):
        env.reset(seed=seed_plus(seed, 1000 + game))
        game += 1
        for _agent in env.agent_iter():
            t0 = perf_counter()
            obs, _r, term, trunc, _i = env.last()
            t1 = perf_counter()
            if term or trunc:
                env.step(None)
                continue
            a = policy.from_mask(obs["action_mask"])
            t2 = perf_counter()
            env.step(a)
            t3 = perf_counter()
            last_t.append(t1 - t0)
            step_t.append(t3 - t2)
            if perf_counter() > deadline:
                break
    return {
        "last_us": median(last_t) * 1e6 if last_t else None,
        "step_us": median(step_t) * 1e6 if step_t else None,
        "last_mean_us": float(np.mean(last_t)) * 1e6 if last_t else None,
        "step_mean_us": float(np.mean(step_t)) * 1e6 if step_t else None,
    }


def play_random_steps(env: Any, steps: int, policy: RandomPolicy, seed: int) -> None:
    """Reset ``env`` with ``seed`` and play ``steps`` random decisions (re-resetting when a game ends)."""
    env.reset(seed=seed)
    done = 0
    while done < steps:
        if not env.agents:
            seed = seed_plus(seed, 10_007)
            env.reset(seed=seed)
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(policy.from_mask(obs["action_mask"]))
        done += 1


def memory_per_instance(factory: Callable[[], Any], prepare: Callable[[Any, int], None], count: int) -> dict:
    """Bytes allocated per live instance, measured with :mod:`tracemalloc`.

    One instance is built and prepared first (so one-time tables and caches are not counted), then
    ``count`` more instances are built, prepared with ``prepare(instance, k)`` and kept alive.

    Returns:
        ``bytes_per_instance`` (traced bytes after minus before, divided by ``count``) and ``count``.
    """
    gc.collect()
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        warm = factory()
        prepare(warm, 0)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        keep = []
        for k in range(count):
            inst = factory()
            prepare(inst, k + 1)
            keep.append(inst)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        if not was_tracing:
            tracemalloc.stop()
    del keep, warm
    return {"bytes_per_instance": (after - before) / max(1, count), "count": count}
