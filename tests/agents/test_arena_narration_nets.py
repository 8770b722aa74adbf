"""Arena narration says when a tile on the board becomes netted or is freed (docs §4.6: a netted tile neither
attacks nor gives its aura or Rune bonus): a placement or a turn that nets a tile said nothing of it, and the
only sign was the ``,N`` of the board text."""

from __future__ import annotations

from monolith_envs import make_game
from monolith_envs.arena.effects import compute_fx
from monolith_envs.arena.narration import narrate
from monolith_envs.arena.state import Loc
from tests.agents.random_steps import random_game_steps


def test_every_tile_netted_or_freed_in_a_step_is_said_once():
    g = make_game("monolith_arena_v0", num_players=4, mode="ffa")
    said = {"netted": 0, "no longer netted": 0}
    for before, s, a, p in random_game_steps(g, range(4)):
        lines = narrate(g, before, s, a, p)
        f0, f1 = compute_fx(g.rules, before), compute_fx(g.rules, s)
        for h, inst in enumerate(s.board):
            if inst < 0:
                continue
            was = before.loc[inst] == Loc.BOARD and bool(f0.netted[before.hexof[inst]])
            now = bool(f1.netted[h])
            hits = [x for x in lines if f"on hex {h:02d} is netted" in x or f"on hex {h:02d} is no longer" in x]
            if was == now:
                assert not hits, lines
            else:
                word = "netted (no attacks, aura or bonus)" if now else "no longer netted"
                assert len(hits) == 1 and hits[0].endswith(f"on hex {h:02d} is {word}"), lines
                said["netted" if now else "no longer netted"] += 1
    assert said["netted"] >= 3 and said["no longer netted"] >= 1
