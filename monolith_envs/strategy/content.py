"""Monolith Strategy content: one TOML file parsed into frozen dataclasses (docs/monolith_strategy.md §5).

The file (schema: docs §5.8) holds ``[meta]``, ``[track]``, ``[[board_card]]``, ``[[round_card]]`` and
``[[action_card]]`` tables.  Board cards get their index in file order (the card one-hot, ``C``), action
cards likewise (the kind index ``k``, ``K``).  Every line of every card is checked against the effect
vocabulary of docs §5.2 for the context it runs in.  Every problem raises :class:`ContentError`, whose
message names the file, the card, the field and what is allowed there.
"""

from __future__ import annotations

import importlib.resources
import os
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..core.config import short_repr
from ..core.content import ContentError, item_line, load_toml, load_toml_resource

__all__ = ["ContentError", "Line", "BoardCard", "RoundCard", "ActionCard", "Content", "load_content",
           "REFERENCE_FILE", "OPS", "SELECTORS", "CONDITIONS", "SCALES"]

REFERENCE_FILE = "reference.toml"

# contexts (docs §5.2)
BOARD, PLACE, CAST, PRE, START, SETUP = "BOARD", "PLACE", "CAST", "PRE", "START", "SETUP"
ACTOR_CTX = (PLACE, CAST, PRE)

SELECTORS: dict[str, tuple[str, ...]] = {
    "each_here": (BOARD,), "highest": (BOARD,), "highest_unique": (BOARD,), "lowest": (BOARD,),
    "others_here": (BOARD,), "each_opponent": (BOARD,),
    "self": ACTOR_CTX + (SETUP,), "chosen_opponent": ACTOR_CTX, "each_other": ACTOR_CTX,
    "all_players": (START,), "trailer": (START,),
}
FROM_SELECTORS: dict[str, tuple[str, ...]] = {
    "chosen_opponent": ACTOR_CTX + (BOARD,), "each_other": ACTOR_CTX, "others_here": (BOARD,),
    "each_opponent": (BOARD,),
}
CONDITIONS: dict[str, bool] = {  # name -> takes a number; all but fewest_vp are BOARD only
    "total_min": True, "total_max": True, "total_eq": True, "dice_min": True, "run": True,
    "pair": False, "all_even": False, "all_odd": False, "fewest_vp": False,
}
SCALES = ("flat", "per_die", "per_pair", "per_pips", "per_shared_card")
# op -> (allowed extra fields, required fields, contexts or None for all)
OPS: dict[str, tuple[frozenset, frozenset, tuple[str, ...] | None]] = {
    "gain_vp": (frozenset(("n", "scale", "k", "max")), frozenset(), None),
    "lose_vp": (frozenset(("n", "scale", "k", "max")), frozenset(), None),
    "steal_vp": (frozenset(("n", "scale", "k", "max", "from")), frozenset(("from",)), None),
    "gain_gems": (frozenset(("n", "scale", "k", "max")), frozenset(), None),
    "lose_gems": (frozenset(("n", "scale", "k", "max")), frozenset(), None),
    "steal_gems": (frozenset(("n", "scale", "k", "max", "from")), frozenset(("from",)), None),
    "draw": (frozenset(("n", "scale", "k", "max", "deck")), frozenset(("deck",)), None),
    "discard": (frozenset(("n", "scale", "k", "max")), frozenset(), None),
    "gain_die": (frozenset(("n", "scale", "k", "max")), frozenset(), None),
    "exile_die": (frozenset(("n", "scale", "k", "max")), frozenset(), None),
    "reroll": (frozenset(("which",)), frozenset(("which",)), ACTOR_CTX),
    "set_face": (frozenset(("which", "face", "where")), frozenset(("which", "face", "where")), ACTOR_CTX),
    "adjust_face": (frozenset(), frozenset(), ACTOR_CTX),
    "extra_placement": (frozenset(("n",)), frozenset(), (PLACE, CAST)),
    "move_die": (frozenset(), frozenset(), (PLACE, CAST)),
    "block_socket": (frozenset(("n",)), frozenset(), (PLACE, CAST)),
    "take_primus": (frozenset(("lock",)), frozenset(), (BOARD,) + ACTOR_CTX),
    "guard": (frozenset(("n",)), frozenset(), (CAST, PLACE)),
    "stack": (frozenset(), frozenset(), (CAST,)),
    "secret_rune": (frozenset(("look",)), frozenset(("look",)), (CAST,)),
    "chase": (frozenset(("bonus",)), frozenset(("bonus",)), (BOARD,)),
    "extra_fate": (frozenset(), frozenset(), (SETUP,)),
    "auto_socket": (frozenset(("which",)), frozenset(("which",)), (START,)),
}
LINE_FIELDS = frozenset(("op", "who", "n", "scale", "k", "max", "cond", "cost", "deck", "from", "which", "face",
                         "where", "look", "bonus", "lock"))
BOARD_SETS = ("starting", "rune", "fate", "solo", "blank")
BOARD_KEYWORDS = ("none", "attack", "immediate", "immediate_attack")
ACTION_DECKS = ("skill", "power", "player_power")
ACTION_KEYWORDS = ("none", "attack", "play_anytime", "player_power")


@dataclass(frozen=True)
class Line:
    """One effect line (docs §5.2): ``who: op n [scale] (cond) {cost}``; ``cond`` is a tuple of
    ``(name, number or 0)`` pairs; ``face`` is 0 for ``any``."""

    op: str
    who: str
    n: int = 1
    scale: str = "flat"
    k: int = 1
    max: int = 0
    cond: tuple = ()
    cost: int = 0
    deck: str = ""
    from_: str = ""
    which: str = ""
    face: int = 0
    where: str = ""
    look: int = 0
    bonus: int = 0
    lock: bool = False


@dataclass(frozen=True)
class BoardCard:
    """A board card (docs §5.3). ``index`` is its place in the card one-hot."""

    index: int
    id: str
    number: str
    set: str
    name: str
    keyword: str
    sockets: tuple
    enabled: bool
    solo: bool
    effect: tuple
    setup: tuple

    @cached_property  # read at every place and resolution: worked out once per card
    def immediate(self) -> bool:
        """``immediate`` / ``immediate_attack``: its lines run at placement, not at resolution (docs §4.7)."""
        return self.keyword in ("immediate", "immediate_attack")

    @cached_property
    def attack(self) -> bool:
        """``attack`` / ``immediate_attack``: Guard protects its victims (docs §4.13)."""
        return self.keyword in ("attack", "immediate_attack")


@dataclass(frozen=True)
class RoundCard:
    """A Round card (docs §5.4): its normal side only covers; the Exalted side has sockets and lines."""

    index: int
    round: int
    exalted_name: str
    sockets: tuple
    reserved: bool
    start: tuple
    resolve: tuple


@dataclass(frozen=True)
class ActionCard:
    """A Skill, Power or Player Power kind (docs §5.5-5.7). ``index`` is the kind index k."""

    index: int
    id: str
    name: str
    deck: str
    copies: int
    keyword: str
    gems: int
    solo: bool
    effect: tuple

    @property
    def attack(self) -> bool:
        """``attack`` keyword: Guard protects its victims; the card leaves the solo game (docs §3, §4.13)."""
        return self.keyword == "attack"


@dataclass(frozen=True)
class Content:
    """A whole validated content file."""

    path: str
    hand_limit: int
    gems_per_player: int
    dice_per_player: int
    start_dice: int
    rounds: int
    final_reveal_max: int
    victory: int
    tolls: tuple          # ((space, cost), ...) in track order
    solo_goal_stone: int
    board: tuple          # BoardCard, in file order
    round_cards: tuple    # RoundCard, by round
    actions: tuple        # ActionCard, in file order

    @property
    def C(self) -> int:
        """Number of board cards C, the width of the card one-hot (docs §2.1, §7)."""
        return len(self.board)

    @property
    def K(self) -> int:
        """Number of action card kinds K: Skills, Powers and Player Powers (docs §2.1, §6.1)."""
        return len(self.actions)

    @property
    def X(self) -> int:
        """Number of Round cards X, one per round (docs §2.1, §5.4)."""
        return len(self.round_cards)


class _Ctx:
    def __init__(self, path: str):
        self.path = path

    def err(self, card: str, field: str, problem: str) -> ContentError:
        return ContentError(self.path, item_line(self.path, card, field), card, field, problem, label="in")

    def int_(self, d: dict, card: str, field: str, lo: int, hi: int, default: Any = None) -> int:
        if field not in d:
            if default is None:
                raise self.err(card, field, f"missing; expected an integer from {lo} to {hi}")
            return default
        v = d[field]
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise self.err(card, field, f"{short_repr(v)} is not allowed; expected an integer from {lo} to {hi}")
        return v

    def str_(self, d: dict, card: str, field: str, allowed: tuple | None = None, default: str | None = None) -> str:
        if field not in d:
            if default is None:
                raise self.err(card, field, "missing" + (f"; one of {', '.join(allowed)}" if allowed else ""))
            return default
        v = d[field]
        if not isinstance(v, str) or not v or len(v) > 60 or (allowed is not None and v not in allowed):
            want = f"one of {', '.join(allowed)}" if allowed else "a non-empty string of at most 60 characters"
            raise self.err(card, field, f"{short_repr(v)} is not allowed; expected {want}")
        return v

    def bool_(self, d: dict, card: str, field: str, default: bool) -> bool:
        v = d.get(field, default)
        if not isinstance(v, bool):
            raise self.err(card, field, f"{short_repr(v)} is not allowed; expected true or false")
        return v

    def keys(self, d: Any, card: str, allowed: frozenset | set, what: str) -> None:
        if not isinstance(d, dict):
            raise self.err(card, what, f"expected a table, got {type(d).__name__}")
        bad = sorted(set(d) - set(allowed))
        if bad:
            raise self.err(card, bad[0], f"unknown field in {what}; allowed: {', '.join(sorted(allowed))}")

    def sockets(self, d: dict, card: str) -> tuple:
        v = d.get("sockets", [])
        if not isinstance(v, list) or len(v) > 4:
            raise self.err(card, "sockets", f"{short_repr(v)}: expected a list of at most 4 requirements (0 = ANY, 1-6)")
        for x in v:
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 6:
                raise self.err(card, "sockets", f"requirement {short_repr(x)} is not allowed; expected 0 (ANY) or 1-6")
        return tuple(v)

    def lines(self, d: dict, card: str, group: str, context: str) -> tuple:
        raw = d.get(group, [])
        if not isinstance(raw, list):
            raise self.err(card, group, "expected an array of tables")
        if len(raw) > 6:
            raise self.err(card, group, f"{len(raw)} lines; at most 6 per group")
        return tuple(self.line(x, f"{card} {group}[{i}]", context) for i, x in enumerate(raw))

    def line(self, d: Any, where: str, ctx: str) -> Line:
        self.keys(d, where, LINE_FIELDS, "line")
        op = self.str_(d, where, "op", tuple(OPS))
        allowed, required, contexts = OPS[op]
        if contexts is not None and ctx not in contexts:
            raise self.err(where, "op", f"{short_repr(op)} is not allowed in the {ctx} context; allowed in {', '.join(contexts)}")
        who = self.str_(d, where, "who", tuple(SELECTORS))
        if ctx not in SELECTORS[who]:
            ok = [s for s, c in SELECTORS.items() if ctx in c]
            raise self.err(where, "who", f"{short_repr(who)} is not allowed in the {ctx} context; allowed: {', '.join(ok)}")
        extra = set(d) - {"op", "who", "cond", "cost"}
        for f in sorted(extra):
            if f not in allowed:
                raise self.err(where, f, f"not a parameter of {short_repr(op)}; its parameters: "
                               f"{', '.join(sorted(allowed)) or 'none'}")
        for f in sorted(required):
            if f not in d:
                raise self.err(where, f, f"{short_repr(op)} needs this field")
        kw: dict[str, Any] = {"op": op, "who": who}
        kw["n"] = self.int_(d, where, "n", 1, 20, 1)
        kw["scale"] = self.str_(d, where, "scale", SCALES, "flat")
        if kw["scale"] in ("per_die", "per_pair", "per_pips") and ctx != BOARD:
            raise self.err(where, "scale", f"{short_repr(kw['scale'])} is BOARD only (this line runs in {ctx})")
        kw["k"] = self.int_(d, where, "k", 1, 36, 1)
        if "k" in d and kw["scale"] != "per_pips":
            raise self.err(where, "k", "only used with scale = \"per_pips\"")
        kw["max"] = self.int_(d, where, "max", 1, 25, 0)
        kw["cost"] = self.int_(d, where, "cost", 0, 20, 0)
        if kw["cost"] and ctx not in (BOARD, START):
            raise self.err(where, "cost", f"costs are paid by recipients of BOARD lines, not in {ctx}")
        conds = d.get("cond", [])
        if not isinstance(conds, list) or len(conds) > 4:
            raise self.err(where, "cond", f"{short_repr(conds)}: expected a list of at most 4 conditions")
        out = []
        for c in conds:
            if not isinstance(c, str):
                raise self.err(where, "cond", f"{short_repr(c)} is not a condition string")
            name, _, num = c.partition(":")
            if name not in CONDITIONS:
                raise self.err(where, "cond", f"unknown condition {short_repr(name)}; allowed: {', '.join(CONDITIONS)}")
            if name != "fewest_vp" and ctx != BOARD:
                raise self.err(where, "cond", f"{short_repr(name)} is BOARD only (this line runs in {ctx})")
            if CONDITIONS[name]:
                if not num.isdigit() or not 1 <= int(num) <= 24:
                    raise self.err(where, "cond", f"{short_repr(c)}: {name} needs a number from 1 to 24 (\"{name}:9\")")
                out.append((name, int(num)))
            else:
                if num:
                    raise self.err(where, "cond", f"{short_repr(c)}: {name} takes no number")
                out.append((name, 0))
        kw["cond"] = tuple(out)
        if "deck" in d:
            kw["deck"] = self.str_(d, where, "deck", ("skill", "power"))
        if "from" in d:
            fr = self.str_(d, where, "from", tuple(FROM_SELECTORS))
            if ctx not in FROM_SELECTORS[fr]:
                ok = [k for k, ctxs in FROM_SELECTORS.items() if ctx in ctxs]
                raise self.err(where, "from", f"{short_repr(fr)} is not allowed in the {ctx} context; " + (
                    "allowed there: " + ", ".join(ok) if ok else
                    f"no 'from' is, so {short_repr(op)} (which needs one) cannot be used in that context"))
            kw["from_"] = fr
        if op == "reroll":
            kw["which"] = self.str_(d, where, "which", ("one", "all"))
        elif op == "set_face":
            kw["which"] = self.str_(d, where, "which", ("chosen", "highest", "lowest"))
            kw["where"] = self.str_(d, where, "where", ("pool", "socketed"))
            f = d["face"]
            if f == "any":
                kw["face"] = 0
            elif isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6:
                kw["face"] = f
            else:
                raise self.err(where, "face", f"{short_repr(f)} is not allowed; expected 1-6 or \"any\"")
            if kw["where"] == "socketed" and (kw["which"] != "chosen" or kw["face"] == 0):
                raise self.err(where, "where", "socketed set_face needs which = \"chosen\" and a fixed face")
            if kw["which"] != "chosen" and kw["face"] == 0:
                raise self.err(where, "face", "highest/lowest set_face needs a fixed face")
            if kw["which"] == "chosen" and who != "self":
                raise self.err(where, "who", "a chosen set_face is aimed at self")
        elif op == "auto_socket":
            kw["which"] = self.str_(d, where, "which", ("lowest",))
        if op in ("reroll", "adjust_face", "move_die", "extra_placement", "block_socket", "stack",
                  "secret_rune", "guard") and who != "self":
            raise self.err(where, "who", f"{short_repr(op)} acts on the actor's own dice or turn; use who = \"self\"")
        kw["look"] = self.int_(d, where, "look", 1, 2, 0)
        kw["bonus"] = self.int_(d, where, "bonus", 1, 10, 0)
        kw["lock"] = self.bool_(d, where, "lock", False)
        return Line(**kw)


def _read(name: str):
    """Parse the file through the shared safe TOML reader (size, depth and integer limits, UTF-8)."""
    if os.path.isabs(name) or os.sep in name or (os.altsep and os.altsep in name):
        return load_toml(name, label="card", refuse_big_ints=False)
    if not importlib.resources.files("monolith_envs.strategy").joinpath("data", name).is_file():
        raise ContentError(name, 0, "", "", "no such content file in monolith_envs/strategy/data",
                           f"a file name there, or a path to a TOML file (a bare name is looked up only there; "
                           f"write ./{name} for a file in the current folder)")
    return load_toml_resource("monolith_envs.strategy", "data", name, label="card", refuse_big_ints=False)


_CACHE: dict = {}


def load_content(name: str = REFERENCE_FILE) -> Content:
    """Read and validate a content file (a name inside ``strategy/data`` or a path).

    Raises:
        ContentError: (``core.content.ContentError``) unreadable file, bad TOML, or any field outside its
            bounds or vocabulary (the message names the file, the card and the field).
    """
    tf = _read(str(name))
    key = (tf.path, tf.digest)
    if key not in _CACHE:
        if len(_CACHE) > 32:
            _CACHE.clear()
        _CACHE[key] = _build(tf.path, tf.data)
    return _CACHE[key]


def _build(path: str, data: dict) -> Content:
    c = _Ctx(path)
    c.keys(data, "file", {"meta", "track", "board_card", "round_card", "action_card"}, "top level")
    meta = data.get("meta", {})
    c.keys(meta, "[meta]", {"hand_limit", "gems_per_player", "dice_per_player", "start_dice", "rounds",
                            "final_reveal_max"}, "[meta]")
    hand_limit = c.int_(meta, "[meta]", "hand_limit", 1, 8, 5)
    gpp = c.int_(meta, "[meta]", "gems_per_player", 1, 10, 5)
    dpp = c.int_(meta, "[meta]", "dice_per_player", 1, 6, 5)
    start_dice = c.int_(meta, "[meta]", "start_dice", 1, dpp, 3)
    rounds = c.int_(meta, "[meta]", "rounds", 1, 5, 5)
    frm = c.int_(meta, "[meta]", "final_reveal_max", 0, 6, 6)
    track = data.get("track", {})
    c.keys(track, "[track]", {"victory", "tolls", "solo_goal_stone"}, "[track]")
    victory = c.int_(track, "[track]", "victory", 6, 25, 25)
    tolls = track.get("tolls", [[5, 1], [10, 2], [15, 3], [20, 4]])
    if not isinstance(tolls, list) or not 1 <= len(tolls) <= 4:
        raise c.err("[track]", "tolls", "expected 1 to 4 [space, cost] pairs")
    last = 0
    for t in tolls:
        if (not isinstance(t, list) or len(t) != 2 or any(isinstance(x, bool) or not isinstance(x, int) for x in t)
                or not last < t[0] < victory or not 1 <= t[1] <= 10):
            raise c.err("[track]", "tolls", f"{short_repr(t)}: each stone is [space, cost] with spaces strictly increasing "
                        f"in 1..{victory - 1} and cost 1..10")
        last = t[0]
    goal = c.int_(track, "[track]", "solo_goal_stone", 1, len(tolls), min(4, len(tolls)))

    board = []
    ids: set[str] = set()
    raw_board = data.get("board_card", [])
    if not isinstance(raw_board, list) or not 1 <= len(raw_board) <= 64:
        raise c.err("file", "board_card", "expected 1 to 64 [[board_card]] tables")
    for i, d in enumerate(raw_board):
        card = f"board_card[{i}]"
        c.keys(d, card, {"id", "number", "set", "name", "keyword", "sockets", "enabled", "solo", "effect",
                         "setup"}, "board_card")
        bid = c.str_(d, card, "id")
        card = f"board card {short_repr(bid)}"
        if bid in ids:
            raise c.err(card, "id", "duplicate id")
        ids.add(bid)
        kw = c.str_(d, card, "keyword", BOARD_KEYWORDS, "none")
        st = c.str_(d, card, "set", BOARD_SETS)
        ctx = PLACE if kw in ("immediate", "immediate_attack") else BOARD
        effect = c.lines(d, card, "effect", ctx)
        setup = c.lines(d, card, "setup", SETUP)
        socks = c.sockets(d, card)
        enabled = c.bool_(d, card, "enabled", True)
        if st == "blank" and enabled and not socks:
            raise c.err(card, "sockets", "an enabled Blank Rune needs 1 to 4 sockets")
        if setup and (st != "fate" or any(ln.op != "extra_fate" for ln in setup)):
            raise c.err(card, "setup", "only a Fate card may have a setup line, and it must be extra_fate")
        if st not in ("fate",) and not socks and enabled and st != "blank":
            raise c.err(card, "sockets", "a card other than a Fate needs 1 to 4 sockets")
        board.append(BoardCard(i, bid, c.str_(d, card, "number", default=bid), st, c.str_(d, card, "name"), kw,
                               socks, enabled, c.bool_(d, card, "solo", True), effect, setup))
    names = {b.id: b.id for b in board}  # a card is named by its id or its number (positions)
    for b in board:
        if names.setdefault(b.number, b.id) != b.id:
            raise c.err(f"board card {short_repr(b.id)}", "number", f"{short_repr(b.number)} already names card {short_repr(names[b.number])}")
    counts = {s: sum(1 for b in board if b.set == s and b.enabled) for s in BOARD_SETS}
    for s, lo, hi in (("starting", 5, 5), ("solo", 2, 2), ("fate", 2, 12)):
        if not lo <= counts[s] <= hi:
            raise c.err("file", "board_card", f"{counts[s]} enabled cards of set {short_repr(s)}; expected {lo}-{hi}")
    if counts["rune"] + counts["blank"] < 9:
        raise c.err("file", "board_card", "the Rune pool needs at least 9 enabled Runes")
    solo_runes = [b for b in board if b.set in ("rune", "blank") and b.enabled and b.solo and not b.attack]
    if len(solo_runes) < 3:
        raise c.err("file", "board_card", "the solo Rune pool needs at least 3 Runes without attack keyword")

    raw_rounds = data.get("round_card", [])
    if not isinstance(raw_rounds, list) or len(raw_rounds) != rounds:
        raise c.err("file", "round_card", f"expected exactly {rounds} [[round_card]] tables (meta.rounds)")
    rcs = []
    for i, d in enumerate(raw_rounds):
        card = f"round_card[{i}]"
        c.keys(d, card, {"round", "exalted_name", "sockets", "reserved", "start", "resolve"}, "round_card")
        r = c.int_(d, card, "round", 1, rounds)
        if r != i + 1:
            raise c.err(card, "round", f"{r}: Round cards must be listed in order 1..{rounds}")
        socks = c.sockets(d, card)
        res = c.bool_(d, card, "reserved", False)
        start = c.lines(d, card, "start", START)
        resolve = c.lines(d, card, "resolve", BOARD)
        if res and socks != (0, 0, 0, 0):
            raise c.err(card, "sockets", "a reserved card has exactly 4 ANY sockets")
        if any(ln.op == "auto_socket" for ln in start) and not res:
            raise c.err(card, "start", "auto_socket needs reserved = true")
        rcs.append(RoundCard(i, r, c.str_(d, card, "exalted_name"), socks, res, start, resolve))

    raw_actions = data.get("action_card", [])
    if not isinstance(raw_actions, list) or not 1 <= len(raw_actions) <= 60:
        raise c.err("file", "action_card", "expected 1 to 60 [[action_card]] tables")
    acts = []
    aids: set[str] = set()
    for i, d in enumerate(raw_actions):
        card = f"action_card[{i}]"
        c.keys(d, card, {"id", "name", "deck", "copies", "keyword", "gems", "solo", "effect"}, "action_card")
        aid = c.str_(d, card, "id")
        card = f"action card {short_repr(aid)}"
        if aid in aids:
            raise c.err(card, "id", "duplicate id")
        aids.add(aid)
        deck = c.str_(d, card, "deck", ACTION_DECKS)
        kw = c.str_(d, card, "keyword", ACTION_KEYWORDS, "none")
        if (deck == "player_power") != (kw == "player_power"):
            raise c.err(card, "keyword", "Player Power cards (and only they) have keyword \"player_power\"")
        copies = c.int_(d, card, "copies", 1, 1 if deck == "player_power" else 8, 1)
        effect = c.lines(d, card, "effect", PRE if deck == "player_power" else CAST)
        if not effect:
            raise c.err(card, "effect", "an action card needs at least one line")
        acts.append(ActionCard(i, aid, c.str_(d, card, "name"), deck, copies, kw,
                               c.int_(d, card, "gems", 0, 6, 0), c.bool_(d, card, "solo", True), effect))
    return Content(path, hand_limit, gpp, dpp, start_dice, rounds, frm, victory, tuple(tuple(t) for t in tolls), goal,
                   tuple(board), tuple(rcs), tuple(acts))
