"""The effect vocabulary: selectors, predicates, effects and powers (docs §4.8, §5.3).

A *power* of seat ``p`` is a held divination (power slot k = 0..2, the position in ``held``) or its
shaman's ability (slot 3). Effects that need a decision push a :class:`Frame` (extra kills, extra moves,
objective draws); the rest resolve at once.
"""

from __future__ import annotations

from .board import controllers, controllers_at, has_enemy_living, occupies, tunnels_now
from .state import MOVES_WARRIOR, NONE, SHAMAN_SLOT, Frame, Sub, Win

__all__ = ["selector_spaces", "count", "gain", "reads_control", "resolve", "power", "power_usable", "usable_powers",
           "auto_powers", "WINDOW_CODE", "CONTROL_PREDICATES"]

WINDOW_CODE = {name: i for i, name in enumerate(
    ("passive", "on_acquire", "rest_scoring", "order_turn", "march", "shaman_order", "recruit",
     "action_turn", "after_slay", "after_maneuver", "after_boast"))}
#: the predicates that read the controllers of the spaces (:func:`~.board.controllers`)
CONTROL_PREDICATES = frozenset(("controlled", "controlled_with_enemy_units", "enemy_dead_in_controlled",
                                "dead_enemy_shamans_in_controlled", "building_set"))
_BUILDING = {"building:scriptorium": "scriptorium", "building:mausoleum": "mausoleum", "building:temple": "temple"}


def selector_spaces(g, s, p: int, sel: str, ev_space: int = NONE, tun: list | None = None) -> list:
    """Active spaces matching selector ``sel`` for seat ``p`` (docs §5.3).

    Raises:
        ValueError: ``sel`` is not a selector of docs §5.3 (the content loader refuses such names).
    """
    act = g.active_spaces
    if sel == "any":
        return act
    if sel == "monolith":
        return [g.mono]
    if sel in _BUILDING:
        b = _BUILDING[sel]
        return [sp for sp in act if g.building[sp] == b]
    if sel == "no_building":
        return [sp for sp in act if g.building[sp] == "none"]
    if sel in ("tunnel", "not_tunnel"):
        t = tun if tun is not None else tunnels_now(g, s)
        want = sel == "tunnel"
        return [sp for sp in act if t[sp] == want]
    if sel == "own_stronghold":
        return [g.hold[p]]
    if sel == "enemy_stronghold":
        return [g.hold[q] for q in range(s.n) if q != p]
    if sel == "home_quadrant":
        return list(g.home[p])
    if sel == "event_space":
        return [ev_space] if ev_space >= 0 else []
    raise ValueError(f"unknown selector {sel!r}")  # the loader rejects unknown names


def count(g, s, p: int, pred: str, sel: str, ev_space: int = NONE, ctrl: list | None = None) -> int:
    """The predicate's count for ``p`` over the spaces matching ``sel`` (docs §5.3 predicates).

    Raises:
        ValueError: an unknown selector ``sel`` (from :func:`selector_spaces`).
    """
    if pred == "anger":
        return s.anger[p]
    if pred == "kills_today":
        return s.kills_today[p]
    if pred == "divinations_held":
        return len(s.held[p])
    if pred == "building_set":
        if ctrl is None:
            ctrl = controllers(g, s)
        return len({g.building[sp] for sp in g.active_spaces if ctrl[sp] == p and g.building[sp] != "none"})
    spaces = selector_spaces(g, s, p, sel, ev_space)
    if ctrl is None and pred in CONTROL_PREDICATES:  # only the selected spaces' controllers are read
        ctrl = controllers_at(g, s, spaces)
    n = s.n
    c = 0
    for sp in spaces:
        if pred == "controlled":
            c += ctrl[sp] == p
        elif pred == "occupied":
            c += occupies(s, p, sp)
        elif pred == "contested":
            c += occupies(s, p, sp) and has_enemy_living(s, p, sp)
        elif pred == "shaman_in":
            c += s.shaman_alive[p] and s.shaman_space[p] == sp
        elif pred == "living_warriors":
            c += s.living[sp][p]
        elif pred == "boast_hearts":
            c += s.boast[sp][p]
        elif ctrl[sp] == p:
            if pred == "controlled_with_enemy_units":
                c += any(s.living[sp][q] or s.dead[sp][q] or s.shaman_space[q] == sp for q in range(n) if q != p)
            elif pred == "enemy_dead_in_controlled":
                c += sum(s.dead[sp][q] + (s.shaman_space[q] == sp and not s.shaman_alive[q])
                         for q in range(n) if q != p)
            elif pred == "dead_enemy_shamans_in_controlled":
                c += sum(s.shaman_space[q] == sp and not s.shaman_alive[q] for q in range(n) if q != p)
    return int(c)


def reads_control(eff) -> bool:
    """Whether :func:`gain` of ``eff`` reads the controllers (a favour_per or favour_if over a
    control predicate; docs §4.1, §5.3)."""
    return eff is not None and eff.op in ("favour_per", "favour_if") and eff.pred in CONTROL_PREDICATES


def gain(g, s, p: int, eff, ev_space: int = NONE, ctrl: list | None = None) -> int:
    """Favour that a favour effect would give ``p`` now (0 for other ops; docs §5.3 favour, favour_per,
    favour_if)."""
    if eff.op == "favour":
        return eff.amount
    if eff.op == "favour_per":
        v = eff.amount * (count(g, s, p, eff.pred, eff.sel, ev_space, ctrl) // eff.divisor)
        return min(v, eff.cap) if eff.cap > 0 else v
    if eff.op == "favour_if":
        return eff.amount if count(g, s, p, eff.pred, eff.sel, ev_space, ctrl) >= eff.threshold else 0
    return 0


def _deal_one(g, s, rng) -> int:
    """Top card of the divination deck; an empty deck reshuffles the discard pile first (docs §4.7
    step 3); -1 if none."""
    if not s.div_deck and s.div_discard:
        perm = rng.permutation(len(s.div_discard))
        s.div_deck = [s.div_discard[int(j)] for j in perm]
        s.div_discard = []
    return s.div_deck.pop(0) if s.div_deck else -1


def resolve(g, s, p: int, eff, rng, ev_space: int = NONE, window: int = NONE) -> None:
    """Resolve ``eff`` for seat ``p`` (docs §5.3 semantics); per-player event effects are called once per
    seat by the caller. Decisions are pushed as frames.

    ``window`` is the :class:`Win` code of the power being resolved (``NONE`` for events and objectives).
    Effects whose meaning depends on the order in progress read it, never the current sub-phase (which a
    power use has already cleared): ``extra_steps`` adds free march steps in a ``march`` window and
    shaman-order steps in a ``shaman_order`` window.

    Raises:
        ValueError: ``extra_steps`` outside a ``march`` or ``shaman_order`` window (the content loader
            refuses such cards, so only a hand-built effect can reach this).
    """
    op = eff.op
    if op in ("favour", "favour_per", "favour_if"):
        s.favour[p] += gain(g, s, p, eff, ev_space)
    elif op == "take_unearned":
        x = min(eff.amount, s.unearned[p])
        s.unearned[p] -= x
        if eff.to == "available":
            s.available[p] += x
        else:
            s.board[p][("slay", "maneuver", "boast").index(eff.to)] += x
    elif op == "gain_anger":
        x = min(eff.amount, s.reserves[p])
        s.reserves[p] -= x
        s.anger[p] += x
    elif op == "draw_objectives":
        s.stack.append([Frame.OBJ_DRAW, p, eff.amount])
    elif op == "extra_kill":
        s.stack.append([Frame.EXTRA_KILL, p, eff.amount])
    elif op == "move_again":
        s.stack.append([Frame.MOVE_AGAIN, p, eff.amount])
    elif op == "extra_steps":
        if window == Win.MARCH:
            s.free_steps += eff.amount
        elif window == Win.SHAMAN_ORDER:
            s.sh_steps += eff.amount
        else:
            raise ValueError(f"extra_steps resolves only in a march or shaman_order window, not in window "
                             f"code {window}")
    elif op == "recruit_anywhere":
        s.rec_anywhere = True
    elif op == "free_fate":
        s.free_fate += eff.amount
    elif op == "deal_divinations":
        for _ in range(eff.amount):
            empty = [i for i in range(g.R) if s.row[i] < 0]
            if not empty:
                break
            c = _deal_one(g, s, rng)
            if c < 0:
                break
            s.row[empty[0]] = c
    elif op == "kill_each":
        from .board import occupancy_check

        for k in range(s.n):
            q = (s.first + k) % s.n
            x = min(eff.amount, s.living[ev_space][q])
            s.living[ev_space][q] -= x
            s.dead[ev_space][q] += x
            occupancy_check(s, q, ev_space)
    # set_tunnel acts through tunnels_now; modifier through board.modifiers


def power(g, s, p: int, k: int):
    """``(window, cost, cost_amount, effect, card index or -1)`` of power slot ``k`` of ``p``, or None
    (docs §4.8)."""
    if k == SHAMAN_SLOT:
        sh = g.shamans[s.shaman_id[p]]
        return sh.window, sh.cost, sh.cost_amount, sh.effect, -1
    if k < len(s.held[p]):
        c = s.held[p][k]
        d = g.divs[c]
        return d.window, d.cost, d.cost_amount, d.effect, c
    return None


def _effect_usable(g, s, p: int, eff) -> bool:
    op = eff.op
    if op == "take_unearned":
        return s.unearned[p] >= 1
    if op == "gain_anger":
        return s.reserves[p] >= 1
    if op == "draw_objectives":
        return bool(s.obj_deck or s.obj_discard)
    if op == "extra_kill":
        return s.last_space >= 0 and has_enemy_living(s, p, s.last_space)
    if op == "move_again":
        return s.man_space >= 0 and (s.man_kind == MOVES_WARRIOR or s.shaman_alive[p])
    if op == "recruit_anywhere":
        return not s.rec_anywhere
    if op == "free_fate":
        return sum(s.board[p]) >= 1
    return True


def power_usable(g, s, p: int, k: int, window: int, used: list) -> bool:
    """docs §4.8: slot ``k`` is a costed power of ``window``, unused in this occurrence, its cost can be
    paid and its effect can do something."""
    pw = power(g, s, p, k)
    if pw is None or used[k] or WINDOW_CODE[pw[0]] != window or pw[1] == "none":
        return False
    if pw[1] == "anger" and (s.anger[p] < pw[2] or (
            window == Win.RECRUIT and s.reserves[p] + s.anger[p] - pw[2] < recruit_supply_needed(s))):
        return False
    return _effect_usable(g, s, p, pw[3])


def recruit_supply_needed(s) -> int:
    """Warriors (reserves + anger) a recruit order still needs after an anger cost is paid in it (docs §4.4, §12:
    h never exceeds the supply): 2 at RECRUIT_HEARTS (h >= 2), else the paid placements left and at least one
    (a recruit power used with nothing left to place does nothing). Only content files have such powers."""
    return 2 if s.sub == Sub.RECRUIT_HEARTS else max(s.rec_paid, 1)


def usable_powers(g, s, p: int, window: int, used: list) -> list:
    """Power slots of ``p`` usable now in ``window`` (docs §4.8)."""
    dw = g.div_window
    ks = [k for k, c in enumerate(s.held[p]) if dw[c] == window]
    if g.shaman_window[s.shaman_id[p]] == window:
        ks.append(SHAMAN_SLOT)
    return [k for k in ks if power_usable(g, s, p, k, window, used)] if ks else ks


def auto_powers(g, s, p: int, window: int, rng) -> None:
    """docs §4.8: resolve ``p``'s cost-free powers of ``window`` (slot order, shaman last) whose effect can
    do something; called when an order window (order_turn, march, shaman_order, recruit) or an action
    window (action_turn, after_*) opens. The reference cards and shamans have no cost-free power in these
    windows; content files may."""
    free = g.div_free_window  # the window code of a cost-free card power, None for a costed one
    for k in (0, 1, 2, SHAMAN_SLOT):  # held is read again after each effect, as power() reads it
        if k == SHAMAN_SLOT:
            if g.shaman_free_window[s.shaman_id[p]] != window:
                continue
        else:
            held = s.held[p]
            if k >= len(held) or free[held[k]] != window:
                continue
        eff = power(g, s, p, k)[3]
        if _effect_usable(g, s, p, eff):
            resolve(g, s, p, eff, rng, window=window)

