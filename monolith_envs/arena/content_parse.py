"""Validation of one Monolith Arena faction file against the schema of :mod:`.content_schema`
(docs/monolith_arena.md §5.2-§5.3): every field's type, every number's bounds (:data:`.content_schema.BOUNDS`),
the effect vocabulary, one Banner first, counts summing to 35.  Every problem is a :class:`ContentError`
naming the file, the line, the tile and the field.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.config import short_repr
from ..core.content import TomlFile, is_int
from .content_schema import (
    ALL_TILE_FIELDS,
    AURA_EFFECTS,
    BANNER_NO_EFFECTS,
    BANNER_NO_FEATURES,
    BOARD_KINDS,
    BOUNDS,
    COMMON_FIELDS,
    FACTION_KEYS,
    FEATURES,
    GRANTABLE_FEATURES,
    HAND_TILES,
    KINDS,
    MAX_CHOICE_OPTIONS,
    MAX_INITIATIVES,
    MAX_TYPES_PER_FACTION,
    ORDER_EFFECTS,
    PROVENANCES,
    SCOPES,
    SHAPES,
    TILE_FIELDS_BY_KIND,
    WHO_VALUES,
    ContentError,
    Effect,
    Faction,
    TileType,
)

__all__ = ["parse_faction", "faction_id_line"]


class _Src:
    """A file's text plus helpers to find the line of a tile or field."""

    def __init__(self, path: str, lines: tuple[str, ...]):
        self.path = path
        self.lines = lines
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


def _error(path: str, line: int, tile_id: str, field: str, problem: str, allowed: str = "") -> ContentError:
    return ContentError(path, line, tile_id, field, problem, allowed, label="tile")


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
                            f"#{self.pos}", field, problem, allowed, label="tile")

    # -- scalar helpers --
    def _int(self, field: str, default: int | None) -> int:
        lo, hi = BOUNDS[field]
        v = self.raw.get(field, default)
        if v is None:
            raise self.err(field, "missing", f"an integer from {lo} to {hi}")
        if not is_int(v):
            raise self.err(field, f"{short_repr(v)} is not an integer", f"an integer from {lo} to {hi}")
        if v < lo:
            raise self.err(field, f"{short_repr(v)} is too small", f"an integer >= {lo} and <= {hi}")
        if v > hi:
            raise self.err(field, f"{short_repr(v)} is too large", f"an integer >= {lo} and <= {hi}")
        return v

    def _str(self, field: str, default: str | None) -> str:
        v = self.raw.get(field, default)
        if v is None:
            raise self.err(field, "missing", "a string")
        if not isinstance(v, str):
            raise self.err(field, f"{short_repr(v)} is not a string", "a string")
        return v

    def _edges(self, field: str) -> tuple[int, ...]:
        v = self.raw.get(field, [])
        if not isinstance(v, list):
            raise self.err(field, f"{short_repr(v)} is not a list of edges", "a list of edges 0-5")
        out = []
        for e in v:
            if not is_int(e) or not 0 <= e <= 5:
                raise self.err(field, f"edge {short_repr(e)} is out of range", "edges 0-5")
            if e in out:
                raise self.err(field, f"edge {e} is listed twice", "each edge 0-5 at most once")
            out.append(e)
        return tuple(out)

    def _attacks(self, field: str) -> tuple[tuple[int, int], ...]:
        v = self.raw.get(field, [])
        lo, hi = BOUNDS["strength"]
        allowed = f"a list of [edge, strength] pairs, edge 0-5, strength >= {lo} and <= {hi}"
        if not isinstance(v, list):
            raise self.err(field, f"{short_repr(v)} is not a list", allowed)
        out: list[tuple[int, int]] = []
        for p in v:
            if not isinstance(p, list) or len(p) != 2 or not all(is_int(x) for x in p):
                raise self.err(field, f"{short_repr(p)} is not an [edge, strength] pair", allowed)
            e, s = p
            if not 0 <= e <= 5:
                raise self.err(field, f"edge {short_repr(e)} is out of range", allowed)
            if s < lo:
                raise self.err(field, f"strength {short_repr(s)} on edge {e} is below {lo}", allowed)
            if s > hi:
                raise self.err(field, f"strength {short_repr(s)} on edge {e} is above {hi}", allowed)
            if any(e == q for q, _ in out):
                raise self.err(field, f"edge {e} is listed twice", allowed)
            out.append((e, s))
        return tuple(out)

    # -- effects --
    def _effect(self, field: str, raw: Any, context: str, kind: str, boundless: bool,
                in_choice: bool = False) -> Effect:
        vocab = ORDER_EFFECTS if context == "order" else AURA_EFFECTS
        if context != "order" and kind == "banner":  # a Regeneration source is discarded when used (§4.7)
            vocab = {k: v for k, v in vocab.items() if k not in BANNER_NO_EFFECTS}
        if isinstance(raw, str):
            raw = {"effect": raw}
        if not isinstance(raw, dict):
            raise self.err(field, f"{short_repr(raw)} is not an effect table",
                           "an inline table such as { effect = \"melee_bonus\", amount = 1 }")
        name = raw.get("effect")
        if name is None:
            raise self.err(field, "effect table without 'effect' key", "effect names: " + ", ".join(vocab))
        if not isinstance(name, str):  # a list or table is no name (nor hashable)
            raise self.err(field, f"effect {name!r:.60} is not an effect name", "effect names: " + ", ".join(vocab))
        if context != "order" and kind == "banner" and name in BANNER_NO_EFFECTS:
            raise self.err(field, f"a Banner aura cannot be {short_repr(name)}: a Regeneration source is discarded when used "
                           "(spec §4.7), a Banner never is", ", ".join(vocab))
        if name not in vocab:
            where = "an Order" if context == "order" else ("a Banner aura" if kind == "banner" else "a Rune")
            raise self.err(field, f"unknown effect {short_repr(name)} for {where}", ", ".join(vocab))
        params = vocab[name]
        for k in raw:
            if k != "effect" and k not in params:
                raise self.err(field, f"unknown parameter {short_repr(k)} of effect {short_repr(name)}",
                               ", ".join(params) if params else "no parameters")
        kw: dict[str, Any] = {"effect": name}
        for param in ("amount", "uses"):
            if param in raw:
                a, (lo, hi) = raw[param], BOUNDS[param]
                if not is_int(a) or not lo <= a <= hi:
                    raise self.err(field, f"{param} {short_repr(a)} of {short_repr(name)} is not an integer from {lo} to {hi}",
                                   f"an integer >= {lo} and <= {hi}")
                kw[param] = a
        if "kinds" in raw:
            ks = raw["kinds"]
            if not isinstance(ks, list) or not ks or any(k not in BOARD_KINDS for k in ks) or \
                    len(set(ks)) != len(ks):
                raise self.err(field, f"kinds {short_repr(ks)} of {short_repr(name)} is not a non-empty list of distinct kinds",
                               ", ".join(BOARD_KINDS))
            kw["kinds"] = tuple(k for k in BOARD_KINDS if k in ks)
        if context != "order":
            fixed = "enemy" if name == "disarm" else "own"
            who = raw.get("who", fixed)
            if who != fixed:
                raise self.err(field, f"who {short_repr(who)} is not possible for {short_repr(name)} (spec §4.6)",
                               f"who = \"{fixed}\"")
            kw["who"] = who
            if kind == "banner":
                scope = raw.get("scope", "adjacent")
                allowed_scopes = ("adjacent", "boundless")
            else:
                scope = raw.get("scope", "boundless" if boundless else "connected")
                allowed_scopes = SCOPES
            if scope not in allowed_scopes:
                raise self.err(field, f"scope {short_repr(scope)} of {short_repr(name)} is not allowed on a {kind}",
                               ", ".join(allowed_scopes))
            if boundless and scope != "boundless":
                raise self.err(field, f"scope {short_repr(scope)} of {short_repr(name)} contradicts boundless = true",
                               "\"boundless\"")
            kw["scope"] = scope
        elif "who" in raw:
            who = raw["who"]
            if who not in WHO_VALUES:
                raise self.err(field, f"who {short_repr(who)} of {short_repr(name)} is not allowed", ", ".join(WHO_VALUES))
            kw["who"] = who
        if name == "grant":
            feat = raw.get("feature")
            if feat not in GRANTABLE_FEATURES:
                raise self.err(field, f"feature {short_repr(feat)} of 'grant' is not grantable", ", ".join(GRANTABLE_FEATURES))
            kw["feature"] = feat
        if "shape" in raw:
            if raw["shape"] not in SHAPES:
                raise self.err(field, f"shape {short_repr(raw['shape'])} of {short_repr(name)} is not allowed", ", ".join(SHAPES))
            kw["shape"] = raw["shape"]
        if name == "choice":
            if in_choice:
                raise self.err(field, "a 'choice' option may not itself be a 'choice'",
                               "the other Order effects: " + ", ".join(e for e in ORDER_EFFECTS if e != "choice"))
            opts = raw.get("options")
            if not isinstance(opts, list) or not 1 <= len(opts) <= MAX_CHOICE_OPTIONS:
                n = len(opts) if isinstance(opts, list) else opts
                raise self.err(field, f"'choice' has {short_repr(n)} options",
                               f"a list of 1-{MAX_CHOICE_OPTIONS} options (effect names or inline tables)")
            kw["options"] = tuple(self._effect(field, o, context, kind, boundless, in_choice=True) for o in opts)
        return Effect(**kw)

    def build(self) -> TileType:
        raw = self.raw
        if not isinstance(raw, dict):
            raise self.err("", f"[[tiles]] entry {short_repr(raw)} is not a table")
        if "id" not in raw:
            raise self.err("id", "missing", "a unique string such as \"de_knight\"")
        tid = self._str("id", None)
        if not re.fullmatch(r"[a-z0-9_]+", tid):
            raise self.err("id", f"{short_repr(tid)} is not snake_case", "lower-case letters, digits and _")
        kind = raw.get("kind")
        if kind not in KINDS:
            raise self.err("kind", f"unknown kind {short_repr(kind)}", ", ".join(KINDS))
        for k in raw:
            if k not in ALL_TILE_FIELDS:
                raise self.err(k, f"unknown field {short_repr(k)}", ", ".join(ALL_TILE_FIELDS))
            if k not in COMMON_FIELDS and k not in TILE_FIELDS_BY_KIND[kind]:
                raise self.err(k, f"field {short_repr(k)} is not used by a {kind}",
                               ", ".join(COMMON_FIELDS + TILE_FIELDS_BY_KIND[kind]))
        default_name = " ".join(w.capitalize() for w in tid.split("_")[1:]) or tid
        name = self._str("name", default_name)
        count = self._int("count", None)
        prov = self._str("provenance", "designed")
        if prov not in PROVENANCES:
            raise self.err("provenance", f"unknown provenance {short_repr(prov)}", ", ".join(PROVENANCES))
        notes = self._str("notes", "")
        init_raw = raw.get("initiative", [])
        lo, hi = BOUNDS["initiative"]
        if not isinstance(init_raw, list) or any(not is_int(x) or not lo <= x <= hi for x in init_raw):
            raise self.err("initiative", f"{short_repr(init_raw)} is not a list of initiatives",
                           f"integers from {lo} to {hi}")
        if len(init_raw) > MAX_INITIATIVES:
            raise self.err("initiative", f"{len(init_raw)} initiative values",
                           f"at most {MAX_INITIATIVES} values")
        melee = self._attacks("melee")
        ranged = self._attacks("ranged")
        armor = self._edges("armor")
        net = self._edges("net")
        kill = self._edges("kill")
        if kind == "banner" and kill:
            raise self.err("kill", f"a Banner cannot have kill edges {list(kill)}: the kill step removes its killer "
                           "(spec §4.7)", "kill = [] on a Banner")
        toughness = self._int("toughness", 0)
        strike_any = self._int("strike_any", 0)
        feats = raw.get("features", [])
        if not isinstance(feats, list):
            raise self.err("features", f"{short_repr(feats)} is not a list", ", ".join(FEATURES))
        for ft in feats:
            if ft not in FEATURES:
                raise self.err("features", f"unknown feature {short_repr(ft)}", ", ".join(FEATURES))
            if kind == "banner" and ft in BANNER_NO_FEATURES:
                raise self.err("features", f"a Banner cannot have {short_repr(ft)}: it is never turned or maneuvered (D7)",
                               ", ".join(f for f in FEATURES if f not in BANNER_NO_FEATURES))
        boundless = raw.get("boundless", False)
        if not isinstance(boundless, bool):
            raise self.err("boundless", f"{short_repr(boundless)} is not a boolean", "true or false")
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
            raise self.err("effects", f"{short_repr(effects_raw)} is not a list of effect tables",
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


def faction_id_line(file: TomlFile) -> int:
    """Line of ``id`` in the file's ``[faction]`` table (0 when unknown)."""
    return _Src(file.path, file.lines).faction_line("id")


def parse_faction(file: TomlFile, index: int, offset: int, seen_ids: dict[str, str]) -> Faction:
    """Validate one parsed faction file and build its :class:`Faction`.

    Args:
        file: the file, read and parsed by :func:`monolith_envs.core.content.load_toml`.
        index: the faction's position in the file list.
        offset: global type id of its Banner.
        seen_ids: tile id -> file of every tile already loaded (updated; ids are unique across files).

    Raises:
        ContentError: any break of the schema, naming the file, line, tile and field.
    """
    path, data = file.path, file.data
    src = _Src(path, file.lines)
    for k in data:
        if k not in ("faction", "tiles"):
            raise _error(path, 0, "", k, f"unknown top-level key {short_repr(k)}", "[faction] and [[tiles]]")
    fac = data.get("faction")
    if not isinstance(fac, dict):
        raise _error(path, 0, "", "faction", "missing [faction] table",
                           "[faction] with id, name, banner_hp")
    for k in FACTION_KEYS:
        if k not in fac:
            raise _error(path, src.faction_line(), "", f"faction.{k}", "missing key in [faction]",
                               ", ".join(FACTION_KEYS))
    for k in fac:
        if k not in FACTION_KEYS:
            raise _error(path, src.faction_line(k), "", f"faction.{k}", f"unknown key {short_repr(k)} in [faction]",
                               ", ".join(FACTION_KEYS))
    fid, fname, hp = fac["id"], fac["name"], fac["banner_hp"]
    if not isinstance(fid, str) or not re.fullmatch(r"[a-z0-9_]+", fid):
        raise _error(path, src.faction_line("id"), "", "faction.id", f"{short_repr(fid)} is not a snake_case id",
                           "lower-case letters, digits and _")
    if not isinstance(fname, str):
        raise _error(path, src.faction_line("name"), "", "faction.name", f"{short_repr(fname)} is not a string",
                           "a string")
    lo, hi = BOUNDS["banner_hp"]
    if not is_int(hp) or not lo <= hp <= hi:
        raise _error(path, src.faction_line("banner_hp"), "", "faction.banner_hp",
                           f"{short_repr(hp)} is not an integer from {lo} to {hi}", f"an integer >= {lo} and <= {hi}")
    tiles_raw = data.get("tiles", [])
    if not isinstance(tiles_raw, list) or not tiles_raw:
        raise _error(path, 0, "", "tiles", "no [[tiles]] entries", "one [[tiles]] table per tile type")
    if len(tiles_raw) > MAX_TYPES_PER_FACTION:
        raise _error(path, src.tile_line("", MAX_TYPES_PER_FACTION), "", "tiles",
                           f"{len(tiles_raw)} tile types in faction {short_repr(fid)}",
                           f"at most {MAX_TYPES_PER_FACTION} types per faction")
    types: list[TileType] = []
    for pos, raw in enumerate(tiles_raw):
        tp = _TileParser(src, pos, raw, fid, offset + pos, pos)
        t = tp.build()
        if t.id in seen_ids:
            raise tp.err("id", f"duplicate tile id {short_repr(t.id)} (already defined in {seen_ids[t.id]})",
                         "ids unique across all faction files")
        seen_ids[t.id] = path
        types.append(t)
    banners = [t for t in types if t.kind == "banner"]
    if len(banners) != 1:
        t = banners[1] if len(banners) > 1 else types[0]
        raise _error(path, src.tile_line(t.id, t.local, "kind"), t.id, "kind",
                           f"faction {short_repr(fid)} has {len(banners)} banners", "exactly 1 banner per faction")
    if banners[0].local != 0:
        b = banners[0]
        raise _error(path, src.tile_line(b.id, b.local, "kind"), b.id, "kind",
                           "the banner is not the first [[tiles]] entry", "the banner as local type 0")
    if banners[0].count != 1:
        b = banners[0]
        raise _error(path, src.tile_line(b.id, 0, "count"), b.id, "count",
                           f"banner count {b.count}", "count = 1 for the banner")
    total = sum(t.count for t in types)
    if total != HAND_TILES:
        last = types[-1]
        raise _error(path, src.tile_line(last.id, last.local, "count"), last.id, "count",
                           f"counts of faction {short_repr(fid)} sum to {total}", f"counts summing to {HAND_TILES}")
    instances = tuple(t.local for t in types for _ in range(t.count))
    return Faction(id=fid, name=fname, banner_hp=hp, index=index, offset=offset, types=tuple(types),
                   instances=instances)


