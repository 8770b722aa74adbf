"""Agent specs that name the wrong thing fail when the agent is built, with the sizes or types named: a
``ppo:PATH`` model of another game or config, and a spec that is not a string."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from agents import AgentError, AgentSpecError, make_agent
from tests.toy_game import ENV_ID


def _sizes(env_id, **config):
    game = monolith_envs.make_game(env_id, **config)
    return game.obs_spec.size, game.layout.n


def test_a_model_of_another_game_fails_when_built_naming_both_sizes(toy_model):
    toy_obs, toy_n = _sizes(ENV_ID)
    obs, n = _sizes("monolith_strategy_v0")
    with pytest.raises(AgentError) as ei:
        make_agent(f"ppo:{toy_model}", "monolith_strategy_v0", {})
    msg = str(ei.value)
    assert f"takes {toy_obs} observation values and {toy_n} actions" in msg
    assert f"monolith_strategy_v0 {{}} has {obs} and {n}" in msg and "another game or config" in msg
    agent = make_agent(f"ppo:{toy_model}", ENV_ID, {})  # its own game: fine
    assert agent.sizes() == (toy_obs, toy_n)


def test_a_model_of_another_game_fails_at_its_first_move_without_a_config(toy_model):
    agent = make_agent(f"ppo:{toy_model}", "monolith_strategy_v0")  # no env_config: not checked yet
    obs, n = _sizes("monolith_strategy_v0")
    with pytest.raises(AgentError, match=f"but this env has {obs} and {n}"):
        agent.act(np.zeros(obs, np.float32), np.ones(n, np.int8), np.random.default_rng(0))


def test_the_training_config_check_uses_the_games_config_for_a_baseline_opponent():
    from training.config import TrainConfigError, check_config, load_config

    cfg = load_config(None)
    cfg["env_config"] = {"num_players": 3, "mode": "ffa"}
    cfg["eval_opponents"] = ["baseline"]
    with pytest.raises(TrainConfigError) as ei:
        check_config(cfg)
    assert "config key 'eval_opponents': agent spec 'baseline': no baseline for monolith_arena_v0 with " \
           "num_players=3 mode=ffa; monolith_arena_v0 has baselines for: num_players=2 mode=duel (arena_2p)" in str(ei.value)
    cfg["env_config"] = {"num_players": 2, "mode": "duel"}
    check_config(cfg)  # the duel has one


@pytest.mark.parametrize("spec", [5, None, ["random"]])
def test_a_spec_that_is_not_a_string_is_named(spec):
    with pytest.raises(AgentSpecError) as ei:
        make_agent(spec, "monolith_arena_v0")
    assert f"an agent spec is a string, got {type(spec).__name__}" in str(ei.value)
    assert "accepted:" in str(ei.value)


def test_a_pieces_model_loads_outside_the_repository_also_when_saved_under_the_old_class_path(tmp_path):
    """The training recipe's PieceEncoder lives in the package: a ``ppo:PATH`` model of it loads in a process
    where the repository's ``training`` folder is not importable, and a model whose pickle names the class's
    former place (``training.features.PieceEncoder``) is read as the package's class without importing it."""
    import base64
    import json
    import os
    import subprocess
    import sys
    import zipfile

    from sb3_contrib import MaskablePPO

    from monolith_envs.agents.sb3_features import PieceEncoder
    from monolith_envs.wrappers import SingleAgentEnv
    from training.features import piece_layout

    env = SingleAgentEnv("monolith_strategy_v0", ["random"], num_players=2)
    pieces = piece_layout(monolith_envs.make_game("monolith_strategy_v0", num_players=2).obs_spec)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, device="cpu", seed=0, policy_kwargs={
        "features_extractor_class": PieceEncoder, "features_extractor_kwargs": {"pieces": pieces, "row_dim": 4,
                                                                                "features_dim": 16}})
    new = tmp_path / "new.zip"
    model.save(new)
    old = tmp_path / "old.zip"  # the same model as saved before the class moved: pickled by its old name
    PieceEncoder.__module__ = "training.features"  # training.features.PieceEncoder is this same class
    try:
        model.save(old)
    finally:
        PieceEncoder.__module__ = "monolith_envs.agents.sb3_features"
    with zipfile.ZipFile(old) as z:
        assert b"training.features" in base64.b64decode(json.loads(z.read("data"))["policy_kwargs"][":serialized:"])
    code = ("import sys, importlib.util, numpy as np\n"
            "assert importlib.util.find_spec('training') is None, 'training is importable'\n"
            "from monolith_envs.agents import make_agent\n"
            "for p in sys.argv[1:]:\n"
            "    a = make_agent('ppo:' + p, 'monolith_strategy_v0', {'num_players': 2})\n"
            "    print(type(a.model.policy.features_extractor).__module__, a.sizes())\n")
    size = _sizes("monolith_strategy_v0", num_players=2)
    for trust in ("0", "1"):  # untrusted (the restricted reader) and trusted (SB3's own reader)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"MONOLITH_ENVS_TRUST_MODELS": trust}
        out = subprocess.run([sys.executable, "-c", code, str(new), str(old)], cwd=tmp_path, capture_output=True,
                             text=True, timeout=120, env=env)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.split("\n")[:2] == [f"monolith_envs.agents.sb3_features {size}"] * 2


def test_a_bad_game_config_with_a_ppo_model_is_named_as_a_config_error(toy_model):
    from monolith_envs.core.config import ConfigError

    with pytest.raises(ConfigError) as ei:
        make_agent(f"ppo:{toy_model}", "monolith_arena_v0", {"num_players": 3})
    assert "mode='duel' (the default) needs num_players=2" in str(ei.value) and "path" not in str(ei.value)


@pytest.mark.parametrize("spec, message", [
    ("mcts:\u0665", "must be an integer, got '\u0665'"),
    ("mcts:5_0", "must be an integer, got '5_0'"),
    ("mcts: 5", "must be an integer, got ' 5'"),
    ("mcts:", "the number of simulations N of mcts:N is missing"),
    ("mcts:5:c=1_0", "c (the exploration constant) must be a number, got '1_0'"),
])
def test_spec_numbers_are_plain_ascii_numbers(spec, message):
    with pytest.raises(AgentSpecError) as ei:
        make_agent(spec, "monolith_arena_v0")
    assert message in str(ei.value)


def test_plain_spec_numbers_still_parse():
    agent = make_agent("mcts:05:c=.5", "monolith_arena_v0")
    assert (agent.simulations, agent.c) == (5, 0.5)


def test_an_unknown_env_id_is_refused_for_every_kind_of_agent():
    from monolith_envs import UnknownEnvError

    for spec in ("random", "heuristic", "mcts:5"):
        with pytest.raises(UnknownEnvError, match="unknown env id 'nope_v0'; available: monolith_arena_v0"):
            make_agent(spec, "nope_v0")


@pytest.fixture(scope="module")
def arena_duel_run(tmp_path_factory):
    """A training run's folder with an untrained Arena duel model: ``final_model.zip``, a checkpoint, and the
    run's ``config.json`` (env id and game config, as ``python -m training.train`` writes them)."""
    import json
    import shutil

    from sb3_contrib import MaskablePPO

    from training.wrapper import SingleAgentEnv

    model = MaskablePPO("MlpPolicy", SingleAgentEnv("monolith_arena_v0", ["random"]), n_steps=32, batch_size=32,
                        policy_kwargs={"net_arch": [8]}, seed=0, device="cpu")
    run = tmp_path_factory.mktemp("run")
    model.save(run / "final_model.zip")
    (run / "checkpoints").mkdir()
    shutil.copy(run / "final_model.zip", run / "checkpoints" / "model_32_steps.zip")
    (run / "config.json").write_text(json.dumps({"env_id": "monolith_arena_v0", "env_config": {"num_players": 2}}))
    return run


@pytest.mark.parametrize("name", ["final_model.zip", "checkpoints/model_32_steps.zip"])
def test_a_ppo_model_of_another_seat_count_or_mode_is_refused_by_its_runs_config(arena_duel_run, name):
    spec = f"ppo:{arena_duel_run / name}"
    assert _sizes("monolith_arena_v0", num_players=4, mode="ffa") == _sizes("monolith_arena_v0")  # sizes alone pass
    with pytest.raises(AgentError) as ei:
        make_agent(spec, "monolith_arena_v0", {"num_players": 4, "mode": "ffa"})
    assert "trained with num_players=2, mode='duel' (its run's config.json)" in str(ei.value)
    assert "has num_players=4, mode='ffa'" in str(ei.value)
    agent = make_agent(spec, "monolith_arena_v0")  # no config yet: refused when bound to the env
    env = monolith_envs.make("monolith_arena_v0", num_players=4, mode="ffa")
    env.reset(seed=0)
    with pytest.raises(AgentError, match="has num_players=4, mode='ffa'"):
        agent.bind(env)
    # the seats and mode of its run, with a module of the same sizes: played
    assert make_agent(spec, "monolith_arena_v0", {"monolith_module": True}).trained_on["env_config"] == {"num_players": 2}


def test_a_ppo_model_without_a_readable_run_config_is_checked_by_its_sizes_only(arena_duel_run, tmp_path):
    import shutil

    shutil.copy(arena_duel_run / "final_model.zip", tmp_path / "m.zip")
    for text in (None, "not json", '{"env_id": 3}', "[" * 100_000):  # the last: too deep to parse
        if text is not None:
            (tmp_path / "config.json").write_text(text)
        agent = make_agent(f"ppo:{tmp_path / 'm.zip'}", "monolith_arena_v0", {"num_players": 4, "mode": "ffa"})
        assert agent.trained_on is None
    (tmp_path / "config.json").write_text('{"env_id": "monolith_strategy_v0", "env_config": {}}')
    with pytest.raises(AgentError, match="trained on monolith_strategy_v0 .* not on monolith_arena_v0"):
        make_agent(f"ppo:{tmp_path / 'm.zip'}", "monolith_arena_v0", {})


def test_a_run_config_that_no_longer_builds_the_game_is_still_read_for_its_seats_and_mode(arena_duel_run, tmp_path):
    import shutil

    shutil.copy(arena_duel_run / "final_model.zip", tmp_path / "m.zip")
    (tmp_path / "config.json").write_text('{"env_id": "monolith_arena_v0", "env_config": {"num_players": 2, '
                                          '"renamed_key": 1}}')
    with pytest.raises(AgentError, match="trained with num_players=2, mode='duel'"):
        make_agent(f"ppo:{tmp_path / 'm.zip'}", "monolith_arena_v0", {"num_players": 4, "mode": "ffa"})
    make_agent(f"ppo:{tmp_path / 'm.zip'}", "monolith_arena_v0", {})  # its own seats and mode: played


@pytest.mark.parametrize("spec, says", [
    ("random:", "'random' takes no options"), ("random:3", "'random' takes no options"),
    ("heuristic:", "'heuristic' takes no options"), ("heuristic:3", "'heuristic' takes no options"),
    ("ppo:", "ppo needs the path of a model file (ppo:PATH)"), ("ppo", "ppo needs the path of a model file"),
    ("rllib:", "rllib needs the path of a checkpoint folder (rllib:PATH)"),
])
def test_a_known_kind_written_wrongly_is_named_not_called_unknown(spec, says):
    with pytest.raises(AgentSpecError) as ei:
        make_agent(spec, "monolith_arena_v0")
    assert says in str(ei.value) and "unknown agent spec" not in str(ei.value) and "accepted: random |" in str(ei.value)


@pytest.mark.parametrize("spec", ["heuristic", "mcts:4"])
def test_a_games_heuristic_or_search_refuses_another_games_env_at_bind(spec):
    agent = make_agent(spec, "monolith_arena_v0")
    env = monolith_envs.make("the_monolith_v0")
    env.reset(seed=0)
    with pytest.raises(AgentError, match=f"{spec} was made for monolith_arena_v0, bound to a the_monolith_v0 env"):
        agent.bind(env)
    random_agent = make_agent("random", "monolith_arena_v0")
    random_agent.bind(env)  # an agent of any game binds anywhere
    assert random_agent.ctx.game.env_id == "the_monolith_v0"


@pytest.mark.parametrize("spec", ["heuristic", "mcts:4"])
def test_an_env_id_registered_as_an_alias_of_a_game_binds_its_agents_both_ways(spec, monkeypatch):
    monkeypatch.setitem(monolith_envs._REGISTRY, "arena_alias_v0", "monolith_envs.monolith_arena_v0")
    for made, played in (("arena_alias_v0", "monolith_arena_v0"), ("monolith_arena_v0", "arena_alias_v0")):
        env = monolith_envs.make(played)
        env.reset(seed=0)
        agent = make_agent(spec, made)
        agent.bind(env)  # the same game class under another id
        obs = env.observe(env.agent_selection)
        assert obs["action_mask"][agent.act(obs["observation"], obs["action_mask"], np.random.default_rng(0))] == 1


@pytest.mark.parametrize("spec", ["random", "heuristic", "mcts:4", "baseline+search:2"])
def test_act_names_a_bad_rng_or_mask_size(spec):
    agent = make_agent(spec, "monolith_arena_v0")
    env = monolith_envs.make("monolith_arena_v0")
    env.reset(seed=0)
    agent.bind(env)
    obs = env.observe(env.agent_selection)
    with pytest.raises(AgentError, match="act\\(\\) needs rng, a numpy.random.Generator .* got NoneType"):
        agent.act(obs["observation"], obs["action_mask"], None)
    if spec in ("heuristic", "mcts:4"):
        with pytest.raises(AgentError, match=r"the action mask must have shape \(500,\), .* got shape \(10,\)"):
            agent.act(obs["observation"], np.ones(10, np.int8), np.random.default_rng(0))
    a = agent.act(obs["observation"], list(obs["action_mask"]), np.random.default_rng(0))  # a list mask is fine
    assert obs["action_mask"][a] == 1
