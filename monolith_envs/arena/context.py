"""The rules context of one Monolith Arena configuration: what every rules function reads besides the state.

:class:`RulesContext` holds the validated config, the content tables, the seat relations and the action
offsets.  The rules modules take it as their first argument ``g`` and the state ``s`` as their second, and
mutate ``s`` in place; :class:`~monolith_envs.arena.game.ArenaGame` holds one (``game.rules``).
"""

from __future__ import annotations

from ..core.config import ConfigError
from .actions import Offsets, build_layout
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .tables import ALLY, ENEMY, OWN, rel_matrix, tables_for

__all__ = ["RulesContext", "effect_of", "who_ok", "is_own", "is_enemy", "cap", "hp_vector"]

UNCAPPED = 1_000_000  # tile uses per turn without the reinforcement variant (no cap)


class RulesContext:
    """All that the rules read besides the state, for one validated config and one content.

    Attributes:
        config (the validated mapping), content, tables (:class:`~monolith_envs.arena.tables.Tables`),
        n (seats), mode ("duel", "ffa", "teams"), team_mode, ffa, module (the Monolith module is on), reinf
        (the reinforcement variant is on), H (hand slots: 3, 6 with the variant), off (the action
        :class:`~monolith_envs.arena.actions.Offsets`), layout, rel (``rel[a][b]``: a
        :class:`~monolith_envs.arena.tables.Rel` value), team (team of each seat), team_hp, NI (tile
        instances), max_decisions.

    Raises:
        ConfigError: a faction without INSTANCES_PER_SEAT (35) instances, an unknown faction id, too few factions for "random".
    """

    def __init__(self, config: dict, content):
        self.config = config
        self.content = content
        self.tables = tb = tables_for(content)
        self.n = n = int(config["num_players"])
        self.mode = config["mode"]
        self.team_mode = self.mode == "teams"
        self.ffa = self.mode == "ffa"
        self.module = bool(config["monolith_module"])
        self.reinf = bool(config["reinforcement_variant"])
        self.H = 6 if self.reinf else 3
        self.off = Offsets(self.H)
        self.layout = build_layout(self.H)
        self.rel, self.team = rel_matrix(n, self.team_mode)
        self.team_hp = int(config["team_hp"])
        self.NI = PER_SEAT * n
        self.max_decisions = int(config["max_decisions"])
        for f in content.factions:
            if len(f.instances) != PER_SEAT:
                raise ConfigError(f"faction {f.id!r} has {len(f.instances)} instances, expected {PER_SEAT}")
        if config["factions"] != "random":
            for fid in config["factions"]:
                if fid not in tb.faction_index:
                    raise ConfigError(f"monolith_arena_v0: unknown faction {fid!r}; known: {sorted(tb.faction_index)}")
        elif len(content.factions) < n:
            raise ConfigError(f"monolith_arena_v0: {n} players need {n} factions, content has {len(content.factions)}")
        if self.module:  # setup hides 2 Champions or Runes of each player in its Monolith (§3, §4.10)
            playing = content.factions if config["factions"] == "random" else \
                [content.factions[tb.faction_index[fid]] for fid in config["factions"]]
            for f in playing:
                board = sum(1 for loc in f.instances if f.types[loc].kind in ("champion", "rune"))
                if board < 2:
                    raise ConfigError(f"monolith_arena_v0: monolith_module=true hides 2 Champion or Rune tiles of "
                                      f"each player in its Monolith, but faction {f.id!r} has {board}; use "
                                      "monolith_module=false or a faction with more")


def cap(g: RulesContext, s) -> int:
    """Tile uses allowed this turn (docs/monolith_arena.md §4.2, §4.11)."""
    if not g.reinf:
        return UNCAPPED
    return 1 if (s.turn_seat == 0 and not s.first_turn_done[0]) else 2


def effect_of(g: RulesContext, s):
    """The Effect being resolved for the pending Order (its chosen option for a choice)."""
    ef = g.tables.order[s.itype[s.p_order]]
    if s.p_mode >= 0:
        ef = ef.options[s.p_mode]
    return ef


def who_ok(g: RulesContext, seat: int, other: int, who: str) -> bool:
    """Does ``other``'s tile match an Order's ``who`` ("own", "enemy", else any but an ally) for ``seat``?"""
    r = g.rel[seat][other]
    if who == "own":
        return r == OWN
    if who == "enemy":
        return r == ENEMY
    return r != ALLY


def hp_vector(g: RulesContext, s) -> list:
    """HP per seat (teams: the seat's alliance pool), floored at 0."""
    if g.team_mode:
        return [max(0, s.pool[g.team[p]]) for p in range(g.n)]
    return [max(0, h) for h in s.hp]


def is_own(s, seat: int, h: int) -> bool:
    """Does ``seat`` own the tile on hex ``h`` (False for an empty hex)?"""
    i = s.board[h]
    return i >= 0 and i // PER_SEAT == seat


def is_enemy(g: RulesContext, s, seat: int, h: int) -> bool:
    """Is the tile on hex ``h`` an enemy of ``seat`` (False for an empty hex)?"""
    i = s.board[h]
    return i >= 0 and g.rel[seat][i // PER_SEAT] == ENEMY
