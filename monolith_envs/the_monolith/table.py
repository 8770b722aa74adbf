"""One table from sub-phase to (mask function, apply function) (docs §6.2), and the frame handlers.

``mask(g, s, p) -> list[int]`` gives the legal actions of decider ``p``; ``apply(g, s, p, a, rng)``
resolves a legal action. ``FRAMES[kind](g, s, a, b, rng)`` runs one pending rule step.
"""

from __future__ import annotations

from . import action_phase as act
from . import opening as op
from . import orders as od
from . import rest as rs
from .state import Frame, Sub

__all__ = ["TABLE", "FRAMES"]

TABLE: dict = {
    Sub.DRAFT_NOMINATE: (op.mask_draft_pick, op.apply_draft_nominate),
    Sub.DRAFT_OPEN_BID: (op.mask_draft_open, op.apply_draft_open),
    Sub.DRAFT_RESPOND: (op.mask_draft_respond, op.apply_draft_respond),
    Sub.DRAFT_FREE_PICK: (op.mask_draft_pick, op.apply_draft_free_pick),
    Sub.OBJ_DISCARD: (rs.mask_obj_discard, rs.apply_obj_discard),
    Sub.DIV_RAISE: (od.mask_div_raise, od.apply_div_raise),
    Sub.DIV_DISCARD: (od.mask_div_discard, od.apply_div_discard),
    Sub.ORDER_CHOOSE: (od.mask_order_choose, od.apply_order_choose),
    Sub.MARCH_SOURCE: (od.mask_march_source, od.apply_march_source),
    Sub.MARCH_GROUP: (od.mask_march_group, od.apply_march_group),
    Sub.MARCH_STEP: (od.mask_march_step, od.apply_march_step),
    Sub.MARCH_REGROUP: (od.mask_march_regroup, od.apply_march_regroup),
    Sub.SHAMAN_STEP: (od.mask_shaman_step, od.apply_shaman_step),
    Sub.RECRUIT_HEARTS: (od.mask_recruit_hearts, od.apply_recruit_hearts),
    Sub.RECRUIT_PLACE: (od.mask_recruit_place, od.apply_recruit_place),
    Sub.DIV_CARD: (od.mask_div_card, od.apply_div_card),
    Sub.DIV_AMOUNT: (od.mask_div_amount, od.apply_div_amount),
    Sub.ACTION_CHOOSE: (act.mask_action_choose, act.apply_action_choose),
    Sub.MANEUVER_DEST: (act.mask_maneuver_dest, act.apply_maneuver_dest),
    Sub.POWER_WINDOW: (act.mask_power_window, act.apply_power_window),
    Sub.EXTRA_KILL: (act.mask_extra_kill, act.apply_extra_kill),
    Sub.OBJ_REVEAL: (rs.mask_obj_reveal, rs.apply_obj_reveal),
    Sub.EVENT_PLACE: (rs.mask_event_place, rs.apply_event_place),
    Sub.EVENT_MOVE: (rs.mask_event_move, rs.apply_event_move),
}


_SUBS = tuple(Sub)  # Sub(code) without the enum call (the members in code order)


def _resume(g, s, sub, p, rng):
    s.sub, s.current = _SUBS[sub], p


def _pay_discard(g, s, p, card, rng):
    """docs §4.8: the discard cost, after the effect; later slots shift down with their used flags."""
    k = s.held[p].index(card)
    s.held[p].pop(k)
    s.div_discard.append(card)
    for used in (s.turn_used, s.win_used):
        used[k:3] = used[k + 1:3] + [False]


FRAMES: dict = {
    Frame.NEXT_TURN: od.frame_next_turn,
    Frame.TURN_WINDOW: od.frame_turn_window,
    Frame.TURN_START: od.frame_turn_start,
    Frame.ORDER_CHOOSE: od.frame_order_choose,
    Frame.ACQ_SHAMAN: od.frame_acq_shaman,
    Frame.ACQ_DISCARD: od.frame_acq_discard,
    Frame.OBJ_DRAW: rs.frame_obj_draw,
    Frame.SETTLE: od.frame_settle,
    Frame.LIFT: od.frame_lift,
    Frame.ACTION_START: act.frame_action_start,
    Frame.ACTION_TURN: act.frame_action_turn,
    Frame.AFTER_ACTION: act.frame_after_action,
    Frame.RESUME: _resume,
    Frame.PAY_DISCARD: _pay_discard,
    Frame.EXTRA_KILL: act.frame_extra_kill,
    Frame.MOVE_AGAIN: act.frame_move_again,
    Frame.REST_DIVS: rs.frame_rest_divs,
    Frame.REST_EVENTS: rs.frame_rest_events,
    Frame.REST_OBJ: rs.frame_rest_obj,
    Frame.REST_TEMPLES: rs.frame_rest_temples,
    Frame.REST_BOASTS: rs.frame_rest_boasts,
    Frame.REST_SCRIPT: rs.frame_rest_script,
    Frame.REST_END: rs.frame_rest_end,
    Frame.EVENT_REVEAL: rs.frame_event_reveal,
    Frame.START_DAY: rs.frame_start_day,
    Frame.SETUP_DISCARD: op.frame_setup_discard,
    Frame.DRAFT_NEXT: op.frame_draft_next,
    Frame.FINISH_SETUP: op.frame_finish_setup,
    Frame.REST_BLOOD: act.frame_rest_blood,
}
