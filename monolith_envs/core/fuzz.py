"""Random masked rollouts with every per-step conformance check and the game's invariants.

Used by the tests and by ``python -m monolith_envs fuzz`` (parallel workers, progress bar, failure logs).
Rollouts drive the engine exactly like :class:`~monolith_envs.core.aec.RulesAECEnv` does after
``reset(seed=s)`` (one ``numpy.random.default_rng(s)`` for setup and every ``apply``), so a failing
rollout is saved as an :class:`~monolith_envs.core.replay.EpisodeLog` that replays in the env.
"""

from __future__ import annotations

import json
import os
import shlex
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from .chance import ChanceRecorder
from .game import InvariantError, MonolithEnvError, Utility
from .replay import EpisodeLog
from .testing import CHECKS, StepCheckFailure, step_checks

__all__ = ["RolloutResult", "fuzz_rollout", "STEP_CHECKS"]

STEP_CHECKS = ("mask_nonempty", "masked_actions_apply", "unmasked_actions_raise", "rejected_no_draw", "mask_json_roundtrip",
               "clone", "observe_all", "hidden_info", "finite")


@dataclass
class RolloutResult:
    """Outcome of one fuzz rollout.

    Attributes:
        seed: the episode seed.
        decisions: actions applied.
        returns: final returns (``None`` on failure).
        failure: ``None``, or the failed check name (a name from ``CHECKS``, or ``"exception"``).
        message: the failure's message (with a traceback for unexpected exceptions).
        actions: every action applied before the failure (the episode log's actions).
        history: readable names of the last actions.
        seconds: wall time of the rollout.
        chance: the chance events of ``actions`` (on failure; for the episode log).
    """

    seed: int
    decisions: int
    returns: list[float] | None = None
    failure: str | None = None
    message: str = ""
    actions: list[int] = field(default_factory=list)
    history: list[str] = field(default_factory=list)
    seconds: float = 0.0
    chance: list = field(default_factory=list)


def fuzz_rollout(game: Any, seed: int, checks: Iterable[str] = CHECKS, sample: int = 8,
                 check_every: int = 1) -> RolloutResult:
    """Play one random masked rollout of ``game`` from ``seed`` and check every step.

    Args:
        game: a :class:`~monolith_envs.core.game.Game`.
        seed: episode seed (setup and chance draws as in the env; action choices from ``seed`` too).
        checks: which checks run (per-step checks of :data:`STEP_CHECKS`, plus ``invariants``, ``zero_sum``,
            ``finite`` (also on the final returns), ``ends``).
        sample: legal / illegal actions tried per step.
        check_every: run the per-step checks on every ``check_every``-th decision (1 = all; the game's
            invariants and the end-of-game checks always run). ``0`` turns the per-step checks off.

    Returns:
        A :class:`RolloutResult`; never raises for a rules failure (it is reported in the result).
    """
    t0 = time.perf_counter()
    enabled = set(checks)
    step_names = [c for c in STEP_CHECKS if c in enabled]
    game_rng = np.random.default_rng(seed)
    pick_rng = np.random.default_rng([seed, 1])
    check_rng = np.random.default_rng([seed, 2])
    actions: list[int] = []
    chance = ChanceRecorder(game_rng)  # the env's draws: same numbers, each a chance event
    decode = game.layout.decode

    def fail(check: str, msg: str) -> RolloutResult:
        return RolloutResult(seed, len(actions), None, check, msg, actions,
                             [decode(a) for a in actions[-12:]], time.perf_counter() - t0, chance.events)

    try:
        state = game.initial_state(game_rng)
        while not game.is_terminal(state):
            if len(actions) >= game.max_decisions:
                if "ends" in enabled:
                    return fail("ends", f"no end after max_decisions={game.max_decisions} decisions")
                break
            if step_names and check_every and len(actions) % check_every == 0:
                try:
                    mask = step_checks(game, state, check_rng, step_names, sample)
                except StepCheckFailure as exc:
                    return fail(exc.check, exc.detail)
            else:
                mask = game.legal_mask(state)
            legal = np.flatnonzero(mask)
            a = int(legal[pick_rng.integers(legal.size)])
            chance.step = len(actions)
            actions.append(a)
            game.apply(state, a, chance)
            if "invariants" in enabled:
                try:
                    game.check_invariants(state)
                except InvariantError as exc:
                    return fail("invariants", str(exc))
        ret = np.asarray(game.returns(state), np.float64)
        if "finite" in enabled and not np.isfinite(ret).all():
            return fail("finite", f"returns {ret.tolist()} are not finite")
        if "zero_sum" in enabled and game.utility is Utility.ZERO_SUM and abs(ret.sum()) > 1e-5:
            return fail("zero_sum", f"returns {ret.tolist()} do not sum to 0")
    except Exception as exc:  # noqa: BLE001 - any crash is a finding
        return fail("exception", f"{exc!r}\n{traceback.format_exc()}")
    return RolloutResult(seed, len(actions), ret.tolist(), None, "", [], [], time.perf_counter() - t0)


# ---------------------------------------------------------------------- command line
_WORKER_GAME: Any = None


def check_out_dir(out_dir: str | os.PathLike) -> None:
    """Refuse an ``out_dir`` that is not a writable folder and cannot be created as one (before a run, so
    that no failure report is lost at the end).

    Raises:
        MonolithEnvError: naming the path and the problem.
    """
    p = Path(out_dir)
    if p.exists():
        if not p.is_dir():
            raise MonolithEnvError(f"--out {p}: exists and is not a folder; give a folder for the failure logs")
        if not os.access(p, os.W_OK | os.X_OK):
            raise MonolithEnvError(f"--out {p}: the folder is not writable")
        return
    parent = next((q for q in p.absolute().parents if q.exists()), None)
    if parent is None or not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise MonolithEnvError(f"--out {p}: cannot be created ({parent} is not a writable folder)")


def _init_worker(game_cls: Any, config: dict) -> None:
    global _WORKER_GAME
    _WORKER_GAME = game_cls(config)


def _work(args: tuple[int, int, tuple[str, ...], int]) -> RolloutResult:
    seed, sample, checks, every = args
    return fuzz_rollout(_WORKER_GAME, seed, checks, sample, every)


def run_fuzz(game_cls: Any, games: int, seed: int, workers: int, config: dict, out_dir: str,
             sample: int = 8, checks: Iterable[str] = CHECKS, progress: bool = True,
             check_every: int = 1, backend: str = "local", address: str | None = None,
             preload: Sequence[str] = (), env_id: str | None = None) -> int:
    """Run ``games`` rollouts with seeds ``seed .. seed+games-1`` on ``workers`` processes.

    Args:
        game_cls: the game class (``game_cls(config)`` builds the game; importable by module path, so
            spawned workers can build it too); its ``GAME_INFO.env_id`` names the logs.
        backend: ``"local"`` (a process pool) or ``"ray"``: Ray tasks, ``workers`` at once, on the cluster
            at ``address`` or on a local Ray instance (:mod:`monolith_envs.core.fuzz_ray`).

        preload: the ``--preload`` modules, repeated in the printed reproduce and replay commands.
        env_id: the id the game was looked up by (default ``GAME_INFO.env_id``); it names the logs and the
            reproduce command (a game class registered under another id replays under that id).

    Prints each failure (seed, step, action history tail, the exact command that reproduces it: same
    ``--config``, ``--sample``, ``--check-every`` and ``--preload``), writes its episode log to ``out_dir``,
    and ends with a summary line, the same for both backends. Returns the number of failures.

    Raises:
        ConfigError: a bad ``config`` (checked before the workers start).
        MonolithEnvError: ``games`` < 1, ``workers`` < 1, ``seed``/``sample``/``check_every`` < 0, or an
            ``out_dir`` that is not a writable folder and cannot be made one (checked before the run).
    """
    for name, v, lo in (("games", games, 1), ("workers", workers, 1), ("seed", seed, 0), ("sample", sample, 0),
                        ("check_every", check_every, 0)):
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            raise MonolithEnvError(f"fuzz: {name}={v!r}; expected an integer >= {lo}")
    check_out_dir(out_dir)
    import multiprocessing as mp

    game = game_cls(config)  # validates the config before workers start
    env_id = env_id or game.env_id
    full_config = dict(game.config)
    checks = tuple(checks)
    jobs = [(seed + i, sample, checks, check_every) for i in range(games)]
    try:
        from tqdm import tqdm
    except ImportError:  # the core needs only numpy/gymnasium/pettingzoo
        tqdm = None
    t0 = time.perf_counter()
    results: list[RolloutResult] = []
    if backend == "ray":
        from .fuzz_ray import ray_results

        it, pool = ray_results(game_cls, config, jobs, workers, address), None
    elif workers <= 1:
        _init_worker(game_cls, config)
        it = map(_work, jobs)
        pool = None
    else:
        pool = mp.get_context("spawn").Pool(workers, initializer=_init_worker, initargs=(game_cls, config))
        it = pool.imap_unordered(_work, jobs, chunksize=max(1, min(16, games // (workers * 8) or 1)))
    bar = tqdm(total=games, unit="game", disable=not progress) if tqdm else None
    failures = 0
    out = Path(out_dir)
    try:
        for r in it:
            results.append(r)
            if bar:
                bar.update(1)
            if r.failure:
                failures += 1
                out.mkdir(parents=True, exist_ok=True)
                log = EpisodeLog(env_id, full_config, r.seed, r.actions, note=f"[{r.failure}] {r.message[:2000]}",
                                 chance=list(r.chance))
                path = log.save(out / f"{env_id}_seed{r.seed}.json")
                pre = "".join(f" --preload {shlex.quote(m)}" for m in preload)
                msg = [
                    f"FAILURE [{r.failure}] seed={r.seed} step={r.decisions}",
                    f"  {r.message.splitlines()[0] if r.message else ''}",
                    "  last actions: " + " -> ".join(r.history),
                    f"  episode log: {path}",
                    f"  reproduce: python -m monolith_envs fuzz {shlex.quote(env_id)} --games 1 --seed {r.seed} "
                    f"--workers 1 --config {shlex.quote(json.dumps(config))} --sample {sample} "
                    f"--check-every {check_every} --out {shlex.quote(str(out))}{pre}",
                    f"  replay:    python -m monolith_envs replay {shlex.quote(str(path))}{pre}",
                ]
                text = "\n".join(msg)
                (bar.write(text) if bar else print(text))
    finally:
        if bar:
            bar.close()
        if hasattr(it, "close"):
            it.close()
        if pool is not None:
            pool.close()
            pool.join()
    dt = time.perf_counter() - t0
    decisions = sum(r.decisions for r in results)
    print(f"fuzz {env_id}: games={len(results)} decisions={decisions} "
          f"decisions/s={decisions / max(dt, 1e-9):.0f} failures={failures} ({dt:.1f} s, {workers} workers"
          + (" on ray, " if backend == "ray" else ", ")
          + (f"per-step checks every {check_every} decisions)" if check_every else "invariants only)"))
    return failures
