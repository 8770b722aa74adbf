"""The TURN decision of the Action Phase: place, set aside, end turn and cast, with the castability rules
(docs/monolith_strategy.md §4.6, §4.7, §4.12, §6.2)."""

from __future__ import annotations

from . import effects
from .board import PRIV0, Rules
from .effects import move_sources, push_lines
from .state import StrategyState

__all__ = ["turn_mask_list", "turn_apply", "castable"]


def _line_ok(R: Rules, s: StrategyState, p: int, ln) -> bool:
    """Line requirements of castability (docs §4.12)."""
    op = ln.op
    if (ln.who == "chosen_opponent" or ln.from_ == "chosen_opponent") and R.n < 2:
        return False
    pool = s.pool[p]
    if op == "reroll" or op == "adjust_face":
        return sum(pool) > 0
    if op == "set_face":
        if ln.who != "self":
            return R.n >= 2
        if ln.where == "socketed":
            return True
        if ln.face:
            return any(pool[f] for f in range(6) if f != ln.face - 1)
        return sum(pool) > 0
    if op == "move_die":
        return bool(move_sources(R, s, p))
    if op == "block_socket":
        return bool(R.blockable(s))
    if op == "gain_die":
        return s.src_dice[p] >= 1
    if op == "secret_rune":
        return len(s.priv[p]) < 2 and bool(s.rune_deck)
    if op == "take_primus" and not ln.lock:
        return s.primus != p
    return True


def castable(R: Rules, s: StrategyState, p: int, k: int) -> bool:
    """True when seat p (the turn player) may cast kind k now."""
    tn = s.turn
    if not s.hand[p][k]:
        return False
    if not (sum(s.pool[p]) or (tn["mandatory_done"] and not tn["socketed"])):
        return False
    if tn["socketed"] and not R.anytime[k]:
        return False
    return all(_line_ok(R, s, p, ln) for ln in R.content.actions[k].effect)


def turn_mask_list(R: Rules, s: StrategyState) -> list:
    """Legal TURN actions (flat indexes), ascending."""
    o = R.off
    p = s.turn["player"]
    tn = s.turn
    pool = s.pool[p]
    out = []
    if tn["left"] >= 1:
        out = R.place_actions(s, p, o.PLACE)
    if not tn["mandatory_done"] and not out:
        out += [o.SET_ASIDE + f for f in range(6) if pool[f]]
    if tn["mandatory_done"]:
        out.append(o.END_TURN)
    hand = s.hand[p]
    if any(hand) and (sum(pool) or (tn["mandatory_done"] and not tn["socketed"])):
        out += [o.CAST + k for k, c in enumerate(hand) if c and castable(R, s, p, k)]
        out.sort()
    return out


def turn_apply(R: Rules, s: StrategyState, a: int, rng) -> None:
    """Apply a legal TURN action (the engine then continues with :func:`flow.run`)."""
    from .flow import end_turn

    o = R.off
    p = s.turn["player"]
    tn = s.turn
    if a < o.SET_ASIDE:
        f, sid = divmod(a - o.PLACE, 60)
        face = f + 1
        s.pool[p][f] -= 1
        tn["left"] -= 1
        tn["socketed"] = True
        tn["mandatory_done"] = True
        s.tasks.append({"t": "turn"})
        if sid >= PRIV0:
            slot, idx = divmod(sid - PRIV0, 4)
            pr = s.priv[p][slot]
            pr["occ"][idx] = face
            pr["revealed"] = True
            card = R.content.board[pr["card"]]
            where = [p, slot]
        else:
            q = s.sock_seat[sid]
            if q >= 0:  # Stacker bump (docs §5.6 D36)
                s.pool[q][s.sock_face[sid] - 1] += 1
                tn["stack_ready"] = False
            s.sock_seat[sid] = p
            s.sock_face[sid] = face
            kind, card = R.active(s, sid // 4 + 1)
            where = sid // 4 + 1
            if kind != "card":
                card = None
        if card is not None and card.immediate:  # docs §4.7
            push_lines(s, "b", card.index, "effect", len(card.effect),
                       effects.ctx_of("PLACE", p, where, card.attack))
    elif a < o.END_TURN:
        s.pool[p][a - o.SET_ASIDE] -= 1
        s.aside[p] += 1
        tn["left"] -= 1
        tn["mandatory_done"] = True
        s.tasks.append({"t": "turn"})
    elif a == o.END_TURN:
        end_turn(R, s)
    else:
        k = a - o.CAST
        s.hand[p][k] -= 1
        s.cast[p][k] += 1
        s.tasks.append({"t": "turn"})
        if R.is_pp[k]:
            s.pp_queue.append([p, k])
        else:
            card = R.content.actions[k]
            push_lines(s, "a", k, "effect", len(card.effect), effects.ctx_of("CAST", p, 0, card.attack))
