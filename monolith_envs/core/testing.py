"""``check_env``: the conformance suite every env id and config must pass (ARCHITECTURE §7 item 2).

Shipped in the package (like pgx's ``api_test``) so that users who add content or games can run it::

    from monolith_envs.core.testing import check_env
    report = check_env("monolith_arena_v0", {"num_players": 3, "mode": "ffa"}, games=5, seed=0)

Each check has a name (see :data:`CHECKS`); a failure raises :class:`ConformanceError` naming the check,
the episode seed and step, and what went wrong.
"""

from __future__ import annotations

import contextlib
import io
import json
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

import numpy as np

from .game import Game, IllegalActionError, InvariantError, MonolithEnvError

__all__ = ["CHECKS", "ConformanceError", "ConformanceReport", "check_env", "step_checks", "StepCheckFailure"]

#: Every check of the suite, in the order they run.
CHECKS: tuple[str, ...] = (
    "api_test",            # PettingZoo's api_test
    "seed_test",           # PettingZoo's seed_test
    "reset_reproduces",    # seeded reset on a reused instance reproduces the transcript
    "config_kept",         # config survives seeded resets
    "mask_nonempty",       # mask non-empty iff a live agent must act
    "masked_actions_apply",
    "unmasked_actions_raise",
    "mask_json_roundtrip",  # mask equals a recomputation on from_dict(json(to_dict(state)))
    "clone",               # clone equal and independent
    "observe_all",         # every agent observable; obs in space; non-acting masks all zero
    "dead_steps",          # each agent stepped with None exactly once at the end, sees its final reward
    "zero_sum",            # returns sum to 0 in zero-sum modes
    "hidden_info",         # resampling what a viewer may not know leaves its observation byte-identical
    "invariants",          # the game's invariants hook
    "ends",                # episodes end before max_decisions in random play
)


class ConformanceError(MonolithEnvError, AssertionError):
    """A conformance check failed. ``check`` is its name (one of :data:`CHECKS`)."""

    def __init__(self, check: str, message: str):
        self.check = check
        super().__init__(f"[{check}] {message}")


class StepCheckFailure(MonolithEnvError):
    """A per-step check failed inside :func:`step_checks` (carries the check name)."""

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


def _sample(idx: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    if idx.size <= k:
        return idx
    return rng.choice(idx, size=k, replace=False)


def _same_state(game: Game, a: Any, b: Any) -> bool:
    """Exact equality of two states: structural for registered plain-data states, else via ``to_dict``."""
    from .state import _FIELDS, states_equal

    if type(a) in _FIELDS:
        return states_equal(a, b)
    return game.to_dict(a) == game.to_dict(b)


def step_checks(
    game: Game,
    state: Any,
    rng: np.random.Generator,
    enabled: Iterable[str] = CHECKS,
    sample: int = 12,
) -> np.ndarray:
    """Run the per-step checks on one non-terminal ``state`` (it is not modified) and return its mask.

    Checks (each only if named in ``enabled``): ``mask_nonempty``, ``masked_actions_apply`` (up to ``sample``
    legal actions applied to clones), ``unmasked_actions_raise`` (up to ``sample`` illegal actions must raise
    :class:`IllegalActionError` and leave the clone unchanged), ``mask_json_roundtrip``, ``clone``,
    ``hidden_info`` (every viewer), ``observe_all`` (shape, dtype, bounds for every viewer).

    Raises:
        StepCheckFailure: the first failed check, with details.
    """
    en = set(enabled)
    mask = np.asarray(game.legal_mask(state))
    layout = game.layout
    if mask.dtype != np.bool_ or mask.shape != (layout.n,):
        raise StepCheckFailure("mask_nonempty", f"legal_mask must be bool[{layout.n}], got {mask.dtype}{mask.shape}")
    legal = np.flatnonzero(mask)
    if "mask_nonempty" in en:
        if game.is_terminal(state):
            raise StepCheckFailure("mask_nonempty", "step_checks called on a terminal state")
        if legal.size == 0:
            raise StepCheckFailure("mask_nonempty", "no legal action although the game is not over")
        if not 0 <= game.current_player(state) < game.num_players:
            raise StepCheckFailure("mask_nonempty", f"current_player {game.current_player(state)} is not a seat")
    if "masked_actions_apply" in en:
        for a in _sample(legal, sample, rng):
            c = game.clone(state)
            try:
                game.apply(c, int(a), np.random.default_rng(int(a)))
            except Exception as exc:  # noqa: BLE001 - report any failure of a masked action
                raise StepCheckFailure(
                    "masked_actions_apply", f"masked action {layout.decode(int(a))} raised {exc!r}"
                ) from exc
    if "unmasked_actions_raise" in en:
        illegal = np.flatnonzero(~mask)
        for a in _sample(illegal, sample, rng):
            c = game.clone(state)
            try:
                game.apply(c, int(a), np.random.default_rng(0))
            except IllegalActionError:
                if not _same_state(game, c, state):
                    raise StepCheckFailure(
                        "unmasked_actions_raise", f"illegal {layout.decode(int(a))} raised but changed the state"
                    ) from None
                continue
            except Exception as exc:  # noqa: BLE001
                raise StepCheckFailure(
                    "unmasked_actions_raise",
                    f"illegal {layout.decode(int(a))} raised {exc!r}, expected IllegalActionError",
                ) from exc
            raise StepCheckFailure("unmasked_actions_raise", f"unmasked action {layout.decode(int(a))} was accepted")
    data = game.to_dict(state) if ("mask_json_roundtrip" in en or "clone" in en) else None
    if "mask_json_roundtrip" in en:
        back = game.from_dict(json.loads(json.dumps(data)))
        m2 = np.asarray(game.legal_mask(back))
        if not np.array_equal(m2, mask):
            diff = [layout.decode(int(a)) for a in np.flatnonzero(m2 != mask)[:6]]
            raise StepCheckFailure("mask_json_roundtrip", f"mask differs after a JSON round-trip at {diff}")
        if game.to_dict(back) != data:
            raise StepCheckFailure("mask_json_roundtrip", "from_dict(to_dict(state)) differs from the state")
    if "clone" in en:
        c = game.clone(state)
        if not _same_state(game, c, state):
            raise StepCheckFailure("clone", "clone differs from the original")
        if legal.size:
            game.apply(c, int(legal[0]), np.random.default_rng(1))
            if game.to_dict(state) != data:
                raise StepCheckFailure("clone", "applying an action to a clone changed the original")
    n = game.num_players
    if "observe_all" in en or "hidden_info" in en:
        spec = game.obs_spec
        for p in range(n):
            o = game.observe(state, p)
            if "observe_all" in en:
                if not isinstance(o, np.ndarray) or o.dtype != np.float32 or o.shape != (spec.size,):
                    raise StepCheckFailure(
                        "observe_all", f"observe(state, {p}) must be float32[{spec.size}], got "
                        f"{getattr(o, 'dtype', type(o))}{getattr(o, 'shape', '')}")
                bad = np.flatnonzero((o < spec.low) | (o > spec.high) | ~np.isfinite(o))
                if bad.size:
                    i = int(bad[0])
                    piece = next(pc for pc in spec.pieces if pc.offset <= i < pc.stop)
                    raise StepCheckFailure(
                        "observe_all", f"observe(state, {p})[{i}] = {o[i]} outside [{piece.low}, {piece.high}] "
                        f"(piece {piece.name!r})")
            if "hidden_info" in en:
                other = game.resample_hidden(state, p, rng)
                o2 = game.observe(other, p)
                if o.tobytes() != np.asarray(o2).tobytes():
                    idx = np.flatnonzero(np.asarray(o2) != o)[:5]
                    names = [next(pc.name for pc in spec.pieces if pc.offset <= i < pc.stop) for i in idx]
                    raise StepCheckFailure(
                        "hidden_info", f"player {p}'s observation changes when hidden information is resampled "
                        f"(indices {idx.tolist()} in pieces {names})")
    return mask


def _make(env_id: str, config: Mapping, wrapped: bool, env_fn: Callable | None):
    if env_fn is not None:
        e = env_fn(**dict(config))
        return e
    import monolith_envs

    return monolith_envs.make(env_id, wrapped=wrapped, **dict(config))


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


def check_env(
    env_id: str,
    config: Mapping[str, Any] | None = None,
    games: int = 10,
    seed: int = 0,
    *,
    only: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    sample: int = 12,
    env_fn: Callable[..., Any] | None = None,
    api_cycles: int = 200,
) -> ConformanceReport:
    """Run the conformance suite on ``env_id`` with ``config``.

    Args:
        env_id: a registered env id (or any label when ``env_fn`` is given).
        config: the game configuration (validated by the game).
        games: number of seeded random episodes for the per-episode and per-step checks.
        seed: base seed; episode ``i`` uses seed ``seed + i``.
        only: run only these checks (names from :data:`CHECKS`).
        skip: checks to leave out.
        sample: legal and illegal actions tried per step.
        env_fn: optional ``env_fn(**config)`` returning an unwrapped :class:`RulesAECEnv`; defaults to
            ``monolith_envs.make(env_id, wrapped=False, **config)``.
        api_cycles: cycles for PettingZoo's ``api_test`` / ``seed_test``.

    Returns:
        A :class:`ConformanceReport`.

    Raises:
        ConformanceError: the first failing check, naming it, the episode seed, step and details.
        ValueError: unknown check names in ``only`` / ``skip``.
    """
    config = dict(config or {})
    names = set(CHECKS if only is None else only) - set(skip)
    unknown = names - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown checks {sorted(unknown)}; checks: {', '.join(CHECKS)}")
    report = ConformanceReport(env_id, config)

    def raw():
        return _make(env_id, config, False, env_fn)

    if "api_test" in names:
        from pettingzoo.test import api_test

        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                api_test(raw(), num_cycles=api_cycles)
        except Exception as exc:  # noqa: BLE001
            raise ConformanceError("api_test", f"PettingZoo api_test failed: {exc!r}") from exc
        report.checks.append("api_test")
    if "seed_test" in names:
        from pettingzoo.test import seed_test

        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                seed_test(raw, num_cycles=api_cycles)
        except Exception as exc:  # noqa: BLE001
            raise ConformanceError("seed_test", f"PettingZoo seed_test failed: {exc!r}") from exc
        report.checks.append("seed_test")

    if "reset_reproduces" in names:
        env = raw()
        first, acts = _transcript(env, seed, act_seed=seed)
        _transcript(env, seed + 1000, act_seed=seed + 1)  # use the instance for another match
        again, _ = _transcript(env, seed, actions=acts)
        fresh, _ = _transcript(raw(), seed, actions=acts)
        for label, other in (("a reused instance", again), ("a fresh instance", fresh)):
            if len(other) != len(first) or any(x != y for x, y in zip(first, other)):
                k = next((i for i, (x, y) in enumerate(zip(first, other)) if x != y), min(len(first), len(other)))
                raise ConformanceError(
                    "reset_reproduces",
                    f"reset(seed={seed}) with the same actions diverges on {label} at transcript row {k}")
        report.checks.append("reset_reproduces")

    if "config_kept" in names:
        env = raw()
        want = dict(env.game.config)
        for s in (seed, seed + 1):
            env.reset(seed=s)
            if dict(env.game.config) != want:
                raise ConformanceError(
                    "config_kept", f"config changed by reset(seed={s}): {dict(env.game.config)} != {want}")
        report.checks.append("config_kept")

    step_names = [c for c in ("mask_nonempty", "masked_actions_apply", "unmasked_actions_raise",
                              "mask_json_roundtrip", "clone", "observe_all", "hidden_info") if c in names]
    episode_names = {"observe_all", "dead_steps", "zero_sum", "invariants", "ends", "mask_nonempty"} & names
    if step_names or episode_names:
        env = raw()
        game = env.game
        for g in range(games):
            ep_seed = seed + g
            rng = np.random.default_rng(10_000 + ep_seed)
            env.reset(seed=ep_seed)
            seen_reward = {a: 0.0 for a in env.possible_agents}
            dead_stepped: list[str] = []
            steps = 0
            while env.agents:
                agent = env.agent_selection
                obs, rew, term, trunc, _ = env.last()
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
                    raise ConformanceError(exc.check, f"{where}: {exc}") from exc
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
                a = int(rng.choice(np.flatnonzero(mask)))
                env.step(a)
                steps += 1
                if "invariants" in names:
                    try:
                        game.check_invariants(env.game_state)
                    except InvariantError as exc:
                        hist = [game.layout.decode(x) for x in env.episode_log.actions[-6:]]
                        raise ConformanceError("invariants", f"{where}: {exc}; last actions {hist}") from exc
            final = np.asarray(game.returns(env.game_state), np.float64)
            if "ends" in names and not game.is_terminal(env.game_state):
                raise ConformanceError(
                    "ends", f"seed {ep_seed}: episode truncated at max_decisions={game.max_decisions} in random play")
            if "dead_steps" in names:
                if sorted(dead_stepped) != sorted(env.possible_agents):
                    raise ConformanceError(
                        "dead_steps", f"seed {ep_seed}: agents stepped with None: {dead_stepped}, expected each of "
                        f"{env.possible_agents} exactly once")
                for i, ag in enumerate(env.possible_agents):
                    if abs(seen_reward[ag] - final[i]) > 1e-5:
                        raise ConformanceError(
                            "dead_steps", f"seed {ep_seed}: {ag} saw rewards summing to {seen_reward[ag]}, "
                            f"but its return is {final[i]}")
            if "zero_sum" in names and game.zero_sum and abs(final.sum()) > 1e-5:
                raise ConformanceError("zero_sum", f"seed {ep_seed}: returns {final.tolist()} do not sum to 0")
            report.episodes += 1
            report.decisions += steps
            report.lengths.append(steps)
        report.checks.extend(c for c in CHECKS if c in names and c not in report.checks)
    return report
