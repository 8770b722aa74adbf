"""The TURN decision of the Action Phase: place, set aside, end turn and cast, with the castability rules
(docs/monolith_strategy.md §4.6, §4.7, §4.12, §6.2)."""

from __future__ import annotations

from itertools import compress

from ..core.compiled import pure_python_requested
from . import effects
from .board import NSOCK, PRIV0, Rules
from .effects import has_move_source, push_lines
from .state import Kind, Phase, Side, StrategyState

try:  # the optional compiled TURN lists (setup.py builds it); turn_mask_python is the reference
    from . import _fastmask
except ImportError:  # pragma: no cover - built without a C compiler
    _fastmask = None

__all__ = ["turn_mask_list", "turn_mask_python", "turn_apply", "castable", "cast_checks", "mask_checks",
           "mask_context", "start_turn", "end_turn", "t_turn"]

# ops whose castability depends on the position (docs §4.12); every other op is always castable
_STATE_OPS = frozenset(("reroll", "adjust_face", "set_face", "move_die", "block_socket", "gain_die",
                        "secret_rune", "take_primus"))


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
        return has_move_source(R, s, p)
    if op == "block_socket":  # bool(R.blockable(s)), stopping at the first
        blocked, seat = s.blocked, s.sock_seat
        return any(not blocked[sid] and seat[sid] < 0 for sid, _ in R.geometry(s)[0])
    if op == "gain_die":
        return s.src_dice[p] >= 1
    if op == "secret_rune":
        return len(s.priv[p]) < 2 and bool(s.rune_deck)
    if op == "take_primus" and not ln.lock:
        return s.primus != p
    return True


def cast_checks(R: Rules) -> list:
    """Per action kind: None when it can never be cast in this game (a ``chosen_opponent`` line with one
    seat, or a ``set_face`` on others alone), else the tuple of its lines whose requirement depends on the
    position (:func:`_line_ok` is True for every other line whatever the state) (docs §4.12)."""
    out: list = []
    for card in R.content.actions:
        lines, never = [], False
        for ln in card.effect:
            if (ln.who == "chosen_opponent" or ln.from_ == "chosen_opponent") and R.n < 2:
                never = True
            elif ln.op == "set_face" and ln.who != "self":
                never = never or R.n < 2
            elif ln.op in _STATE_OPS and not (ln.op == "set_face" and ln.where == "socketed") and not (
                    ln.op == "take_primus" and ln.lock):
                lines.append(ln)
        out.append(None if never else tuple(lines))
    return out


# castability checks of the compiled TURN lists (the codes of _fastmask.c's CHECK_* enum)
CHECK_POOL, CHECK_POOL_NOT_FACE, CHECK_MOVE, CHECK_BLOCK, CHECK_SOURCE_DIE, CHECK_RUNE, CHECK_PRIMUS = range(7)


def _check_code(ln) -> tuple:
    """The ``(check, argument)`` pair that decides :func:`_line_ok` for a line of :func:`cast_checks`."""
    op = ln.op
    if op == "reroll" or op == "adjust_face":
        return CHECK_POOL, 0
    if op == "set_face":  # cast_checks keeps only who == "self", where != "socketed"
        return (CHECK_POOL_NOT_FACE, ln.face) if ln.face else (CHECK_POOL, 0)
    if op == "move_die":
        return CHECK_MOVE, 0
    if op == "block_socket":
        return CHECK_BLOCK, 0
    if op == "gain_die":
        return CHECK_SOURCE_DIE, 0
    if op == "secret_rune":
        return CHECK_RUNE, 0
    if op == "take_primus" and not ln.lock:
        return CHECK_PRIMUS, 0
    raise ValueError(f"no castability check for a {op!r} line")  # pragma: no cover - cast_checks filters


def mask_checks(R: Rules) -> list:
    """Per action kind: None (never castable, as :func:`cast_checks`) or the list of ``(check, argument)``
    pairs of its position-dependent lines, for the compiled TURN lists (docs §4.12)."""
    return [None if lines is None else [_check_code(ln) for ln in lines] for lines in R.cast_checks]


def mask_context(R: Rules, compiled: bool | None = None):
    """The compiled TURN lists' context (a capsule) for ``R`` (``R.cast_checks`` and ``R.off`` set), or None
    when they are not used: the extension is not built, or ``compiled`` is False, or (``compiled`` None)
    the environment variable ``MONOLITH_ENVS_PURE_PYTHON`` is ``1``.

    Raises:
        RuntimeError: ``compiled`` is True and the extension is not built.
    """
    if compiled is None:
        compiled = _fastmask is not None and not pure_python_requested()
    elif compiled and _fastmask is None:
        raise RuntimeError("the compiled legal-action lists monolith_envs.strategy._fastmask are not built "
                           "(reinstall with a C compiler: pip install -e .)")
    if not compiled:
        return None
    c, o = R.content, R.off
    return _fastmask.make_context((o.PLACE, o.SET_ASIDE, o.END_TURN, o.CAST, int(Phase.ACTION), int(Side.EXALTED)),
                                  [list(b.sockets) for b in c.board], [list(rc.sockets) for rc in c.round_cards],
                                  [bool(rc.reserved) for rc in c.round_cards], [bool(x) for x in R.anytime],
                                  mask_checks(R))


def castable(R: Rules, s: StrategyState, p: int, k: int) -> bool:
    """True when seat p (the turn player) may cast kind k now (docs §4.6, §4.12)."""
    tn = s.turn
    if not s.hand[p][k]:
        return False
    if not (sum(s.pool[p]) or (tn["mandatory_done"] and not tn["socketed"])):
        return False
    if tn["socketed"] and not R.anytime[k]:
        return False
    lines = R.cast_checks[k]
    return lines is not None and all(_line_ok(R, s, p, ln) for ln in lines)


def turn_mask_list(R: Rules, s: StrategyState, pd: dict | None = None) -> list:
    """Legal TURN actions (flat indexes, ``list`` of ``int``), ascending (``pd``, the open decision, is not
    needed: the turn record says everything; it makes this the decision table's mask function)
    (docs §4.6, §4.12, §6.2).

    Computed by the compiled ``_fastmask.turn_legal`` when ``R.mask_ctx`` holds its context (see
    :func:`mask_context`), else by :func:`turn_mask_python`; both give the same list
    (``tests/strategy/test_fastmask.py``).

    Raises:
        TypeError, IndexError, KeyError, AttributeError: a malformed state (the compiled code names the field).
    """
    ctx = R.mask_ctx
    if ctx is not None:
        return _fastmask.turn_legal(ctx, s)
    return turn_mask_python(R, s)


def turn_mask_python(R: Rules, s: StrategyState, pd: dict | None = None) -> list:
    """:func:`turn_mask_list` in pure Python: the reference of the compiled version (docs §4.6, §4.7,
    §4.12)."""
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
        # castable() with its first two tests already known true; CAST indexes follow every other family,
        # so the list stays ascending
        socketed, anytime, checks = tn["socketed"], R.anytime, R.cast_checks
        for k in compress(range(len(hand)), hand):  # the kinds held
            if anytime[k] or not socketed:
                lines = checks[k]
                if lines is not None and (not lines or all(_line_ok(R, s, p, ln) for ln in lines)):
                    out.append(o.CAST + k)
    return out


_TURN = int(Kind.TURN)


def _new_turn(s: StrategyState, p: int) -> None:
    s.turn = {"player": p, "left": 1, "socketed": False, "mandatory_done": False, "stack_ready": False}


def start_turn(s: StrategyState, p: int) -> None:
    """Seat p's turn starts with ``left = 1``: its ``turn`` task opens the TURN decision (docs §4.6)."""
    _new_turn(s, p)
    s.tasks.append({"t": "turn"})


def t_turn(R: Rules, s: StrategyState, t: dict | None, rng) -> None:
    """Open the TURN decision, or end the turn when ``end_turn`` is the only legal action (docs §4.6,
    §4.20).

    Also called at once, with ``t = None``, where a ``turn`` task would be pushed and popped next with no
    decision open in between (after a place or set-aside without Immediate lines, and for the next turn
    player): the state at every decision is the same."""
    p = s.turn["player"]
    if not s.turn["mandatory_done"] and not sum(s.pool[p]):
        # the pool emptied before the compulsory placement (only a content file can do it, e.g. exile_die on
        # oneself in a Play Anytime card): nothing can be placed, so the turn ends, as a player with no pool
        # die is skipped (docs §4.6)
        end_turn(R, s)
        return
    ctx = R.mask_ctx
    legal = _fastmask.turn_legal(ctx, s) if ctx is not None else turn_mask_python(R, s)  # turn_mask_list
    if len(legal) == 1 and legal[0] == R.END_TURN:
        end_turn(R, s)
        return
    s.pending = {"k": _TURN, "seat": p}
    s.legal_cache = legal  # the engine stops at this decision, so the list stays valid


def end_turn(R: Rules, s: StrategyState) -> None:
    """Next seat clockwise (from the turn player, docs §4.6) with a pool die; none: the Action Phase ends."""
    p = s.turn["player"]
    n = R.n
    s.turn["stack_ready"] = False
    for i in range(1, n + 1):
        q = (p + i) % n
        if sum(s.pool[q]):
            _new_turn(s, q)
            t_turn(R, s, None, None)
            return


def turn_apply(R: Rules, s: StrategyState, pd: dict, a: int, rng) -> None:
    """Apply a legal TURN action (the engine then continues with :func:`flow.run`); ``pd`` is the TURN
    decision that was open (the table's apply signature) (docs §4.6, §4.7, §4.12)."""
    o = R.off
    p = s.turn["player"]
    tn = s.turn
    if a < o.SET_ASIDE:
        f, sid = divmod(a - o.PLACE, NSOCK)
        face = f + 1
        s.pool[p][f] -= 1
        tn["left"] -= 1
        tn["socketed"] = True
        tn["mandatory_done"] = True
        if sid >= PRIV0:
            slot, idx = divmod(sid - PRIV0, 4)
            pr = s.priv[p][slot]
            pr["occ"][idx] = face
            pr["revealed"] = True
            card = R.content.board[pr["card"]]
            where = [p, slot]
        else:
            q = s.sock_seat[sid]
            if q >= 0:  # Stacker bump (docs §5.6: the lower die goes back to its owner's pool with its face)
                s.pool[q][s.sock_face[sid] - 1] += 1
                tn["stack_ready"] = False
            s.sock_seat[sid] = p
            s.sock_face[sid] = face
            kind, card = R.active(s, sid // 4 + 1)
            where = sid // 4 + 1
            if kind != "card":
                card = None
        if card is not None and card.immediate:  # docs §4.7: its lines run before the turn goes on
            s.tasks.append({"t": "turn"})
            push_lines(s, "b", card.index, "effect", len(card.effect),
                       effects.ctx_of("PLACE", p, where, card.attack))
        else:
            t_turn(R, s, None, rng)
    elif a < o.END_TURN:
        s.pool[p][a - o.SET_ASIDE] -= 1
        s.aside[p] += 1
        tn["left"] -= 1
        tn["mandatory_done"] = True
        t_turn(R, s, None, rng)
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


def _socket_reason(R: Rules, s: StrategyState, p: int, face: int, sid: int, bump: bool) -> str:
    """Why a die showing ``face`` of seat p may not enter socket ``sid`` (not an "available" socket of
    docs §4.6), or ''."""
    if sid >= PRIV0:
        slot, i = divmod(sid - PRIV0, 4)
        if slot >= len(s.priv[p]):
            return f"player_{p} has no private Rune in slot {slot}"
        pr = s.priv[p][slot]
        socks = R.content.board[pr["card"]].sockets
        if i >= len(socks):
            return f"the private Rune in slot {slot} has no socket {i}"
        if pr["occ"][i]:
            return f"private socket {sid} already holds a die"
        req = socks[i]
    else:
        pos, i = sid // 4 + 1, sid % 4
        row = R.geometry(s)[1].get(sid)
        if row is None:
            return f"socket {sid} (position {pos}, socket {i}) does not exist now"
        req, reserved = row
        if reserved:
            return f"socket {sid} is reserved (the Exalted side at position {pos})"
        if s.blocked[sid]:
            return f"socket {sid} is blocked this round"
        q = s.sock_seat[sid]
        if q >= 0:
            if q == p:
                return f"socket {sid} already holds player_{p}'s own die"
            if not bump:
                return f"socket {sid} holds player_{q}'s die (a Stacker bump needs stack_ready)"
            if s.sock_face[sid] >= face:
                return f"socket {sid} holds a {s.sock_face[sid]}: a bump needs a higher face"
    if req and req != face:
        return f"socket {sid} takes only a die showing {req}"
    return ""


def turn_reason(R: Rules, s: StrategyState, a: int) -> str:
    """Why TURN action ``a`` is not legal now (docs §4.6, §4.7, §4.12), for the IllegalActionError; '' when
    no specific reason is found."""
    o = R.off
    p = s.turn["player"]
    tn, pool = s.turn, s.pool[p]
    if a < o.SET_ASIDE:
        f, sid = divmod(a - o.PLACE, NSOCK)
        if tn["left"] < 1:
            return f"player_{p} has no placement left this turn"
        if not pool[f]:
            return f"player_{p} has no die showing {f + 1} in the pool"
        bump = tn["stack_ready"] and s.phase == Phase.ACTION
        return _socket_reason(R, s, p, f + 1, sid, bump)
    if a < o.END_TURN:
        f = a - o.SET_ASIDE
        if tn["mandatory_done"]:
            return "the turn's mandatory placement is already done"
        if not pool[f]:
            return f"player_{p} has no die showing {f + 1} in the pool"
        if tn["left"] >= 1 and R.place_actions(s, p, o.PLACE):
            return "a die can still be placed: set aside only when none fits"
        return ""
    if a == o.END_TURN:
        return "" if tn["mandatory_done"] else "a die must first be placed or set aside"
    k = a - o.CAST
    if not 0 <= k < R.K:
        return "it answers another kind of decision"
    name = R.content.actions[k].name
    if not s.hand[p][k]:
        return f"player_{p} holds no uncast {name}"
    if not (sum(pool) or (tn["mandatory_done"] and not tn["socketed"])):
        return f"{name} needs a die in the pool (or the placement done without socketing)"
    if tn["socketed"] and not R.anytime[k]:
        return f"after socketing a die only Play Anytime cards may be cast, and {name} is not one"
    lines = R.cast_checks[k]
    if lines is None:
        return f"{name} cannot be cast in a game of {R.n} seat(s)"
    bad = next((ln for ln in lines if not _line_ok(R, s, p, ln)), None)
    return f"{name} has no effect now (its {bad.op} line)" if bad is not None else ""
