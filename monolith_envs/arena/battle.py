"""Battles (docs/monolith_arena.md §4.7): the kill step, the initiative phases with their resolution steps
(Regeneration, wounds and HP, Venom, removal and the state check), Assassin strikes, the poison step, and
the end of a Battle (the Net-order marker, folding of the Monoliths, then the game goes on).

:func:`end_turn` (docs/monolith_arena.md §4.1 step 6) is here too: it starts the final Battle when the last
round is over, and a Battle Order's Battle ends the turn.
"""

from __future__ import annotations

from .board import NB
from .effects import dirty, dirty_mask, get_fx
from .endgame import banner_check, final_result, lose_hp
from .relocation import remove_tile, settle
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import BattleStage, Eff, Loc, Sub, Trigger
from .tables import ENEMY
from .turns import back_to_main, close_turn, next_seat, start_turn

__all__ = ["end_turn", "start_battle", "run_battle", "resolve_step", "activations", "attack_hits", "kill_step",
           "fold_monoliths", "end_of_battle", "strike_targets", "choose_strike_target"]

_START, _PHASES, _POISON, _END = (int(BattleStage.START), int(BattleStage.PHASES), int(BattleStage.POISON),
                                  int(BattleStage.END))


def _strongest_first(hit) -> tuple:
    """Sort key of the ``(strength, source_hex, venom)`` hits on one target: strongest first, then by
    ascending source hex (Regeneration cancels the first ones)."""
    return -hit[0], hit[1]


def end_turn(g, s) -> None:
    """Docs/monolith_arena.md §4.1 step 6: bookkeeping, then the final Battle or the next living seat's turn."""
    seat = s.turn_seat
    if close_turn(g, s):
        s.acting_seat = seat if s.alive[seat] else next_seat(g, s, seat)
        start_battle(g, s, Trigger.FINAL)
        return
    start_turn(g, s, next_seat(g, s, seat))


def resolve_step(g, s, fx, hits) -> None:
    """One resolution step: Regeneration, wounds/HP, venom, removal, state check (docs/monolith_arena.md §4.7).

    ``hits``: list of ``(target_hex, strength, source_hex, venom)``; ``fx`` = effects at step start.
    """
    if not hits:
        return
    board = s.board
    tough0 = fx.tough
    by_t = {}
    for x, st, src, ven in hits:
        by_t.setdefault(x, []).append((st, src, ven))
    consumed = []
    cset = set()
    live = []
    regen = fx.regen
    for x in sorted(by_t):
        lst = by_t[x]
        if len(lst) > 1:
            lst.sort(key=_strongest_first)
        k = 0
        if regen[x]:
            runes = [r for r in regen[x] if r not in cset]
            k = min(len(runes), len(lst))
            for r in runes[:k]:
                cset.add(r)
                consumed.append(r)
        for st, src, ven in lst[k:]:
            live.append((x, st, src, ven))
    for x, st, _src, _ven in live:
        inst = board[x]
        if inst % PER_SEAT == 0:
            lose_hp(g, s, inst // PER_SEAT, st)
        else:
            s.wounds[inst] += st
    # Venom candidates in ascending (target hex, source hex) order, with the instance hit
    venomous = sorted((x, src, board[x]) for x, st, src, ven in live if ven and st >= 1)
    wounds = s.wounds  # (the board is still that of fx: hits change wounds and HP only)
    # the supply of step 4: the markers of the tiles removed in step 5 are not back in it yet
    venom_supply = s.poison_supply
    gone = [board[h] for h in fx.occ if board[h] % PER_SEAT and wounds[board[h]] > tough0[h]]
    for r in consumed:
        if board[r] >= 0 and board[r] not in gone:
            gone.append(board[r])
    for i in gone:
        remove_tile(g, s, i)  # (updates or drops the cached effects)
    # wounds and HP are not inputs of the continuous effects: only the mask is stale
    dirty_mask(s)
    settle(g, s)
    # Venom (§4.7, step 4): a marker per venomous hit on a target that survives this step, that is still
    # on the board after the removals and the state check with its cascades (a Banner always survives),
    # while the supply of step 4 lasts: the markers of the tiles removed in step 5 return after the venom
    for x, _src, inst in venomous:
        if venom_supply <= 0:
            break
        if board[x] == inst:
            s.poison[inst] += 1
            s.poison_supply -= 1
            venom_supply -= 1


def start_battle(g, s, trigger: int) -> None:
    """Start a Battle (``trigger``: a :class:`~monolith_envs.arena.state.Trigger`) and run it (docs/monolith_arena.md §4.7)."""
    s.b_active = True
    s.b_trigger = int(trigger)
    s.b_stage = _START
    s.b_phase = -1
    s.b_acts = [0] * g.NI
    s.b_strikes = []
    s.b_targets = []
    s.p_effect = int(Eff.BATTLE)
    run_battle(g, s)


def activations(g, s, fx, p: int):
    """``[(hex, k)]``: tiles activating ``k`` times in phase ``p`` (docs/monolith_arena.md §4.7 step 3.2, D66)."""
    out = []
    board, b_acts = s.board, s.b_acts
    netted, disarmed, inits = fx.netted, fx.disarmed, fx.inits
    for h in fx.occ:
        vals = inits[h]
        if p not in vals or netted[h] or disarmed[h]:
            continue
        a = vals.count(p)
        # initiatives >= p: all of them when each equals p (the usual single initiative)
        k = (a if len(vals) == a else len([v for v in vals if v >= p])) - b_acts[board[h]]
        if k > a:
            k = a
        if k > 0:
            out.append((h, k))
    return out


def attack_hits(g, s, fx, h: int, k: int, extra_melee: int = 0, melee_only: bool = False):
    """Hits made by ``k`` activations of the tile on ``h`` (melee and ranged; strikes excluded)
    (docs/monolith_arena.md §4.7 Hits)."""
    tb = g.tables
    board = s.board
    inst = board[h]
    t = s.itype[inst]
    f = s.facing[inst]
    o = inst // PER_SEAT
    REL = g.rel[o]
    hits = []
    mb = fx.melee_b[h] + extra_melee
    ven = fx.venom[h]
    mrow = tb.melee[t][f]
    nb = NB[h]
    for d in tb.melee_dirs[t][f]:
        x = nb[d]
        if x >= 0 and board[x] >= 0 and REL[board[x] // PER_SEAT] == ENEMY:
            hits += [(x, mrow[d] + mb, h, ven)] * k
    if melee_only:
        return hits
    rrow = tb.ranged[t][f]
    for d in tb.ranged_dirs[t][f]:
        s0 = rrow[d] + fx.ranged_b[h]
        back = (d + 3) % 6
        x = NB[h][d]
        while x >= 0:
            j = board[x]
            if j >= 0 and REL[j // PER_SEAT] == ENEMY:
                st = s0 - (1 if fx.armor[x][back] else 0)
                if st > 0:
                    hits += [(x, st, h, False)] * k
                if not fx.pierce[h]:
                    break
            x = NB[x][d]
    return hits


def run_battle(g, s) -> None:
    """Run the Battle from its stored resume point until it ends or needs an ASSASSIN_TARGET choice
    (docs/monolith_arena.md §4.7 Sequence)."""
    tb = g.tables
    while True:
        if s.terminal:
            return
        st = s.b_stage
        if st == _START:
            fx = settle(g, s)
            kill_step(g, s, fx)
            fx = settle(g, s)
            P = 0
            inits = fx.inits
            for h in fx.occ:
                if inits[h]:
                    P = max(P, max(inits[h]))
            s.b_phase = P
            s.b_stage = _PHASES
        elif st == _PHASES:
            p = s.b_phase
            if p < 0:
                s.b_stage = _POISON
                continue
            fx = settle(g, s)
            acts = activations(g, s, fx, p)
            strikes = []
            for h, k in acts:
                if tb.strike[s.itype[s.board[h]]] > 0:
                    strikes.extend([h] * k)
            if strikes and len(s.b_targets) < len(strikes):
                s.b_strikes = strikes
                s.sub_phase = int(Sub.ASSASSIN_TARGET)
                s.p_effect = int(Eff.STRIKE)
                s.p_a = strikes[len(s.b_targets)]
                s.acting_seat = s.board[s.p_a] // PER_SEAT
                dirty_mask(s)
                return
            hits = []
            for h, k in acts:
                hits.extend(attack_hits(g, s, fx, h, k))
            for idx, sh in enumerate(strikes):
                si = s.board[sh]
                hits.append((s.b_targets[idx], tb.strike[s.itype[si]] + fx.melee_b[sh], sh, fx.venom[sh]))
            for h, k in acts:
                s.b_acts[s.board[h]] += k
            s.b_strikes = []
            s.b_targets = []
            s.p_a = -1
            resolve_step(g, s, fx, hits)
            if banner_check(g, s):
                return
            s.b_phase = p - 1
        elif st == _POISON:
            fx = settle(g, s)
            poison = s.poison
            hits = [(h, poison[i], -1, False) for h, i in enumerate(s.board) if i >= 0 and poison[i] > 0]
            resolve_step(g, s, fx, hits)
            if banner_check(g, s):
                return
            s.b_stage = _END
        else:
            end_of_battle(g, s)
            return


def kill_step(g, s, fx) -> None:
    """Docs/monolith_arena.md §4.7 step 2 (D29): kill edges remove enemy non-Banner tiles; killers are removed too."""
    board = s.board
    kill_dirs = g.tables.kill_dirs
    typ, fac, owner, netted, disarmed = fx.typ, fx.fac, fx.owner, fx.netted, fx.disarmed
    marked, killers = set(), set()
    for h in fx.occ:
        kd = kill_dirs[typ[h]][fac[h]]
        if not kd or netted[h] or disarmed[h]:
            continue
        i = board[h]
        rel = g.rel[owner[h]]
        nb = NB[h]
        for d in kd:
            x = nb[d]
            if x >= 0 and board[x] >= 0 and board[x] % PER_SEAT and rel[board[x] // PER_SEAT] == ENEMY:
                marked.add(board[x])
                killers.add(i)
    for i in marked | killers:
        remove_tile(g, s, i)


def fold_monoliths(g, s) -> None:
    """Docs/monolith_arena.md §4.10, at the end of a Battle: every unfolded Monolith none of whose contents is
    netted folds (its contents go back inside, its segments onto the Banner's hex)."""
    fx = get_fx(g, s)
    fold = []
    for p in range(g.n):
        if not s.alive[p] or s.mono_folded[p] or s.seg_hex[p][0] < 0:
            continue
        blocked = False
        for c in s.seg_content[p]:
            if c >= 0 and s.loc[c] == Loc.BOARD and fx.netted[s.hexof[c]]:
                blocked = True
        if not blocked:
            fold.append(p)
    for p in fold:
        for c in s.seg_content[p]:
            if c >= 0 and s.loc[c] == Loc.BOARD:
                s.board[s.hexof[c]] = -1
                s.hexof[c] = -1
                s.loc[c] = int(Loc.MONOLITH)
        b = s.hexof[p * PER_SEAT]
        s.seg_hex[p] = [b, b, b]
        s.mono_folded[p] = True
    if fold:
        dirty(s)


def end_of_battle(g, s) -> None:
    """Docs/monolith_arena.md §4.7 step 5: Net-order marker off, folding (§4.10), state check, then continue the game."""
    if s.net_marker_on >= 0:
        s.net_marker_on = -1
        dirty(s)
    else:
        dirty_mask(s)  # (the effects do not change)
    if g.module:
        fold_monoliths(g, s)
    settle(g, s)
    s.b_active = False
    s.b_stage = _START
    s.b_phase = -1
    s.b_strikes = []
    s.b_targets = []
    trig = s.b_trigger
    s.b_trigger = -1
    if trig == Trigger.FINAL:
        final_result(g, s)
        return
    if trig == Trigger.ORDER:
        end_turn(g, s)
        return
    if s.alive[s.turn_seat]:
        back_to_main(g, s)
    else:
        end_turn(g, s)


def strike_targets(g, s, seat: int) -> list:
    """ASSASSIN_TARGET options: hexes of the enemy tiles of ``seat``
    (docs/monolith_arena.md §4.7 step 3.2, §6.2)."""
    board, rel = s.board, g.rel[seat]
    return [h for h in range(len(board)) if board[h] >= 0 and rel[board[h] // PER_SEAT] == ENEMY]


def choose_strike_target(g, s, x: int) -> None:
    """ASSASSIN_TARGET: the pending strike hits the tile on ``x``; the next strike, or the Battle goes on
    (docs/monolith_arena.md §4.7 step 3.2, D28)."""
    s.b_targets.append(x)
    if len(s.b_targets) < len(s.b_strikes):
        s.p_a = s.b_strikes[len(s.b_targets)]
        s.acting_seat = s.board[s.p_a] // PER_SEAT
        dirty_mask(s)
        return
    s.sub_phase = int(Sub.MAIN)  # internal; the battle sets the next decision point
    s.acting_seat = s.turn_seat
    run_battle(g, s)
