"""The Monolith's narration: what one action did, rule step by rule step, in lines of at most 80 columns
(:data:`monolith_envs.core.narration.WIDTH`) that never name a hidden objective.

:func:`narrate` says the action (:func:`_head`), then each step that the rules took up to the next decision
(:func:`_frame_lines`), with what changed (:func:`_changes`): the action is replayed on a copy of the state
before it (:func:`_trace`).  Terminal play, browser play (``agents/terminal/the_monolith.py``) and the HTML
replay page (``MonolithGame.narrate``) show these lines.

A step that draws chance (the tower lift, a reshuffle) is replayed with draws worked out from the state
the game reached, so that the steps after it are said one by one too; where that fails the step and all
after it are said at once.  Rules: docs/the_monolith.md (sections cited below).
"""

from __future__ import annotations

from dataclasses import fields
from itertools import islice, permutations
from typing import Any

from ..core.narration import wrap
from ..core.words import count
from .board import controllers
from .effects import gain, power
from .rest import turn_order
from .state import NONE, Frame, Phase, Sub, fast_clone
from .table import FRAMES, TABLE
from .words import ZONES, effect_words, event_scoring_words, space_words

__all__ = ["narrate", "power_cost_words"]

#: at most this many orders of the reshuffled cards are tried to find the one the game drew
_MAX_ORDERS = 120


class _Chance(Exception):
    """A rule step drew chance while :func:`_trace` replays an action (the draw cannot be repeated)."""


class _NoChance:
    """The replay's rng: any draw stops the step by step replay (:class:`_Chance`)."""

    def _draw(self, *a: Any, **k: Any) -> Any:
        raise _Chance

    integers = permutation = choice = random = _draw


class _Script(_NoChance):
    """The rng of one replayed step whose draws were worked out from the state the game reached:
    ``random()`` gives the next of ``floats``; ``permutation(k)`` orders the pile being reshuffled (the
    divination or objective discard of :attr:`s`, as ``deck`` says) as ``order``; any other draw, or one
    more than scripted, stops the replay (:class:`_Chance`)."""

    def __init__(self, floats: list | None = None, deck: str = "", order: list | None = None) -> None:
        self.floats, self.deck, self.order, self.s = list(floats or []), deck, order, None

    def random(self, *a: Any, **k: Any) -> float:
        if a or k or not self.floats:
            raise _Chance
        return self.floats.pop(0)

    def permutation(self, k: Any, *a: Any, **kw: Any) -> list:
        pile = _pile(self.s, self.deck) if self.s is not None else []
        if a or kw or self.order is None or k != len(pile) or sorted(pile) != sorted(self.order):
            raise _Chance
        where: dict = {}
        for i, c in enumerate(pile):
            where.setdefault(c, []).append(i)
        order, self.order = self.order, None
        return [where[c].pop(0) for c in order]


class _Probe(_NoChance):
    """Runs a step up to its first draw: which draw (``drew``) and, for a reshuffle, the piles then."""

    def __init__(self, s: Any) -> None:
        self.s, self.drew, self.piles = s, "", {}

    def random(self, *a: Any, **k: Any) -> Any:
        self.drew = "random"
        raise _Chance

    def permutation(self, k: Any, *a: Any, **kw: Any) -> Any:
        self.drew, self.piles = "permutation", {d: _pile(self.s, d) for d in ("div", "obj")}
        raise _Chance


def _pile(s: Any, deck: str) -> list:
    """The discard pile that a reshuffle of ``deck`` (``"div"`` or ``"obj"``) shuffles, as card ids."""
    return list(s.div_discard) if deck == "div" else [x[0] for x in s.obj_discard]


_IGNORED = ("legal_cache", "cum", "favour_floor")


def _trace(g: Any, before: Any, after: Any, action: int) -> list[tuple] | None:
    """The action and the rule steps after it, replayed on a copy of ``before`` as ``MonolithGame.run``
    does: ``[(kind, arg, s0, s1, lumped)]``, ``kind`` ``"action"``, a :class:`Frame` (``arg``: its
    ``[a, b]``) or ``"pass"`` (a decision whose only choice was pass; ``arg``: the sub-phase).  A step that
    draws chance (the tower lift with hearts, a reshuffle) is replayed with the draws that lead to
    ``after`` (:func:`_scripts`); where none is found it is the last step, ``lumped``, and goes from the
    state before it to ``after``.  ``None`` when the replay does not end as ``after``."""
    try:
        s = fast_clone(before)
        TABLE[s.sub][1](g, s, s.current, int(action), _NoChance())
        s.decisions += 1
        return _replay(g, s, after, [("action", None, before, fast_clone(s), False)], 0)
    except Exception:  # narration never stops a game: a replay that fails says the step coarsely
        return None


def _replay(g: Any, s: Any, after: Any, steps: list, depth: int) -> list[tuple] | None:
    """:func:`trace` from ``s`` on (``steps``: those so far), up to the next decision."""
    rng = _NoChance()
    for _ in range(10_000):
        if s.terminal:
            break
        s0 = fast_clone(s)
        if s.sub != NONE:
            if TABLE[s.sub][0](g, s, s.current) != [0]:
                break
            kind, arg = "pass", s.sub
            TABLE[s.sub][1](g, s, s.current, 0, rng)
        else:
            kind, a, b = s.stack.pop()
            arg = (a, b)
            try:
                FRAMES[kind](g, s, a, b, rng)
            except _Chance:
                return _chance(g, s0, Frame(kind), arg, after, steps, depth)
            kind = Frame(kind)
        steps.append((kind, arg, s0, fast_clone(s), False))
    else:
        return None
    return steps if _same(s, after) else None


def _chance(g: Any, s0: Any, kind: Frame, arg: tuple, after: Any, steps: list, depth: int) -> list[tuple]:
    """The step ``kind`` drew chance in ``s0`` (the step still on its stack): replayed with each set of
    draws that may lead to ``after`` in turn, the first whose steps after it end as ``after`` is taken;
    else the step is the last, lumped."""
    if depth < 4:
        for rng in _scripts(g, s0, kind, arg, after):
            s = fast_clone(s0)
            s.stack.pop()
            rng.s = s
            try:
                FRAMES[kind](g, s, arg[0], arg[1], rng)
                if rng.floats or rng.order is not None:  # a draw was left over: not what the game did
                    continue
                got = _replay(g, s, after, steps + [(kind, arg, s0, fast_clone(s), False)], depth + 1)
            except Exception:  # another draw, or draws that the rules do not allow
                continue
            if got is not None and not got[-1][4]:
                return got
    return steps + [(kind, arg, s0, after, True)]


def _scripts(g: Any, s0: Any, kind: Frame, arg: tuple, after: Any):
    """The draws that may have led from ``s0`` to ``after``, as :class:`_Script` rngs: the tower lift
    (docs §4.9) with the hearts stuck in ``after`` and the board of ``after`` (the action phase started)
    or as it was (no heart landed); a reshuffle (docs §4.7 steps 2f and 3) into an order whose cards not dealt are
    the deck of ``after``, the dealt ones in the order ``after`` shows them first, then in other orders."""
    probe = _Probe(fast_clone(s0))
    probe.s.stack.pop()
    try:
        FRAMES[kind](g, probe.s, arg[0], arg[1], probe)
    except _Chance:
        pass
    if probe.drew == "random" and kind == Frame.LIFT:
        boards = [after.board] + ([s0.board] if s0.board != after.board else [])
        for board in boards:
            floats = _lift_draws(g, s0, board, after.tower_stuck)
            if floats is not None:
                yield _Script(floats=floats)
    elif probe.drew == "permutation":
        deck = "obj" if kind == Frame.OBJ_DRAW else "div"
        pile, tail = probe.piles[deck], list(after.obj_deck if deck == "obj" else after.div_deck)
        if len(set(pile)) != len(pile) or not set(tail) <= set(pile):
            return
        seen = list(after.row) + [c for h in after.held for c in h] + [c for o in after.objectives for c in o]
        dealt = sorted((c for c in pile if c not in tail), key=lambda c: seen.index(c) if c in seen else len(seen))
        for order in islice(permutations(dealt), _MAX_ORDERS):  # the first is the order dealt
            yield _Script(deck=deck, order=list(order) + tail)


def _lift_draws(g: Any, s: Any, board: list, stuck: list) -> list[float] | None:
    """The ``rng.random()`` draws of the tower lift in ``s`` (docs §4.9) after which each seat has
    ``board`` hearts on the board and ``stuck`` in the tower; ``None`` when no draws do that."""
    c0, c1, rho = g.cumw[0], g.cumw[1], g.rho
    at, can = (0.0, c0, c1), (c0 > 0, c1 > c0, c1 < 1)  # a draw that lands in each zone, if any can
    out: list[float] = []
    for p in range(s.n):
        need = [board[p][z] - s.board[p][z] for z in range(3)]
        lands = s.tower_stuck[p] + s.tower_today[p] - stuck[p]
        if (min(need) < 0 or sum(need) != lands or not 0 <= stuck[p] <= s.tower_today[p]
                or (stuck[p] and rho <= 0) or (lands > s.tower_stuck[p] and rho >= 1)
                or any(k and not can[z] for z, k in enumerate(need))):
            return None
        zones = [at[z] for z in range(3) for _ in range(need[z])]
        out += zones[:s.tower_stuck[p]]
        zones = zones[s.tower_stuck[p]:]
        for i in range(s.tower_today[p]):
            if i < stuck[p]:
                out.append(0.0)  # below the retention: the heart sticks
            else:
                out += ([rho] if rho > 0 else []) + [zones.pop(0)]
    return out


def _same(a: Any, b: Any) -> bool:
    """Whether two states agree on every field but the transient ones."""
    return all(getattr(a, f.name) == getattr(b, f.name) for f in fields(a) if f.name not in _IGNORED)


def _action_why(g: Any, s0: Any, s1: Any, action: int) -> dict:
    """Where the acting seat's favour came from in the action itself, ``{seat: text}`` (empty where it is
    not known): a revealed objective (docs §4.7 2c), a slain warrior (+1) or shaman (+3, docs §4.6)."""
    p, (fam, idx) = s0.current, g.layout.split(int(action))
    got = s1.favour[p] - s0.favour[p] if 0 <= p < s0.n else 0
    if got <= 0:
        return {}
    if fam == "objective" and s0.sub == Sub.OBJ_REVEAL and idx[0] < len(s0.objectives[p]):
        o = g.objs[s0.objectives[p][idx[0]]]
        return {p: f"objective {o.key} {o.name} +{got}"}
    if fam == "slay" or (fam == "space" and s0.sub == Sub.EXTRA_KILL):
        shaman = any(s0.shaman_alive[q] and not s1.shaman_alive[q] for q in range(s0.n) if q != p)
        if got == (3 if shaman else 1):
            return {p: f"{'a shaman' if shaman else 'a warrior'} slain +{got}"}
    return {}


def _is_power(g: Any, s: Any, action: int) -> bool:
    return g.layout.split(int(action))[0] == "use_power"


def _changes(g: Any, s0: Any, s1: Any, detail: bool = False, recruit: bool = False,
             why: dict | None = None) -> list[str]:
    """One line per seat with what changed from ``s0`` to ``s1``: favour (``why[p]``: where it came from),
    living warriors on the map (not for a recruited warrior, its line says it), a slain shaman, hearts on
    the action board in the action phase; with ``detail`` (a power's or an event's effect) also hearts
    available and unearned and warriors in reserves, anger and limbo.  Boast hearts that the occupancy
    check spent follow their seat's line, one line per space (:func:`_spent`)."""
    lines = []
    for p in range(s1.n):
        ch, spent = [], []
        if s1.favour[p] != s0.favour[p]:
            ch.append(f"favour {s0.favour[p]} -> {s1.favour[p]}" + (f" ({why[p]})" if why and p in why else ""))
        lw0 = sum(s0.living[sp][p] for sp in range(g.N))
        lw1 = sum(s1.living[sp][p] for sp in range(g.N))
        if lw1 != lw0 and not (recruit and p == s0.current):
            ch.append(f"living warriors on the map {lw0} -> {lw1}")
        if s0.shaman_alive[p] and not s1.shaman_alive[p]:
            ch.append("its shaman is slain")
        if detail:
            for name, key in (("hearts available", "available"), ("unearned", "unearned"),
                              ("reserves", "reserves"), ("anger", "anger"), ("limbo", "limbo")):
                a, b = getattr(s0, key)[p], getattr(s1, key)[p]
                if a != b:
                    ch.append(f"{name} {a} -> {b}")
        if list(s1.board[p]) != list(s0.board[p]) and (s1.phase == Phase.ACTION or detail):
            ch.append(f"hearts on the board: {_zones(s1.board[p])}")
        if s1.phase == Phase.ACTION:  # the occupancy check (docs §4.6): boast hearts where p has no unit left
            spent = [_spent(g, p, sp, s0.boast[sp][p] - s1.boast[sp][p]) for sp in range(g.N)
                     if s0.boast[sp][p] > s1.boast[sp][p]]
        if ch:
            lines.append(f"  P{p}: " + ", ".join(ch))
        lines += spent
    return lines


def _spent(g: Any, p: int, sp: int, lost: int) -> str:
    """The occupancy check (docs §4.6) took ``lost`` boast hearts of ``p`` on ``sp`` to its spent pool:
    ``P2's 4 boast hearts on The Monolith (space 0) are spent: it has no unit there``."""
    hearts, are = ("boast heart", "is") if lost == 1 else (f"{lost} boast hearts", "are")
    return f"  P{p}'s {hearts} on {g.content.map.spaces[sp].name} (space {sp}) {are} spent: it has no unit there"


def _zones(hearts: Any) -> str:
    """A seat's hearts on the action board by zone (docs §4.6): ``slay 4, maneuver 3, boast 6``."""
    return ", ".join(f"{z} {h}" for z, h in zip(ZONES, hearts))


def _card(g: Any, c: int) -> str:
    return f"{g.divs[c].key} {g.divs[c].name}"


def _won(g: Any, s0: Any, s1: Any) -> list[str]:
    """The row cards won between ``s0`` and ``s1`` (docs §4.4 Acquire): who, for what bid, whose lower bids
    went back, and the card's effect on acquiring."""
    lines = []
    for i in range(g.R):
        c = s0.row[i]
        if c < 0 or s1.row[i] >= 0:
            continue
        p = next((q for q in range(s1.n) if s1.held[q].count(c) > s0.held[q].count(c)), None)
        if p is None:
            continue
        bids = s0.bids[i]
        line = f"  P{p} wins {_card(g, c)} (row slot {i}) for its bid of {count(bids[p], 'heart')}"
        back = [f"P{q}'s {bids[q]}" for q in range(s0.n) if q != p and bids[q]]
        if back:
            line += "; " + ", ".join(back) + " back to available"
        if g.divs[c].window == "on_acquire":
            line += f"; on acquiring: {effect_words(g.divs[c].effect)}"
        lines.append(line)
    return lines


def _rest_why(g: Any, kind: Any, arg: tuple, s0: Any, s1: Any) -> dict:
    """Where each seat's favour came from in a rest scoring step (docs §4.7 steps 2a, 2b, 2d, 2e and the
    final +1 per held objective), ``{seat: text}``; a seat whose sources do not add up to its change is
    left out (its line gives the change alone)."""
    from monolith_envs.the_monolith.board import modifiers
    from monolith_envs.the_monolith.rest import turn_order

    parts: dict = {p: [] for p in range(s0.n)}
    if kind == Frame.REST_DIVS:
        for p in turn_order(s0):
            for c in s0.held[p]:
                if g.divs[c].window == "rest_scoring":
                    parts[p].append((_card(g, c), gain(g, s0, p, g.divs[c].effect), True))
            sh = g.shamans[s0.shaman_id[p]]
            if sh.window == "rest_scoring":
                parts[p].append((f"shaman {sh.name}", gain(g, s0, p, sh.effect), True))
    elif kind == Frame.REST_EVENTS:
        ctrl = controllers(g, s0)
        for ev, sp in s0.events[arg[0]:]:
            card = g.events[ev]
            paid = False
            if card.scoring is not None:
                for p in turn_order(s0):
                    v = gain(g, s0, p, card.scoring, sp, ctrl)
                    if v > 0:
                        parts[p].append((f"event {card.key} {card.name}", v, True))
                        paid = True
            if card.lifetime == "wandering" and paid:
                break
    elif kind == Frame.REST_TEMPLES:
        ctrl = controllers(g, s0)
        for p in range(s0.n):
            k = sum(1 for sp in g.active_spaces if g.building[sp] == "temple" and ctrl[sp] == p)
            if k:
                parts[p].append((f"{count(k, 'temple')} controlled, +2 each", 2 * k, False))
    elif kind == Frame.REST_BOASTS:
        mono = controllers(g, s0)[g.mono]
        for p in range(s0.n):
            h = sum(s0.boast[sp][p] for sp in g.active_spaces)
            if h:
                extra = modifiers(g, s0, p).get("boast_bonus", 0)
                per = 3 + (1 if mono == p else 0) + extra
                why = ([" +1 for the Monolith"] if mono == p else []) + ([f" +{extra} from a power"] if extra else [])
                split = f": 3{''.join(why)}" if why else ""  # docs §4.7 rest step 3
                parts[p].append((f"{count(h, 'boast heart')} going home, +{per} each{split}", h * per, False))
    elif kind == Frame.REST_END and s1.terminal:
        for p in range(s0.n):
            k = len(s0.objectives[p])
            if k:
                parts[p].append((f"{count(k, 'objective')} still held, +1 each", k, False))
    why = {}
    for p, got in parts.items():
        got = [x for x in got if x[1]]
        if got and sum(v for _, v, _ in got) == s1.favour[p] - s0.favour[p]:
            why[p] = ", ".join(f"{name} +{v}" if say else name for name, v, say in got)
    return why


_REST_HEADS = {Frame.REST_DIVS: "divinations and shamans that score at rest",
               Frame.REST_EVENTS: "events in play score", Frame.REST_TEMPLES: "temples score",
               Frame.REST_BOASTS: "boast hearts go home and score",
               Frame.REST_END: "final scoring: +1 favour per objective still held"}


def _least_favour(s: Any) -> str:
    """Why the drawer of the rest phase's event draws it (docs §4.7 step 3): ``least favour``, and on a tie
    the seats tied with it and the tie-break (the latest in the new turn order draws)."""
    low = min(s.favour)
    tied = [p for p in turn_order(s) if s.favour[p] == low]
    if len(tied) < 2:
        return "least favour"
    others = " and ".join(f"P{p}" for p in tied[:-1])
    return f"least favour, tied with {others}: the {'later' if len(tied) == 2 else 'latest'} in turn order draws"


def _frame_lines(g: Any, kind: Any, arg: Any, s0: Any, s1: Any, head_only: bool = False) -> list[str]:
    """What one rule step did (its heading first, then its effects); ``head_only``: the heading alone."""
    lines: list[str] = []
    if kind == "pass":
        if arg == Sub.DIV_RAISE and 0 <= s0.focus_slot < g.R and s0.row[s0.focus_slot] >= 0:
            i = s0.focus_slot
            lines.append(f"  P{s0.current} cannot outbid the others on {_card(g, s0.row[i])}: its bid of "
                         f"{count(s0.bids[i][s0.current], 'heart')} goes back to available")
        elif arg in (Sub.MARCH_STEP, Sub.SHAMAN_STEP):  # the order cannot go on: it stops by itself
            lines.append(_stops(g, arg, s0))
        return lines
    if kind == Frame.NEXT_TURN and s1.stack and s1.stack[-1][0] == Frame.SETTLE:
        bids = any(any(b) for b in s1.bids)
        return ["  every seat has committed" + (": the row's bids settle" if bids else "")]
    if kind == Frame.LIFT:
        lines.append("  the tower lifts")
        if head_only:
            return lines
        for p in range(s1.n):
            stuck = s1.tower_stuck[p]
            if s1.board[p] != s0.board[p]:
                more = f", {stuck} stuck in the tower" if stuck else ""
                lines.append(f"  P{p}: hearts on the board: {_zones(s1.board[p])}{more}")
            elif stuck:
                lines.append(f"  P{p}: no heart lands; {stuck} stuck in the tower")
        return lines
    if kind == Frame.ACTION_START:
        if s1.phase == Phase.REST:
            return ["  no seat has hearts on the board: there is no action phase today"]
        return ["  the action phase starts"]
    if kind in _REST_HEADS and s1.favour != s0.favour and not (kind == Frame.REST_END and not s1.terminal):
        lines.append("  " + _REST_HEADS[kind])
        if head_only:
            return lines
        return lines + _changes(g, s0, s1, why=_rest_why(g, kind, arg, s0, s1))
    if kind == Frame.REST_END and not s1.terminal:
        drawn = s0.event_deck[0] if len(s1.event_deck) < len(s0.event_deck) else -1
        if drawn >= 0:
            ev = g.events[drawn]
            if s1.sub == Sub.EVENT_PLACE:
                lines.append(f"  P{s1.current} ({_least_favour(s1)}) draws the event {ev.key} {ev.name} to place")
            elif drawn in s1.event_discard and all(e != drawn for e, _ in s1.events):
                lines.append(f"  the event {ev.key} {ev.name} is drawn; it has nowhere to go: discarded")
            else:
                scores = event_scoring_words(ev)
                lines.append(f"  the event {ev.key} {ev.name} is drawn" + (f"; it scores {scores}" if scores else ""))
        return lines if head_only else lines + _changes(g, s0, s1)
    if kind == Frame.EVENT_REVEAL:
        ev, sp = s0.events[-1]
        card = g.events[ev]
        what = "; ".join(effect_words(e) for e in card.reveal)
        if what:
            where = f" on {space_words(g, sp)}" if sp >= 0 else ""
            lines.append(f"  the event {card.key} {card.name}{where} takes effect: {what}")
        return lines if head_only else lines + _changes(g, s0, s1, detail=True)
    if kind == Frame.OBJ_DRAW and s1.objectives[arg[0]] != s0.objectives[arg[0]]:
        lines.append(f"  P{arg[0]} draws an objective" + (_scriptoria(g, s0, *arg) if s0.phase == Phase.REST else ""))
    if kind in (Frame.TURN_START, Frame.SETTLE):
        lines += _won(g, s0, s1)
    if kind == Frame.ACQ_SHAMAN and g.shamans[s0.shaman_id[arg[0]]].window == "on_acquire":
        sh = g.shamans[s0.shaman_id[arg[0]]]
        lines.append(f"  P{arg[0]}'s shaman {sh.name} on acquiring a card: {effect_words(sh.effect)}")
    if head_only:
        return lines
    return lines + _changes(g, s0, s1, detail=bool(lines) or kind in (Frame.TURN_WINDOW, Frame.ACTION_TURN))


def _stops(g: Any, sub: int, s: Any) -> str:
    """A march or a shaman order that stops by itself in ``s`` (its only choice was to stop, docs §4.4)."""
    p = s.current
    if sub == Sub.MARCH_STEP:
        why = "no heart or free step left to pay a step" if not (s.free_steps or s.available[p]) else "nowhere to go"
        return f"  P{p}'s march ends: {why}"
    return f"  P{p}'s shaman stops: " + ("no steps left" if s.sh_steps < 1 else "nowhere to go")


def _scriptoria(g: Any, s: Any, p: int, left: int) -> str:
    """Why ``p`` draws an objective at rest (docs §4.7 2f: one draw per scriptorium it controls, one at a
    time), and which draw of how many it is; ``left``: the draws left, this one included."""
    ctrl = controllers(g, s)
    k = sum(1 for sp in g.active_spaces if g.building[sp] == "scriptorium" and ctrl[sp] == p)
    if k > 1 and 1 <= left <= k:
        return f" (draw {k - left + 1} of {k}: it controls {k} scriptoriums)"
    return " (it controls a scriptorium)"


def _phase_lines(g: Any, s0: Any, s1: Any) -> list[str]:
    """The phases passed from ``s0`` to ``s1`` when the steps between are not known one by one."""
    if s1.phase == s0.phase and s1.day == s0.day:
        return []
    lines = []
    if s0.phase == Phase.ORDER:
        lines.append("  the tower lifts")
        if s1.phase == Phase.ACTION and s1.day == s0.day:
            return lines + ["  the action phase starts"]
        lines.append("  no seat has hearts on the board: there is no action phase today")
    if s0.phase in (Phase.ORDER, Phase.ACTION) and (s1.phase != Phase.ACTION or s1.day != s0.day):
        lines.append("  the action phase is over: the rest phase scores"
                     if s0.phase == Phase.ACTION else "  the rest phase scores")
    return lines


def _end_lines(g: Any, s0: Any, s1: Any) -> list[str]:
    """A new day, or the end of the game with the ranking and why."""
    lines = []
    if s1.day != s0.day and not s1.terminal:
        lines.append(f"  day {s1.day} begins; first player P{s1.first}")
    if s1.terminal and not s0.terminal:
        lines.append("  game over: ranking " + " ".join(f"P{p}" for p in g.ranking(s1)))
        lines.append("  " + g.end_reason(s1))
    return lines


def narrate_steps(g: Any, before: Any, after: Any, action: int, head: Any) -> list[str]:
    """The action's narration (:func:`narrate`, unwrapped): its own
    line (``head(s0, s1)``, the states before and right after it) and what it changed, then each rule
    step up to the next decision (:func:`_trace`), unwrapped; the whole step coarsely when the replay
    does not end as the game did."""
    steps = _trace(g, before, after, action)
    if steps is None:
        lines = [head(before, before)] + _won(g, before, after)
        return lines + _phase_lines(g, before, after) + _changes(g, before, after) + _end_lines(g, before, after)
    lines = []
    for kind, arg, s0, s1, lumped in steps:
        if kind == "action":
            lines.append(head(s0, s1))
            paid = g.layout.split(int(action))[0] in ("fate", "sacrifice")  # its anger and limbo said (docs §4.6)
            lines += _changes(g, s0, s1, detail=paid or _is_power(g, s0, action),
                              recruit=s0.sub == Sub.RECRUIT_PLACE, why=_action_why(g, s0, s1, action))
        elif lumped and kind == Frame.LIFT and s1.phase == Phase.ACTION and s1.day == s0.day:
            lines += _frame_lines(g, kind, arg, s0, s1) + ["  the action phase starts"]
        elif lumped:  # a chance draw that the replay could not work out: the rest at once
            lines += [] if kind == Frame.LIFT else _frame_lines(g, kind, arg, s0, s1, head_only=True)
            lines += _phase_lines(g, s0, s1) + _changes(g, s0, s1)
        else:
            lines += _frame_lines(g, kind, arg, s0, s1)
        if not lumped and s0.phase != Phase.REST and s1.phase == Phase.REST:
            skipped = kind == Frame.ACTION_START or s0.phase != Phase.ACTION
            lines.append("  the rest phase scores" if skipped else "  the action phase is over: the rest phase scores")
        lines += _end_lines(g, s0, s1)
    return lines


def narrate(game: Any, before: Any, after: Any, action: int, seat: int) -> list[str]:
    """What ``action`` by ``seat`` did, as lines of at most 80 columns (``WIDTH``; a longer line is wrapped,
    its parts joined by newlines) that never name a hidden objective: the action, then what the rules did
    up to the next decision, step by step (:func:`narrate_steps`): cards won at auction, the tower lift,
    the action phase started or skipped, each rest scoring step with its favour by source, events, the new
    day, the end.

    ``before`` is the state the action was applied in and ``after`` the state one ``apply`` later (both are
    only read); the rule steps in between are replayed on a copy of ``before`` (:func:`_trace`).
    """
    return [wrap(x) for x in narrate_steps(game, before, after, action,
                                           lambda s0, s1: _head(game, s0, s1, action, seat))]


def _head(g: Any, s0: Any, s1: Any, action: int, seat: int) -> str:
    """The action's own line: a used power says its effect and cost; a recruited warrior how many are
    left to place."""
    head = f"P{seat} {g.describe_action(s0, int(action))}"
    fam, idx = g.layout.split(int(action))
    if fam == "use_power":
        pw = power(g, s0, seat, idx[0])
        if pw is not None:
            what = power_cost_words(g, s0, seat, idx[0])
            head += f": {effect_words(pw[3])}" + (f" ({what})" if what else "")
    elif fam == "space" and s0.sub == Sub.RECRUIT_PLACE:
        if s1.sub == Sub.RECRUIT_PLACE and s1.rec_paid > 0:
            head += f" ({s1.rec_paid} more to place)"
        elif s1.sub == Sub.RECRUIT_PLACE and s1.rec_bonus > 0:
            head += f" (up to {count(s1.rec_bonus, 'bonus warrior')} more)"
    return head


def power_cost_words(g: Any, s: Any, p: int, k: int) -> str:
    """What using seat ``p``'s power ``k`` costs (docs §4.8), in words: ``"the card is discarded"``, ``"1 warrior
    from anger to limbo"``, or ``""`` (no cost, or no such power)."""
    pw = power(g, s, p, k)
    if pw is None:
        return ""
    _window, cost, amount, _eff, _card = pw
    return {"discard": "the card is discarded", "anger": f"{count(amount, 'warrior')} from anger to limbo"}.get(cost, "")
