"""The text position format of The Monolith (docs/the_monolith.md §10): state any position in a few lines.

Example (golden scenario G1)::

    config num_players=4 shaman_assignment="fixed" shamans=[0,1,2,3] first_player=0
    decision ORDER_CHOOSE P0
    P0 available=5
    space 1: P0{3W}
    space 3: P0{2W}
    space 13: P2{1W}

One statement per line (``#`` starts a comment). Only what is listed is set; then every heart not listed
is in its owner's ``unearned`` pool, every warrior not listed in its ``limbo``, every shaman not listed
stands alive on its owner's Hold, and every card not listed is in its deck in id order.

Statements:
    ``config k=v ...``        game config (values are Python literals); default: 4 players, fixed shamans
                              [0,1,2,3], first player 0 (the baseline of the golden scenarios)
    ``day D`` / ``first Pk`` / ``surge Pk|none`` / ``decisions K``
    ``phase SETUP|ORDER|ACTION|REST|GAME_OVER``  (default: implied by the decision)
    ``decision SUB Pk``       the pending decision and its decider; ``decision none`` runs the pending
                              rule steps (``stack``) until the next decision (needs ``rng`` if they draw);
                              ``decision over``: the game has ended (returns from the favour)
    ``Pk field=value ...``    favour, available, spent, unearned, tower_today, tower_stuck, board=a,b,c,
                              reserves, anger, limbo, kills, draft_bid, shaman=<id>, held=D01,D02,
                              objectives=O05, and the flags committed, out
    ``space S: Pk{2W,1w,S} ... blood=B boast=Pk:h,...``   W living, w dead warriors; S living, s dead shaman
    ``row I: Dxx Pk:bid ...`` / ``events E01@11 E09`` / ``event_discard ...`` / ``div_discard ...``
    ``obj_discard O01+ O02-`` (+ face up, - face down) / ``div_deck ...`` / ``event_deck ...`` / ``obj_deck ...``
    ``context k=v ...``       decision context fields of :class:`MonolithState` (lists as 0,1,0,0)
    ``stack F[:a[:b]] ...``   pending rule steps, bottom first (:class:`Frame` names); ``rest`` = the whole
                              rest phase from step 1. Default: what the rules leave below the decision.
"""

from __future__ import annotations

import ast
import re

from ..core.game import InvariantError, MonolithEnvError
from ..core.state import StateError
from ..core.state_schema import check_built
from .board import units_text
from .state import NONE, Frame, Phase, Sub
from .state_check import check_decider

__all__ = ["PositionError", "parse_position", "format_position"]

BASELINE = {"num_players": 4, "shaman_assignment": "fixed", "shamans": [0, 1, 2, 3], "first_player": 0}

_PLAYER_INT = ("favour", "available", "spent", "unearned", "tower_today", "tower_stuck", "reserves", "anger",
               "limbo", "kills", "draft_bid", "shaman")
_CTX_INT = ("focus_slot", "march_src", "march_cur", "march_group", "march_steps", "free_steps", "sh_steps",
            "rec_paid", "rec_bonus", "man_space", "man_kind", "owed", "free_fate", "last_space", "win_kind",
            "event_focus", "d_nominator", "d_shaman", "d_high", "d_high_bidder", "d_last")
_CTX_BOOL = ("rec_anywhere", "man_free", "surge_first")
_CTX_LIST = ("turn_used", "win_used", "d_passed", "d_claimed", "d_assigned", "favour_floor")
_ORDER_SUBS = (Sub.ORDER_CHOOSE, Sub.MARCH_SOURCE, Sub.MARCH_GROUP, Sub.MARCH_STEP, Sub.MARCH_REGROUP,
               Sub.SHAMAN_STEP, Sub.RECRUIT_HEARTS, Sub.RECRUIT_PLACE, Sub.DIV_CARD, Sub.DIV_AMOUNT, Sub.DIV_RAISE)
_ACTION_SUBS = (Sub.ACTION_CHOOSE, Sub.MANEUVER_DEST, Sub.POWER_WINDOW, Sub.EXTRA_KILL)


#: the longest ``config`` line a position text may have (the format writes well under 1,000 characters)
MAX_CONFIG_LINE = 4096


class PositionError(MonolithEnvError, ValueError):
    """A position text that cannot be read or states an impossible position (names the line)."""


def _seat(tok: str, n: int, line: str) -> int:
    m = re.fullmatch(r"P(\d)", tok)
    if not m or int(m.group(1)) >= n:
        raise PositionError(f"{line!r}: {tok!r} is not a seat P0..P{n - 1}")
    return int(m.group(1))


def _card(keys: dict, tok: str, line: str) -> int:
    if tok not in keys:
        raise PositionError(f"{line!r}: unknown card {tok!r}")
    return keys[tok]


def _int(tok: str, line: str) -> int:
    try:
        return int(tok)
    except ValueError:
        raise PositionError(f"{line!r}: {tok!r} is not an integer") from None


def _default_stack(g, s) -> list:
    p, sub = s.current, s.sub
    if sub == Sub.DIV_RAISE:
        return [[Frame.TURN_START, p, s.focus_slot + 1]]
    if sub in _ORDER_SUBS:
        return [[Frame.NEXT_TURN, p, 0]]
    if sub == Sub.POWER_WINDOW:
        return [[Frame.AFTER_ACTION, p, 0]]
    if sub == Sub.OBJ_REVEAL:
        return [[f, 0, 0] for f in (Frame.REST_END, Frame.REST_SCRIPT, Frame.REST_BOASTS, Frame.REST_TEMPLES)] + [
            [Frame.REST_OBJ, (p - s.first) % s.n, 0]]
    if sub == Sub.EVENT_PLACE:
        return [[Frame.START_DAY, 0, 0], [Frame.EVENT_REVEAL, p, 0]]
    return []


def parse_position(text: str, rng=None):
    """Read a position (module docstring) and return ``(game, state)``.

    Args:
        text: the position.
        rng: chance for ``decision none`` when the pending steps draw (a ``ScriptedRng`` or a Generator).

    Raises:
        PositionError: a line that cannot be read, counts that do not fit (e.g. more than 19 hearts), a
            position from which some legal action breaks an invariant (stack and decision do not fit), or a
            position that ``from_dict`` would refuse (a value out of range, a live game without a legal
            action, an observation out of bounds), naming the line when it can.
        InvariantError: the position breaks a docs §9 invariant.
        ConfigError: a ``config`` line with a key or value the game does not allow.
    """
    if not isinstance(text, str):
        raise PositionError(f"position text must be a str, got {type(text).__name__}")
    try:
        return _parse(text, rng)
    except MonolithEnvError:
        raise
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, OverflowError) as exc:
        raise PositionError(f"position: the rules cannot set up this position ({type(exc).__name__}: {exc})") \
            from None


def _parse(text: str, rng):
    from .game import MonolithGame
    from .opening import blank_state

    lines = [ln.split("#", 1)[0].strip() for ln in text.strip().splitlines()]
    lines = [ln for ln in lines if ln]
    cfg = dict(BASELINE)
    for ln in lines:
        if ln.startswith("config"):
            if len(ln) > MAX_CONFIG_LINE:
                raise PositionError(f"{ln[:60]!r}...: a config line of {len(ln):,} characters; at most "
                                    f"{MAX_CONFIG_LINE:,}")
            for m in re.finditer(r"(\w+)=(\[[^\]]*\]|\S+)|\S+", ln[6:]):  # each token once: linear time
                k, v = m.group(1), m.group(2)
                if k is None:
                    raise PositionError(f"{ln[:80]!r}: {m.group(0)[:40]!r} is not key=value")
                try:
                    cfg[k] = ast.literal_eval(v)
                except (ValueError, SyntaxError, RecursionError, MemoryError):  # not a literal: the text itself
                    cfg[k] = v
    g = MonolithGame(cfg)
    n = g.n
    s = blank_state(g)
    s.shaman_id = list(cfg["shamans"]) if cfg.get("shaman_assignment") == "fixed" else list(range(n))
    s.first = cfg["first_player"] if cfg.get("first_player", -1) >= 0 else 0
    s.phase = Phase.ORDER
    dkeys = {c.key: i for i, c in enumerate(g.divs)}
    ekeys = {c.key: i for i, c in enumerate(g.events)}
    okeys = {c.key: i for i, c in enumerate(g.objs)}
    given = {p: set() for p in range(n)}
    shaman_listed = [False] * n
    decks = {}
    phase = None
    stack = None
    decision = None
    given_ctx: set = set()
    placed: dict = {}  # (card kind, index) -> the line that placed it

    def card(keys: dict, tok: str, ln: str) -> int:
        """A card of ``keys`` placed by line ``ln``; a card placed twice is a PositionError naming both."""
        c = _card(keys, tok, ln)
        first = placed.get((id(keys), c))
        if first is not None:
            where = "earlier on this line" if first is ln else f"by {first!r}"
            raise PositionError(f"{ln!r}: card {tok} is already placed {where} (each card is in one place)")
        placed[(id(keys), c)] = ln
        return c

    for ln in lines:
        try:
            head, _, rest = ln.partition(" ")
            toks = rest.split()
            if head == "config":
                continue
            if head in ("day", "decisions"):
                setattr(s, head, _int(rest, ln))
            elif head == "first":
                s.first = _seat(rest, n, ln)
            elif head == "surge":
                s.surge = NONE if rest == "none" else _seat(rest, n, ln)
            elif head == "phase":
                if rest not in Phase.__members__:
                    raise PositionError(f"{ln!r}: phase is one of {', '.join(Phase.__members__)}")
                phase = Phase[rest]
            elif head == "decision":
                if rest in ("none", "over"):
                    decision = rest
                else:
                    if len(toks) != 2 or toks[0] not in Sub.__members__:
                        raise PositionError(f"{ln!r}: 'decision SUB Pk' with SUB one of {', '.join(Sub.__members__)}")
                    decision = (Sub[toks[0]], _seat(toks[1], n, ln))
            elif re.fullmatch(r"P\d", head):
                p = _seat(head, n, ln)
                for tok in toks:
                    k, eq, v = tok.partition("=")
                    if not eq:
                        if k not in ("committed", "out"):
                            raise PositionError(f"{ln!r}: flag {k!r} is not committed or out")
                        getattr(s, k)[p] = True
                    elif k in _PLAYER_INT:
                        val = _int(v, ln)
                        if val < 0 and not (k == "shaman" and val == -1):
                            raise PositionError(f"{ln!r}: {k} must be >= 0")
                        {"kills": s.kills_today, "shaman": s.shaman_id}.get(k, getattr(s, k, None))[p] = val
                        given[p].add(k)
                    elif k == "board":
                        s.board[p] = [_int(x, ln) for x in v.split(",")]
                        if len(s.board[p]) != 3:
                            raise PositionError(f"{ln!r}: board=slay,maneuver,boast")
                    elif k == "held":
                        s.held[p] = [card(dkeys, x, ln) for x in v.split(",") if x]
                    elif k == "objectives":
                        s.objectives[p] = [card(okeys, x, ln) for x in v.split(",") if x]
                    else:
                        raise PositionError(f"{ln!r}: unknown player field {k!r}")
            elif head == "space":
                m = re.fullmatch(r"(\d+):(.*)", rest)
                if not m:
                    raise PositionError(f"{ln!r}: 'space S: P0{{2W,S}} ...'")
                sp = _int(m.group(1), ln)
                if not 0 <= sp < g.N or not g.active[sp]:
                    raise PositionError(f"{ln!r}: space {sp} is not an active space")
                body = m.group(2)
                for who, units in re.findall(r"(P\d)\{([^}]*)\}", body):
                    p = _seat(who, n, ln)
                    for u in (x.strip() for x in units.split(",") if x.strip()):
                        um = re.fullmatch(r"(\d*)([Ww])|([Ss])", u)
                        if not um:
                            raise PositionError(f"{ln!r}: unit {u!r} is not like 2W, 1w, S or s")
                        if um.group(3):
                            s.shaman_space[p] = sp
                            s.shaman_alive[p] = um.group(3) == "S"
                            shaman_listed[p] = True
                        else:
                            cnt = int(um.group(1) or 1)
                            (s.living if um.group(2) == "W" else s.dead)[sp][p] += cnt
                for k, v in re.findall(r"(blood|boast)=(\S+)", body):
                    if k == "blood":
                        s.blood[sp] = _int(v, ln)
                    else:
                        for part in v.split(","):
                            who, _, h = part.partition(":")
                            s.boast[sp][_seat(who, n, ln)] = _int(h, ln)
            elif head == "row":
                m = re.fullmatch(r"(\d+):\s*(\S+)(.*)", rest)
                if not m or not 0 <= int(m.group(1)) < g.R:
                    raise PositionError(f"{ln!r}: 'row I: Dxx P0:bid ...' with I in 0..{g.R - 1}")
                i = int(m.group(1))
                s.row[i] = card(dkeys, m.group(2), ln)
                for who, b in re.findall(r"(P\d):(\d+)", m.group(3)):
                    s.bids[i][_seat(who, n, ln)] = int(b)
            elif head == "events":
                for tok in toks:
                    key, _, sp = tok.partition("@")
                    s.events.append([card(ekeys, key, ln), _int(sp, ln) if sp else NONE])
            elif head in ("event_discard", "div_discard"):
                keys = ekeys if head == "event_discard" else dkeys
                setattr(s, head, [card(keys, t, ln) for t in toks])
            elif head == "obj_discard":
                for tok in toks:
                    if tok[-1] not in "+-":
                        raise PositionError(f"{ln!r}: {tok!r} needs + (face up) or - (face down)")
                    s.obj_discard.append([card(okeys, tok[:-1], ln), 1 if tok[-1] == "+" else 0])
            elif head in ("div_deck", "event_deck", "obj_deck"):
                keys = {"div_deck": dkeys, "event_deck": ekeys, "obj_deck": okeys}[head]
                decks[head] = [card(keys, t, ln) for t in toks]
            elif head == "context":
                for tok in toks:
                    k, _, v = tok.partition("=")
                    if k in _CTX_INT:
                        setattr(s, k, _int(v, ln))
                    elif k in _CTX_BOOL:
                        if v.lower() not in ("0", "1", "true", "false"):
                            raise PositionError(f"{ln!r}: {k} is 0 or 1 (or true / false), got {v[:20]!r}")
                        setattr(s, k, v.lower() in ("1", "true"))
                    elif k in _CTX_LIST:
                        vals = [_int(x, ln) for x in v.split(",") if x]
                        setattr(s, k, [bool(x) for x in vals] if k not in ("d_claimed", "favour_floor") else vals)
                        given_ctx.add(k)
                    else:
                        raise PositionError(f"{ln!r}: unknown context field {k!r}")
            elif head == "stack":
                stack = []
                for tok in toks:
                    if tok == "rest":
                        from .action_phase import REST_FRAMES

                        stack.extend([f, 0, 0] for f in REST_FRAMES)
                        continue
                    parts = tok.split(":")
                    if parts[0] not in Frame.__members__:
                        raise PositionError(f"{ln!r}: unknown rule step {parts[0]!r}")
                    vals = [_int(x, ln) for x in parts[1:]] + [0, 0]
                    stack.append([Frame[parts[0]], vals[0], vals[1]])
            else:
                raise PositionError(f"{ln!r}: unknown statement {head!r}")
        except PositionError:
            raise
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, OverflowError) as exc:
            raise PositionError(f"{ln!r}: {type(exc).__name__}: {exc}") from None
    # defaults: unearned hearts, limbo warriors, decks
    for p in range(n):
        if not shaman_listed[p]:
            s.shaman_space[p], s.shaman_alive[p] = g.hold[p], True
        if s.shaman_id[p] >= g.S:
            raise PositionError(f"seat {p}: shaman id {s.shaman_id[p]} unknown")
        if min(s.shaman_id) < 0:
            continue  # during the draft no hearts or warriors are placed yet
        hearts = (s.available[p] + s.spent[p] + s.tower_today[p] + s.tower_stuck[p] + sum(s.board[p])
                  + sum(s.bids[i][p] for i in range(g.R)) + sum(s.boast[sp][p] for sp in range(g.N)))
        if "unearned" not in given[p]:
            s.unearned[p] = 19 - hearts
        if hearts + s.unearned[p] != 19 or s.unearned[p] < 0:
            listed = hearts + (s.unearned[p] if "unearned" in given[p] else 0)
            raise PositionError(f"seat P{p}: the listed hearts add up to {listed}; a seat has 19 (unlisted "
                                "hearts are unearned)")
        war = (sum(s.living[sp][p] + s.dead[sp][p] for sp in range(g.N)) + s.reserves[p] + s.anger[p])
        if "limbo" not in given[p]:
            s.limbo[p] = 16 - war
        if war + s.limbo[p] != 16 or s.limbo[p] < 0:
            listed = war + (s.limbo[p] if "limbo" in given[p] else 0)
            raise PositionError(f"seat P{p}: the listed warriors add up to {listed}; a seat has 16 (unlisted "
                                "warriors are in limbo)")
    used_d = set(c for c in s.row if c >= 0) | {c for h in s.held for c in h} | set(s.div_discard)
    used_e = {e for e, _ in s.events} | set(s.event_discard) | ({s.event_focus} if s.event_focus >= 0 else set())
    used_o = {o for h in s.objectives for o in h} | {o for o, _ in s.obj_discard}
    s.div_deck = decks.get("div_deck", [i for i in range(g.D) if i not in used_d])
    s.event_deck = decks.get("event_deck", [i for i in range(g.E) if i not in used_e])
    s.obj_deck = decks.get("obj_deck", [i for i in range(g.O) if i not in used_o])
    if "favour_floor" not in given_ctx:
        s.favour_floor = list(s.favour)
    if decision is None:
        raise PositionError("a position needs a 'decision SUB Pk' (or 'decision none' with a 'stack') line")
    if decision == "over":
        s.sub, s.current, s.terminal, s.phase = NONE, NONE, True, Phase.GAME_OVER
        g.finish_returns(s)
    elif decision == "none":
        s.sub = NONE
        s.phase = phase if phase is not None else s.phase
        s.stack = stack or []
        g.run(s, rng if rng is not None else _no_rng())
    else:
        s.sub, s.current = decision
        if phase is None:
            phase = (Phase.ORDER if s.sub in _ORDER_SUBS else Phase.ACTION if s.sub in _ACTION_SUBS
                     else Phase.REST if s.sub in (Sub.OBJ_REVEAL, Sub.EVENT_PLACE, Sub.EVENT_MOVE)
                     else Phase.SETUP if s.sub <= Sub.DRAFT_FREE_PICK else Phase.ORDER)
        s.phase = phase
        s.stack = stack if stack is not None else _default_stack(g, s)
        if s.sub == Sub.ACTION_CHOOSE and s.owed == 0:
            s.owed = 2
    if s.phase == Phase.ACTION:
        for p in range(n):  # no heart on the action board means out (docs §4.6), except for the decider
            if sum(s.board[p]) == 0 and (p != s.current or s.sub == Sub.ACTION_CHOOSE):  # in mid-action
                s.out[p] = True
    if g.reward_mode == "score" and not s.terminal:
        g._score(s)
    try:
        g.check_invariants(s)
    except InvariantError as exc:  # a position no game reaches (docs §9), e.g. bids outside the order phase
        raise PositionError(f"position: {exc}") from None
    try:
        check_built(g, s)  # the checks of from_dict (the invariants ran above): the engine must read it
        check_decider(g, s)  # who decides now, as from_dict checks it: what parses also loads
    except StateError as exc:
        raise _state_error(lines, exc) from None
    _check_goes_on(g, s)
    return g, s


def _check_goes_on(g, s) -> None:
    """Every legal action of the position applies to a copy and leaves a state that keeps the invariants: a
    position whose stack or decision do not fit each other (an empty ``stack`` line under a decision that
    needs its frames) is refused here, not one move into play."""
    import numpy as np

    from ..core.game import InvariantError

    if g.is_terminal(s):
        return
    for a in np.flatnonzero(g.legal_mask(s))[:256]:
        c = g.clone(s)
        try:
            g.apply(c, int(a), np.random.default_rng(0))
            g.check_invariants(c)
        except InvariantError as exc:
            raise PositionError(f"position: the game cannot go on from it: after {g.layout.decode(int(a))}, "
                                f"{exc} (do the stack and decision lines fit each other?)") from None


# position statements that set each state field (to name the line of a position the state checks refuse)
_FIELD_HEADS = {"current": "decision", "sub": "decision", "stack": "stack", "phase": "phase", "day": "day",
                "decisions": "decisions", "first": "first", "surge": "surge", "row": "row", "bids": "row",
                "events": "events", "living": "space", "dead": "space", "blood": "space", "boast": "space",
                "shaman_space": "space", "shaman_alive": "space", **{k: "context" for k in _CTX_INT + _CTX_BOOL
                                                                      + _CTX_LIST}}


def _state_error(lines: list, exc: Exception) -> PositionError:
    """A :class:`PositionError` naming the last line that set the field named in ``exc`` (``state.x``)."""
    m = re.search(r"state\.(\w+)", str(exc))
    field = m.group(1) if m else ""
    head = _FIELD_HEADS.get(field)
    if head is None and field:
        head = next((ln.split()[0] for ln in reversed(lines) if re.search(rf"\b{field}=", ln)), None)
    hit = next((ln for ln in reversed(lines) if head and ln.split()[0] == head), None)
    return PositionError(f"{hit!r}: {exc}" if hit else f"position: {exc}")


def _no_rng():
    from .game import _NoRng

    return _NoRng()


def format_position(g, s) -> str:
    """Write ``s`` in the position format, every field stated, so that ``parse_position`` reads it back
    equal (``config`` carries the game's config keys that differ from the defaults)."""
    from .config import CONFIG_KEYS

    out = []
    cfg = [f"{k.name}={g.config[k.name]!r}".replace(" ", "") for k in CONFIG_KEYS
           if g.config[k.name] != k.default or k.name in BASELINE]
    out.append("config " + " ".join(cfg))
    out.append(f"day {s.day}")
    out.append(f"decisions {s.decisions}")
    out.append(f"first P{s.first}")
    out.append("surge " + ("none" if s.surge < 0 else f"P{s.surge}"))
    out.append(f"phase {Phase(s.phase).name}")
    dk = [c.key for c in g.divs]
    ek = [c.key for c in g.events]
    ok = [c.key for c in g.objs]
    for p in range(s.n):
        f = [f"{k}={v}" for k, v in (("favour", s.favour[p]), ("available", s.available[p]), ("spent", s.spent[p]),
                                     ("unearned", s.unearned[p]), ("tower_today", s.tower_today[p]),
                                     ("tower_stuck", s.tower_stuck[p]), ("reserves", s.reserves[p]),
                                     ("anger", s.anger[p]), ("limbo", s.limbo[p]), ("kills", s.kills_today[p]),
                                     ("draft_bid", s.draft_bid[p]), ("shaman", s.shaman_id[p]))]
        f.append("board=" + ",".join(map(str, s.board[p])))
        f.append("held=" + ",".join(dk[c] for c in s.held[p]))
        f.append("objectives=" + ",".join(ok[o] for o in s.objectives[p]))
        f += [k for k in ("committed", "out") if getattr(s, k)[p]]
        out.append(f"P{p} " + " ".join(f))
    for sp in g.active_spaces:
        units = units_text(s, sp)
        parts = [units] if units else []
        if s.blood[sp]:
            parts.append(f"blood={s.blood[sp]}")
        if any(s.boast[sp]):
            parts.append("boast=" + ",".join(f"P{p}:{h}" for p, h in enumerate(s.boast[sp]) if h))
        if parts:
            out.append(f"space {sp}: " + " ".join(parts))
    for i in range(g.R):
        if s.row[i] >= 0:
            out.append(f"row {i}: {dk[s.row[i]]} " + " ".join(f"P{p}:{b}" for p, b in enumerate(s.bids[i]) if b))
    if s.events:
        out.append("events " + " ".join(ek[e] + (f"@{sp}" if sp >= 0 else "") for e, sp in s.events))
    out.append("event_discard " + " ".join(ek[e] for e in s.event_discard))
    out.append("div_discard " + " ".join(dk[c] for c in s.div_discard))
    out.append("obj_discard " + " ".join(ok[o] + ("+" if up else "-") for o, up in s.obj_discard))
    out.append("div_deck " + " ".join(dk[c] for c in s.div_deck))
    out.append("event_deck " + " ".join(ek[e] for e in s.event_deck))
    out.append("obj_deck " + " ".join(ok[o] for o in s.obj_deck))
    ctx = [f"{k}={int(getattr(s, k))}" for k in _CTX_INT + _CTX_BOOL]
    ctx += [f"{k}=" + ",".join(str(int(x)) for x in getattr(s, k)) for k in _CTX_LIST]
    out.append("context " + " ".join(ctx))
    out.append("stack " + " ".join(f"{Frame(f).name}:{a}:{b}" for f, a, b in s.stack))
    out.append("decision " + ("over" if s.terminal else "none" if s.sub < 0 else f"{Sub(s.sub).name} P{s.current}"))
    return "\n".join(out) + "\n"
