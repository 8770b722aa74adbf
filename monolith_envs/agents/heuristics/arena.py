"""Monolith Arena heuristic: greedy lookahead scored by a hypothetical Battle.

Hook: the agent reads the rules engine and the state through :meth:`~monolith_envs.agents.base.BaseAgent.bind` (it is a
:class:`~monolith_envs.agents.heuristics.generic.StatePolicyAgent`, so the state is first passed through
``game.resample_hidden(state, seat, rng)``: deck orders and unrevealed Monolith picks are redrawn, and the
lookahead never sees what the seat may not know).  It uses these engine methods of ``ArenaGame``:
``hp_vector(state)``, ``start_battle(state, trigger)`` (on clones only), ``tile_count(state, seat)`` and the
``tables`` of tile types.

Evaluation of a state for seat ``me`` (:func:`evaluate`)::

    V = HP margin now + 0.7 * (HP margin after a Battle fought now - HP margin now)
        + 0.4 * (own - enemy Champions and Runes left after that Battle) + 0.05 * hand value

where HP margin = own HP - mean HP of the living opponents (teams: own pool - the enemy alliance's pool;
Champions and Runes: own and the ally's against the enemy alliance's); a Battle fought now is simulated on a clone
(``start_battle(clone, 1)``, which resolves completely inside the engine unless an Assassin target must be
chosen).  A terminal state scores ``1000 * returns[me]``.

Decision (:class:`ArenaHeuristic`): every legal action is applied to a clone; multi-step choices (an Order's
targets, a Move's destination and facing, a Feature) are followed greedily by a small beam (the 3 best
children per step) until the seat is back in ``MAIN``, another seat acts, or the game ends; the action with
the best value is taken.  Starting an Order or a Feature must gain more than ``min_gain`` over ending the
turn, so Orders are not spent for nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from monolith_envs.arena.battle import start_battle
from monolith_envs.arena.context import hp_vector
from monolith_envs.arena.endgame import tile_count
from monolith_envs.arena.state import Sub, Trigger
from monolith_envs.arena.tables import Kind

from .generic import StatePolicyAgent

__all__ = [
    "MCTS_DEFAULTS",
    "ArenaHeuristic",
    "action_prior",
    "evaluate",
    "evaluate_all",
    "make_heuristic",
    "state_policy",
    "state_value",
]

_MAIN, _DISCARD = int(Sub.MAIN), int(Sub.DISCARD)

# MCTS on Arena: random rollouts to the end are long (~100 decisions) and noisy; cut them short, score the
# leaf with state_value, and search only the root_k root actions with the best one-ply value (action_prior)
MCTS_DEFAULTS = {"rollout": "random", "rollout_depth": 4, "c": 0.7, "root_k": 6}


def _type_values(game: Any) -> list[float]:
    cached = getattr(game, "_heuristic_type_values", None)
    if cached is not None:
        return cached
    tb = game.tables
    vals = []
    for t in range(tb.T):
        k = tb.kind[t]
        if k in (Kind.CHAMPION, Kind.RUNE):
            v = 1.0 + sum(tb.melee[t][0]) + sum(tb.ranged[t][0]) + 0.5 * tb.tough[t] + 2.0 * tb.strike[t]
            v += 0.5 * len(tb.init[t]) + (2.0 if tb.kill_dirs[t][0] else 0.0)
        elif k == Kind.ORDER:
            order = tb.order[t]
            name = str(getattr(order, "effect", order) or "")
            v = 3.0 if "battle" in name else 1.5
        else:
            v = 0.0
        vals.append(v)
    game._heuristic_type_values = vals
    return vals


def _enemies(R: Any, me: int, alive: list) -> list[int]:
    """The living seats hostile to ``me``: every other seat, or in teams the other alliance's seats."""
    if R.team_mode:
        return [q for q in range(R.n) if R.team[q] != R.team[me] and alive[q]]
    return [q for q in range(R.n) if q != me and alive[q]]


def _margin(R: Any, hp: list, me: int, alive: list) -> float:
    opp = [hp[q] for q in _enemies(R, me, alive)]
    return float(hp[me]) - (sum(opp) / len(opp) if opp else 0.0)


def _board_margin(game: Any, s: Any, me: int) -> float:
    R = game.rules
    counts = [tile_count(R, s, p) for p in range(game.num_players)]
    opp = _enemies(R, me, s.alive)
    if R.team_mode:  # alliance against alliance: own and ally tiles against the enemies' together
        return sum(counts[q] for q in range(R.n) if R.team[q] == R.team[me]) - sum(counts[q] for q in opp)
    return counts[me] - (sum(counts[q] for q in opp) / len(opp) if opp else 0.0)


def evaluate(game: Any, s: Any, me: int) -> float:
    """Heuristic value of state ``s`` for seat ``me`` (see the module docstring); larger is better."""
    if s.terminal:
        return 1000.0 * float(game.returns(s)[me])
    hp_now = hp_vector(game.rules, s)
    now = _margin(game.rules, hp_now, me, s.alive)
    if s.b_active:
        after, board = now, _board_margin(game, s, me)
    else:
        c = game.clone(s)
        start_battle(game.rules, c, Trigger.BOARD_FULL)
        if c.terminal:
            w = c.winners
            after = 40.0 if (me in w and len(w) < game.num_players) else (-40.0 if me not in w else 0.0)
        else:
            after = _margin(game.rules, hp_vector(game.rules, c), me, c.alive)
        board = _board_margin(game, c, me)
    tv = _type_values(game)
    hand = sum(tv[s.itype[i]] for i in s.hand[me] if i >= 0)
    return now + 0.7 * (after - now) + 0.4 * board + 0.05 * hand


def evaluate_all(game: Any, s: Any) -> list[float]:
    """:func:`evaluate` for every seat at once (``[evaluate(game, s, p) for p in seats]``, same values), with
    one hypothetical Battle shared by all seats instead of one per seat."""
    n = game.num_players
    if s.terminal:
        return [1000.0 * float(r) for r in game.returns(s)]
    hp_now = hp_vector(game.rules, s)
    if s.b_active:
        c = s
    else:
        c = game.clone(s)
        start_battle(game.rules, c, Trigger.BOARD_FULL)
    hp_after = None if c.terminal else hp_vector(game.rules, c)
    tv = _type_values(game)
    out = []
    for me in range(n):
        now = _margin(game.rules, hp_now, me, s.alive)
        if c is s:
            after = now
        elif c.terminal:
            w = c.winners
            after = 40.0 if (me in w and len(w) < n) else (-40.0 if me not in w else 0.0)
        else:
            after = _margin(game.rules, hp_after, me, c.alive)
        board = _board_margin(game, c, me)
        hand = sum(tv[s.itype[i]] for i in s.hand[me] if i >= 0)
        out.append(now + 0.7 * (after - now) + 0.4 * board + 0.05 * hand)
    return out


def state_value(game: Any, s: Any) -> np.ndarray:
    """``float32[num_players]`` in ``(-1, 1)``: ``tanh(evaluate / 8)`` per seat (MCTS cut-off rollouts, reward
    shaping and value distillation in ``training``); the game's returns once terminal."""
    if s.terminal:
        return np.asarray(game.returns(s), np.float32)
    return np.tanh(np.array(evaluate_all(game, s), np.float32) / 8.0)


class ArenaHeuristic(StatePolicyAgent):
    """Greedy Monolith Arena player (see the module docstring).

    Args:
        beam: children followed per step of a multi-step choice.
        max_chain: longest multi-step choice followed.
        min_gain: value an Order or Feature must add over ending the turn.
        name: display name.
    """

    def __init__(self, beam: int = 3, max_chain: int = 4, min_gain: float = 0.05, name: str = "heuristic"):
        super().__init__()
        self.beam, self.max_chain, self.min_gain, self.name = beam, max_chain, min_gain, name

    def _in_chain(self, s: Any, me: int) -> bool:
        return (not s.terminal and s.acting_seat == me and s.sub_phase not in (_MAIN, _DISCARD)
                and not (s.b_active and s.sub_phase != Sub.ASSASSIN_TARGET))

    def _chain_value(self, game: Any, s: Any, me: int, depth: int, rng: np.random.Generator,
                     known: float | None = None) -> float:
        """The best :func:`evaluate` for ``me`` reached by following ``s``'s multi-step choice; ``known`` is
        ``evaluate(game, s, me)`` when the caller has it already (:func:`evaluate` draws nothing, so reusing
        it gives the same value and the same draws as computing it again)."""
        if depth <= 0 or not self._in_chain(s, me):
            return evaluate(game, s, me) if known is None else known
        children = []
        for a in np.flatnonzero(game.legal_mask(s)):
            c = game.clone(s)
            game.apply(c, int(a), rng)
            children.append((evaluate(game, c, me), c))
        children.sort(key=lambda x: -x[0])
        return max(self._chain_value(game, c, me, depth - 1, rng, v) for v, c in children[: self.beam])

    def action_scores(self, game: Any, state: Any, seat: int, legal: np.ndarray,
                      rng: np.random.Generator) -> np.ndarray:
        """``float64[len(legal)]``: this heuristic's score of each legal action (in :func:`evaluate`'s units,
        HP-margin points; ``-inf`` for a voluntary discard in the main phase), the one :meth:`policy` maximises:
        the best :func:`evaluate` reached by following the action's multi-step choice (``beam`` children per
        step, ``max_chain`` steps), less ``min_gain`` for an Order or Feature, plus ``1e-6`` for ``END_TURN``."""
        lay = game.layout
        end_turn = lay.offset("END_TURN")
        order_lo, order_hi = lay["PLAY_ORDER"].offset, lay["PLAY_ORDER"].stop
        feat_lo, feat_hi = lay["USE_FEATURE"].offset, lay["USE_FEATURE"].stop
        disc_lo, disc_hi = lay["DISCARD"].offset, lay["DISCARD"].stop
        in_main = state.sub_phase == _MAIN
        scores = np.empty(len(legal))
        for i, a in enumerate(legal):
            a = int(a)
            if in_main and disc_lo <= a < disc_hi:
                scores[i] = -np.inf  # voluntary discards never help this evaluation
                continue
            c = game.clone(state)
            game.apply(c, a, rng)
            v = self._chain_value(game, c, seat, self.max_chain, rng)
            if in_main and (order_lo <= a < order_hi or feat_lo <= a < feat_hi):
                v -= self.min_gain
            if a == end_turn:
                v += 1e-6  # prefer ending the turn over a neutral action
            scores[i] = v
        return scores

    def policy(self, game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
        """The legal action of ``seat`` (to act in ``state``, a determinization) with the best lookahead value
        (:meth:`action_scores`; ties broken with ``rng``)."""
        legal = np.flatnonzero(game.legal_mask(state))
        if legal.size == 1:
            return int(legal[0])
        scores = self.action_scores(game, state, seat, legal, rng)
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return int(legal[best[rng.integers(best.size)]])


def make_heuristic(env_id: str, **kwargs: Any) -> ArenaHeuristic:
    """The Arena heuristic agent (``heuristic_for("monolith_arena_v0")``)."""
    return ArenaHeuristic(**kwargs)


def state_policy(game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
    """Fast rollout policy for MCTS: one-ply greedy on :func:`evaluate` without chain following."""
    legal = np.flatnonzero(game.legal_mask(state))
    if legal.size == 1:
        return int(legal[0])
    scores = []
    for a in legal:
        c = game.clone(state)
        game.apply(c, int(a), rng)
        scores.append(evaluate(game, c, seat))
    scores = np.asarray(scores)
    best = np.flatnonzero(scores >= scores.max() - 1e-9)
    return int(legal[best[rng.integers(best.size)]])


def action_prior(game: Any, state: Any, seat: int, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``float64[len(legal)]``: one-ply :func:`evaluate` of each legal action (MCTS root pruning)."""
    out = np.empty(len(legal))
    for i, a in enumerate(legal):
        c = game.clone(state)
        game.apply(c, int(a), rng)
        out[i] = evaluate(game, c, seat)
    return out
