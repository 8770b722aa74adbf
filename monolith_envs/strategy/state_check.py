"""The schema of a serialised :class:`~monolith_envs.strategy.state.StrategyState` for one game
(docs/monolith_strategy.md §2.3), checked by ``StrategyGame.from_dict``.

:func:`schema` gives every field's type, list length and range (lengths and bounds follow the player count
and the content), checked by :func:`monolith_envs.core.state_schema.load_state`; :func:`cross_check` adds
what one field alone cannot say: the open decision and the work stack name known kinds and tasks, seats
exist, the docs §9 invariants hold, and the engine can read the state (its legal actions, and one legal
action applied to a copy).  Every problem is a :class:`~monolith_envs.core.state.StateError` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.config import C_INT_MAX
from ..core.state import StateError
from ..core.state_schema import Bool, Choice, Int, List, Spec, check_invariants, probe_state, state_error
from .state import Flow, Kind, Phase, Side, StrategyState

__all__ = ["schema", "cross_check", "check_records", "check_pending", "check_decider", "fixed_decider"]

_BIG = 10**6  # bound of counters without a rule limit (Guard charges, extra placements, gem values)


@dataclass(frozen=True)
class Opt(Spec):
    """``None`` or a value of ``item``."""

    item: Spec

    def check(self, v: Any, path: str) -> None:
        """``None`` passes; any other value must fit ``item`` (StateError naming ``path``)."""
        if v is not None:
            self.item.check(v, path)


@dataclass(frozen=True)
class Record(Spec):
    """A dict with string keys; ``fields`` (name -> spec) must all be present and valid, others are free
    (the engine's task and decision records, checked further by :func:`cross_check`)."""

    fields: tuple = ()

    def check(self, v: Any, path: str) -> None:
        """Raise StateError naming ``path`` unless ``v`` is a dict with string keys in which every ``fields`` entry
        is present and valid."""
        if type(v) is not dict or not all(type(k) is str for k in v):
            raise state_error(path, v, "a record (a dict with string keys)")
        for name, spec in self.fields:
            if name not in v:
                raise StateError(f"{path}: missing key {name!r}")
            spec.check(v[name], f"{path}[{name!r}]")


def _enum(e) -> Int:
    """The values of an IntEnum (consecutive from 0; read back as enum members or plain ints)."""
    return Int(0, max(int(x) for x in e))


def schema(game: Any) -> dict[str, Spec]:
    """Field -> spec for ``game`` (a :class:`~monolith_envs.strategy.game.StrategyGame`)."""
    R = game.rules
    n, K, C = R.n, R.K, R.C
    seat, gems, dice = Int(0, n - 1), Int(0, R.total_gems), Int(0, R.dpp)
    count = Int(0, 64)  # copies of one kind (the content allows at most 8)
    per_kind = List(List(count, K), n)
    rounds = R.content.rounds
    return {
        "n": Choice((n,)),
        "round": Int(1, rounds),
        "phase": _enum(Phase),
        "flow": _enum(Flow),
        "pending": Opt(Record((("k", _enum(Kind)), ("seat", seat)))),
        "tasks": List(Record((("t", Choice(tuple(_task_names()))),)), max_len=10_000),
        "primus": seat,
        "primus_locked": Bool(),
        "source_gems": gems,
        "vp": List(Int(0, R.victory), n),
        "gems": List(gems, n),
        "pool": List(List(dice, 6), n),
        "src_dice": List(dice, n),
        "aside": List(dice, n),
        "board": List(Int(-1, C - 1), 14),
        "rc_round": Int(0, rounds),
        "rc_pos": Int(0, 13),
        "rc_side": _enum(Side),
        "sock_seat": List(Int(-1, n - 1), 52),
        "sock_face": List(Int(0, 6), 52),
        "blocked": List(Bool(), 52),
        "priv": List(List(Record((("card", Int(0, C - 1)), ("revealed", Bool()), ("occ", List(Int(0, 6), 4)))),
                          max_len=2), n),
        "hand": per_kind,
        "cast": per_kind,
        "pp_queue": List(List(Int(0, max(n, K) - 1), 2), max_len=n),
        "skill_deck": List(Int(0, K - 1), max_len=R.skill_total),
        "power_deck": List(Int(0, K - 1), max_len=R.power_total),
        "rune_deck": List(Int(0, C - 1), max_len=R.rune_total),
        "skill_discard": List(count, K),
        "power_discard": List(count, K),
        "pp_gone": List(count, K),
        "pp_out": List(Int(0, K - 1), max_len=K),
        "guard": List(Int(0, _BIG), n),
        "chase": List(Opt(_ChaseMarker(R.victory)), n),
        "turn": Record((("player", seat), ("left", Int(0, _BIG)), ("socketed", Bool()),
                        ("mandatory_done", Bool()), ("stack_ready", Bool()))),
        "reveal": List(Opt(Record()), n),
        "decisions": Int(0, C_INT_MAX),
        "winner": Int(-1, n - 1),
        "terminal": Bool(),
        "ranking": List(List(Int(0, _BIG), 3), max_len=n),
    }


def _task_names() -> list:
    from .flow import TASKS

    return sorted(TASKS)


# keys each task record must carry (what the task functions of flow.TASKS read; docs §4.20 work stack)
_CTX = ("c", "actor", "where", "atk")
TASK_KEYS = {
    "block": ("left", "p", "src"), "bonus": ("p",), "chase_check": (), "discard": ("left", "p", "src"),
    "hlimit": ("p",), "line": ("ctx", "i", "rec", "src"), "op": ("ctx", "r", "src", "nrec"), "pp_fire": ("k", "p"),
    "pp_leave": ("k", "p"), "rcp": ("ctx", "r", "src", "nrec"), "res_pos": ("pos",), "res_priv": ("i", "list"), "res_ret": ("where",),
    "reveal_end": ("p",), "reveal_p": ("p",), "steal_gems1": ("a", "atk", "r", "v"),
    "steal_vp1": ("a", "atk", "r", "v"), "turn": (), "vp": ("left", "p", "rv"), "vp_step": ("left", "p", "rv"),
}


def _check_tasks(n: int, tasks: list, where: str = "") -> None:
    for i, t in enumerate(tasks):
        path = where or f"state.tasks[{i}]"
        need = TASK_KEYS.get(t["t"])
        if need is None:  # a task the engine has but this table does not know: leave it to the probe
            continue
        missing = [k for k in need if k not in t]
        if missing:
            raise StateError(f"{path}: a {t['t']!r} task needs the key(s) {', '.join(missing)}")
        for k in ("p", "r", "v"):
            if k in t and not (type(t[k]) is int and 0 <= t[k] < n):
                raise state_error(f"{path}[{k!r}]", t[k], f"a seat from 0 to {n - 1}")
        ctx = t.get("ctx")
        if ctx is not None and (type(ctx) is not dict or any(k not in ctx for k in _CTX)):
            raise state_error(f"{path}['ctx']", ctx, "a context record with keys " + ", ".join(_CTX))


_SRC_TYPES = ("a", "b", "x")  # action card, board card, Round card (effects.get_line)
_MODES = {int(Kind.FACE_SRC): ("reroll", "set", "set_any", "adjust"), int(Kind.SOCKET_SRC): ("set", "move")}
_PURPOSES = ("toll", "cost", "reveal")
_SOCKETS = 60  # board sockets 0..51 and private sockets 52..59 (the choose_socket family)


def _pending_keys(R) -> dict:
    """Kind -> ((key, spec, required), ...): every key a pending decision of that kind may hold."""
    n, C = R.n, R.C
    seat, face, sid = Int(0, n - 1), Int(1, 6), Int(0, _SOCKETS - 1)
    faces = List(face, min_len=1, max_len=6)
    return {
        int(Kind.BONUS): (), int(Kind.SIDE): (), int(Kind.TURN): (),
        int(Kind.OPPONENT): (("elig", List(seat, min_len=1, max_len=n), True), ("then", _TASK, True)),
        int(Kind.FACE_SRC): (("opts", faces, True), ("mode", Choice(_MODES[int(Kind.FACE_SRC)]), True),
                             ("face", Int(0, 6), False)),
        int(Kind.FACE_NEW): (("src_face", face, True), ("opts", faces, True)),
        int(Kind.SOCKET_SRC): (("opts", List(sid, min_len=1, max_len=_SOCKETS), True),
                               ("mode", Choice(_MODES[int(Kind.SOCKET_SRC)]), True), ("face", face, False)),
        int(Kind.SOCKET_DST): (("from_sid", sid, True), ("face", face, True),
                               ("opts", List(sid, max_len=_SOCKETS), True)),
        int(Kind.SOCKET_BLOCK): (("then", _TASK, True),),
        int(Kind.RUNE_PICK): (("cands", List(Int(0, C - 1), 2), True),),
        **{int(k): (("amount", Int(1, _BIG), True), ("rem", Int(1, _BIG), True),
                    ("purpose", Choice(_PURPOSES), True), ("stone", Int(-1, 3), True), ("then", _TASK, True),
                    ("other", Opt(_TASK), True)) for k in (Kind.PAY_OFFER, Kind.PAY_MORE)},
        int(Kind.DISCARD): (("then", _TASK, True), ("owed", Int(1, _BIG), True)),
        int(Kind.REVEAL_COUNT): (("kmax", Int(1, 6), True),),
        int(Kind.REVEAL_SRC): (("rem", Int(1, _BIG), True),),
    }


@dataclass(frozen=True)
class _Task(Spec):
    """A work-stack task record: a dict whose ``t`` names a task of the engine."""

    def check(self, v: Any, path: str) -> None:
        Record((("t", Choice(tuple(_task_names()))),)).check(v, path)


_TASK = _Task()


class _ChaseMarker(Spec):
    """A chase record ``[marker space, bonus]`` (docs §4.15): the space is on the track (0 .. victory), the bonus
    a line's ``bonus`` (1 .. 10, which a short content track may exceed)."""

    def __init__(self, victory: int):
        self.parts = (Int(0, victory), Int(1, 10))

    def check(self, v: Any, path: str) -> None:
        if type(v) is not list or len(v) != 2:
            raise state_error(path, v, "None or [marker space, bonus]")
        for i, (x, spec) in enumerate(zip(v, self.parts)):
            spec.check(x, f"{path}[{i}]")


class _Any(Spec):
    """Any value (the engine probe of :func:`cross_check` reads it)."""

    def check(self, v: Any, path: str) -> None:
        return None


# a Final Scoring record (docs §4.18): the target, the gems earmarked so far, the earmarked items. The last
# earmark may pass the target (a whole card's gems, up to 6, when 1 was left): at most 5 + 6
_REVEAL = Record((("target", Int(1, 6)), ("marked", Int(0, 11)),
                  ("items", List(List(_Any(), min_len=2, max_len=4), max_len=64))))


def _check_src(R, src: Any, path: str) -> None:
    """``src``: ``None`` or ``[type, index, group, line]`` naming an effect line of the content."""
    if src is None:
        return
    if type(src) is not list or len(src) != 4 or src[0] not in _SRC_TYPES or type(src[2]) is not str:
        raise state_error(path, src, "None or [type, index, group, line] with type 'a', 'b' or 'x'")
    typ, i, grp, li = src
    cards = {"a": R.content.actions, "b": R.content.board, "x": R.content.round_cards}[typ]
    Int(0, min(len(cards), R.K if typ == "a" else R.C if typ == "b" else 5) - 1).check(i, f"{path}[1]")
    lines = getattr(cards[i], grp, None) if grp in ("effect", "start", "resolve") else None
    if not isinstance(lines, (list, tuple)):
        raise state_error(f"{path}[2]", grp, "a group of effect lines of that card")
    Int(0, len(lines) - 1).check(li, f"{path}[3]")


def check_pending(R, pd: Any, path: str = "state.pending") -> None:
    """The open decision ``pd`` (docs §6.2): its kind and decider, then exactly the keys its kind holds,
    each of its type and range (option ids, faces, sockets, amounts), and the tasks it continues with.

    Raises:
        StateError: naming the key (e.g. ``state.pending['opts'][0]``) and what is allowed.
    """
    if pd is None:
        return
    keys = _pending_keys(R)
    k = pd.get("k")
    if k not in keys or type(k) is not int:
        raise state_error(f"{path}['k']", k, f"a decision kind from 1 to {max(keys)}")
    allowed = {"k", "seat", "src"} | {name for name, _, _ in keys[k]}
    unknown = sorted(set(pd) - allowed)
    if unknown:
        raise StateError(f"{path}: unknown key(s) {', '.join(map(repr, unknown))} for a {Kind(k).name} "
                         f"decision; allowed: {', '.join(sorted(allowed))}")
    for name, spec, required in keys[k]:
        if name in pd:
            spec.check(pd[name], f"{path}[{name!r}]")
        elif required:
            raise StateError(f"{path}: a {Kind(k).name} decision needs the key {name!r}")
    _check_src(R, pd.get("src"), f"{path}['src']")
    if "rem" in pd and "amount" in pd and pd["rem"] > pd["amount"]:
        raise state_error(f"{path}['rem']", pd["rem"], f"at most the amount {pd['amount']}")
    if pd.get("mode") == "set" and not pd.get("face"):
        raise StateError(f"{path}: a 'set' decision needs a face from 1 to 6")
    for name in ("opts", "elig", "cands"):
        if name in pd and len(set(pd[name])) != len(pd[name]):
            raise state_error(f"{path}[{name!r}]", pd[name], "distinct options")
    for name in ("then", "other"):
        if isinstance(pd.get(name), dict):
            _check_tasks(R.n, [pd[name]], f"{path}[{name!r}]")


def cross_check(game: Any, s: StrategyState) -> None:
    """Checks across fields of a state whose fields passed :func:`schema`.

    Raises:
        StateError: a Player Power queue entry naming no seat, ``terminal`` disagreeing with the phase, a
            malformed pending decision (:func:`check_pending`), a broken docs §9 invariant, or a state the
            engine cannot read (:func:`~monolith_envs.core.state_schema.probe_state`: no legal action in a
            live game, an observation out of bounds, records the engine refuses), or a decider, phase or turn
            record that the rest of the state contradicts (:func:`check_decider`).
    """
    check_records(game, s)
    check_decider(game, s)
    check_invariants(game, s)
    probe_state(game, s)


def check_records(game: Any, s: StrategyState) -> None:
    """The checks of :func:`cross_check` before the invariants: the Player Power queue, ``terminal`` against
    the phase, the pending decision, the work stack and the final-reveal records.

    Raises:
        StateError: naming the field and what is allowed.
    """
    for i, (p, _) in enumerate(s.pp_queue):
        if p >= game.rules.n:
            raise state_error(f"state.pp_queue[{i}][0]", p, f"a seat from 0 to {game.rules.n - 1}")
    if s.terminal != (s.phase == Phase.OVER):
        raise state_error("state.phase", s.phase, f"{int(Phase.OVER)} (OVER) exactly when state.terminal is true")
    if (s.pending is None) != s.terminal:
        raise state_error("state.pending", s.pending, "an open decision exactly when the game is not over")
    check_pending(game.rules, s.pending)
    _check_tasks(game.rules.n, s.tasks)
    for p, rv in enumerate(s.reveal):
        if rv is not None:
            _REVEAL.check(rv, f"state.reveal[{p}]")


# the phases of the round outline in which each flow step can be the next one (docs §4.1; flow.FLOW)
_FLOW_PHASES = {Flow.BONUS: (Phase.SETUP,), Flow.ROUND_CARD: (Phase.SETUP,),
                Flow.CHANCE: (Phase.SETUP, Phase.ADVANCEMENT), Flow.EXALTED_START: (Phase.ACTION,),
                Flow.ACTION: (Phase.ACTION,), Flow.PRE: (Phase.ACTION,),
                Flow.RESOLUTION: (Phase.RESOLUTION,), Flow.ADVANCE: (Phase.RESOLUTION,),
                Flow.FINAL: (Phase.RESOLUTION,), Flow.ADVANCE_REST: (Phase.ADVANCEMENT,), Flow.END: (Phase.FINAL,)}
# the (phase, flow) pairs in which a decision kind can be open; effect decisions (OPPONENT .. DISCARD) may
# come from any card line, bonus or toll, so they are left to the checks of their own records
_KIND_AT = {Kind.BONUS: ((Phase.SETUP, Flow.ROUND_CARD),),
            Kind.SIDE: ((Phase.SETUP, Flow.CHANCE), (Phase.ADVANCEMENT, Flow.ADVANCE_REST)),
            Kind.TURN: ((Phase.ACTION, Flow.PRE),),
            Kind.REVEAL_COUNT: ((Phase.FINAL, Flow.END),), Kind.REVEAL_SRC: ((Phase.FINAL, Flow.END),)}


def _by_queue(R, s, task: str, skip: int) -> tuple:
    """The seat whose ``task`` (``bonus``, ``reveal_p``) has run last: these tasks are pushed for the seats in turn
    order from the Primus holder (the first ``skip`` left out), so the ones still on the work stack are the
    seats after it.  Returns ``(seat or None, seats still queued)``."""
    order = R.order(s)[skip:]
    queued = [t["p"] for t in s.tasks if t["t"] == task]
    k = len(order) - len(queued) - 1
    if k < 0 or queued != order[k + 1:][::-1]:
        return None, queued
    return order[k], queued


def fixed_decider(game, s: StrategyState):
    """The seat that the rules make decide the open decision, from the rest of the state (docs §3, §4.2, §4.6,
    §4.10-4.12, §4.18), or None where the state does not fix it (a choice inside a card line names its
    recipient from the line's context, which a record no longer holds once the line ran).

    Raises:
        StateError: the record the seat is read from does not fit the decision (naming the field).
    """
    return _decider(game, s)[0]


def _decider(game, s: StrategyState) -> tuple:
    """``(seat or None, where the rules read it)`` for :func:`fixed_decider`."""
    R, pd = game.rules, s.pending
    k, phase, flow = pd["k"], s.phase, s.flow
    if k == Kind.TURN:
        return s.turn["player"], "the turn player, state.turn['player']"
    if k == Kind.SIDE:
        return s.primus, "the Primus holder, state.primus"
    if phase == Phase.SETUP and flow == Flow.ROUND_CARD or phase == Phase.FINAL:
        task, skip = ("bonus", 1) if phase == Phase.SETUP else ("reveal_p", 0)
        seat, queued = _by_queue(R, s, task, skip)
        if seat is None:
            raise state_error("state.tasks", s.tasks, f"{task!r} tasks for the seats after the decider in turn "
                              f"order from the Primus holder {s.primus} (it holds them for {queued})")
        return seat, (f"the seat before those of the {len(queued)} {task!r} task(s) left in state.tasks, in turn "
                      f"order from the Primus holder {s.primus}")
    then = pd.get("then")
    if k in (Kind.DISCARD, Kind.SOCKET_BLOCK, Kind.PAY_OFFER, Kind.PAY_MORE, Kind.OPPONENT) and type(then) is dict:
        # the continuation names the seat it acts for: "p" (hlimit, discard, block, vp_step), "r" (an op
        # whose cost is paid or whose opponent is picked), or the actor of a line that picks an opponent
        if then["t"] == "line":
            ctx = then.get("ctx")
            if type(ctx) is dict and type(ctx.get("actor")) is int:
                return ctx["actor"], "the actor of the line it continues, state.pending['then']['ctx']['actor']"
            return None, ""
        for key in ("p", "r"):
            if type(then.get(key)) is int:
                return then[key], f"the seat its continuation acts for, state.pending['then'][{key!r}]"
    return None, ""


def check_decider(game, s: StrategyState) -> None:
    """Who decides now, in which phase, and the turn record agree with the rest of the state: the flow step
    fits the phase (docs §4.1), a decision kind is open only where the round outline opens it, the decider is
    the seat the rules make decide it (:func:`fixed_decider`), and the turn counters (docs §4.6): a turn that
    has not made its compulsory placement has one left, no turn counters outside the Action Phase, the TURN
    decision has no pending work under it and an effect inside a turn has its ``turn`` task under it.

    Not checked (the state does not keep who an effect was for once it has run): the seat of a card
    effect's own choices (``FACE_SRC``, ``FACE_NEW``, ``SOCKET_SRC``, ``SOCKET_DST``, ``RUNE_PICK``); turn
    flags (``mandatory_done``, ``socketed``, ``stack_ready``) edited into a combination play can reach; the
    Primus changed outside the decisions that derive from it. Such a state plays on consistently.

    Raises:
        StateError: naming the field (``state.pending['seat']``, ``state.turn['left']``, ``state.flow``, ...)
            and what the rest of the state allows.
    """
    if s.terminal:
        return
    phase, flow, pd, tn = s.phase, s.flow, s.pending, s.turn
    if phase not in _FLOW_PHASES[flow]:
        raise state_error("state.flow", flow, f"a step of the {Phase(phase).name} phase (state.phase = {int(phase)}): "
                          + ", ".join(f"{int(f)} ({f.name})" for f, ph in _FLOW_PHASES.items() if phase in ph))
    k = pd["k"]
    at = _KIND_AT.get(Kind(k))
    if at is not None and (phase, flow) not in at:
        raise state_error("state.pending['k']", k, f"a decision of phase {Phase(phase).name} with next step "
                          f"{Flow(flow).name} ({Kind(k).name} is open only at " + ", ".join(
                              f"{Phase(a).name}/{Flow(b).name}" for a, b in at) + ")")
    if k in (Kind.REVEAL_COUNT, Kind.REVEAL_SRC) and (k == Kind.REVEAL_SRC) != (s.reveal[pd["seat"]] is not None):
        raise state_error(f"state.reveal[{pd['seat']}]", s.reveal[pd["seat"]],
                          "the reveal record of the decider at REVEAL_SRC, None at REVEAL_COUNT")
    if phase == Phase.ACTION and flow == Flow.PRE:  # a turn is in progress (flow.f_action .. f_pre)
        if k == Kind.TURN and s.tasks:
            raise state_error("state.tasks", s.tasks, "no pending work under the TURN decision")
        if k != Kind.TURN and not (s.tasks and s.tasks[0] == {"t": "turn"}):
            raise state_error("state.tasks", s.tasks, "the turn's {'t': 'turn'} task first (bottom) while an "
                              "effect inside a turn is decided")
        if not tn["mandatory_done"] and tn["left"] < 1:
            raise state_error("state.turn['left']", tn["left"], "1 or more before the compulsory placement "
                              "(mandatory_done is false)")
    elif phase != Phase.ACTION and (tn["left"] or tn["stack_ready"]):
        bad = "left" if tn["left"] else "stack_ready"
        raise state_error(f"state.turn[{bad!r}]", tn[bad], f"{0 if bad == 'left' else False} outside the Action "
                          "Phase (no turn is in progress)")
    want, why = _decider(game, s)
    if want is not None and pd["seat"] != want:
        raise state_error("state.pending['seat']", pd["seat"], f"{want}, the seat that decides {Kind(k).name} "
                          f"here: {why}")
    if k == Kind.OPPONENT and pd["seat"] in pd["elig"]:
        raise state_error("state.pending['elig']", pd["elig"], f"opponents of the decider {pd['seat']}")
