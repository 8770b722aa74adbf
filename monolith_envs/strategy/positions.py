"""The text position format of ``monolith_strategy_v0`` (docs/monolith_strategy.md §12).

A position is a few lines of ``keyword arguments``; ``#`` starts a comment. Anything not stated takes a
default (the standard layout, full decks in content order after any cards named on top, no pool dice, every
unplaced die in the Source, no cards, nothing socketed, Primus P0),
so a rules question needs only the facts it is about::

    players 3
    vp 8 0 0
    gems 1 0 0
    die 24 P0 4
    die 25 P0 2
    decision resolve 7

:func:`parse_position` returns ``(game, state)`` with the engine already run forward to the first open
decision (with the ``rng`` given, e.g. a ``ScriptedRng`` forcing dice). :func:`format_position` writes any
state in the same format, exactly (``parse_position(format_position(g, s))`` gives an equal state).
"""

from __future__ import annotations

import json
import shlex

import numpy as np

from ..core.game import MonolithEnvError
from ..core.state import StateError
from ..core.state_schema import check_built
from .render import pool_faces
from .state import Flow, Kind, Phase, Side, StrategyState
from .state_check import check_decider

__all__ = ["parse_position", "format_position", "PositionError"]


DECISIONS = ("turn", "resolve", "final", "advance", "chance", "pre", "bonus", "side")


class PositionError(MonolithEnvError, ValueError):
    """A position text that cannot be read: the message names the line and what is expected there."""


def _bool(v: str) -> bool:
    if v.lower() in ("1", "true", "yes", "on"):
        return True
    if v.lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{v!r} is not a boolean")


def _value(v: str):
    for f in (int, float):
        try:
            return f(v)
        except ValueError:
            pass
    try:
        return _bool(v)
    except ValueError:
        return v


def parse_position(text: str, rng=None, game=None):
    """Build a position from ``text`` (format: docs §12).

    Args:
        text: the position.
        rng: drawn from while the engine runs forward to the first decision (default: a seeded generator).
        game: use this :class:`StrategyGame` (its config) instead of the ``players`` / ``config`` lines.

    Returns:
        ``(game, state)``.

    Raises:
        PositionError: an unknown keyword, a bad value or a missing argument, more copies of a card than the
            content has, naming the line; or a position whose state ``from_dict`` would refuse (values out
            of range, a malformed pending decision, a live game without a legal action), naming the line that set the
            field when it can; a board card placed twice or a Player Power in a game that deals none, naming
            the line; a position breaking a docs §9 invariant, naming the invariant.
    """
    if not isinstance(text, str):
        raise PositionError(f"position text must be a str, got {type(text).__name__}")
    try:
        return _parse(text, rng, game)
    except MonolithEnvError:
        raise
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, OverflowError) as exc:
        raise PositionError(f"position: the rules cannot set up this position ({type(exc).__name__}: {exc})") \
            from None


def _parse(text: str, rng, game):
    from . import invariants
    from .game import StrategyGame
    from .setup_game import blank_state
    from .state_check import check_records

    lines = []
    for i, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0].strip() if not raw.strip().startswith(("task", "pending", "turnstate",
                                                                          "reveal")) else raw.strip()
        if body:
            lines.append((i, body))
    cfg: dict = {}
    for _i, body in lines:
        kw, _, rest = body.partition(" ")
        if kw == "players":
            if not rest.strip().isdigit():
                raise PositionError(f"position line {_i} ({body!r}): players needs a number of seats (1-4)")
            cfg["num_players"] = int(rest)
        elif kw == "config":
            for item in rest.split():
                k, _, v = item.partition("=")
                cfg[k] = _value(v)
    if game is None:
        game = StrategyGame(cfg)
    R = game.rules
    n, K = R.n, R.K
    s = blank_state(R)
    std = _standard_board(R)
    for pos, b in std.items():
        s.board[pos] = b
    s.phase = Phase.ACTION
    s.flow = Flow.PRE
    given = {"src": set(), "source": False, "pool": set(), "decks": {}, "lines": {}}
    for p in range(n):
        s.pool[p] = [0] * 6
    pools_default = True
    raw_tasks: list = []
    decision = None
    for i, body in lines:
        kw, _, rest = body.partition(" ")
        try:
            given["lines"].setdefault(kw, []).append((i, body))
            if kw in ("task", "pending", "turnstate", "reveal"):
                if kw == "task":
                    raw_tasks.append(json.loads(rest))
                elif kw == "pending":
                    s.pending = json.loads(rest)
                elif kw == "turnstate":
                    s.turn = json.loads(rest)
                else:
                    who, _, js = rest.partition(" ")
                    s.reveal[_seat(who, n)] = json.loads(js)
                continue
            args = shlex.split(rest)
            _directive(R, s, kw, args, given, n, K)
            if kw == "pool":
                pools_default = False
            if kw == "decision":
                decision = args
        except PositionError as exc:
            raise PositionError(f"position line {i} ({body!r}): {exc}") from None
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise PositionError(f"position line {i} ({body!r}): {exc.__class__.__name__}: {exc}") from None
    if pools_default:
        for p in range(n):
            s.pool[p] = [0] * 6
    _fill_defaults(R, s, given)
    if decision is not None:
        try:
            _decision(R, s, decision, n)
        except (ValueError, IndexError) as exc:
            i, body = given["lines"]["decision"][-1]
            raise PositionError(f"position line {i} ({body!r}): {exc}") from None
    s.tasks.extend(raw_tasks)
    try:
        if s.pending is None and not s.terminal:
            try:
                game.settle(s, rng if rng is not None else np.random.default_rng(0))
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                check_built(game, s, check_records)  # a value out of range is the likely cause: name it
                raise
        check_built(game, s, check_records)  # the checks of from_dict
        check_decider(game, s)  # who decides now, as from_dict checks it: what parses also loads
        invariants.check(game, s)  # docs §9: every gem, die and card counted once
    except MonolithEnvError as exc:
        raise _state_error(given["lines"], exc) from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise _state_error(given["lines"], StateError(f"the engine cannot run this position "
                                                      f"({type(exc).__name__}: {exc})")) from None
    return game, s


# position keywords that set each state field (to name the line of a position the state checks refuse)
_FIELD_KEYWORDS = {
    "source_gems": ("source", "gems"), "rc_pos": ("roundcard",), "rc_side": ("roundcard",),
    "rc_round": ("roundcard", "round"), "sock_seat": ("die",), "sock_face": ("die",), "priv": ("private",),
    "src_dice": ("src", "die", "pool", "aside", "private"), "skill_discard": ("discarded",),
    "power_discard": ("discarded",), "pp_gone": ("discarded",), "pp_queue": ("cast",),
    "winner": ("over",), "ranking": ("over",), "terminal": ("over",), "turn": ("turnstate", "decision"),
    "pending": ("pending", "decision"), "tasks": ("task", "decision"), "round": ("round",),
    "skill_deck": ("skill_deck", "hand", "cast", "discarded"), "power_deck": ("power_deck", "hand", "cast"),
    "rune_deck": ("rune_deck", "board", "private"),
}


def _state_error(lines: dict, exc: Exception) -> PositionError:
    """A :class:`PositionError` for a position whose state the checks refuse, naming the last line that set
    the field named in ``exc`` (``state.primus = ...``), or the position as a whole."""
    import re

    m = re.search(r"state\.(\w+)", str(exc))
    field = m.group(1) if m else ""
    for kw in _FIELD_KEYWORDS.get(field, (field,)):
        if kw in lines:
            return PositionError(f"{_at(lines[kw][-1])}: {exc}")
    return PositionError(f"position: {exc}")


def _at(line: tuple | None) -> str:
    """``position line 4 ('hand P0 ...')`` for a ``(number, text)`` line of the position, or ``position``."""
    return f"position line {line[0]} ({line[1]!r})" if line else "position"


def _take(left: list, card: int, name: str, lines: dict, keywords: tuple) -> None:
    """Remove one copy of ``card`` from ``left`` (the cards not yet placed), or raise a PositionError naming
    the last line among ``keywords`` that asked for one copy too many."""
    try:
        left.remove(card)
    except ValueError:
        where = max((ln for kw in keywords for ln in lines.get(kw, ())), default=None)
        raise PositionError(f"{_at(where)}: no copy of {name} is left (the content has fewer copies than the "
                            "position places in hands, cast piles, discards, decks and the board)") from None


def _seat(tok: str, n: int) -> int:
    if not tok.upper().startswith("P") or not tok[1:].isdigit() or not 0 <= int(tok[1:]) < n:
        raise PositionError(f"{tok!r} is not a seat (P0..P{n - 1})")
    return int(tok[1:])


def _member(enum: type, word: str, what: str) -> int:
    """The ``enum`` member named ``word`` (any case), or its number; a PositionError listing the names."""
    if word.isdigit():
        return int(word)
    try:
        return enum[word.upper()]
    except KeyError:
        raise PositionError(f"{what} is one of {', '.join(m.name.lower() for m in enum)} (or its number), "
                            f"got {word[:20]!r}") from None


def _card(R, tok: str) -> int:
    if tok in R.by_id:
        return R.by_id[tok]
    if tok in R.by_number:
        return R.by_number[tok]
    raise PositionError(f"unknown board card {tok!r} (ids like SR1, F3.2, R17, S1)")


def _kind(R, tok: str) -> int:
    if tok.lower() in R.kind_by_id:
        return R.kind_by_id[tok.lower()]
    raise PositionError(f"unknown action card {tok!r}; kinds: {', '.join(R.kind_by_id)}")


def _standard_board(R) -> dict:
    if R.solo:
        return {1: R.solo_cards[0], 2: R.solo_cards[1], 3: R.by_id["F3.3"], 4: R.by_number["10"],
                5: R.by_number["11"], 6: R.by_number["14"]}
    out = dict(zip((1, 2, 4, 5, 6), R.starting))
    out[3] = R.by_id["F3.1"]
    for pos, num in zip(range(7, 13), range(7, 13)):
        out[pos] = R.by_number[str(num)]
    return out


def _directive(R, s: StrategyState, kw: str, a: list, given: dict, n: int, K: int) -> None:
    if kw in ("players", "config"):
        return
    if kw == "round":
        s.round = int(a[0])
    elif kw == "primus":
        s.primus = _seat(a[0], n) if a[0].upper().startswith("P") else int(a[0])
    elif kw == "locked":
        s.primus_locked = True
    elif kw in ("vp", "gems"):
        vals = [int(x) for x in a]
        if len(vals) != n:
            raise PositionError(f"{kw} needs {n} numbers, one per seat")
        setattr(s, kw, vals)
    elif kw == "source":
        s.source_gems = int(a[0])
        given["source"] = True
    elif kw == "board":
        pos = int(a[0])
        if not 1 <= pos <= 13:
            raise PositionError(f"board needs a position 1-13, got {a[0][:20]}")
        s.board[pos] = -1 if a[1] == "-" else _card(R, a[1])
    elif kw == "roundcard":
        s.rc_pos = int(a[0])
        side = a[1].lower()
        if side not in ("normal", "exalted"):
            raise PositionError(f"roundcard's side is normal or exalted, got {a[1][:20]!r}")
        s.rc_side = int(Side.EXALTED) if side == "exalted" else int(Side.NORMAL)
        s.rc_round = int(a[2]) if len(a) > 2 else s.round
    elif kw == "die":
        sid, p, f = int(a[0]), _seat(a[1], n), int(a[2])
        if not 0 <= sid < 52 or not 1 <= f <= 6:
            raise PositionError("die needs a board socket id 0-51, a seat and a face 1-6")
        s.sock_seat[sid], s.sock_face[sid] = p, f
    elif kw == "blocked":
        for x in a:
            s.blocked[int(x)] = True
    elif kw == "private":
        p = _seat(a[0], n)
        entry = {"card": _card(R, a[1]), "revealed": "revealed" in a[2:], "occ": [0, 0, 0, 0]}
        if "faces" in a:
            j = a.index("faces")
            entry["occ"] = [int(x) for x in a[j + 1:j + 5]]
        s.priv[p].append(entry)
    elif kw == "pool":
        p = _seat(a[0], n)
        s.pool[p] = [0] * 6
        for x in a[1:]:
            s.pool[p][int(x) - 1] += 1
    elif kw in ("src", "aside", "guard"):
        p = _seat(a[0], n)
        getattr(s, "src_dice" if kw == "src" else kw)[p] = int(a[1])
        if kw == "src":
            given["src"].add(p)
    elif kw in ("hand", "cast"):
        p = _seat(a[0], n)
        for x in a[1:]:
            k = _kind(R, x)
            getattr(s, kw)[p][k] += 1
            if kw == "cast" and R.is_pp[k]:
                s.pp_queue.append([p, k])
    elif kw == "chase":
        s.chase[_seat(a[0], n)] = [int(a[1]), int(a[2])]
    elif kw == "discarded":
        k = _kind(R, a[0])
        cnt = int(a[1]) if len(a) > 1 else 1
        if R.is_skill[k]:
            s.skill_discard[k] += cnt
        elif R.is_power[k]:
            s.power_discard[k] += cnt
        else:
            s.pp_gone[k] += cnt
    elif kw in ("skill_deck", "power_deck"):
        given["decks"][kw] = [_kind(R, x) for x in a]
    elif kw == "rune_deck":
        given["decks"][kw] = [_card(R, x) for x in a]
    elif kw == "pp_out":
        s.pp_out = sorted(_kind(R, x) for x in a)
    elif kw == "phase":
        s.phase = _member(Phase, a[0], "phase")
    elif kw == "flow":
        s.flow = _member(Flow, a[0], "flow")
    elif kw == "decisions":
        s.decisions = int(a[0])
    elif kw == "over":
        s.terminal = True
        s.phase = Phase.OVER
        s.winner = int(a[0])
        s.ranking = json.loads(a[1]) if len(a) > 1 else []
    elif kw == "decision":
        if not a or a[0].lower() not in DECISIONS:
            raise PositionError(f"unknown decision {a[0] if a else ''!r}; one of {', '.join(DECISIONS)}")
    else:
        raise PositionError(f"unknown keyword {kw!r}")


def _fill_defaults(R, s: StrategyState, given: dict) -> None:
    n = R.n
    if not given["source"]:
        s.source_gems = R.total_gems - sum(s.gems)
    for p in range(n):
        if p not in given["src"]:
            used = sum(s.pool[p]) + sum(1 for x in s.sock_seat if x == p) + s.aside[p] + sum(
                1 for pr in s.priv[p] for f in pr["occ"] if f)
            s.src_dice[p] = max(0, R.dpp - used)
    decks, lines = given["decks"], given["lines"]
    kinds = {v: k for k, v in R.kind_by_id.items()}
    for name, cards, cat in (("skill_deck", R.skill_cards, R.is_skill), ("power_deck", R.power_cards, R.is_power)):
        left = list(cards)
        for p in range(n):
            for k in range(R.K):
                if cat[k] and s.hand[p][k] + s.cast[p][k] > len(cards):
                    _take([], k, kinds.get(k, str(k)), lines, ("hand", "cast"))
                for _ in range(s.hand[p][k] + s.cast[p][k]):
                    if cat[k]:
                        _take(left, k, kinds.get(k, str(k)), lines, ("hand", "cast"))
        for k in range(R.K):
            if cat[k] and s.skill_discard[k] + s.power_discard[k] > len(cards):
                _take([], k, kinds.get(k, str(k)), lines, ("discarded",))
            for _ in range(s.skill_discard[k] + s.power_discard[k]):
                if cat[k]:
                    _take(left, k, kinds.get(k, str(k)), lines, ("hand", "cast", "discarded"))
        top = decks.get(name, [])
        for k in top:
            _take(left, k, kinds.get(k, str(k)), lines, (name,))
        setattr(s, name, top + left)
    _check_placed_once(R, s, lines)
    left = [b for b in R.rune_pool if b not in s.board[1:] and all(b != pr["card"] for q in s.priv for pr in q)]
    top = decks.get("rune_deck", [])
    for b in top:
        _take(left, b, f"board card {R.content.board[b].id}", lines, ("rune_deck",))
    s.rune_deck = top + left
    if not R.pp_kinds:
        _check_no_player_powers(R, s, lines, kinds)
    if R.pp_kinds and not s.pp_out:
        held = {k for p in range(n) for k in range(R.K) if R.is_pp[k] and (s.hand[p][k] or s.cast[p][k])}
        s.pp_out = sorted(k for k in R.pp_kinds if k not in held and not s.pp_gone[k])


def _check_no_player_powers(R, s: StrategyState, lines: dict, kinds: dict) -> None:
    """Raise a PositionError naming the line that gives a Player Power card (hand, cast or discarded) in a
    game that deals none."""
    for p in range(R.n):
        for k in range(R.K):
            if R.is_pp[k] and s.hand[p][k] + s.cast[p][k] + s.pp_gone[k]:
                name = kinds.get(k, str(k))
                where = [ln for kw in ("hand", "cast", "discarded") for ln in lines.get(kw, ())
                         if name in ln[1].lower().split()]
                raise PositionError(f"{_at(where[0] if where else None)}: {name} is a Player Power card and "
                                    "this game deals none (add 'config player_powers=true')")


def _check_placed_once(R, s: StrategyState, lines: dict) -> None:
    """Raise a PositionError naming the line that places a board card (a Rune, a Fate) a second time: on the
    board twice, or on the board and as a private card, or as two private cards (docs §9, invariant 4)."""
    where: dict = {}
    for pos in range(1, 14):
        b = s.board[pos]
        if b >= 0:
            where.setdefault(b, []).append(f"board position {pos}")
    for p, privs in enumerate(s.priv):
        for pr in privs:
            where.setdefault(pr["card"], []).append(f"private card of P{p}")
    for b, places in where.items():
        if len(places) > 1:
            name = R.content.board[b].id
            hits = [ln for kw in ("board", "private") for ln in lines.get(kw, ()) if name in ln[1].split()]
            raise PositionError(f"{_at(max(hits, default=None))}: board card {name} is placed twice ({' and '.join(places)}); the "
                                "content has one copy")


def _decision(R, s: StrategyState, a: list, n: int) -> None:
    what = a[0].lower()
    final_round = s.round >= R.content.rounds
    if what == "turn":
        p = _seat(a[1], n)
        s.phase = Phase.ACTION
        s.flow = Flow.PRE
        s.turn = {"player": p, "left": 1, "socketed": False, "mandatory_done": False, "stack_ready": False}
        for item in a[2:]:
            k, _, v = item.partition("=")
            if k not in s.turn:
                raise PositionError(f"turn has no field {k!r}; fields: {', '.join(s.turn)}")
            s.turn[k] = int(v) if k == "left" else _bool(v)
        s.tasks.append({"t": "turn"})
    elif what == "resolve":
        s.phase = Phase.RESOLUTION
        s.flow = Flow.FINAL if final_round else Flow.ADVANCE
        s.tasks += [{"t": "chase_check"}, {"t": "res_priv", "list": None, "i": 0}]
        if int(a[1]) <= 13:
            s.tasks.append({"t": "res_pos", "pos": int(a[1])})
    elif what == "final":
        s.phase = Phase.RESOLUTION
        s.flow = Flow.FINAL
    elif what == "advance":
        s.phase = Phase.RESOLUTION
        s.flow = Flow.ADVANCE
    elif what == "chance":
        s.phase = Phase.ADVANCEMENT
        s.flow = Flow.CHANCE
    elif what == "pre":
        s.phase = Phase.ACTION
        s.flow = Flow.PRE
    elif what == "bonus":
        s.phase = Phase.SETUP
        s.flow = Flow.ROUND_CARD
        for tok in reversed(a[1:]):
            s.tasks.append({"t": "bonus", "p": _seat(tok, n)})
    elif what == "side":
        s.pending = {"k": int(Kind.SIDE), "seat": s.primus}
        s.flow = Flow.ADVANCE_REST if s.rc_round == s.round + 1 else Flow.CHANCE
    else:
        raise PositionError(f"unknown decision {what!r}; one of turn, resolve, final, advance, chance, pre, "
                            "bonus, side")


def format_position(game, s: StrategyState) -> str:
    """The exact text of ``s`` in the position format (parsing it back gives an equal state)."""
    R = game.rules
    n = R.n
    c = R.content
    kinds = [a.id for a in c.actions]
    out = [f"players {n}"]
    cfg = {k: v for k, v in game.config.items() if k != "num_players"}
    out.append("config " + " ".join(f"{k}={v}" for k, v in cfg.items()))
    out.append(f"round {s.round}")
    out.append(f"phase {Phase(s.phase).name.lower()}")
    out.append(f"flow {Flow(s.flow).name.lower()}")
    out.append(f"decisions {s.decisions}")
    out.append(f"primus P{s.primus}")
    if s.primus_locked:
        out.append("locked")
    out.append("vp " + " ".join(map(str, s.vp)))
    out.append("gems " + " ".join(map(str, s.gems)))
    out.append(f"source {s.source_gems}")
    for pos in range(1, 14):
        b = s.board[pos]
        out.append(f"board {pos} {c.board[b].id if b >= 0 else '-'}")
    if s.rc_round:
        out.append(f"roundcard {s.rc_pos} {'exalted' if s.rc_side else 'normal'} {s.rc_round}")
    for sid in range(52):
        if s.sock_seat[sid] >= 0:
            out.append(f"die {sid} P{s.sock_seat[sid]} {s.sock_face[sid]}")
    bl = [str(i) for i in range(52) if s.blocked[i]]
    if bl:
        out.append("blocked " + " ".join(bl))
    for p in range(n):
        out.append(f"pool P{p} " + pool_faces(s.pool[p]))
        out.append(f"src P{p} {s.src_dice[p]}")
        if s.aside[p]:
            out.append(f"aside P{p} {s.aside[p]}")
        if s.guard[p]:
            out.append(f"guard P{p} {s.guard[p]}")
        for pr in s.priv[p]:
            rv = " revealed" if pr["revealed"] else ""
            out.append(f"private P{p} {c.board[pr['card']].id}{rv} faces " + " ".join(map(str, pr["occ"])))
        h = [kinds[k] for k in range(R.K) for _ in range(s.hand[p][k])]
        if h:
            out.append(f"hand P{p} " + " ".join(h))
        ch = s.chase[p]
        if ch is not None:
            out.append(f"chase P{p} {ch[0]} {ch[1]}")
        if s.reveal[p] is not None:
            out.append(f"reveal P{p} {json.dumps(s.reveal[p])}")
    for p, k in s.pp_queue:
        out.append(f"cast P{p} {kinds[k]}")
    for p in range(n):
        h = [kinds[k] for k in range(R.K) if not R.is_pp[k] for _ in range(s.cast[p][k])]
        if h:
            out.append(f"cast P{p} " + " ".join(h))
    for k in range(R.K):
        d = s.skill_discard[k] + s.power_discard[k] + s.pp_gone[k]
        if d:
            out.append(f"discarded {kinds[k]} {d}")
    out.append("skill_deck " + " ".join(kinds[k] for k in s.skill_deck))
    out.append("power_deck " + " ".join(kinds[k] for k in s.power_deck))
    out.append("rune_deck " + " ".join(c.board[b].id for b in s.rune_deck))
    if s.pp_out:
        out.append("pp_out " + " ".join(kinds[k] for k in s.pp_out))
    out.append(f"turnstate {json.dumps(s.turn)}")
    if s.terminal:
        out.append(f"over {s.winner} {shlex.quote(json.dumps(s.ranking))}")
    for t in s.tasks:
        out.append(f"task {json.dumps(t)}")
    if s.pending is not None:
        out.append(f"pending {json.dumps(s.pending)}")
    return "\n".join(out) + "\n"
