"""Build Monolith Arena positions by hand (golden scenarios, tests, tools).

Typical use (docs/monolith_arena.md §10, G3)::

    from monolith_envs.arena.positions import new_position, put_tile, set_hand
    game, s = new_position(["dragon_empire", "lords_of_the_abyss"])       # MAIN, seat 0, empty board
    put_tile(game, s, 0, "de_banner", 16)
    put_tile(game, s, 0, "de_pikeman", 9, facing=1)
    put_tile(game, s, 1, "la_banner", 2)
    put_tile(game, s, 1, "la_spike", 10, facing=4)
    set_turn(game, s, 1)                                                  # seat 1 acts, MAIN
    set_hand(game, s, 1, ["la_battle"])
    game.apply(s, 365)                                                    # PLAY_ORDER slot 0

Conventions: ``tile`` is a global type id (int) or a TOML tile id such as ``"de_knight"``; the instance
used is the lowest-id instance of that type found in the seat's deck (then discard pile).  All helpers
mutate ``state`` in place, keep every tile in exactly one location (docs/monolith_arena.md §9 invariant 1) and drop the
engine caches.  They do NOT run the state check; call :func:`settle_position` if wounds may exceed
toughness.  Every function raises ``ValueError`` on impossible requests (occupied hex, no copy left, ...).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..core.state import clear_transient as dirty
from .effects import get_fx
from .game import ArenaGame
from .relocation import place_on_board, settle
from .setup_game import blank_state
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import ArenaState, Loc, Sub
from .tables import Kind
from .turns import start_turn

__all__ = [
    "new_position", "empty_position", "put_tile", "set_hand", "set_deck", "set_hp", "set_pool",
    "set_monolith", "set_turn", "begin_turn", "settle_position", "effects", "find_instance",
]


def new_position(factions: Sequence[str], **config):
    """``(game, state)``: a new :class:`ArenaGame` for ``config`` (``factions`` set, ``num_players`` and
    ``mode`` inferred when omitted: 2 = duel, 3 = ffa, 4 = ffa unless ``mode="teams"``) and its
    :func:`empty_position`.

    Raises:
        ConfigError: a bad config or faction id (a ``ValueError``).
        ValueError: as :func:`empty_position`.
    """
    cfg = dict(config)
    cfg["factions"] = list(factions)
    cfg.setdefault("num_players", len(factions))
    cfg.setdefault("mode", "duel" if len(factions) == 2 else "ffa")
    game = ArenaGame(cfg)
    return game, empty_position(game, factions)


def empty_position(game, factions: Sequence[str] | None = None) -> ArenaState:
    """A state in sub-phase MAIN of seat 0 (turn seat 0, ``first_turn_done`` all True so no opening rules,
    nothing discarded or used this turn) with an empty board, empty hands, no Banner placed (use
    :func:`put_tile` with the faction's banner id) and full decks (every tile but the Banner, top = lowest instance id).

    Args:
        game: an :class:`ArenaGame`.
        factions: faction ids per seat; default: ``game.config["factions"]`` (must then be a list).

    Raises:
        ValueError: no ``factions`` given while the config says ``"random"``, or not one faction per seat.
    """
    tb = game.tables
    if factions is None:
        factions = game.config["factions"]
        if factions == "random":
            raise ValueError("empty_position needs factions (the game config says 'random')")
    if len(factions) != game.n:
        raise ValueError(f"{len(factions)} factions for {game.n} seats")
    s = blank_state(game.rules, [tb.faction_index[f] for f in factions])
    for p in range(game.n):
        s.deck[p] = list(range(p * PER_SEAT + PER_SEAT - 1, p * PER_SEAT, -1))
        for i in s.deck[p]:
            s.loc[i] = int(Loc.DECK)
    s.sub_phase = int(Sub.MAIN)
    s.turn_seat = s.acting_seat = 0
    s.first_turn_done = [True] * game.n
    dirty(s)
    return s


def find_instance(game, s: ArenaState, seat: int, tile, where=(Loc.DECK, Loc.DISCARD, Loc.OUT)) -> int:
    """Lowest-id instance of type ``tile`` owned by ``seat`` whose location is in ``where`` (tried in that
    order).

    Raises:
        KeyError: an unknown tile id.
        ValueError: no such instance is left.
    """
    t = game.tables.resolve_type(tile)
    base = seat * PER_SEAT
    for lc in where:
        for i in range(base, base + PER_SEAT):
            if s.itype[i] == t and s.loc[i] == lc:
                return i
    raise ValueError(f"seat {seat} has no {game.tables.id_of[t]} left in locations {where}")


def _take(s: ArenaState, i: int) -> None:
    """Detach instance ``i`` from wherever it is (deck, hand, discard, board)."""
    p = i // PER_SEAT
    lc = s.loc[i]
    if lc == Loc.DECK:
        s.deck[p].remove(i)
    elif lc == Loc.HAND:
        k = s.hand[p].index(i)
        s.hand[p][k] = -1
        s.fresh[p][k] = False
    elif lc == Loc.DISCARD:
        s.discard[p].remove(i)
    elif lc == Loc.BOARD:
        s.board[s.hexof[i]] = -1
        s.hexof[i] = -1


def put_tile(game, s: ArenaState, seat: int, tile, hex: int, facing: int = 0, wounds: int = 0,
             poison: int = 0) -> int:
    """Put a tile of type ``tile`` owned by ``seat`` on the empty ``hex`` at ``facing`` with ``wounds`` and
    ``poison`` markers (taken from the supply). A Banner is the seat's instance 0, always facing 0; with the
    module it carries its folded Monolith. A tile put on an empty segment becomes its content.
    Returns the instance id.

    Raises:
        KeyError: an unknown tile id.
        ValueError: the hex is occupied, the tile is an Order, the poison supply is short, the Banner is
            another seat's or already on the board, or no copy of the tile is left.
    """
    tb = game.tables
    t = tb.resolve_type(tile)
    if s.board[hex] >= 0:
        raise ValueError(f"hex {hex} is occupied by instance {s.board[hex]}")
    if tb.kind[t] == Kind.ORDER:
        raise ValueError(f"{tb.id_of[t]} is an Order: Orders cannot stand on the board")
    if poison > s.poison_supply:
        raise ValueError(f"only {s.poison_supply} poison markers left, asked for {poison}")
    if tb.kind[t] == Kind.BANNER:
        i = seat * PER_SEAT
        if s.itype[i] != t:
            raise ValueError(f"{tb.id_of[t]} is not the Banner of seat {seat}")
        if s.loc[i] == Loc.BOARD:
            raise ValueError(f"the Banner of seat {seat} is already on hex {s.hexof[i]}")
    else:
        i = find_instance(game, s, seat, t)
        _take(s, i)
    if tb.kind[t] == Kind.BANNER:
        s.board[hex] = i
        s.hexof[i] = hex
        s.facing[i] = 0
        s.loc[i] = int(Loc.BOARD)
        s.seg_hex[seat] = [hex, hex, hex]
        s.mono_folded[seat] = True
    else:  # the engine's own placement: an empty segment on that hex takes the tile as its content
        place_on_board(game.rules, s, get_fx(game.rules, s), i, hex, facing % 6)
    s.wounds[i] = wounds
    if poison:
        s.poison[i] += poison
        s.poison_supply -= poison
    dirty(s)
    return i


def set_hand(game, s: ArenaState, seat: int, tiles: Iterable, fresh: Sequence[bool] | bool = False) -> list:
    """Replace ``seat``'s hand with tiles of the given types (slot order; ``None`` = empty slot). Previous
    hand tiles go back on top of the deck. ``fresh``: one flag for all, or one per slot. Returns instances.

    Raises:
        KeyError: an unknown tile id.
        ValueError: more tiles than hand slots, or no copy of a tile is left.
    """
    H = game.H
    tiles = list(tiles)
    if len(tiles) > H:
        raise ValueError(f"{len(tiles)} tiles for a hand of {H}")
    for k in range(H):
        i = s.hand[seat][k]
        if i >= 0:
            s.hand[seat][k] = -1
            s.fresh[seat][k] = False
            s.loc[i] = int(Loc.DECK)
            s.deck[seat].append(i)
    out = []
    for k, t in enumerate(tiles):
        if t is None:
            out.append(-1)
            continue
        i = find_instance(game, s, seat, t)
        _take(s, i)
        s.hand[seat][k] = i
        s.loc[i] = int(Loc.HAND)
        f = fresh if isinstance(fresh, bool) else bool(fresh[k])
        s.fresh[seat][k] = f
        out.append(i)
    dirty(s)
    return out


def set_deck(game, s: ArenaState, seat: int, tiles: Iterable) -> list:
    """Make ``seat``'s deck exactly ``tiles`` (listed bottom to top: the last one is drawn first). Other deck
    tiles leave the game (location OUT). Returns the instances (same order).

    Raises:
        KeyError: an unknown tile id.
        ValueError: no copy of a tile is left in the deck, the discard pile or out of the game.
    """
    for i in list(s.deck[seat]):
        s.loc[i] = int(Loc.OUT)
    s.deck[seat] = []
    out = []
    for t in tiles:
        i = find_instance(game, s, seat, t, where=(Loc.OUT, Loc.DISCARD))
        _take(s, i)
        s.loc[i] = int(Loc.DECK)
        s.deck[seat].append(i)
        out.append(i)
    dirty(s)
    return out


def set_hp(game, s: ArenaState, seat: int, hp: int) -> None:
    """Set ``seat``'s Banner HP (duel/ffa).

    Raises:
        ValueError: a teams game (its hits come off the alliance pools: :func:`set_pool`).
    """
    if game.team_mode:
        raise ValueError("a teams game keeps its HP in the alliance pools (pool A / pool B), not on a Banner")
    s.hp[seat] = int(hp)
    dirty(s)


def set_pool(game, s: ArenaState, team: int, hp: int) -> None:
    """Set alliance ``team``'s pool (teams mode; team 0 = seats 0, 2; team 1 = seats 1, 3).

    Raises:
        ValueError: not a teams game (a duel or ffa keeps Banner HP: :func:`set_hp`), or ``hp`` below 1 (an
            alliance at 0 has lost: the game is over, docs/monolith_arena.md §4.9).
    """
    if not game.team_mode:
        raise ValueError("only a teams game (mode = 'teams') keeps alliance pools; set a Banner's HP instead (hp P<seat>)")
    if int(hp) < 1:
        raise ValueError(f"pool {int(hp)}: an alliance at 0 has lost, so the game would be over; a pool is 1 or more")
    s.pool[team] = int(hp)
    dirty(s)


def set_monolith(game, s: ArenaState, seat: int, contents: Sequence = (None, None), folded: bool = True,
                 hexes: Sequence[int] | None = None, facings: Sequence[int] = (0, 0),
                 revealed: Sequence[bool] = (False, False), owners: Sequence[int | None] = (None, None)) -> list:
    """Set ``seat``'s Monolith (module on; the Banner must already be on the board).

    Args:
        contents: types of segments 2 and 3 (``None`` = empty segment; unfolded, its hex must be empty).
        folded: True: contents inside (off the board). False: ``hexes`` = (h2, h3) and contents stand there.
        facings: facings of the contents. revealed: public flags (forced True when unfolded).
        owners: owner seat of each content (default ``seat``; another seat for an enemy tile inside).
    Returns the content instances (-1 for empty).

    Raises:
        KeyError: an unknown tile id.
        ValueError: the Banner is not on the board, an unfolded segment's hex is occupied (an empty
            segment's included), or no copy of a content is left.
    """
    B = s.hexof[seat * PER_SEAT]
    if B < 0:
        raise ValueError("put the Banner on the board first")
    out = []
    for k in (0, 1):
        t = contents[k]
        if t is None:
            if not folded and s.board[hexes[k]] >= 0:
                raise ValueError(f"segment {k + 2} is empty but hex {hexes[k]} holds instance {s.board[hexes[k]]}: "
                                 f"a tile on a segment's hex is its content (write it as seg{k + 2}=<tile>)")
            s.seg_content[seat][k] = -1
            s.seg_revealed[seat][k] = bool(revealed[k])  # an emptied segment keeps its public flag
            out.append(-1)
            continue
        owner = seat if owners[k] is None else owners[k]
        i = find_instance(game, s, owner, t)
        _take(s, i)
        s.seg_content[seat][k] = i
        s.facing[i] = facings[k] % 6
        s.seg_revealed[seat][k] = bool(revealed[k])
        if folded:
            s.loc[i] = int(Loc.MONOLITH)
        else:
            h = hexes[k]
            if s.board[h] >= 0:
                raise ValueError(f"hex {h} is occupied")
            s.board[h] = i
            s.hexof[i] = h
            s.loc[i] = int(Loc.BOARD)
            s.seg_revealed[seat][k] = True
        out.append(i)
    s.mono_folded[seat] = bool(folded)
    s.seg_hex[seat] = [B, B, B] if folded else [B, int(hexes[0]), int(hexes[1])]
    dirty(s)
    return out


def set_turn(game, s: ArenaState, seat: int, sub_phase: int = Sub.MAIN, discarded: int = 0) -> None:
    """Make it ``seat``'s turn in ``sub_phase`` (default MAIN) with fresh per-turn fields; ``discarded`` is
    the number of DISCARD actions already made this turn (1 allows UNFOLD)."""
    s.turn_seat = s.acting_seat = seat
    s.sub_phase = int(sub_phase)
    s.discarded = discarded
    s.uses = 0
    s.placed = s.unfolded = s.exception_used = False
    s.tele_rune_used = []
    for q in range(game.n):
        if q != seat:
            s.fresh[q] = [False] * game.H
    for i in range(seat * PER_SEAT, seat * PER_SEAT + PER_SEAT):
        s.used[i] = 0
    dirty(s)


def begin_turn(game, s: ArenaState, seat: int) -> None:
    """Start ``seat``'s turn exactly as the rules do (docs/monolith_arena.md §4.1 steps 1-3: compaction, draw, DISCARD/MAIN,
    last-round trigger)."""
    for q in range(game.n):
        s.fresh[q] = [False] * game.H
    start_turn(game.rules, s, seat)


def settle_position(game, s: ArenaState) -> None:
    """Run the state check (docs/monolith_arena.md §4.6 step 6) on a hand-built position."""
    dirty(s)
    settle(game.rules, s)


def effects(game, s: ArenaState) -> dict:
    """The continuous effects of the current board (docs/monolith_arena.md §4.6), as plain per-hex lists (19 entries each):

    ``netted`` bool, ``disarmed`` bool, ``initiatives`` tuple (effective values incl. Double Attack extras),
    ``melee`` / ``ranged``: 6 effective strengths per board direction (0 = no attack), ``toughness`` int,
    ``venom`` / ``maneuver`` / ``rotate`` / ``pierce`` bool (printed or granted), ``armor``: 6 bools per
    board direction (entrenchment included), ``regen``: hexes of Regeneration Runes protecting the tile.
    Empty hexes hold falsy values.
    """
    tb = game.tables
    fx = get_fx(game.rules, s)
    melee, ranged = [], []
    for h in range(19):
        i = s.board[h]
        if i < 0:
            melee.append([0] * 6)
            ranged.append([0] * 6)
            continue
        t, f = s.itype[i], s.facing[i]
        melee.append([(v + fx.melee_b[h]) if v else 0 for v in tb.melee[t][f]])
        ranged.append([(v + fx.ranged_b[h]) if v else 0 for v in tb.ranged[t][f]])
    return {
        "netted": list(fx.netted), "disarmed": list(fx.disarmed), "initiatives": list(fx.inits),
        "melee": melee, "ranged": ranged, "toughness": list(fx.tough), "venom": list(fx.venom),
        "maneuver": list(fx.maneuver), "rotate": list(fx.rotate), "pierce": list(fx.pierce),
        "armor": [list(a) if a is not None else [False] * 6 for a in fx.armor],
        "regen": [list(r) for r in fx.regen],
    }
