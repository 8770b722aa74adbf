"""Monolith Arena content: faction TOML files parsed into frozen dataclasses (spec §5, ARCHITECTURE §6).

One TOML file per faction (schema: spec §5.2) names its tiles and, for Runes, Banner auras and Orders,
effects from the small vocabulary of spec §5.3.  :func:`load_content` reads and validates a list of such
files and assigns global type ids (faction offset + local index, faction order = order of the files).
The reference content (spec §5.4) gives Dragon Empire 0-14, Lords of the Abyss 15-31, Guardians of the
Realm 32-50 and Harbingers of the Forest 51-66, so ``T = 67``.

Every problem found while loading raises :class:`ContentError`, whose message names the file, the line,
the tile id, the field, and what is allowed there.
"""

from __future__ import annotations

import functools
import importlib.resources
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from ..core.game import MonolithEnvError

__all__ = [
    "AURA_EFFECTS",
    "BOARD_KINDS",
    "FEATURES",
    "HAND_TILES",
    "KINDS",
    "MAX_CHOICE_OPTIONS",
    "MAX_TYPES_PER_FACTION",
    "ORDER_EFFECTS",
    "REFERENCE_FILES",
    "Content",
    "ContentError",
    "Effect",
    "Faction",
    "TileType",
    "load_content",
]

REFERENCE_FILES: tuple[str, ...] = (
    "dragon_empire.toml",
    "lords_of_the_abyss.toml",
    "guardians_of_the_realm.toml",
    "harbingers_of_the_forest.toml",
)
"""File names of the reference factions (spec §5.4) in ``monolith_envs/arena/data``: DE, LA, GR, HF."""

KINDS: tuple[str, ...] = ("banner", "champion", "rune", "order")
"""Tile kinds (spec §2.2); the first three are Board tiles."""

BOARD_KINDS: tuple[str, ...] = ("banner", "champion", "rune")
"""Kinds usable in an effect's ``kinds`` predicate (spec §5.3), in canonical order."""

FEATURES: tuple[str, ...] = ("maneuver", "cavalry", "venom", "teleport", "swap")
"""Printed features a Champion or Banner may carry (spec §5.3 tile keywords)."""

GRANTABLE_FEATURES: tuple[str, ...] = ("maneuver", "venom", "rotate")
"""Features the ``grant`` effect may give (spec §5.3)."""

WHO_VALUES: tuple[str, ...] = ("own", "enemy", "any")
SCOPES: tuple[str, ...] = ("connected", "adjacent", "boundless")
SHAPES: tuple[str, ...] = ("triangle",)
PROVENANCES: tuple[str, ...] = ("sourced", "designed", "mixed")

HAND_TILES = 35
"""Tile instances per faction (spec §2.2)."""

MAX_TYPES_PER_FACTION = 20
"""Types per faction are limited by the ``PICK_TYPE`` family size (spec §6.1)."""

MAX_CHOICE_OPTIONS = 5
"""Options of a ``choice`` Order are limited by the ``SELECT_MODE`` family size (spec §6.1)."""

_PRED = ("who", "kinds", "scope")
AURA_EFFECTS: dict[str, tuple[str, ...]] = {
    "initiative_bonus": ("amount",) + _PRED,
    "melee_bonus": ("amount",) + _PRED,
    "ranged_bonus": ("amount",) + _PRED,
    "toughness_bonus": ("amount",) + _PRED,
    "extra_attack": _PRED,
    "pierce": _PRED,
    "grant": ("feature",) + _PRED,
    "teleport_link": ("uses",) + _PRED,
    "regenerate": _PRED,
    "disarm": _PRED,
    "charge_bonus": ("amount",) + _PRED,
}
"""Rune and Banner-aura effects (spec §5.3) and the parameters each accepts."""

ORDER_EFFECTS: dict[str, tuple[str, ...]] = {
    "battle": (),
    "charge": (),
    "move": (),
    "push_back": (),
    "net_mark": (),
    "wound_target": ("amount", "who", "kinds"),
    "wound_area": ("amount", "shape", "kinds"),
    "entrench": ("kinds",),
    "rotate_target": ("who", "kinds"),
    "choice": ("options",),
}
"""Order effects (spec §5.3) and the parameters each accepts."""

_TILE_FIELDS_BY_KIND: dict[str, tuple[str, ...]] = {
    "banner": ("initiative", "melee", "ranged", "armor", "net", "kill", "toughness", "strike_any", "features",
               "effects"),
    "champion": ("initiative", "melee", "ranged", "armor", "net", "kill", "toughness", "strike_any",
                 "features"),
    "rune": ("toughness", "connect", "boundless", "effects"),
    "order": ("order",),
}
_COMMON_FIELDS = ("id", "name", "kind", "count", "provenance", "notes")
_ALL_TILE_FIELDS = _COMMON_FIELDS + (
    "initiative", "melee", "ranged", "armor", "net", "kill", "toughness", "strike_any", "features",
    "connect", "boundless", "effects", "order",
)
_FACTION_KEYS = ("id", "name", "banner_hp")


class ContentError(MonolithEnvError, ValueError):
    """A faction file that cannot be read or breaks the schema of spec §5.2 / vocabulary of §5.3.

    The message has the form ``"<file>:<line>: tile '<id>', field '<field>': <problem>; allowed: <...>"``
    (parts that do not apply are left out).

    Attributes:
        path: the file (as given, or the reference resource path).
        line: 1-based line number (0 when unknown).
        tile_id: the tile id concerned ("" for faction-level problems).
        field: the offending field ("" when the whole entry or file is concerned).
    """

    def __init__(self, path: str, line: int, tile_id: str, field: str, problem: str, allowed: str = ""):
        self.path = path
        self.line = line
        self.tile_id = tile_id
        self.field = field
        where = f"{path}:{line}" if line else f"{path}"
        parts = []
        if tile_id:
            parts.append(f"tile '{tile_id}'")
        if field:
            parts.append(f"field '{field}'")
        head = where + (": " + ", ".join(parts) if parts else "")
        msg = f"{head}: {problem}"
        if allowed:
            msg += f"; allowed: {allowed}"
        super().__init__(msg)


@dataclass(frozen=True)
class Effect:
    """One effect of the vocabulary (spec §5.3), with its parameters.

    Attributes:
        effect: vocabulary name, e.g. ``"melee_bonus"`` or ``"wound_area"``.
        amount: size of a bonus or of an Order's hit (≥ 1).
        kinds: kinds of recipient/target tiles, a subset of ``("banner", "champion", "rune")`` in that
            canonical order; empty = no kind restriction.
        who: ``"own"``, ``"enemy"`` or ``"any"`` relative to the owner (allies never match).  Rune and aura
            effects are fixed by spec §4.6: ``"enemy"`` for ``disarm``, ``"own"`` for all others.
        scope: ``"connected"`` (Rune default), ``"adjacent"`` (Banner default: all 6 neighbours) or
            ``"boundless"`` (every own tile on the board; the default of a Rune with ``boundless = true``).
            Meaningless for Orders.
        feature: for ``grant``: ``"maneuver"``, ``"venom"`` or ``"rotate"``.
        shape: for ``wound_area``: ``"triangle"`` (spec §2.1 triangles 0-23).
        uses: for ``teleport_link``: teleports granted per own turn.
        options: for ``choice``: 1-5 Order effects (no nested ``choice``), in ``SELECT_MODE`` index order.
    """

    effect: str
    amount: int = 1
    kinds: tuple[str, ...] = ()
    who: str = "own"
    scope: str = "connected"
    feature: str = ""
    shape: str = "triangle"
    uses: int = 1
    options: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class TileType:
    """One tile type of a faction (spec §2.2, §5.2).

    Edges are printed edges in the tile frame of spec §2.1 (0 = front, clockwise); a printed edge ``e`` of a
    tile at facing ``f`` points in board direction ``(e + f) % 6``.

    Attributes:
        gid: global type id (faction offset + ``local``).
        faction: faction id.
        local: index of the type within its faction (position in the file; the Banner is 0).
        id: unique tile id, e.g. ``"de_knight"``.
        name: display name.
        kind: ``"banner"``, ``"champion"``, ``"rune"`` or ``"order"``.
        count: number of copies among the faction's 35 instances.
        initiative: printed initiative values (empty = never activates).
        melee: ``(edge, strength)`` pairs, in file order.
        ranged: ``(edge, strength)`` pairs, in file order.
        armor: armored edges.
        net: net edges.
        kill: kill edges.
        toughness: printed toughness (a tile survives while wounds ≤ toughness).
        strike_any: strength of a strike at any enemy tile (0 = none).
        features: printed features (subset of ``FEATURES``).
        connect: Rune connection edges; all six when ``boundless``; empty for other kinds.
        boundless: the Rune affects every own tile on the board.
        effects: Rune effects or the Banner aura.
        order: the Order's effect (``None`` for Board tiles).
        provenance: ``"sourced"``, ``"designed"`` or ``"mixed"`` (spec §5.1).
        notes: free text (sources, frame turns).
    """

    gid: int
    faction: str
    local: int
    id: str
    name: str
    kind: str
    count: int
    initiative: tuple[int, ...]
    melee: tuple[tuple[int, int], ...]
    ranged: tuple[tuple[int, int], ...]
    armor: tuple[int, ...]
    net: tuple[int, ...]
    kill: tuple[int, ...]
    toughness: int
    strike_any: int
    features: frozenset[str]
    connect: tuple[int, ...]
    boundless: bool
    effects: tuple[Effect, ...]
    order: Effect | None
    provenance: str
    notes: str

    @property
    def is_board_tile(self) -> bool:
        """True for Banners, Champions and Runes (spec §2.2)."""
        return self.kind != "order"


@dataclass(frozen=True)
class Faction:
    """One faction: its tile types and its 35 tile instances (spec §2.2, §5.4).

    Attributes:
        id: faction id, e.g. ``"dragon_empire"``.
        name: display name.
        banner_hp: starting Banner HP (20 in the reference).
        index: position of the faction in the loaded file list.
        offset: global type id of its local type 0 (the Banner).
        types: its tile types in local order.
        instances: 35 local type indices, one per instance: the Banner first, then the copies of each type
            consecutively in local order.  Instance ``i`` of a player is a tile of type
            ``offset + instances[i]``.
    """

    id: str
    name: str
    banner_hp: int
    index: int
    offset: int
    types: tuple[TileType, ...]
    instances: tuple[int, ...]


@dataclass(frozen=True)
class Content:
    """All loaded factions and tile types.

    Attributes:
        factions: factions in file order.
        types: every tile type, indexed by global type id (``types[gid].gid == gid``).
    """

    factions: tuple[Faction, ...]
    types: tuple[TileType, ...]

    @property
    def num_types(self) -> int:
        """``T``, the number of tile types over all factions (67 for the reference)."""
        return len(self.types)

    def faction(self, id: str) -> Faction:
        """The faction with this id.

        Raises:
            KeyError: unknown id (the message lists the valid ids).
        """
        for f in self.factions:
            if f.id == id:
                return f
        raise KeyError(f"unknown faction {id!r}; valid faction ids: {', '.join(f.id for f in self.factions)}")

    def type_by_id(self, tile_id: str) -> TileType:
        """The tile type with this tile id (e.g. ``"de_knight"``).

        Raises:
            KeyError: unknown tile id.
        """
        t = self._by_id().get(tile_id)
        if t is None:
            raise KeyError(f"unknown tile id {tile_id!r}; tile ids look like 'de_knight', 'la_spike', ...")
        return t

    def _by_id(self) -> dict[str, TileType]:
        cache = self.__dict__.get("_id_index")
        if cache is None:
            cache = {t.id: t for t in self.types}
            object.__setattr__(self, "_id_index", cache)
        return cache


# ----------------------------------------------------------------------------------------------------
# Loading and validation
# ----------------------------------------------------------------------------------------------------


class _Src:
    """A file's text plus helpers to find the line of a tile or field."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.lines = text.splitlines()
        self._tile_starts = [i for i, ln in enumerate(self.lines) if re.match(r"\s*\[\[\s*tiles\s*\]\]", ln)]

    def faction_line(self, key: str = "") -> int:
        start = next((i for i, ln in enumerate(self.lines) if re.match(r"\s*\[\s*faction\s*\]", ln)), None)
        if start is None:
            return 0
        if key:
            for i in range(start + 1, len(self.lines)):
                ln = self.lines[i]
                if re.match(r"\s*\[", ln):
                    break
                if re.match(rf"\s*{re.escape(key)}\s*=", ln):
                    return i + 1
        return start + 1

    def tile_line(self, tile_id: str, pos: int, field: str = "") -> int:
        """Line of ``field`` in the tile block (found via the tile's id line), else of the id line."""
        idx = None
        if tile_id:
            pat = re.compile(r"\s*id\s*=\s*[\"']" + re.escape(tile_id) + r"[\"']")
            idx = next((i for i, ln in enumerate(self.lines) if pat.match(ln)), None)
        if idx is None:
            if 0 <= pos < len(self._tile_starts):
                idx = self._tile_starts[pos]
            else:
                return 0
        if field and field != "id":
            lo = max((s for s in self._tile_starts if s <= idx), default=0)
            hi = min((s for s in self._tile_starts if s > idx), default=len(self.lines))
            pat = re.compile(rf"\s*{re.escape(field)}\s*=")
            for i in range(lo, hi):
                if pat.match(self.lines[i]):
                    return i + 1
        return idx + 1


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _TileParser:
    """Validates one ``[[tiles]]`` entry and builds its :class:`TileType`."""

    def __init__(self, src: _Src, pos: int, raw: Any, faction: str, gid: int, local: int):
        self.src = src
        self.pos = pos
        self.raw = raw
        self.faction = faction
        self.gid = gid
        self.local = local
        self.tid = raw.get("id", "") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else ""

    def err(self, field: str, problem: str, allowed: str = "") -> ContentError:
        return ContentError(self.src.path, self.src.tile_line(self.tid, self.pos, field), self.tid or
                            f"#{self.pos}", field, problem, allowed)

    # -- scalar helpers --
    def _int(self, field: str, default: int | None, lo: int | None = None) -> int:
        v = self.raw.get(field, default)
        if v is None:
            raise self.err(field, "missing", "an integer")
        if not _is_int(v):
            raise self.err(field, f"{v!r} is not an integer", "an integer" + (f" >= {lo}" if lo is not None else ""))
        if lo is not None and v < lo:
            raise self.err(field, f"{v} is too small", f"an integer >= {lo}")
        return v

    def _str(self, field: str, default: str | None) -> str:
        v = self.raw.get(field, default)
        if v is None:
            raise self.err(field, "missing", "a string")
        if not isinstance(v, str):
            raise self.err(field, f"{v!r} is not a string", "a string")
        return v

    def _edges(self, field: str) -> tuple[int, ...]:
        v = self.raw.get(field, [])
        if not isinstance(v, list):
            raise self.err(field, f"{v!r} is not a list of edges", "a list of edges 0-5")
        out = []
        for e in v:
            if not _is_int(e) or not 0 <= e <= 5:
                raise self.err(field, f"edge {e!r} is out of range", "edges 0-5")
            if e in out:
                raise self.err(field, f"edge {e} is listed twice", "each edge 0-5 at most once")
            out.append(e)
        return tuple(out)

    def _attacks(self, field: str) -> tuple[tuple[int, int], ...]:
        v = self.raw.get(field, [])
        allowed = "a list of [edge, strength] pairs, edge 0-5, strength >= 1"
        if not isinstance(v, list):
            raise self.err(field, f"{v!r} is not a list", allowed)
        out: list[tuple[int, int]] = []
        for p in v:
            if not isinstance(p, list) or len(p) != 2 or not all(_is_int(x) for x in p):
                raise self.err(field, f"{p!r} is not an [edge, strength] pair", allowed)
            e, s = p
            if not 0 <= e <= 5:
                raise self.err(field, f"edge {e} is out of range", allowed)
            if s < 1:
                raise self.err(field, f"strength {s} on edge {e} is below 1", allowed)
            if any(e == q for q, _ in out):
                raise self.err(field, f"edge {e} is listed twice", allowed)
            out.append((e, s))
        return tuple(out)

    # -- effects --
    def _effect(self, field: str, raw: Any, context: str, kind: str, boundless: bool,
                in_choice: bool = False) -> Effect:
        vocab = ORDER_EFFECTS if context == "order" else AURA_EFFECTS
        if isinstance(raw, str):
            raw = {"effect": raw}
        if not isinstance(raw, dict):
            raise self.err(field, f"{raw!r} is not an effect table",
                           "an inline table such as { effect = \"melee_bonus\", amount = 1 }")
        name = raw.get("effect")
        if name is None:
            raise self.err(field, "effect table without 'effect' key", "effect names: " + ", ".join(vocab))
        if name not in vocab:
            where = "an Order" if context == "order" else ("a Banner aura" if kind == "banner" else "a Rune")
            raise self.err(field, f"unknown effect {name!r} for {where}", ", ".join(vocab))
        params = vocab[name]
        for k in raw:
            if k != "effect" and k not in params:
                raise self.err(field, f"unknown parameter {k!r} of effect {name!r}",
                               ", ".join(params) if params else "no parameters")
        kw: dict[str, Any] = {"effect": name}
        if "amount" in raw:
            a = raw["amount"]
            if not _is_int(a) or a < 1:
                raise self.err(field, f"amount {a!r} of {name!r} is not an integer >= 1", "an integer >= 1")
            kw["amount"] = a
        if "uses" in raw:
            a = raw["uses"]
            if not _is_int(a) or a < 1:
                raise self.err(field, f"uses {a!r} of {name!r} is not an integer >= 1", "an integer >= 1")
            kw["uses"] = a
        if "kinds" in raw:
            ks = raw["kinds"]
            if not isinstance(ks, list) or not ks or any(k not in BOARD_KINDS for k in ks) or \
                    len(set(ks)) != len(ks):
                raise self.err(field, f"kinds {ks!r} of {name!r} is not a non-empty list of distinct kinds",
                               ", ".join(BOARD_KINDS))
            kw["kinds"] = tuple(k for k in BOARD_KINDS if k in ks)
        if context != "order":
            fixed = "enemy" if name == "disarm" else "own"
            who = raw.get("who", fixed)
            if who != fixed:
                raise self.err(field, f"who {who!r} is not possible for {name!r} (spec §4.6)",
                               f"who = \"{fixed}\"")
            kw["who"] = who
            if kind == "banner":
                scope = raw.get("scope", "adjacent")
                allowed_scopes = ("adjacent", "boundless")
            else:
                scope = raw.get("scope", "boundless" if boundless else "connected")
                allowed_scopes = SCOPES
            if scope not in allowed_scopes:
                raise self.err(field, f"scope {scope!r} of {name!r} is not allowed on a {kind}",
                               ", ".join(allowed_scopes))
            if boundless and scope != "boundless":
                raise self.err(field, f"scope {scope!r} of {name!r} contradicts boundless = true",
                               "\"boundless\"")
            kw["scope"] = scope
        elif "who" in raw:
            who = raw["who"]
            if who not in WHO_VALUES:
                raise self.err(field, f"who {who!r} of {name!r} is not allowed", ", ".join(WHO_VALUES))
            kw["who"] = who
        if name == "grant":
            feat = raw.get("feature")
            if feat not in GRANTABLE_FEATURES:
                raise self.err(field, f"feature {feat!r} of 'grant' is not grantable", ", ".join(GRANTABLE_FEATURES))
            kw["feature"] = feat
        if "shape" in raw:
            if raw["shape"] not in SHAPES:
                raise self.err(field, f"shape {raw['shape']!r} of {name!r} is not allowed", ", ".join(SHAPES))
            kw["shape"] = raw["shape"]
        if name == "choice":
            if in_choice:
                raise self.err(field, "a 'choice' option may not itself be a 'choice'",
                               "the other Order effects: " + ", ".join(e for e in ORDER_EFFECTS if e != "choice"))
            opts = raw.get("options")
            if not isinstance(opts, list) or not 1 <= len(opts) <= MAX_CHOICE_OPTIONS:
                n = len(opts) if isinstance(opts, list) else opts
                raise self.err(field, f"'choice' has {n!r} options",
                               f"a list of 1-{MAX_CHOICE_OPTIONS} options (effect names or inline tables)")
            kw["options"] = tuple(self._effect(field, o, context, kind, boundless, in_choice=True) for o in opts)
        return Effect(**kw)

    def build(self) -> TileType:
        raw = self.raw
        if not isinstance(raw, dict):
            raise self.err("", f"[[tiles]] entry {raw!r} is not a table")
        if "id" not in raw:
            raise self.err("id", "missing", "a unique string such as \"de_knight\"")
        tid = self._str("id", None)
        if not re.fullmatch(r"[a-z0-9_]+", tid):
            raise self.err("id", f"{tid!r} is not snake_case", "lower-case letters, digits and _")
        kind = raw.get("kind")
        if kind not in KINDS:
            raise self.err("kind", f"unknown kind {kind!r}", ", ".join(KINDS))
        for k in raw:
            if k not in _ALL_TILE_FIELDS:
                raise self.err(k, f"unknown field {k!r}", ", ".join(_ALL_TILE_FIELDS))
            if k not in _COMMON_FIELDS and k not in _TILE_FIELDS_BY_KIND[kind]:
                raise self.err(k, f"field {k!r} is not used by a {kind}",
                               ", ".join(_COMMON_FIELDS + _TILE_FIELDS_BY_KIND[kind]))
        default_name = " ".join(w.capitalize() for w in tid.split("_")[1:]) or tid
        name = self._str("name", default_name)
        count = self._int("count", None, lo=1)
        prov = self._str("provenance", "designed")
        if prov not in PROVENANCES:
            raise self.err("provenance", f"unknown provenance {prov!r}", ", ".join(PROVENANCES))
        notes = self._str("notes", "")
        init_raw = raw.get("initiative", [])
        if not isinstance(init_raw, list) or any(not _is_int(x) or x < 0 for x in init_raw):
            raise self.err("initiative", f"{init_raw!r} is not a list of initiatives", "integers >= 0")
        melee = self._attacks("melee")
        ranged = self._attacks("ranged")
        armor = self._edges("armor")
        net = self._edges("net")
        kill = self._edges("kill")
        toughness = self._int("toughness", 0, lo=0)
        strike_any = self._int("strike_any", 0, lo=0)
        feats = raw.get("features", [])
        if not isinstance(feats, list):
            raise self.err("features", f"{feats!r} is not a list", ", ".join(FEATURES))
        for ft in feats:
            if ft not in FEATURES:
                raise self.err("features", f"unknown feature {ft!r}", ", ".join(FEATURES))
        boundless = raw.get("boundless", False)
        if not isinstance(boundless, bool):
            raise self.err("boundless", f"{boundless!r} is not a boolean", "true or false")
        connect = self._edges("connect")
        if kind == "rune":
            if boundless and "connect" in raw:
                raise self.err("connect", "a boundless Rune has no connection list",
                               "either connect = [edges] or boundless = true")
            if not boundless and not connect:
                raise self.err("connect", "a Rune needs connection edges or boundless = true",
                               "connect = [edges 0-5] or boundless = true")
            if boundless:
                connect = tuple(range(6))
        effects_raw = raw.get("effects", [])
        if not isinstance(effects_raw, list):
            raise self.err("effects", f"{effects_raw!r} is not a list of effect tables",
                           "a list of inline tables")
        effects = tuple(self._effect("effects", e, "aura", kind, boundless) for e in effects_raw)
        order = None
        if kind == "order":
            if "order" not in raw:
                raise self.err("order", "an Order tile needs an 'order' effect", ", ".join(ORDER_EFFECTS))
            order = self._effect("order", raw["order"], "order", kind, False)
        return TileType(
            gid=self.gid, faction=self.faction, local=self.local, id=tid, name=name, kind=kind, count=count,
            initiative=tuple(init_raw), melee=melee, ranged=ranged, armor=armor, net=net, kill=kill,
            toughness=toughness, strike_any=strike_any, features=frozenset(feats), connect=connect,
            boundless=boundless, effects=effects, order=order, provenance=prov, notes=notes,
        )


def _parse_faction(path: str, text: str, index: int, offset: int, seen_ids: dict[str, str]) -> Faction:
    src = _Src(path, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ContentError(path, int(m.group(1)) if m else 0, "", "", f"TOML syntax error: {exc}",
                           "TOML 1.0 syntax") from None
    for k in data:
        if k not in ("faction", "tiles"):
            raise ContentError(path, 0, "", k, f"unknown top-level key {k!r}", "[faction] and [[tiles]]")
    fac = data.get("faction")
    if not isinstance(fac, dict):
        raise ContentError(path, 0, "", "faction", "missing [faction] table",
                           "[faction] with id, name, banner_hp")
    for k in _FACTION_KEYS:
        if k not in fac:
            raise ContentError(path, src.faction_line(), "", f"faction.{k}", "missing key in [faction]",
                               ", ".join(_FACTION_KEYS))
    for k in fac:
        if k not in _FACTION_KEYS:
            raise ContentError(path, src.faction_line(k), "", f"faction.{k}", f"unknown key {k!r} in [faction]",
                               ", ".join(_FACTION_KEYS))
    fid, fname, hp = fac["id"], fac["name"], fac["banner_hp"]
    if not isinstance(fid, str) or not re.fullmatch(r"[a-z0-9_]+", fid):
        raise ContentError(path, src.faction_line("id"), "", "faction.id", f"{fid!r} is not a snake_case id",
                           "lower-case letters, digits and _")
    if not isinstance(fname, str):
        raise ContentError(path, src.faction_line("name"), "", "faction.name", f"{fname!r} is not a string",
                           "a string")
    if not _is_int(hp) or hp < 1:
        raise ContentError(path, src.faction_line("banner_hp"), "", "faction.banner_hp",
                           f"{hp!r} is not a positive integer", "an integer >= 1")
    tiles_raw = data.get("tiles", [])
    if not isinstance(tiles_raw, list) or not tiles_raw:
        raise ContentError(path, 0, "", "tiles", "no [[tiles]] entries", "one [[tiles]] table per tile type")
    if len(tiles_raw) > MAX_TYPES_PER_FACTION:
        raise ContentError(path, src.tile_line("", MAX_TYPES_PER_FACTION), "", "tiles",
                           f"{len(tiles_raw)} tile types in faction {fid!r}",
                           f"at most {MAX_TYPES_PER_FACTION} types per faction")
    types: list[TileType] = []
    for pos, raw in enumerate(tiles_raw):
        tp = _TileParser(src, pos, raw, fid, offset + pos, pos)
        t = tp.build()
        if t.id in seen_ids:
            raise tp.err("id", f"duplicate tile id {t.id!r} (already defined in {seen_ids[t.id]})",
                         "ids unique across all faction files")
        seen_ids[t.id] = path
        types.append(t)
    banners = [t for t in types if t.kind == "banner"]
    if len(banners) != 1:
        t = banners[1] if len(banners) > 1 else types[0]
        raise ContentError(path, src.tile_line(t.id, t.local, "kind"), t.id, "kind",
                           f"faction {fid!r} has {len(banners)} banners", "exactly 1 banner per faction")
    if banners[0].local != 0:
        b = banners[0]
        raise ContentError(path, src.tile_line(b.id, b.local, "kind"), b.id, "kind",
                           "the banner is not the first [[tiles]] entry", "the banner as local type 0")
    if banners[0].count != 1:
        b = banners[0]
        raise ContentError(path, src.tile_line(b.id, 0, "count"), b.id, "count",
                           f"banner count {b.count}", "count = 1 for the banner")
    total = sum(t.count for t in types)
    if total != HAND_TILES:
        last = types[-1]
        raise ContentError(path, src.tile_line(last.id, last.local, "count"), last.id, "count",
                           f"counts of faction {fid!r} sum to {total}", f"counts summing to {HAND_TILES}")
    instances = tuple(t.local for t in types for _ in range(t.count))
    return Faction(id=fid, name=fname, banner_hp=hp, index=index, offset=offset, types=tuple(types),
                   instances=instances)


def _read_reference(name: str) -> tuple[str, str]:
    res = importlib.resources.files("monolith_envs.arena") / "data" / name
    return str(res), res.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=32)
def _load(paths: tuple[str, ...] | None) -> Content:
    sources: list[tuple[str, str]] = []
    if paths is None:
        sources = [_read_reference(n) for n in REFERENCE_FILES]
    else:
        for p in paths:
            try:
                with open(p, encoding="utf-8") as fh:
                    sources.append((p, fh.read()))
            except OSError as exc:
                raise ContentError(p, 0, "", "", f"cannot read faction file: {exc.strerror or exc}",
                                   "a readable TOML file") from None
    if not sources:
        raise ContentError("<faction_files>", 0, "", "", "no faction files given", "at least one file")
    factions: list[Faction] = []
    seen_ids: dict[str, str] = {}
    seen_factions: dict[str, str] = {}
    offset = 0
    for i, (path, text) in enumerate(sources):
        f = _parse_faction(path, text, i, offset, seen_ids)
        if f.id in seen_factions:
            raise ContentError(path, _Src(path, text).faction_line("id"), "", "faction.id",
                               f"duplicate faction id {f.id!r} (already in {seen_factions[f.id]})",
                               "faction ids unique across files")
        seen_factions[f.id] = path
        factions.append(f)
        offset += len(f.types)
    types = tuple(t for f in factions for t in f.types)
    return Content(factions=tuple(factions), types=types)


def load_content(paths: Sequence[str | os.PathLike] | None = None) -> Content:
    """Load and validate faction files (spec §5.2-§5.4).

    Args:
        paths: TOML files, one faction each, in faction order (global type ids follow this order).
            ``None`` loads the four reference files :data:`REFERENCE_FILES` shipped in
            ``monolith_envs/arena/data`` (read via ``importlib.resources``).

    Returns:
        The :class:`Content`; cached per tuple of paths (the same object for the same argument).

    Raises:
        ContentError: unreadable file, TOML syntax error, missing ``[faction]`` keys, not exactly one
            banner, more than 20 types, counts not summing to 35, duplicate tile ids, unknown kind, field,
            feature, effect or parameter, edges outside 0-5, strength < 1, negative toughness, bad
            ``who``/``kinds``/``scope``, a ``choice`` with more than 5 options or nested, an Order without
            ``order`` (or a Board tile with one), a Rune with neither ``connect`` nor ``boundless``.
            The message names the file, line, tile id and field, and what is allowed.
    """
    if paths is None:
        return _load(None)
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return _load(tuple(os.fspath(p) for p in paths))
