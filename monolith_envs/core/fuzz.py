"""Random masked rollouts with every per-step conformance check and the game's invariants.

Used by the tests and by ``python -m monolith_envs fuzz`` (parallel workers, progress bar, failure logs).
Rollouts drive the engine exactly like :class:`~monolith_envs.core.aec.RulesAECEnv` does after
``reset(seed=s)`` (one ``numpy.random.default_rng(s)`` for setup and every ``apply``), so a failing
rollout is saved as an :class:`~monolith_envs.core.replay.EpisodeLog` that replays in the env.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import shlex
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from .chance import ChanceRecorder
from .cli import progress_bar
from .deadline import DeadlineExceeded, check_timeout, deadline
from .game import InvariantError, MonolithEnvError, Utility
from .interrupt import Interrupted, children_ignore_sigint, stop_on_signals
from .outfiles import check_output_dir, missing_folders, remove_empty_folders
from .processes import local_worker_limit, worker_limit_why
from .replay import EpisodeLog, printable
from .returns import float_tolerance
from .seeds import MAX_SEED, check_seed
from .state_checks import (
    STEP_CHECKS,
    StepCheckFailure,
    pure_queries_failure,
    setup_only_failure,
    step_checks,
    terminal_failure,
)
from .testing import CHECKS

__all__ = ["RolloutResult", "StuckWorkersError", "fuzz_rollout", "replay_failure", "STEP_CHECKS"]


@dataclass
class RolloutResult:
    """Outcome of one fuzz rollout.

    Attributes:
        seed: the episode seed.
        decisions: actions applied.
        returns: final returns (``None`` on failure).
        failure: ``None``, or the failed check name (a name from ``CHECKS``, ``"exception"``, or ``"timeout"``).
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
                 check_every: int = 1, timeout: float | None = None) -> RolloutResult:
    """Play one random masked rollout of ``game`` from ``seed`` and check every step.

    Args:
        game: a :class:`~monolith_envs.core.game.Game`.
        seed: episode seed (setup and chance draws as in the env; action choices from ``seed`` too).
        checks: which checks run (per-step checks of :data:`STEP_CHECKS`, plus ``invariants``, ``zero_sum``,
            ``finite`` (also on the final returns), ``ends``, and ``chance_logged``: at the end the episode
            replays from its seed and actions alone to the same state, :func:`replay_failure`, and a game
            declared ``setup_only`` drew nothing in ``apply``).
        sample: legal / illegal actions tried per step.
        check_every: run the per-step checks on every ``check_every``-th decision (1 = all; the game's
            invariants and the end-of-game checks always run; ``pure_queries`` after each checked decision's
            ``apply``, the terminal state's mask and the replay when per-step checks run). ``0`` turns the
            per-step checks off.
        timeout: seconds the rollout may take (wall clock; ``None``: no limit); past it the rollout fails with
            ``"timeout"``, naming where the game's code was (:mod:`monolith_envs.core.deadline`: in the main
            thread only).

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

    token = object()  # made here: a limit that passes before the block begins still carries it
    try:
        with deadline(timeout, token):
            ret = _play(game, seed, enabled, step_names, sample, check_every, game_rng, pick_rng, check_rng, chance,
                        actions, fail)
    except DeadlineExceeded as exc:
        if exc.token is not token:  # an enclosing limit of the caller's
            raise
        return fail("timeout", f"{exc.said('the rollout')}: a game method that never returns, or a limit too "
                               "short for this game's rollouts?")
    except Exception as exc:  # noqa: BLE001 - any crash is a finding
        return fail("exception", f"{exc!r}\n{traceback.format_exc()}")
    if isinstance(ret, RolloutResult):
        return ret
    return RolloutResult(seed, len(actions), ret.tolist(), None, "", [], [], time.perf_counter() - t0)


def _play(game: Any, seed: int, enabled: set, step_names: list, sample: int, check_every: int, game_rng: Any,
          pick_rng: Any, check_rng: Any, chance: ChanceRecorder, actions: list[int], fail: Any) -> Any:
    """The moves and checks of :func:`fuzz_rollout`: the final returns, or the failure's result."""
    state = game.initial_state(game_rng)
    pure = "pure_queries" in enabled and bool(check_every)  # on states no query has read yet
    if pure and (wrong := pure_queries_failure(game, state, "outcome" in enabled)):
        return fail("pure_queries", f"the initial state: {wrong}")
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
        if pure and (len(actions) - 1) % check_every == 0 and (wrong := pure_queries_failure(game, state, "outcome" in enabled)):
            return fail("pure_queries", f"after {game.layout.decode(a)}: {wrong}")
        if "invariants" in enabled:
            try:
                game.check_invariants(state)
            except InvariantError as exc:
                return fail("invariants", str(exc))
    if game.is_terminal(state) and step_names and check_every:
        failed = terminal_failure(game, state, enabled)
        if failed:
            return fail(failed[0], f"at the end: {failed[1]}")
    ret = np.asarray(game.returns(state), np.float64)
    if "finite" in enabled and not np.isfinite(ret).all():
        return fail("finite", f"returns {ret.tolist()} are not finite")
    if "zero_sum" in enabled and game.utility is Utility.ZERO_SUM and abs(ret.sum()) > float_tolerance(*ret):
        return fail("zero_sum", f"returns {ret.tolist()} do not sum to 0")
    if check_every and "chance_logged" in enabled:  # as check_env's, on the engine: no draw, then the replay
        wrong = setup_only_failure(game, chance.events) or replay_failure(game, seed, actions, state)
        if wrong:
            return fail("chance_logged", wrong)
    return ret


def replay_failure(game: Any, seed: int, actions: Sequence[int], state: Any) -> str | None:
    """``chance_logged`` for a fuzz rollout: the episode replays from its seed and actions alone, as its log
    and ``python -m monolith_envs replay`` replay it: ``initial_state`` and every ``apply`` drawing from one
    ``numpy.random.default_rng(seed)``, with no query between them, must end in ``state`` (compared by
    ``to_dict``). Returns ``None``, or why not (an ``apply`` that raised, or the first differing key)."""
    rng = np.random.default_rng(seed)
    again = game.initial_state(rng)
    for k, a in enumerate(actions):
        try:
            game.apply(again, int(a), rng)
        except Exception as exc:  # noqa: BLE001 - the finding: the replay went another way
            return (f"replaying seed {seed} + its actions: step {k} ({game.layout.decode(int(a))}) raised "
                    f"{type(exc).__name__}: {exc}; initial_state or apply depends on something besides the state, "
                    "the action and the episode's generator (a global, another generator, the clock?)")
    want, got = game.to_dict(state), game.to_dict(again)
    if want == got:
        return None
    keys = [k for k in want if want.get(k) != got.get(k)] if isinstance(want, dict) and isinstance(got, dict) else []
    return (f"replaying seed {seed} + its {len(actions)} actions gives another final state"
            + (f" (differing: {', '.join(map(str, keys[:4]))})" if keys else "")
            + ": initial_state or apply depends on something besides the state, the action and the episode's "
            "generator (a global, another generator, the clock, a query called in between?)")


# ---------------------------------------------------------------------- command line
MAX_GAMES = 10**12
"""Most games one fuzz run takes (about 10^14 decisions: far beyond any campaign, and a clear bound)."""
MAX_WORKERS = 1024
"""Most worker processes or Ray tasks at once."""
MAX_SAMPLE = 10**6
"""Most legal / illegal actions tried per step."""
MAX_LISTED_LOGS = 20
"""Failure logs listed by the summary of an interrupted run (the rest are counted)."""

_WORKER_GAME: Any = None


def check_out_dir(out_dir: str | os.PathLike) -> Path:
    """Create ``out_dir`` and a probe file in it before a run, so that no failure report is lost at the end.

    Raises:
        OutputPathError: (a :class:`MonolithEnvError`) naming the path and the problem.
    """
    return check_output_dir(out_dir, "--out", "the failure logs")


_WORKER_SPEC: Any = None
_WORKER_BUILD_FAILED: str | None = None  # why this worker could not build its game (then every game fails so)


def _init_worker(game_cls: Any, config: dict, game: Any = None) -> None:
    """Keep what builds this process's game (built at its first rollout, under that rollout's ``timeout``: a
    game whose construction never returns is a failure, not a pool that hangs); ``game``: one already built."""
    global _WORKER_GAME, _WORKER_SPEC, _WORKER_BUILD_FAILED
    _WORKER_GAME, _WORKER_SPEC, _WORKER_BUILD_FAILED = game, (game_cls, config), None


def _init_pool_worker(game_cls: Any, config: dict, preload: Sequence[str] = ()) -> None:
    from .cli import preload_worker

    # the parent stops its workers on Ctrl-C; a spawned worker imports the --preload modules too: one may change
    # a registered game
    preload_worker(tuple(preload))
    _init_worker(game_cls, config)


def _work(args: tuple[int, int, tuple[str, ...], int, float | None]) -> RolloutResult:
    global _WORKER_GAME, _WORKER_BUILD_FAILED
    seed, sample, checks, every, timeout = args
    if _WORKER_GAME is None:
        game_cls, config = _WORKER_SPEC
        if _WORKER_BUILD_FAILED is None:  # tried once a worker: every later game of it fails at once, the same way
            try:
                with deadline(timeout):
                    _WORKER_GAME = game_cls(config)
            except DeadlineExceeded as exc:
                _WORKER_BUILD_FAILED = (f"{exc.said(f'building the game in a worker process ({game_cls.__name__}(config))')}"
                                        " (it was built in time in the main process: the reproduce command, on one "
                                        "worker, builds it there)")
        if _WORKER_BUILD_FAILED is not None:
            return RolloutResult(seed, 0, None, "timeout", _WORKER_BUILD_FAILED, [], [], 0.0)
    return fuzz_rollout(_WORKER_GAME, seed, checks, sample, every, timeout)


def _work_chunk(jobs: list[tuple[int, int, tuple[str, ...], int, float | None]]) -> list[RolloutResult]:
    return [_work(j) for j in jobs]


def _jobs(seed: int, games: int, sample: int, checks: tuple[str, ...], every: int,
          timeout: float | None = None) -> Iterator[tuple]:
    """The jobs of seeds ``seed .. seed+games-1``, made one at a time (10^10 games cost no memory)."""
    return ((s, sample, checks, every, timeout) for s in range(seed, seed + games))


def _chunk_size(games: int, workers: int, check_every: int) -> int:
    """Games per pool task.  With per-step checks a game takes from a tenth of a second to several seconds,
    far more than a task's round trip, so each game comes back by itself: the progress bar moves with every
    game, and an interrupted run counts every game finished.  With the invariants only (``check_every=0``) a
    game takes milliseconds, and up to 16 share a task to save round trips."""
    if check_every:
        return 1
    return max(1, min(16, games // (workers * 8) or 1))


class StuckWorkersError(MonolithEnvError):
    """A fuzz worker pool returned no rollout for longer than the limits of the rollouts in flight allow (a
    game that catches even the limit's interruption, or a call that never returns): a finding about the game,
    so the command exits with status 1."""


#: seconds a worker pool may go without returning a rollout, on top of the ``timeout`` of each rollout of a
#: chunk in flight, before the run stops as stuck (spawning workers, imports, a loaded machine)
STALL_GRACE_S = 60.0


def _pool_results(pool: Any, jobs: Iterator[tuple], size: int, window: int,
                  timeout: float | None = None) -> Iterator[RolloutResult]:
    """Results of ``jobs`` run on ``pool`` in chunks of ``size``, at most ``window`` chunks in flight.

    With a ``timeout`` per rollout, a pool that returns nothing for ``(size + 1) * timeout + STALL_GRACE_S``
    seconds (a worker's first task builds the game too) is stuck (a game's code that catches the rollout's
    interruption every time, or a C call that never returns): :class:`StuckWorkersError` names the seeds sent
    that did not come back, and the caller terminates the pool."""
    done: queue.SimpleQueue = queue.SimpleQueue()
    chunks = iter(lambda: list(itertools.islice(jobs, size)), [])
    out: dict[int, list[int]] = {}  # first seed of each chunk in flight -> its seeds
    in_flight = 0
    more = True
    # a worker's first task also builds the game under the same limit
    stall = None if timeout is None else (size + 1) * timeout + STALL_GRACE_S
    while True:
        while more and in_flight < window:
            part = next(chunks, None)
            if part is None:
                more = False
                break
            out[part[0][0]] = [job[0] for job in part]
            pool.apply_async(_work_chunk, (part,), callback=done.put, error_callback=done.put)
            in_flight += 1
        if not in_flight:
            return
        since = time.monotonic()
        while True:
            try:
                item = done.get(timeout=0.25)  # short waits: a signal is handled at once
                break
            except queue.Empty:
                if stall is not None and time.monotonic() - since > stall:
                    seeds = sorted(s for part in out.values() for s in part)
                    listed = ", ".join(map(str, seeds[:8])) + (f" and {len(seeds) - 8} more" if len(seeds) > 8 else "")
                    raise StuckWorkersError(
                        f"fuzz: no rollout came back for {stall:g} s although each may take {timeout:g} s "
                        f"(--timeout; {size} to a task, and a worker's first builds the game too): a worker is "
                        f"stuck in the game's code past its limit (code that catches "
                        f"every exception, BaseException included, so the limit's interruption too; or a call "
                        f"that never returns); the workers were stopped. Seeds sent that did not come back: "
                        f"{listed} (some of them only waiting behind a stuck one); a run with --workers 1 has no "
                        "such watchdog and would hang on them") from None
                continue
        in_flight -= 1
        if isinstance(item, BaseException):
            raise MonolithEnvError(f"fuzz: a worker failed outside the checked rollout: {item!r}")
        if item:
            out.pop(item[0].seed, None)
        yield from item


@dataclass
class _Tally:
    games: int = 0
    decisions: int = 0
    failures: int = 0
    logs: list[str] = field(default_factory=list)


def _report(r: RolloutResult, env_id: str, full_config: dict, config: dict, out: Path, sample: int,
            check_every: int, preload: Sequence[str], timeout: float | None = None) -> tuple[str, Path]:
    """Write the failure's episode log (atomically) and return its report text and the log path."""
    log = EpisodeLog(env_id, full_config, r.seed, r.actions, note=f"[{r.failure}] {r.message[:2000]}",
                     chance=list(r.chance))
    out.mkdir(parents=True, exist_ok=True)  # another run that made the same folder may have removed it, empty
    path = log.save(out / f"{env_id}_seed{r.seed}.json")
    from .cli import preload_flags

    pre = preload_flags(preload)
    msg = [
        f"FAILURE [{r.failure}] seed={r.seed} step={r.decisions}",
        f"  {printable(r.message.splitlines()[0]) if r.message else ''}",  # escapes shown, not obeyed
        "  last actions: " + printable(" -> ".join(r.history)),
        f"  episode log: {path}",
        f"  reproduce: python -m monolith_envs fuzz {shlex.quote(env_id)} --games 1 --seed {r.seed} "
        f"--workers 1 --config {shlex.quote(json.dumps(config))} --sample {sample} "
        f"--check-every {check_every}" + (" --timeout none" if timeout is None else f" --timeout {timeout:.15g}")
        + f" --out {shlex.quote(str(out))}{pre}",
        f"  replay:    python -m monolith_envs replay {shlex.quote(str(path))}{pre}",
    ]
    return "\n".join(msg), path


def _check_args(games: int, seed: int, workers: int, sample: int, check_every: int) -> None:
    for name, v, lo, hi in (("games", games, 1, MAX_GAMES), ("workers", workers, 1, MAX_WORKERS),
                            ("sample", sample, 0, MAX_SAMPLE), ("check_every", check_every, 0, 2**62)):
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            shown = repr(v) if not isinstance(v, int) or len(str(v)) <= 30 else f"an integer of {len(str(v))} digits"
            raise MonolithEnvError(f"fuzz: {name}={shown}; expected an integer from {lo} to {hi:_}")
    try:
        check_seed(seed)
    except (TypeError, ValueError) as exc:
        raise MonolithEnvError(f"fuzz: {exc}") from None
    if seed + games - 1 > MAX_SEED:
        raise MonolithEnvError(f"fuzz: seeds {seed} .. seed+games-1 pass the largest seed 2**128-1; "
                               "give a smaller --seed or fewer --games")


def run_fuzz(game_cls: Any, games: int, seed: int, workers: int, config: dict, out_dir: str,
             sample: int = 8, checks: Iterable[str] = CHECKS, progress: bool = True,
             check_every: int = 1, backend: str = "local", address: str | None = None,
             preload: Sequence[str] = (), env_id: str | None = None, max_failures: int | None = None,
             timeout: float | None = None) -> int:
    """Run ``games`` rollouts with seeds ``seed .. seed+games-1`` on ``workers`` processes.

    Args:
        game_cls: the game class (``game_cls(config)`` builds the game; importable by module path, so
            spawned workers can build it too); its ``GAME_INFO.env_id`` names the logs.
        backend: ``"local"`` (a process pool) or ``"ray"``: Ray tasks, ``workers`` at once, on the cluster
            at ``address`` or on a local Ray instance (:mod:`monolith_envs.core.fuzz_ray`).
        preload: the ``--preload`` modules, repeated in the printed reproduce and replay commands and imported
            by every local worker process before it builds the game (so a module that changes a registered
            game changes it in the workers too, with any ``workers``).
        env_id: the id the game was looked up by (default ``GAME_INFO.env_id``); it names the logs and the
            reproduce command (a game class registered under another id replays under that id).
        max_failures: stop after this many failures (the rollouts still running are dropped, and the summary
            says so); ``None``: every game runs.
        timeout: seconds each rollout may take (``None``: no limit); a rollout past it is the failure
            ``"timeout"`` naming where the game's code was, and the run goes on (local workers and one process;
            where a rollout does not run in a main thread, e.g. some Ray workers, there is no limit). With
            local workers, a pool that returns no rollout for a chunk's limits plus :data:`STALL_GRACE_S`
            (a game that catches every interruption) is stopped, and the run ends with an error naming the
            seeds still running.

    The jobs are made as they are submitted (a bounded number in flight), so ``games`` costs no memory.
    Prints each failure (seed, step, action history tail, the exact command that reproduces it: same
    ``--config``, ``--sample``, ``--check-every`` and ``--preload``), writes its episode log to ``out_dir``
    (atomically), and ends with a summary line, the same for both backends. Returns the number of failures.

    On SIGINT or SIGTERM (in the main thread) the workers are stopped at once (no new ones start), the
    summary of what ran is printed with the failure logs written so far, and
    :class:`~monolith_envs.core.interrupt.Interrupted` is raised (its ``exit_code`` is 130 or 143).

    Raises:
        ConfigError: a bad ``config`` (checked before the workers start).
        MonolithEnvError: ``games`` outside 1 to :data:`MAX_GAMES`, ``workers`` outside 1 to
            :data:`MAX_WORKERS` (local backend: above :func:`~monolith_envs.core.processes.local_worker_limit`,
            whatever ``games`` is; within it, more workers than games start only one per game), a seed outside 0 to 2**128-1 (for the last game too), ``sample`` or
            ``check_every`` out of range, an ``out_dir`` that cannot be created and written (checked by
            creating it, before the run), a ``timeout`` that is not a positive number, a stuck worker pool
            (above), or (ray) an unreachable cluster.
        Interrupted: SIGINT or SIGTERM, after the summary.
    """
    _check_args(games, seed, workers, sample, check_every)
    try:
        timeout = check_timeout(timeout, "timeout")
    except ValueError as exc:
        raise MonolithEnvError(f"fuzz: {exc}") from None
    if max_failures is not None and (isinstance(max_failures, bool) or not isinstance(max_failures, int)
                                     or max_failures < 1):
        raise MonolithEnvError(f"fuzz: max_failures={max_failures!r} is not allowed; expected None or an integer "
                               "of at least 1")
    if backend != "ray":
        limit = local_worker_limit()
        if workers > limit:  # the value given, whatever --games is: the same command is refused or not
            raise MonolithEnvError(f"fuzz: workers={workers} local processes is more than this machine takes: "
                                   f"at most {limit} ({worker_limit_why()}); give fewer workers, or --backend ray "
                                   "for a cluster")
        workers = min(workers, games)  # never more processes than games
    made = missing_folders(out_dir)  # the folders this run makes go again if no log goes into them
    try:
        out = check_out_dir(out_dir)
        return _run_checked(game_cls, games, seed, workers, config, out, sample, checks, progress, check_every,
                            backend, address, preload, env_id, max_failures, timeout)
    finally:
        remove_empty_folders(made)  # only empty ones: a failure log keeps its folder


def _run_checked(game_cls: Any, games: int, seed: int, workers: int, config: dict, out: Path, sample: int,
                 checks: Iterable[str], progress: bool, check_every: int, backend: str, address: str | None,
                 preload: Sequence[str], env_id: str | None, max_failures: int | None,
                 timeout: float | None) -> int:
    """:func:`run_fuzz` once its arguments are checked and ``out`` exists."""
    cut = False  # stopped at max_failures
    token = object()
    try:
        with deadline(timeout, token):
            game = game_cls(config)  # validates the config before workers start
    except DeadlineExceeded as exc:
        if exc.token is not token:  # an enclosing limit of the caller's
            raise
        raise MonolithEnvError(f"fuzz: {exc.said(f'building the game ({game_cls.__name__}(config))', '--timeout')}"
                               ) from None
    env_id = env_id or game.env_id
    full_config = dict(game.config)
    checks = tuple(checks)
    jobs = _jobs(seed, games, sample, checks, check_every, timeout)
    ray_mod, ray_started = None, False
    t0 = time.perf_counter()
    tally = _Tally()
    stopped: Interrupted | None = None
    finished = False  # the loop over the results ended by itself (else: stopped, or an error on its way out)
    it: Any = None
    pool: Any = None
    bar = None
    with stop_on_signals() as guard:
        try:
            if backend == "ray":
                from .fuzz_ray import connect, ray_results

                ray_mod, ray_started = connect(address, workers)  # a signal during ray.init stops the run here
                t0 = time.perf_counter()  # the rate leaves out the start of Ray
                it = ray_results(game_cls, config, jobs, workers, address)
            elif workers <= 1:
                _init_worker(game_cls, config, game)
                it = map(_work, jobs)
            else:
                import multiprocessing as mp

                with guard.deferred(), children_ignore_sigint():  # a signal now stops the pool once made
                    pool = mp.get_context("spawn").Pool(workers, initializer=_init_pool_worker,
                                                        initargs=(game_cls, config, tuple(preload)))
                it = _pool_results(pool, jobs, _chunk_size(games, workers, check_every), 2 * workers,
                                   timeout)
            # a bar on a terminal; on a log file or a pipe a line every 30 s (as the check command)
            bar = progress_bar(games, f"fuzz {env_id}", "game", enabled=progress)
            for r in it:
                tally.games += 1
                tally.decisions += r.decisions
                if bar and not r.failure:
                    bar.update(1)
                if r.failure:
                    with guard.deferred():  # the log is written, reported and counted, or not at all
                        text, path = _report(r, env_id, full_config, config, out, sample, check_every, preload,
                                             timeout)
                        (bar.write(text) if bar else print(text, flush=True))
                        tally.failures += 1
                        if bar:  # counted after its report: the line that follows says it
                            bar.set_postfix_str(f"{tally.failures} failure{'s' if tally.failures != 1 else ''}")
                            bar.update(1)
                        tally.logs.append(str(path))
                        del tally.logs[:-MAX_LISTED_LOGS]
                    if max_failures is not None and tally.failures >= max_failures:
                        cut = True
                        break
            finished = True
        except Interrupted as exc:
            stopped = exc
        finally:
            if bar:
                bar.close()
            if pool is not None:
                if stopped is not None or cut or not finished:  # stopped, or a stuck or failed pool
                    pool.terminate()  # running rollouts are dropped; no new worker starts
                else:
                    pool.close()
                pool.join()
            if hasattr(it, "close"):
                it.close()
            if ray_started:
                with guard.deferred():  # never interrupted inside Ray's core (see fuzz_ray)
                    ray_mod.shutdown()  # ends the tasks still running
        dt = time.perf_counter() - t0
        print(f"fuzz {env_id}: games={tally.games} decisions={tally.decisions} "
              f"decisions/s={tally.decisions / max(dt, 1e-9):.0f} failures={tally.failures} ({dt:.1f} s, "
              f"{workers} worker{'s' if workers != 1 else ''}" + (" on ray, " if backend == "ray" else ", ")
              + (("per-step checks every decision)" if check_every == 1 else
                  f"per-step checks every {check_every} decisions)") if check_every else "invariants only)"),
              flush=True)
        if cut:
            print(f"stopped at --max-failures {max_failures}: {tally.games} of {games} games played; failure logs in "
                  f"{out}", flush=True)
        if stopped is not None:
            more = tally.failures - len(tally.logs)
            print(f"interrupted by {stopped.name}: stopped after {tally.games} of {games} games"
                  + (f"; failure logs{' (the last ' + str(len(tally.logs)) + ')' if more else ''}:" if tally.logs
                     else "; no failure found"), flush=True)
            for path in tally.logs:
                print(f"  {path}")
            if more:
                print(f"  ... and {more} more in {out}")
            sys.stdout.flush()
            raise stopped
    return tally.failures
