"""The order phase (docs §4.4, §4.5): turn starts with bids, the five orders, commit and settlement.

Mask functions ``mask_*(g, s, p) -> list[int]`` give the legal actions of one sub-phase (docs §6.2);
apply functions ``apply_*(g, s, p, a, rng)`` resolve a legal one. Frame handlers ``frame_*`` run the
automatic steps between decisions.
"""

from __future__ import annotations

from .actions import Order
from .board import controllers_at, cremate, has_modifier, modifiers, neighbours, occupancy_check
from .effects import auto_powers, resolve, usable_powers
from .state import NONE, Frame, Phase, Sub, Win

__all__ = ["top_bidder", "acquire"]


def top_bidder(s, i: int) -> int:
    """The only seat holding the largest bid on row slot ``i``, or -1 (no bid or a tie)."""
    b = s.bids[i]
    m = max(b)
    if m <= 0 or b.count(m) != 1:
        return NONE
    return b.index(m)


def acquire(g, s, p: int, i: int, rng) -> None:
    """docs §4.4 Acquire (p, i): p's bid to spent, the others' back to available, the card to ``held``;
    then the card's on_acquire effect, the shaman's on_acquire ability and the discard-down (frames)."""
    card = s.row[i]
    for q in range(s.n):
        b = s.bids[i][q]
        if b:
            if q == p:
                s.spent[q] += b
            else:
                s.available[q] += b
            s.bids[i][q] = 0
    s.row[i] = NONE
    s.held[p].append(card)
    s.stack.append([Frame.ACQ_DISCARD, p, 0])
    s.stack.append([Frame.ACQ_SHAMAN, p, 0])
    d = g.divs[card]
    if d.window == "on_acquire":
        resolve(g, s, p, d.effect, rng, window=Win.ON_ACQUIRE)


# ---------------------------------------------------------------- frames
def frame_turn_window(g, s, p: int, _b: int, rng) -> None:
    """docs §4.4 start of turn: set up the order_turn window first (its cost-free powers resolve now, slot
    order, shaman last, §4.8), then check the row slots (TURN_START). A card acquired in those checks joins
    the window for ``use_power`` only: its cost-free power does not resolve until the next turn."""
    s.turn_used = [False] * 4
    s.stack.append([Frame.TURN_START, p, 0])
    auto_powers(g, s, p, Win.ORDER_TURN, rng)


def frame_turn_start(g, s, p: int, i: int, rng) -> None:
    """docs §4.4 start of turn: check row slots i.. in order; acquire as top bidder, else DIV_RAISE."""
    for slot in range(i, g.R):
        if s.bids[slot][p] > 0:
            s.stack.append([Frame.TURN_START, p, slot + 1])
            if top_bidder(s, slot) == p:
                acquire(g, s, p, slot, rng)
            else:
                s.focus_slot = slot
                s.sub, s.current = Sub.DIV_RAISE, p
            return
    s.focus_slot = NONE
    s.stack.append([Frame.NEXT_TURN, p, 0])
    s.stack.append([Frame.ORDER_CHOOSE, p, 0])


def _open_order_window(g, s, p: int, window: int, sub: int, rng) -> None:
    """docs §4.8: open ``window`` at decision ``sub``: ``p``'s cost-free powers of that window resolve first
    (slot order, shaman last; their decisions, if any, come before ``sub``)."""
    s.sub = NONE
    s.stack.append([Frame.RESUME, int(sub), p])
    auto_powers(g, s, p, window, rng)


def frame_order_choose(g, s, p: int, _b: int, rng) -> None:
    """Show ORDER_CHOOSE (the order_turn window opened at the start of the turn, :func:`frame_turn_window`)."""
    s.sub, s.current = Sub.ORDER_CHOOSE, p


def frame_next_turn(g, s, p: int, _b: int, rng) -> None:
    """After p's order: the next uncommitted seat clockwise takes a turn, or settlement starts (§4.5)."""
    n = s.n
    for k in range(1, n + 1):
        q = (p + k) % n
        if not s.committed[q]:
            s.stack.append([Frame.TURN_WINDOW, q, 0])
            return
    s.stack.append([Frame.SETTLE, 0, 0])


def frame_settle(g, s, i: int, _b: int, rng) -> None:
    """docs §4.5 settlement: slots i.. in order; the top bidder acquires; then the tower lift."""
    for slot in range(i, g.R):
        if any(s.bids[slot]):
            s.stack.append([Frame.SETTLE, slot + 1, 0])
            acquire(g, s, top_bidder(s, slot), slot, rng)
            return
    s.stack.append([Frame.LIFT, 0, 0])


def frame_acq_shaman(g, s, p: int, _b: int, rng) -> None:
    """docs §4.4 Acquire: after the card's own on_acquire effect, the acquirer's shaman's on_acquire ability."""
    sh = g.shamans[s.shaman_id[p]]
    if sh.window == "on_acquire":
        resolve(g, s, p, sh.effect, rng, window=Win.ON_ACQUIRE)


def frame_acq_discard(g, s, p: int, _b: int, rng) -> None:
    """docs §4.4 Acquire: with 4 divinations held, the acquirer decides DIV_DISCARD."""
    if len(s.held[p]) > 3:
        s.sub, s.current = Sub.DIV_DISCARD, p


# ---------------------------------------------------------------- masks
def _power_actions(g, s, p: int, window: int, used: list) -> list:
    return [g.A_POWER + k for k in usable_powers(g, s, p, window, used)]


def mask_div_raise(g, s, p: int) -> list:
    """docs §4.4 DIV_RAISE on the focus slot: pass (forfeit), or ``number(r)`` for each raise r that puts
    ``p``'s bid above every other bid, up to its available hearts."""
    i = s.focus_slot
    own = s.bids[i][p]
    other = max(s.bids[i][q] for q in range(s.n) if q != p)
    lo = max(1, other - own + 1)
    return [g.A_PASS] + [g.A_NUMBER + r for r in range(lo, s.available[p] + 1)]


def mask_div_discard(g, s, p: int) -> list:
    """docs §4.4 DIV_DISCARD: ``discard_div(k)`` for each held divination slot."""
    return [g.A_DISCARD + k for k in range(len(s.held[p]))]


def _open_slots(g, s, p: int):
    """The row slots ``p`` may bid on (docs §4.4 divination order), one at a time: a card there, no bid of
    ``p`` yet, and more available hearts than the highest bid."""
    row, bids, av = s.row, s.bids, s.available[p]
    return (i for i in range(g.R) if row[i] >= 0 and bids[i][p] == 0 and av > max(bids[i]))


def _div_slots(g, s, p: int) -> list:
    """:func:`_open_slots` as a list."""
    return list(_open_slots(g, s, p))


def _can_bid(g, s, p: int) -> bool:
    """Whether :func:`_open_slots` has a slot (the divination order's condition), stopping at the first."""
    return next(_open_slots(g, s, p), None) is not None


def mask_order_choose(g, s, p: int) -> list:
    """docs §4.4 ORDER_CHOOSE: the orders whose condition holds (march, shaman, recruit, divination; commit
    always), then the usable order_turn powers (§4.8)."""
    out = []
    av = s.available[p]
    if av >= 1:
        living = s.living
        for sp in g.active_spaces:
            if living[sp][p]:
                out.append(g.A_ORDER + Order.MARCH)
                break
    if av >= 1 and s.shaman_alive[p]:
        out.append(g.A_ORDER + Order.SHAMAN)
    if av >= 2 and s.reserves[p] + s.anger[p] >= 2:
        out.append(g.A_ORDER + Order.RECRUIT)
    if _can_bid(g, s, p):
        out.append(g.A_ORDER + Order.DIVINATION)
    out.append(g.A_ORDER + Order.COMMIT)
    return out + _power_actions(g, s, p, Win.ORDER_TURN, s.turn_used)


def mask_march_source(g, s, p: int) -> list:
    """docs §4.4 MARCH_SOURCE: ``space(s)`` for each active space holding living warriors of ``p``."""
    return [g.A_SPACE + sp for sp in g.active_spaces if s.living[sp][p] > 0]


def mask_march_group(g, s, p: int) -> list:
    """docs §4.4 MARCH_GROUP: ``number(k)`` for each group size 1 .. living warriors at the source."""
    return [g.A_NUMBER + k for k in range(1, s.living[s.march_src][p] + 1)]


def mask_march_step(g, s, p: int) -> list:
    """docs §4.4 MARCH_STEP: stop (after at least one step), ``space(t)`` for each adjacent space when a free
    step or an available heart can pay, and the usable march powers (§4.8)."""
    out = [g.A_PASS] if s.march_steps >= 1 else []
    if s.free_steps > 0 or s.available[p] >= 1:
        out += [g.A_SPACE + t for t in neighbours(g, s, p, s.march_cur)]
    return out + _power_actions(g, s, p, Win.MARCH, s.turn_used)


def mask_march_regroup(g, s, p: int) -> list:
    """docs §4.4 MARCH_REGROUP: ``number(k)`` for each group size 1 .. living warriors in the space entered."""
    return [g.A_NUMBER + k for k in range(1, s.living[s.march_cur][p] + 1)]


def mask_shaman_step(g, s, p: int) -> list:
    """docs §4.4 SHAMAN_STEP: stop, ``space(t)`` for each space adjacent to the shaman while steps are left,
    and the usable shaman_order powers (§4.8)."""
    out = [g.A_PASS]
    if s.sh_steps >= 1:
        out += [g.A_SPACE + t for t in neighbours(g, s, p, s.shaman_space[p])]
    return out + _power_actions(g, s, p, Win.SHAMAN_ORDER, s.turn_used)


def mask_recruit_hearts(g, s, p: int) -> list:
    """docs §4.4 RECRUIT_HEARTS: ``number(h)`` for 2 <= h <= min(available, reserves + anger), and the
    usable recruit powers (§4.8)."""
    hi = min(s.available[p], s.reserves[p] + s.anger[p], 19)
    return [g.A_NUMBER + h for h in range(2, hi + 1)] + _power_actions(g, s, p, Win.RECRUIT, s.turn_used)


def recruit_spaces(g, s, p: int) -> list:
    """docs §4.4 recruit spaces: the stronghold, occupied mausoleums, the living shaman's space with
    ``recruit_at_shaman``, every occupied space with ``recruit_anywhere``."""
    out = {g.hold[p]}
    living = s.living
    shaman = s.shaman_space[p] if s.shaman_alive[p] else NONE
    for sp in (g.active_spaces if s.rec_anywhere else g.mausoleums):
        if living[sp][p] > 0 or shaman == sp:
            out.add(sp)
    if shaman != NONE and has_modifier(g, s, p, "recruit_at_shaman"):
        out.add(shaman)
    return sorted(out)


def mask_recruit_place(g, s, p: int) -> list:
    """docs §4.4 RECRUIT_PLACE: ``space(s)`` for each recruit space, pass once the paid placements are done,
    and the usable recruit powers (§4.8)."""
    out = [g.A_PASS] if s.rec_paid == 0 else []
    out += [g.A_SPACE + sp for sp in recruit_spaces(g, s, p)]
    return out + _power_actions(g, s, p, Win.RECRUIT, s.turn_used)


def mask_div_card(g, s, p: int) -> list:
    """docs §4.4 DIV_CARD: ``row(slot)`` for each card without a bid of ``p`` whose largest bid is below its
    available hearts."""
    return [g.A_ROW + i for i in _div_slots(g, s, p)]


def mask_div_amount(g, s, p: int) -> list:
    """docs §4.4 DIV_AMOUNT: ``number(h)`` for each bid h above the slot's largest bid, up to ``p``'s available
    hearts."""
    m = max(s.bids[s.focus_slot])
    return [g.A_NUMBER + h for h in range(m + 1, min(s.available[p], 19) + 1)]


# ---------------------------------------------------------------- applies
def _end_order(s) -> None:
    s.sub = NONE
    s.march_src = s.march_cur = NONE
    s.march_group = s.march_steps = s.free_steps = s.sh_steps = 0
    s.rec_paid = s.rec_bonus = 0
    s.rec_anywhere = False
    s.focus_slot = NONE


def use_power(g, s, p: int, k: int, resume: int, rng) -> None:
    """docs §4.8: use power slot ``k``: mark it used, pay an anger cost, resolve the effect (its decisions
    come first), pay a discard cost, then return to the ``resume`` decision."""
    from .effects import WINDOW_CODE, power

    window, cost, amount, eff, card = power(g, s, p, k)
    (s.win_used if resume == Sub.POWER_WINDOW else s.turn_used)[k] = True
    if cost == "anger":
        s.anger[p] -= amount
        s.limbo[p] += amount
        if resume == Sub.RECRUIT_PLACE:  # docs §12: the optional bonus never exceeds the warriors left to place
            s.rec_bonus = min(s.rec_bonus, s.reserves[p] + s.anger[p] - s.rec_paid)
    s.stack.append([Frame.RESUME, int(resume), p])
    if cost == "discard":
        s.stack.append([Frame.PAY_DISCARD, p, card])
    s.sub = NONE  # the frames above run next; the effect learns its order from the window, not from s.sub
    resolve(g, s, p, eff, rng, window=WINDOW_CODE[window])


def apply_div_raise(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 DIV_RAISE: pass forfeits (the bid returns to available); ``number(r)`` adds r hearts to it."""
    i = s.focus_slot
    if a == g.A_PASS:  # forfeit
        s.available[p] += s.bids[i][p]
        s.bids[i][p] = 0
    else:
        r = a - g.A_NUMBER
        s.available[p] -= r
        s.bids[i][p] += r
    s.focus_slot = NONE
    s.sub = NONE


def apply_div_discard(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 DIV_DISCARD: the chosen held divination goes to the divination discard pile."""
    s.div_discard.append(s.held[p].pop(a - g.A_DISCARD))
    s.sub = NONE


def commit(s, p: int) -> None:
    """docs §4.4 *Commit*: available hearts and outbid bids into the tower; the surge marker if free."""
    s.tower_today[p] += s.available[p]
    s.available[p] = 0
    for i in range(len(s.row)):
        b = s.bids[i][p]
        if b and top_bidder(s, i) != p:
            s.tower_today[p] += b
            s.bids[i][p] = 0
    s.committed[p] = True
    if s.surge == NONE:
        s.surge = p


def apply_order_choose(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 ORDER_CHOOSE: start march, shaman (1 heart, cremate), recruit or divination (after the
    cost-free powers of its window, §4.8), commit, or use an order_turn power."""
    if a >= g.A_POWER:
        use_power(g, s, p, a - g.A_POWER, Sub.ORDER_CHOOSE, rng)
        return
    o = a - g.A_ORDER
    s.turn_used = [False] * 4
    if o == Order.MARCH:
        s.march_steps = s.free_steps = 0
        _open_order_window(g, s, p, Win.MARCH, Sub.MARCH_SOURCE, rng)
    elif o == Order.SHAMAN:
        s.available[p] -= 1
        s.spent[p] += 1
        cremate(s, p, s.shaman_space[p])
        s.sh_steps = 3 + modifiers(g, s, p).get("shaman_steps", 0)
        _open_order_window(g, s, p, Win.SHAMAN_ORDER, Sub.SHAMAN_STEP, rng)
    elif o == Order.RECRUIT:
        s.rec_anywhere = False
        _open_order_window(g, s, p, Win.RECRUIT, Sub.RECRUIT_HEARTS, rng)
    elif o == Order.DIVINATION:
        s.sub = Sub.DIV_CARD
    else:
        commit(s, p)
        _end_order(s)


def apply_march_source(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 MARCH_SOURCE: the march starts from the chosen space; MARCH_GROUP next."""
    s.march_src = s.march_cur = a - g.A_SPACE
    s.sub = Sub.MARCH_GROUP


def apply_march_group(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 MARCH_GROUP: the group size; MARCH_STEP next."""
    s.march_group = a - g.A_NUMBER
    s.sub = Sub.MARCH_STEP


def apply_march_step(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 MARCH_STEP: stop ends the order; a step pays a free step or 1 heart and moves the group
    (occupancy check), then MARCH_REGROUP if ``p`` has 2+ living warriors there; or use a march power."""
    if a == g.A_PASS:
        _end_order(s)
        return
    if a >= g.A_POWER:
        use_power(g, s, p, a - g.A_POWER, Sub.MARCH_STEP, rng)
        return
    t = a - g.A_SPACE
    if s.free_steps > 0:
        s.free_steps -= 1
    else:
        s.available[p] -= 1
        s.spent[p] += 1
    cur, grp = s.march_cur, s.march_group
    s.living[cur][p] -= grp
    s.living[t][p] += grp
    occupancy_check(s, p, cur)
    s.march_cur = t
    s.march_steps += 1
    s.sub = Sub.MARCH_REGROUP if s.living[t][p] >= 2 else Sub.MARCH_STEP


def apply_march_regroup(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 MARCH_REGROUP: the new group size; MARCH_STEP next."""
    s.march_group = a - g.A_NUMBER
    s.sub = Sub.MARCH_STEP


def apply_shaman_step(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 SHAMAN_STEP: stop ends the order; a step moves the shaman (occupancy check) and cremates
    there; or use a shaman_order power."""
    if a == g.A_PASS:
        _end_order(s)
        return
    if a >= g.A_POWER:
        use_power(g, s, p, a - g.A_POWER, Sub.SHAMAN_STEP, rng)
        return
    t = a - g.A_SPACE
    old = s.shaman_space[p]
    s.shaman_space[p] = t
    occupancy_check(s, p, old)
    cremate(s, p, t)
    s.sh_steps -= 1


def apply_recruit_hearts(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 RECRUIT_HEARTS: h hearts to spent; h paid placements plus a bonus of controlled
    mausoleums + ``recruit_bonus`` (capped by the warriors left); or use a recruit power."""
    if a >= g.A_POWER:
        use_power(g, s, p, a - g.A_POWER, Sub.RECRUIT_HEARTS, rng)
        return
    h = a - g.A_NUMBER
    bonus = recruit_bonus(g, s, p, h)
    s.available[p] -= h
    s.spent[p] += h
    s.rec_paid = h
    s.rec_bonus = bonus
    s.sub = Sub.RECRUIT_PLACE


def recruit_bonus(g, s, p: int, h: int) -> int:
    """docs §4.4 the bonus warriors of a recruit order paid with ``h`` hearts: the mausoleums ``p`` controls
    plus ``recruit_bonus``, capped by the warriors left after the ``h`` paid ones (reserves + anger - h)."""
    ctrl = controllers_at(g, s, g.mausoleums)
    m = sum(1 for sp in g.mausoleums if ctrl[sp] == p)
    return min(m + modifiers(g, s, p).get("recruit_bonus", 0), s.reserves[p] + s.anger[p] - h)


def apply_recruit_place(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 RECRUIT_PLACE: one warrior (from reserves, else anger) living on the chosen space, paid
    placements first; pass declines the bonus; the order ends when none is left. Or use a recruit power."""
    if a == g.A_PASS:
        _end_order(s)
        return
    if a >= g.A_POWER:
        use_power(g, s, p, a - g.A_POWER, Sub.RECRUIT_PLACE, rng)
        return
    sp = a - g.A_SPACE
    if s.reserves[p] > 0:
        s.reserves[p] -= 1
    else:
        s.anger[p] -= 1
    s.living[sp][p] += 1
    if s.rec_paid > 0:
        s.rec_paid -= 1
    else:
        s.rec_bonus -= 1
    if s.rec_paid == 0 and s.rec_bonus <= 0:
        _end_order(s)


def apply_div_card(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 DIV_CARD: the chosen row slot becomes the focus; DIV_AMOUNT next."""
    s.focus_slot = a - g.A_ROW
    s.sub = Sub.DIV_AMOUNT


def apply_div_amount(g, s, p: int, a: int, rng) -> None:
    """docs §4.4 DIV_AMOUNT: h available hearts become ``p``'s bid on the focus slot; the order ends."""
    h = a - g.A_NUMBER
    s.available[p] -= h
    s.bids[s.focus_slot][p] = h
    _end_order(s)


def frame_lift(g, s, _a: int, _b: int, rng) -> None:
    """docs §4.9 tower lift, seats 0..n-1: stuck hearts land; today's hearts stick with chance rho or land;
    a landing heart's zone is the first z with u < cumulative weight (c_2 forced to 1)."""
    c0, c1 = g.cumw[0], g.cumw[1]
    rho = g.rho
    for p in range(s.n):
        board = s.board[p]
        for _ in range(s.tower_stuck[p]):
            u = rng.random()
            board[0 if u < c0 else (1 if u < c1 else 2)] += 1
        stuck = 0
        for _ in range(s.tower_today[p]):
            if rho > 0 and rng.random() < rho:
                stuck += 1
                continue
            u = rng.random()
            board[0 if u < c0 else (1 if u < c1 else 2)] += 1
        s.tower_stuck[p] = stuck
        s.tower_today[p] = 0
    s.phase = Phase.ACTION
    s.stack.append([Frame.ACTION_START, 0, 0])
