"""Text renders (``render_mode="ansi"``) fit 100 columns in every game, and Arena's names its tiles."""

import re

import numpy as np
import pytest

import monolith_envs

CONFIGS = [
    ("monolith_arena_v0", {}),
    ("monolith_arena_v0", {"num_players": 4, "mode": "teams", "monolith_module": True}),
    ("monolith_arena_v0", {"num_players": 4, "mode": "ffa", "monolith_module": True, "reinforcement_variant": True}),
    ("monolith_strategy_v0", {}),
    ("monolith_strategy_v0", {"num_players": 4}),
    ("monolith_strategy_v0", {"num_players": 1}),
    ("the_monolith_v0", {}),
    ("the_monolith_v0", {"num_players": 2}),
]


def _renders(env_id, cfg, seed, every=3):
    env = monolith_envs.make(env_id, render_mode="ansi", **cfg)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for k, _agent in enumerate(env.agent_iter()):
        obs, _r, term, trunc, _i = env.last()
        if k % every == 0 or term or trunc:
            yield env.render(), env.unwrapped
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("env_id, cfg", CONFIGS)
def test_ansi_render_fits_100_columns(env_id, cfg):
    widest = 0
    for text, _raw in _renders(env_id, cfg, seed=1):
        widest = max(widest, max(len(line) for line in text.splitlines()))
    assert 60 < widest <= 100


def test_arena_ansi_render_names_tiles_never_content_ids():
    game = monolith_envs.make_game("monolith_arena_v0", monolith_module=True)
    ids = set(game.tables.id_of)
    seen_names = set()
    for text, raw in _renders("monolith_arena_v0", {"monolith_module": True}, seed=2, every=1):
        assert not any(i in text for i in ids if "_" in i), text
        assert not re.search(r"\d\.[a-z]{2}_", text)  # the old `1.hf_rune_regeneration/2/0` cells
        s = raw.game_state
        for h in range(19):
            i = s.board[h]
            if i >= 0:
                name = raw.game.tables.name_of[s.itype[i]]
                cell = name.removeprefix("Rune of ").replace(" ", "")[:9]
                assert f"{h:02d}:{i // 35}.{cell}/" in text
                if cell != name:
                    assert f"{h:02d} {name}" in " ".join(text.split())  # the full name under the board
                seen_names.add(name)
    assert len(seen_names) >= 5
