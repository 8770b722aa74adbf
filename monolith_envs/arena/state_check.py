"""The schema of a serialised :class:`~monolith_envs.arena.state.ArenaState` for one game configuration
(docs/monolith_arena.md §2.5), checked by ``ArenaGame.from_dict``.

Types, list lengths and ranges per field come from :func:`schema` (lengths follow the game's player count
and hand size), checked by :func:`monolith_envs.core.state_schema.load_state`; :func:`cross_check` adds the
cross-field checks: the player count and hand size of the game,
distinct factions, tile types matching the factions, board / location / hex agreeing, and the game's
invariants.  Every problem is a :class:`~monolith_envs.core.state.StateError` naming the field.
"""

from __future__ import annotations

from typing import Any

from ..core.config import C_INT_MAX
from ..core.state_schema import (
    Bool,
    Choice,
    Float,
    Int,
    List,
    Spec,
    check_invariants,
    probe_state,
    state_error,
)
from .content_schema import MAX_CHOICE_OPTIONS
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import ArenaState, BattleStage, Eff, Loc, Sub, Trigger

#: most pending Assassin strikes of one phase read from a dict: 19 hexes x 1024 activations, far above what
#: content can make (4 initiative values plus one per extra_attack effect reaching the tile) and still bounded
MAX_STRIKES = 19 * 1024

__all__ = ["cross_check", "schema"]

_BIG = 10**6  # bound of counters that have no rule limit (wounds, activations, HP below zero)


def schema(game: Any) -> dict[str, Spec]:
    """Field -> spec for ``game`` (an :class:`~monolith_envs.arena.game.ArenaGame`)."""
    key = (game.n, game.H, len(game.tables.kind), len(game.tables.fac_hp), game.config["reward_mode"] == "score")
    hit = _SCHEMAS.get(key)
    if hit is None:
        hit = _SCHEMAS[key] = _schema(*key)
    return hit


_SCHEMAS: dict[tuple[int, int, int, int, bool], dict[str, Spec]] = {}


def _schema(n: int, H: int, T: int, nfac: int, score: bool) -> dict[str, Spec]:
    NI = PER_SEAT * n
    inst, inst_or_none, hex_or_none = Int(0, NI - 1), Int(-1, NI - 1), Int(-1, 18)
    seat = Int(0, n - 1)
    flags_n = List(Bool(), n)
    return {
        "num_players": Choice((n,)),
        "hand_size": Choice((H,)),
        "factions": List(Int(0, nfac - 1), n),
        "itype": List(Int(0, T - 1), NI),
        "loc": List(Choice(tuple(int(x) for x in Loc), tuple(f"{int(x)} ({x.name})" for x in Loc)), NI),
        "hexof": List(hex_or_none, NI),
        "facing": List(Int(0, 5), NI),
        "wounds": List(Int(0, _BIG), NI),
        "poison": List(Int(0, 5), NI),
        "used": List(Int(0, 15), NI),
        "board": List(inst_or_none, 19),
        "deck": List(List(inst, max_len=PER_SEAT), n),
        "hand": List(List(inst_or_none, H), n),
        "fresh": List(List(Bool(), H), n),
        "discard": List(List(inst, max_len=PER_SEAT), n),
        "hp": List(Int(-_BIG, _BIG), n),
        "pool": List(Int(-_BIG, _BIG), 2),
        "alive": flags_n,
        "elim_order": List(Int(-1, n), n),
        "elim_count": Int(0, n),
        "mono_folded": flags_n,
        "seg_hex": List(List(hex_or_none, 3), n),
        "seg_content": List(List(inst_or_none, 2), n),
        "seg_revealed": List(List(Bool(), 2), n),
        "poison_supply": Int(0, 5),
        "net_marker_on": inst_or_none,
        "entrench_on": inst_or_none,
        "turn_seat": seat,
        "first_turn_done": flags_n,
        "sub_phase": Choice(tuple(int(x) for x in Sub), tuple(f"{int(x)} ({x.name})" for x in Sub)),
        "acting_seat": Int(-1, n - 1),
        "discarded": Int(0, PER_SEAT),
        "uses": Int(0, PER_SEAT),
        "placed": Bool(),
        "unfolded": Bool(),
        "exception_used": Bool(),
        "tele_rune_used": List(inst, max_len=NI),
        "last_round": Bool(),
        "last_round_owed": flags_n,
        "p_effect": Int(-1, len(Eff) - 1),
        "p_order": inst_or_none,
        "p_mode": Int(-1, MAX_CHOICE_OPTIONS - 1),
        "p_a": hex_or_none,
        "p_b": hex_or_none,
        "p_c": hex_or_none,
        "unfold_queue": List(inst, max_len=NI),
        "b_active": Bool(),
        "b_trigger": Int(-1, len(Trigger) - 1),
        "b_phase": Int(-1, _BIG),
        "b_stage": Int(0, len(BattleStage) - 1),
        "b_acts": List(Int(0, _BIG), NI),
        # one entry per Assassin activation of the phase: a hex activates once per initiative value equal to the
        # phase (content files may repeat a value) plus once per extra_attack source (at most the 19 tiles)
        "b_strikes": List(Int(0, 18), max_len=MAX_STRIKES),
        "b_targets": List(Int(0, 18), max_len=MAX_STRIKES),
        "decisions": Int(0, C_INT_MAX),
        "terminal": Bool(),
        "winners": List(seat, max_len=n),
        # win_loss and rank pay at most 1 in all; score adds the changes of (HP - mean of the others) / Banner HP
        "cum_reward": List(Float(-5.0 * _BIG, 5.0 * _BIG) if score else Float(-1.0, 1.0), n),
    }


def _check_mode(game: Any, s: ArenaState) -> None:
    """The HP fields of the game's mode (docs/monolith_arena.md §2.5, §4.9): in a duel or ffa game both pools
    are 0 (only teams keep them); in a teams game every Banner keeps its faction's HP (hits come off the
    pools), and a live game has both pools above 0 (an alliance at 0 loses at once). So a live state of another
    mode with the same seats is refused (a finished game's fields can fit both modes: a teams game that ended
    with both pools at 0 reads as an ffa game that ended with every Banner's HP)."""
    if not game.team_mode:
        if list(s.pool) != [0, 0]:
            raise state_error("state.pool", s.pool, "[0, 0]: only a teams game (mode = 'teams') keeps alliance pools")
        return
    for p, f in enumerate(s.factions):
        if s.hp[p] != game.tables.fac_hp[f]:
            raise state_error(f"state.hp[{p}]", s.hp[p], f"{game.tables.fac_hp[f]}, faction {f}'s Banner HP: in a "
                              "teams game hits come off the alliance pools, never off a Banner")
    if not s.terminal and min(s.pool) <= 0:
        raise state_error("state.pool", s.pool, "both pools above 0 in a teams game that is not over (an alliance "
                          "at 0 loses at once)")


def cross_check(game: Any, s: ArenaState) -> None:
    """Checks across fields of a state whose fields passed :func:`schema`.

    Raises:
        StateError: HP fields of another mode (:func:`_check_mode`), repeated factions, tile types that are not
            the factions' tiles, a board that disagrees
            with the tiles' locations and hexes, ``terminal`` without ``GAME_OVER``, a broken invariant, or a
            state the engine cannot read (:func:`~monolith_envs.core.state_schema.probe_state`: a live game
            without a legal action, an observation out of bounds).
    """
    if len(set(s.factions)) != len(s.factions):
        raise state_error("state.factions", s.factions, "distinct faction indices")
    inst = game.tables.fac_instances
    for p, f in enumerate(s.factions):
        expected = list(inst[f])
        a = PER_SEAT * p
        if s.itype[a:a + PER_SEAT] != expected:
            i = next(i for i in range(PER_SEAT) if s.itype[a + i] != expected[i])
            raise state_error(f"state.itype[{a + i}]", s.itype[a + i],
                              f"{expected[i]}, the type of instance {i} of faction {f}")
    for h, i in enumerate(s.board):
        if i >= 0 and (s.loc[i] != Loc.BOARD or s.hexof[i] != h):
            raise state_error(f"state.board[{h}]", i, f"a tile whose loc is BOARD and hexof is {h}")
    for i, h in enumerate(s.hexof):
        if (h >= 0) != (s.loc[i] == Loc.BOARD) or (h >= 0 and s.board[h] != i):
            raise state_error(f"state.hexof[{i}]", h, "the hex holding the tile on the board, -1 off the board")
    _check_mode(game, s)
    if s.terminal != (s.sub_phase == Sub.GAME_OVER):
        raise state_error("state.sub_phase", s.sub_phase, "GAME_OVER exactly when state.terminal is true")
    check_invariants(game, s)
    probe_state(game, s)
