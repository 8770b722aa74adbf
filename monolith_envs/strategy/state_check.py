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

__all__ = ["schema", "cross_check", "check_records", "check_pending"]

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
    "rcp": ("ctx", "r", "src", "nrec"), "res_pos": ("pos",), "res_priv": ("i", "list"), "res_ret": ("where",),
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
            live game, an observation out of bounds, records the engine refuses).
    """
    check_records(game, s)
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
