"""The Monolith content: map, shamans and the three decks read from TOML (docs/the_monolith.md §5).

:func:`load_content` reads five files (the reference ones in ``monolith_envs/the_monolith/data`` unless the
config names others), checks every table, name and number, and returns a frozen :class:`Content`.
Every problem raises :class:`ContentError`, whose message names the file, the item (space, border,
shaman or card id), the field and what is allowed there.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any

from ..core.config import short_repr
from ..core.content import ContentError, item_line, load_toml, load_toml_resource

__all__ = [
    "BUILDINGS", "COSTS", "EFFECT_OPS", "MODIFIERS", "PREDICATES", "ROLES", "WINDOWS",
    "Card", "Content", "ContentError", "Effect", "MapData", "Shaman", "Space", "load_content",
]

ROLES = ("hold", "temple", "hollow", "barrow", "scriptorium", "monolith")
BUILDINGS = ("none", "scriptorium", "mausoleum", "temple")  # observation order: scriptorium, mausoleum, temple
WINDOWS = ("passive", "on_acquire", "rest_scoring", "order_turn", "march", "shaman_order", "recruit",
           "action_turn", "after_slay", "after_maneuver", "after_boast")
COSTS = ("none", "discard", "anger")
PREDICATES = ("controlled", "occupied", "contested", "controlled_with_enemy_units", "enemy_dead_in_controlled",
              "dead_enemy_shamans_in_controlled", "shaman_in", "living_warriors", "boast_hearts", "anger",
              "kills_today", "building_set", "divinations_held")
SELECTORS = ("any", "monolith", "building:scriptorium", "building:mausoleum", "building:temple", "no_building",
             "tunnel", "not_tunnel", "own_stronghold", "enemy_stronghold", "home_quadrant", "event_space")
MODIFIERS = ("shaman_steps", "recruit_bonus", "recruit_at_shaman", "boast_uncontested", "shaman_control_weight",
             "stronghold_tunnel", "boast_bonus")
LIFETIMES = ("instant", "until_scored", "persistent", "wandering")
PLACES = ("none",) + tuple(s for s in SELECTORS if s != "event_space")
TO_ZONES = ("available", "slay", "maneuver", "boast")

# op -> {param: (kind, lo, hi, default)}; kind "int", "bool", or a tuple of allowed names
_WHO = ("self", "each")
EFFECT_OPS: dict[str, dict[str, tuple]] = {
    "favour": {"amount": ("int", 0, 100, None)},
    "favour_per": {"pred": (PREDICATES,), "sel": (SELECTORS,), "amount": ("int", 0, 100, None),
                   "divisor": ("int", 1, 64, 1), "cap": ("int", 0, 1000, 0), "who": (_WHO, "self")},
    "favour_if": {"pred": (PREDICATES,), "sel": (SELECTORS,), "threshold": ("int", 0, 64, None),
                  "amount": ("int", 0, 100, None), "who": (_WHO, "self")},
    "take_unearned": {"amount": ("int", 1, 19, None), "to": (TO_ZONES,), "who": (_WHO, "self")},
    "gain_anger": {"amount": ("int", 1, 16, None), "who": (_WHO, "self")},
    "draw_objectives": {"amount": ("int", 1, 8, None)},
    "extra_kill": {"amount": ("int", 1, 16, None)},
    "move_again": {"amount": ("int", 1, 8, None)},
    "extra_steps": {"amount": ("int", 1, 10, None)},
    "recruit_anywhere": {},
    "free_fate": {"amount": ("int", 1, 10, None)},
    "deal_divinations": {"amount": ("int", 1, 6, None)},
    "kill_each": {"amount": ("int", 1, 16, None)},
    "set_tunnel": {"value": ("bool",)},
    "modifier": {"name": (MODIFIERS,), "amount": ("int", 1, 10, 1)},
}
FAVOUR_OPS = ("favour", "favour_per", "favour_if")
# ops allowed per card window (passive: modifiers only); events and objectives are checked separately
_WINDOW_OPS = {
    "passive": ("modifier",),
    "on_acquire": FAVOUR_OPS + ("take_unearned", "gain_anger", "draw_objectives"),
    "rest_scoring": FAVOUR_OPS,
    "order_turn": FAVOUR_OPS + ("take_unearned", "gain_anger", "draw_objectives"),
    "march": FAVOUR_OPS + ("take_unearned", "gain_anger", "extra_steps"),
    "shaman_order": FAVOUR_OPS + ("take_unearned", "gain_anger", "extra_steps"),
    "recruit": FAVOUR_OPS + ("take_unearned", "gain_anger", "recruit_anywhere"),
    "action_turn": FAVOUR_OPS + ("take_unearned", "gain_anger", "free_fate"),
    "after_slay": FAVOUR_OPS + ("take_unearned", "gain_anger", "free_fate", "extra_kill"),
    "after_maneuver": FAVOUR_OPS + ("take_unearned", "gain_anger", "free_fate", "move_again"),
    "after_boast": FAVOUR_OPS + ("take_unearned", "gain_anger", "free_fate"),
}
_ACTION_WINDOWS = ("action_turn", "after_slay", "after_maneuver", "after_boast")
_REVEAL_OPS = FAVOUR_OPS + ("take_unearned", "gain_anger", "kill_each", "set_tunnel", "deal_divinations")
_PER_PLAYER_OPS = FAVOUR_OPS[1:] + ("take_unearned", "gain_anger")

MAX_SPACES = 40
MAX_SLOTS = 6


@dataclass(frozen=True)
class Effect:
    """One effect of the vocabulary (docs §5.3); unused parameters keep their defaults."""

    op: str
    amount: int = 0
    pred: str = ""
    sel: str = "any"
    divisor: int = 1
    cap: int = 0
    threshold: int = 0
    who: str = "self"
    to: str = "available"
    name: str = ""
    value: bool = False


@dataclass(frozen=True)
class Space:
    """One map space (docs §5.1, §5.7 ``[[space]]``): role, building, base tunnel flag, boast slots, picture cells."""

    id: int
    name: str
    quadrant: int          # -1 for the Monolith
    role: str
    building: str          # one of BUILDINGS
    tunnel: bool
    slots: int
    cells: tuple           # ((row, col), ...) of the picture grid


@dataclass(frozen=True)
class MapData:
    """The map (docs §5.1, §5.7): spaces by id, dashed (adjacent) and solid borders, and per player count the locked
    quadrants and the seats' home quadrants."""

    name: str
    monolith: int
    quadrants: int
    grid: tuple            # (rows, cols)
    spaces: tuple          # Space per id
    dashed: tuple          # ((a, b), ...) with a < b
    solid: tuple
    locked: dict           # num_players -> tuple of locked quadrants
    seats: dict            # num_players -> tuple of home quadrants per seat


@dataclass(frozen=True)
class Shaman:
    """A shaman (docs §5.2): setup hearts and warriors, start (``"monolith"`` or a home-quadrant role) and its ability
    as a power (window, cost, effect; §4.8)."""

    id: int
    name: str
    available: int
    unearned: int
    warriors: tuple        # (stronghold, monolith, reserves, anger)
    start: str             # "monolith" or a role
    window: str
    cost: str
    cost_amount: int
    effect: Effect


@dataclass(frozen=True)
class Card:
    """A divination (window/cost/effect), an event (place/reveal/scoring/lifetime) or an objective (score)."""

    key: str
    name: str
    rating: int = 0
    window: str = "passive"
    cost: str = "none"
    cost_amount: int = 0
    effect: Effect | None = None
    place: str = "none"
    reveal: tuple = ()
    scoring: Effect | None = None
    lifetime: str = "instant"


@dataclass(frozen=True)
class Content:
    """What :func:`load_content` read and checked (docs §5): the map, and the shamans, divinations, events and
    objectives as tuples indexed by id / card index."""

    map: MapData
    shamans: tuple
    divinations: tuple
    events: tuple
    objectives: tuple


DEFAULT_FILES = {"map_file": "map.toml", "shaman_file": "shamans.toml", "divination_file": "divinations.toml",
                 "event_file": "events.toml", "objective_file": "objectives.toml"}


class _Reader:
    """Typed, bounded field access that names the file, the item and the field in every error."""

    def __init__(self, fname: str):
        self.fname = fname

    def fail(self, item: str, field: str, msg: str):
        raise ContentError(self.fname, item_line(self.fname, item, field), item, field, msg, label="in")

    def table(self, d: Any, item: str, allowed: tuple, required: tuple) -> dict:
        if not isinstance(d, dict):
            raise ContentError(self.fname, item_line(self.fname, item, ""), item, "",
                               f"expected a table, got {type(d).__name__}", label="in")
        extra = [k for k in d if k not in allowed]
        if extra:
            self.fail(item, extra[0], f"unknown field; allowed: {', '.join(allowed)}")
        for k in required:
            if k not in d:
                self.fail(item, k, "missing")
        return d

    def int(self, d: dict, item: str, field: str, lo: int, hi: int, default: int | None = None) -> int:
        if field not in d:
            if default is None:
                self.fail(item, field, "missing")
            return default
        v = d[field]
        if type(v) is not int or not lo <= v <= hi:
            self.fail(item, field, f"{short_repr(v)} is not an integer from {lo} to {hi}")
        return v

    def str(self, d: dict, item: str, field: str, allowed: tuple | None = None, default: str | None = None) -> str:
        if field not in d:
            if default is None:
                self.fail(item, field, "missing")
            return default
        v = d[field]
        if not isinstance(v, str) or (allowed is not None and v not in allowed):
            self.fail(item, field, f"{short_repr(v)} is not allowed" + (f"; one of {', '.join(allowed)}" if allowed else ""))
        if allowed is None and not 1 <= len(v) <= 64:
            self.fail(item, field, "a name of 1 to 64 characters")
        return v

    def bool(self, d: dict, item: str, field: str) -> bool:
        v = d.get(field)
        if not isinstance(v, bool):
            self.fail(item, field, f"{short_repr(v)} is not true or false")
        return v

    def list(self, d: dict, item: str, field: str, max_len: int) -> list:
        v = d.get(field)
        if not isinstance(v, list) or len(v) > max_len:
            self.fail(item, field, f"expected a list of at most {max_len} entries")
        return v

    def effect(self, d: Any, item: str, field: str) -> Effect:
        where = f"{item} {field}"
        if not isinstance(d, dict):
            self.fail(item, field, "expected an effect table {op = ..., ...}")
        op = d.get("op")
        if not isinstance(op, str) or op not in EFFECT_OPS:  # a list or table is no op (nor hashable)
            self.fail(item, f"{field}.op", f"{short_repr(op)} is not an effect op; one of {', '.join(EFFECT_OPS)}")
        spec = EFFECT_OPS[op]
        self.table(d, where, ("op",) + tuple(spec), ())
        kw: dict[str, Any] = {"op": op}
        for p, sp in spec.items():
            if sp[0] == "int":
                kw[p] = self.int(d, where, p, sp[1], sp[2], sp[3])
            elif sp[0] == "bool":
                kw[p] = self.bool(d, where, p)
            else:
                kw[p] = self.str(d, where, p, sp[0], sp[1] if len(sp) > 1 else None)
        return Effect(**kw)


def _read(path: str | None, default_name: str, key: str = "") -> tuple[str, dict]:
    """``(file name for messages, parsed table)`` through the core's safe TOML reader (regular files only,
    size, depth and integer limits); ``key`` (``map_file``) names an empty path."""
    if path is None:
        tf = load_toml_resource("monolith_envs.the_monolith", "data", default_name, refuse_big_ints=False)
        return f"data/{default_name}", tf.data
    if not os.fspath(path):
        raise ContentError("", 0, "", "", f"{key or 'the path'}: an empty path; give a TOML file's path or None",
                           f"a readable regular TOML file, or None for the shipped data/{default_name}")
    tf = load_toml(path, refuse_big_ints=False)  # every integer bounded below, with its field's range
    return tf.path, tf.data


def _load_map(fname: str, doc: dict) -> MapData:
    r = _Reader(fname)
    r.table(doc, "file", ("map", "space", "border"), ("map", "space", "border"))
    m = r.table(doc["map"], "[map]", ("name", "monolith", "quadrants", "grid", "locked_quadrants", "seat_quadrants"),
                ("name", "monolith", "quadrants", "locked_quadrants", "seat_quadrants"))
    name = r.str(m, "[map]", "name")
    nq = r.int(m, "[map]", "quadrants", 1, 8)
    grid = m.get("grid", [6, 6])
    if not (isinstance(grid, list) and len(grid) == 2 and all(type(x) is int and 1 <= x <= 32 for x in grid)):
        r.fail("[map]", "grid", "expected [rows, cols] with 1..32 each")
    raw_spaces = r.list(doc, "file", "space", MAX_SPACES)
    if len(raw_spaces) < 2:
        r.fail("file", "space", f"a map needs 2 to {MAX_SPACES} spaces")
    spaces: dict[int, Space] = {}
    for k, sd in enumerate(raw_spaces):
        item = f"space #{k}"
        r.table(sd, item, ("id", "name", "quadrant", "role", "building", "tunnel", "boast_slots", "cells"),
                ("id", "name", "quadrant", "role", "building", "tunnel", "boast_slots"))
        sid = r.int(sd, item, "id", 0, MAX_SPACES - 1)
        item = f"space {sid}"
        if sid in spaces:
            r.fail(item, "id", "duplicate space id")
        role = r.str(sd, item, "role", ROLES)
        q = r.int(sd, item, "quadrant", -1, nq - 1)
        if (q == -1) != (role == "monolith"):
            r.fail(item, "quadrant", "-1 exactly for the monolith role")
        cells = sd.get("cells", [])
        if not isinstance(cells, list) or not all(
                isinstance(c, list) and len(c) == 2 and all(type(x) is int for x in c)
                and 0 <= c[0] < grid[0] and 0 <= c[1] < grid[1] for c in cells):
            r.fail(item, "cells", f"expected a list of [row, col] inside the {grid[0]}x{grid[1]} grid")
        spaces[sid] = Space(sid, r.str(sd, item, "name"), q, role, r.str(sd, item, "building", BUILDINGS),
                            r.bool(sd, item, "tunnel"), r.int(sd, item, "boast_slots", 0, MAX_SLOTS),
                            tuple(tuple(c) for c in cells))
    n = len(spaces)
    if sorted(spaces) != list(range(n)):
        r.fail("file", "space", f"space ids must be 0..{n - 1} without gaps")
    mono = r.int(m, "[map]", "monolith", 0, n - 1)
    if spaces[mono].role != "monolith" or sum(s.role == "monolith" for s in spaces.values()) != 1:
        r.fail("[map]", "monolith", f"space {mono} must be the one space with role 'monolith'")
    if spaces[mono].slots < 2:
        r.fail(f"space {mono}", "boast_slots", "the Monolith space needs at least 2 (setup puts 2 blood on it)")
    for q in range(nq):
        if sum(s.quadrant == q and s.role == "hold" for s in spaces.values()) != 1:
            r.fail(f"quadrant {q}", "role", "each quadrant needs exactly one hold (its stronghold)")
    dashed, solid = set(), set()
    for k, bd in enumerate(r.list(doc, "file", "border", 4 * MAX_SPACES * MAX_SPACES)):
        item = f"border #{k}"
        r.table(bd, item, ("a", "b", "kind"), ("a", "b", "kind"))
        a, b = r.int(bd, item, "a", 0, n - 1), r.int(bd, item, "b", 0, n - 1)
        if a == b:
            r.fail(item, "b", "a border joins two different spaces")
        pair = (min(a, b), max(a, b))
        if pair in dashed or pair in solid:
            r.fail(item, "b", f"duplicate border {pair}")
        (dashed if r.str(bd, item, "kind", ("dashed", "solid")) == "dashed" else solid).add(pair)
    locked, seats = {}, {}
    for key, dst in (("locked_quadrants", locked), ("seat_quadrants", seats)):
        t = m[key]
        if not isinstance(t, dict) or sorted(t) != ["2", "3", "4"]:
            r.fail("[map]", key, 'expected a table with keys "2", "3" and "4"')
        for np_, qs in t.items():
            if not isinstance(qs, list) or not all(type(x) is int and 0 <= x < nq for x in qs) or len(set(qs)) != len(qs):
                r.fail("[map]", f"{key}.{np_}", f"expected distinct quadrant numbers 0..{nq - 1}")
            dst[int(np_)] = tuple(qs)
    for np_ in (2, 3, 4):
        if len(seats[np_]) != np_:
            r.fail("[map]", f"seat_quadrants.{np_}", f"needs {np_} quadrants, one per seat")
        if set(seats[np_]) & set(locked[np_]):
            r.fail("[map]", f"seat_quadrants.{np_}", "a home quadrant is locked")
        active = [s.id for s in spaces.values() if s.quadrant not in locked[np_]]
        for sid in active:
            if not any((min(sid, t), max(sid, t)) in dashed for t in active if t != sid):
                r.fail(f"space {sid}", "border", f"has no dashed neighbour among the active spaces of {np_} players")
    return MapData(name, mono, nq, tuple(grid), tuple(spaces[i] for i in range(n)), tuple(sorted(dashed)),
                   tuple(sorted(solid)), locked, seats)


def _check_card_effect(r: _Reader, item: str, field: str, eff: Effect, window: str, context: str) -> None:
    if context == "card":
        if eff.op not in _WINDOW_OPS[window]:
            r.fail(item, f"{field}.op", f"{short_repr(eff.op)} cannot be used in window {short_repr(window)}; allowed: "
                   f"{', '.join(_WINDOW_OPS[window])}")
        if eff.who != "self":
            r.fail(item, f"{field}.who", "'each' is for events only")
        if eff.to != "available" and window not in _ACTION_WINDOWS:
            r.fail(item, f"{field}.to", "zones of the action board only in action-phase windows")
    if eff.sel == "event_space" and context != "event":
        r.fail(item, f"{field}.sel", "'event_space' is for event cards only")


def _load_shamans(fname: str, doc: dict, roles: set) -> tuple:
    r = _Reader(fname)
    r.table(doc, "file", ("shaman",), ("shaman",))
    lst = r.list(doc, "file", "shaman", 16)
    out = {}
    for k, sd in enumerate(lst):
        item = f"shaman #{k}"
        r.table(sd, item, ("id", "name", "available", "unearned", "warriors", "start", "ability"),
                ("id", "name", "available", "unearned", "warriors", "start", "ability"))
        sid = r.int(sd, item, "id", 0, 15)
        item = f"shaman {sid}"
        if sid in out:
            r.fail(item, "id", "duplicate shaman id")
        av, un = r.int(sd, item, "available", 0, 19), r.int(sd, item, "unearned", 0, 19)
        if av + un != 19:
            r.fail(item, "unearned", f"available + unearned must be 19, got {av + un}")
        w = r.table(sd["warriors"], f"{item} warriors", ("stronghold", "monolith", "reserves", "anger"),
                    ("stronghold", "monolith", "reserves", "anger"))
        ws = tuple(r.int(w, f"{item} warriors", f, 0, 16) for f in ("stronghold", "monolith", "reserves", "anger"))
        if sum(ws) != 16:
            r.fail(item, "warriors", f"the four counts must sum to 16, got {sum(ws)}")
        start = r.str(sd, item, "start")
        if start != "monolith":
            role = start[5:] if start.startswith("role:") else ""
            if role not in roles or role == "monolith":
                r.fail(item, "start", f"{short_repr(start)}: 'monolith' or 'role:<role>' with a role of the map's spaces ("
                       + ", ".join(sorted(x for x in roles if x != "monolith"))
                       + "; each home quadrant needs one, checked when the game is built)")
            start = role
        ab = r.table(sd["ability"], f"{item} ability", ("window", "cost", "cost_amount", "effect"),
                     ("window", "cost", "effect"))
        window = r.str(ab, f"{item} ability", "window", WINDOWS)
        cost = r.str(ab, f"{item} ability", "cost", ("none", "anger"))
        ca = r.int(ab, f"{item} ability", "cost_amount", 0, 16, 0)
        if (cost == "anger") != (ca > 0):
            r.fail(f"{item} ability", "cost_amount", "1..16 exactly when cost is 'anger'")
        if window == "passive" and cost != "none":
            r.fail(f"{item} ability", "cost", "passive powers cost nothing")
        eff = r.effect(ab["effect"], item, "ability.effect")
        _check_card_effect(r, item, "ability.effect", eff, window, "card")
        out[sid] = Shaman(sid, r.str(sd, item, "name"), av, un, ws, start, window, cost, ca, eff)
    if not out or sorted(out) != list(range(len(out))):
        r.fail("file", "shaman", f"shaman ids must be 0..{len(out) - 1} without gaps")
    return tuple(out[i] for i in range(len(out)))


def _load_cards(fname: str, doc: dict, kind: str, max_cards: int) -> tuple:
    r = _Reader(fname)
    r.table(doc, "file", ("card",), ("card",))
    lst = r.list(doc, "file", "card", max_cards)
    if not lst:
        r.fail("file", "card", "at least one card")
    fields = {"div": ("id", "name", "rating", "window", "cost", "cost_amount", "effect"),
              "event": ("id", "name", "place", "reveal", "scoring", "lifetime"),
              "obj": ("id", "name", "score")}[kind]
    required = {"div": ("id", "name", "rating", "window", "cost", "effect"),
                "event": ("id", "name", "place", "reveal", "lifetime"), "obj": ("id", "name", "score")}[kind]
    out, seen = [], set()
    for k, cd in enumerate(lst):
        r.table(cd, f"card #{k}", fields, required)
        key = r.str(cd, f"card #{k}", "id")
        item = f"card {key}"
        if key in seen:
            r.fail(item, "id", "duplicate card id")
        seen.add(key)
        name = r.str(cd, item, "name")
        if kind == "div":
            window = r.str(cd, item, "window", WINDOWS)
            cost = r.str(cd, item, "cost", COSTS)
            ca = r.int(cd, item, "cost_amount", 0, 16, 0)
            if (cost == "anger") != (ca > 0):
                r.fail(item, "cost_amount", "1..16 exactly when cost is 'anger'")
            if window in ("passive", "on_acquire", "rest_scoring") and cost != "none":
                r.fail(item, "cost", f"window {short_repr(window)} resolves on its own and costs nothing")
            eff = r.effect(cd["effect"], item, "effect")
            _check_card_effect(r, item, "effect", eff, window, "card")
            out.append(Card(key, name, r.int(cd, item, "rating", 1, 4), window, cost, ca, eff))
        elif kind == "event":
            place = r.str(cd, item, "place", PLACES)
            life = r.str(cd, item, "lifetime", LIFETIMES)
            reveal = []
            for j, ed in enumerate(r.list(cd, item, "reveal", 4)):
                eff = r.effect(ed, item, f"reveal[{j}]")
                if eff.op not in _REVEAL_OPS:
                    r.fail(item, f"reveal[{j}].op", f"{short_repr(eff.op)} is not a reveal effect; one of {', '.join(_REVEAL_OPS)}")
                reveal.append(eff)
            scoring = None
            if "scoring" in cd:
                scoring = r.effect(cd["scoring"], item, "scoring")
                if scoring.op not in FAVOUR_OPS:
                    r.fail(item, "scoring.op", f"one of {', '.join(FAVOUR_OPS)}")
            for fld, eff in [(f"reveal[{j}]", e) for j, e in enumerate(reveal)] + [("scoring", scoring)]:
                if eff is None:
                    continue
                if eff.op in _PER_PLAYER_OPS and eff.who != "each":
                    r.fail(item, f"{fld}.who", "event effects on players use who = \"each\"")
                if (eff.op in ("kill_each", "set_tunnel") or eff.sel == "event_space") and place == "none":
                    r.fail(item, f"{fld}.op", "needs a placed event (place is 'none')")
                if eff.op == "take_unearned" and eff.to != "available":
                    r.fail(item, f"{fld}.to", "events give hearts to 'available' only")
            if life in ("until_scored", "wandering") and scoring is None:
                r.fail(item, "lifetime", f"{short_repr(life)} needs a scoring effect")
            if life == "wandering" and place == "none":
                r.fail(item, "lifetime", "'wandering' needs a placed event")
            out.append(Card(key, name, place=place, reveal=tuple(reveal), scoring=scoring, lifetime=life))
        else:
            eff = r.effect(cd["score"], item, "score")
            if eff.op not in FAVOUR_OPS[1:]:
                r.fail(item, "score.op", "favour_per or favour_if")
            _check_card_effect(r, item, "score", eff, "rest_scoring", "card")
            out.append(Card(key, name, effect=eff))
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _load_cached(paths: tuple) -> Content:
    files = dict(zip(DEFAULT_FILES, paths))
    docs = {k: _read(files[k], DEFAULT_FILES[k], k) for k in DEFAULT_FILES}
    mp = _load_map(*docs["map_file"])
    shamans = _load_shamans(*docs["shaman_file"], {s.role for s in mp.spaces})
    divs = _load_cards(*docs["divination_file"], "div", 64)
    events = _load_cards(*docs["event_file"], "event", 32)
    objs = _load_cards(*docs["objective_file"], "obj", 64)
    return Content(mp, shamans, divs, events, objs)


def load_content(paths: dict | None = None) -> Content:
    """Load and validate the five content files.

    Args:
        paths: ``{config key: path or None}`` for the keys of :data:`DEFAULT_FILES`; None or a missing key
            means the reference file in ``monolith_envs/the_monolith/data``.

    Returns:
        The frozen :class:`Content` (cached per distinct set of paths).

    Raises:
        ContentError: a file that cannot be read, is not TOML, or breaks the schema (docs §5.7).
    """
    paths = paths or {}
    key = tuple(None if paths.get(k) is None else os.fspath(paths[k]) for k in DEFAULT_FILES)
    if all(k is None for k in key):
        return _load_cached(key)
    return _load_cached.__wrapped__(key)  # user files are read afresh each time
