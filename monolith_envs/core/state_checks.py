"""The checks of one state, shared by :func:`~monolith_envs.core.testing.check_env` and the fuzzer
(:mod:`monolith_envs.core.fuzz`): the per-step checks of a live state (:func:`step_checks`) and the checks of a
terminal one (:func:`terminal_failure`). ARCHITECTURE §6 item 2; each check's name is in
:data:`monolith_envs.core.testing.CHECKS`.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

import numpy as np

from .chance import ChanceRecorder
from .game import ChanceMode, Game, IllegalActionError, MonolithEnvError
from .state import _FIELDS, states_equal

__all__ = ["PURE_QUERIES", "STEP_CHECKS", "StepCheckFailure", "pure_queries_failure", "setup_only_failure",
           "step_checks", "terminal_failure"]

#: the per-step checks (names of :data:`monolith_envs.core.testing.CHECKS` that :func:`step_checks` runs)
STEP_CHECKS = ("mask_nonempty", "masked_actions_apply", "unmasked_actions_raise", "rejected_no_draw", "mask_json_roundtrip",
               "clone", "observe_all", "hidden_info", "finite")


def _not_an_array(mask: Any, n: int) -> str | None:
    """What is wrong with a ``legal_mask`` result that is not a numpy array (the AEC env calls array methods on
    it), or ``None``."""
    if isinstance(mask, np.ndarray):
        return None
    return f"legal_mask must return a numpy array bool[{n}], got a {type(mask).__name__}"


class StepCheckFailure(MonolithEnvError):
    """A per-step check failed inside :func:`step_checks` (``check``: its name; ``detail``: the message
    without the ``[check]`` tag)."""

    def __init__(self, check: str, message: str):
        self.check = check
        self.detail = message
        super().__init__(f"[{check}] {message}")


def _sample(idx: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    if idx.size <= k:
        return idx
    return rng.choice(idx, size=k, replace=False)


def _same_state(game: Game, a: Any, b: Any) -> bool:
    """Exact equality of two states: structural for registered plain-data states, else via ``to_dict``."""
    if type(a) in _FIELDS:
        return states_equal(a, b)
    return states_equal(game.to_dict(a), game.to_dict(b))  # numpy arrays left in a to_dict compare too


#: the read-only methods of the Game contract that ``pure_queries`` calls, in this order (``observe`` for every
#: seat; ``state_vector`` after it, as its default calls ``observe``; ``outcome`` at a terminal state)
PURE_QUERIES = ("legal_mask", "current_player", "is_terminal", "returns", "observe", "state_vector", "outcome")


def _query_calls(game: Game, state: Any, outcome: bool = True) -> list:
    """``[(name, call)]``: each read-only method of the contract as a call on a state like ``state`` (``outcome``
    when it is terminal), in :data:`PURE_QUERIES` order."""
    calls: list = [(name, (lambda s, f=name: getattr(game, f)(s))) for name in PURE_QUERIES[:4]]
    calls += [(f"observe(state, {p})", (lambda s, p=p: game.observe(s, p))) for p in range(game.num_players)]
    calls.append(("state_vector", game.state_vector))
    if outcome and game.is_terminal(game.clone(state)):  # asked of a copy: ``state`` itself is never queried
        calls.append(("outcome", game.outcome))
    return calls


def pure_queries_failure(game: Game, state: Any, outcome: bool = True) -> str | None:
    """What changed ``state`` among the read-only methods of the Game contract, or ``None`` when they all
    leave it as it was (compared with :func:`_same_state`: transient cache fields do not count).

    Give it a state no query has read yet (just made by ``initial_state`` or ``apply``): a query that writes
    the same value at every call, or only at its first, leaves no trace on a state already read. The methods
    are called on a clone; only when the clone changes is each called alone on a fresh clone, to name the one
    that wrote (``legal_mask``, ``observe(state, 1)``, ...). ``None`` too when a clone differs from ``state``
    before any query: that is the ``clone`` check's failure, not a query's. ``outcome=False`` leaves
    ``outcome`` out (the ``outcome`` check is not run: a game may not have it yet).
    """
    probe = game.clone(state)
    if not _same_state(game, probe, state):
        return None
    calls = _query_calls(game, state, outcome)
    for _name, call in calls:
        call(probe)
    if _same_state(game, probe, state):
        return None
    keep = ("keep derived values in a transient field" if type(state) in _FIELDS
            else "keep derived values out of the state")
    for name, call in calls:
        c = game.clone(state)
        call(c)
        if not _same_state(game, c, state):
            return f"{name} changed the state (a query must only read it: {keep})"
    return "the read-only methods together changed the state (each alone did not)"


def step_checks(
    game: Game,
    state: Any,
    rng: np.random.Generator,
    enabled: Iterable[str] = STEP_CHECKS,
    sample: int = 12,
) -> np.ndarray:
    """Run the per-step checks on one non-terminal ``state`` (it is not modified) and return its mask.

    Checks (each only if named in ``enabled``): ``mask_nonempty``, ``masked_actions_apply`` (up to ``sample``
    legal actions applied to clones), ``unmasked_actions_raise`` (up to ``sample`` illegal actions must raise
    :class:`IllegalActionError` and leave the clone unchanged), ``mask_json_roundtrip``, ``clone``,
    ``hidden_info`` (every viewer), ``observe_all`` (shape, dtype, bounds for every viewer), ``finite`` (the
    returns and every viewer's observation hold no inf or NaN).

    Raises:
        StepCheckFailure: the first failed check, with details.
    """
    en = set(enabled)
    mask = game.legal_mask(state)
    layout = game.layout
    wrong = _not_an_array(mask, layout.n)
    if wrong:
        raise StepCheckFailure("mask_nonempty", wrong)
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
    data = game.to_dict(state) if ("mask_json_roundtrip" in en or "clone" in en) else None
    if "clone" in en:  # first: the checks below apply actions to clones, which a shallow clone passes on
        c = game.clone(state)
        if not _same_state(game, c, state):
            raise StepCheckFailure("clone", "clone differs from the original")
        if legal.size:
            try:
                game.apply(c, int(legal[0]), np.random.default_rng(1))
            except Exception as exc:  # a masked action that raises: masked_actions_apply's finding, named so
                if "masked_actions_apply" not in en:
                    raise
                raise StepCheckFailure("masked_actions_apply", f"masked action {layout.decode(int(legal[0]))} raised "
                                       f"{exc!r}") from exc
            if not states_equal(game.to_dict(state), data):
                raise StepCheckFailure("clone", "applying an action to a clone changed the original")
    if "masked_actions_apply" in en:
        for a in _sample(legal, sample, rng):
            c = game.clone(state)
            try:
                game.apply(c, int(a), ChanceRecorder(np.random.default_rng(int(a))))
            except Exception as exc:  # noqa: BLE001 - report any failure of a masked action
                raise StepCheckFailure(
                    "masked_actions_apply", f"masked action {layout.decode(int(a))} raised {exc!r}"
                ) from exc
    if "unmasked_actions_raise" in en or "rejected_no_draw" in en:
        name = "unmasked_actions_raise" if "unmasked_actions_raise" in en else "rejected_no_draw"
        illegal = np.flatnonzero(~mask)
        for a in _sample(illegal, sample, rng):
            c = game.clone(state)
            rec = ChanceRecorder(np.random.default_rng(0))
            try:
                game.apply(c, int(a), rec)
            except IllegalActionError:
                if "rejected_no_draw" in en and rec.events:
                    raise StepCheckFailure(
                        "rejected_no_draw", f"illegal {layout.decode(int(a))} drew "
                        f"{[str(e) for e in rec.events]} before it was rejected") from None
                if not _same_state(game, c, state):
                    raise StepCheckFailure(
                        name, f"illegal {layout.decode(int(a))} raised but changed the state") from None
                continue
            except Exception as exc:  # noqa: BLE001
                raise StepCheckFailure(
                    name, f"illegal {layout.decode(int(a))} raised {exc!r}, expected IllegalActionError",
                ) from exc
            raise StepCheckFailure(name, f"unmasked action {layout.decode(int(a))} was accepted")
    if "mask_json_roundtrip" in en:
        back = game.from_dict(json.loads(json.dumps(data)))
        m2 = np.asarray(game.legal_mask(back))
        if not np.array_equal(m2, mask):
            diff = [layout.decode(int(a)) for a in np.flatnonzero(m2 != mask)[:6]]
            raise StepCheckFailure("mask_json_roundtrip", f"mask differs after a JSON round-trip at {diff}")
        if not states_equal(game.to_dict(back), data):
            raise StepCheckFailure("mask_json_roundtrip", "from_dict(to_dict(state)) differs from the state")
    n = game.num_players
    if "finite" in en:
        r = np.asarray(game.returns(state), np.float64)
        if not np.isfinite(r).all():
            raise StepCheckFailure("finite", f"returns {r.tolist()} are not finite")
    if "observe_all" in en or "hidden_info" in en or "finite" in en:
        spec = game.obs_spec
        for p in range(n):
            o = game.observe(state, p)
            if "finite" in en:
                bad = np.flatnonzero(~np.isfinite(np.asarray(o, np.float64)))
                if bad.size:
                    raise StepCheckFailure("finite", f"observe(state, {p})[{int(bad[0])}] = {o[int(bad[0])]} is not "
                                           "finite")
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


def setup_only_failure(game: Game, events: list) -> str | None:
    """``chance_logged``'s first half: a game whose ``GAME_INFO.chance`` is ``setup_only`` drew nothing in
    ``apply``. ``events`` are the episode's chance events of ``apply`` (an episode log's, a
    :class:`~monolith_envs.core.chance.ChanceRecorder`'s); returns ``None``, or what was drawn and where."""
    info = getattr(type(game), "GAME_INFO", None)
    if info is None or info.chance is not ChanceMode.SETUP_ONLY or not events:
        return None
    return f"GAME_INFO.chance is setup_only, but apply drew {[str(e) for e in events[:4]]} (first at step " \
           f"{events[0].step})"


def terminal_failure(game: Game, state: Any, enabled: Iterable[str]) -> tuple[str, str] | None:
    """The checks of a terminal ``state``, as ``(check, message)`` of the first that fails, or ``None``: the mask
    is a numpy ``bool[layout.n]``, all False, and ``current_player`` is -1 (``mask_nonempty``)."""
    if "mask_nonempty" not in set(enabled):
        return None
    mask = game.legal_mask(state)
    n = game.layout.n
    wrong = _not_an_array(mask, n)
    if wrong:
        return "mask_nonempty", wrong
    if mask.dtype != np.bool_ or mask.shape != (n,):
        return "mask_nonempty", f"legal_mask must be bool[{n}], got {mask.dtype}{mask.shape}"
    if mask.any():
        shown = [game.layout.decode(int(a)) for a in np.flatnonzero(mask)[:4]]
        return "mask_nonempty", (f"the game is over but legal_mask has {int(np.count_nonzero(mask))} legal "
                                 f"actions ({', '.join(shown)}, ...); it must be all False")
    if game.current_player(state) != -1:
        return "mask_nonempty", f"the game is over but current_player is {game.current_player(state)}, not -1"
    return None
