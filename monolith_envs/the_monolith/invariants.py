"""The invariants of docs/the_monolith.md §9, checked by ``MonolithGame.check_invariants``."""

from __future__ import annotations

from ..core.game import InvariantError
from .board import controller, occupies, units
from .state import Frame, Phase, Sub

__all__ = ["check"]


def _bad(k: int, msg: str):
    raise InvariantError(f"the_monolith invariant {k}: {msg}")


def check(g, s) -> None:
    """Raise :class:`InvariantError` naming the invariant (docs §9 numbering) and the values.

    Invariant 12 (non-terminal states have a legal action other than a lone pass) is checked here too;
    13 (hidden information) and 14 (clone and serialisation) are the conformance suite's checks.
    """
    n, N = s.n, g.N
    drafting = min(s.shaman_id) < 0  # the draft runs before the shamans' setups (docs §3 step 5)
    for p in range(n):
        pools = {"available": s.available[p], "spent": s.spent[p], "unearned": s.unearned[p],
                 "tower_today": s.tower_today[p], "tower_stuck": s.tower_stuck[p], "reserves": s.reserves[p],
                 "anger": s.anger[p], "limbo": s.limbo[p]}
        for k, v in pools.items():
            if v < 0:
                _bad(9, f"seat {p} {k} = {v} < 0")
        if min(s.board[p]) < 0:
            _bad(9, f"seat {p} board {s.board[p]}")
        hearts = (s.available[p] + s.spent[p] + s.unearned[p] + s.tower_today[p] + s.tower_stuck[p]
                  + sum(s.bids[i][p] for i in range(g.R)) + sum(s.board[p]) + sum(s.boast[sp][p] for sp in range(N)))
        if hearts != 19 and not drafting:
            _bad(1, f"seat {p} has {hearts} hearts, not 19")
        warriors = (sum(s.living[sp][p] + s.dead[sp][p] for sp in range(N)) + s.reserves[p] + s.anger[p]
                    + s.limbo[p])
        if any(s.living[sp][p] < 0 or s.dead[sp][p] < 0 for sp in range(N)):
            _bad(9, f"seat {p} has a negative unit count")
        if warriors != 16 and not drafting:
            _bad(2, f"seat {p} has {warriors} warriors, not 16")
        if not (0 <= s.shaman_space[p] < N and g.active[s.shaman_space[p]]):
            _bad(3, f"seat {p}'s shaman is on space {s.shaman_space[p]}")
        if s.favour[p] < s.favour_floor[p]:
            _bad(9, f"seat {p}'s favour fell from {s.favour_floor[p]} to {s.favour[p]}")
    for sp in range(N):
        if not g.active[sp]:
            if any(s.living[sp]) or any(s.dead[sp]) or s.blood[sp] or any(s.boast[sp]):
                _bad(4, f"locked space {sp} holds units, hearts or blood")
            continue
        if s.blood[sp] + sum(s.boast[sp]) > g.slots[sp]:
            _bad(5, f"space {sp}: blood {s.blood[sp]} + boast {s.boast[sp]} > {g.slots[sp]} slots")
        for p in range(n):
            if s.boast[sp][p] and not occupies(s, p, sp):
                _bad(5, f"seat {p} has boast hearts in {sp} without occupying it")
    for ev, sp in s.events:
        if sp >= 0 and not g.active[sp]:
            _bad(4, f"event {g.events[ev].key} on locked space {sp}")
    phase = s.phase
    for p in range(n):
        if sum(s.board[p]) and phase != Phase.ACTION:
            _bad(6, f"seat {p} has board hearts in phase {Phase(phase).name}")
        if s.tower_today[p] and phase != Phase.ORDER:
            _bad(6, f"seat {p} has tower_today hearts in phase {Phase(phase).name}")
    for i in range(g.R):
        b = s.bids[i]
        if any(b):
            if phase != Phase.ORDER:
                _bad(6, f"bids on slot {i} in phase {Phase(phase).name}")
            if b.count(max(b)) != 1:
                _bad(6, f"slot {i} has a tie for the top bid {b}")
            if s.row[i] < 0:
                _bad(6, f"bids on empty slot {i}")
    for p in range(n):
        # 4 while discarding down, also while an on_acquire objective draw is resolved first (docs §4.4, §12)
        discarding = (s.sub == Sub.DIV_DISCARD and s.current == p) or [Frame.ACQ_DISCARD, p, 0] in s.stack
        if len(s.held[p]) > (4 if discarding else 3):
            _bad(7, f"seat {p} holds {len(s.held[p])} divinations")
        lim = 4 if s.sub == Sub.OBJ_DISCARD and s.current == p else 3
        if len(s.objectives[p]) > lim:
            _bad(7, f"seat {p} holds {len(s.objectives[p])} objectives")
    divs = list(s.div_deck) + [c for c in s.row if c >= 0] + [c for h in s.held for c in h] + list(s.div_discard)
    if sorted(divs) != list(range(g.D)):
        _bad(8, f"divination cards {sorted(divs)} are not each of 0..{g.D - 1} once")
    objs = list(s.obj_deck) + [o for h in s.objectives for o in h] + [o for o, _ in s.obj_discard]
    if sorted(objs) != list(range(g.O)):
        _bad(8, "objective cards are not each present once")
    evs = list(s.event_deck) + [e for e, _ in s.events] + list(s.event_discard)
    if s.sub == Sub.EVENT_PLACE:
        evs.append(s.event_focus)
    if sorted(evs) != list(range(g.E)):
        _bad(8, f"event cards {sorted(evs)} are not each present once")
    if not s.terminal:
        if not 1 <= s.day <= g.num_days:
            _bad(10, f"day {s.day}")
        p = s.current
        if phase == Phase.ORDER and s.committed[p] and s.sub not in (Sub.DIV_DISCARD, Sub.OBJ_DISCARD):
            _bad(10, f"committed seat {p} decides {Sub(s.sub).name}")
        if phase == Phase.ACTION and s.out[p]:
            _bad(10, f"seat {p} is out but decides {Sub(s.sub).name}")
        legal = g.legal_actions(s)
        if not legal or legal == [0]:
            _bad(12, f"decision {Sub(s.sub).name} offers {legal}")
    elif g.legal_actions(s):
        _bad(12, "a terminal state has legal actions")
    if not s.terminal and (s.surge >= 0) != any(s.committed):
        _bad(11, f"surge holder {s.surge} with committed {s.committed}")
    # control consistent with unit counts (docs §4.1)
    for sp in g.active_spaces:
        c = controller(g, s, sp)
        us = [units(g, s, p, sp) for p in range(n)]
        if c >= 0 and not (us[c] >= 1 and all(us[q] < us[c] for q in range(n) if q != c)):
            _bad(5, f"space {sp}: controller {c} with units {us}")
        if c < 0 and max(us) >= 1 and us.count(max(us)) == 1:
            _bad(5, f"space {sp}: nobody controls it with units {us}")
