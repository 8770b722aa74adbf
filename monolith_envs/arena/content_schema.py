"""Monolith Arena content schema: the vocabulary, the bounds of every number, and the frozen dataclasses
a faction file is parsed into (docs/monolith_arena.md §5.2-§5.3).

:mod:`monolith_envs.arena.content_parse` validates a file against these; :mod:`monolith_envs.arena.content`
loads and caches files.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.content import ContentError
from .state import INSTANCES_PER_SEAT

__all__ = [
    "BANNER_NO_EFFECTS",
    "BANNER_NO_FEATURES",
    "AURA_EFFECTS",
    "BOARD_KINDS",
    "BOUNDS",
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

HAND_TILES = INSTANCES_PER_SEAT
"""Tile instances per faction (spec §2.2): the instances of one seat."""

MAX_TYPES_PER_FACTION = 20
"""Types per faction are limited by the ``PICK_TYPE`` family size (spec §6.1)."""

MAX_CHOICE_OPTIONS = 5
"""Options of a ``choice`` Order are limited by the ``SELECT_MODE`` family size (spec §6.1)."""

BOUNDS: dict[str, tuple[int, int]] = {
    "banner_hp": (1, 999),
    "count": (1, HAND_TILES),
    "initiative": (0, 9),
    "strength": (1, 9),
    "toughness": (0, 9),
    "strike_any": (0, 9),
    "amount": (1, 9),
    "uses": (1, 9),
}
"""Inclusive bounds of every number of a faction file: ``banner_hp``; a tile's ``count``; each
``initiative`` value; each melee/ranged ``strength``; ``toughness``; ``strike_any``; an effect's ``amount``
and ``uses``.  They keep every Battle short (one phase per initiative value, docs/monolith_arena.md §4.7) and
every number well inside the compiled observation builder's C ints.  The reference content uses at most
initiative 3, strength 5, toughness 2 and amount 2."""

MAX_INITIATIVES = 4
"""Initiative values per tile (the reference uses at most 2)."""

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

#: a Banner is never removed by the kill step (its killer leaves the board, §4.7), so its ``kill`` edges are empty;
#: it is never turned or maneuvered (D7): no ``cavalry`` (a Charge turns its tiles) and no ``maneuver``; its aura
#: is no Regeneration (a Regeneration source is discarded when used)
BANNER_NO_FEATURES = ("cavalry", "maneuver")
BANNER_NO_EFFECTS = ("regenerate",)
TILE_FIELDS_BY_KIND: dict[str, tuple[str, ...]] = {
    "banner": ("initiative", "melee", "ranged", "armor", "net", "kill", "toughness", "strike_any", "features",
               "effects"),
    "champion": ("initiative", "melee", "ranged", "armor", "net", "kill", "toughness", "strike_any",
                 "features"),
    "rune": ("toughness", "connect", "boundless", "effects"),
    "order": ("order",),
}
COMMON_FIELDS = ("id", "name", "kind", "count", "provenance", "notes")
ALL_TILE_FIELDS = COMMON_FIELDS + (
    "initiative", "melee", "ranged", "armor", "net", "kill", "toughness", "strike_any", "features",
    "connect", "boundless", "effects", "order",
)
FACTION_KEYS = ("id", "name", "banner_hp")



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
