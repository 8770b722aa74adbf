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

import numpy as np

from ..core.config import C_INT_MAX
from ..core.game import InvariantError, MonolithEnvError
from ..core.state import StateError
from ..core.state_schema import Bool, Choice, Int, List, Spec, state_error
from .state import Flow, Kind, Phase, Side, StrategyState

__all__ = ["schema", "cross_check"]

_BIG = 10**6  # bound of counters without a rule limit (Guard charges, extra placements, gem values)


@dataclass(frozen=True)
class Opt(Spec):
    """``None`` or a value of ``item``."""

    item: Spec

    def check(self, v: Any, path: str) -> None:
        if v is not None:
            self.item.check(v, path)


@dataclass(frozen=True)
class Record(Spec):
    """A dict with string keys; ``fields`` (name -> spec) must all be present and valid, others are free
    (the engine's task and decision records, checked further by :func:`cross_check`)."""

    fields: tuple = ()

    def check(self, v: Any, path: str) -> None:
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
        "chase": List(Opt(List(Int(0, R.victory), 2)), n),
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


def _check_tasks(n: int, tasks: list) -> None:
    for i, t in enumerate(tasks):
        path = f"state.tasks[{i}]"
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


def cross_check(game: Any, s: StrategyState) -> None:
    """Checks across fields of a state whose fields passed :func:`schema`.

    Raises:
        StateError: a Player Power queue entry naming no seat, ``terminal`` disagreeing with the phase, a
            broken docs §9 invariant, or records the engine cannot run (named with the engine's complaint).
    """
    for i, (p, _) in enumerate(s.pp_queue):
        if p >= game.rules.n:
            raise state_error(f"state.pp_queue[{i}][0]", p, f"a seat from 0 to {game.rules.n - 1}")
    if s.terminal != (s.phase == Phase.OVER):
        raise state_error("state.phase", s.phase, f"{int(Phase.OVER)} (OVER) exactly when state.terminal is true")
    _check_tasks(game.rules.n, s.tasks)
    try:
        game.check_invariants(s)
        if not s.terminal:
            legal = game.legal_list(s)
            probe = game.clone(s)
            game.apply(probe, legal[0], np.random.default_rng(0))
    except InvariantError as exc:
        raise StateError(f"state: {exc}") from None
    except MonolithEnvError as exc:
        raise StateError(f"state: the engine refuses this state: {exc}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise StateError(f"state.pending / state.tasks: malformed engine record ({type(exc).__name__}: {exc}); "
                         "allowed: records written by to_dict") from None
