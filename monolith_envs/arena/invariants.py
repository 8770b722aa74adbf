"""The invariants of a Monolith Arena state (docs/monolith_arena.md §9), checked by the tests after every
step of seeded games and by ``check_env``.
"""

from __future__ import annotations

from ..core.game import InvariantError
from .board import ADJ, NUM_HEXES
from .context import cap
from .effects import get_fx
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Loc, Sub
from .table import compute_mask

__all__ = ["check_invariants"]


def check_invariants(g, state) -> None:
    """Docs/monolith_arena.md §9 invariants 1-10, 15, 16 on the state ``state`` of the rules context ``g``.

    Raises:
        InvariantError: naming the invariant and the offending values.
    """
    s = state
    n, H = g.n, g.H

    def bad(k, msg):
        raise InvariantError(f"monolith_arena invariant {k}: {msg}")

    NI = g.NI
    seen = [0] * NI
    for q in range(n):
        for i in s.deck[q]:
            seen[i] += 1
            if s.loc[i] != Loc.DECK or i // PER_SEAT != q:
                bad(1, f"deck tile {i} has loc {s.loc[i]}")
        for i in s.hand[q]:
            if i >= 0:
                seen[i] += 1
                if s.loc[i] != Loc.HAND or i // PER_SEAT != q:
                    bad(1, f"hand tile {i} has loc {s.loc[i]}")
        for i in s.discard[q]:
            seen[i] += 1
            if s.loc[i] != Loc.DISCARD:
                bad(1, f"discarded tile {i} has loc {s.loc[i]}")
    for h in range(NUM_HEXES):
        i = s.board[h]
        if i >= 0:
            seen[i] += 1
            if s.loc[i] != Loc.BOARD:
                bad(2, f"board[{h}]={i} but loc {s.loc[i]}")
            if s.hexof[i] != h:
                bad(2, f"board[{h}]={i} but hexof {s.hexof[i]}")
    mono_set = set()
    if g.module:
        for q in range(n):
            for c in s.seg_content[q]:
                if c >= 0:
                    if c in mono_set:
                        bad(5, f"tile {c} is the content of two segments")
                    mono_set.add(c)
                    if s.loc[c] == Loc.MONOLITH:
                        seen[c] += 1
    loc, hexof, board, poison, facing = s.loc, s.hexof, s.board, s.poison, s.facing
    on_tiles = 0
    for i in range(NI):
        lc = loc[i]
        if lc == Loc.OUT or lc == Loc.SETUP:
            seen[i] += 1
        elif lc == Loc.MONOLITH:
            if i not in mono_set:
                bad(1, f"tile {i} is in a Monolith but no segment holds it")
        elif lc == Loc.BOARD:
            if board[hexof[i]] != i:
                bad(2, f"tile {i} on board at {hexof[i]} but board holds {board[hexof[i]]}")
        if lc != Loc.BOARD and hexof[i] != -1:
            bad(2, f"tile {i} off board has hexof {hexof[i]}")
        if seen[i] != 1:
            bad(1, f"tile {i} found in {seen[i]} places (loc {lc})")
        pz = poison[i]
        if pz:
            if lc != Loc.BOARD and lc != Loc.MONOLITH:
                bad(7, f"tile {i} off the board holds {pz} poison markers")
            on_tiles += pz
        f = facing[i]
        if not 0 <= f <= 5:
            bad(16, f"tile {i} facing {f}")
        if f and i % PER_SEAT == 0:
            bad(16, f"Banner {i} facing {f}")
    setup = s.sub_phase in (Sub.SETUP_PICK, Sub.SETUP_BANNER)
    for q in range(n):
        if not setup and s.alive[q] and s.loc[q * PER_SEAT] != Loc.BOARD:
            bad(1, f"living seat {q}'s Banner is not on the board")
    # 3
    for q in range(n):
        if len(s.hand[q]) != H:
            bad(3, f"seat {q} hand has {len(s.hand[q])} slots")
    # 4: deck order checked by tests (removal from the top only)
    # 5
    if g.module and not setup:
        occupied = {}
        for q in range(n):
            if not s.alive[q]:
                continue
            sh = s.seg_hex[q]
            B = s.hexof[q * PER_SEAT]
            if s.mono_folded[q]:
                if sh != [B, B, B]:
                    bad(5, f"folded Monolith of seat {q} at {sh}, Banner at {B}")
                for c in s.seg_content[q]:
                    if c >= 0 and s.loc[c] != Loc.MONOLITH:
                        bad(5, f"folded Monolith of seat {q} holds tile {c} with loc {s.loc[c]}")
            else:
                if len(set(sh)) != 3:
                    bad(5, f"unfolded Monolith of seat {q} on hexes {sh}")
                if sh[0] != B:
                    bad(5, f"Banner of seat {q} at {B}, segment 1 at {sh[0]}")
                for k in range(3):
                    others = [sh[j] for j in range(3) if j != k]
                    if not any(ADJ[sh[k], x] for x in others):
                        bad(5, f"segment {k + 1} of seat {q} at {sh[k]} is separated")
                for k in (0, 1):
                    c = s.seg_content[q][k]
                    if c < 0 and s.board[sh[k + 1]] >= 0:
                        bad(5, f"segment {k + 2} of seat {q} is empty but its hex {sh[k + 1]} holds "
                               f"instance {s.board[sh[k + 1]]}")
                    if c >= 0 and (s.loc[c] != Loc.BOARD or s.hexof[c] != sh[k + 1]):
                        if s.sub_phase != int(Sub.UNFOLD_FACING):
                            bad(5, f"content {c} of seat {q} segment {k + 2} not on {sh[k + 1]}")
            for h in set(sh):
                if h in occupied:
                    bad(5, f"hex {h} holds segments of seats {occupied[h]} and {q}")
                occupied[h] = q
    # 6
    if not s.terminal and s.sub_phase != int(Sub.UNFOLD_FACING):
        fx = get_fx(g, s)
        for h in range(NUM_HEXES):
            i = s.board[h]
            if i >= 0 and i % PER_SEAT and s.wounds[i] > fx.tough[h]:
                bad(6, f"tile {i} on hex {h} has {s.wounds[i]} wounds > toughness {fx.tough[h]}")
    # 7
    if not 0 <= s.poison_supply <= 5:
        bad(7, f"poison supply {s.poison_supply}")
    if on_tiles + s.poison_supply != 5:
        bad(7, f"poison supply {s.poison_supply} + markers on tiles {on_tiles} != 5")
    for name in ("net_marker_on", "entrench_on"):
        m = getattr(s, name)
        if m >= 0 and s.loc[m] not in (Loc.BOARD, Loc.MONOLITH):
            bad(7, f"{name} on tile {m} with loc {s.loc[m]}")
    # 8
    if any(h < 0 for h in s.hp) or any(p < 0 for p in s.pool):
        bad(8, f"negative HP {s.hp} / pools {s.pool}")
    # 9
    if s.last_round and not s.terminal:
        mk = compute_mask(g, s)
        for k in range(H):
            i = s.hand[s.acting_seat][k] if s.acting_seat >= 0 else -1
            if mk[g.off.ORDER + k] and g.tables.order[s.itype[i]].effect == "battle":
                bad(9, "a Battle Order is legal during the last round")
    # 10
    if not s.terminal:
        if not 0 <= s.acting_seat < n or not s.alive[s.acting_seat]:
            bad(10, f"acting seat {s.acting_seat} is not a living seat")
        if s.uses > cap(g, s):
            bad(10, f"uses {s.uses} > cap {cap(g, s)}")
    elif s.acting_seat != -1:
        bad(10, "terminal state with an acting seat")
    # 15
    for q in range(n):
        if q != s.turn_seat and any(s.fresh[q]):
            bad(15, f"seat {q} has fresh tiles outside its turn")
        for k in range(H):
            if s.fresh[q][k] and s.hand[q][k] < 0:
                bad(15, f"seat {q} slot {k} fresh but empty")
    if s.unfolded and s.placed and not s.exception_used:
        bad(15, "a placement in a turn with an unfold that is not the exception placement")
    # 16: checked in the per-instance pass above
