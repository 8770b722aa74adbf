"""Tiles entering, moving on and leaving the board (docs/monolith_arena.md §4.5, §4.6 step 6, §2.3).

:func:`place_on_board`, :func:`relocate` (with the Monolith's inseparability, :func:`can_relocate`),
:func:`remove_tile` (markers back to their supplies) and :func:`settle`, the state check that removes every
non-Banner tile over its toughness until nothing changes.  Every function keeps the caches consistent.
"""

from __future__ import annotations

from .board import ADJ
from .effects import dirty, get_fx
from .effects_update import remove_fx
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Loc

__all__ = ["conn3", "remove_tile", "settle", "can_relocate", "relocate", "place_on_board"]

_ADJ = tuple(tuple(bool(v) for v in row) for row in ADJ)
_L_BOARD, _L_DISCARD = int(Loc.BOARD), int(Loc.DISCARD)


def conn3(a: int, b: int, c: int) -> bool:
    """Each of the three hexes is adjacent to at least one of the other two (a Monolith's segments)."""
    A = _ADJ
    return (A[a][b] or A[a][c]) and (A[b][a] or A[b][c]) and (A[c][a] or A[c][b])


def _clear_markers(s, inst: int) -> None:
    if s.poison[inst]:
        s.poison_supply += s.poison[inst]
        s.poison[inst] = 0
    if s.net_marker_on == inst:
        s.net_marker_on = -1
    if s.entrench_on == inst:
        s.entrench_on = -1
    s.wounds[inst] = 0


def _drop_segment_ref(s, inst: int) -> None:
    for p in range(s.num_players):
        sc = s.seg_content[p]
        for k in (0, 1):
            if sc[k] == inst:
                sc[k] = -1


def remove_tile(g, s, inst: int, to: int = Loc.DISCARD) -> None:
    """Take ``inst`` off the board (or out of a Monolith) to its discard pile (or ``Loc.OUT``).

    Markers return to their supplies and wounds are cleared (docs/monolith_arena.md §4.6 step 6, §2.3).  A segment whose
    content leaves becomes empty.  The cached mask is dropped; the cached effects are replaced by
    :func:`remove_fx` when it applies, else dropped.
    """
    h = s.hexof[inst]
    nfx = None
    if h >= 0 and s.board[h] == inst:
        fx = s.fx_cache  # (a cached Fx is always that of the current position)
        if fx is not None:
            nfx = remove_fx(g, s, fx, h)
        s.board[h] = -1
    s.hexof[inst] = -1
    if g.module:
        _drop_segment_ref(s, inst)
    _clear_markers(s, inst)
    to = int(to)
    s.loc[inst] = to
    if to == _L_DISCARD:
        s.discard[inst // PER_SEAT].append(inst)
    s.fx_cache = nfx  # dirty(s), keeping the derived effects when remove_fx gave them
    s.mask_cache = None


def settle(g, s):
    """State check (docs/monolith_arena.md §4.6 step 6, D14): recompute effects and remove every non-Banner tile with
    ``wounds > toughness`` until nothing changes. Returns the final :class:`Fx`."""
    while True:
        fx = get_fx(g, s)
        wounds = s.wounds
        if wounds.count(0) == len(wounds):  # no wounds (toughness is never negative: printed >= 0, bonuses >= 1)
            return fx
        board, tough = s.board, fx.tough
        dead = [board[h] for h in fx.occ if wounds[board[h]] > tough[h] and board[h] % PER_SEAT]
        if not dead:
            return fx
        for i in dead:
            remove_tile(g, s, i)


def can_relocate(g, s, fx, src: int, dest: int) -> bool:
    """May the tile on ``src`` relocate to ``dest`` (docs/monolith_arena.md §4.5, D41, D42, inseparability)?"""
    if dest < 0 or dest == src or s.board[dest] >= 0:
        return False
    if not g.module:
        return True
    p = fx.segowner[src]
    if p < 0:
        return True  # not in a segment: any empty hex, empty segments included
    if fx.segowner[dest] >= 0:
        return False
    if s.mono_folded[p]:
        return True
    k = fx.segk[src]
    pos = list(s.seg_hex[p])
    pos[k] = dest
    return conn3(pos[0], pos[1], pos[2])


def relocate(g, s, fx, inst: int, dest: int) -> None:
    """Move ``inst`` to the empty hex ``dest`` carrying its segment, or entering an empty segment."""
    src = s.hexof[inst]
    carried = None
    if g.module and fx.segowner[src] >= 0:
        carried = (fx.segowner[src], fx.segk[src])
    entering = None
    if g.module and carried is None and fx.segowner[dest] >= 0:
        entering = (fx.segowner[dest], fx.segk[dest])
    s.board[src] = -1
    s.board[dest] = inst
    s.hexof[inst] = dest
    if carried is not None:
        p, k = carried
        if s.mono_folded[p]:
            s.seg_hex[p] = [dest, dest, dest]
        else:
            s.seg_hex[p][k] = dest
    if entering is not None:
        p, k = entering
        if k >= 1 and s.seg_content[p][k - 1] < 0:
            s.seg_content[p][k - 1] = inst
            s.seg_revealed[p][k - 1] = True
    dirty(s)


def place_on_board(g, s, fx, inst: int, h: int, f: int) -> None:
    """Put ``inst`` on the empty hex ``h`` at facing ``f`` (an empty segment there takes it as content)."""
    s.board[h] = inst
    s.hexof[inst] = h
    s.facing[inst] = f
    s.loc[inst] = _L_BOARD
    if g.module and fx.segowner[h] >= 0:
        p, k = fx.segowner[h], fx.segk[h]
        if k >= 1 and s.seg_content[p][k - 1] < 0:
            s.seg_content[p][k - 1] = inst
            s.seg_revealed[p][k - 1] = True
    dirty(s)
