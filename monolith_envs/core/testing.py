"""``check_env``: the conformance suite every env id and config must pass (ARCHITECTURE §6 item 2).

Shipped in the package (like pgx's ``api_test``) so that users who add content or games can run it::

    from monolith_envs import monolith_arena_v0
    from monolith_envs.core.testing import check_env
    report = check_env(monolith_arena_v0.raw_env, {"num_players": 3, "mode": "ffa"}, games=5, seed=0)

Each check has a name (see :data:`CHECKS`); a failure raises :class:`ConformanceError` naming the check,
the episode seed and step, and what went wrong.

:class:`ScriptedRng` (in :mod:`monolith_envs.core.scripted`, exported here) forces the draws of ``apply`` in
golden scenarios: ``game.apply(state, action, ScriptedRng([4, 2, 6]))``.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

import numpy as np

from .chance import ChanceError, ChanceRecorder
from .deadline import DeadlineExceeded, check_timeout, deadline
from .game import Game, IllegalActionError, InvariantError, MonolithEnvError, Outcome, Utility
from .returns import float_tolerance
from .scripted import ScriptedRng, ScriptedRngError
from .seeds import MAX_SEED
from .state_checks import (
    PURE_QUERIES,
    STEP_CHECKS,
    StepCheckFailure,
    _not_an_array,
    pure_queries_failure,
    setup_only_failure,
    step_checks,
    terminal_failure,
)

__all__ = ["CHECKS", "ConformanceError", "ConformanceReport", "PURE_QUERIES", "check_env", "check_env_seeds",
           "pure_queries_failure", "step_checks", "StepCheckFailure", "terminal_failure",
           "ScriptedRng", "ScriptedRngError"]

#: Every check of the suite, in the order they run.
CHECKS: tuple[str, ...] = (
    "api_test",            # PettingZoo's api_test
    "seed_test",           # PettingZoo's seed_test
    "reset_reproduces",    # seeded reset on a reused instance reproduces the transcript
    "config_kept",         # config survives seeded resets
    "mask_nonempty",       # mask non-empty iff a live agent must act
    "masked_actions_apply",
    "unmasked_actions_raise",
    "rejected_no_draw",    # a rejected action draws nothing, in the engine and through env.step
    "mask_json_roundtrip",  # mask equals a recomputation on from_dict(json(to_dict(state)))
    "clone",               # clone equal and independent
    "pure_queries",        # legal_mask, observe, returns, ... leave the state as it was
    "observe_all",         # every agent observable; obs in space; non-acting masks all zero
    "dead_steps",          # each agent stepped with None exactly once at the end, sees its final reward
    "zero_sum",            # returns sum to 0 in zero-sum modes
    "finite",              # every reward, return and observation is finite (no inf, no NaN)
    "hidden_info",         # resampling what a viewer may not know leaves its observation byte-identical
    "invariants",          # the game's invariants hook
    "ends",                # episodes end before max_decisions in random play
    "chance_logged",       # apply's draws are chance events; seed + actions replay them; setup_only draws none
    "outcome",             # GAME_INFO and the instance's utility / teams agree; outcome() of every end
)


#: the checks that run PettingZoo's own tests (last: the checks before them name a fault precisely)
_PETTINGZOO = ("api_test", "seed_test")


class ConformanceError(MonolithEnvError, AssertionError):
    """A conformance check failed. ``check`` is its name (one of :data:`CHECKS`; ``"exception"``: the game's
    code raised outside any check, e.g. a bug in ``apply`` or ``observe``, the message naming the exception and
    the episode seed; ``"timeout"``: an episode or check ran past ``check_env``'s ``timeout``, the message
    naming where it was)."""

    def __init__(self, check: str, message: str):
        self.check = check
        super().__init__(f"[{check}] {message}")


@dataclass
class ConformanceReport:
    """What :func:`check_env` ran: checks passed, episodes, decisions, episode lengths."""

    env_id: str
    config: dict
    checks: list[str] = field(default_factory=list)
    episodes: int = 0
    decisions: int = 0
    lengths: list[int] = field(default_factory=list)


def _transcript(env, seed: int, actions: list[int] | None = None, act_seed: int = 0) -> tuple[list, list[int]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(act_seed)
    rows: list = []
    taken: list[int] = []
    i = 0
    for agent in env.agent_iter(10**7):
        obs, rew, term, trunc, _ = env.last()
        rows.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), float(rew), term, trunc))
        if term or trunc:
            env.step(None)
            continue
        if actions is not None:
            if i >= len(actions):
                break
            a = actions[i]
        else:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(a)
        env.step(a)
        i += 1
    return rows, taken


#: the seed offset of check_env's replay check (a second match on a used instance: seed + REPLAY_SEED_OFFSET)
REPLAY_SEED_OFFSET = 1000


def check_env_seeds(seed: int, games: int) -> None:
    """Refuse a ``seed`` whose episodes pass the largest seed: :func:`check_env` plays seeds ``seed`` to
    ``seed + games - 1`` and ``seed + 1000`` for its replay check.

    Raises:
        ValueError: naming the seed, the games and what to change.
    """
    if seed + max(games - 1, REPLAY_SEED_OFFSET) > MAX_SEED:
        raise ValueError(f"seed {seed} with {games} games: the check plays seeds seed to seed + games - 1 (and "
                         f"seed + {REPLAY_SEED_OFFSET} for its replay check), past the largest seed 2**128-1; give a "
                         "smaller seed or fewer games")


def check_env(
    env_fn: Callable[..., Any],
    config: Mapping[str, Any] | None = None,
    games: int = 10,
    seed: int = 0,
    *,
    only: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    sample: int = 12,
    api_cycles: int = 200,
    progress: Callable[[ConformanceReport], None] | None = None,
    timeout: float | None = None,
) -> ConformanceReport:
    """Run the conformance suite on the env that ``env_fn(**config)`` builds.

    Args:
        env_fn: ``env_fn(**config)`` returns an unwrapped :class:`~monolith_envs.core.aec.RulesAECEnv`, e.g.
            ``monolith_envs.monolith_arena_v0.raw_env`` (the core never looks an env id up).
        config: the game configuration (validated by the game).
        games: number of seeded random episodes for the per-episode and per-step checks.
        seed: base seed; episode ``i`` uses seed ``seed + i``.
        only: run only these checks (names from :data:`CHECKS`).
        skip: checks to leave out.
        sample: legal and illegal actions tried per step.
        api_cycles: cycles for PettingZoo's ``api_test`` / ``seed_test``.
        progress: called with the report after each checked episode (a progress bar; the caller may also
            keep the report to say what was checked when it is stopped).
        timeout: seconds each episode, and each other check, may take (wall clock; ``None``: no limit). A
            game method that never returns then fails the check ``"timeout"``, naming where it was stuck
            (:mod:`monolith_envs.core.deadline`: the main thread only, elsewhere no limit).

    Returns:
        A :class:`ConformanceReport` (its ``env_id`` is the env's).

    Raises:
        ConformanceError: the first failing check, naming it, the episode seed, step and details.
        ValueError: unknown check names in ``only`` / ``skip``, seeds past the largest
            (:func:`check_env_seeds`), or a ``timeout`` that is not a positive number.
        TypeError: ``env_fn`` is not callable (an env id string: pass the env module's ``raw_env``).
    """
    if not callable(env_fn):
        raise TypeError(f"check_env() takes the env factory (e.g. monolith_arena_v0.raw_env), not {env_fn!r}; "
                        "from an env id: monolith_envs.env_module(env_id).raw_env")
    config = dict(config or {})
    names = set(CHECKS if only is None else only) - set(skip)
    unknown = names - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown checks {sorted(unknown)}; checks: {', '.join(CHECKS)}")
    check_env_seeds(seed, games)
    timeout = check_timeout(timeout, "timeout")

    def raw():
        return env_fn(**config)

    where = ["building the env (env_fn(**config))"]  # what runs now, for the messages

    @contextlib.contextmanager
    def limit():
        """The block under ``timeout``: past it, ConformanceError("timeout") naming ``where[0]``; an enclosing
        limit of the caller's passes through as it is."""
        token = object()
        try:
            with deadline(timeout, token):
                yield
        except DeadlineExceeded as exc:
            if exc.token is not token:
                raise
            raise ConformanceError("timeout", f"{exc.said(where[0])}: a game method that never returns, or a "
                                              "limit too short for this game?") from None

    with limit():  # a bad config still raises its own error (ConfigError), as without a limit
        probe = raw()
    report = ConformanceReport(probe.env_id, config)
    # the game's own errors outside any check (a bug in apply, observe or reset) as one ConformanceError, as
    # PettingZoo's api_test reported them when it ran first
    where[0] = f"the mask probe (the initial state of seed {seed})"
    try:
        if "mask_nonempty" in names:  # first: every other check steps the AEC env, which calls array methods on it
            with limit():
                mask = probe.game.legal_mask(probe.game.initial_state(np.random.default_rng(seed)))
            wrong = _not_an_array(mask, probe.game.layout.n)
            if wrong:
                raise ConformanceError("mask_nonempty", f"{wrong} (at the initial state of seed {seed})")

        if "outcome" in names:
            _check_static_info(probe.game)

        step_names = [c for c in STEP_CHECKS if c in names]
        episode_names = {"observe_all", "dead_steps", "zero_sum", "invariants", "ends", "mask_nonempty", "pure_queries",
                         "rejected_no_draw", "chance_logged", "outcome", "finite"} & names
        if step_names or episode_names:
            where[0] = "building the env of the episodes (env_fn(**config))"
            with limit():
                env = raw()
            game = env.game
            for g in range(games):
                ep_seed = seed + g
                where[0] = f"the episode of seed {ep_seed}"
                with limit():
                    steps = _check_episode(env, game, ep_seed, names, step_names, sample, raw)
                report.episodes += 1
                report.decisions += steps
                report.lengths.append(steps)
                if progress is not None:
                    progress(report)
        where[0] = f"the reset_reproduces check (seed {seed})"
        if "reset_reproduces" in names:
            with limit():
                _check_reset_reproduces(raw, seed)
            report.checks.append("reset_reproduces")
        where[0] = "the config_kept check"
        if "config_kept" in names:
            with limit():
                _check_config_kept(raw, seed)
            report.checks.append("config_kept")
        report.checks.extend(c for c in CHECKS if c in names and c not in report.checks and c not in _PETTINGZOO)
    except ConformanceError:
        raise
    except Exception as exc:  # noqa: BLE001 - the game's code raised: the user's bug, named with where
        raise ConformanceError("exception", f"the game raised {type(exc).__name__}: {str(exc)[:300]} during "
                                            f"{where[0]}") from exc
    # PettingZoo's own tests last: the checks above name a wrong observation or mask precisely, where api_test
    # would report any of them as an out-of-bounds observation
    if "api_test" in names:
        from pettingzoo.test import api_test

        where[0] = "PettingZoo's api_test"
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                with limit():
                    api_test(raw(), num_cycles=api_cycles)
        except ConformanceError:  # its timeout
            raise
        except Exception as exc:  # noqa: BLE001
            raise ConformanceError("api_test", f"PettingZoo api_test failed: {exc!r}") from exc
        report.checks.append("api_test")
    if "seed_test" in names:
        from pettingzoo.test import seed_test

        where[0] = "PettingZoo's seed_test"
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                with limit():
                    seed_test(raw, num_cycles=api_cycles)
        except ConformanceError:  # its timeout
            raise
        except Exception as exc:  # noqa: BLE001
            raise ConformanceError("seed_test", f"PettingZoo seed_test failed: {exc!r}") from exc
        report.checks.append("seed_test")

    report.checks.sort(key=CHECKS.index)
    return report


def _check_reset_reproduces(raw: Callable[[], Any], seed: int) -> None:
    """``reset_reproduces``: a seeded reset on a reused instance, and on a fresh one, replays the transcript."""
    env = raw()
    first, acts = _transcript(env, seed, act_seed=seed)
    _transcript(env, seed + REPLAY_SEED_OFFSET, act_seed=seed + 1)  # use the instance for another match
    try:
        again, _ = _transcript(env, seed, actions=acts)
        fresh, _ = _transcript(raw(), seed, actions=acts)
    except Exception as exc:  # noqa: BLE001 - a replayed action refused: the match went another way
        raise ConformanceError(
            "reset_reproduces",
            f"replaying reset(seed={seed})'s {len(acts)} actions raised {type(exc).__name__}: "
            f"{str(exc)[:300]}; the same seed and actions must give the same match (initial_state and apply "
            "may draw only from the rng they are given)") from exc
    for label, other in (("a reused instance", again), ("a fresh instance", fresh)):
        if len(other) != len(first) or any(x != y for x, y in zip(first, other)):
            k = next((i for i, (x, y) in enumerate(zip(first, other)) if x != y), min(len(first), len(other)))
            raise ConformanceError(
                "reset_reproduces",
                f"reset(seed={seed}) with the same actions diverges on {label} at transcript row {k}")


def _check_config_kept(raw: Callable[[], Any], seed: int) -> None:
    """``config_kept``: the config survives seeded resets."""
    env = raw()
    want = dict(env.game.config)
    for s in (seed, seed + 1):
        env.reset(seed=s)
        if dict(env.game.config) != want:
            raise ConformanceError(
                "config_kept", f"config changed by reset(seed={s}): {dict(env.game.config)} != {want}")


def _check_static_info(game: Game) -> None:
    """The ``outcome`` check's static part: GAME_INFO present and consistent with the instance."""
    info = getattr(type(game), "GAME_INFO", None)
    if info is None:
        raise ConformanceError("outcome", f"{type(game).__name__} has no class attribute GAME_INFO")
    n = game.num_players
    if not info.min_players <= n <= info.max_players:
        raise ConformanceError("outcome", f"num_players {n} outside GAME_INFO's {info.min_players}.."
                               f"{info.max_players}")
    want = Utility.SOLO_GOAL if n == 1 else info.utility
    if game.utility is not want:
        raise ConformanceError("outcome", f"utility {game.utility!r} with {n} seats; GAME_INFO says {want!r}")
    seats = sorted(p for team in game.teams for p in team)
    if seats != list(range(n)) or any(not isinstance(t, tuple) or not t for t in game.teams):
        raise ConformanceError("outcome", f"teams {game.teams!r} is not a partition of the seats 0..{n - 1} "
                               "into non-empty tuples")
    if not info.teams and any(len(t) > 1 for t in game.teams):
        raise ConformanceError("outcome", f"teams {game.teams!r} although GAME_INFO.teams is False")


def _check_outcome(game: Game, state: Any, final: np.ndarray, where: str) -> None:
    """The ``outcome`` check at a terminal state: one Outcome per seat, allies equal, signs agree."""
    out = tuple(game.outcome(state))
    n = game.num_players
    if len(out) != n or not all(isinstance(o, Outcome) for o in out):
        raise ConformanceError("outcome", f"{where}: outcome() must give {n} Outcome members, got {out!r}")
    solo = {Outcome.SUCCESS, Outcome.FAILURE}
    if n == 1:
        if out[0] not in solo:
            raise ConformanceError("outcome", f"{where}: a one-seat game ends in SUCCESS or FAILURE, got {out[0]!r}")
        return
    if any(o in solo for o in out):
        raise ConformanceError("outcome", f"{where}: SUCCESS/FAILURE in a game with {n} seats: {out!r}")
    for team in game.teams:
        if len({out[p] for p in team}) > 1:
            raise ConformanceError("outcome", f"{where}: allies {team} have different outcomes {out!r}")
    if game.utility is Utility.ZERO_SUM and len(game.teams) > 1 and len(set(out)) == 1 and out[0] is not Outcome.DRAW:
        raise ConformanceError("outcome", f"{where}: every seat has {out[0]!r} in a zero-sum game (a shared result "
                               "is a DRAW)")
    if game.utility is Utility.ZERO_SUM and any(final):
        for p in range(n):
            for q in range(n):
                if out[p] is Outcome.WIN and out[q] is Outcome.LOSS and not final[p] > final[q]:
                    raise ConformanceError("outcome", f"{where}: seat {p} wins and seat {q} loses, but their "
                                           f"returns are {final[p]} and {final[q]}")


def _try_illegal(env, game: Game, where: str, rng: np.random.Generator) -> None:
    """``rejected_no_draw`` through the env: ``env.step`` of an illegal action raises and changes nothing
    (the episode's later draws are then checked by ``chance_logged``'s replay)."""
    illegal = np.flatnonzero(~np.asarray(game.legal_mask(env.game_state)))
    if not illegal.size:
        return
    a = int(rng.choice(illegal))
    before = game.to_dict(env.game_state)
    n_events = len(env.episode_log.chance)
    try:
        env.step(a)
    except IllegalActionError:
        pass
    else:
        raise ConformanceError("rejected_no_draw", f"{where}: env.step({game.layout.decode(a)}) of a masked-out "
                               "action did not raise")
    if game.to_dict(env.game_state) != before or len(env.episode_log.chance) != n_events:
        raise ConformanceError("rejected_no_draw", f"{where}: env.step of illegal {game.layout.decode(a)} changed "
                               "the state or logged a draw")


def _check_episode(env, game: Game, ep_seed: int, names: set, step_names: list, sample: int, raw) -> int:
    """One seeded random episode with the per-step and per-episode checks; returns its length."""
    rng = np.random.default_rng(10_000 + ep_seed)
    env.reset(seed=ep_seed)
    pure = "pure_queries" in names  # on states no query has read yet: a fresh initial state, a replayed apply
    if pure and (wrong := pure_queries_failure(game, game.initial_state(np.random.default_rng(ep_seed)), "outcome" in names)):
        raise ConformanceError("pure_queries", f"seed {ep_seed}, the initial state: {wrong}")
    seen_reward = {a: 0.0 for a in env.possible_agents}
    dead_stepped: list[str] = []
    steps = 0
    while env.agents:
        agent = env.agent_selection
        obs, rew, term, trunc, _ = env.last()
        if "finite" in names and not np.isfinite(rew):
            raise ConformanceError("finite", f"seed {ep_seed}, step {steps}: {agent}'s reward {rew} is not finite")
        if term or trunc:
            seen_reward[agent] += rew
            dead_stepped.append(agent)
            if "observe_all" in names and obs["action_mask"].any():
                raise ConformanceError("observe_all", f"seed {ep_seed}: {agent} is done but its mask is not zero")
            env.step(None)
            continue
        seen_reward[agent] += rew
        state = env.game_state
        where = f"seed {ep_seed}, step {steps}"
        p = env.agent_name_mapping[agent]
        if "mask_nonempty" in names and game.current_player(state) != p:
            raise ConformanceError("mask_nonempty", f"{where}: agent_selection {agent} is not the current player")
        try:
            mask = step_checks(game, state, rng, step_names, sample)
        except StepCheckFailure as exc:
            raise ConformanceError(exc.check, f"{where}: {exc.detail}") from exc
        if "observe_all" in names:
            for other in env.possible_agents:
                o = env.observe(other)
                if other == agent:
                    if not np.array_equal(o["action_mask"].astype(bool), mask):
                        raise ConformanceError("observe_all", f"{where}: acting agent's mask != legal_mask")
                elif o["action_mask"].any():
                    raise ConformanceError("observe_all", f"{where}: non-acting {other} has a non-zero mask")
                if o["observation"].shape != (game.obs_spec.size,) or o["action_mask"].dtype != np.int8:
                    raise ConformanceError("observe_all", f"{where}: bad observation of {other}")
        # rejected actions inside the episode: they must change nothing, and (chance_logged) the episode must
        # still replay from seed + actions, i.e. they consumed nothing of the episode's generator
        if ({"rejected_no_draw", "chance_logged"} & names) and steps % 4 == 0 and env.illegal_action == "raise":
            _try_illegal(env, game, where, rng)
        a = int(rng.choice(np.flatnonzero(mask)))
        if pure:  # the same apply with the same draws, on a copy no query will read before the check
            unread, draws = game.clone(state), copy.deepcopy(env._rng)
        try:
            env.step(a)
        except ChanceError as exc:
            raise ConformanceError("chance_logged", f"{where}: {exc}") from exc
        if pure:
            game.apply(unread, a, ChanceRecorder(draws))
            if wrong := pure_queries_failure(game, unread, "outcome" in names):
                raise ConformanceError("pure_queries", f"{where}, after {game.layout.decode(a)}: {wrong}")
        steps += 1
        if "invariants" in names:
            try:
                game.check_invariants(env.game_state)
            except InvariantError as exc:
                hist = [game.layout.decode(x) for x in env.episode_log.actions[-6:]]
                raise ConformanceError("invariants", f"{where}: {exc}; last actions {hist}") from exc
    final = np.asarray(game.returns(env.game_state), np.float64)
    terminal = game.is_terminal(env.game_state)
    if terminal:
        _check_terminal_queries(game, env.game_state, names, f"seed {ep_seed}, the end after {steps} decisions")
    if "ends" in names and not terminal:
        raise ConformanceError(
            "ends", f"seed {ep_seed}: episode truncated at max_decisions={game.max_decisions} in random play")
    if "dead_steps" in names:
        if sorted(dead_stepped) != sorted(env.possible_agents):
            raise ConformanceError(
                "dead_steps", f"seed {ep_seed}: agents stepped with None: {dead_stepped}, expected each of "
                f"{env.possible_agents} exactly once")
        for i, ag in enumerate(env.possible_agents):
            if abs(seen_reward[ag] - final[i]) > float_tolerance(final[i], seen_reward[ag]):
                raise ConformanceError(
                    "dead_steps", f"seed {ep_seed}: {ag} saw rewards summing to {seen_reward[ag]}, "
                    f"but its return is {final[i]}")
    if "finite" in names and not np.isfinite(final).all():
        raise ConformanceError("finite", f"seed {ep_seed}: returns {final.tolist()} are not finite")
    if "zero_sum" in names and game.utility is Utility.ZERO_SUM and abs(final.sum()) > float_tolerance(*final):
        raise ConformanceError("zero_sum", f"seed {ep_seed}: returns {final.tolist()} do not sum to 0")
    if "outcome" in names and terminal:
        _check_outcome(game, env.game_state, final, f"seed {ep_seed}")
    if "chance_logged" in names:
        _check_chance_log(env, game, ep_seed, raw)
    return steps


def _check_terminal_queries(game: Game, state: Any, names: set, where: str) -> None:
    """:func:`terminal_failure` as a :class:`ConformanceError` naming ``where``."""
    failed = terminal_failure(game, state, names)
    if failed:
        raise ConformanceError(failed[0], f"{where}: {failed[1]}")


def _check_chance_log(env, game: Game, ep_seed: int, raw) -> None:
    """``chance_logged``: a setup-only game drew nothing in ``apply``; the episode log (seed + actions +
    chance events) replays on a fresh env with the same draws and the same final state."""
    from .replay import EpisodeLog, LogError, replay_steps

    log = env.episode_log
    if drew := setup_only_failure(game, log.chance):
        raise ConformanceError("chance_logged", f"seed {ep_seed}: {drew}")
    back = EpisodeLog.from_json(json.loads(json.dumps(log.to_json())))
    try:
        steps = list(replay_steps(back, lambda _id, **cfg: raw()))
    except LogError as exc:
        raise ConformanceError("chance_logged", f"seed {ep_seed}: the episode log does not replay: {exc}") from exc
    last = steps[-1][2]
    if game.to_dict(last.game_state) != game.to_dict(env.game_state):
        raise ConformanceError("chance_logged", f"seed {ep_seed}: replaying seed + actions gives another final state")
