"""The rest phase (docs §4.7): scoring steps 2a-2f in their exact order, final scoring and the tie-break
(§8), the reset with the event draw and its placement and reveal effects (§5.5)."""

from __future__ import annotations

from .board import controllers, controllers_at
from .effects import _deal_one, gain, reads_control, resolve, selector_spaces
from .state import NONE, Frame, Phase, Sub, Win

__all__ = ["turn_order", "final_ranking", "objective_gain"]


def turn_order(s) -> list:
    """Seats in turn order from the first player, clockwise (rising seat numbers; docs §4.4)."""
    return [(s.first + k) % s.n for k in range(s.n)]


def frame_rest_divs(g, s, _a, _b, rng) -> None:
    """2a: held rest_scoring divinations in slot order, then the shaman's rest_scoring ability
    (docs §4.7 step 2a)."""
    for p in turn_order(s):
        for c in list(s.held[p]):
            d = g.divs[c]
            if d.window == "rest_scoring":
                resolve(g, s, p, d.effect, rng, window=Win.REST_SCORING)
        sh = g.shamans[s.shaman_id[p]]
        if sh.window == "rest_scoring":
            resolve(g, s, p, sh.effect, rng, window=Win.REST_SCORING)


def frame_rest_events(g, s, i: int, _b, rng) -> None:
    """2b: events in reveal order score for every seat in turn order; until_scored ones are discarded; a
    wandering one that gave favour is moved by the first seat it paid (EVENT_MOVE) (docs §4.7 step 2b)."""
    while i < len(s.events):
        ev, sp = s.events[i]
        card = g.events[ev]
        scorers = []
        if card.scoring is not None:
            ctrl = controllers(g, s) if reads_control(card.scoring) else None  # read once for every seat
            for p in turn_order(s):
                v = gain(g, s, p, card.scoring, sp, ctrl)
                if v > 0:
                    s.favour[p] += v
                    scorers.append(p)
        if card.lifetime == "until_scored":
            s.events.pop(i)
            s.event_discard.append(ev)
            continue
        if card.lifetime == "wandering" and scorers:
            s.stack.append([Frame.REST_EVENTS, i + 1, 0])
            s.event_focus = i
            s.sub, s.current = Sub.EVENT_MOVE, scorers[0]
            return
        i += 1


def objective_gain(g, s, p: int, obj: int, ctrl: list | None = None) -> int:
    """Favour objective ``obj`` would give ``p`` if revealed now (``ctrl``: :func:`controllers` of ``s``, if
    already known) (docs §4.7 step 2c, §5.6)."""
    return gain(g, s, p, g.objs[obj].effect, NONE, ctrl)


def frame_rest_obj(g, s, idx: int, _b, rng) -> None:
    """2c: OBJ_REVEAL for the seat at turn-order index ``idx`` (passes itself when nothing scores)
    (docs §4.7 step 2c, §4.12)."""
    if idx < s.n:
        s.stack.append([Frame.REST_OBJ, idx, 0])
        s.sub, s.current = Sub.OBJ_REVEAL, (s.first + idx) % s.n


def mask_obj_reveal(g, s, p: int) -> list:
    """docs §6.2 OBJ_REVEAL: pass, and each held objective that would score now (controllers read once)."""
    hand = s.objectives[p]
    ctrl = controllers(g, s) if any(g.obj_reads_control[o] for o in hand) else None
    return [g.A_PASS] + [g.A_OBJECTIVE + k for k, o in enumerate(hand) if objective_gain(g, s, p, o, ctrl) >= 1]


def apply_obj_reveal(g, s, p: int, a: int, rng) -> None:
    """docs §4.7 step 2c OBJ_REVEAL: the objective scores now and goes face up to the discard pile (``p``
    may reveal again), or pass ends ``p``'s reveals."""
    fr = s.stack.pop()  # the REST_OBJ frame of this seat
    if a == g.A_PASS:
        s.stack.append([Frame.REST_OBJ, fr[1] + 1, 0])
    else:
        o = s.objectives[p].pop(a - g.A_OBJECTIVE)
        s.favour[p] += objective_gain(g, s, p, o)
        s.obj_discard.append([o, 1])
        s.stack.append(fr)
    s.sub = NONE


def frame_rest_temples(g, s, _a, _b, rng) -> None:
    """2d: +2 favour per controlled temple (docs §4.7 step 2d)."""
    ctrl = controllers_at(g, s, g.temples)
    for sp in g.temples:  # the active temples, in space order
        if ctrl[sp] >= 0:
            s.favour[ctrl[sp]] += 2


def frame_rest_boasts(g, s, _a, _b, rng) -> None:
    """2e: boast hearts go home and score 3, +1 if the owner controls the Monolith, + boast_bonus; a blood
    marker fills each slot that held a heart (docs §4.7 step 2e)."""
    from .board import modifiers

    mono_ctrl = controllers_at(g, s, (g.mono,))[g.mono]
    for p in range(s.n):
        per = 3 + (1 if mono_ctrl == p else 0) + modifiers(g, s, p).get("boast_bonus", 0)
        for sp in g.active_spaces:
            h = s.boast[sp][p]
            if h:
                s.spent[p] += h
                s.favour[p] += per * h
                s.blood[sp] += h
                s.boast[sp][p] = 0


def frame_rest_script(g, s, idx: int, _b, rng) -> None:
    """2f: in turn order, one objective draw per controlled scriptorium (docs §4.7 step 2f)."""
    if idx >= s.n:
        return
    p = (s.first + idx) % s.n
    ctrl = controllers_at(g, s, g.scriptoriums)
    k = sum(1 for sp in g.scriptoriums if ctrl[sp] == p)
    s.stack.append([Frame.REST_SCRIPT, idx + 1, 0])
    if k:
        s.stack.append([Frame.OBJ_DRAW, p, k])


def frame_obj_draw(g, s, p: int, left: int, rng) -> None:
    """Draw one objective, one at a time; an empty deck reshuffles the whole discard pile (docs §4.7 step 2f);
    OBJ_DISCARD at 4."""
    if left <= 0:
        return
    s.stack.append([Frame.OBJ_DRAW, p, left - 1])
    if not s.obj_deck:
        if not s.obj_discard:
            return
        perm = rng.permutation(len(s.obj_discard))
        s.obj_deck = [s.obj_discard[int(j)][0] for j in perm]
        s.obj_discard = []
    s.objectives[p].append(s.obj_deck.pop(0))
    if len(s.objectives[p]) > 3:
        s.sub, s.current = Sub.OBJ_DISCARD, p


def apply_obj_discard(g, s, p: int, a: int, rng) -> None:
    """docs §3 step 8, §4.7 step 2f OBJ_DISCARD: the chosen objective goes face down to the discard pile."""
    s.obj_discard.append([s.objectives[p].pop(a - g.A_OBJECTIVE), 0])
    s.sub = NONE


def mask_obj_discard(g, s, p: int) -> list:
    """docs §3 step 8, §4.7 step 2f OBJ_DISCARD: ``objective(k)`` for each objective in ``p``'s hand; no pass."""
    return [g.A_OBJECTIVE + k for k in range(len(s.objectives[p]))]


def final_ranking(s) -> list:
    """Seats best first: most favour; ties to the seat nearest the first player clockwise (§8)."""
    return sorted(range(s.n), key=lambda p: (-s.favour[p], (p - s.first) % s.n))


def end_reason(s) -> str:
    """Why a finished game ranked as it did, in words (§8): the favour (held objectives counted) and, for
    every tie, the order the seat nearest the day's first player clockwise gives (the top's tie decides the
    winner; a lower tie only the ranking).  ``""`` for a game that is not over."""
    if not s.terminal:
        return ""
    text = "favour at the end (held objectives counted): " + ", ".join(f"P{p} {s.favour[p]}" for p in range(s.n))
    ranking = final_ranking(s)
    best = max(s.favour)
    for level in sorted(set(s.favour), reverse=True):
        tied = [p for p in ranking if s.favour[p] == level]
        if len(tied) < 2:
            continue
        if level == best:
            text += (f"; tied at the top, so the seat nearest the first player (P{s.first}) clockwise wins: "
                     f"P{tied[0]}")
        else:
            text += (f"; {' and '.join(f'P{p}' for p in tied)} tied at {level}, ranked in that order (nearest "
                     f"the first player P{s.first} clockwise first)")
    return text


def frame_rest_end(g, s, _a, _b, rng) -> None:
    """Step 3: on the last day +1 per held objective and the end; otherwise the reset and the event draw
    (docs §4.7 step 3, §8)."""
    n = s.n
    if s.day >= g.num_days:
        for p in range(n):
            s.favour[p] += len(s.objectives[p])
        s.phase = Phase.GAME_OVER
        s.terminal = True
        s.sub = NONE
        s.current = NONE
        g.finish_returns(s)
        return
    for p in range(n):
        s.available[p] += s.spent[p]
        s.spent[p] = 0
        s.reserves[p] += s.limbo[p]
        s.limbo[p] = 0
        x = min(2, s.unearned[p])
        s.unearned[p] -= x
        s.available[p] += x
        if not s.shaman_alive[p]:
            s.shaman_alive[p] = True
            s.shaman_space[p] = g.hold[p]
        s.kills_today[p] = 0
        s.committed[p] = False
        s.out[p] = False
    s.surge = NONE
    for i in range(g.R):
        if s.row[i] >= 0:
            s.div_discard.append(s.row[i])
            s.row[i] = NONE
    for i in range(g.row_size):
        c = _deal_one(g, s, rng)
        if c < 0:
            break
        s.row[i] = c
    s.first = (s.first + 1) % n
    s.stack.append([Frame.START_DAY, 0, 0])
    if not s.event_deck:
        return
    order = turn_order(s)
    low = min(s.favour)
    drawer = [p for p in order if s.favour[p] == low][-1]
    ev = s.event_deck.pop(0)
    card = g.events[ev]
    if card.place == "none":
        s.events.append([ev, NONE])
        s.stack.append([Frame.EVENT_REVEAL, drawer, 0])
        return
    if not event_place_spaces(g, s, drawer, ev):
        s.event_discard.append(ev)
        return
    s.event_focus = ev
    s.stack.append([Frame.EVENT_REVEAL, drawer, 0])
    s.sub, s.current = Sub.EVENT_PLACE, drawer


def event_place_spaces(g, s, p: int, ev: int) -> list:
    """docs §4.7 step 3: the spaces where ``p`` may place event ``ev`` (its placement selector, §5.3)."""
    return selector_spaces(g, s, p, g.events[ev].place)


def mask_event_place(g, s, p: int) -> list:
    """docs §4.7 step 3 EVENT_PLACE: ``space(s)`` for each space of the drawn event's selector."""
    return [g.A_SPACE + sp for sp in event_place_spaces(g, s, p, s.event_focus)]


def apply_event_place(g, s, p: int, a: int, rng) -> None:
    """docs §4.7 step 3 EVENT_PLACE: the drawn event goes into play on the chosen space (reveal next)."""
    s.events.append([s.event_focus, a - g.A_SPACE])
    s.event_focus = NONE
    s.sub = NONE


def mask_event_move(g, s, p: int) -> list:
    """docs §4.7 step 2b EVENT_MOVE: ``space(s)`` for each active space but the wandering event's own."""
    cur = s.events[s.event_focus][1]
    return [g.A_SPACE + sp for sp in g.active_spaces if sp != cur]


def apply_event_move(g, s, p: int, a: int, rng) -> None:
    """docs §4.7 step 2b EVENT_MOVE: the wandering event moves to the chosen space."""
    s.events[s.event_focus][1] = a - g.A_SPACE
    s.event_focus = NONE
    s.sub = NONE


def frame_event_reveal(g, s, drawer: int, _b, rng) -> None:
    """Reveal effects of the event just put into play (the last of ``events``); instants are discarded
    (docs §4.7 step 3, §5.5, §12)."""
    ev, sp = s.events[-1]
    card = g.events[ev]
    for eff in card.reveal:
        if eff.op in ("kill_each", "set_tunnel", "deal_divinations"):
            resolve(g, s, drawer, eff, rng, sp)
        else:
            for p in turn_order(s):
                resolve(g, s, p, eff, rng, sp)
    if card.lifetime == "instant":
        s.events.pop()
        s.event_discard.append(ev)


def frame_start_day(g, s, first_day: int, _b, rng) -> None:
    """A new day's order phase with the first player (day + 1 unless it is day 1) (docs §4.3, §4.4)."""
    if not first_day:
        s.day += 1
    s.phase = Phase.ORDER
    s.stack.append([Frame.TURN_WINDOW, s.first, 0])

