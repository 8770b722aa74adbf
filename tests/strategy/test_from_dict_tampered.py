"""from_dict of a tampered state: a StateError naming the field, never a traceback or a silent wrong state
(docs/monolith_strategy.md §2.3)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from monolith_envs.core.state import StateError
from monolith_envs.strategy import StrategyGame


@pytest.fixture(scope="module")
def played():
    g = StrategyGame({"num_players": 2})
    rng = np.random.default_rng(3)
    s = g.initial_state(rng)
    for _ in range(30):
        g.apply(s, int(rng.choice(g.legal_list(s))), rng)
    return g, g.to_dict(s)


def test_round_trip_still_reads(played):
    g, d = played
    assert g.to_dict(g.from_dict(copy.deepcopy(d))) == d


CASES = [
    ("vp str", lambda d: d["vp"].__setitem__(0, "3"), "state.vp[0]"),
    ("vp 99", lambda d: d["vp"].__setitem__(0, 99), "state.vp[0]"),
    ("board short", lambda d: d["board"].pop(), "state.board"),
    ("board 999", lambda d: d["board"].__setitem__(7, 999), "state.board[7]"),
    ("pending kind", lambda d: d["pending"].__setitem__("k", 99), "state.pending['k']"),
    ("pending seat", lambda d: d["pending"].__setitem__("seat", 5), "state.pending['seat']"),
    ("unknown task", lambda d: d["tasks"].append({"t": "nonsense"}), "state.tasks"),
    ("half task", lambda d: d["tasks"].append({"t": "line"}), "needs the key(s)"),
    ("turn player", lambda d: d["turn"].__setitem__("player", 5), "state.turn['player']"),
    ("extra key", lambda d: d.__setitem__("zzz", 1), "unknown field"),
    ("face 9", lambda d: d["sock_face"].__setitem__(0, 9), "state.sock_face[0]"),
    ("priv card", lambda d: d["priv"][0].append({"card": 999, "revealed": False, "occ": [0, 0, 0, 0]}),
     "state.priv[0][0]['card']"),
    ("hand huge", lambda d: d["hand"][0].__setitem__(0, 10**9), "state.hand[0][0]"),
    ("terminal", lambda d: d.__setitem__("terminal", True), "state.phase"),
]


@pytest.mark.parametrize("label,edit,named", CASES, ids=[c[0] for c in CASES])
def test_tampered_state_is_a_clear_state_error(played, label, edit, named):
    g, d = played
    d = copy.deepcopy(d)
    edit(d)
    with pytest.raises(StateError) as exc:
        g.from_dict(d)
    assert named in str(exc.value)


def test_every_engine_task_has_its_key_list():
    from monolith_envs.strategy.flow import TASKS
    from monolith_envs.strategy.state_check import TASK_KEYS

    assert set(TASK_KEYS) == set(TASKS)
