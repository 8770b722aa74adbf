"""The round outline: Round card, Chance, Exalted start, Action Phase turns, Player Powers, Resolution,
chase checks, Advancement and Final Scoring (docs/monolith_strategy.md §4.1-4.9, §4.15, §4.17, §4.18, §8).

:func:`run` drives the engine: it runs tasks from the stack until a decision is open or the game is over;
when the stack is empty the next :class:`Flow` step of the round outline pushes new work.
"""

from __future__ import annotations

from . import effects, payments
from .board import Rules
from .effects import push_lines
from .state import Flow, Kind, Phase, Side, StrategyState
from .turn import start_turn, t_turn

__all__ = ["run", "TASKS", "roll_pool", "round_card_roll"]


def run(R: Rules, s: StrategyState, rng) -> None:
    """Run the engine until a decision is open (``pending``) or the game is over: tasks first (LIFO), the
    round outline's next step when the stack is empty (docs §4.1, §4.20)."""
    tasks, task_fns, flow_fns = s.tasks, TASKS, FLOW
    while s.pending is None and not s.terminal:
        if tasks:
            t = tasks.pop()
            task_fns[t["t"]](R, s, t, rng)
        else:
            flow_fns[s.flow](R, s, rng)


def roll_pool(s: StrategyState, p: int, rng) -> None:
    """Roll every pool die of seat p, one ``rng.integers(1, 7)`` per die (the Chance roll, docs §4.4)."""
    pool = s.pool[p]
    k = sum(pool)
    for f in range(6):
        pool[f] = 0
    for _ in range(k):
        pool[int(rng.integers(1, 7)) - 1] += 1


def round_card_roll(R: Rules, s: StrategyState, rng) -> None:
    """Place the Round card of round ``rc_round`` (2d6, solo 1d6, docs §4.2), then SIDE."""
    pos = int(rng.integers(1, 7))
    if not R.solo:
        pos += int(rng.integers(1, 7))
    s.rc_pos = pos
    s.rc_side = int(Side.NORMAL)
    if R.exalted:
        s.pending = {"k": int(Kind.SIDE), "seat": s.primus}


# ---------------------------------------------------------------------------------------------- flow steps
def f_bonus(R: Rules, s: StrategyState, rng) -> None:
    """Start bonus (docs §3): each non-Primus player from the seat after the Primus."""
    s.flow = Flow.ROUND_CARD
    for q in reversed(R.order(s)[1:]):
        s.tasks.append({"t": "bonus", "p": q})


def f_round_card(R: Rules, s: StrategyState, rng) -> None:
    """Round 1 card (docs §3, §4.2): roll its position, then the Primus picks SIDE; the Chance roll follows."""
    s.flow = Flow.CHANCE
    s.rc_round = s.round
    round_card_roll(R, s, rng)


def f_chance(R: Rules, s: StrategyState, rng) -> None:
    """Chance Phase (docs §4.4): everyone rolls every pool die, in turn order from the Primus."""
    s.phase = Phase.ACTION
    for p in R.order(s):
        roll_pool(s, p, rng)
    s.flow = Flow.EXALTED_START


def f_exalted_start(R: Rules, s: StrategyState, rng) -> None:
    """Exalted start (docs §4.5): on the Exalted side the Round card's ``start`` lines run before the first turn."""
    s.flow = Flow.ACTION
    if s.rc_side == Side.EXALTED:
        rc = R.content.round_cards[s.rc_round - 1]
        push_lines(s, "x", rc.index, "start", len(rc.start), effects.ctx_of("START", -1, s.rc_pos))


def f_action(R: Rules, s: StrategyState, rng) -> None:
    """First turn: the Primus holder, or the next seat clockwise with a pool die (docs §4.6)."""
    s.flow = Flow.PRE
    first = next((q for q in R.order(s) if sum(s.pool[q])), -1)
    if first >= 0:
        start_turn(s, first)


def f_pre(R: Rules, s: StrategyState, rng) -> None:
    """Pre-resolution (docs §4.8): queued Player Powers in turn order from the Primus holder."""
    s.flow = Flow.RESOLUTION
    s.phase = Phase.RESOLUTION
    s.turn = dict(s.turn, left=0, stack_ready=False)
    order = R.order(s)
    queue = sorted(s.pp_queue, key=lambda e: order.index(e[0]))
    for p, k in reversed(queue):
        s.tasks.append({"t": "pp_fire", "p": p, "k": k})


def f_resolution(R: Rules, s: StrategyState, rng) -> None:
    """Resolution (docs §4.9): positions 1-13, the private Runes, then the chase check (§4.15); Final Scoring
    follows the last round, Advancement the others."""
    s.flow = Flow.FINAL if s.round >= R.content.rounds else Flow.ADVANCE
    s.tasks.append({"t": "chase_check"})
    s.tasks.append({"t": "res_priv", "list": None, "i": 0})
    s.tasks.append({"t": "res_pos", "pos": 1})


def f_advance(R: Rules, s: StrategyState, rng) -> None:
    """Advancement, first part (docs §4.17): clean-up, then the next Round card and its SIDE."""
    s.phase = Phase.ADVANCEMENT
    for p in range(R.n):
        s.pool[p][0] += s.aside[p]  # returned dice show 1 until the Chance roll
        s.aside[p] = 0
        s.guard[p] = 0
        s.chase[p] = None
    s.blocked = [False] * 52
    s.turn = dict(s.turn, stack_ready=False)
    s.primus_locked = False
    s.flow = Flow.ADVANCE_REST
    s.rc_round = s.round + 1
    round_card_roll(R, s, rng)


def _cast_back(s: StrategyState, p: int) -> None:
    """Seat p's cast cards go back to its hand."""
    cast = s.cast[p]
    if any(cast):
        hand = s.hand[p]
        for k, c in enumerate(cast):
            if c:
                hand[k] += c
                cast[k] = 0


def f_advance_rest(R: Rules, s: StrategyState, rng) -> None:
    """Advancement, rest (docs §4.17): cast cards back, one die from the Source, next round's Chance roll."""
    for p in range(R.n):
        _cast_back(s, p)
        if s.src_dice[p]:
            s.src_dice[p] -= 1
            s.pool[p][0] += 1
    s.round += 1
    s.flow = Flow.CHANCE


def f_final(R: Rules, s: StrategyState, rng) -> None:
    """Final Scoring (docs §4.18): cast cards back, chase markers cleared, reveals from the Primus."""
    s.phase = Phase.FINAL
    for p in range(R.n):
        _cast_back(s, p)
        s.chase[p] = None
    s.flow = Flow.END
    for p in reversed(R.order(s)):
        s.tasks.append({"t": "reveal_p", "p": p})


def rank_keys(R: Rules, s: StrategyState) -> list:
    """Per seat (vp, gem value, Power cards held) (docs §8): gem value and Power cards count the uncast cards
    in hand (docs §2.3), which after Final Scoring are all of them; after a VICTORY in the middle of a round the
    cards cast that round lie in the Action Pool and do not count."""
    out = []
    for p in range(R.n):
        powers = sum(s.hand[p][k] for k in range(R.K) if R.is_power[k])
        out.append([s.vp[p], R.gem_value(s, p), powers])
    return out


def f_end(R: Rules, s: StrategyState, rng) -> None:
    """Rank after Final Scoring; a shared top place on all three keys (VP, gem value, Power cards held)
    means no winner (docs §8)."""
    keys = rank_keys(R, s)
    s.ranking = keys
    best = max(keys)
    top = [p for p in range(R.n) if keys[p] == best]
    s.winner = top[0] if len(top) == 1 and not R.solo else -1
    s.terminal = True
    s.phase = Phase.OVER


FLOW = {Flow.BONUS: f_bonus, Flow.ROUND_CARD: f_round_card, Flow.CHANCE: f_chance,
        Flow.EXALTED_START: f_exalted_start, Flow.ACTION: f_action, Flow.PRE: f_pre,
        Flow.RESOLUTION: f_resolution, Flow.ADVANCE: f_advance, Flow.ADVANCE_REST: f_advance_rest,
        Flow.FINAL: f_final, Flow.END: f_end}
FLOW = {int(k): v for k, v in FLOW.items()}


# ---------------------------------------------------------------------------------------------- tasks
def t_bonus(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Task ``bonus``: BONUS for seat p (the top Skill or a Source gem) unless neither is left (docs §3)."""
    if s.skill_deck or s.source_gems:
        s.pending = {"k": int(Kind.BONUS), "seat": t["p"]}


def t_pp_fire(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Task ``pp_fire``: a queued Player Power runs its lines with its owner as actor, then leaves the game
    (task ``pp_leave``); a discarded one never triggers (docs §4.8).  While its lines run (an Overcharge's
    SOCKET_SRC, a Triumph's toll) it is still one of its owner's cast cards and in ``pp_queue``."""
    p, k = t["p"], t["k"]
    if [p, k] not in s.pp_queue:
        return
    card = R.content.actions[k]
    s.tasks.append({"t": "pp_leave", "p": p, "k": k})  # the task stack: it runs after the card's lines
    push_lines(s, "a", k, "effect", len(card.effect), effects.ctx_of("PRE", p, 0, False))


def t_pp_leave(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Task ``pp_leave``: a Player Power whose lines have run leaves the game: out of ``pp_queue`` and its
    owner's cast cards, into ``pp_gone`` (docs §4.8)."""
    p, k = t["p"], t["k"]
    if [p, k] in s.pp_queue:
        s.pp_queue.remove([p, k])
        s.cast[p][k] -= 1
        s.pp_gone[k] += 1


def _first_die(seat: list, start: int, n: int) -> int:
    """The first board socket id >= ``start`` holding a die (``sock_seat`` entry 0..n-1), or 52.  A plain
    scan: over a whole resolution it visits each socket once (a ``list.index`` search per seat cost a raised
    ValueError for every seat without a die further on)."""
    for sid in range(start, 52):
        if 0 <= seat[sid] < n:
            return sid
    return 52


def t_res_pos(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Resolve one position (docs §4.9): its lines if it holds a die (not for Immediate cards), then the
    dice go back to their pools."""
    # positions without an active card or a die are passed over here: their task would push the next
    # position's and return, with no decision open in between
    seat = s.sock_seat
    start = (t["pos"] - 1) * 4
    while True:
        sid = _first_die(seat, start, R.n)
        if sid >= 52:
            return
        pos = sid // 4 + 1
        kind, obj = R.active(s, pos)
        if kind is not None:
            break
        start = pos * 4
    if pos < 13:
        s.tasks.append({"t": "res_pos", "pos": pos + 1})
    s.tasks.append({"t": "res_ret", "where": pos})
    if kind == "card":
        if obj.immediate:
            return
        push_lines(s, "b", obj.index, "effect", len(obj.effect), effects.ctx_of("BOARD", -1, pos, obj.attack))
    else:
        push_lines(s, "x", obj.index, "resolve", len(obj.resolve), effects.ctx_of("BOARD", -1, pos, False))


def t_res_ret(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Task ``res_ret``: the dice on a resolved position or private Rune ``[owner, slot]`` go back to their owners'
    pools with their faces (docs §4.9)."""
    where = t["where"]
    if isinstance(where, int):
        base = (where - 1) * 4
        for sid in range(base, base + 4):
            q = s.sock_seat[sid]
            if q >= 0:
                s.pool[q][s.sock_face[sid] - 1] += 1
                s.sock_seat[sid] = -1
                s.sock_face[sid] = 0
    else:
        owner, slot = where
        occ = s.priv[owner][slot]["occ"]
        for i, f in enumerate(occ):
            if f:
                s.pool[owner][f - 1] += 1
                occ[i] = 0


def t_res_priv(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Private Runes after position 13: owners from the Primus holder, slot 0 before slot 1 (docs §4.9,
    §4.14)."""
    lst = t["list"]
    if lst is None:
        lst = [[o, sl] for o in R.order(s) for sl in range(len(s.priv[o]))]
    i = t["i"]
    if i >= len(lst):
        return
    s.tasks.append({"t": "res_priv", "list": lst, "i": i + 1})
    o, sl = lst[i]
    if not R.dice_on(s, [o, sl]):
        return
    s.tasks.append({"t": "res_ret", "where": [o, sl]})
    card = R.content.board[s.priv[o][sl]["card"]]
    if not card.immediate:
        push_lines(s, "b", card.index, "effect", len(card.effect), effects.ctx_of("BOARD", -1, [o, sl], card.attack))


def t_chase_check(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Chase markers (docs §4.15): each player whose VP reached their marker gains the bonus."""
    for p in reversed(R.order(s)):
        ch = s.chase[p]
        if ch is not None and s.vp[p] >= ch[0]:
            s.tasks.append({"t": "vp", "p": p, "left": ch[1], "rv": False})


TASKS = {"bonus": t_bonus, "turn": t_turn, "pp_fire": t_pp_fire, "pp_leave": t_pp_leave, "res_pos": t_res_pos, "res_ret": t_res_ret,
         "res_priv": t_res_priv, "chase_check": t_chase_check}
TASKS.update(effects.TASKS)
TASKS.update(payments.TASKS)
effects.ENGINE_TASKS.update(TASKS)
