"""The action phase (docs §4.6): turns, manipulate fate, slay, maneuver, boast, sacrifice, relent, the
after-action power windows, extra kills and extra moves."""

from __future__ import annotations

from .board import has_enemy_living, has_modifier, kill, neighbours, occupancy_check, occupies
from .effects import auto_powers, usable_powers
from .orders import use_power
from .state import MOVES_WARRIOR, NONE, Frame, Phase, Sub, Win, Zone

_SLAY, _MANEUVER, _BOAST = int(Zone.SLAY), int(Zone.MANEUVER), int(Zone.BOAST)  # hearts' zones on the action board

__all__ = ["frame_action_start", "start_rest"]


def start_rest(g, s) -> None:
    """docs §4.7: the rest phase; its steps run as frames (:data:`REST_FRAMES`)."""
    s.phase = Phase.REST
    s.current = s.first
    s.owed = 0
    s.surge_first = False
    s.free_fate = 0
    s.last_space = s.man_space = NONE
    s.win_kind = NONE
    s.stack.extend([fr, 0, 0] for fr in REST_FRAMES)


REST_FRAMES = (Frame.REST_END, Frame.REST_SCRIPT, Frame.REST_BOASTS, Frame.REST_TEMPLES, Frame.REST_OBJ,
               Frame.REST_EVENTS, Frame.REST_DIVS, Frame.REST_BLOOD)
"""The rest phase's steps, bottom of the stack first (step 1 runs first)."""


def frame_rest_blood(g, s, _a, _b, rng) -> None:
    """docs §4.7 step 1: every blood marker leaves the board."""
    for sp in range(g.N):
        s.blood[sp] = 0


def _next_not_out(s, p: int, include_self: bool) -> int:
    n = s.n
    for k in range(1, n + 1):
        q = (p + k) % n
        if q == p and not include_self:
            break
        if not s.out[q]:
            return q
    return NONE


def frame_action_start(g, s, _a: int, _b: int, rng) -> None:
    """docs §4.6 start: out = no hearts on the board; the surge holder opens (if it is out, the next seat
    clockwise that is not out)."""
    for p in range(s.n):
        s.out[p] = sum(s.board[p]) == 0
    h = s.surge
    if h >= 0 and not s.out[h]:
        s.stack.append([Frame.ACTION_TURN, h, 1])
        return
    q = _next_not_out(s, h if h >= 0 else (s.first - 1) % s.n, True)
    if q < 0:
        start_rest(g, s)
    else:
        s.stack.append([Frame.ACTION_TURN, q, 0])


def frame_action_turn(g, s, p: int, surge: int, rng) -> None:
    """docs §4.6 turn of ``p``: 4 actions owed on the surge holder's opening turn (``surge`` = 1), else 2; the
    free fate moves and power-used flags clear, the cost-free action_turn powers resolve (§4.8), then ACTION_CHOOSE."""
    s.owed = 4 if surge else 2
    s.surge_first = bool(surge)
    s.free_fate = 0
    s.turn_used = [False] * 4
    s.current = p
    s.stack.append([Frame.RESUME, int(Sub.ACTION_CHOOSE), p])
    auto_powers(g, s, p, Win.ACTION_TURN, rng)


def _end_turn(g, s, p: int) -> None:
    s.free_fate = 0
    s.surge_first = False
    s.owed = 0
    s.sub = NONE
    q = _next_not_out(s, p, True)
    if q < 0:
        start_rest(g, s)
    else:
        s.stack.append([Frame.ACTION_TURN, q, 0])


def frame_after_action(g, s, p: int, _b: int, rng) -> None:
    """After an action and its window: one action fewer owed; out once no heart is left (docs §4.6)."""
    s.owed -= 1
    s.last_space = NONE
    s.man_space = NONE
    s.win_kind = NONE
    if sum(s.board[p]) == 0:
        s.out[p] = True
    if not s.out[p] and s.owed > 0:
        s.sub, s.current = Sub.ACTION_CHOOSE, p
    else:
        _end_turn(g, s, p)


def _open_window(g, s, p: int, window: int, rng) -> None:
    s.stack.append([Frame.AFTER_ACTION, p, 0])
    s.win_kind = int(window)
    s.win_used = [False] * 4
    s.stack.append([Frame.RESUME, int(Sub.POWER_WINDOW), p])
    s.sub = NONE
    auto_powers(g, s, p, window, rng)


def frame_extra_kill(g, s, p: int, left: int, rng) -> None:
    """docs §4.8 extra kills: while ``left`` > 0 and an opponent still has a living unit in the space of the
    slay, ask EXTRA_KILL of ``p`` (no new window)."""
    if left > 0 and s.last_space >= 0 and has_enemy_living(s, p, s.last_space):
        s.stack.append([Frame.EXTRA_KILL, p, left - 1])
        s.sub, s.current = Sub.EXTRA_KILL, p


def frame_move_again(g, s, p: int, left: int, rng) -> None:
    """docs §4.8 extra moves: while ``left`` > 0 and the maneuvered warrior (or ``p``'s shaman, if still alive)
    can move, ask a free MANEUVER_DEST from its space (no new window)."""
    if left > 0 and s.man_space >= 0 and (s.man_kind == MOVES_WARRIOR or s.shaman_alive[p]):
        s.stack.append([Frame.MOVE_AGAIN, p, left - 1])
        s.man_free = True
        s.sub, s.current = Sub.MANEUVER_DEST, p


# ---------------------------------------------------------------- masks
def _slay_targets(g, s, p: int, sp: int, base: int) -> list:
    n = s.n
    out = []
    for o in range(1, n):
        q = (p + o) % n
        if occupies(s, q, sp):
            out.append(base + 3 * sp + o - 1)
    return out


def mask_action_choose(g, s, p: int) -> list:
    """docs §6.2 ACTION_CHOOSE: fate moves, slays, maneuvers, boasts, sacrifices, relent and the
    action_turn powers, sorted. Slays and boasts are looked for only in the active spaces ``p`` occupies
    (living warriors there, or its living shaman)."""
    b = s.board[p]
    slay, maneuver, boast = b
    out = []
    if s.free_fate > 0 or s.anger[p] > 0:
        out += [g.A_FATE + z for z in range(3) if b[z]]
    living = s.living
    mine_living = [sp for sp in g.active_spaces if living[sp][p]]
    if slay or maneuver or boast:
        alive, where = s.shaman_alive, s.shaman_space
        mine = where[p] if alive[p] and 0 <= where[p] < g.N and g.active[where[p]] else NONE
        if maneuver:
            base = g.A_MANEUVER
            out += [base + 2 * sp for sp in mine_living]
            if mine >= 0:
                out.append(base + 2 * mine + 1)
        if slay or boast:
            others = g.opponents[p]  # (seat, slay offset) of each opponent
            shaman_of = [where[q] if alive[q] else NONE for q in range(s.n)]
            unc = boast and has_modifier(g, s, p, "boast_uncontested")
            occupied = mine_living if mine < 0 or living[mine][p] else mine_living + [mine]
            a_slay, a_boast, slots, blood, boasts = g.A_SLAY, g.A_BOAST, g.slots, s.blood, s.boast
            for sp in occupied:
                row = living[sp]
                targets = [k for q, k in others if row[q] or shaman_of[q] == sp]
                if slay and targets:
                    base = a_slay + 3 * sp
                    out += [base + k for k in targets]
                if boast and (unc or targets) and slots[sp] - blood[sp] - sum(boasts[sp]) >= 1:
                    out.append(a_boast + sp)
    if mine_living:
        for z in range(3):
            if b[z]:
                base = g.A_SACRIFICE + g.N * z
                out += [base + sp for sp in mine_living]
    out.append(g.A_RELENT)
    out += [g.A_POWER + k for k in usable_powers(g, s, p, Win.ACTION_TURN, s.turn_used)]
    out.sort()
    return out


def mask_maneuver_dest(g, s, p: int) -> list:
    """docs §4.6 MANEUVER_DEST: ``space(t)`` for each space adjacent (for ``p``, §4.2) to the maneuvered unit."""
    return [g.A_SPACE + t for t in neighbours(g, s, p, s.man_space)]


def mask_power_window(g, s, p: int) -> list:
    """docs §4.8 POWER_WINDOW after a slay, maneuver or boast: pass, or ``use_power(k)`` per power usable now."""
    return [g.A_PASS] + [g.A_POWER + k for k in usable_powers(g, s, p, s.win_kind, s.win_used)]


def mask_extra_kill(g, s, p: int) -> list:
    """docs §4.8 EXTRA_KILL: ``slay(s, o)`` for each opponent o occupying s, the slain space; no pass."""
    return _slay_targets(g, s, p, s.last_space, g.A_SLAY)


# ---------------------------------------------------------------- applies
def apply_action_choose(g, s, p: int, a: int, rng) -> None:
    """docs §4.6 ACTION_CHOOSE: resolve a fate move, slay, maneuver (MANEUVER_DEST next), boast, sacrifice,
    relent (``p`` is out, the turn passes) or an action_turn power (§4.8); a slay or boast opens its window."""
    N = g.N
    b = s.board[p]
    if g.A_FATE <= a < g.A_SLAY:
        z = a - g.A_FATE
        if s.free_fate > 0:
            s.free_fate -= 1
        else:
            s.anger[p] -= 1
            s.limbo[p] += 1
        b[z] -= 1
        b[(z + 1) % 3] += 1
    elif g.A_SLAY <= a < g.A_MANEUVER:
        r = a - g.A_SLAY
        sp, q = r // 3, (p + r % 3 + 1) % s.n
        b[_SLAY] -= 1
        s.spent[p] += 1
        kill(s, p, q, sp)
        s.last_space = sp
        _open_window(g, s, p, Win.AFTER_SLAY, rng)
    elif g.A_MANEUVER <= a < g.A_BOAST:
        r = a - g.A_MANEUVER
        b[_MANEUVER] -= 1
        s.spent[p] += 1
        s.man_space, s.man_kind, s.man_free = r // 2, r % 2, False  # kind: MOVES_WARRIOR or MOVES_SHAMAN
        s.sub = Sub.MANEUVER_DEST
    elif g.A_BOAST <= a < g.A_SACRIFICE:
        sp = a - g.A_BOAST
        b[_BOAST] -= 1
        s.boast[sp][p] += 1
        s.last_space = sp
        _open_window(g, s, p, Win.AFTER_BOAST, rng)
    elif g.A_SACRIFICE <= a < g.A_RELENT:
        r = a - g.A_SACRIFICE
        z, sp = r // N, r % N
        b[z] -= 1
        s.spent[p] += 1
        s.living[sp][p] -= 1
        s.anger[p] += 1
        occupancy_check(s, p, sp)
        s.stack.append([Frame.AFTER_ACTION, p, 0])
        s.sub = NONE
    elif a == g.A_RELENT:
        s.spent[p] += sum(b)
        s.board[p] = [0, 0, 0]
        s.out[p] = True
        _end_turn(g, s, p)
    else:
        use_power(g, s, p, a - g.A_POWER, Sub.ACTION_CHOOSE, rng)


def apply_maneuver_dest(g, s, p: int, a: int, rng) -> None:
    """docs §4.6 maneuver: move the warrior or shaman to the chosen space (occupancy check, no cremation); a
    free extra move (§4.8) ends there, a paid one opens the after_maneuver window."""
    t = a - g.A_SPACE
    src = s.man_space
    if s.man_kind == MOVES_WARRIOR:
        s.living[src][p] -= 1
        s.living[t][p] += 1
    else:
        s.shaman_space[p] = t
    occupancy_check(s, p, src)
    s.man_space = t
    if s.man_free:
        s.man_free = False
        s.sub = NONE
    else:
        _open_window(g, s, p, Win.AFTER_MANEUVER, rng)


def apply_power_window(g, s, p: int, a: int, rng) -> None:
    """docs §4.8 POWER_WINDOW: pass closes the window (the action then counts, §4.6); ``use_power(k)`` uses
    that power and comes back here."""
    if a == g.A_PASS:
        s.sub = NONE
        s.win_used = [False] * 4
    else:
        use_power(g, s, p, a - g.A_POWER, Sub.POWER_WINDOW, rng)


def apply_extra_kill(g, s, p: int, a: int, rng) -> None:
    """docs §4.8 extra kill: one kill of the chosen opponent in the same space (normal favour and kill count)."""
    r = a - g.A_SLAY
    kill(s, p, (p + r % 3 + 1) % s.n, r // 3)
    s.sub = NONE
