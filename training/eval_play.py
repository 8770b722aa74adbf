"""The worker side of :mod:`training.evaluate`: the seats of a match, one task of consecutive games played
in a worker process (or in the caller with ``workers=1``), the agents a worker keeps for one evaluation,
and the spawned process pool those tasks run on."""

from __future__ import annotations

import importlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

__all__ = ["MAX_CHUNK", "seating"]


def seating(game: Any, k: int) -> list[int]:
    """The seats the first agent fills in game ``k``: every seat of team ``k mod len(game.teams)`` (one seat,
    ``k mod num_players``, when each seat is its own team)."""
    teams = game.teams
    return list(teams[k % len(teams)])


#: the most games in one worker task: the progress bar (and the count an interrupt reports) moves at least this
#: often, whatever ``--games`` is; results do not depend on it (every game is seeded by its number)
MAX_CHUNK = 8


def _play_chunk(args: tuple) -> list[tuple]:
    """Worker: play the games ``ks`` of one pairing (``spec_b`` None: solo); returns per game ``(k, a's seats,
    returns, decisions, truncated, outcome values or None, secs)``."""
    import time

    env_id, env_config, spec_a, spec_b, seed, ks, preload, record, token = (tuple(args) + (None, None))[:9]
    for mod in preload:
        importlib.import_module(mod)
    import monolith_envs
    from agents import play_match

    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    env = monolith_envs.make(env_id, wrapped=False, **env_config)
    game = env.unwrapped.game
    n = game.num_players
    a_agents = _agents(token, spec_a, env_id, max(len(t) for t in game.teams))
    b_agents = [] if spec_b is None else _agents(token, spec_b, env_id, n - 1)
    out = []
    for k in ks:
        mine = seating(game, k)
        a_iter, b_iter = iter(a_agents), iter(b_agents)
        seats: list[Any] = [next(a_iter) if s in mine else next(b_iter) for s in range(n)]
        t = time.perf_counter()
        res = play_match(env, seats, seed=seed + k)
        outcome = None if res.outcome is None else [o.value for o in res.outcome]
        out.append((k, mine, res.returns.tolist(), res.decisions, res.truncated, outcome, time.perf_counter() - t))
        if record is not None:  # (folder, file-name prefix)
            vs = "alone" if spec_b is None else f"vs {spec_b}"
            where = f"seat {mine[0]}" if len(mine) == 1 else f"seats {', '.join(map(str, mine))}"
            _record_match(env.unwrapped, Path(record[0]) / f"{record[1]}_game{k:04d}.json",
                          f"{spec_a} at {where} {vs}")
    return out


#: the agents a worker process built for the evaluation ``token`` (one run_tournament call): later chunks of
#: the same evaluation reuse them instead of loading a model file again every MAX_CHUNK games
_BUILT: dict = {"token": None, "agents": {}}


def _agents(token: Any, spec: str, env_id: str, count: int) -> list:
    """``count`` agents of ``spec``, kept for the rest of evaluation ``token`` (``None``: built afresh)."""
    from agents import make_agent

    if token is None:
        return [make_agent(spec, env_id, unattended=True) for _ in range(count)]
    if _BUILT["token"] != token:  # a new evaluation: the agents of the last one (a model file may have changed)
        _BUILT.update(token=token, agents={})
    built = _BUILT["agents"].setdefault((spec, env_id), [])
    while len(built) < count:
        built.append(make_agent(spec, env_id, unattended=True))
    return built[:count]


def _record_match(raw: Any, path: Path, note: str) -> None:
    """Write the episode log of the match just played (replay with ``python -m monolith_envs replay``)."""
    log = raw.episode_log
    log.note = note if not log.note else f"{note}; {log.note}"
    path.parent.mkdir(parents=True, exist_ok=True)
    log.save(path)


def _worker_init() -> None:
    """A worker process: Ctrl-C is the parent's, and a baseline's variant warning was given by the parent's
    check of the specs (not once more per worker)."""
    import warnings

    from monolith_envs.agents.baselines import VariantWarning  # (no torch import)
    from monolith_envs.core.interrupt import ignore_sigint

    ignore_sigint()
    warnings.simplefilter("ignore", VariantWarning)


def _executor(workers: int) -> ProcessPoolExecutor | None:
    if workers <= 1:
        return None
    from monolith_envs.core.interrupt import spawn_pool

    return spawn_pool(workers, _worker_init)
