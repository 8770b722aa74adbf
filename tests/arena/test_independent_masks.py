"""The Arena engine's ``legal_mask`` against masks written independently from the spec's text.

Checked (``/work/shared/specs/monolith_arena.md``, with the decisions of ``docs/monolith_arena.md``):

* §4.3 and §6.2 ``MAIN`` / PLACE: which hand slot may go onto which hex at which facing (uses cap of §4.2,
  §4.11; the exception placement of §4.10, D26; an empty segment is an empty hex, D42);
* §4.4, §6.2 ``MAIN`` / USE_FEATURE: Maneuver, Teleport, Swap, Rotate of own non-netted tiles (printed or
  granted by a Banner aura or a Rune, §4.6 steps 1-4, §5.3; D7, D8, D57-D59, D64);
* §4.10 ``MAIN`` / UNFOLD and ``UNFOLD_SEG2``, ``UNFOLD_SEG3``, ``UNFOLD_FACING`` (D39, D40);
* §4.5 relocation (D7, D9, D24, D41, D42, inseparability), §4.8 Charge and §5.3 Move, Push Back geometry
  and Rotation: sub-phases ``CHARGE_*``, ``MOVE_*``, ``PUSH_*``, ``ROTATE_*``, ``FEATURE_*``, ``SWAP_TARGET``.

Nothing of the engine is used but the state fields, the content data (``game.content``), the action layout
and ``parse_position``: geometry, nets (§4.6 step 1), auras, Runes and every legality rule are recomputed
here.  Seeded games (duel, 4-player ffa and teams, with and without the Monolith module, reinforcement)
compare the masks at every decision of a covered sub-phase; hand-built positions cover the corners and
walk every branch of their Order and Feature chains.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from monolith_envs.arena import parse_position
from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.state import INSTANCES_PER_SEAT, Eff, Sub

# ---------------------------------------------------------------- §2.1 geometry, from axial coordinates
COORDS = sorted(((q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2), key=lambda c: (c[1], c[0]))
DIRS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))  # NE E SE SW W NW
_AT = {c: i for i, c in enumerate(COORDS)}
NB = [[_AT.get((q + dq, r + dr), -1) for dq, dr in DIRS] for q, r in COORDS]
ADJ = [{x for x in NB[h] if x >= 0} for h in range(19)]
PER_SEAT = INSTANCES_PER_SEAT  # instance ids: seat * PER_SEAT + k, the Banner at k = 0 (§3)
# sub-phases by name (§6.2): only the engine's names are taken, not its logic
MAIN, CHARGE_TILE, CHARGE_DEST, CHARGE_FACING = Sub.MAIN, Sub.CHARGE_TILE, Sub.CHARGE_DEST, Sub.CHARGE_FACING
MOVE_TILE, MOVE_DEST, MOVE_FACING = Sub.MOVE_TILE, Sub.MOVE_DEST, Sub.MOVE_FACING
PUSH_TARGET, PUSH_PUSHER, PUSH_DEST = Sub.PUSH_TARGET, Sub.PUSH_PUSHER, Sub.PUSH_DEST
ROTATE_TARGET, ROTATE_FACING, FEATURE_DEST, FEATURE_FACING = (Sub.ROTATE_TARGET, Sub.ROTATE_FACING,
                                                              Sub.FEATURE_DEST, Sub.FEATURE_FACING)
SWAP_TARGET, UNFOLD_SEG2, UNFOLD_SEG3, UNFOLD_FACING = Sub.SWAP_TARGET, Sub.UNFOLD_SEG2, Sub.UNFOLD_SEG3, Sub.UNFOLD_FACING
COVERED = {MAIN, CHARGE_TILE, CHARGE_DEST, CHARGE_FACING, MOVE_TILE, MOVE_DEST, MOVE_FACING, PUSH_TARGET,
           PUSH_PUSHER, PUSH_DEST, ROTATE_TARGET, ROTATE_FACING, FEATURE_DEST, FEATURE_FACING, SWAP_TARGET,
           UNFOLD_SEG2, UNFOLD_SEG3, UNFOLD_FACING}
LOC_BOARD = 2
EFF_MANEUVER = Eff.MANEUVER  # the pending effect "maneuver" (docs §7), by name
USED_BIT = {"maneuver": 1, "teleport": 2, "swap": 4, "rotate": 8}  # the state's ``used`` bits
FEATURES = ("maneuver", "teleport", "swap", "rotate")  # USE_FEATURE axis order (§6.1)


def inseparable(hexes):
    """§4.10: every segment touches another segment of the same Monolith."""
    return all(any(y in ADJ[x] for y in hexes if y != x) for x in hexes)


class Ref:
    """The spec's view of one state: owners, relations, nets (§4.6 step 1), granted Features, segments."""

    def __init__(self, game, s):
        self.s, self.types, self.board = s, game.content.types, s.board
        self.module = bool(game.config["monolith_module"])
        self.teams = game.config["mode"] == "teams"
        self.occ = [h for h in range(19) if s.board[h] >= 0]
        self.netted = self._nets()
        self._segments(game.num_players)
        self._grants()

    def tile(self, h):
        return self.types[self.s.itype[self.board[h]]]

    def kind(self, h):
        return self.tile(h).kind

    def owner(self, h):
        return self.board[h] // PER_SEAT

    def rel(self, a, b):
        """'own', 'ally' (teams partner, D21) or 'enemy'."""
        return "own" if a == b else ("ally" if self.teams and a % 2 == b % 2 else "enemy")

    def _nets(self):
        s, board = self.s, self.board
        out = {h: set() for h in self.occ}  # net edges N -> X: a net edge of N points at an enemy X
        for h in self.occ:
            for e in self.tile(h).net:
                x = NB[h][(e + s.facing[board[h]]) % 6]
                if x >= 0 and board[x] >= 0 and self.rel(self.owner(h), self.owner(x)) == "enemy":
                    out[h].add(x)
        m = s.net_marker_on
        marked = {s.hexof[m]} if m >= 0 and s.loc[m] == LOC_BOARD else set()

        def reach(a):
            seen, todo = set(), list(out[a])
            while todo:
                y = todo.pop()
                if y not in seen:
                    seen.add(y)
                    todo.extend(out[y])
            return seen

        netted = {h: True for h in self.occ if h in reach(h)}  # every tile on a directed cycle
        netters = {x: [h for h in self.occ if x in out[h]] for x in self.occ}
        while len(netted) < len(self.occ):  # the others in topological order
            for x in self.occ:
                if x not in netted and all(y in netted for y in netters[x]):
                    netted[x] = x in marked or any(not netted[y] for y in netters[x])
        return [netted.get(h, False) or h in marked for h in range(19)]

    def _segments(self, n):
        s = self.s
        self.seg_of = {}  # instance -> (seat, segment 0..2) for a tile carrying a segment
        self.seg_hexes = set()  # hexes holding a segment of some Monolith
        self.monos = {}  # seat -> hexes of segments 1, 2, 3 (unfolded) or None (folded)
        for p in range(n if self.module else 0):
            if not s.alive[p] or s.seg_hex[p][0] < 0:
                continue
            self.seg_of[p * PER_SEAT] = (p, 0)  # a Banner is always segment 1's content
            folded = s.mono_folded[p]
            self.monos[p] = None if folded else list(s.seg_hex[p])
            self.seg_hexes.update(s.seg_hex[p][:1] if folded else s.seg_hex[p])
            for k in (1, 2):
                if not folded and s.seg_content[p][k - 1] >= 0:
                    self.seg_of[s.seg_content[p][k - 1]] = (p, k)

    def can_relocate(self, i, dst):
        """§4.5: may instance ``i`` (on the board) go to ``dst`` (not its hex)?"""
        if dst < 0 or self.board[dst] >= 0:
            return False
        if i not in self.seg_of:
            return True  # it may enter an empty segment (D42)
        if dst in self.seg_hexes:
            return False  # no segment on a segment (D41)
        p, k = self.seg_of[i]
        if self.monos[p] is None:
            return True  # a folded Monolith moves as one stack (D24)
        hexes = list(self.monos[p])
        hexes[k] = dst
        return inseparable(hexes)

    def _grants(self):
        """§4.6 steps 3-4: Features granted by non-netted Banner auras and Runes to own tiles."""
        s = self.s
        self.granted = {"maneuver": set(), "rotate": set(), "venom": set()}
        self.tele_runes = {h: [] for h in range(19)}  # hex -> unspent Teleportation Runes reaching it
        for h in self.occ:
            t, i = self.tile(h), self.board[h]
            for ef in t.effects if not self.netted[h] else ():
                if ef.effect not in ("grant", "teleport_link"):
                    continue
                if t.boundless or ef.scope == "boundless":
                    area = range(19)
                elif t.kind == "banner" or ef.scope == "adjacent":
                    area = ADJ[h]
                else:
                    area = [NB[h][(e + s.facing[i]) % 6] for e in t.connect]
                for x in area:
                    if x < 0 or x == h or self.board[x] < 0 or self.owner(x) != self.owner(h):
                        continue
                    if ef.kinds and self.kind(x) not in ef.kinds:
                        continue
                    if ef.effect == "grant":
                        self.granted[ef.feature].add(x)
                    elif s.tele_rune_used.count(i) < ef.uses:
                        self.tele_runes[x].append(i)

    def feature_ok(self, f, h, seat):
        """§4.4, §6.2 USE_FEATURE."""
        if self.board[h] < 0 or self.owner(h) != seat or self.netted[h] or self.s.used[self.board[h]] & USED_BIT[f]:
            return False
        t = self.tile(h)
        if f == "teleport":
            return ("teleport" in t.features or bool(self.tele_runes[h])) and any(
                self.can_relocate(self.board[h], x) for x in range(19) if x != h)
        if t.kind == "banner" and f in ("maneuver", "rotate"):
            return False  # D7
        if f not in t.features and h not in self.granted.get(f, ()):
            return False
        return f != "swap" or bool(self.swap_partners(h))  # maneuver and rotate can always turn in place

    def swap_partners(self, h):
        if self.board[h] in self.seg_of:
            return []
        return [x for x in self.occ if x != h and self.owner(x) == self.owner(h) and self.kind(x) == "champion"
                and not self.netted[x] and self.board[x] not in self.seg_of]

    def step_dests(self, h):
        return [x for x in ADJ[h] if self.can_relocate(self.board[h], x)]

    def push_dests(self, t, u):
        """§5.3 Push Back geometry: the three neighbours of T two steps from U."""
        d = NB[u].index(t)
        cands = {NB[t][d], NB[t][(d - 1) % 6], NB[t][(d + 1) % 6]}
        return [x for x in cands if x >= 0 and self.can_relocate(self.board[t], x)]

    def pushers(self, t, seat):
        return [u for u in ADJ[t] if self.board[u] >= 0 and self.owner(u) == seat and not self.netted[u]
                and self.push_dests(t, u)]

    def push_targets(self, seat):
        return [t for t in self.occ if self.rel(seat, self.owner(t)) == "enemy" and not self.netted[t]
                and self.s.entrench_on != self.board[t] and self.pushers(t, seat)]

    def charge_facings(self, h, x):
        """§4.8: facings at ``x`` aiming a melee edge of the tile from ``h`` at an adjacent enemy."""
        def aims(f):
            return any(NB[x][(e + f) % 6] not in (-1, h) and self.board[NB[x][(e + f) % 6]] >= 0 and
                       self.rel(self.owner(h), self.owner(NB[x][(e + f) % 6])) == "enemy"
                       for e, strength in self.tile(h).melee if strength > 0)
        return [f for f in range(6) if aims(f)]

    def charge_dests(self, h):
        return [x for x in self.step_dests(h) if self.charge_facings(h, x)]

    def unfold_pairs(self, seat):
        """§4.10: (h2, h3), distinct, holding no tile and no segment, each of {Banner, h2, h3} touching another."""
        b = self.s.seg_hex[seat][0]
        free = [h for h in range(19) if self.board[h] < 0 and h not in self.seg_hexes]
        return [(h2, h3) for h2 in free for h3 in free if h2 != h3 and inseparable((b, h2, h3))]


def reference_mask(game, s):
    """The legal mask of a covered sub-phase as the spec words it (MAIN: only PLACE, USE_FEATURE, UNFOLD)."""
    L, r = game.layout, Ref(game, s)
    m = np.zeros(L.n, dtype=bool)
    seat, sub, a, b = s.acting_seat, s.sub_phase, s.p_a, s.p_b
    hexes, rots = [], []
    if sub == MAIN:
        _main(game, s, r, m, seat)
    elif sub == MOVE_TILE:  # §5.3 move(), D10
        hexes = [h for h in r.occ if r.owner(h) == seat and not r.netted[h]
                 and (r.kind(h) != "banner" or r.step_dests(h))]
    elif sub == MOVE_DEST:
        hexes = r.step_dests(a) + ([a] if r.kind(a) != "banner" else [])
    elif sub in (MOVE_FACING, FEATURE_FACING, ROTATE_FACING):  # no no-op (§4.5); a teleport: any facing
        moved = sub != ROTATE_FACING and b != a
        teleport = sub == FEATURE_FACING and s.p_effect != EFF_MANEUVER
        rots = [f for f in range(6) if teleport or moved or f != s.facing[s.board[a]]]
    elif sub == PUSH_TARGET:
        hexes = r.push_targets(seat)
    elif sub == PUSH_PUSHER:
        hexes = r.pushers(a, seat)
    elif sub == PUSH_DEST:
        hexes = r.push_dests(a, b)
    elif sub == CHARGE_TILE:
        hexes = [h for h in r.occ if r.owner(h) == seat and not r.netted[h] and "cavalry" in r.tile(h).features
                 and r.charge_dests(h)]
    elif sub == CHARGE_DEST:
        hexes = r.charge_dests(a)
    elif sub == CHARGE_FACING:
        rots = r.charge_facings(a, b)
    elif sub == ROTATE_TARGET:  # rotate_target(who, kinds): allies never match; Banners never turn (D7)
        ef = r.types[s.itype[s.p_order]].order
        ef = ef.options[s.p_mode] if s.p_mode >= 0 else ef
        want = {"own": ("own",), "enemy": ("enemy",)}.get(ef.who, ("own", "enemy"))
        hexes = [h for h in r.occ if not r.netted[h] and r.kind(h) != "banner" and r.rel(seat, r.owner(h)) in want
                 and (not ef.kinds or r.kind(h) in ef.kinds)]
    elif sub == FEATURE_DEST:
        if s.p_effect == EFF_MANEUVER:
            hexes = [a] + r.step_dests(a)
        else:
            hexes = [x for x in range(19) if x != a and r.can_relocate(s.board[a], x)]
    elif sub == SWAP_TARGET:
        hexes = r.swap_partners(a)
    elif sub == UNFOLD_SEG2:
        hexes = {h2 for h2, _ in r.unfold_pairs(seat)}
    elif sub == UNFOLD_SEG3:
        hexes = [h3 for h2, h3 in r.unfold_pairs(seat) if h2 == a]
    elif sub == UNFOLD_FACING:
        rots = range(6)
    for h in hexes:
        m[L.index("SELECT_HEX", h)] = True
    for f in rots:
        m[L.index("SELECT_ROT", f)] = True
    return m


def _main(game, s, r, m, seat):
    """§4.3 PLACE (uses cap §4.2, §4.11; exception placement §4.10, D26), §4.4 USE_FEATURE, §4.10 UNFOLD."""
    L = game.layout
    cap = 10 ** 9
    if game.config["reinforcement_variant"]:
        cap = 1 if seat == 0 and not s.first_turn_done[0] else 2
    where = [h for h in range(19) if s.board[h] < 0]
    own_empty_segments = []
    if r.monos.get(seat) is not None:
        own_empty_segments = [s.seg_hex[seat][k] for k in (1, 2)
                              if s.seg_content[seat][k - 1] < 0 and s.board[s.seg_hex[seat][k]] < 0]
    for k in range(game.H):
        i = s.hand[seat][k]
        if i < 0 or r.types[s.itype[i]].kind not in ("champion", "rune") or s.uses >= cap:
            continue
        if s.unfolded:
            where = own_empty_segments if s.fresh[seat][k] and not s.exception_used else []
        for h in where:
            for f in range(6):
                m[L.index("PLACE", k, h, f)] = True
    for fi, f in enumerate(FEATURES):
        for h in r.occ:
            if r.feature_ok(f, h, seat):
                m[L.index("USE_FEATURE", fi, h)] = True
    if r.module and s.mono_folded[seat] and not s.unfolded and s.discarded and not s.placed and r.unfold_pairs(seat):
        m[L.index("UNFOLD")] = True


def compare(game, s, where=""):
    """Assert the engine's mask equals the reference one in a covered sub-phase; False if not covered."""
    if s.terminal or s.sub_phase not in COVERED:
        return False
    L = game.layout
    got = np.asarray(game.legal_mask(s), dtype=bool)
    want = reference_mask(game, s)
    if s.sub_phase == MAIN:  # only the PLACE, USE_FEATURE and UNFOLD families
        keep = np.zeros_like(got)
        keep[L["PLACE"].offset: L["PLACE"].stop] = keep[L["USE_FEATURE"].offset: L["USE_FEATURE"].stop] = True
        keep[L.index("UNFOLD")] = True
        got, want = got & keep, want & keep
    if not np.array_equal(got, want):
        dec = L.decode
        extra = [dec(int(a)) for a in np.flatnonzero(got & ~want)]
        missing = [dec(int(a)) for a in np.flatnonzero(want & ~got)]
        pytest.fail(f"{where}: sub-phase {s.sub_phase}, seat {s.acting_seat}: engine-only {extra[:12]}, "
                    f"reference-only {missing[:12]}")
    return True


# ---------------------------------------------------------------- seeded games
CONFIGS = {
    "duel": {},
    "ffa4": {"num_players": 4, "mode": "ffa"},
    "teams": {"num_players": 4, "mode": "teams"},
    "module": {"monolith_module": True},
    "module_ffa4": {"monolith_module": True, "num_players": 4, "mode": "ffa"},
    "module_teams": {"monolith_module": True, "num_players": 4, "mode": "teams"},
    "reinforcement": {"reinforcement_variant": True, "factions": ["dragon_empire", "lords_of_the_abyss"]},
    "module_reinf": {"monolith_module": True, "reinforcement_variant": True},
}
GAMES = 40


def play(game, seed):
    """One game with actions drawn family first, then uniformly within the family (so Orders and Features
    are chosen as often as placements); returns the masks compared per sub-phase."""
    rng = np.random.default_rng(seed)
    s = game.initial_state(rng)
    L, n = game.layout, Counter()
    while not game.is_terminal(s):
        if compare(game, s, f"seed {seed} decision {s.decisions}"):
            n[s.sub_phase] += 1
        fams = {}
        for a in np.flatnonzero(game.legal_mask(s)):
            fams.setdefault(L.split(int(a))[0], []).append(int(a))
        options = fams[sorted(fams)[rng.integers(len(fams))]]
        game.apply(s, options[rng.integers(len(options))])
    return n


@pytest.mark.parametrize("name", list(CONFIGS))
def test_random_games_masks_match_the_spec(name):
    game = ArenaGame(CONFIGS[name])
    compared = sum((play(game, seed) for seed in range(GAMES)), Counter())
    assert compared.total() > 2000
    assert {MAIN, MOVE_DEST, PUSH_DEST, FEATURE_DEST, FEATURE_FACING} <= set(compared)
    assert game.module == ({UNFOLD_SEG2, UNFOLD_SEG3, UNFOLD_FACING} <= set(compared))


# ---------------------------------------------------------------- hand-built corners
def explore(game, s, budget=1, where="", seen=None, root=True):
    """Compare here, then follow every legal action but turn ends and discards: every branch of an Order,
    Feature or unfold chain to its end, and ``budget`` further MAIN decisions (placements at facing 0, and
    below the root only after an unfold)."""
    seen = [0] if seen is None else seen
    seen[0] += compare(game, s, where)
    if s.terminal or (s.sub_phase == MAIN and budget <= 0) or s.sub_phase not in COVERED:
        return seen[0]
    for a in np.flatnonzero(game.legal_mask(s)):
        fam, idx = game.layout.split(int(a))
        if fam in ("END_TURN", "DISCARD") or (fam == "PLACE" and (idx[2] or not (root or s.unfolded))):
            continue
        c = game.clone(s)
        game.apply(c, int(a))
        explore(game, c, budget - (s.sub_phase == MAIN), f"{where} {game.layout.decode(int(a))}", seen, False)
    return seen[0]


def legal_set(game, s, family):
    L = game.layout
    return {L.split(int(a))[1] for a in np.flatnonzero(game.legal_mask(s)) if L.split(int(a))[0] == family}


def pos(text):
    """A position text written with ``;`` between statements (one statement per line in the format)."""
    return "\n".join(x.strip() for x in text.split(";"))


FULL = ("factions: dragon_empire, {foe}; {config}; 0: de_banner; 1: de_rune_regeneration; 2: de_rune_regeneration;"
        "3: de_rune_regeneration; 4: de_rune_minor_acceleration; 5: de_rune_minor_acceleration;"
        "6: de_rune_agility; 7: de_rune_strength; 8: de_rune_charge; {rest};"
        "hand P0: de_knight, de_move, de_pikeman*; turn: P0 discarded=1")
HF_FULL = ("18: hf_banner; 10: hf_rune_accuracy; 11: hf_rune_minor_acceleration; 13: hf_rune_minor_acceleration;"
           "14: hf_rune_minor_acceleration; 12: hf_rune_greater_acceleration; 15: hf_rune_double_attack;"
           "16: hf_rune_regeneration f=1; 17: hf_rune_regeneration f=1")
LA_FULL = ("monolith P0: folded; 18: la_banner; monolith P1: unfolded seg2=la_spike hex2=17 f2=0 seg3=- hex3=14;"
           "10: la_rune_strength; 11: la_rune_strength; 13: la_rune_minor_acceleration;"
           "12: la_rune_minor_acceleration; 15: la_rune_double_attack; 16: la_rune_regeneration;"
           "9: la_rune_disarmament")
TEAMS = ("factions: guardians_of_the_realm, lords_of_the_abyss, harbingers_of_the_forest, dragon_empire;"
         "config: mode=teams; 9: gr_banner; 17: gr_axeman f=0; 10: hf_spark f=0; 14: de_knight f=0;"
         "4: la_spike f=0; 2: la_banner; 18: hf_banner; 15: hf_spark f=2; 16: de_banner;"
         "hand P0: gr_push_back, gr_rotation, gr_axeman; hand P2: hf_move, hf_spark, hf_battle;"
         "hand P3: de_battle_charge, de_move, de_knight")
O0, O1, CHARGE = ("PLAY_ORDER", 0), ("PLAY_ORDER", 1), (("PLAY_ORDER", 0), ("SELECT_MODE", 1))


def hx(*hs):
    return {(h,) for h in hs}


def sel(*hs):
    return tuple(("SELECT_HEX", h) for h in hs)


# name: (position, MAIN budget of the walk, [(actions applied first, family, its legal indices)])
CASES = {
    # G14: 18 tiles, hex 9 empty: the Board tiles of the hand go onto 9 only, at any facing
    "full_board_but_one_hex": (FULL.format(foe="harbingers_of_the_forest", config="", rest=HF_FULL), 1, [
        ((), "PLACE", {(k, 9, f) for k in (0, 2) for f in range(6)})]),
    # D42: the only empty hex is P1's empty segment 3, an empty hex for a tile outside any segment
    "full_board_but_an_enemy_empty_segment": (
        FULL.format(foe="lords_of_the_abyss", config="config: monolith_module=true", rest=LA_FULL), 1, [
            ((), "PLACE", {(k, 14, f) for k in (0, 2) for f in range(6)})]),
    # printed Maneuver (Herne 4, Wyrm 17), Maneuver from the Harbingers aura (Spark 10); the Herne at 12 is
    # netted by the Horror (16, f=5: NW) and neither maneuvers nor moves
    "maneuver_aura_and_net": (
        "factions: harbingers_of_the_forest, lords_of_the_abyss; 9: hf_banner; 10: hf_spark f=0; 4: hf_herne f=0;"
        "17: hf_wyrm f=0; 12: hf_herne f=1; 0: la_banner; 16: la_horror f=5;"
        "hand P0: hf_move, hf_precise_shot, hf_spark", 1, [
            ((), "USE_FEATURE", {(0, 10), (0, 4), (0, 17)}), ((O0,), "SELECT_HEX", hx(4, 9, 10, 17))]),
    # D57, D58 with the module: the Wraith teleports through a Rune (4, f=1: E), the Nightmare by itself; the
    # Demon swaps with the Wraith or the Nightmare, not with the Spike in segment 2; the Knight at 12 is netted
    "teleport_swap_in_a_monolith": (
        "factions: lords_of_the_abyss, dragon_empire; config: monolith_module=true; 9: la_banner;"
        "monolith P0: unfolded seg2=la_spike hex2=8 f2=0 seg3=- hex3=3; 4: la_rune_teleportation f=1;"
        "5: la_wraith f=0; 13: la_demon f=0; 16: la_nightmare f=5; 18: de_banner; monolith P1: folded;"
        "12: de_knight f=0; 11: de_knight f=4; hand P0: la_move, la_push_back, la_wraith; turn: P0 discarded=1",
        2, [((), "USE_FEATURE", {(0, 5), (1, 5), (1, 16), (2, 13)}),
            ((("USE_FEATURE", 2, 13),), "SELECT_HEX", hx(5, 16))]),
    # D59: the Rune of Agility (13, all 6 edges) gives Rotate to both Knights; §4.8: only the Knight at 9
    # can charge, to 4, facing SW (8) or W (3); D7: the Banner moves to 10, 15 or 18
    "agility_charge_banner_move": (
        "factions: dragon_empire, lords_of_the_abyss; 14: de_banner; 17: de_knight f=0; 13: de_rune_agility;"
        "9: de_knight f=2; 8: la_banner; 3: la_spike f=0; hand P0: de_battle_charge, de_move, de_net", 2, [
            ((), "USE_FEATURE", {(0, 9), (0, 17), (3, 9), (3, 17)}), (CHARGE, "SELECT_HEX", hx(9)),
            (CHARGE + sel(9), "SELECT_HEX", hx(4)), (CHARGE + sel(9, 4), "SELECT_ROT", {(3,), (4,)}),
            ((O1,) + sel(14), "SELECT_HEX", hx(10, 15, 18))]),
    # §4.6 step 2, D9, D54: the Axeman netted by the Horror neither pushes nor is rotated; the Spike with the
    # Net-order marker is neither pushed nor rotated; the Crossbowman pushes the Horror to 14 only
    "netted_tiles": (
        "factions: guardians_of_the_realm, lords_of_the_abyss; 16: gr_banner; 9: gr_axeman f=0;"
        "11: gr_crossbowman f=0; 10: la_horror f=4; 0: la_banner; 5: la_spike f=0 net;"
        "hand P0: gr_push_back, gr_rotation, gr_false_order", 1, [
            ((O0,), "SELECT_HEX", hx(10)), ((O0,) + sel(10), "SELECT_HEX", hx(11)),
            ((O0,) + sel(10, 11), "SELECT_HEX", hx(14)), ((O1,), "SELECT_HEX", hx(10, 11))]),
    # D21, teams (A = P0, P2): P0 pushes the enemies at 4 and 16, never the allied Sparks, and rotates 4, 14,
    # 17; P2's aura gives Maneuver to its Spark at 15, not to the allied Axeman at 17; P3 charges to 13
    "teams_p0": (TEAMS + "; turn: P0", 1, [
        ((), "USE_FEATURE", set()), ((O0,), "SELECT_HEX", hx(4, 16)), ((O1,), "SELECT_HEX", hx(4, 14, 17))]),
    "teams_p2": (TEAMS + "; turn: P2", 1, [((), "USE_FEATURE", {(0, 15)}), ((O0,), "SELECT_HEX", hx(10, 15))]),
    "teams_p3": (TEAMS + "; turn: P3", 1, [((), "USE_FEATURE", {(0, 14)}), (CHARGE + sel(14), "SELECT_HEX", hx(13))]),
    # §4.5 inseparability, D24, D41: the Knight in segment 2 (10) stays or goes to 5 or 15 (not into its own
    # empty segment 14, nor to 6 or 11, which split the Monolith); the Banner goes to 5 or 13 (4 is P1's
    # segment); anyone may place into the empty segments 4 and 14
    "monolith_segments": (
        "factions: dragon_empire, lords_of_the_abyss; config: monolith_module=true; 9: de_banner;"
        "monolith P0: unfolded seg2=de_knight hex2=10 f2=1 seg3=- hex3=14; 0: la_banner;"
        "monolith P1: unfolded seg2=la_spike hex2=1 f2=0 seg3=- hex3=4;"
        "hand P0: de_move, de_battle_charge, de_pikeman*; turn: P0 discarded=1", 2, [
            ((O0,) + sel(10), "SELECT_HEX", hx(5, 10, 15)), ((O0,) + sel(9), "SELECT_HEX", hx(5, 13))]),
    # D24, D41: the Banner of a folded Monolith carries it and may not enter P1's empty segment at 5
    "folded_banner_and_segments": (
        "factions: lords_of_the_abyss, dragon_empire; config: monolith_module=true; 9: la_banner;"
        "monolith P0: folded; 0: de_banner; monolith P1: unfolded seg2=de_knight hex2=4 f2=0 seg3=- hex3=5;"
        "hand P0: la_move, la_push_back, la_spike", 1, [((O0,) + sel(9), "SELECT_HEX", hx(8, 10, 13, 14))]),
    # §4.10 Contents: P1's Spike inside P0's unfolded Monolith carries P0's segment 2 (inseparability)
    "enemy_content_moves": (
        "factions: dragon_empire, lords_of_the_abyss; config: monolith_module=true; 9: de_banner;"
        "monolith P0: unfolded seg2=P1:la_spike hex2=10 f2=1 seg3=- hex3=14 revealed2; 0: la_banner;"
        "monolith P1: folded; 4: la_wraith f=0; hand P1: la_move, la_push_back, la_move; turn: P1", 1, [
            ((O0,) + sel(10), "SELECT_HEX", hx(5, 10, 15))]),
    # G16 and §4.10: UNFOLD after a discard; segment pairs; then only a fresh tile, into an own empty
    # segment, once (D26)
    "unfold_and_exception": (
        "factions: dragon_empire, lords_of_the_abyss; config: monolith_module=true; 0: de_banner;"
        "monolith P0: folded seg2=de_knight revealed2; 9: la_banner; 1: la_spike f=0; 3: la_spike f=0;"
        "5: la_spike f=0; hand P0: de_battle_charge, de_dragon_rider*, de_pikeman*; turn: P0 discarded=1", 3, [
            ((), "UNFOLD", {()}), ((("UNFOLD",),), "SELECT_HEX", hx(4, 8)),
            ((("UNFOLD",),) + sel(4), "SELECT_HEX", hx(8))]),
    # G19: pushes may not split P1's line-shaped Monolith: targets 9 and 11, not 10
    "pushes_keep_a_monolith_whole": (
        "factions: guardians_of_the_realm, lords_of_the_abyss; config: monolith_module=true; 16: gr_banner;"
        "monolith P0: folded; 5: gr_axeman f=0; 6: gr_crossbowman f=0; 9: la_banner;"
        "monolith P1: unfolded seg2=la_spike hex2=10 f2=0 seg3=la_spike hex3=11 f3=0;"
        "hand P0: gr_push_back, gr_rotation", 1, [
            ((O0,), "SELECT_HEX", hx(9, 11)), ((O0,) + sel(9), "SELECT_HEX", hx(5)),
            ((O0,) + sel(9, 5), "SELECT_HEX", hx(14))]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hand_built_corners(name):
    text, budget, checks = CASES[name]
    game, s = parse_position(pos(text))
    for path, family, want in checks:
        c = game.clone(s)
        for fam, *idx in path:
            game.apply(c, game.layout.index(fam, *idx))
        assert legal_set(game, c, family) == want, (path, family)
    assert explore(game, s, budget, name) >= 10
