"""Effect lines: recipients, conditions, scales, Guard and every op of the vocabulary
(docs/monolith_strategy.md §4.9, §4.10, §4.12-4.16, §5.2).

A line runs as tasks on the work stack: ``line`` works out its recipients (turn order from whoever holds
the Primus when the line starts, docs §4.9) and then, per recipient, ``rcp`` checks the conditions and offers
the cost, and ``op`` computes the amount, checks Guard and applies the op.  Ops that need a choice open a
decision (``pending``) whose answer pushes the continuation.
"""

from __future__ import annotations

from ..core.game import InvariantError
from .board import PRIV0, Rules
from .content import BOARD, Line
from .state import Kind, Phase, StrategyState

__all__ = ["get_line", "push_lines", "TASKS", "ctx_of", "win"]


def get_line(R: Rules, src: list) -> Line:
    """The :class:`Line` named by ``src = [type, index, group, line]`` (b board, x Round, a action card; docs §5.2)."""
    typ, i, grp, li = src
    c = R.content
    if typ == "b":
        card = c.board[i]
    elif typ == "x":
        card = c.round_cards[i]
    else:
        card = c.actions[i]
    return getattr(card, grp)[li]


def ctx_of(c: str, actor: int = -1, where=0, atk: bool = False) -> dict:
    """A line context record: context ``c`` (BOARD, CAST, ...), actor, card ``where``, attack flag (docs §5.2)."""
    return {"c": c, "actor": actor, "where": where, "atk": atk}


def push_lines(s: StrategyState, typ: str, i: int, grp: str, count: int, ctx: dict) -> None:
    """Push ``count`` lines of a card so that they run in printed order."""
    for li in range(count - 1, -1, -1):
        s.tasks.append({"t": "line", "src": [typ, i, grp, li], "ctx": ctx, "rec": None, "i": 0})


def win(s: StrategyState, p: int) -> None:
    """VICTORY: the game ends at once with ``p`` as sole winner (docs §4.11, §8)."""
    s.winner = p
    s.terminal = True
    s.phase = Phase.OVER
    s.pending = None
    s.tasks.clear()


# ---------------------------------------------------------------------------------------------- recipients
def _totals(R: Rules, s: StrategyState, ctx: dict) -> dict:
    """``{seat: total of its faces}`` of the dice on the card at ``ctx["where"]`` (seats in ``dice_on``'s
    order)."""
    where = ctx["where"]
    if type(where) is int:  # a board position: summed straight from the sockets
        tot: dict = {}
        seat, face = s.sock_seat, s.sock_face
        for sid in range((where - 1) * 4, where * 4):
            q = seat[sid]
            if q >= 0:
                tot[q] = tot.get(q, 0) + face[sid]
        return tot
    return {q: sum(f) for q, f in R.dice_on(s, where).items()}


def board_selector(R: Rules, s: StrategyState, who: str, ctx: dict) -> list:
    """Seats named by a BOARD selector, in turn order from the Primus holder (docs §5.2)."""
    order = R.order_cache[s.primus]  # R.order(s)
    where = ctx["where"]
    if who == "each_here" and type(where) is int:  # the seats with a die here: no totals needed
        seat = s.sock_seat
        b = (where - 1) * 4
        here = (seat[b], seat[b + 1], seat[b + 2], seat[b + 3])
        return [q for q in order if q in here]
    tot = _totals(R, s, ctx)
    seats = seats_by_totals(who, tot, order, where[0] if isinstance(where, list) else None)
    if seats is not None:
        return seats
    raise _unknown_selector(who)


def seats_by_totals(who: str, tot: dict, order: list, owner: int | None = None) -> list | None:
    """Seats named by a BOARD selector (docs §5.2), in ``order``, from ``tot`` = ``{seat: pip total here}``
    (the seats with a die here only); ``owner`` is the owner of a private Rune (its ``each_opponent`` is
    every other seat).  ``None`` for a selector that is not a BOARD one.  The engine's
    :func:`board_selector` and the heuristic's payout estimate (hypothetical dice) both use it."""
    if who == "each_here":
        return [q for q in order if q in tot]
    if who == "each_opponent":
        if owner is not None:
            return [q for q in order if q != owner]
        return [q for q in order if q not in tot]
    if who not in ("highest", "highest_unique", "others_here", "lowest"):
        return None
    if not tot:
        return []
    if who == "lowest":
        m = min(tot.values())
        return [q for q in order if tot.get(q, 99) == m]
    m = max(tot.values())
    top = [q for q in order if tot.get(q, -1) == m]
    if who == "highest":
        return top
    if who == "highest_unique":
        return top if len(top) == 1 else []
    return [q for q in order if q in tot and q not in top]


def _unknown_selector(who: str) -> InvariantError:
    """The error of a recipient selector the engine does not know (the content loader admits only the
    selectors of docs §5.2, so this is a bug)."""
    return InvariantError(f"monolith_strategy: unknown recipient selector {who!r} (the content loader admits only "
                          "the selectors of docs §5.2)")


def recipients(R: Rules, s: StrategyState, ln: Line, ctx: dict) -> list | None:
    """Recipients of a line, or None when the actor must first pick an opponent (OPPONENT)."""
    who = ln.who
    if ctx["c"] == BOARD:
        return board_selector(R, s, who, ctx)
    order = R.order(s)
    if who == "self":
        return [ctx["actor"]]
    if who == "each_other":
        return [q for q in order if q != ctx["actor"]]
    if who == "chosen_opponent":
        return None
    if who == "all_players":
        return list(order)
    if who == "trailer":
        m = min(s.vp)
        return [q for q in order if s.vp[q] == m]
    raise _unknown_selector(who)


def opponent_pick(R: Rules, s: StrategyState, decider: int, eligible: list, then: dict) -> None:
    """Open an OPPONENT decision (or skip it when nobody is eligible: docs §4.20, a choice
    with no legal option is skipped)."""
    if not eligible:
        return
    s.pending = {"k": int(Kind.OPPONENT), "seat": decider, "elig": eligible, "then": then}


# ---------------------------------------------------------------------------------------------- conditions
def _cond_ok(R: Rules, s: StrategyState, ln: Line, ctx: dict, r: int) -> bool:
    if not ln.cond:
        return True
    faces = R.dice_on(s, ctx["where"]).get(r, []) if ctx["c"] == BOARD else []
    total = sum(faces)
    for name, k in ln.cond:
        if name == "fewest_vp":
            if any(s.vp[q] < s.vp[r] for q in range(R.n) if q != r):
                return False
        elif name == "total_min":
            if total < k:
                return False
        elif name == "total_max":
            if total > k:
                return False
        elif name == "total_eq":
            if total != k:
                return False
        elif name == "dice_min":
            if len(faces) < k:
                return False
        elif name == "pair":
            if len(set(faces)) == len(faces):
                return False
        elif name == "run":
            fs = set(faces)
            if not any(all(v + j in fs for j in range(k)) for v in range(1, 8 - k)):
                return False
        elif name == "all_even":
            if not faces or any(f % 2 for f in faces):
                return False
        elif name == "all_odd":
            if not faces or any(f % 2 == 0 for f in faces):
                return False
    return True


def amount(R: Rules, s: StrategyState, ln: Line, ctx: dict, r: int) -> int:
    """``n × scale``, capped at ``max`` (docs §5.2)."""
    sc = ln.scale
    if sc == "flat":
        m = 1
    elif sc == "per_shared_card":
        m = 0
        for pos in range(1, 14):
            here = R.dice_on(s, pos)
            if r in here and len(here) > 1:
                m += 1
    else:
        faces = R.dice_on(s, ctx["where"]).get(r, [])
        if sc == "per_die":
            m = len(faces)
        elif sc == "per_pair":
            m = sum(faces.count(f) // 2 for f in set(faces))
        else:
            m = sum(faces) // ln.k
    a = ln.n * m
    return min(a, ln.max) if ln.max else a


def guarded(s: StrategyState, v: int, ctx: dict) -> bool:
    """Guard (docs §4.13): on an attack card, a victim with a charge uses it up and is unaffected."""
    if ctx["atk"] and s.guard[v] > 0:
        s.guard[v] -= 1
        return True
    return False


# ---------------------------------------------------------------------------------------------- line tasks
def t_line(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Task ``line``: its recipients (OPPONENT first for chosen_opponent), then ``rcp`` for each (docs §4.9)."""
    rec = t["rec"]
    if type(rec) is list and t["i"] >= len(rec):  # every recipient done
        return
    ln = get_line(R, t["src"])
    if rec is None:
        ctx = t["ctx"]
        rec = board_selector(R, s, ln.who, ctx) if ctx["c"] == BOARD else recipients(R, s, ln, ctx)
        if rec is None:  # chosen_opponent: the actor picks (docs §5.2)
            actor = t["ctx"]["actor"]
            then = dict(t, rec="opp")
            opponent_pick(R, s, actor, [q for q in R.order(s) if q != actor], then)
            if s.pending is not None:
                s.pending["src"] = t["src"]
            return
        t["rec"] = rec
    elif rec == "opp":
        t["rec"] = rec = [t.pop("opp")]
    tasks, src, ctx, nrec = s.tasks, t["src"], t["ctx"], len(rec)
    run_task = ENGINE_TASKS
    while True:
        i = t["i"]
        if i >= nrec:
            return
        t["i"] = i + 1  # the popped task is pushed back as the continuation (nothing else holds it)
        tasks.append(t)
        # the ``rcp`` task runs at once: pushing it would pop it next, with no decision open in between
        _rcp(R, s, {"t": "rcp", "src": src, "ctx": ctx, "r": rec[i], "nrec": nrec}, ln, rng)
        # so do the tasks it pushed, popped as ``flow.run`` pops them, and then the continuation once it is
        # back on top: with no decision open in between, the stack at every decision is the same
        while s.pending is None and not s.terminal:
            if not tasks:
                return
            top = tasks[-1]
            if top is t:
                break
            tasks.pop()
            run_task[top["t"]](R, s, top, rng)
        else:
            return
        tasks.pop()


def t_rcp(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Condition, then cost (docs §4.10, §4.9), then the op (at once when there is no cost: the same as
    pushing the ``op`` task, which would be popped next)."""
    _rcp(R, s, t, get_line(R, t["src"]), rng)


def _rcp(R: Rules, s: StrategyState, t: dict, ln: Line, rng) -> None:
    r = t["r"]
    if ln.cond and not _cond_ok(R, s, ln, t["ctx"], r):
        return
    op = t  # becomes the ``op`` task: the record is fresh or popped, nothing else holds it
    op["t"] = "op"
    if ln.cost:
        offer(R, s, r, ln.cost, "cost", op, None, src=t["src"])
        return
    _op(R, s, op, ln, rng)  # _op_src, without its call
    pd = s.pending
    if pd is not None and pd.get("src") is None:
        pd["src"] = op["src"]


def _victims(R: Rules, s: StrategyState, ln: Line, ctx: dict, r: int) -> list:
    fr = ln.from_
    if fr == "each_other":
        return [q for q in R.order(s) if q != ctx["actor"]]
    return board_selector(R, s, fr, ctx)


def t_op(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Amount, Guard, then the op (docs §4.9); a decision it opens records the source card."""
    _op_src(R, s, t, get_line(R, t["src"]), rng)


def _op_src(R: Rules, s: StrategyState, t: dict, ln: Line, rng) -> None:
    _op(R, s, t, ln, rng)
    pd = s.pending
    if pd is not None and pd.get("src") is None:
        pd["src"] = t["src"]


_GUARDED_OPS = frozenset(("lose_vp", "lose_gems", "discard", "exile_die"))  # Guard applies (docs §4.13)


def _op(R: Rules, s: StrategyState, t: dict, ln: Line, rng) -> None:
    ctx, r = t["ctx"], t["r"]
    op = ln.op
    if ln.scale == "flat":  # amount() of a flat line, without its call
        a = ln.n
        if ln.max and a > ln.max:
            a = ln.max
    else:
        a = amount(R, s, ln, ctx, r)
    if op in _GUARDED_OPS and guarded(s, r, ctx):
        return
    if op == "gain_vp":
        if a > 0:
            s.tasks.append({"t": "vp", "p": r, "left": a, "rv": False})
    elif op == "lose_vp":
        s.vp[r] = max(0, s.vp[r] - a)
    elif op == "gain_gems":
        x = min(a, s.source_gems)
        s.source_gems -= x
        s.gems[r] += x
    elif op == "lose_gems":
        x = min(a, s.gems[r])
        s.gems[r] -= x
        s.source_gems += x
    elif op in ("steal_vp", "steal_gems"):
        if "opp" in t:
            vs = [t["opp"]]
        elif ln.from_ == "chosen_opponent":
            if ctx["c"] == BOARD:
                here = R.dice_on(s, ctx["where"])
                elig = [q for q in R.order(s) if q != r and q not in here]
            else:
                elig = [q for q in R.order(s) if q != r]
            opponent_pick(R, s, r, elig, dict(t))
            return
        else:
            vs = _victims(R, s, ln, ctx, r)
        name = "steal_vp1" if op == "steal_vp" else "steal_gems1"
        for v in reversed(vs):
            s.tasks.append({"t": name, "r": r, "v": v, "a": a, "atk": ctx["atk"]})
    elif op == "draw":
        deck = s.skill_deck if ln.deck == "skill" else s.power_deck
        got = 0
        for _ in range(min(a, len(deck))):
            s.hand[r][deck.pop(0)] += 1
            got += 1
        if got:
            s.tasks.append({"t": "hlimit", "p": r})
    elif op == "discard":
        x = min(a, R.hand_size(s, r))
        if x:
            s.tasks.append({"t": "discard", "p": r, "left": x, "src": t["src"]})
    elif op == "gain_die":
        for _ in range(min(a, s.src_dice[r])):
            s.src_dice[r] -= 1
            s.pool[r][int(rng.integers(1, 7)) - 1] += 1
    elif op == "exile_die":
        pool = s.pool[r]
        for _ in range(a):
            f = next((f for f in range(5, -1, -1) if pool[f]), -1)
            if f < 0:
                break
            pool[f] -= 1
            s.aside[r] += 1
    elif op == "reroll":
        if ln.which == "all":
            pool = s.pool[r]
            k = sum(pool)
            for f in range(6):
                pool[f] = 0
            for _ in range(k):
                pool[int(rng.integers(1, 7)) - 1] += 1
        else:
            _face_src(R, s, r, 0, {"mode": "reroll"})
    elif op == "set_face":
        if ln.where == "socketed":
            opts = [sid for sid, f in R.own_socketed(s, r, reserved=True) if f != ln.face]
            if opts:
                s.pending = {"k": int(Kind.SOCKET_SRC), "seat": r, "opts": opts, "mode": "set", "face": ln.face}
        elif ln.which == "chosen":
            _face_src(R, s, r, ln.face, {"mode": "set" if ln.face else "set_any", "face": ln.face})
        else:
            if r != ctx["actor"] and guarded(s, r, ctx):
                return
            pool = s.pool[r]
            rng_f = range(5, -1, -1) if ln.which == "highest" else range(6)
            f = next((f for f in rng_f if pool[f]), -1)
            if f >= 0 and f != ln.face - 1:
                pool[f] -= 1
                pool[ln.face - 1] += 1
    elif op == "adjust_face":
        _face_src(R, s, r, 0, {"mode": "adjust"})
    elif op == "extra_placement":
        if s.phase == Phase.ACTION and s.turn["player"] == r:
            s.turn["left"] += a
    elif op == "move_die":
        opts = move_sources(R, s, r)
        if opts:
            s.pending = {"k": int(Kind.SOCKET_SRC), "seat": r, "opts": opts, "mode": "move"}
    elif op == "block_socket":
        s.tasks.append({"t": "block", "p": r, "left": a, "src": t["src"]})
    elif op == "take_primus":
        if t["nrec"] == 1 and not s.primus_locked and not R.solo:
            s.primus = r
            if ln.lock:
                s.primus_locked = True
    elif op == "guard":
        s.guard[r] += a
    elif op == "stack":
        if s.phase == Phase.ACTION and s.turn["player"] == r:
            s.turn["stack_ready"] = True
    elif op == "secret_rune":
        look = min(ln.look, len(s.rune_deck))
        if look and len(s.priv[r]) < 2:
            cands = s.rune_deck[:look]
            del s.rune_deck[:look]
            if look == 1:
                keep_rune(s, r, cands, 0)
            else:
                s.pending = {"k": int(Kind.RUNE_PICK), "seat": r, "cands": cands}
    elif op == "chase":
        best = max((s.vp[q] for q in range(R.n) if q != r), default=0)
        s.chase[r] = [min(R.victory, max(s.vp[r] + 2, best + 1)), ln.bonus]
    elif op == "auto_socket":
        pool = s.pool[r]
        f = next((f for f in range(6) if pool[f]), -1)
        sid = (s.rc_pos - 1) * 4 + r
        if f >= 0 and s.sock_seat[sid] < 0:
            pool[f] -= 1
            s.sock_seat[sid] = r
            s.sock_face[sid] = f + 1
    elif op == "extra_fate":
        pass  # applied by the setup itself (docs §4.15)
    else:  # pragma: no cover - the loader admits only the ops above
        raise InvariantError(f"monolith_strategy: unknown effect op {op!r} (the content loader admits only the ops "
                             "of docs §5.2)")


def keep_rune(s: StrategyState, p: int, cands: list, j: int) -> None:
    """Secrecy (docs §4.14): candidate ``j`` becomes p's next private Rune, the other goes to the bottom."""
    s.priv[p].append({"card": cands[j], "revealed": False, "occ": [0, 0, 0, 0]})
    for i, c in enumerate(cands):
        if i != j:
            s.rune_deck.append(c)


def move_sources(R: Rules, s: StrategyState, p: int) -> list:
    """SOCKET_SRC options of move_die: p's non-reserved socketed dice with at least one destination, as
    ``own_socketed`` lists them (board sockets ascending, then private ones).  A die's own socket is never
    among its destinations (it is occupied), so a die has one when its face may enter some empty socket
    (:func:`_face_has_room`, once per face)."""
    rows = R.geometry(s)[1]
    seat, face = s.sock_seat, s.sock_face
    dice = [(sid, face[sid]) for sid in range(52) if seat[sid] == p and not rows.get(sid, _NO_ROW)[1]]
    for slot, pr in enumerate(s.priv[p]):
        dice += [(PRIV0 + slot * 4 + i, f) for i, f in enumerate(pr["occ"]) if f]
    room: dict = {}
    out = []
    for sid, f in dice:
        ok = room.get(f)
        if ok is None:
            ok = room[f] = _face_has_room(R, s, p, f)
        if ok:
            out.append(sid)
    return out


def _face_has_room(R: Rules, s: StrategyState, p: int, f: int) -> bool:
    """``bool(R.available(s, p, f, stacker=False))``: an empty, unblocked open board socket or an empty private
    socket of p takes a die showing ``f``."""
    seat, blocked = s.sock_seat, s.blocked
    if any(seat[sid] < 0 and not blocked[sid] for sid in R.geometry(s)[3][f - 1]):
        return True
    board = R.content.board
    for pr in s.priv[p]:
        occ = pr["occ"]
        if any(not occ[i] and (not req or req == f) for i, req in enumerate(board[pr["card"]].sockets)):
            return True
    return False


def has_move_source(R: Rules, s: StrategyState, p: int) -> bool:
    """``bool(move_sources(R, s, p))`` without listing them (move_die castability, docs §4.12): some face
    among p's non-reserved socketed dice has an empty socket it may enter.  A die's own socket is never
    among its destinations (it is occupied), so a destination is any socket ``available`` lists."""
    geo = R.geometry(s)
    rows = geo[1]
    seat, face = s.sock_seat, s.sock_face
    faces = {face[sid] for sid in range(52) if seat[sid] == p and not rows.get(sid, _NO_ROW)[1]}
    for pr in s.priv[p]:
        faces.update(f for f in pr["occ"] if f)
    return any(_face_has_room(R, s, p, f) for f in faces)


_NO_ROW = (None, False)  # geometry rows entry of a socket that does not exist


def _face_src(R: Rules, s: StrategyState, p: int, fixed: int, extra: dict) -> None:
    opts = [f + 1 for f in range(6) if s.pool[p][f] and f + 1 != fixed]
    if opts:
        s.pending = {"k": int(Kind.FACE_SRC), "seat": p, "opts": opts, **extra}


def t_steal_vp1(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Task ``steal_vp1``: v loses up to ``a`` VP, r gains them over the tolls; Guard on attacks (docs §4.10, §4.13)."""
    v, r = t["v"], t["r"]
    if t["atk"] and s.guard[v] > 0:
        s.guard[v] -= 1
        return
    x = min(t["a"], s.vp[v])
    s.vp[v] -= x
    if x:
        s.tasks.append({"t": "vp", "p": r, "left": x, "rv": False})


def t_steal_gems1(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Task ``steal_gems1``: up to ``a`` of v's gems go to r; Guard on attack cards (docs §4.10, §4.13)."""
    v, r = t["v"], t["r"]
    if t["atk"] and s.guard[v] > 0:
        s.guard[v] -= 1
        return
    x = min(t["a"], s.gems[v])
    s.gems[v] -= x
    s.gems[r] += x


def t_hlimit(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Hand limit (docs §4.12): discard down to the limit at once."""
    p = t["p"]
    over = R.hand_size(s, p) - R.hand_limit
    if over > 0:
        s.pending = {"k": int(Kind.DISCARD), "seat": p, "then": {"t": "hlimit", "p": p}, "owed": over}


def t_discard(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Task ``discard``: a DISCARD for each of the ``left`` cards p must discard while p holds any (docs §4.12)."""
    p, left = t["p"], t["left"]
    if left > 0 and R.hand_size(s, p) > 0:
        then = {"t": "discard", "p": p, "left": left - 1, "src": t["src"]}
        s.pending = {"k": int(Kind.DISCARD), "seat": p, "then": then, "owed": left, "src": t["src"]}


def t_block(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Task ``block``: a SOCKET_BLOCK for each of the ``left`` blocks while a socket is blockable (docs §5.2, §6.2)."""
    if t["left"] > 0 and R.blockable(s):
        s.pending = {"k": int(Kind.SOCKET_BLOCK), "seat": t["p"], "then": dict(t, left=t["left"] - 1),
                     "src": t["src"]}


def discard_card(R: Rules, s: StrategyState, p: int, k: int) -> None:
    """Discard one copy of kind k (a cast copy first, docs §4.12) to its pile; a cast Player Power also
    leaves the queue."""
    if s.cast[p][k]:
        s.cast[p][k] -= 1
        if R.is_pp[k]:
            s.pp_queue.remove([p, k])
    else:
        s.hand[p][k] -= 1
    to_pile(R, s, k)


def to_pile(R: Rules, s: StrategyState, k: int) -> None:
    """One card of kind k goes to its discard pile; a Player Power leaves the game (docs §4.12)."""
    if R.is_skill[k]:
        s.skill_discard[k] += 1
    elif R.is_power[k]:
        s.power_discard[k] += 1
    else:
        s.pp_gone[k] += 1


def place_private_reveal(s: StrategyState, p: int, sid: int) -> None:
    """A die placed on p's private socket ``sid`` (52-59) reveals that private Rune (docs §4.14)."""
    if sid >= PRIV0:
        s.priv[p][(sid - PRIV0) // 4]["revealed"] = True


#: every task of the engine by name (``flow.TASKS``, which fills it): what ``t_line`` runs at once
ENGINE_TASKS: dict = {}

TASKS = {
    "line": t_line, "rcp": t_rcp, "op": t_op, "steal_vp1": t_steal_vp1, "steal_gems1": t_steal_gems1,
    "hlimit": t_hlimit, "discard": t_discard, "block": t_block,
}

from .payments import offer  # noqa: E402  (payments imports this module's helpers first)
