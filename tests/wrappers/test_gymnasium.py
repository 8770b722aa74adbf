"""The single-agent wrapper as a Gymnasium env: registered ids, make / make_vec, env checkers, render modes,
agent spec strings as opponents, and the old import path."""

from __future__ import annotations

import sys

import gymnasium as gym
import numpy as np
import pytest

import monolith_envs
from monolith_envs import ConfigError
from monolith_envs.registration import GYM_IDS
from monolith_envs.wrappers import SingleAgentEnv

ARENA = "monolith_envs/MonolithArena-v0"


def test_the_gymnasium_ids_are_registered_at_import():
    assert GYM_IDS == {
        "monolith_arena_v0": "monolith_envs/MonolithArena-v0",
        "monolith_strategy_v0": "monolith_envs/MonolithStrategy-v0",
        "the_monolith_v0": "monolith_envs/TheMonolith-v0",
    }
    for env_id, gym_id in GYM_IDS.items():
        spec = gym.spec(gym_id)
        entry = f"monolith_envs.registration:make_{env_id.removesuffix('_v0')}"
        assert spec.entry_point == entry and spec.kwargs == {"env_id": env_id}


def test_an_env_id_keyword_naming_another_game_is_refused():
    from monolith_envs.core.config import ConfigError

    with pytest.raises(ConfigError, match="monolith_envs/MonolithArena-v0 is monolith_arena_v0; "
                                          "env_id='the_monolith_v0' names another game"):
        gym.make("monolith_envs/MonolithArena-v0", env_id="the_monolith_v0", opponents=["random"])
    env = gym.make("monolith_envs/MonolithArena-v0", env_id="monolith_arena_v0", opponents=["random"])
    assert env.unwrapped.env_id == "monolith_arena_v0"  # its own id is accepted
    env.close()


@pytest.mark.parametrize("env_id,gym_id", sorted(GYM_IDS.items()))
def test_gymnasium_make_plays_against_spec_string_opponents(env_id, gym_id):
    env = gym.make(gym_id, opponents=["random"])
    assert isinstance(env.unwrapped, SingleAgentEnv) and env.unwrapped.env_id == env_id
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        assert env.observation_space.contains(obs)
        mask = env.get_wrapper_attr("action_masks")()
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            obs, info = env.reset()
    env.close()


def test_heuristic_spec_string_is_the_games_heuristic():
    """``SingleAgentEnv(env_id, ["heuristic"])`` used to fail with an AttributeError on the string."""
    from agents import heuristic_for

    env = SingleAgentEnv("monolith_arena_v0", ["heuristic"], seed=0)
    env.reset(seed=0)
    (opp,) = env.opponents.values()
    assert type(opp) is type(heuristic_for("monolith_arena_v0"))
    mask = env.action_masks()
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.opponent_steps > 0


def test_spec_strings_mix_with_agent_objects_and_a_lone_string():
    from agents import MCTSAgent, RandomAgent

    mine = RandomAgent()
    env = SingleAgentEnv("monolith_arena_v0", ["mcts:5", mine], {"num_players": 3, "mode": "ffa"}, seat=0, seed=0)
    env.reset(seed=0)
    assert isinstance(env.opponents[1], MCTSAgent) and env.opponents[1].simulations == 5
    assert env.opponents[2] is mine
    env = SingleAgentEnv("monolith_arena_v0", "random", seat=0)
    env.reset(seed=0)
    assert isinstance(env.opponents[1], RandomAgent)


def test_bad_opponents_get_a_clear_error():
    from agents import AgentSpecError

    with pytest.raises(AgentSpecError, match="accepted: random | heuristic"):
        SingleAgentEnv("monolith_arena_v0", ["heurstic"])
    with pytest.raises(ConfigError, match=r"opponents\[0\] = 42 is neither an agent spec string"):
        SingleAgentEnv("monolith_arena_v0", [42])
    with pytest.raises(ConfigError, match=r"at least one opponent agent is needed, e.g. opponents=\['random'\]"):
        gym.make(ARENA)


def test_more_opponents_than_opponent_seats_is_refused():
    """A list is cycled over the opponent seats, so extra agents would never play: say so instead."""
    with pytest.raises(ConfigError, match=r"has 1 opponent seat\(s\), got 2 opponents .*sampler\(rng, k\)"):
        SingleAgentEnv("monolith_arena_v0", ["heuristic", "random"])
    with pytest.raises(ConfigError, match=r"has 1 opponent seat\(s\), got 2 opponents"):
        gym.make(ARENA, opponents=["random", "random"])
    with pytest.raises(ConfigError, match=r"with 1 player is a solo game: it takes no opponents"):
        SingleAgentEnv("monolith_strategy_v0", ["random"], {"num_players": 1})
    env = SingleAgentEnv("monolith_arena_v0", ["random", "heuristic"], {"num_players": 3, "mode": "ffa"})
    assert env.num_players == 3  # as many as the seats: fine
    env = SingleAgentEnv("monolith_arena_v0", ["random"], {"num_players": 4, "mode": "ffa"})
    assert env.num_players == 4  # fewer: cycled


def test_spec_strings_need_no_repository_agents_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "agents", None)  # import agents -> ImportError
    env = SingleAgentEnv("monolith_arena_v0", ["heuristic"], seat=0)
    env.reset(seed=0)
    (opp,) = env.opponents.values()
    assert type(opp).__module__ == "monolith_envs.agents.heuristics.arena" and opp.name == "heuristic"


def test_game_config_keys_as_keywords():
    env = gym.make(ARENA, opponents=["random", "random"], num_players=3, mode="ffa")
    assert env.unwrapped.num_players == 3
    with pytest.raises(ConfigError, match="num_players given both in env_config and as a keyword"):
        SingleAgentEnv("monolith_arena_v0", ["random"], {"num_players": 2}, num_players=2)
    with pytest.raises(ConfigError, match="unknown"):
        gym.make(ARENA, opponents=["random"], num_playerz=2)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_make_vec(mode):
    envs = gym.make_vec(ARENA, num_envs=2, vectorization_mode=mode, opponents=["random"])
    try:
        obs, info = envs.reset(seed=5)
        assert obs.shape == (2, *envs.single_observation_space.shape) and obs.dtype == np.float32
        assert info["action_mask"].shape == (2, 500)
        rng = np.random.default_rng(0)
        for _ in range(4):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
            obs, reward, terminated, truncated, info = envs.step(actions)
            assert reward.shape == (2,) and info["action_mask"].shape == (2, 500)
        again = gym.make_vec(ARENA, num_envs=2, vectorization_mode="sync", opponents=["random"])
        np.testing.assert_array_equal(again.reset(seed=5)[0], envs.reset(seed=5)[0])  # reset(seed) seeds env i
        again.close()
    finally:
        envs.close()


def test_gymnasium_make_vec_autoreset_modes_and_the_mask_of_an_ended_game():
    """NEXT_STEP (Gymnasium's default): the ending step's mask is all zeros and the next step resets; SAME_STEP
    (README, "Gymnasium"): every mask has a legal action and the ended game's mask is in ``final_info``."""
    seen = {}
    for mode in (gym.vector.AutoresetMode.NEXT_STEP, gym.vector.AutoresetMode.SAME_STEP):
        envs = gym.make_vec(ARENA, num_envs=2, vectorization_mode="sync", opponents=["random"],
                            vector_kwargs={"autoreset_mode": mode})
        try:
            obs, info = envs.reset(seed=3)
            rng = np.random.default_rng(0)
            empty = ended = 0
            while ended < 3:
                rows = info["action_mask"]
                empty += int((~rows.any(1)).sum())
                actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in rows])
                obs, reward, terminated, truncated, info = envs.step(actions)
                done = terminated | truncated
                ended += int(done.sum())
                if mode == gym.vector.AutoresetMode.NEXT_STEP:
                    assert not info["action_mask"][done].any()
                elif done.any():
                    assert info["action_mask"][done].any(1).all()
                    assert "final_info" in info
            seen[mode] = empty
        finally:
            envs.close()
    assert seen[gym.vector.AutoresetMode.SAME_STEP] == 0 and seen[gym.vector.AutoresetMode.NEXT_STEP] >= 2


def test_gymnasium_env_checker():
    from gymnasium.utils.env_checker import check_env

    env = gym.make(ARENA, opponents=["random"], illegal_action="penalize", render_mode="ansi")
    check_env(env.unwrapped)


def test_sb3_check_env():
    from stable_baselines3.common.env_checker import check_env

    check_env(gym.make(ARENA, opponents=["random"], illegal_action="penalize").unwrapped)
    check_env(SingleAgentEnv("monolith_arena_v0", ["random"], {"illegal_action": "penalize"}, mask_in="observation"))


def test_render_modes(capsys):
    env = gym.make(ARENA, opponents=["random"], render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    env = gym.make(ARENA, opponents=["random"], render_mode="ansi")
    env.reset(seed=0)
    assert "P0" in env.render()
    env = gym.make(ARENA, opponents=["random"], render_mode="human")
    env.reset(seed=0)
    assert "P0" in capsys.readouterr().out
    with pytest.raises(ConfigError, match="render_mode='video' is not supported; expected None or one of"):
        SingleAgentEnv("monolith_arena_v0", ["random"], render_mode="video")


def test_training_wrapper_re_exports_the_package_wrapper():
    import training.wrapper

    assert training.wrapper.SingleAgentEnv is SingleAgentEnv
    assert monolith_envs.wrappers.SingleAgentEnv is SingleAgentEnv


def test_import_registers_ids_without_importing_the_wrapper_or_agents():
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = ("import sys, gymnasium, monolith_envs; print('monolith_envs/TheMonolith-v0' in gymnasium.registry, "
            "'monolith_envs.wrappers' in sys.modules, 'agents' in sys.modules, 'torch' in sys.modules, "
            "'monolith_envs.agents' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                         env=dict(os.environ, PYTHONPATH=str(root))).stdout
    assert out.split() == ["True", "False", "False", "False", "False"]


def test_the_module_prefixed_id_imports_the_package_itself():
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = ("import gymnasium; e = gymnasium.make('monolith_envs:monolith_envs/MonolithArena-v0', "
            "opponents=['random']); print(e.reset(seed=0)[0].shape)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                         env=dict(os.environ, PYTHONPATH=str(root))).stdout
    assert out.strip() == "(4532,)"


@pytest.mark.parametrize("opponents", [["heuristic"], ["mcts:5"]])
def test_the_single_agent_env_pickles_and_the_copy_plays_on_the_same_way(opponents):
    import pickle

    env = gym.make("monolith_envs/MonolithArena-v0", opponents=opponents, shaping="heuristic")
    env.reset(seed=3)
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(6):  # the learner's first legal action in both, and the opponents' replies, step for step
        action = int(np.flatnonzero(env.unwrapped.action_masks())[0])
        a, b = env.step(action), copy.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4] and np.array_equal(a[4]["action_mask"], b[4]["action_mask"])
        if a[2] or a[3]:
            break
    env.close()
    copy.close()


_FORKED_BASELINE = """
import gymnasium as gym, numpy as np, torch, monolith_envs
torch.set_num_threads(2)  # the parent runs the network on two threads before it forks, as on any multi-core machine
if __name__ == "__main__":
    envs = gym.make_vec("monolith_envs/MonolithArena-v0", num_envs=2, vectorization_mode="async",
                        opponents=["baseline"], vector_kwargs={"context": "fork"})
    obs, info = envs.reset(seed=0)
    for _ in range(6):
        obs, reward, terminated, truncated, info = envs.step(
            np.array([np.flatnonzero(m)[-1] for m in info["action_mask"]]))
    envs.close()
    print("played", obs.shape)
"""


def test_async_make_vec_with_a_torch_opponent_does_not_hang_in_forked_workers(tmp_path):
    """A torch network that ran on several threads before Gymnasium forked its workers used to hang every
    worker in its first forward pass (README, "Gymnasium"); each forked child now runs torch on one thread
    (``monolith_envs.agents.torch_fork``). Run in a fresh interpreter, with a deadline instead of a hang."""
    pytest.importorskip("torch")
    import subprocess

    script = tmp_path / "forked_baseline.py"
    script.write_text(_FORKED_BASELINE)
    import os
    import signal

    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the hung workers too
        proc.communicate()
        pytest.fail("the async vector env with a baseline opponent did not finish 6 steps in 120 s")
    assert proc.returncode == 0, err[-2000:]
    assert out.strip() == f"played (2, {gym.make(ARENA, opponents=['random']).observation_space.shape[0]})"
