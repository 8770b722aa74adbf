"""The engine's fast paths equal their plain definitions at every decision of seeded random games
(docs/monolith_strategy.md §10): the cached board geometry (cut and joined at the Round card) against a
direct walk over the 13 positions, the face-by-face ``place`` actions against a per-socket walk of the
socket rules (docs §4.6), and the move_die castability test against ``move_sources``."""

import numpy as np
import pytest

from monolith_envs.strategy.board import PRIV0
from monolith_envs.strategy.effects import has_move_source, move_sources
from monolith_envs.strategy.game import StrategyGame

CONFIGS = {
    "solo": {"num_players": 1, "player_powers": True},
    "2p": {"num_players": 2, "player_powers": True},
    "4p_intro": {"num_players": 4, "intro_layout": True},
}


def geometry_walk(R, s):
    """``(open, rows)`` straight from the socket rules: every existing socket of an active card, reserved
    ones left out of ``open``."""
    opn, rows = [], {}
    for pos in range(1, 14):
        kind, obj = R.active(s, pos)
        if kind is None:
            continue
        res = kind == "exalted" and obj.reserved
        for i, req in enumerate(obj.sockets):
            rows[(pos - 1) * 4 + i] = (req, res)
            if not res:
                opn.append(((pos - 1) * 4 + i, req))
    return opn, rows


def place_walk(R, s, p):
    """``place(f, sid)`` actions socket by socket (docs §4.6 rules 1-4, Stacker bumps), sorted."""
    pool = s.pool[p]
    faces = [f for f in range(6) if pool[f]]
    bump = s.turn["stack_ready"] and s.phase == 1 and s.turn["player"] == p
    out = []
    for sid, req in geometry_walk(R, s)[0]:
        if s.blocked[sid]:
            continue
        occ = s.sock_seat[sid]
        for f in faces:
            if req and req != f + 1:
                continue
            if occ < 0 or (bump and occ != p and s.sock_face[sid] < f + 1):
                out.append(f * 60 + sid)
    for slot, pr in enumerate(s.priv[p]):
        for i, req in enumerate(R.content.board[pr["card"]].sockets):
            if not pr["occ"][i]:
                out += [f * 60 + PRIV0 + slot * 4 + i for f in faces if not req or req == f + 1]
    return sorted(out)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_fast_paths_equal_their_definitions(name):
    g = StrategyGame(CONFIGS[name])
    R = g.rules
    checked = movable = 0
    for seed in range(3):
        rng = np.random.default_rng(500 + seed)
        s = g.initial_state(rng)
        while not g.is_terminal(s):
            geo = R.geometry(s)
            opn, rows = geometry_walk(R, s)
            assert list(geo[0]) == opn and geo[1] == rows
            for f in range(6):
                assert list(geo[3][f]) == [sid for sid, req in opn if not req or req == f + 1]
            for p in range(g.num_players):
                assert R.place_actions(s, p, 0) == place_walk(R, s, p)
                has = has_move_source(R, s, p)
                assert has == bool(move_sources(R, s, p))
                movable += has
            checked += 1
            g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
    assert checked > 100 and movable > 0
