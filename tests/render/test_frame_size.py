"""Every picture of one game config has one size, whatever the state: the pending resolution (Arena), the
fourth board row (Strategy, multiplayer) and the open decision and divination row (The Monolith) keep
their room. Video recorders (Gymnasium's RecordVideo, SB3's VecVideoRecorder) need frames of one size."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from monolith_envs import make

CONFIGS = [
    ("monolith_arena_v0", {}),
    ("monolith_arena_v0", {"num_players": 4, "mode": "ffa"}),
    ("monolith_arena_v0", {"monolith_module": True}),
    ("monolith_strategy_v0", {}),
    ("monolith_strategy_v0", {"num_players": 1}),
    ("monolith_strategy_v0", {"num_players": 4}),
    ("the_monolith_v0", {}),
    ("the_monolith_v0", {"num_players": 3}),
]


def _draw_module(game):
    return importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".render_svg")


@pytest.mark.parametrize("env_id, config", CONFIGS, ids=[f"{e}-{c}" for e, c in CONFIGS])
def test_every_picture_of_a_config_has_one_size(env_id, config):
    env = make(env_id, **config)
    game = env.unwrapped.game
    draw = _draw_module(game).draw
    sizes = set()
    rng = np.random.default_rng(0)
    for seed in range(4):  # seeds whose games include long pending lines, a second Fate, full rows
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            state = env.unwrapped.game_state
            for viewer in (None, env.unwrapped.agent_name_mapping[agent]):
                scene = draw(game, state, viewer)
                sizes.add((scene.width, scene.height))
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(sizes) == 1, sorted(sizes)


@pytest.mark.parametrize("env_id", ["monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0"])
def test_rgb_array_frames_of_two_episodes_have_one_shape(env_id):
    env = make(env_id, render_mode="rgb_array")
    shapes = set()
    for seed in (0, 2):  # Strategy (3 players): seed 2 deals a second Fate onto position 13, seed 0 does not
        env.reset(seed=seed)
        shapes.add(env.render().shape)
        for _ in range(30):
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
        shapes.add(env.render().shape)
    assert len(shapes) == 1 and next(iter(shapes))[2] == 3, shapes
