"""Checks of a state read back by ``from_dict`` (docs §2, §9): the field schema, then the invariants.

A tampered or hand-edited state must fail here with a :class:`~monolith_envs.core.state.StateError` naming
the field, never later with an ``IndexError`` or ``KeyError`` inside the rules.
"""

from __future__ import annotations

from typing import Any

from ..core.state import StateError
from ..core.state_schema import Bool, Float, Int, List, Spec, check_invariants, probe_state, state_error
from .rest import turn_order
from .state import NONE, Frame, Phase, Sub, Win

__all__ = ["schema", "cross_check", "check_decider", "fixed_decider"]

BIG = 10 ** 6
"""Bound of counters that no rule limits (favour, decisions): far above any game, far below overflow."""


class _Frames(Spec):
    """``stack``: a list of ``[kind, a, b]`` with kind a :class:`Frame` and small integer arguments."""

    def __init__(self, hi: int):
        self.hi = hi

    def check(self, v: Any, path: str) -> None:
        if type(v) is not list or len(v) > 256:
            raise state_error(path, v, "a list of at most 256 frames [kind, a, b]")
        kinds = {int(f) for f in Frame}
        for i, fr in enumerate(v):
            p = f"{path}[{i}]"
            if type(fr) is not list or len(fr) != 3:
                raise state_error(p, fr, "a frame [kind, a, b]")
            Int(0, max(kinds)).check(fr[0], p + "[0]")
            for j in (1, 2):
                Int(NONE, self.hi).check(fr[j], f"{p}[{j}]")


class _Pairs(Spec):
    """A list of ``[first, second]`` integer pairs with the given ranges."""

    def __init__(self, first: Int, second: Int, max_len: int):
        self.first, self.second, self.max_len = first, second, max_len

    def check(self, v: Any, path: str) -> None:
        if type(v) is not list or len(v) > self.max_len:
            raise state_error(path, v, f"a list of at most {self.max_len} pairs")
        for i, x in enumerate(v):
            if type(x) is not list or len(x) != 2:
                raise state_error(f"{path}[{i}]", x, "a pair [id, value]")
            self.first.check(x[0], f"{path}[{i}][0]")
            self.second.check(x[1], f"{path}[{i}][1]")


class _Member(Spec):
    """A member of the IntEnum ``enum`` (``to_dict`` writes it as an ``__enum__`` record), or one of the plain
    ints ``ints`` (``NONE`` for "no sub-phase"). A bare int for a member is refused: every rule step writes the
    enum, so a bare int is a hand edit (and a member of another enum is not a sub-phase)."""

    def __init__(self, enum: type, ints: tuple = ()):
        self.enum, self.ints = enum, ints

    def check(self, v: Any, path: str) -> None:
        if type(v) is self.enum or (type(v) is int and v in self.ints):
            return
        extra = " or " + " or ".join(map(str, self.ints)) if self.ints else ""
        raise state_error(path, v, f"a {self.enum.__name__} member (an __enum__ record of {self.enum.__name__} as "
                          f"to_dict writes it, not a bare int){extra}")


def schema(g) -> dict:
    """Field specs of a serialised :class:`~monolith_envs.the_monolith.state.MonolithState` for game ``g``."""
    n, N, R, S, D, E, O = g.num_players, g.N, g.R, g.S, g.D, g.E, g.O
    seat, seat_or_none = Int(0, n - 1), Int(NONE, n - 1)
    space_or_none = Int(NONE, N - 1)
    heart = Int(0, 19)
    warrior = Int(0, 16)

    def per_seat(spec: Spec) -> List:
        return List(spec, length=n)

    return {
        "n": Int(n, n),
        "day": Int(1, g.num_days),
        "phase": _Member(Phase),
        "sub": _Member(Sub, (NONE,)),
        "current": seat_or_none, "first": seat, "surge": seat_or_none,
        "decisions": Int(0, BIG), "terminal": Bool(),
        "favour": per_seat(Int(0, BIG)),
        **{k: per_seat(heart) for k in ("available", "spent", "unearned", "tower_today", "tower_stuck")},
        "board": per_seat(List(heart, length=3)),
        **{k: per_seat(warrior) for k in ("reserves", "anger", "limbo")},
        "shaman_id": per_seat(Int(NONE, S - 1)),
        "shaman_space": per_seat(Int(0, N - 1)),
        "shaman_alive": per_seat(Bool()),
        "held": per_seat(List(Int(0, D - 1), max_len=4)),
        "objectives": per_seat(List(Int(0, O - 1), max_len=4)),
        "committed": per_seat(Bool()), "out": per_seat(Bool()),
        "kills_today": per_seat(Int(0, 16 * n)),
        "draft_bid": per_seat(Int(0, 19)),
        "living": List(per_seat(warrior), length=N), "dead": List(per_seat(warrior), length=N),
        "blood": List(Int(0, 6), length=N), "boast": List(per_seat(Int(0, 6)), length=N),
        "row": List(Int(NONE, D - 1), length=R), "bids": List(per_seat(heart), length=R),
        "div_deck": List(Int(0, D - 1), max_len=D), "div_discard": List(Int(0, D - 1), max_len=D),
        "event_deck": List(Int(0, E - 1), max_len=E), "event_discard": List(Int(0, E - 1), max_len=E),
        "events": _Pairs(Int(0, E - 1), space_or_none, E),
        "obj_deck": List(Int(0, O - 1), max_len=O), "obj_discard": _Pairs(Int(0, O - 1), Int(0, 1), O),
        "focus_slot": Int(NONE, R - 1), "march_src": space_or_none, "march_cur": space_or_none,
        "march_group": warrior, "march_steps": Int(0, BIG), "free_steps": Int(0, BIG), "sh_steps": Int(0, BIG),
        "rec_paid": heart, "rec_bonus": warrior, "rec_anywhere": Bool(),
        "man_space": space_or_none, "man_kind": Int(0, 1), "man_free": Bool(),
        "owed": Int(0, 4), "surge_first": Bool(), "free_fate": Int(0, BIG), "last_space": space_or_none,
        "win_kind": Int(NONE, int(max(Win))),
        "turn_used": List(Bool(), length=4), "win_used": List(Bool(), length=4),
        "event_focus": Int(NONE, E - 1),
        "d_nominator": seat_or_none, "d_shaman": Int(NONE, S - 1), "d_high": Int(NONE, 19),
        "d_high_bidder": seat_or_none, "d_last": seat_or_none,
        "d_passed": per_seat(Bool()), "d_claimed": List(Int(0, S - 1), max_len=S), "d_assigned": per_seat(Bool()),
        "stack": _Frames(max(N, D, E, O, 64)),
        # win_loss and rank pay at most 1; score pays score_scale * (favour - mean of the others)
        "cum": per_seat(Float(-g.config["score_scale"] * BIG, g.config["score_scale"] * BIG)
                        if g.reward_mode == "score" else Float(-1.0, 1.0)),
        "favour_floor": per_seat(Int(0, BIG)),
    }


def cross_check(g, s) -> None:
    """After the schema: a live decision (``sub``) unless the game is over, who decides it and in which phase
    (:func:`check_decider`), the docs §9 invariants, then :func:`~monolith_envs.core.state_schema.probe_state`
    (a legal action in a live game, observations in bounds, finite returns).

    Raises:
        StateError: naming what is inconsistent.
    """
    if not s.terminal and (s.sub == NONE or s.current == NONE):
        raise StateError(f"state.sub = {s.sub}, state.current = {s.current}: a game that is not over needs a "
                         "pending decision (a sub-phase) and its decider (a seat)")
    check_decider(g, s)
    check_invariants(g, s, "state breaks")
    probe_state(g, s)


# the phase of each sub-phase (docs §4): OBJ_DISCARD follows an objective draw, which any phase can hold
_DRAFT = (Sub.DRAFT_NOMINATE, Sub.DRAFT_OPEN_BID, Sub.DRAFT_RESPOND, Sub.DRAFT_FREE_PICK)
_ORDER_TURN = (Sub.ORDER_CHOOSE, Sub.MARCH_SOURCE, Sub.MARCH_GROUP, Sub.MARCH_STEP, Sub.MARCH_REGROUP,
               Sub.SHAMAN_STEP, Sub.RECRUIT_HEARTS, Sub.RECRUIT_PLACE, Sub.DIV_CARD, Sub.DIV_AMOUNT)
_TURN_OWNER = (Sub.ACTION_CHOOSE, Sub.MANEUVER_DEST, Sub.POWER_WINDOW, Sub.EXTRA_KILL)
PHASE_OF = {**{k: (Phase.SETUP,) for k in _DRAFT},
            Sub.OBJ_DISCARD: (Phase.SETUP, Phase.ORDER, Phase.ACTION, Phase.REST),
            **{k: (Phase.ORDER,) for k in _ORDER_TURN + (Sub.DIV_RAISE, Sub.DIV_DISCARD)},
            **{k: (Phase.ACTION,) for k in _TURN_OWNER},
            **{k: (Phase.REST,) for k in (Sub.OBJ_REVEAL, Sub.EVENT_PLACE, Sub.EVENT_MOVE)}}
"""The phases in which each sub-phase can be pending (docs §3, §4.4-§4.10)."""


def _top(s, *kinds):
    """The top frame of ``state.stack`` when its kind is one of ``kinds``, else None."""
    if s.stack and s.stack[-1][0] in kinds:
        return s.stack[-1]
    return None


def _need_frame(s, *kinds) -> list:
    fr = _top(s, *kinds)
    if fr is None:
        top = s.stack[-1] if s.stack else "nothing"
        want = " or ".join(f"[{Frame(k).name}, ...]" for k in kinds)
        raise state_error("state.stack", top if s.stack else [], f"{want} on top (last) for the pending "
                          f"{Sub(s.sub).name} (it holds {top})")
    return fr


def _event_move_decider(g, s) -> int:
    """EVENT_MOVE (docs §4.7 step 2b): the wandering event ``events[event_focus]`` is moved by the first seat in
    turn order that it paid (what it scores is read again: nothing it counts changes during step 2b)."""
    from .board import controllers
    from .effects import gain

    fr = _need_frame(s, Frame.REST_EVENTS)
    i = s.event_focus
    if not (0 <= i < len(s.events) and fr[1] == i + 1):
        raise state_error("state.event_focus", i, f"the index {fr[1] - 1} of the wandering event being moved "
                          f"(the REST_EVENTS step on top of state.stack, {fr}, goes on after it)")
    ev, sp = s.events[i]
    card = g.events[ev]
    if card.lifetime != "wandering" or card.scoring is None:
        raise state_error(f"state.events[{i}][0]", ev, "a wandering event that scores (only such an event is moved)")
    ctrl = controllers(g, s)
    payers = [p for p in turn_order(s) if gain(g, s, p, card.scoring, sp, ctrl) > 0]
    if not payers:
        raise state_error(f"state.events[{i}]", s.events[i], "a wandering event that paid a seat this rest phase "
                          "(its first payer moves it)")
    return payers[0]


def fixed_decider(g, s):
    """The seat the rules make decide ``s.sub`` from the rest of the state (docs §3-§4.10), or None where the
    state does not record it (an action-phase turn other than the surge holder's opening one: the turn passes
    clockwise among the seats not out, so any such seat may hold it).

    Also checks the data the pending sub-phase reads (its rule step on ``state.stack``, the draft and focus
    fields).

    Raises:
        StateError: naming the field that does not fit the pending decision.
    """
    sub, n = s.sub, s.n
    if sub in _DRAFT:
        if g.config["shaman_assignment"] != "draft":
            raise state_error("state.sub", sub, "no draft sub-phase: shaman_assignment is "
                              f"{g.config['shaman_assignment']!r}, not 'draft'")
        left = [p for p in turn_order(s) if not s.d_assigned[p]]
        if sub == Sub.DRAFT_FREE_PICK:
            if len(left) != 1:
                raise state_error("state.d_assigned", s.d_assigned, "exactly one seat without a shaman at "
                                  "DRAFT_FREE_PICK")
            return left[0]
        if len(left) < 2:
            raise state_error("state.d_assigned", s.d_assigned, f"two or more seats without a shaman at "
                              f"{Sub(sub).name}")
        if s.d_nominator != left[0]:
            raise state_error("state.d_nominator", s.d_nominator, f"{left[0]}, the first seat in turn order "
                              "without a shaman (it nominates)")
        if sub == Sub.DRAFT_NOMINATE:
            if s.d_shaman != NONE:
                raise state_error("state.d_shaman", s.d_shaman, "-1 before the nomination")
            return left[0]
        if s.d_shaman < 0 or s.d_shaman in s.d_claimed or s.d_shaman not in g.config["shaman_pool"]:
            raise state_error("state.d_shaman", s.d_shaman, "an unclaimed shaman of the pool (the one up for "
                              "auction)")
        if sub == Sub.DRAFT_OPEN_BID:
            return s.d_nominator
        for name in ("d_high", "d_high_bidder", "d_last"):
            if getattr(s, name) < 0:
                raise state_error(f"state.{name}", getattr(s, name), "set while the bids go round (DRAFT_RESPOND)")
        if s.d_assigned[s.d_high_bidder]:
            raise state_error("state.d_high_bidder", s.d_high_bidder, "a seat without a shaman")
        for k in range(1, n + 1):  # the next responder clockwise after the last bidder (opening._next_responder)
            q = (s.d_last + k) % n
            if not s.d_assigned[q] and not s.d_passed[q] and q != s.d_high_bidder:
                return q
        raise state_error("state.d_passed", s.d_passed, "a seat left to answer the high bid at DRAFT_RESPOND "
                          "(all others passed: the auction is over)")
    if sub == Sub.OBJ_DISCARD:
        fr = _need_frame(s, Frame.SETUP_DISCARD, Frame.OBJ_DRAW)
        if fr[0] == Frame.SETUP_DISCARD:
            if not 1 <= fr[1] <= n:
                raise state_error("state.stack", s.stack[-1], f"[SETUP_DISCARD, i, 0] with i from 1 to {n} (the "
                                  "turn-order index after the discarding seat)")
            return (s.first + fr[1] - 1) % n
        if not 0 <= fr[1] < n:
            raise state_error(f"state.stack[{len(s.stack) - 1}][1]", fr[1], "the drawing seat")
        return fr[1]
    if sub == Sub.DIV_RAISE:
        fr = _need_frame(s, Frame.TURN_START)
        if s.focus_slot != fr[2] - 1:
            raise state_error("state.focus_slot", s.focus_slot, f"{fr[2] - 1}, the row slot the TURN_START step on "
                              f"top of state.stack ({fr}) checks")
        return fr[1]
    if sub == Sub.DIV_DISCARD:
        over = [p for p in range(n) if len(s.held[p]) > 3]
        if len(over) != 1:
            raise state_error("state.held", s.held, "one seat holding 4 divinations (it discards one)")
        return over[0]
    if sub in _ORDER_TURN:
        fr = _need_frame(s, Frame.NEXT_TURN)
        if sub in (Sub.MARCH_GROUP, Sub.MARCH_STEP, Sub.MARCH_REGROUP) and (s.march_src < 0 or s.march_cur < 0):
            raise state_error("state.march_src" if s.march_src < 0 else "state.march_cur",
                              min(s.march_src, s.march_cur), f"a space during the march ({Sub(sub).name})")
        if sub == Sub.DIV_AMOUNT and (s.focus_slot < 0 or s.row[s.focus_slot] < 0):
            raise state_error("state.focus_slot", s.focus_slot, "a row slot holding a card (DIV_AMOUNT bids on it)")
        return fr[1]
    if sub in _TURN_OWNER:
        if sub == Sub.POWER_WINDOW:
            if s.win_kind not in (Win.AFTER_SLAY, Win.AFTER_MANEUVER, Win.AFTER_BOAST):
                raise state_error("state.win_kind", s.win_kind, f"an after-action window ({int(Win.AFTER_SLAY)}, "
                                  f"{int(Win.AFTER_MANEUVER)} or {int(Win.AFTER_BOAST)}) at POWER_WINDOW")
            return _need_frame(s, Frame.AFTER_ACTION)[1]
        if sub == Sub.EXTRA_KILL:
            if s.last_space < 0:
                raise state_error("state.last_space", s.last_space, "the space of the slay (EXTRA_KILL)")
            return _need_frame(s, Frame.EXTRA_KILL)[1]
        if sub == Sub.MANEUVER_DEST:
            if s.man_space < 0:
                raise state_error("state.man_space", s.man_space, "the space of the maneuvered unit (MANEUVER_DEST)")
            if s.man_free:
                return _need_frame(s, Frame.MOVE_AGAIN)[1]
        return s.surge if s.surge_first else None
    if sub == Sub.OBJ_REVEAL:
        fr = _need_frame(s, Frame.REST_OBJ)
        if not 0 <= fr[1] < n:
            raise state_error("state.stack", s.stack[-1], f"[REST_OBJ, i, 0] with i from 0 to {n - 1}")
        return (s.first + fr[1]) % n
    if sub == Sub.EVENT_PLACE:
        if s.event_focus < 0:
            raise state_error("state.event_focus", s.event_focus, "the drawn event (EVENT_PLACE places it)")
        return _need_frame(s, Frame.EVENT_REVEAL)[1]
    return _event_move_decider(g, s)  # EVENT_MOVE


def check_decider(g, s) -> None:
    """Who acts now and in which phase agree with the rest of the state (docs §3-§4.10): the phase of the
    sub-phase, the seat the rules make decide it (:func:`fixed_decider`), the surge holder's opening turn, the
    actions owed, and the ``out`` and ``committed`` flags the turn order reads.

    Not checked (the state does not record enough to derive them): the seat of an action turn
    (``ACTION_CHOOSE``, a paid ``MANEUVER_DEST``) other than the surge holder's opening turn, as no field
    names whose turn it is besides ``current``; a sub-phase swapped for another of the same phase whose data
    happens to fit; a first player changed outside the decisions that derive from it. Such a state plays on
    consistently under the rules.

    Raises:
        StateError: naming the field (``state.current``, ``state.sub``, ``state.phase``, ...) and what the rest
            of the state allows.
    """
    n, phase = s.n, s.phase
    if s.terminal:
        if phase != Phase.GAME_OVER or s.sub != NONE or s.current != NONE:
            bad = "phase" if phase != Phase.GAME_OVER else "sub" if s.sub != NONE else "current"
            raise state_error(f"state.{bad}", getattr(s, bad), "GAME_OVER, sub -1 and current -1 once the game is "
                              "over (state.terminal)")
        return
    if phase not in PHASE_OF[s.sub]:
        raise state_error("state.sub", s.sub, f"a decision of the {Phase(phase).name} phase (state.phase); "
                          f"{Sub(s.sub).name} is one of " + "/".join(Phase(x).name for x in PHASE_OF[s.sub]))
    if phase == Phase.SETUP and s.day != 1:
        raise state_error("state.day", s.day, "1 during the setup")
    if s.surge >= 0 and not s.committed[s.surge]:
        raise state_error("state.surge", s.surge, "a committed seat (the first to commit takes the surge marker)")
    if phase in (Phase.SETUP, Phase.ORDER) and any(s.out):
        raise state_error("state.out", s.out, f"no seat out in the {Phase(phase).name} phase")
    if phase == Phase.SETUP and any(s.committed):
        raise state_error("state.committed", s.committed, "no seat committed during the setup")
    if phase == Phase.ACTION:
        cap = 4 if s.surge_first else 2
        if not 1 <= s.owed <= cap:
            raise state_error("state.owed", s.owed, f"1 to {cap} actions owed in an action-phase turn"
                              + (" (the surge holder's opening turn)" if s.surge_first else ""))
        if s.surge_first and s.current != s.surge:
            raise state_error("state.surge_first", True, f"false: seat {s.current} decides, not the surge holder "
                              f"{s.surge}")
        for q in range(n):  # a seat leaves the turn order once it has no heart on the board (docs §4.6)
            if q != s.current and s.out[q] != (sum(s.board[q]) == 0):
                raise state_error(f"state.out[{q}]", s.out[q], f"{sum(s.board[q]) == 0}: seat {q} has "
                                  f"{sum(s.board[q])} hearts on the action board")
    elif s.owed or s.surge_first:
        bad = "owed" if s.owed else "surge_first"
        raise state_error(f"state.{bad}", getattr(s, bad), f"{0 if s.owed else False} outside the action phase")
    want = fixed_decider(g, s)
    if want is not None and s.current != want:
        raise state_error("state.current", s.current, f"{want}: the seat the rules make decide "
                          f"{Sub(s.sub).name} here")
