"""The engine's fast paths against the plain definitions they stand for, at every decision of seeded random
games: ``has_modifier`` and ``control_weight`` against ``modifiers``, ``controllers_at`` against
``controllers`` and both against ``controller`` space by space, the map-only tunnel list against
``tunnels_now``, ``neighbours`` against the docs §4.2
rule written out, and the divination order's condition against its slot list."""

from __future__ import annotations

import numpy as np
import pytest

from monolith_envs.the_monolith import MonolithGame
from monolith_envs.the_monolith.board import (
    _tunnels_read_only,
    control_weight,
    controller,
    controllers,
    controllers_at,
    has_modifier,
    modifiers,
    neighbours,
    tunnels_now,
)
from monolith_envs.the_monolith.content import MODIFIERS
from monolith_envs.the_monolith.orders import _can_bid, _div_slots


def _neighbours_reference(g, s, p, sp):
    tun = tunnels_now(g, s)
    if "stronghold_tunnel" in modifiers(g, s, p):
        tun[g.hold[p]] = True
    out = list(g.dashed_adj[sp])
    if tun[sp]:
        out += [t for t in g.active_spaces if tun[t] and t != sp and t not in out]
        out.sort()
    return out


def _states(config, games=4):
    g = MonolithGame(config)
    for seed in range(games):
        rng = np.random.default_rng(seed)
        s = g.initial_state(rng)
        while not g.is_terminal(s):
            yield g, s
            legal = np.flatnonzero(g.legal_mask(s))
            g.apply(s, int(legal[rng.integers(len(legal))]), rng)


@pytest.mark.parametrize("config", [{"num_players": 2}, {"num_players": 3}, {"num_players": 4},
                                    {"num_players": 4, "shaman_assignment": "draft"}])
def test_fast_paths_match_their_definitions(config):
    for g, s in _states(config):
        if s.sub == 0 or min(s.shaman_id) < 0:  # the draft: shamans not all known yet
            continue
        full = controllers(g, s)  # against the per-space definition, docs §4.1
        weights = [control_weight(g, s, p) for p in range(s.n)]
        shaman_spaces = {s.shaman_space[p] for p in range(s.n) if s.shaman_alive[p]}
        assert full == [controller(g, s, sp, weights) if g.active[sp] or sp in shaman_spaces else -1
                        for sp in range(g.N)]
        part = controllers_at(g, s, g.active_spaces[::2])
        assert [part[sp] for sp in g.active_spaces[::2]] == [full[sp] for sp in g.active_spaces[::2]]
        assert _tunnels_read_only(g, s) == tunnels_now(g, s)
        for p in range(s.n):
            mods = modifiers(g, s, p)
            for name in MODIFIERS:
                assert has_modifier(g, s, p, name) == (name in mods)
            assert control_weight(g, s, p) == max(1, mods.get("shaman_control_weight", 1))
            assert _can_bid(g, s, p) == bool(_div_slots(g, s, p))
            sp = s.shaman_space[p]
            if 0 <= sp < g.N and g.active[sp]:
                assert neighbours(g, s, p, sp) == _neighbours_reference(g, s, p, sp)
