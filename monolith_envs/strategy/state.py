"""Plain-data state of ``monolith_strategy_v0`` and the names of its phases and decision kinds
(docs/monolith_strategy.md §2.3, §6.2).

Everything in :class:`StrategyState` is an int, bool, list, dict or None, so ``core.state`` clones, compares
and serialises it.  Conventions:

* ``board[pos]`` for pos 1-13 is a board-card index (``Content.board``) or -1; ``board[0]`` is unused.
* board socket ``sid`` (0-51) = ``(pos - 1) * 4 + socket_index``; ``sock_seat[sid]`` is -1 (empty) or the
  occupant's seat, ``sock_face[sid]`` its face (0 when empty).
* ``pool[p][f]`` counts unsocketed dice of seat p showing face ``f + 1``.
* ``priv[p]`` lists p's private Runes as ``{"card", "revealed", "occ": [face or 0] * 4}`` (slot order).
* ``pending`` is the open decision: ``{"k": Kind, "seat": decider, ...context}`` (None only when terminal).
* ``tasks`` is the effect work stack (top = last): JSON records ``{"t": name, ...}`` (docs §4.20).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from ..core.state import state_class, transient

__all__ = ["Phase", "Kind", "Side", "Flow", "StrategyState", "ITEM_TYPE", "ITEM_GEMS", "ITEM_CARD", "GEMS_LEFT",
           "CARD_KIND", "CARD_LEFT", "CARD_PAID"]

# An earmark of the Final Scoring reveal (docs §4.18), an entry of ``state.reveal[p]["items"]``: a plain list, as
# it is saved with the state and changed in place, ``[ITEM_GEMS, gems left]`` or
# ``[ITEM_CARD, card kind, gems left, paid]``. These name its type and its fields.
ITEM_TYPE = 0
#: ``item[ITEM_TYPE]``: physical gems, or one copy of a gem card
ITEM_GEMS, ITEM_CARD = "g", "c"
#: an ITEM_GEMS item: the earmarked gems not yet used
GEMS_LEFT = 1
#: an ITEM_CARD item: the card kind, its gems not yet used, whether the copy already went to the pile
CARD_KIND, CARD_LEFT, CARD_PAID = 1, 2, 3


class Phase(IntEnum):
    """Phase of the round (docs §4.1); the observation's phase one-hot uses this order."""

    SETUP = 0
    ACTION = 1
    RESOLUTION = 2
    ADVANCEMENT = 3
    FINAL = 4
    OVER = 5


class Kind(IntEnum):
    """Decision kinds = sub-phases (docs §6.2); 0 means no decision (terminal)."""

    NONE = 0
    BONUS = 1
    SIDE = 2
    TURN = 3
    OPPONENT = 4
    FACE_SRC = 5
    FACE_NEW = 6
    SOCKET_SRC = 7
    SOCKET_DST = 8
    SOCKET_BLOCK = 9
    RUNE_PICK = 10
    PAY_OFFER = 11
    PAY_MORE = 12
    DISCARD = 13
    REVEAL_COUNT = 14
    REVEAL_SRC = 15


class Side(IntEnum):
    """Side of the Round card (docs §4.2)."""

    NORMAL = 0
    EXALTED = 1


class Flow(IntEnum):
    """Next step of the round outline, run when the task stack is empty (docs §4.1)."""

    BONUS = 0          # opening start bonus (round 1)
    ROUND_CARD = 1     # roll and place the Round card, then SIDE
    CHANCE = 2         # everybody rolls (docs §4.4)
    EXALTED_START = 3  # docs §4.5
    ACTION = 4         # first turn of the Action Phase
    PRE = 5            # Player Powers (docs §4.8)
    RESOLUTION = 6     # docs §4.9
    ADVANCE = 7        # Advancement: clean-up, next Round card (docs §4.17)
    ADVANCE_REST = 8   # Advancement: cards back, Source die, Chance roll
    FINAL = 9          # Final Scoring (docs §4.18)
    END = 10           # rank and finish


@state_class
@dataclass
class StrategyState:
    """Every mutable fact of one match (docs §2.3). See the module docstring for the conventions."""

    n: int
    round: int = 1
    phase: int = 0
    flow: int = 0
    pending: Any = None
    tasks: list = field(default_factory=list)
    primus: int = 0
    primus_locked: bool = False
    source_gems: int = 0
    vp: list = field(default_factory=list)
    gems: list = field(default_factory=list)
    pool: list = field(default_factory=list)
    src_dice: list = field(default_factory=list)
    aside: list = field(default_factory=list)
    board: list = field(default_factory=lambda: [-1] * 14)
    rc_round: int = 0          # number of the Round card on the board (0: none yet)
    rc_pos: int = 0            # position it covers (0: none)
    rc_side: int = 0           # Side
    sock_seat: list = field(default_factory=lambda: [-1] * 52)
    sock_face: list = field(default_factory=lambda: [0] * 52)
    blocked: list = field(default_factory=lambda: [False] * 52)
    priv: list = field(default_factory=list)
    hand: list = field(default_factory=list)
    cast: list = field(default_factory=list)
    pp_queue: list = field(default_factory=list)
    skill_deck: list = field(default_factory=list)
    power_deck: list = field(default_factory=list)
    rune_deck: list = field(default_factory=list)
    skill_discard: list = field(default_factory=list)
    power_discard: list = field(default_factory=list)
    pp_gone: list = field(default_factory=list)
    pp_out: list = field(default_factory=list)      # undealt Player Power kinds (out of the game, unseen)
    guard: list = field(default_factory=list)
    chase: list = field(default_factory=list)       # per seat None or [marker, bonus]
    turn: dict = field(default_factory=lambda: {"player": 0, "left": 0, "socketed": False,
                                                "mandatory_done": False, "stack_ready": False})
    reveal: list = field(default_factory=list)      # per seat None or {"target", "items"}
    decisions: int = 0
    winner: int = -1               # VICTORY or final winner; -1 none (yet) or a tie (no winner)
    terminal: bool = False
    ranking: list = field(default_factory=list)     # final sort keys per seat (higher is better)
    legal_cache: Any = transient()  # legal actions of the open decision
    geo_cache: Any = transient()    # (rc_pos, rc_side, rc_round, Rules.geometry) for this board
    # (code that edits a state by hand calls core.state.clear_transient)


_LIST_FIELDS = ("vp", "gems", "src_dice", "aside", "sock_seat", "sock_face", "blocked", "skill_deck",
                "power_deck", "rune_deck", "skill_discard", "power_discard", "pp_gone", "pp_out", "guard",
                "ranking", "board")


def _deep(v):
    t = type(v)
    if t is dict:
        return {k: (x if type(x) in (int, bool, str) or x is None else _deep(x)) for k, x in v.items()}
    if t is list:
        return [x if type(x) in (int, bool, str) or x is None else _deep(x) for x in v]
    return v


def fast_clone(s: StrategyState) -> StrategyState:
    """An exact independent copy (the same result as ``core.state.clone_state``, several times faster);
    the transient cache is not copied."""
    new = copy.copy(s)
    for name in _LIST_FIELDS:
        setattr(new, name, getattr(s, name)[:])
    new.pool = [x[:] for x in s.pool]
    new.hand = [x[:] for x in s.hand]
    new.cast = [x[:] for x in s.cast]
    new.chase = [None if x is None else x[:] for x in s.chase]
    new.pp_queue = [x[:] for x in s.pp_queue]
    new.priv = [[{"card": e["card"], "revealed": e["revealed"], "occ": e["occ"][:]} for e in q] for q in s.priv]
    new.turn = dict(s.turn)
    new.tasks = [_deep(t) for t in s.tasks]
    new.pending = None if s.pending is None else _deep(s.pending)
    new.reveal = [None if r is None else _deep(r) for r in s.reveal]
    new.legal_cache = None
    return new  # geo_cache is shared: it is immutable and keyed by the Round card fields
