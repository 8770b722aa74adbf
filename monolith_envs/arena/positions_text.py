"""A compact text format for Monolith Arena positions (tests, golden scenarios, tools).

Example (docs/monolith_arena.md §10, G3)::

    factions: dragon_empire, lords_of_the_abyss
    16: de_banner
    9: de_pikeman f=1
    2: la_banner
    10: la_spike f=4
    14: la_spike P1 f=5 w=0
    4: la_spike f=2
    hand P1: la_battle
    turn: P1

One statement per line; ``#`` starts a comment.  Statements (in any order; they are applied in the order
factions/config, board, Monolith, hands, decks, HP, turn):

``factions: <id>, <id>, ...``
    one faction per seat (required, first).
``config: key=value key=value ...``
    extra configuration keys (docs/monolith_arena.md §1), values ``true``/``false``/integers/strings; ``num_players`` and
    ``mode`` are inferred (2 seats duel, 3-4 ffa) unless given.
``<hex>: <tile_id> [P<seat>] [f=<facing>] [w=<wounds>] [p=<poison>] [net] [entrench]``
    a tile on the board.  The owner defaults to the seat playing the tile's faction.  ``net`` puts the
    Net-order marker on it, ``entrench`` the Entrenchment marker.  A Banner always faces 0.
``monolith P<seat>: folded|unfolded [seg2=<c>] [seg3=<c>] [hex2=<h>] [hex3=<h>] [f2=<f>] [f3=<f>]``
``    [revealed2] [revealed3]``
    the seat's Monolith (module on; its Banner must be on the board).  ``<c>`` is ``-`` (empty, default)
    or ``[P<owner>:]<tile_id>``.  Unfolded Monoliths need ``hex2`` and ``hex3``; their contents stand there.
``hand P<seat>: <tile>, <tile>, ...``
    hand slots in order; ``<tile>*`` = fresh (drawn this turn), ``-`` = empty slot.
``deck P<seat>: <tile>, ...``
    the whole deck, bottom to top (the last one is drawn first); ``deck P0:`` alone = empty deck.
    Without a deck line a seat keeps every tile not used elsewhere.
``hp P<seat>: <n>`` and ``pool A|B|0|1: <n>`` (teams)
    Banner HP / alliance pool.
``turn: P<seat> [sub=MAIN|DISCARD] [discarded=<n>]``
    whose turn it is (default ``P0``, ``MAIN``, nothing discarded): per-turn fields are reset. Other
    sub-phases need a pending selection the text cannot hold and are refused.
``begin: P<seat>``
    instead of ``turn``: start that seat's turn by the rules (compaction, draw, DISCARD or MAIN).

Errors raise :class:`PositionTextError` (a ``ValueError``) naming the line and what is wrong.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.game import InvariantError, MonolithEnvError
from ..core.state import StateError
from ..core.state_schema import check_built
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import ArenaState, Sub

__all__ = ["PositionTextError", "parse_position", "position_to_text", "format_position"]


class PositionTextError(MonolithEnvError, ValueError):
    """A position text that cannot be parsed or built (the message names the line)."""


_SEAT = re.compile(r"^P(\d)$")


def _err(lineno: int, line: str, why: str) -> PositionTextError:
    return PositionTextError(f"position line {lineno} {line.strip()!r}: {why}")


def _why(exc: BaseException) -> str:
    """The message of ``exc`` (a ``KeyError``'s without the quotes ``str`` puts round it)."""
    if isinstance(exc, KeyError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
        return exc.args[0]
    return str(exc)


#: the six facings of a hex tile (docs/monolith_arena.md §2)
FACINGS = range(6)


def _value(v: str) -> Any:
    low = v.lower()
    if low in ("true", "false"):
        return low == "true"
    if re.fullmatch(r"-?\d+", v):
        return int(v)
    return v


def _seat(tok: str, lineno: int, line: str) -> int:
    m = _SEAT.match(tok)
    if not m:
        raise _err(lineno, line, f"{tok!r} is not a seat (P0..P3)")
    return int(m.group(1))


def parse_position(text: str, **config) -> tuple[Any, ArenaState]:
    """Build ``(game, state)`` from a position text (format in the module docstring).

    Args:
        text: the position.
        **config: extra configuration keys (same as a ``config:`` line; the line wins).

    Returns:
        A new :class:`~monolith_envs.arena.game.ArenaGame` and an
        :class:`~monolith_envs.arena.state.ArenaState` built with :mod:`monolith_envs.arena.positions`.

    Raises:
        PositionTextError: syntax errors, unknown statements, a position the helpers refuse (occupied
            hex, no copy of a tile left, ...), or one the engine cannot play (a value ``from_dict`` would
            refuse, a sub-phase without a legal action, a broken docs §9 invariant such as a living seat
            whose Banner is not on the board; checked as ``from_dict`` checks a state).
    """
    from . import positions as P

    if not isinstance(text, str):
        raise PositionTextError(f"position text must be a str, got {type(text).__name__}")
    stmts: dict[str, list] = {k: [] for k in ("board", "mono", "hand", "deck", "hp", "pool", "turn")}
    factions: list[str] | None = None
    cfg: dict[str, Any] = dict(config)
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            raise _err(lineno, raw, "expected '<what>: <details>'")
        head, rest = (x.strip() for x in line.split(":", 1))
        words = head.split()
        if not words:
            raise _err(lineno, raw, "expected a statement before ':' (factions, config, <hex>, monolith, hand, "
                                    "deck, hp, pool, turn, begin)")
        if head == "factions":
            factions = [f.strip() for f in rest.split(",") if f.strip()]
        elif head == "config":
            for tok in rest.split():
                if "=" not in tok:
                    raise _err(lineno, raw, f"config token {tok!r} is not key=value")
                k, v = tok.split("=", 1)
                cfg[k] = _value(v)
        elif re.fullmatch(r"\d+", head):
            stmts["board"].append((lineno, raw, int(head), rest.split()))
        elif words[0] == "monolith" and len(words) == 2:
            stmts["mono"].append((lineno, raw, _seat(words[1], lineno, raw), rest.split()))
        elif words[0] in ("hand", "deck") and len(words) == 2:
            items = [x.strip() for x in rest.split(",")] if rest else []
            if items and any(not x for x in items):
                raise _err(lineno, raw, "empty entry in the list")
            stmts[words[0]].append((lineno, raw, _seat(words[1], lineno, raw), items))
        elif words[0] == "hp" and len(words) == 2:
            stmts["hp"].append((lineno, raw, _seat(words[1], lineno, raw), rest))
        elif words[0] == "pool" and len(words) == 2:
            team = {"A": 0, "B": 1, "0": 0, "1": 1}.get(words[1])
            if team is None:
                raise _err(lineno, raw, "pool needs A, B, 0 or 1")
            stmts["pool"].append((lineno, raw, team, rest))
        elif head in ("turn", "begin"):
            stmts["turn"].append((lineno, raw, head, rest.split()))
        else:
            raise _err(lineno, raw, "unknown statement (factions, config, <hex>, monolith, hand, deck, hp, "
                                    "pool, turn, begin)")
    if not factions:
        raise PositionTextError("position text: a 'factions: ...' line is required")
    if not 2 <= len(factions) <= 4:
        raise PositionTextError(f"position text: 'factions:' lists {len(factions)} faction id(s); a game has 2 to "
                                "4 seats, one faction each")
    try:
        game, s = P.new_position(factions, **cfg)
    except (ValueError, KeyError) as exc:
        raise PositionTextError(f"position text: cannot create the game: {_why(exc)}") from None
    tb = game.tables
    n = len(factions)

    def in_game(seat: int, lineno: int, raw: str) -> int:
        if seat >= n:
            raise _err(lineno, raw, f"seat P{seat}: this game has seats P0-P{n - 1}")
        return seat

    for key, at in (("mono", 2), ("hand", 2), ("deck", 2), ("hp", 2)):
        for item in stmts[key]:
            in_game(item[at], item[0], item[1])
    if stmts["mono"] and not game.config["monolith_module"]:
        lineno, raw = stmts["mono"][0][:2]
        raise _err(lineno, raw, "a monolith line needs the Monolith module: add 'config: monolith_module=true'")
    seat_of_faction = {f: p for p, f in enumerate(factions)}

    def owner_of(tile_id: str, lineno: int, raw: str) -> int:
        try:
            t = tb.resolve_type(tile_id)
        except KeyError as exc:
            raise _err(lineno, raw, _why(exc)) from None
        fid = tb.content.types[t].faction
        if fid not in seat_of_faction:
            raise _err(lineno, raw, f"{tile_id!r} belongs to {fid!r}, which no seat plays")
        return seat_of_faction[fid]

    def run(lineno, raw, fn, *a, **kw):
        try:
            return fn(*a, **kw)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise _err(lineno, raw, _why(exc)) from None

    # board: banners first (a Monolith rides on its Banner), then the rest
    board = sorted(stmts["board"], key=lambda x: 0 if x[3] and x[3][0].endswith("_banner") else 1)
    for lineno, raw, h, toks in board:
        if not 0 <= h < 19:
            raise _err(lineno, raw, f"hex {h} outside 0..18")
        if not toks:
            raise _err(lineno, raw, "missing tile id")
        tile = toks[0]
        owner = None
        kw: dict[str, int] = {}
        flags = set()
        for tok in toks[1:]:
            if _SEAT.match(tok):
                owner = in_game(_seat(tok, lineno, raw), lineno, raw)
            elif "=" in tok:
                k, v = tok.split("=", 1)
                key = {"f": "facing", "w": "wounds", "p": "poison"}.get(k)
                if key is None or not re.fullmatch(r"\d+", v):
                    raise _err(lineno, raw, f"bad token {tok!r} (f=, w=, p= with an integer)")
                if key == "facing" and int(v) not in FACINGS:
                    raise _err(lineno, raw, f"{tok}: a facing is 0-5")
                kw[key] = int(v)
            elif tok in ("net", "entrench"):
                flags.add(tok)
            else:
                raise _err(lineno, raw, f"unknown token {tok!r}")
        if owner is None:
            owner = owner_of(tile, lineno, raw)
        i = run(lineno, raw, P.put_tile, game, s, owner, tile, h, **kw)
        if "net" in flags:
            s.net_marker_on = i
        if "entrench" in flags:
            s.entrench_on = i
    for lineno, raw, seat, toks in stmts["mono"]:
        if not toks or toks[0] not in ("folded", "unfolded"):
            raise _err(lineno, raw, "first word must be 'folded' or 'unfolded'")
        folded = toks[0] == "folded"
        contents: list = [None, None]
        owners: list = [None, None]
        hexes = [-1, -1]
        facings = [0, 0]
        revealed = [False, False]
        for tok in toks[1:]:
            m = re.fullmatch(r"(seg|hex|f)([23])=(\S+)", tok)
            if m:
                kind, k, v = m.group(1), int(m.group(2)) - 2, m.group(3)
                if kind == "seg":
                    if v != "-":
                        if ":" in v:
                            o, v = v.split(":", 1)
                            owners[k] = in_game(_seat(o, lineno, raw), lineno, raw)
                        contents[k] = v
                elif not re.fullmatch(r"\d+", v):
                    raise _err(lineno, raw, f"{tok!r} needs an integer")
                elif kind == "hex":
                    hexes[k] = int(v)
                elif int(v) not in FACINGS:
                    raise _err(lineno, raw, f"{tok}: a facing is 0-5")
                else:
                    facings[k] = int(v)
            elif tok in ("revealed2", "revealed3"):
                revealed[int(tok[-1]) - 2] = True
            else:
                raise _err(lineno, raw, f"unknown token {tok!r} (seg2=, seg3=, hex2=, hex3=, f2=, f3=, "
                                        "revealed2, revealed3)")
        if not folded and min(hexes) < 0:
            raise _err(lineno, raw, "an unfolded Monolith needs hex2= and hex3=")
        run(lineno, raw, P.set_monolith, game, s, seat, contents=contents, folded=folded,
            hexes=None if folded else hexes, facings=facings, revealed=revealed, owners=owners)
    for lineno, raw, seat, items in stmts["hand"]:
        tiles, fresh = [], []
        for it in items:
            if it == "-":
                tiles.append(None)
                fresh.append(False)
            else:
                fresh.append(it.endswith("*"))
                tiles.append(it.rstrip("*"))
        run(lineno, raw, P.set_hand, game, s, seat, tiles, fresh=fresh)
    for lineno, raw, seat, items in stmts["deck"]:
        run(lineno, raw, P.set_deck, game, s, seat, items)
    for lineno, raw, seat, v in stmts["hp"]:
        if not re.fullmatch(r"-?\d+", v):
            raise _err(lineno, raw, "hp needs an integer")
        run(lineno, raw, P.set_hp, game, s, seat, int(v))
    for lineno, raw, team, v in stmts["pool"]:
        if not re.fullmatch(r"-?\d+", v):
            raise _err(lineno, raw, "pool needs an integer")
        run(lineno, raw, P.set_pool, game, s, team, int(v))
    if len(stmts["turn"]) > 1:
        lineno, raw = stmts["turn"][1][:2]
        raise _err(lineno, raw, "only one turn/begin statement")
    for lineno, raw, head, toks in stmts["turn"]:
        if not toks:
            raise _err(lineno, raw, "missing seat")
        seat = in_game(_seat(toks[0], lineno, raw), lineno, raw)
        if head == "begin":
            if len(toks) > 1:
                raise _err(lineno, raw, "begin takes only a seat")
            run(lineno, raw, P.begin_turn, game, s, seat)
            continue
        sub, discarded = Sub.MAIN, 0
        for tok in toks[1:]:
            if tok.startswith("sub="):
                try:
                    sub = Sub[tok[4:].upper()]
                except KeyError:
                    raise _err(lineno, raw, f"unknown sub-phase {tok[4:]!r}") from None
                if sub == Sub.GAME_OVER:
                    raise _err(lineno, raw, "sub=GAME_OVER cannot be played: a position is a decision to take, "
                                            "not a finished game")
                if sub not in TEXT_SUBS:
                    raise _err(lineno, raw, f"sub={sub.name} cannot be written as text: it needs a pending "
                                            "selection (an Order, a target, a Battle or a setup step); allowed: "
                                            + ", ".join(f"sub={x.name}" for x in TEXT_SUBS)
                                            + " (game.to_dict / from_dict save any state)")
            elif tok.startswith("discarded=") and tok[10:].isdigit():
                discarded = int(tok[10:])
            else:
                raise _err(lineno, raw, f"unknown token {tok!r} (sub=, discarded=)")
        run(lineno, raw, P.set_turn, game, s, seat, sub, discarded)
    if s.acting_seat != s.turn_seat:
        raise PositionTextError("position text: inconsistent turn")
    try:
        check_built(game, s)  # the checks of from_dict: the engine must read the position
        game.check_invariants(s)  # and it keeps the rules' invariants (docs §9), as from_dict checks
    except InvariantError as exc:
        raise PositionTextError(f"position text: {exc}") from None
    except StateError as exc:
        if stmts["turn"]:
            lineno, raw = stmts["turn"][0][:2]
            raise _err(lineno, raw, f"the position cannot be played: {exc}") from None
        raise PositionTextError(f"position text: the position cannot be played: {exc}") from None
    return game, s


#: the sub-phases a position text can express (the others need a pending selection that it does not hold)
TEXT_SUBS = (Sub.MAIN, Sub.DISCARD)


def position_to_text(game, s: ArenaState) -> str:
    """The position text of ``s`` (board, Monoliths, hands, decks, HP, turn); inverse of
    :func:`parse_position` for positions that format can express (sub-phases :data:`TEXT_SUBS`). A finished
    game or a state in another sub-phase (a pending Order, target, Battle or setup step) is written too, for
    reading, with a first comment line saying that :func:`parse_position` cannot read it back
    (``game.to_dict(s)`` saves any state)."""
    tb = game.tables
    facs = [tb.content.factions[f].id for f in s.factions]
    out = ["factions: " + ", ".join(facs)]
    if s.terminal:
        out.insert(0, "# a finished game: parse_position cannot read it back (game.to_dict saves any state)")
    elif s.sub_phase not in TEXT_SUBS:
        out.insert(0, f"# sub-phase {Sub(s.sub_phase).name}: parse_position reads only "
                      + " and ".join(x.name for x in TEXT_SUBS) + " positions (game.to_dict saves any state)")
    cfg = []
    for k in ("monolith_module", "reinforcement_variant"):
        if game.config[k]:
            cfg.append(f"{k}=true")
    if game.config["mode"] == "teams":
        cfg.append("mode=teams")
    if cfg:
        out.append("config: " + " ".join(cfg))
    in_seg = set()
    if game.module:
        for p in range(game.n):
            if not s.mono_folded[p]:
                in_seg.update(i for i in s.seg_content[p] if i >= 0)
    for h in range(19):
        i = s.board[h]
        if i < 0 or i in in_seg:
            continue
        toks = [f"{h}: {tb.id_of[s.itype[i]]}", f"P{i // PER_SEAT}"]
        if i % PER_SEAT:
            toks.append(f"f={s.facing[i]}")
        if s.wounds[i]:
            toks.append(f"w={s.wounds[i]}")
        if s.poison[i]:
            toks.append(f"p={s.poison[i]}")
        if s.net_marker_on == i:
            toks.append("net")
        if s.entrench_on == i:
            toks.append("entrench")
        out.append(" ".join(toks))
    if game.module:
        for p in range(game.n):
            if s.seg_hex[p][0] < 0:
                continue
            toks = [f"monolith P{p}:", "folded" if s.mono_folded[p] else "unfolded"]
            for k in (0, 1):
                i = s.seg_content[p][k]
                if i >= 0:
                    pre = f"P{i // PER_SEAT}:" if i // PER_SEAT != p else ""
                    toks.append(f"seg{k + 2}={pre}{tb.id_of[s.itype[i]]}")
                    if s.facing[i]:
                        toks.append(f"f{k + 2}={s.facing[i]}")
                if not s.mono_folded[p]:
                    toks.append(f"hex{k + 2}={s.seg_hex[p][k + 1]}")
                elif s.seg_revealed[p][k]:
                    toks.append(f"revealed{k + 2}")
            out.append(" ".join(toks))
    for p in range(game.n):
        items = []
        for k, i in enumerate(s.hand[p]):
            items.append("-" if i < 0 else tb.id_of[s.itype[i]] + ("*" if s.fresh[p][k] else ""))
        while items and items[-1] == "-":
            items.pop()
        if items:
            out.append(f"hand P{p}: " + ", ".join(items))
        out.append(f"deck P{p}: " + ", ".join(tb.id_of[s.itype[i]] for i in s.deck[p]))
        if game.team_mode:
            continue
        out.append(f"hp P{p}: {s.hp[p]}")
    if game.team_mode:
        out.append(f"pool A: {s.pool[0]}")
        out.append(f"pool B: {s.pool[1]}")
    tail = f"turn: P{s.turn_seat}"
    if s.sub_phase != Sub.MAIN:
        tail += f" sub={Sub(s.sub_phase).name}"
    if s.discarded:
        tail += f" discarded={s.discarded}"
    out.append(tail)
    return "\n".join(out) + "\n"


format_position = position_to_text  # the name every game package uses
