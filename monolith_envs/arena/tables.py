"""Per-type content tables of Monolith Arena and the codes they use (docs/monolith_arena.md §2.3, §5.3).

:class:`Tables` turns one :class:`~monolith_envs.arena.content.Content` into flat per-type lists indexed by
global type id (printed strengths per facing and board direction, features, continuous effects as
``(code, amount, kinds_mask, who, scope, feature)`` tuples); :func:`tables_for` caches them per content.
"""

from __future__ import annotations

from enum import IntEnum

from .board import NB, NUM_HEXES

__all__ = ["KIND_NAMES", "Kind", "FxCode", "FX_CODE_BY_NAME", "Scope", "Rel", "OWN", "ALLY", "ENEMY", "OWN_BIT",
           "WHO_RELS", "Tables", "tables_for", "rel_matrix"]

KIND_NAMES = ("banner", "champion", "rune", "order")


class Kind(IntEnum):
    """Tile kinds (docs/monolith_arena.md §2.3); the value is the index in :data:`KIND_NAMES`."""

    BANNER = 0
    CHAMPION = 1
    RUNE = 2
    ORDER = 3


KIND_CODE = {name: int(Kind[name.upper()]) for name in KIND_NAMES}


class FxCode(IntEnum):
    """Codes of the continuous (rune / aura) effects (docs/monolith_arena.md §5.3)."""

    INIT = 0
    MELEE = 1
    RANGED = 2
    TOUGH = 3
    EXTRA = 4
    PIERCE = 5
    GRANT = 6
    TELE = 7
    REGEN = 8
    DISARM = 9
    CHARGE = 10


FX_CODE_BY_NAME = {
    "initiative_bonus": FxCode.INIT, "melee_bonus": FxCode.MELEE, "ranged_bonus": FxCode.RANGED,
    "toughness_bonus": FxCode.TOUGH, "extra_attack": FxCode.EXTRA, "pierce": FxCode.PIERCE, "grant": FxCode.GRANT,
    "teleport_link": FxCode.TELE, "regenerate": FxCode.REGEN, "disarm": FxCode.DISARM, "charge_bonus": FxCode.CHARGE,
}


class Scope(IntEnum):
    """Where a continuous effect reaches (docs/monolith_arena.md §4.6)."""

    CONNECTED = 0
    ADJACENT = 1
    BOUNDLESS = 2


class Rel(IntEnum):
    """Relation of one seat to another: itself, an ally (teams) or an enemy."""

    OWN = 0
    ALLY = 1
    ENEMY = 2


OWN, ALLY, ENEMY = int(Rel.OWN), int(Rel.ALLY), int(Rel.ENEMY)  # (plain ints for the hot loops)
WHO_RELS = {"own": (OWN,), "enemy": (ENEMY,)}  # accepted relations of an Order's ``who`` (others: not ALLY)
OWN_BIT = 1 << OWN
_WHO_BITS = {"own": OWN_BIT, "enemy": 1 << ENEMY, "any": OWN_BIT | (1 << ENEMY)}


def _kinds_mask(kinds) -> int:
    m = 0
    for k in kinds:
        m |= 1 << KIND_CODE[k]
    return m


def rel_matrix(n: int, teams: bool):
    """``(rel, team)``: ``rel[a][b]`` the :class:`Rel` value of seat ``b`` seen from seat ``a``, and the team
    of each seat (seats 0/2 and 1/3 in teams mode, else each seat alone)."""
    team = [p % 2 if teams else p for p in range(n)]
    return [[OWN if a == b else (ALLY if team[a] == team[b] else ENEMY) for b in range(n)] for a in range(n)], team


class Tables:
    """Per-type tables of one :class:`Content`.

    Attributes (lists indexed by global type id ``t``; ``[t][f][d]`` by facing and board direction):
        T: number of types.  kind[t]: kind code.  tough[t]: printed toughness.  init[t]: tuple of printed
        initiatives.  strike[t]: strike_any strength.  maneuver/cavalry/venom/teleport/swap[t]: printed
        features.  melee[t][f][d], ranged[t][f][d]: strength toward direction d (0 = none).
        armor[t][f][d]: True when the side facing direction d is armored.  net_dirs/kill_dirs/conn_dirs
        [t][f]: tuples of directions.  boundless[t].  effects[t]: tuples ``(code, amount, kinds_mask,
        who, scope, feature)`` with who in {"own","enemy","any"}; fx_effects[t]: the same with ``who`` as a
        bit mask of the accepted relations (bits OWN, ALLY, ENEMY); fx_codes[t]: the set of their codes.
        conn_hexes[t][f][h]: on-board hexes in the connected directions of a tile on hex h.
        fx_reach[t][f][h]: bit mask of the hexes that some effect of such a tile reaches by its scope
        (every hex for a boundless one).  has_net[t].  order[t]: the order Effect or None.
        id_of[t], name_of[t]; gid_by_id[id]; faction_index[id]; fac_instances[fi]: 35 global type ids.
    """

    def __init__(self, content):
        self.content = content
        types = content.types
        self.T = T = len(types)
        self.kind = [KIND_CODE[t.kind] for t in types]
        self.tough = [int(t.toughness) for t in types]
        self.init = [tuple(int(v) for v in t.initiative) for t in types]
        self.strike = [int(t.strike_any) for t in types]
        self.maneuver = ["maneuver" in t.features for t in types]
        self.cavalry = ["cavalry" in t.features for t in types]
        self.venom = ["venom" in t.features for t in types]
        self.teleport = ["teleport" in t.features for t in types]
        self.swap = ["swap" in t.features for t in types]
        self.boundless = [bool(t.boundless) for t in types]
        self.id_of = [t.id for t in types]
        self.name_of = [t.name for t in types]
        self.gid_by_id = {t.id: i for i, t in enumerate(types)}
        self.melee, self.ranged, self.armor = [], [], []
        self.net_dirs, self.kill_dirs, self.conn_dirs = [], [], []
        for t in types:
            me = [0] * 6
            for e, s in t.melee:
                me[e % 6] += int(s)
            ra = [0] * 6
            for e, s in t.ranged:
                ra[e % 6] += int(s)
            ar = [False] * 6
            for e in t.armor:
                ar[e % 6] = True
            self.melee.append([[me[(d - f) % 6] for d in range(6)] for f in range(6)])
            self.ranged.append([[ra[(d - f) % 6] for d in range(6)] for f in range(6)])
            self.armor.append([[ar[(d - f) % 6] for d in range(6)] for f in range(6)])
            conn = range(6) if t.boundless else t.connect
            self.net_dirs.append([tuple(sorted((e + f) % 6 for e in set(t.net))) for f in range(6)])
            self.kill_dirs.append([tuple(sorted((e + f) % 6 for e in set(t.kill))) for f in range(6)])
            self.conn_dirs.append([tuple(sorted((e + f) % 6 for e in set(conn))) for f in range(6)])
        self.has_net = [bool(t.net) for t in types]
        self.effects = []
        for t in types:
            out = []
            for ef in t.effects:
                code = FX_CODE_BY_NAME.get(ef.effect)
                if code is None:
                    continue
                if t.kind == "banner":
                    scope = Scope.ADJACENT if ef.scope != "boundless" else Scope.BOUNDLESS
                else:
                    scope = Scope.BOUNDLESS if (t.boundless or ef.scope == "boundless") else (
                        Scope.ADJACENT if ef.scope == "adjacent" else Scope.CONNECTED)
                who = "enemy" if code == FxCode.DISARM else ef.who
                out.append((int(code), int(ef.amount), _kinds_mask(ef.kinds), who, int(scope), ef.feature))
            self.effects.append(tuple(out))
        # effects[t] with ``who`` as a bit mask of the accepted relations (bit OWN / ALLY / ENEMY)
        self.fx_effects = [tuple((code, amount, kmask, _WHO_BITS.get(who, OWN_BIT), scope, feature)
                                 for code, amount, kmask, who, scope, feature in effs) for effs in self.effects]
        # fx_codes[t]: the codes of the continuous effects of type t
        self.fx_codes = [frozenset(effect[0] for effect in effs) for effs in self.fx_effects]
        # conn_hexes[t][f][h]: on-board hexes in the connected directions of a tile on hex h
        self.conn_hexes = [[tuple(tuple(NB[h][d] for d in self.conn_dirs[t][f] if NB[h][d] >= 0)
                             for h in range(NUM_HEXES))
                            for f in range(6)] for t in range(T)]
        # fx_reach[t][f][h]: bit x set when some effect of type t at facing f on hex h reaches hex x by its scope
        every = (1 << NUM_HEXES) - 1
        self.fx_reach = [[tuple(_reach_bits(self.fx_effects[t], self.conn_hexes[t][f][h], NB[h], every)
                                for h in range(NUM_HEXES))
                          for f in range(6)] for t in range(T)]
        self.order = [t.order for t in types]
        self.tele_uses = [max([int(e.uses) for e in t.effects if e.effect == "teleport_link"] or [0]) for t in types]
        self.faction_index = {f.id: i for i, f in enumerate(content.factions)}
        self.fac_instances = [tuple(f.offset + loc for loc in f.instances) for f in content.factions]
        self.fac_offset = [f.offset for f in content.factions]
        self.fac_ntypes = [len(f.types) for f in content.factions]
        self.fac_hp = [int(f.banner_hp) for f in content.factions]
        # (type, facing) -> directions with a melee attack
        self.melee_dirs = [[tuple(d for d in range(6) if self.melee[t][f][d] > 0) for f in range(6)] for t in range(T)]
        self.ranged_dirs = [[tuple(d for d in range(6) if self.ranged[t][f][d] > 0) for f in range(6)] for t in range(T)]

    def resolve_type(self, t) -> int:
        """Global type id of ``t``: an int id, or a TOML tile id such as ``"de_knight"``.

        Raises:
            KeyError: unknown tile id (the message lists close ids).
        """
        if isinstance(t, (int,)) and not isinstance(t, bool):
            if not 0 <= t < self.T:
                raise KeyError(f"type id {t} outside 0..{self.T - 1}")
            return int(t)
        try:
            return self.gid_by_id[t]
        except KeyError:
            word = str(t)
            close = [i for i in self.gid_by_id if word.split("_")[-1] in i]
            if not close:  # else the ids of the faction its prefix names (de_, la_, ...)
                close = [i for i in self.gid_by_id if i.split("_")[0] == word.split("_")[0]]
            hint = (f"similar: {', '.join(close[:12])}" if close else
                    "tile ids begin with their faction's prefix, e.g. de_knight (docs/monolith_arena.md §5.4)")
            raise KeyError(f"unknown tile id {word!r}; {hint}") from None


def _reach_bits(effects, conn_hexes, nb, every: int) -> int:
    """Bit mask of the hexes that one of ``effects`` (``fx_effects`` tuples) of a tile reaches by its scope:
    every hex (boundless), the neighbours ``nb`` (adjacent) or the connected hexes ``conn_hexes``."""
    bits = 0
    for effect in effects:
        scope = effect[4]
        if scope == Scope.BOUNDLESS:
            return every
        for x in (nb if scope == Scope.ADJACENT else conn_hexes):
            if x >= 0:
                bits |= 1 << x
    return bits


_CACHE: dict = {}


def tables_for(content) -> Tables:
    """The cached :class:`Tables` of ``content`` (one per Content object)."""
    key = id(content)
    hit = _CACHE.get(key)
    if hit is not None and hit.content is content:
        return hit
    tab = Tables(content)
    _CACHE[key] = tab
    return tab
