"""Checks of a state read back by ``from_dict`` (docs §2, §9): the field schema, then the invariants.

A tampered or hand-edited state must fail here with a :class:`~monolith_envs.core.state.StateError` naming
the field, never later with an ``IndexError`` or ``KeyError`` inside the rules.
"""

from __future__ import annotations

from typing import Any

from ..core.state import StateError
from ..core.state_schema import Bool, Float, Int, List, Spec, check_invariants, probe_state, state_error
from .state import NONE, Frame, Phase, Sub, Win

__all__ = ["schema", "cross_check"]

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
        "phase": Int(int(min(Phase)), int(max(Phase))),
        "sub": Int(NONE, int(max(Sub))),
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
    """After the schema: a live decision (``sub``) unless the game is over, the docs §9 invariants, then
    :func:`~monolith_envs.core.state_schema.probe_state` (a legal action in a live game, observations in
    bounds, finite returns).

    Raises:
        StateError: naming what is inconsistent.
    """
    if not s.terminal and (s.sub == NONE or s.current == NONE):
        raise StateError(f"state.sub = {s.sub}, state.current = {s.current}: a game that is not over needs a "
                         "pending decision (a sub-phase) and its decider (a seat)")
    check_invariants(g, s, "state breaks")
    probe_state(g, s)
