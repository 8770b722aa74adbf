"""Heuristic player for ``monolith_strategy_v0`` (``heuristic_for("monolith_strategy_v0")``).

A rule-based greedy player on the rules-engine state (hidden parts resampled first, see
:class:`~monolith_envs.agents.heuristics.generic.StatePolicyAgent`):

* **placement**: every legal ``place(f, sid)`` is scored by the change of the card's estimated payout to
  the player when the die is added (each line's recipients and conditions worked out on the dice there,
  VP worth 1, gems 0.5, cards 0.45, a die 0.7, losses negative; Immediate lines counted at once); the best
  one is taken; an optional extra placement is taken when it adds at least 0.3;
* **casting**: a fixed value per card kind (VP gains, attacks on the leader, gems, extra placements
  while a good socket is free), cast at once when positive;
* **choices**: pay every affordable toll and cost (gems before cards), aim attacks at the leader, discard
  the least useful card, take a Skill as start bonus, reveal as much as possible at the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from monolith_envs.strategy.actions import Bonus
from monolith_envs.strategy.board import NSOCK
from monolith_envs.strategy.effects import get_line, seats_by_totals
from monolith_envs.strategy.state import Kind, Phase, Side

from .generic import StatePolicyAgent

__all__ = ["StrategyHeuristic", "action_prior", "make_heuristic", "state_policy", "state_value", "MCTS_DEFAULTS"]

MCTS_DEFAULTS = {"rollout": "heuristic", "rollout_depth": None, "c": 0.7, "root_k": 8}

GEM, CARD, DIE = 0.5, 0.45, 0.7
CAST_VALUE = {
    "tribute": 1.0, "rally": 1.4, "dominion": 0.8, "sabotage": 1.5, "jinx": 0.3, "pilfer": 0.6, "plunder": 1.1,
    "wealth": 0.5, "foresight": 0.8, "ascension": 0.2, "guard": 0.25, "synergy": 0.6, "secrecy": 0.6,
    "triumph": 3.0, "windfall": 1.5, "overcharge": 0.6, "usurper": 0.2, "prospect": -0.4, "seal": 0.05,
    "stacker": 0.0, "augment": 0.0, "momentum": 0.0, "haste": 0.0, "mastery": 0.0, "renewal": 0.0,
    "reroll": 0.0, "nudge": 0.0, "sculpt": 0.0, "shift": 0.0,
}
KEEP_VALUE = {"wealth": 2.0, "momentum": 1.2, "mastery": 0.8, "renewal": 0.6, "ascension": 1.0, "augment": 1.0,
              "haste": 0.9, "sculpt": 0.7, "seal": 0.5, "rally": 1.2, "tribute": 0.9, "sabotage": 1.0,
              "dominion": 1.0, "plunder": 1.0, "foresight": 0.8}


# ---------------------------------------------------------------------------------------------- card payout
def _recipients(who: str, dice: dict, order: list, owner_priv: int | None) -> list:
    """The seats a line pays with ``dice`` (``{seat: [faces]}``) on its card: the engine's BOARD selector on
    these totals; none for any other selector."""
    return seats_by_totals(who, {q: sum(f) for q, f in dice.items()}, order, owner_priv) or []


def _cond(R, s, ln, faces: list, me: int) -> bool:
    total = sum(faces)
    for name, k in ln.cond:
        if name == "fewest_vp" and any(s.vp[q] < s.vp[me] for q in range(R.n) if q != me):
            return False
        if (name == "total_min" and total < k) or (name == "total_max" and total > k) or (
                name == "total_eq" and total != k) or (name == "dice_min" and len(faces) < k):
            return False
        if name == "pair" and len(set(faces)) == len(faces):
            return False
        if name == "run" and not any(all(v + j in set(faces) for j in range(k)) for v in range(1, 8 - k)):
            return False
        if name == "all_even" and (not faces or any(f % 2 for f in faces)):
            return False
        if name == "all_odd" and (not faces or any(f % 2 == 0 for f in faces)):
            return False
    return True


def _op_value(R, s, ln, amount: int, me: int) -> float:
    op = ln.op
    if op == "gain_vp":
        room = R.victory - s.vp[me]
        gain = min(amount, room)
        nxt = [sp for sp, c in R.content.tolls if s.vp[me] < sp <= s.vp[me] + gain and c > s.gems[me]]
        if nxt:
            gain = nxt[0] - 1 - s.vp[me]
        return float(gain)
    if op == "lose_vp":
        return -float(min(amount, s.vp[me]))
    if op == "gain_gems":
        return GEM * min(amount, s.source_gems)
    if op == "lose_gems":
        return -GEM * min(amount, s.gems[me])
    if op in ("steal_gems", "steal_vp"):
        return (GEM if op == "steal_gems" else 1.0) * amount * 0.8
    if op == "draw":
        room = R.hand_limit - R.hand_size(s, me)
        return CARD * amount if room > 0 else 0.1
    if op == "discard":
        return -0.4 * amount
    if op == "gain_die":
        return DIE * min(amount, s.src_dice[me]) * (0.3 if s.phase != Phase.ACTION else 1.0)
    if op == "take_primus":
        return 0.3 if s.primus != me else 0.0
    if op == "chase":
        return 0.8
    if op == "extra_placement":
        return 0.6
    if op in ("exile_die", "set_face", "block_socket", "reroll", "adjust_face", "move_die"):
        return 0.2
    return 0.0


def _amount(ln, faces: list, s, R, me) -> int:
    sc = ln.scale
    if sc == "per_die":
        m = len(faces)
    elif sc == "per_pair":
        m = sum(faces.count(f) // 2 for f in set(faces))
    elif sc == "per_pips":
        m = sum(faces) // ln.k
    else:
        m = 1
    a = ln.n * m
    return min(a, ln.max) if ln.max else a


def card_value(game, s, lines, dice: dict, me: int, owner_priv: int | None = None) -> float:
    """Estimated payout to ``me`` of a card's resolution lines with ``dice`` (``{seat: [faces]}``) on it."""
    R = game.rules
    if not dice:
        return 0.0
    order = R.order(s)
    v = 0.0
    for ln in lines:
        rec = _recipients(ln.who, dice, order, owner_priv)
        if me not in rec:
            continue
        faces = dice.get(me, [])
        if not _cond(R, s, ln, faces, me):
            continue
        if ln.cost:
            if R.spend_value(s, me) < ln.cost:
                continue
            v -= GEM * ln.cost
        if ln.op == "take_primus" and len(rec) != 1:
            continue
        v += _op_value(R, s, ln, _amount(ln, faces, s, R, me), me)
    return v


def _immediate_value(game, s, lines, me: int) -> float:
    R = game.rules
    v = 0.0
    for ln in lines:
        if ln.who == "chosen_opponent":
            v += 0.9 if R.n > 1 and ln.op in ("lose_vp", "exile_die") else 0.0
        elif ln.who == "self":
            v += _op_value(R, s, ln, ln.n, me)
    return v


def place_value(game, s, me: int, face: int, sid: int) -> float:
    """Change of my estimated payout when my die of ``face`` goes into ``sid``."""
    R = game.rules
    c = R.content
    if sid >= 52:
        slot = (sid - 52) // 4
        pr = s.priv[me][slot]
        card = c.board[pr["card"]]
        if card.immediate:
            return _immediate_value(game, s, card.effect, me)
        dice = {me: [f for f in pr["occ"] if f]} if any(pr["occ"]) else {}
        after = {me: dice.get(me, []) + [face]}
        return card_value(game, s, card.effect, after, me, me) - card_value(game, s, card.effect, dice, me, me)
    pos = sid // 4 + 1
    kind, obj = R.active(s, pos)
    dice = R.dice_on(s, pos)
    if s.sock_seat[sid] >= 0:  # a Stacker bump takes the other die off
        q = s.sock_seat[sid]
        dice = {k: list(v) for k, v in dice.items()}
        dice[q].remove(s.sock_face[sid])
        if not dice[q]:
            del dice[q]
    lines = obj.resolve if kind == "exalted" else obj.effect
    if kind == "card" and obj.immediate:
        return _immediate_value(game, s, lines, me)
    after = {k: list(v) for k, v in dice.items()}
    after.setdefault(me, []).append(face)
    return card_value(game, s, lines, after, me) - card_value(game, s, lines, dice, me) + 0.01 * face


# ---------------------------------------------------------------------------------------------- decisions
def _leader(s, me: int, n: int, key: str = "vp") -> int:
    others = [q for q in range(n) if q != me]
    vals = getattr(s, key)
    return max(others, key=lambda q: (vals[q], -q)) if others else -1


def _turn(game, s, me: int, legal: list) -> int:
    R = game.rules
    o = R.off
    ids = [a.id for a in R.content.actions]
    places = [a for a in legal if a < o.SET_ASIDE]
    best, best_v = None, -1e9
    for a in places:
        f, sid = divmod(a, NSOCK)
        v = place_value(game, s, me, f + 1, sid)
        if v > best_v:
            best, best_v = a, v
    casts = [a for a in legal if o.CAST <= a < o.CAST + R.K]
    cbest, cv = None, 0.05
    for a in casts:
        k = a - o.CAST
        v = CAST_VALUE.get(ids[k], 0.0)
        if ids[k] in ("augment", "momentum", "haste") and best_v > 0.6 and not s.turn["socketed"]:
            v = 0.7
        if ids[k] == "stacker" and s.turn["left"] >= 1:
            v = 0.3
        if ids[k] == "foresight" and R.hand_size(s, me) > R.hand_limit - 2:
            v = 0.0
        if v > cv:
            cbest, cv = a, v
    if cbest is not None:
        return cbest
    if best is not None and (not s.turn["mandatory_done"] or best_v >= 0.3):
        return best
    if o.END_TURN in legal:
        return o.END_TURN
    if best is not None:
        return best
    asides = [a for a in legal if o.SET_ASIDE <= a < o.END_TURN]
    return asides[0] if asides else legal[0]


def _discard(game, s, me: int, legal: list) -> int:
    R = game.rules
    ids = [a.id for a in R.content.actions]

    def keep(a):
        k = a - R.off.DISCARD
        return KEEP_VALUE.get(ids[k], 0.3) + 0.3 * R.gems_of[k] + (5 if R.is_pp[k] else 0)

    return min(legal, key=keep)


def state_policy(game: Any, s: Any, seat: int, rng: np.random.Generator) -> int:
    """The heuristic's action for ``seat`` in ``s`` (the current player)."""
    R = game.rules
    o = R.off
    legal = game.legal_list(s)
    if len(legal) == 1:
        return legal[0]
    pd = s.pending
    k = pd["k"]
    if k == Kind.TURN:
        return _turn(game, s, seat, legal)
    if k == Kind.BONUS:
        return o.START_BONUS + Bonus.SKILL if o.START_BONUS + Bonus.SKILL in legal else legal[-1]
    if k == Kind.SIDE:
        return o.ROUND_SIDE + Side.EXALTED
    if k == Kind.OPPONENT:
        src = pd.get("src")
        key = "gems" if src and "gems" in get_line(R, src).op else "vp"
        target = _leader(s, seat, R.n, key)
        for a in legal:
            if (seat + a - o.CHOOSE_OPPONENT + 1) % R.n == target:
                return a
        return legal[0]
    if k in (Kind.PAY_OFFER, Kind.PAY_MORE, Kind.REVEAL_SRC):
        if o.PAY_GEMS in legal:
            return o.PAY_GEMS
        cards = [a for a in legal if o.PAY_CARD <= a < o.PAY_CARD + R.K]
        if cards:
            return min(cards, key=lambda a: KEEP_VALUE.get(R.content.actions[a - o.PAY_CARD].id, 0.3))
        return legal[0]
    if k == Kind.DISCARD:
        return _discard(game, s, seat, legal)
    if k == Kind.REVEAL_COUNT:
        return max(legal)
    if k == Kind.FACE_SRC:
        mode = pd.get("mode")
        faces = [a - o.CHOOSE_FACE + 1 for a in legal]
        pick = min(faces) if mode in ("reroll", "set", "set_any", "adjust") else max(faces)
        return o.CHOOSE_FACE + pick - 1
    if k == Kind.FACE_NEW:
        return max(legal)
    return legal[int(rng.integers(len(legal)))]


def action_prior(game: Any, s: Any, seat: int, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``float64[len(legal)]``: the heuristic's estimate of each legal action, for MCTS root pruning
    (``MCTS_DEFAULTS["root_k"]``): a placement's payout change (:func:`place_value`), a cast's
    ``CAST_VALUE``, 0 for the rest; the heuristic's own choice (:func:`state_policy`) scores highest."""
    R = game.rules
    o = R.off
    ids = [a.id for a in R.content.actions]
    pick = int(state_policy(game, s, seat, rng))
    out = np.zeros(len(legal))
    for i, a in enumerate(int(x) for x in legal):
        if a < o.SET_ASIDE:
            f, sid = divmod(a, NSOCK)
            out[i] = place_value(game, s, seat, f + 1, sid)
        elif o.CAST <= a < o.CAST + R.K:
            out[i] = CAST_VALUE.get(ids[a - o.CAST], 0.0)
        out[i] += 100.0 if a == pick else 0.0
    return out


def state_value(game: Any, s: Any) -> np.ndarray:
    """``float32[n]`` in (-1, 1): VP plus half the gems held (physical gems and the printed gems of every gem card
    in hand, cast this round or not), relative to the others (tanh); solo: relative to
    3 VP below the goal toll stone's space (``solo_goal_stone``; 17 for the default fourth stone on 20); the
    returns once terminal."""
    if s.terminal:
        return np.asarray(game.returns(s), np.float32)
    R = game.rules
    score = np.array([s.vp[p] + 0.5 * R.gems_held(s, p) for p in range(R.n)], np.float64)
    if R.n == 1:
        return np.tanh(np.array([(score[0] - (game.solo_goal - 3.0)) / 6.0], np.float32))
    rel = score - (score.sum() - score) / (R.n - 1)
    return np.tanh(rel / 6.0).astype(np.float32)


class StrategyHeuristic(StatePolicyAgent):
    """The rule-based Monolith Strategy player (see the module docstring)."""

    name = "heuristic"

    def policy(self, game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
        """The heuristic's legal action for ``seat`` in ``state`` (:func:`state_policy`)."""
        return int(state_policy(game, state, seat, rng))


def make_heuristic(env_id: str, **kwargs: Any) -> StrategyHeuristic:
    """The heuristic agent of ``monolith_strategy_v0``."""
    return StrategyHeuristic(**kwargs)
