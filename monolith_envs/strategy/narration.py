"""Monolith: The Strategy Game's narration: what one action did, in lines of at most 80 columns
(:data:`monolith_envs.core.narration.WIDTH`) that never name a hidden card.

:func:`narrate` says the action, then each effect of it and of the resolution that went on after it, found
by replaying it step by step on a copy (:func:`_replay`) and tagged with the card line, toll stone, chase
marker or reveal that made it, in the order they happen: dice placed, cards cast, VP, gems and hand
changes, Guard charges spent, placements a card gave, the Primus, rounds, the dice, a toll or cost
offered (last: the question that follows is about it), who won and why (once, the VP by seat).  Also the
effect lines in words for any reader (:func:`line_text`, :func:`src_text`).  Terminal play, browser play
(``agents/terminal/strategy.py``) and the HTML replay page (``StrategyGame.narrate``) show these lines.

Rules: docs/monolith_strategy.md (sections cited below).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.narration import WIDTH, wrap
from ..core.state import states_equal
from ..core.words import count
from .effects import get_line
from .flow import FLOW, TASKS
from .narration_dice import dice_changes, exalted_start, onto_round_card, source_dice
from .render import PHASES
from .state import Kind, Phase
from .table import TABLE
from .words import card_name, effect_words, offer_words

__all__ = ["RESOLVE_LINE", "RESOLVE_PP_LINE", "line_text", "narrate", "src_text", "winner_words"]


def line_text(ln: Any, self_word: str = "you") -> str:
    """One effect line in words, ``who: what`` (docs §5.2; :func:`monolith_envs.strategy.words.effect_words`),
    e.g. ``highest: +2 VP per die here``; ``self_word`` names the caster or placer (``you`` in the lists the
    person reads to choose)."""
    return effect_words(ln, self_word)


def src_text(game: Any, src: Any) -> str:
    """The line that ``src`` (``[type, index, group, line]``) names, in words for any reader: its ``self``
    is the ``caster`` of an action card, the ``placer`` of a board card."""
    return line_text(get_line(game.rules, list(src)), "caster" if src[0] == "a" else "placer")


def _round_line(s: Any) -> str:
    return f"  round {s.round} begins; Round card {s.rc_round} covers position {s.rc_pos}"


def _is_round(key: Any) -> bool:
    return key is not None and key[0] == "round"


def _unchanged(game: Any, before: Any, after: Any, action: int, segs: list) -> list[str]:
    """After an opponent is chosen, why the line it was chosen for changed nothing for them, when it is plain
    (docs §4.13): a Guard charge stopped it, or they had nothing it takes (``P0 has no VP to lose``);
    ``[]`` otherwise."""
    pd = before.pending or {}
    src = pd.get("src")
    ask = after.pending or {}
    if game.layout.split(int(action))[0] != "choose_opponent" or pd.get("k") != Kind.OPPONENT or not src:
        return []
    if ask.get("src") == src and ask.get("seat") != pd.get("seat"):
        return []  # the chosen opponent now decides its part (a discard)
    q = (pd["seat"] + game.layout.split(int(action))[1][0] + 1) % game.rules.n
    if any(key and key[0] == tuple(src) and _changes(a, b, q) for key, a, b, _ in segs):
        return []  # it changed something of theirs
    if after.guard[q] < before.guard[q]:
        return [f"  P{q}'s Guard charge stops it (Guard {before.guard[q]} -> {after.guard[q]})"]
    op = get_line(game.rules, list(src)).op
    none = {"lose_vp": before.vp[q] == 0 and "no VP to lose", "steal_vp": before.vp[q] == 0 and "no VP to take",
            "lose_gems": before.gems[q] == 0 and "no gems to lose",
            "steal_gems": before.gems[q] == 0 and "no gems to take",
            "exile_die": not sum(before.pool[q]) and "no pool die to set aside",
            "discard": not game.rules.hand_size(before, q) and "no card to discard"}.get(op)
    return [f"  P{q} has {none}: nothing changes"] if none else []


def _toll_reached(game: Any, s: Any) -> tuple | None:
    """``(seat, key, words)`` when ``s`` asks a seat whether to pay a toll stone or a line's gem cost (docs
    §4.10, §4.11): the card line (:func:`_key`; a chase marker's or a reveal's gain, :func:`_gain_key`)
    whose gain reached the stone or whose cost is offered, and what paying does, e.g. ``toll stone on space
    5 (pay 1 gem to go on)``, ``may pay 1 gem for +3 VP``: said with that line, before the answer; None
    otherwise."""
    pd = s.pending or {}
    if pd.get("k") != Kind.PAY_OFFER:  # PAY_MORE: the stone or the cost was said at its offer
        return None
    then = pd.get("then") or {}
    if pd.get("purpose") == "cost" and pd.get("src"):
        key = _key(then) or (tuple(pd["src"]), None)
        return pd["seat"], key, offer_words(get_line(game.rules, list(pd["src"])), pd["amount"])
    if pd.get("purpose") != "toll":
        return None
    key = next((k for x in reversed(s.tasks) if (k := _key(x))), None) or _gain_key(s, then)
    tolls = game.rules.content.tolls
    st = pd.get("stone", -1)
    space = tolls[st][0] if 0 <= st < len(tolls) else s.vp[pd["seat"]] + 1
    return pd["seat"], key, f"toll stone on space {space} (pay {count(pd['amount'], 'gem')} to go on)"


def _tally(game: Any, s: Any) -> list[tuple]:
    """Per seat what narration reports: VP, gems, cards ``(in hand, cast)`` (docs §4.12: both count toward
    the hand limit), private Runes, chase marker ``(space, bonus)``, whether it holds the Primus, Guard
    charges.  The Primus is 0 (another seat holds it), 1 (held) or 2 (held and locked: Usurper, docs §4.8)."""
    return [(s.vp[p], s.gems[p], (sum(s.hand[p]), sum(s.cast[p])), len(s.priv[p]),
             None if s.chase[p] is None else tuple(s.chase[p]),
             (2 if s.primus_locked else 1) if p == s.primus else 0, s.guard[p])
            for p in range(game.rules.n)]


def _hand_change(x: tuple, y: tuple) -> str:
    """Cards ``(in hand, cast)`` before and after as the seat lines say them (``hand 0 + 5 cast``): ``hand 3
    -> 4``, ``hand 0 + 5 cast -> 1 + 5 cast``."""
    if not x[1] and not y[1]:
        return f"hand {x[0]} -> {y[0]}"
    return f"hand {x[0]} + {x[1]} cast -> {y[0]} + {y[1]} cast"


#: a Guard charge spent by the line a segment is tagged with (docs §4.13), as the single-opponent case says it
GUARD_STOP = "Guard charge stops it"


def _changes(a: list[tuple], b: list[tuple], p: int, card: bool = False, leaves: str = "") -> list[str]:
    """Seat ``p``'s changes between two tallies, e.g. ``["VP 9 -> 11", "gems 2 -> 0"]``; the cards in hand
    with the cast ones apart as the seat lines say them (``hand 0 + 5 cast -> 1 + 5 cast``) when their
    number changes (a card cast, said by its action, and cast cards back in hand are no change); a Guard
    charge gained (``Guard 0 -> 1``; one spent is said where it stops an attack, :func:`_unchanged`, and
    the round's clean-up says nothing; with ``card``, the changes a card line made, one spent is said too:
    ``Guard charge stops it (Guard 1 -> 0)``); a chase marker put down says where (``chase marker on space 8
    (+3 VP)``, docs §4.15), one cleared says nothing (the round's clean-up); with ``leaves``, the name of
    the Player Power whose lines made the changes, its cast cards going down with the hand unchanged is that
    card leaving the game, said last (docs §4.8): ``Overcharge leaves the game (hand 1 + 1 cast -> 1 + 0
    cast)``."""
    (v0, g0, h0, r0, c0, k0, d0), (v1, g1, h1, r1, c1, k1, d1) = a[p], b[p]
    out = [f"{name} {x} -> {y}" for name, x, y in (("VP", v0, v1), ("gems", g0, g1)) if x != y]
    gone = h0[1] - h1[1] if leaves and h0[0] == h1[0] else 0  # said last: the card leaves after its lines
    if sum(h0) != sum(h1) and gone <= 0:
        out.append(_hand_change(h0, h1))
    if r0 != r1:
        out.append(f"private Runes {r0} -> {r1}")
    if d1 > d0:
        out.append(f"Guard {d0} -> {d1}")
    elif card and d1 < d0:
        out.append(f"{GUARD_STOP} (Guard {d0} -> {d1})")
    if c1 is not None and c1 != c0:
        out.append(f"chase marker on space {c1[0]} (+{c1[1]} VP)")
    if k1 and not k0:
        out.append("takes the Primus" + (" and locks it (no one else takes it this round)" if k1 == 2 else ""))
    elif k1 == 2 and k0 == 1:  # Usurper cast by the holder (docs §4.8)
        out.append("keeps the Primus, locked (no one else takes it this round)")
    if gone > 0:
        who = leaves if gone == 1 else f"{gone} {leaves} cards"
        out.append(f"{who} {'leaves' if gone == 1 else 'leave'} the game ({_hand_change(h0, h1)})")
    return out


def _key(t: dict | None) -> Any:
    """A task's card line as a hashable key (``(src, where)``), or None for work of no card; a Player Power
    firing (``pp_fire``) and leaving the game after its lines (``pp_leave``, docs §4.8: the card leaves its
    owner's cast cards) are keyed by its first line."""
    if t and t.get("t") in ("pp_fire", "pp_leave"):
        return ("a", t["k"], "effect", 0), 0  # the where of its lines (flow.t_pp_fire: ctx_of("PRE", p, 0))
    if not t or not t.get("src"):
        return None
    where = (t.get("ctx") or {}).get("where")
    return tuple(t["src"]), tuple(where) if isinstance(where, list) else where


def _gain_key(s: Any, t: dict | None) -> Any:
    """The key (as :func:`_key`'s) of a VP gain no card line is doing, in ``s`` before task ``t`` runs: a
    Final Scoring reveal (``("reveal", (seat, k))``, docs §4.18) or, once the resolution's cards are done,
    a chase marker's bonus (``("chase", (seat, space, bonus))``, docs §4.15); None for other work."""
    if not t or t.get("t") not in ("vp", "vp_step"):
        return None
    p = t["p"]
    if t.get("rv"):
        rv = s.reveal[p]
        return "reveal", (p, rv["target"] if rv else 0)
    ch = s.chase[p]
    if ch is not None and s.phase == Phase.RESOLUTION and not any(
            x.get("t") in ("res_pos", "res_priv", "chase_check") for x in s.tasks):
        return "chase", (p, ch[0], ch[1])
    return None


class _Watched(list):
    """The replay's task stack (:func:`_replay`): it notes each ``vp`` task popped (the seat, the VP still
    to gain, its VP then) and, once the next task is popped or the work stops, says when a toll stone the
    seat could not pay stopped the gain short: the engine declines an unaffordable toll without a question
    (docs §4.11, §4.20; at Final Scoring only gems not earmarked pay it, §4.18)."""

    def __init__(self, game: Any, s: Any):
        super().__init__(s.tasks)
        self.game, self.s, self.open, self.notes = game, s, None, []

    def pop(self, *args: Any) -> Any:
        self.settle()
        t = super().pop(*args)
        if t.get("t") == "vp":
            p = t["p"]
            rv = self.s.reveal[p] if t.get("rv") else None
            self.open = (p, t["left"], self.s.vp[p], rv["target"] if rv else 0)
        return t

    def settle(self) -> None:
        if self.open is None:
            return
        (p, left, v0, target), self.open = self.open, None
        s = self.s
        v = s.vp[p]
        stone = self.game.rules.toll_at.get(v + 1)
        if s.terminal or s.pending is not None or stone is None or v - v0 >= left:
            return  # the gain ended, or a toll question is open (said at the step's end)
        cost = count(stone[1], "gem")
        if target:
            got = target - left + v - v0
            self.notes.append((p, f"stopped by the toll stone on space {v + 1} after {got} of {target} VP (it costs "
                                  f"{cost}, more than P{p} can pay with gems not earmarked for the reveal; P{p} "
                                  f"keeps the earmarked gems and cards the reveal did not use)"))
        else:
            self.notes.append((p, f"stopped by the toll stone on space {v + 1} (it costs {cost}, more than P{p} "
                                  f"can pay; {left - (v - v0)} VP lost)"))

    def take(self) -> list[tuple[int, str]]:
        out, self.notes = self.notes, []
        return out


def _turn_notes(t0: dict, t1: dict) -> list[tuple[int, str]]:
    """What a card line gave the turn's player (its turn record ``t0`` before, ``t1`` after; docs §4.6,
    §5.5-5.6): more placements (Augment, Momentum: ``placements left this turn 1 -> 2``) or Stacker's bump
    made ready, as ``[(seat, words)]``."""
    p = t1.get("player")
    if p is None or p != t0.get("player"):
        return []
    out = []
    if t1.get("left", 0) > t0.get("left", 0):
        out.append((p, f"placements left this turn {t0.get('left', 0)} -> {t1['left']}"))
    if t1.get("stack_ready") and not t0.get("stack_ready"):
        out.append((p, "a bump is ready for this turn"))
    return out


def _segments(game: Any, before: Any, after: Any, action: int) -> list[tuple[Any, list, list, list]]:
    """``[(source, tally before, tally after, notes)]``: the action's own changes (source None), then the
    engine's work up to the next decision grouped by the card line doing it (:func:`_key`; a chase marker's
    or a reveal's gain, :func:`_gain_key`; ``("phase", phase)`` for other work of no card: dice going back,
    the round's steps), with ``("round", round)`` where a new round begins; ``notes`` says
    ``(seat, words)`` where a toll stone the seat could not pay stopped a gain (:class:`_Watched`).  The engine is replayed
    on a copy of ``before``, popping tasks as ``flow.run`` does; when the copy's VP, gems, hands, chase
    markers, Guard charges or Primus do not end as ``after``'s (dice rolled differently), one untagged segment for the
    whole step."""
    whole = [(None, _tally(game, before), _tally(game, after), [])]
    try:
        return _replay(game, before, after, action) or whole
    except Exception:  # narration never stops a game: a replay that fails says the step untagged
        return whole


def _replay(game: Any, before: Any, after: Any, action: int) -> list[tuple[Any, list, list, list]] | None:
    """The segments of :func:`_segments`, or None when the replay does not end as ``after``."""
    R = game.rules
    s = game.clone(before)
    pd = s.pending
    if pd is None:
        return None
    watch = s.tasks = _Watched(game, s)
    rng = np.random.default_rng(0)
    s.pending = None
    TABLE[pd["k"]][1](R, s, pd, int(action), rng)
    s.decisions += 1
    segs = [[None, _tally(game, before), _tally(game, s), []]]
    rnd = s.round
    while s.pending is None and not s.terminal:
        turn = []
        if s.tasks:
            t = s.tasks.pop()
            segs[-1][3] += watch.take()  # a stop the pop settled: the work before it
            # a task of no card (a VP step after a toll, a payment's follow-up) works for the line under it
            key = _key(t) or next((k for x in reversed(s.tasks) if (k := _key(x))), None) or _gain_key(s, t)
            tn = dict(s.turn)
            TASKS[t["t"]](R, s, t, rng)
            turn = _turn_notes(tn, s.turn) if key and isinstance(key[0], tuple) else []
        else:
            watch.settle()
            segs[-1][3] += watch.take()
            key = None
            FLOW[s.flow](R, s, rng)
        if key is None and segs[-1][0] is not None:  # work of no card after a card's: the round goes on
            key = ("phase", s.phase)
        if key != segs[-1][0]:
            segs.append([key, segs[-1][2], None, []])
        segs[-1][2] = _tally(game, s)
        segs[-1][3] += watch.take() + turn
        if s.round != rnd:
            rnd = s.round
            segs.append([("round", rnd), segs[-1][2], segs[-1][2], []])
    watch.settle()
    segs[-1][3] += watch.take()
    s.tasks = list(s.tasks)
    # dice rolled on the way (a new round's Chance, a reroll) may differ from the real step's: the tags
    # are kept when what narration reports ends the same
    same = states_equal(s, after) or (_tally(game, s) == _tally(game, after) and s.primus == after.primus
                                      and s.terminal == after.terminal and s.round == after.round)
    return [tuple(x) for x in segs] if same else None


def _source(game: Any, key: Any, after: Any) -> str:
    """The card and line a segment's changes come from, in words; a private Rune still hidden is not named;
    a chase marker's bonus and a Final Scoring reveal say theirs (``P1's chase marker on space 8 (+3 VP)``)."""
    src, where = key
    if src == "phase":
        return f"the {PHASES[where]}" if 0 <= where < len(PHASES) else "the round"
    if src == "chase":
        return f"P{where[0]}'s chase marker on space {where[1]} (+{where[2]} VP on reaching it)"
    if src == "reveal":
        return f"P{where[0]}'s reveal of {count(where[1], 'gem')} for {where[1]} VP"
    if src[0] == "b" and isinstance(where, tuple):
        owner, slot = where
        priv = after.priv[owner]
        if not (slot < len(priv) and priv[slot]["revealed"]):
            return f"P{owner}'s private Rune"
    return f"{card_name(game.rules.content, src)} ({src_text(game, src)})"


#: the line that says the Resolution Phase starts (docs §4.9), after the last die's Immediate effect if any
RESOLVE_LINE = "  every die is placed: the cards resolve"
#: the same when Player Powers are queued: they fire first, each leaving the game after its lines (docs §4.8)
RESOLVE_PP_LINE = "  every die is placed: the Player Powers fire, then the cards resolve"


def _pp_name(game: Any, key: Any) -> str:
    """The Player Power whose lines (and leaving the game) a segment's ``key`` is (:func:`_key`), or ``""``."""
    src = key[0] if key is not None and isinstance(key[0], tuple) else None
    if not src or src[0] != "a" or not game.rules.is_pp[src[1]]:
        return ""
    return game.rules.content.actions[src[1]].name


def narrate(game: Any, before: Any, after: Any, action: int, seat: int) -> list[str]:
    """What ``action`` by ``seat`` did, as lines of at most 80 columns (``WIDTH``; a longer line is wrapped,
    its parts joined by newlines) that never name a hidden card: the action, what it changed itself, then
    each change of the resolution that went on after it, tagged with the card and line that made it
    (``then SR2 Gem Rune (each here: gain gems 1 per die): P0: gems 0 -> 2``), a gain a toll stone
    stopped, a Guard charge that stopped an attack, the Primus, the round (the dice from the Source, then
    where it begins, before the Chance roll and then the Exalted start, as docs §4.17, §4.4 and §4.5 order them), the dice that changed, a toll stone or gem cost the step ends at
    (the line whose gain reached it: the question that follows is about it, so it is said last) and who won
    and why, in one line (:func:`_result`).  A card cast says what it did, or that it is queued (a
    Player Power) or changed nothing (:func:`_cast_lines`).

    ``before`` is the state the action was applied in and ``after`` the state one ``apply`` later (both are
    only read); the engine's work in between is replayed on a copy of ``before`` (:func:`_segments`).
    """
    R = game.rules
    lines = [f"P{seat} {game.describe_action(before, int(action))}"]
    segs = _segments(game, before, after, action)
    toll = _toll_reached(game, after)
    # an Offering's dice (an Exalted start line that auto-sockets): said as rolled, then onto the Round card
    offering = next((key for key, *_ in segs if exalted_start(key) and get_line(R, list(key[0])).op == "auto_socket"), None)
    onto = onto_round_card(before, after) if offering is not None else []
    # the Chance roll (docs §4.4): the action phase begins, or a new round's does within the step
    rolled = after.phase == Phase.ACTION and (before.phase != Phase.ACTION or after.round != before.round)
    dice = dice_changes(game, before, after, action, seat, onto, rolled)
    why = _unchanged(game, before, after, action, segs)  # said before the resolution that may follow
    primus, round_said = before.primus, False
    last = max((n for n, seg in enumerate(segs) if not _is_round(seg[0])), default=-1)
    board = R.content.board
    resolves = before.phase == Phase.ACTION and after.phase != Phase.ACTION  # the last die was placed
    resolve_line = RESOLVE_PP_LINE if before.pp_queue else RESOLVE_LINE
    for n, (key, a, b, notes) in enumerate(segs):
        placed = (key is None and n == 0) or (key is not None and isinstance(key[0], tuple) and key[0][0] == "b"
                                               and board[key[0][1]].immediate)  # an Immediate card: at placement
        if resolves and not placed:  # the resolution starts here, after any Immediate effect of the last die
            lines.append(resolve_line)
            resolves = False
        if _is_round(key):  # the round begins here: its Round card, the Source dice, the Chance roll
            lines += source_dice(before, after)  # Advancement step 4, then the round begins (docs §4.17)
            lines.append(_round_line(after))
            round_said = True
            if dice:
                lines.append(f"  dice: {dice}")
                dice = ""
            continue
        start = exalted_start(key)
        if start and dice:  # the Chance roll comes before the Exalted start (docs §4.5, D21)
            lines.append(f"  dice: {dice}")
            dice = ""
        card = key is not None and isinstance(key[0], tuple)  # a card line's work: a Guard charge it spent
        pp = _pp_name(game, key)
        per = {p: _changes(a, b, p, card and not (why and why[0].startswith(f"  P{p}'s Guard")), pp)
               for p in range(R.n)}
        primus = next((p for p in range(R.n) if b[p][5]), primus)
        for p, note in notes:  # a gain a toll stone stopped short, a placement a card gave
            per[p].append(note)
        if key == offering:
            for p, face in onto:
                per[p].append(f"a {face} goes onto it")
        if toll and n == last and toll[1] == key:  # the toll stone this line's gain has reached
            per[toll[0]].append(toll[2])
            toll = None
            if dice:  # the dice changed on the way: said before the question the offer ends the step with
                lines.append(f"  dice: {dice}")
                dice = ""
        ch = "; ".join(_seat_changes(p, x) for p, x in per.items() if x)
        if ch and n == 0 and key is None:
            lines.append(f"  {ch}")
        elif ch:
            head = f"  then {_source(game, key, after)}:"
            # the changes start a line of their own rather than being split after "P1:"
            lines += [f"{head} {ch}"] if len(head) + len(ch) < WIDTH else [head, f"      {ch}"]
    lines += _cast_lines(game, before, after, action, seat, len(lines) > 1 or bool(dice or why))
    if dice:
        lines.append(f"  dice: {dice}")
    if resolves:
        lines.append(resolve_line)
    card = _chosen_for(game, before, action, after)
    # said unless a line of its changes names the card and what it does
    chosen = [f"  for {card}"] if card and not any(x.startswith(f"  then {card}") for x in lines) else []
    lines[1:1] = chosen + why
    if after.primus != primus:
        lines.append(f"  the Primus goes to P{after.primus}")
    if after.round != before.round and not after.terminal and not round_said:
        lines.append(_round_line(after))
    if toll:
        p, key, text = toll
        lines.append(f"  then {_source(game, key, after)}: P{p}: {text}" if key else f"  P{p}: {text}")
    if after.terminal and not before.terminal:
        lines.append("  " + _result(game, after))
    return [wrap(x) for x in lines]


def _chosen_for(game: Any, before: Any, action: int, after: Any) -> str:
    """For an opponent chosen for a card's line (docs §4.13), the card and what that line does to them:
    ``Jinx (a chosen opponent: their highest pool die turns to 1)`` (an action card, cast face up), ``R36 Rune
    of Hexes (a chosen opponent: their highest pool die is set aside)`` (a board card; a private Rune still hidden is not named, as
    :func:`_source` says); ``""`` otherwise. :func:`narrate` leaves it out when a line of the changes names the
    card already (a line whose changes are VP, gems or cards: an exile's changes are dice, said untagged)."""
    pd = before.pending or {}
    src = pd.get("src")
    if game.layout.split(int(action))[0] != "choose_opponent" or not src:
        return ""
    if src[0] == "a":
        return f"{card_name(game.rules.content, src)} ({src_text(game, src)})"
    where = ((pd.get("then") or {}).get("ctx") or {}).get("where")
    return _source(game, (tuple(src), tuple(where) if isinstance(where, list) else where), after)


def _seat_changes(p: int, x: list[str]) -> str:
    """Seat ``p``'s changes in a tagged line: ``P1: VP 3 -> 4, gems 0 -> 1``; a Guard charge that stopped
    the line alone is said as for a single chosen opponent: ``P1's Guard charge stops it (Guard 1 -> 0)``."""
    if len(x) == 1 and x[0].startswith(GUARD_STOP):
        return f"P{p}'s {x[0]}"
    return f"P{p}: {', '.join(x)}"


def _result(game: Any, s: Any) -> str:
    """Who won and why, said once, the VP by seat: ``game over after round 5: P1 wins; after Final
    Scoring: VP P0 9, P1 19, P2 14`` (``game.end_reason``: a tie-break or a VICTORY says its own; docs
    §8); solo ``game over after round 5: FAILURE; 12 VP: the goal of 15 VP is missed``."""
    why = game.end_reason(s)
    return f"game over after round {s.round}: {winner_words(game, s)}" + (f"; {why}" if why else "")


def winner_words(game: Any, s: Any) -> str:
    """The result of a finished game in a few words (docs §8): ``P1 wins``, ``no winner (tie)``; solo
    ``SUCCESS`` or ``FAILURE`` (§4.19)."""
    if game.rules.solo:
        return "SUCCESS" if game.success(s) else "FAILURE"
    return f"P{s.winner} wins" if s.winner >= 0 else "no winner (tie)"


def _cast_lines(game: Any, before: Any, after: Any, action: int, seat: int, said: bool) -> list[str]:
    """For a card cast (docs §4.8, §5.5-5.7) whose narration would say nothing more (``said`` false) and
    that asks its caster nothing next: a Player Power is queued (``Triumph is queued: it fires before the
    cards resolve (P0: +3 VP)``); another card changed nothing, and why where it is plain (``then
    Synergy (...): nothing changes (it comes to 0 VP)``).  ``[]`` otherwise."""
    fam, idx = game.layout.split(int(action))
    if fam != "cast":
        return []
    R = game.rules
    k = idx[0]
    card = R.content.actions[k]
    if R.is_pp[k]:  # its lines said by its caster's seat, a parenthesis in them as a clause of its own
        said_pp = "; ".join(line_text(ln, f"P{seat}") for ln in card.effect).replace(" (", "; ").replace(")", "")
        return [f"  {card.name} is queued: it fires before the cards resolve ({said_pp})"]
    what = "; ".join(line_text(ln, "caster") for ln in card.effect)
    pd = after.pending or {}
    if said or (pd.get("seat") == seat and pd.get("k") != Kind.TURN):
        return []  # it changed something, or it asks its caster next (an opponent, a die, a socket)
    why = next((x for ln in card.effect if (x := _nothing(game, before, seat, ln))), "")
    return [f"  then {card.name} ({what}): nothing changes" + (f" ({why})" if why else "")]


def _nothing(game: Any, s: Any, p: int, ln: Any) -> str:
    """Why line ``ln`` cast by seat ``p`` in state ``s`` changes nothing, where it is plain; ``""``
    otherwise."""
    R, op = game.rules, ln.op
    pool = sum(s.pool[p])
    if op == "gain_die" and not s.src_dice[p]:
        return f"P{p} has no die left in the Source"
    if op == "take_primus":
        return (f"P{p} holds the Primus already" if s.primus == p else
                "the Primus is locked this round" if s.primus_locked else "")
    if op == "draw":
        return f"the {ln.deck.capitalize() or 'Skill'} deck is empty"
    if op == "gain_gems" and not s.source_gems:
        return "the Source has no gems"
    if op == "gain_vp":
        return "it comes to 0 VP"
    if op in ("reroll", "adjust_face", "set_face") and ln.where != "socketed" and ln.who == "self":
        return f"P{p} has no pool die" if not pool else (
            "the dice come up as they were" if op == "reroll" else f"P{p}'s pool dice show {ln.face} already")
    if op == "move_die":
        return f"P{p} has no socketed die that can move"
    if op == "block_socket":
        return "no socket can be blocked"
    if op == "secret_rune":
        return f"P{p} has two private Runes already" if len(s.priv[p]) >= 2 else "the Rune deck is empty"
    if op == "lose_vp" and not any(s.vp[q] for q in range(R.n) if q != p):
        return "no other player has VP to lose"
    return ""
