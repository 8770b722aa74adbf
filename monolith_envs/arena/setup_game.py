"""Setting up a match (docs/monolith_arena.md §3): factions, HP and shuffled decks; with the Monolith module
each seat's two hidden picks (SETUP_PICK); then each seat's Banner (SETUP_BANNER), after which seat 0's
first turn starts.
"""

from __future__ import annotations

from .board import NUM_HEXES
from .effects import dirty, dirty_mask
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import ArenaState, Loc, Sub
from .tables import Kind
from .turns import start_turn

__all__ = ["blank_state", "new_state", "pick_types", "pick_type", "banner_hexes", "place_banner"]

_BOARD_KINDS = (Kind.CHAMPION, Kind.RUNE)


def blank_state(g, faction_indices) -> ArenaState:
    """A state with factions assigned, all tiles not dealt (decks empty), HP set (docs/monolith_arena.md §3 steps 1, 3, 4)."""
    n, H, tb = g.n, g.H, g.tables
    NI = g.NI
    s = ArenaState(num_players=n, hand_size=H)
    s.factions = [int(x) for x in faction_indices]
    s.itype = [tb.fac_instances[s.factions[p]][i] for p in range(n) for i in range(PER_SEAT)]
    s.loc = [int(Loc.SETUP)] * NI
    s.hexof = [-1] * NI
    s.facing = [0] * NI
    s.wounds = [0] * NI
    s.poison = [0] * NI
    s.used = [0] * NI
    s.board = [-1] * NUM_HEXES
    s.deck = [[] for _ in range(n)]
    s.hand = [[-1] * H for _ in range(n)]
    s.fresh = [[False] * H for _ in range(n)]
    s.discard = [[] for _ in range(n)]
    s.hp = [tb.fac_hp[s.factions[p]] for p in range(n)]
    s.pool = [g.team_hp, g.team_hp] if g.team_mode else [0, 0]
    s.alive = [True] * n
    s.elim_order = [-1] * n
    s.mono_folded = [True] * n
    s.seg_hex = [[-1, -1, -1] for _ in range(n)]
    s.seg_content = [[-1, -1] for _ in range(n)]
    s.seg_revealed = [[False, False] for _ in range(n)]
    s.first_turn_done = [False] * n
    s.last_round_owed = [False] * n
    s.b_acts = [0] * NI
    s.cum_reward = [0.0] * n
    s.sub_phase = int(Sub.SETUP_PICK if g.module else Sub.SETUP_BANNER)
    s.acting_seat = 0
    s.turn_seat = 0
    return s


def new_state(g, rng) -> ArenaState:
    """Docs/monolith_arena.md §3 steps 1-4: factions (configured or a distinct random draw) and deck permutations."""
    tb = g.tables
    if g.config["factions"] == "random":
        fac = [int(x) for x in rng.choice(len(tb.fac_instances), size=g.n, replace=False)]
    else:
        fac = [tb.faction_index[f] for f in g.config["factions"]]
    s = blank_state(g, fac)
    loc, deck_loc = s.loc, int(Loc.DECK)
    for p in range(g.n):
        perm = rng.permutation(PER_SEAT - 1) + 1  # every instance but the Banner
        s.deck[p] = deck = [p * PER_SEAT + i for i in perm.tolist()]
        for i in deck:
            loc[i] = deck_loc
    return s


def pick_types(g, s, seat: int) -> list:
    """SETUP_PICK options: local type indices of the Champions and Runes still in ``seat``'s deck."""
    tb = g.tables
    fi = s.factions[seat]
    off = tb.fac_offset[fi]
    deck_types = {s.itype[i] for i in s.deck[seat]}
    return [loc for loc in range(tb.fac_ntypes[fi]) if tb.kind[off + loc] in _BOARD_KINDS and off + loc in deck_types]


def pick_type(g, s, local: int) -> None:
    """SETUP_PICK: the acting seat hides the lowest instance of its type ``local`` in its Monolith (segment 2,
    then 3); after its second pick the next seat picks, after the last seat the Banners are placed."""
    seat = s.acting_seat
    t = g.tables.fac_offset[s.factions[seat]] + local
    deck = s.deck[seat]
    inst = min(i for i in deck if s.itype[i] == t)
    deck.remove(inst)
    k = 0 if s.seg_content[seat][0] < 0 else 1
    s.seg_content[seat][k] = inst
    s.loc[inst] = int(Loc.MONOLITH)
    if k == 1:
        if seat + 1 < g.n:
            s.acting_seat = seat + 1
        else:
            s.acting_seat = 0
            s.sub_phase = int(Sub.SETUP_BANNER)
    dirty_mask(s)


def banner_hexes(g, s) -> list:
    """SETUP_BANNER options: the empty hexes."""
    return [h for h in range(NUM_HEXES) if s.board[h] < 0]


def place_banner(g, s, h: int) -> None:
    """SETUP_BANNER: the acting seat's Banner (carrying its folded Monolith) goes onto ``h``; after the last
    seat, seat 0's first turn starts."""
    seat = s.acting_seat
    b = seat * PER_SEAT
    s.board[h] = b
    s.hexof[b] = h
    s.facing[b] = 0
    s.loc[b] = int(Loc.BOARD)
    s.seg_hex[seat] = [h, h, h]
    s.mono_folded[seat] = True
    dirty(s)
    if seat + 1 < g.n:
        s.acting_seat = seat + 1
    else:
        start_turn(g, s, 0)
