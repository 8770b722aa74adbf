"""Plain-data state of a match of The Monolith (docs/the_monolith.md §2) and its named codes.

Everything is lists of ints/bools (so :mod:`monolith_envs.core.state` clones, compares and serialises
it). Per-player lists have one entry per seat; per-space lists one per map space (locked spaces keep
zeros). Decks are lists of card indices with the top at index 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum
from typing import Any

from ..core.state import state_class, transient

__all__ = ["Phase", "Sub", "Frame", "Win", "Zone", "MonolithState", "NONE", "SHAMAN_SLOT", "MOVES_WARRIOR",
           "MOVES_SHAMAN", "fast_clone"]

NONE = -1
#: power slot of the shaman's ability (``use_power(3)``); slots 0-2 are the held divinations (docs §4.8)
SHAMAN_SLOT = 3
#: ``man_kind``, what a maneuver moves (docs §4.6 maneuver): a warrior, or the seat's shaman
MOVES_WARRIOR, MOVES_SHAMAN = 0, 1


class Phase(IntEnum):
    """docs §2: the phase of the day (observation piece ``phase``)."""

    SETUP = 0
    ORDER = 1
    ACTION = 2
    REST = 3
    GAME_OVER = 4


class Sub(IntEnum):
    """docs §6.2: the decision kinds, in the observation's one-hot order."""

    DRAFT_NOMINATE = 0
    DRAFT_OPEN_BID = 1
    DRAFT_RESPOND = 2
    DRAFT_FREE_PICK = 3
    OBJ_DISCARD = 4
    DIV_RAISE = 5
    DIV_DISCARD = 6
    ORDER_CHOOSE = 7
    MARCH_SOURCE = 8
    MARCH_GROUP = 9
    MARCH_STEP = 10
    MARCH_REGROUP = 11
    SHAMAN_STEP = 12
    RECRUIT_HEARTS = 13
    RECRUIT_PLACE = 14
    DIV_CARD = 15
    DIV_AMOUNT = 16
    ACTION_CHOOSE = 17
    MANEUVER_DEST = 18
    POWER_WINDOW = 19
    EXTRA_KILL = 20
    OBJ_REVEAL = 21
    EVENT_PLACE = 22
    EVENT_MOVE = 23


# What each decision asks, for the reason of an illegal action (docs §4 and §6.2).
SUB_ASKS = {
    Sub.DRAFT_NOMINATE: "the shaman draft: name an unclaimed shaman (§4.10)",
    Sub.DRAFT_OPEN_BID: "the shaman draft: open the bid on the named shaman (§4.10)",
    Sub.DRAFT_RESPOND: "the shaman draft: bid higher or pass (§4.10)",
    Sub.DRAFT_FREE_PICK: "the shaman draft: take an unclaimed shaman for free (§4.10)",
    Sub.OBJ_DISCARD: "discard one objective card face down (§3, §4.7)",
    Sub.DIV_RAISE: "divination: raise the bid on the card or pass (§4.4)",
    Sub.DIV_DISCARD: "divination: with 4 cards held, discard one (§4.4)",
    Sub.ORDER_CHOOSE: "the order phase: march, shaman, recruit, divination or commit (§4.4)",
    Sub.MARCH_SOURCE: "march: pick the space to march from (§4.4)",
    Sub.MARCH_GROUP: "march: pick how many warriors march (§4.4)",
    Sub.MARCH_STEP: "march: step to an adjacent space or stop (§4.4)",
    Sub.MARCH_REGROUP: "march: set the new group size (§4.4)",
    Sub.SHAMAN_STEP: "the shaman order: step the shaman or stop (§4.4)",
    Sub.RECRUIT_HEARTS: "recruit: pay 2 or more hearts (§4.4)",
    Sub.RECRUIT_PLACE: "recruit: place one warrior on a recruit space (once the paid ones are placed, pass declines "
                       "the bonus warriors) (§4.4)",
    Sub.DIV_CARD: "divination: pick a card of the row to bid on (§4.4)",
    Sub.DIV_AMOUNT: "divination: pick the number of hearts to bid (§4.4)",
    Sub.ACTION_CHOOSE: "the action phase: slay, maneuver, boast, sacrifice, relent or manipulate fate (§4.6)",
    Sub.MANEUVER_DEST: "maneuver: pick the destination space (§4.6)",
    Sub.POWER_WINDOW: "use a power now or pass (§4.8)",
    Sub.EXTRA_KILL: "an extra kill in the same space (§4.8; there is no pass: it is entered only with a target)",
    Sub.OBJ_REVEAL: "the rest phase: reveal a scoring objective or pass (§4.7)",
    Sub.EVENT_PLACE: "the rest phase: place the drawn event on a space (§4.7)",
    Sub.EVENT_MOVE: "the rest phase: move the wandering event (§4.7)",
}


class Zone(IntEnum):
    """The three zones of the action board, in their clockwise order (docs §1)."""

    SLAY = 0
    MANEUVER = 1
    BOAST = 2


class Win(IntEnum):
    """Power windows (docs §4.8), in the order of ``content.WINDOWS``."""

    PASSIVE = 0
    ON_ACQUIRE = 1
    REST_SCORING = 2
    ORDER_TURN = 3
    MARCH = 4
    SHAMAN_ORDER = 5
    RECRUIT = 6
    ACTION_TURN = 7
    AFTER_SLAY = 8
    AFTER_MANEUVER = 9
    AFTER_BOAST = 10


class Frame(IntEnum):
    """Pending steps of the rules, kept on ``state.stack`` (top = last) between decisions.

    Each frame is a list ``[kind, a, b]``; see :mod:`monolith_envs.the_monolith.flow` for what each does.
    """

    NEXT_TURN = 0          # a = seat whose order just ended
    TURN_START = 1         # a = seat, b = next row slot to check
    ORDER_CHOOSE = 2       # a = seat: show ORDER_CHOOSE
    ACQ_SHAMAN = 3         # a = seat: the shaman's on_acquire ability
    ACQ_DISCARD = 4        # a = seat: DIV_DISCARD if 4 cards are held
    OBJ_DRAW = 5           # a = seat, b = draws left
    SETTLE = 6             # a = next row slot to settle
    LIFT = 7               # tower lift, then the action phase
    ACTION_START = 8
    ACTION_TURN = 9        # a = seat, b = 1 on the surge holder's first turn
    AFTER_ACTION = 10      # a = seat
    RESUME = 11            # a = sub-phase, b = seat: back to the decision where a power was used
    PAY_DISCARD = 12       # a = seat, b = divination index: the card's discard cost
    EXTRA_KILL = 13        # a = seat, b = kills left
    MOVE_AGAIN = 14        # a = seat, b = moves left
    REST_DIVS = 15         # rest step 2a
    REST_EVENTS = 16       # rest step 2b; a = index into events_in_play
    REST_OBJ = 17          # rest step 2c; a = turn-order index
    REST_TEMPLES = 18      # 2d
    REST_BOASTS = 19       # 2e
    REST_SCRIPT = 20       # 2f; a = turn-order index
    REST_END = 21          # step 3: final scoring or the reset up to the event draw
    EVENT_REVEAL = 22      # a = event index (placed or not), b = drawer
    START_DAY = 23         # order phase of the new day
    SETUP_DISCARD = 24     # a = turn-order index for the setup objective discard
    DRAFT_NEXT = 25        # next auction or the free pick
    FINISH_SETUP = 26      # shaman setups after the draft
    REST_BLOOD = 27        # rest step 1: blood leaves the board
    TURN_WINDOW = 28       # a = seat: a turn begins: the order_turn window opens, then TURN_START (§4.4)


@state_class
@dataclass
class MonolithState:
    """Every mutable fact of a match (docs §2). Field names follow the docs; ``stack`` holds the pending
    rule steps (:class:`Frame`), ``cum`` the cumulative returns."""

    n: int
    # shared
    day: int = 1
    phase: int = Phase.SETUP
    sub: int = NONE
    current: int = 0
    first: int = 0
    surge: int = NONE
    decisions: int = 0
    terminal: bool = False
    # per player
    favour: list = field(default_factory=list)
    available: list = field(default_factory=list)
    spent: list = field(default_factory=list)
    unearned: list = field(default_factory=list)
    tower_today: list = field(default_factory=list)
    tower_stuck: list = field(default_factory=list)
    board: list = field(default_factory=list)        # [p][zone]
    reserves: list = field(default_factory=list)
    anger: list = field(default_factory=list)
    limbo: list = field(default_factory=list)
    shaman_id: list = field(default_factory=list)
    shaman_space: list = field(default_factory=list)
    shaman_alive: list = field(default_factory=list)
    held: list = field(default_factory=list)         # [p] list of divination indices
    objectives: list = field(default_factory=list)   # [p] list of objective indices
    committed: list = field(default_factory=list)
    out: list = field(default_factory=list)
    kills_today: list = field(default_factory=list)
    draft_bid: list = field(default_factory=list)
    # per space
    living: list = field(default_factory=list)       # [s][p]
    dead: list = field(default_factory=list)         # [s][p]
    blood: list = field(default_factory=list)        # [s]
    boast: list = field(default_factory=list)        # [s][p]
    # cards
    row: list = field(default_factory=list)          # [R] divination index or -1
    bids: list = field(default_factory=list)         # [R][p]
    div_deck: list = field(default_factory=list)
    div_discard: list = field(default_factory=list)
    event_deck: list = field(default_factory=list)
    event_discard: list = field(default_factory=list)
    events: list = field(default_factory=list)       # [[event index, space or -1], ...] in reveal order
    obj_deck: list = field(default_factory=list)
    obj_discard: list = field(default_factory=list)  # [[objective index, face_up 0/1], ...]
    # decision context (docs §2)
    focus_slot: int = NONE
    march_src: int = NONE
    march_cur: int = NONE
    march_group: int = 0
    march_steps: int = 0
    free_steps: int = 0
    sh_steps: int = 0
    rec_paid: int = 0
    rec_bonus: int = 0
    rec_anywhere: bool = False
    man_space: int = NONE
    man_kind: int = MOVES_WARRIOR
    man_free: bool = False
    owed: int = 0
    surge_first: bool = False
    free_fate: int = 0
    last_space: int = NONE
    win_kind: int = NONE
    turn_used: list = field(default_factory=lambda: [False] * 4)
    win_used: list = field(default_factory=lambda: [False] * 4)
    event_focus: int = NONE                         # event index being placed or moved
    # draft
    d_nominator: int = NONE
    d_shaman: int = NONE
    d_high: int = NONE
    d_high_bidder: int = NONE
    d_last: int = NONE
    d_passed: list = field(default_factory=list)
    d_claimed: list = field(default_factory=list)
    d_assigned: list = field(default_factory=list)
    # flow and returns
    stack: list = field(default_factory=list)
    cum: list = field(default_factory=list)
    favour_floor: list = field(default_factory=list)  # favour before the last apply (invariant 9)
    legal_cache: Any = transient()  # legal actions of the pending decision (mutating a state by hand: clear it)


_NESTED = ("board", "held", "objectives", "living", "dead", "boast", "bids", "events", "obj_discard", "stack")
_FLAT = tuple(f.name for f in fields(MonolithState) if f.type == "list" and f.name not in _NESTED)
_SCALAR = tuple(f.name for f in fields(MonolithState) if f.type != "list" and f.name != "legal_cache")


def fast_clone(s: MonolithState) -> MonolithState:
    """An exact, independent copy (lists of ints and lists of lists of ints copied by slicing; the legal
    action cache, a transient field, is not copied): the same result as ``core.state.clone_state``."""
    new = object.__new__(MonolithState)
    for name in _SCALAR:
        setattr(new, name, getattr(s, name))
    for name in _FLAT:
        setattr(new, name, getattr(s, name)[:])
    for name in _NESTED:
        setattr(new, name, [x[:] for x in getattr(s, name)])
    new.legal_cache = None
    return new
