"""The options of the Orders (docs/monolith_arena.md §5.3, §6.2): which tiles, hexes and facings each step of
an Order may choose, and whether an Order has at least one complete legal resolution
(:func:`effect_legal`, which decides whether PLAY_ORDER and a SELECT_MODE option are legal).

The steps that resolve the choices are in :mod:`monolith_envs.arena.order_steps`.
"""

from __future__ import annotations

from .board import DIR_BETWEEN, NB, NEIGHBOURS, NUM_HEXES, TRIANGLES
from .context import is_enemy, is_own, who_ok
from .relocation import can_relocate
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .tables import ENEMY, KIND_NAMES, OWN, WHO_RELS

__all__ = ["move_tiles", "move_dests", "charge_facings", "charge_dests", "charge_tiles", "push_dests",
           "push_pushers", "push_targets", "matches", "wound_targets", "entrench_targets", "rotate_targets",
           "net_targets", "area_hits", "effect_legal", "has_match", "can_move", "can_charge", "can_push"]


def move_tiles(g, s, fx, seat):
    """Hexes of own non-netted tiles a Move Order may pick (a Banner needs a destination, D10)
    (docs/monolith_arena.md §5.3, §6.2)."""
    out = []
    for h in range(NUM_HEXES):
        i = s.board[h]
        if i < 0 or i // PER_SEAT != seat or fx.netted[h]:
            continue
        if i % PER_SEAT == 0 and not any(can_relocate(g, s, fx, h, x) for x in NEIGHBOURS[h]):
            continue
        out.append(h)
    return out


def move_dests(g, s, fx, h):
    """MOVE_DEST options for the tile on ``h``: its own hex (not a Banner) or adjacent legal hexes
    (docs/monolith_arena.md §4.5, §6.2)."""
    i = s.board[h]
    out = [x for x in NEIGHBOURS[h] if can_relocate(g, s, fx, h, x)]
    if i % PER_SEAT:
        out.append(h)
    return out


def charge_facings(g, s, h, dest):
    """Facings at ``dest`` aiming a melee edge of the charger (now on ``h``) at an adjacent enemy
    (docs/monolith_arena.md §4.8 step 2, §6.2)."""
    tb = g.tables
    i = s.board[h]
    t = s.itype[i]
    seat = i // PER_SEAT
    out = []
    for f in range(6):
        for d in tb.melee_dirs[t][f]:
            x = NB[dest][d]
            if x >= 0 and x != h and is_enemy(g, s, seat, x):
                out.append(f)
                break
    return out


def charge_dests(g, s, fx, h):
    """CHARGE_DEST options: adjacent legal hexes from which some facing aims a melee edge at an enemy
    (docs/monolith_arena.md §4.8 step 2, §6.2)."""
    return [x for x in NEIGHBOURS[h] if can_relocate(g, s, fx, h, x) and charge_facings(g, s, h, x)]


def charge_tiles(g, s, fx, seat):
    """CHARGE_TILE options: own non-netted Cavalry tiles with at least one (destination, facing)
    (docs/monolith_arena.md §4.8, §6.2)."""
    tb = g.tables
    return [h for h in range(NUM_HEXES) if is_own(s, seat, h) and not fx.netted[h]
            and tb.cavalry[s.itype[s.board[h]]] and charge_dests(g, s, fx, h)]


def push_dests(g, s, fx, T, U):
    """Legal Push Back destinations of target ``T`` pushed by ``U`` (docs/monolith_arena.md §5.3 geometry)."""
    d = DIR_BETWEEN[U][T]
    out = []
    for dd in (d, (d + 5) % 6, (d + 1) % 6):
        c = NB[T][dd]
        if c >= 0 and can_relocate(g, s, fx, T, c):
            out.append(c)
    return sorted(out)


def push_pushers(g, s, fx, seat, T):
    """Own non-netted tiles adjacent to ``T`` with at least one legal push destination
    (docs/monolith_arena.md §5.3 Push Back geometry)."""
    return [U for U in NEIGHBOURS[T] if is_own(s, seat, U) and not fx.netted[U] and push_dests(g, s, fx, T, U)]


def push_targets(g, s, fx, seat):
    """PUSH_TARGET options: enemy tiles, not entrenched and not netted (D9), with at least one (pusher,
    destination) (docs/monolith_arena.md §5.3 Push Back geometry)."""
    return [T for T in range(NUM_HEXES) if is_enemy(g, s, seat, T) and s.board[T] != s.entrench_on
            and not fx.netted[T] and push_pushers(g, s, fx, seat, T)]


def matches(g, s, seat, h, who, kinds) -> bool:
    """Does hex ``h`` hold a tile an Order may target for ``seat``: its owner matches ``who`` ("own",
    "enemy", else any but an ally) and its kind is one of ``kinds`` (any kind when empty)
    (docs/monolith_arena.md §5.3)?"""
    i = s.board[h]
    if i < 0 or not who_ok(g, seat, i // PER_SEAT, who):
        return False
    return not kinds or KIND_NAMES[g.tables.kind[s.itype[i]]] in kinds


def wound_targets(g, s, fx, seat, ef):
    """Hexes of tiles matching the Order's ``who``/``kinds`` (WOUND_TARGET;
    docs/monolith_arena.md §5.3, §6.2)."""
    return [h for h in range(NUM_HEXES) if matches(g, s, seat, h, ef.who, ef.kinds)]


def entrench_targets(g, s, fx, seat, ef):
    """Hexes of own tiles matching the Order's ``kinds`` (ENTRENCH_TARGET;
    docs/monolith_arena.md §5.3, §6.2)."""
    return [h for h in range(NUM_HEXES) if matches(g, s, seat, h, "own", ef.kinds)]


def rotate_targets(g, s, fx, seat, ef):
    """Hexes of non-netted, non-Banner tiles matching ``who``/``kinds`` (ROTATE_TARGET;
    docs/monolith_arena.md §5.3, §6.2)."""
    who = ef.who if ef.who in ("own", "enemy", "any") else "any"
    return [h for h in range(NUM_HEXES) if matches(g, s, seat, h, who, ef.kinds) and not fx.netted[h]
            and s.board[h] % PER_SEAT != 0]


def net_targets(g, s, fx, seat):
    """Hexes of enemy tiles (NET_TARGET; docs/monolith_arena.md §5.3, §6.2)."""
    return [h for h in range(NUM_HEXES) if is_enemy(g, s, seat, h)]


def area_hits(g, s, seat, tri, ef):
    """Hits of an area Order on triangle ``tri``: own and enemy tiles of ``kinds`` (allies skipped)
    (docs/monolith_arena.md §4.9 Teams, §5.3)."""
    who = "enemy" if ef.who == "enemy" else "any"
    return [(h, int(ef.amount), -1, False) for h in TRIANGLES[tri] if matches(g, s, seat, h, who, ef.kinds)]


def effect_legal(g, s, fx, seat, ef) -> bool:
    """True when Order effect ``ef`` has at least one complete legal resolution (docs/monolith_arena.md §5.3).

    Same answers as testing the option lists (``charge_tiles``, ``move_tiles``, ``push_targets``,
    ``net_targets``, ``wound_targets``, ``entrench_targets``, ``rotate_targets``) for emptiness, but
    stops at the first option found.
    """
    name = ef.effect
    if name == "battle":
        return not s.last_round
    if name == "charge":
        return can_charge(g, s, fx, seat)
    if name == "move":
        return can_move(g, s, fx, seat)
    if name == "push_back":
        return can_push(g, s, fx, seat)
    if name == "net_mark":
        return s.net_marker_on < 0 and has_match(g, s, fx, seat, "enemy", ())
    if name == "wound_target":
        return has_match(g, s, fx, seat, ef.who, ef.kinds)
    if name == "wound_area":
        return True
    if name == "entrench":
        return s.entrench_on < 0 and has_match(g, s, fx, seat, "own", ef.kinds)
    if name == "rotate_target":
        return has_match(g, s, fx, seat, ef.who, ef.kinds, rotatable=True)
    if name == "choice":
        return any(effect_legal(g, s, fx, seat, o) for o in ef.options)
    return False


def has_match(g, s, fx, seat, who, kinds, rotatable: bool = False) -> bool:
    """Is some tile matching ``who``/``kinds`` on the board (``_match``; ``rotatable``: also not netted and
    not a Banner)?  ``who`` other than "own"/"enemy" accepts every relation but ALLY
    (docs/monolith_arena.md §5.3)."""
    rels = WHO_RELS.get(who, (OWN, ENEMY))
    rel = g.rel[seat]
    kind = g.tables.kind
    owner, typ, netted, board = fx.owner, fx.typ, fx.netted, s.board
    for h in fx.occ:
        if rel[owner[h]] in rels and (not kinds or KIND_NAMES[kind[typ[h]]] in kinds):
            if not rotatable or (not netted[h] and board[h] % PER_SEAT):
                return True
    return False


def can_move(g, s, fx, seat) -> bool:
    """``bool(move_tiles(s, fx, seat))``: is a Move Order playable (docs/monolith_arena.md §5.3)?"""
    owner, netted, board = fx.owner, fx.netted, s.board
    for h in fx.occ:
        if owner[h] == seat and not netted[h]:
            if board[h] % PER_SEAT or any(can_relocate(g, s, fx, h, x) for x in NEIGHBOURS[h]):
                return True
    return False


def can_charge(g, s, fx, seat) -> bool:
    """``bool(charge_tiles(s, fx, seat))``: does a Charge exist (docs/monolith_arena.md §4.8, §5.3)?"""
    owner, netted, typ, cavalry = fx.owner, fx.netted, fx.typ, g.tables.cavalry
    for h in fx.occ:
        if owner[h] == seat and not netted[h] and cavalry[typ[h]]:
            for x in NEIGHBOURS[h]:
                if can_relocate(g, s, fx, h, x) and charge_facings(g, s, h, x):
                    return True
    return False


def can_push(g, s, fx, seat) -> bool:
    """``bool(push_targets(s, fx, seat))``: is a Push Back playable (docs/monolith_arena.md §5.3)?"""
    rel = g.rel[seat]
    owner, netted, board = fx.owner, fx.netted, s.board
    ent = s.entrench_on
    for T in fx.occ:
        if rel[owner[T]] != ENEMY or board[T] == ent or netted[T]:
            continue
        nb = NB[T]
        for U in NEIGHBOURS[T]:
            if owner[U] == seat and not netted[U]:
                d = DIR_BETWEEN[U][T]
                for dd in (d, (d + 5) % 6, (d + 1) % 6):
                    c = nb[dd]
                    if c >= 0 and can_relocate(g, s, fx, T, c):
                        return True
    return False
