"""The Monolith engine's ``legal_mask`` against masks written independently from the spec's text.

Checked (``/work/shared/specs/the_monolith.md``, with the decisions of ``docs/the_monolith.md``), every action
family but ``use_power`` (which powers are usable, §4.8, is not re-derived here):

* §4.4 order phase: ``ORDER_CHOOSE`` (the order table; D22, D31, D33), ``MARCH_STEP`` (D34: stop only after a
  step, free steps count), ``MARCH_REGROUP``, ``SHAMAN_STEP`` (stop always legal) and ``RECRUIT_PLACE`` (the
  stronghold, occupied mausoleums, ``recruit_at_shaman``, ``recruit_anywhere``; pass iff paid_left = 0);
* §4.6 action phase: ``ACTION_CHOOSE`` (fate D20, slay D23 by relative opponent, maneuver by unit kind, boast
  with a free slot and ``boast_uncontested``, sacrifice, relent D50) and ``MANEUVER_DEST``;
* §4.7 step 2b: ``EVENT_MOVE`` (any active space but the event's own).

Adjacency is §4.2 (dashed borders, tunnels, ``set_tunnel`` events in reveal order, Thessaly's
``stronghold_tunnel``) over the map of §5.1 (borders, roles, buildings and slots written out here from the
spec's text), with the locks and seat quadrants of §3 and §4.11.

Nothing of the engine is used but the state fields, the content data (``game.content``: the shamans',
divinations' and events' effects), the action layout (families by name) and the sub-phase names (``Sub``).
Seeded random games (2, 3 and 4 players; random, fixed and drafted shamans) compare the masks at every
decision of a covered sub-phase, and check that every covered sub-phase and rule branch was reached.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from monolith_envs.the_monolith.game import MonolithGame
from monolith_envs.the_monolith.state import Sub

# ---------------------------------------------------------------- §5.1 map, §3 locks and seats
MONOLITH = 0
HOLD, TEMPLE, HOLLOW, BARROW, SCRIPTORIUM = range(5)  # roles b+0 .. b+4 of a quadrant, b = 1 + 5q
ROLE_SLOTS = {HOLD: 1, TEMPLE: 2, HOLLOW: 1, BARROW: 1, SCRIPTORIUM: 2}
MONOLITH_SLOTS = 6
ORDERS = ("march", "shaman", "recruit", "divination", "commit")  # §6.1 order(o)
LOCKED_QUADRANTS = {2: (0, 2), 3: (0,), 4: ()}  # §3 step 1, §4.11
SEAT_QUADRANT = {2: (1, 3), 3: (1, 2, 3), 4: (0, 1, 2, 3)}  # §3 step 2


def space(q: int, role: int) -> int:
    """The id of the space with ``role`` in quadrant ``q`` (mod 4)."""
    return 1 + 5 * (q % 4) + role


def quadrant(x: int) -> int:
    return -1 if x == MONOLITH else (x - 1) // 5


def role(x: int) -> int:
    return -1 if x == MONOLITH else (x - 1) % 5


DASHED = {frozenset(pair) for q in range(4) for pair in (
    (space(q, HOLD), space(q, TEMPLE)), (space(q, HOLD), space(q, HOLLOW)), (space(q, TEMPLE), space(q, BARROW)),
    (space(q, TEMPLE), space(q + 1, HOLLOW)), (space(q, BARROW), space(q, SCRIPTORIUM)),
    (space(q, BARROW), MONOLITH), (space(q, SCRIPTORIUM), MONOLITH), (space(q, SCRIPTORIUM), space(q + 1, BARROW)))}
assert len(DASHED) == 32


class Reference:
    """The spec's view of one state: active spaces, modifiers, tunnels, adjacency, occupation."""

    def __init__(self, game, s):
        self.game, self.s, self.n = game, s, s.n
        self.active = [x for x in range(21) if quadrant(x) not in LOCKED_QUADRANTS[self.n]]
        self.hold = [space(q, HOLD) for q in SEAT_QUADRANT[self.n]]
        self.used = set()  # rule branches that changed a mask (for the coverage checks)

    def modifiers(self, p: int) -> set:
        """§4.8, §5.3: names of the passive ``modifier`` effects of p's shaman and held divinations."""
        c = self.game.content
        sources = [c.shamans[self.s.shaman_id[p]]] + [c.divinations[d] for d in self.s.held[p]]
        return {x.effect.name for x in sources if x.window == "passive" and x.effect and x.effect.op == "modifier"}

    def tunnels(self) -> set:
        """§4.2: the Hollows, then ``set_tunnel`` reveal effects of events in play, in reveal order."""
        tun = {x for x in self.active if role(x) == HOLLOW}
        for event, where in self.s.events:
            for effect in self.game.content.events[event].reveal if where >= 0 else ():
                if effect.op == "set_tunnel":
                    self.used.add("event tunnel")
                    (tun.add if effect.value else tun.discard)(where)
        return tun

    def adjacent(self, p: int, a: int) -> list:
        """§4.2: spaces adjacent to ``a`` for seat ``p``."""
        tun = self.tunnels()
        if "stronghold_tunnel" in self.modifiers(p):
            self.used.add("stronghold tunnel")
            tun.add(self.hold[p])
        return [b for b in self.active if b != a and (frozenset((a, b)) in DASHED or (a in tun and b in tun))]

    def occupies(self, p: int, x: int) -> bool:
        """§4.1: p has a living unit in x."""
        s = self.s
        return s.living[x][p] > 0 or (s.shaman_alive[p] and s.shaman_space[p] == x)

    def free_slots(self, x: int) -> int:
        """§4.6 boast: slots − blood − all boast hearts."""
        slots = MONOLITH_SLOTS if x == MONOLITH else ROLE_SLOTS[role(x)]
        return slots - self.s.blood[x] - sum(self.s.boast[x])


def reference_mask(game, s, used: set) -> set:
    """The legal actions (flat indices, ``use_power`` left out) of a covered sub-phase as §4 and §6.2 word them."""
    L, r, p, sub = game.layout, Reference(game, s), s.current, s.sub
    out: set = set()

    def spaces(xs) -> set:
        return {L.index("space", x) for x in xs}

    if sub == Sub.ORDER_CHOOSE:  # §4.4 order table
        av = s.available[p]
        legal = {"march": av >= 1 and any(s.living[x][p] for x in r.active),
                 "shaman": av >= 1 and s.shaman_alive[p],
                 "recruit": av >= 2 and s.reserves[p] + s.anger[p] >= 2,
                 "divination": any(s.row[i] >= 0 and s.bids[i][p] == 0 and av > max(s.bids[i])
                                   for i in range(len(s.row))),
                 "commit": True}
        out = {L.index("order", ORDERS.index(o)) for o, ok in legal.items() if ok}
    elif sub == Sub.MARCH_STEP:
        if s.march_steps >= 1:
            out.add(L.index("pass"))
        if s.free_steps > 0 or s.available[p] >= 1:
            out |= spaces(r.adjacent(p, s.march_cur))
    elif sub == Sub.MARCH_REGROUP:  # k = 1 .. g + h: every living warrior of p in the new space
        out = {L.index("number", k) for k in range(1, s.living[s.march_cur][p] + 1)}
    elif sub == Sub.SHAMAN_STEP:
        out.add(L.index("pass"))
        if s.sh_steps >= 1:
            out |= spaces(r.adjacent(p, s.shaman_space[p]))
    elif sub == Sub.RECRUIT_PLACE:
        if s.rec_paid == 0:
            out.add(L.index("pass"))
        where = {r.hold[p]} | {x for x in r.active if role(x) == BARROW and r.occupies(p, x)}
        if "recruit_at_shaman" in r.modifiers(p) and s.shaman_alive[p]:
            r.used.add("recruit at shaman")
            where.add(s.shaman_space[p])
        if s.rec_anywhere:
            r.used.add("recruit anywhere")
            where |= {x for x in r.active if r.occupies(p, x)}
        out = spaces(where) | out
    elif sub == Sub.ACTION_CHOOSE:
        out = _action_choose(L, r, s, p)
    elif sub == Sub.MANEUVER_DEST:
        out = spaces(r.adjacent(p, s.man_space))
    elif sub == Sub.EVENT_MOVE:
        out = spaces(x for x in r.active if x != s.events[s.event_focus][1])
    used |= r.used
    return out


def _action_choose(L, r, s, p) -> set:
    """§4.6 choices at ACTION_CHOOSE (§6.2 row), but ``use_power``."""
    board, out = s.board[p], {L.index("relent")}
    for z in range(3):  # zones slay, maneuver, boast
        if board[z] >= 1 and (s.free_fate >= 1 or s.anger[p] >= 1):
            out.add(L.index("fate", z))
    uncontested = "boast_uncontested" in r.modifiers(p)
    for x in r.active:
        if board[0] >= 1 and r.occupies(p, x):
            out |= {L.index("slay", x, o - 1) for o in range(1, r.n) if r.occupies((p + o) % r.n, x)}
        if board[1] >= 1 and s.living[x][p] >= 1:
            out.add(L.index("maneuver", x, 0))
        if board[1] >= 1 and s.shaman_alive[p] and s.shaman_space[p] == x:
            out.add(L.index("maneuver", x, 1))
        if board[2] >= 1 and r.free_slots(x) >= 1 and r.occupies(p, x):
            contested = any(r.occupies(q, x) for q in range(r.n) if q != p)
            if uncontested and not contested:
                r.used.add("boast uncontested")
            if contested or uncontested:
                out.add(L.index("boast", x))
        out |= {L.index("sacrifice", z, x) for z in range(3) if board[z] >= 1 and s.living[x][p] >= 1}
    return out


COVERED = (Sub.ORDER_CHOOSE, Sub.MARCH_STEP, Sub.MARCH_REGROUP, Sub.SHAMAN_STEP, Sub.RECRUIT_PLACE,
           Sub.ACTION_CHOOSE, Sub.MANEUVER_DEST, Sub.EVENT_MOVE)


def compare(game, s, where: str, used: set) -> bool:
    """Fail unless the engine's mask equals the reference one (``use_power`` left out); False if not covered."""
    if s.terminal or s.sub not in COVERED:
        return False
    L = game.layout
    powers = range(L["use_power"].offset, L["use_power"].stop)
    got = {a for a in map(int, np.flatnonzero(game.legal_mask(s))) if a not in powers}
    want = reference_mask(game, s, used)
    if got != want:
        pytest.fail(f"{where}, decision {s.decisions}: {Sub(s.sub).name} of seat {s.current}: engine-only "
                    f"{[L.decode(a) for a in sorted(got - want)]}, reference-only "
                    f"{[L.decode(a) for a in sorted(want - got)]}")
    return True


# ---------------------------------------------------------------- seeded games
CONFIGS = {
    "2p_fixed_thessaly_korrun": {"num_players": 2, "shaman_assignment": "fixed", "shamans": [4, 1]},
    "3p_random": {"num_players": 3},
    "3p_fixed_all_passives": {"num_players": 3, "shaman_assignment": "fixed", "shamans": [1, 4, 5]},
    "4p_random": {"num_players": 4},
    "4p_draft": {"num_players": 4, "shaman_assignment": "draft"},
}
GAMES = 60
BRANCHES = {"event tunnel", "stronghold tunnel", "recruit at shaman", "recruit anywhere", "boast uncontested"}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_random_games_masks_match_the_spec(name):
    game = MonolithGame(CONFIGS[name])
    compared, used = Counter(), set()
    for seed in range(GAMES):
        rng = np.random.default_rng(seed)
        s = game.initial_state(rng)
        while not s.terminal:
            if compare(game, s, f"config {name}, seed {seed}", used):
                compared[Sub(s.sub).name] += 1
            game.apply(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))), rng)
    assert set(compared) == {sub.name for sub in COVERED}, compared
    assert min(compared.values()) >= 5 and compared.total() > 3000, compared
    assert used == BRANCHES, used


# ---------------------------------------------------------------- the reference map against the spec's tables
SPEC_ADJACENT = {  # §5.1: 4 players in full (T = tunnel link), 3 and 2 players as listed after the locks
    4: {0: (4, 5, 9, 10, 14, 15, 19, 20), 1: (2, 3), 2: (1, 4, 8), 3: (1, 17, 8, 13, 18), 4: (0, 2, 5, 20),
        5: (0, 4, 9), 6: (7, 8), 7: (6, 9, 13), 8: (2, 6, 3, 13, 18), 9: (0, 5, 7, 10), 10: (0, 9, 14),
        11: (12, 13), 12: (11, 14, 18), 13: (7, 11, 3, 8, 18), 14: (0, 10, 12, 15), 15: (0, 14, 19),
        16: (17, 18), 17: (3, 16, 19), 18: (12, 16, 3, 8, 13), 19: (0, 15, 17, 20), 20: (0, 4, 19)},
    3: {0: (9, 10, 14, 15, 19, 20), 8: (6, 13, 18), 9: (0, 7, 10), 17: (16, 19), 20: (0, 19),
        13: (7, 11, 8, 18), 18: (12, 16, 8, 13)},
    2: {0: (9, 10, 19, 20), 6: (7, 8), 7: (6, 9), 8: (6, 18), 9: (0, 7, 10), 10: (0, 9), 16: (17, 18),
        17: (16, 19), 18: (16, 8), 19: (0, 17, 20), 20: (0, 19)},
}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_reference_map_matches_the_spec_tables(n):
    """The borders, roles and locks written above give §5.1's adjacency lists and §3's counts."""
    game = MonolithGame({"num_players": n, "shaman_assignment": "fixed", "shamans": [0, 1, 2, 3][:n]})
    s = game.initial_state(np.random.default_rng(0))
    s.events = []  # no event in play: the map's own tunnels
    r = Reference(game, s)
    for x, want in SPEC_ADJACENT[n].items():
        assert sorted(r.adjacent(0, x)) == sorted(want), x
    counts = {2: (11, 2, 20), 3: (16, 3, 27), 4: (21, 4, 34)}[n]  # active spaces, tunnels, slots (§3 table)
    assert (len(r.active), len(r.tunnels()), sum(r.free_slots(x) + s.blood[x] for x in r.active)) == counts
