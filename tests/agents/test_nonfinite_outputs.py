"""Model files whose weights are finite but so large that the network overflows (every weight 3e38): the
network's outputs are NaN or inf, and an ``argmax`` over NaN picks action 0, legal or not.  Such a file is
refused when loaded (one clear error, one ``error:`` line in the commands), and a network that overflows on
an observation at play time is an ``AgentError``, never an illegal action or a long traceback."""

from __future__ import annotations

import copy
import importlib.util
import io
import re
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import monolith_envs  # noqa: E402
from agents import AgentError, RandomAgent, play_match  # noqa: E402
from monolith_envs.agents.model_files import ModelFileError  # noqa: E402
from tests.agents.model_zips import rewrite_zip  # noqa: E402
from tests.toy_game import ENV_ID as TOY  # noqa: E402
from tests.usage import one_usage_error  # noqa: E402

HUGE = 3e38
NOT_FINITE = r"output is not finite \(NaN or inf\)"
ROOT = Path(__file__).resolve().parents[2]


def _fill(state: dict, value: float = HUGE) -> dict:
    """``state`` with every floating tensor filled with ``value``."""
    return {k: torch.full_like(v, value) if v.is_floating_point() else v for k, v in state.items()}


def _blow_up(module) -> None:
    """Every floating parameter of ``module`` set to :data:`HUGE`, in place."""
    with torch.no_grad():
        for p in module.parameters():
            p.fill_(HUGE)


def _legal_obs(env_id: str = TOY):
    """An env of ``env_id`` after reset, with the acting seat's observation and mask."""
    env = monolith_envs.make(env_id)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    return env, np.asarray(obs["observation"], np.float32), np.asarray(obs["action_mask"], bool)


# --- az: checkpoints ----------------------------------------------------------------------------------------
def _az_file(path: Path, value: float | None = None) -> Path:
    from training.az.net import net_for_game, save_checkpoint

    torch.manual_seed(0)
    net = net_for_game(monolith_envs.make_game(TOY), (8,))
    if value is not None:
        _blow_up(net)
    save_checkpoint(net, path, TOY, {})
    return path


def test_az_checkpoint_whose_weights_overflow_is_refused_when_loaded(tmp_path):
    from agents import make_agent
    from agents.az_agent import AZAgent

    path = _az_file(tmp_path / "huge.pt", HUGE)
    for spec in (f"az:{path}", f"az:{path}+search:4"):
        with pytest.raises(ModelFileError, match=rf"^az:{path}.*: the network's {NOT_FINITE}.*weights overflow"):
            make_agent(spec, TOY)
    with pytest.raises(AgentError, match=NOT_FINITE):
        AZAgent(str(path))


def test_az_policy_that_overflows_on_an_observation_is_an_agent_error_not_action_0(tmp_path):
    from agents.az_agent import AZAgent

    agent = AZAgent(str(_az_file(tmp_path / "ok.pt")), env_id=TOY)
    env, obs, mask = _legal_obs()
    mask[0] = False  # action 0 illegal: the old argmax over NaN played it
    assert mask.sum() > 1
    assert mask[agent.act(obs, mask, np.random.default_rng(0))]
    _blow_up(agent.net)
    with pytest.raises(AgentError, match=rf"^az:.*ok\.pt: the network's {NOT_FINITE} for this observation"):
        agent.act(obs, mask, np.random.default_rng(0))


def test_az_search_over_priors_or_values_that_are_not_finite_is_refused(tmp_path):
    from agents.az_agent import AZAgent

    agent = AZAgent(str(_az_file(tmp_path / "ok.pt")), simulations=4, env_id=TOY)
    env = monolith_envs.make(TOY)
    assert play_match(env, [agent, RandomAgent()], seed=0).decisions > 0
    _blow_up(agent.net)
    with pytest.raises(AgentError, match=rf"^az:.*ok\.pt\+search:4: the network's {NOT_FINITE} for a state of its "
                                         "search"):
        play_match(env, [agent, RandomAgent()], seed=0)


# --- ppo: models --------------------------------------------------------------------------------------------
def test_ppo_model_whose_weights_overflow_is_refused_when_loaded(toy_model, tmp_path):
    from monolith_envs.agents.ppo import MaskablePPOAgent, load_maskable_ppo

    huge = rewrite_zip(toy_model, tmp_path / "huge.zip", "policy.pth", state_dict_edit=_fill)
    with pytest.raises(ModelFileError, match=rf"^{huge}: the policy's {NOT_FINITE}.*weights overflow"):
        load_maskable_ppo(huge)
    with pytest.raises(ModelFileError, match=NOT_FINITE):
        MaskablePPOAgent(str(huge))


def test_ppo_policy_that_overflows_on_an_observation_is_an_agent_error(toy_model):
    from monolith_envs.agents.ppo import MaskablePPOAgent, load_maskable_ppo

    env, obs, mask = _legal_obs()
    model = load_maskable_ppo(toy_model)
    det, sto = MaskablePPOAgent(model, name="ppo:det"), MaskablePPOAgent(model, deterministic=False, name="ppo:sto")
    for agent in (det, sto):
        assert mask[agent.act(obs, mask, np.random.default_rng(0))]
    _blow_up(model.policy)
    for agent in (det, sto):  # the old code: a 6 KB ValueError from torch's Categorical
        with pytest.raises(AgentError, match=rf"^{re.escape(agent.name)}: the network's {NOT_FINITE} for this observation"):
            agent.act(obs, mask, np.random.default_rng(0))
    with pytest.raises(AgentError, match=NOT_FINITE):
        sto.action_probabilities(obs, mask)


# --- baseline (a root of the user's own files) --------------------------------------------------------------
def _huge_baseline(root: Path) -> None:
    """A float32 baseline file in ``root`` (indexed with its SHA-256) whose weights are all :data:`HUGE`."""
    import hashlib

    from monolith_envs.agents.baselines import list_baselines
    from monolith_envs.agents.baselines.net import save_baseline_file
    from monolith_envs.agents.baselines.registry import add_to_index
    from tests.agents.test_baselines import fake_baseline

    path = fake_baseline(root)
    blob = torch.load(path, weights_only=True)
    weights = {k: v.float() for k, v in blob["weights"].items()}  # float32: the loader takes both
    save_baseline_file(path, blob["meta"], _fill(weights), dtype=torch.float32)
    [entry] = list_baselines(root)
    add_to_index(root, dict(entry, sha256=hashlib.sha256(path.read_bytes()).hexdigest()))


def test_baseline_file_whose_weights_overflow_is_refused_when_loaded(tmp_path):
    from monolith_envs.agents.baselines import BaselineAgent

    _huge_baseline(tmp_path)
    with pytest.raises(ModelFileError, match=rf"arena_2p\.pt: the network's {NOT_FINITE}.*weights overflow"):
        BaselineAgent("monolith_arena_v0", env_config={}, root=tmp_path)


def test_baseline_that_overflows_on_an_observation_is_an_agent_error_alone_and_with_search(tmp_path):
    from monolith_envs.agents.baselines import BaselineAgent
    from tests.agents.test_baselines import fake_baseline

    fake_baseline(tmp_path)
    env = monolith_envs.make("monolith_arena_v0")
    for sims, where in ((0, "this observation"), (4, "a state of its search")):
        agent = BaselineAgent("monolith_arena_v0", simulations=sims, root=tmp_path)
        res = play_match(env, [agent, RandomAgent()], seed=3)  # plays (and binds) with the file's weights
        assert res.decisions > 0
        agent.net = copy.deepcopy(agent.net)  # the loaded file is cached: blow up a copy
        _blow_up(agent.net)
        with pytest.raises(AgentError, match=rf"^{re.escape(agent.name)}: the network's {NOT_FINITE} for {where}"):
            play_match(env, [agent, RandomAgent()], seed=3)


# --- the commands: one error line, exit status 2 ------------------------------------------------------------
@pytest.mark.parametrize("kind", ["az", "ppo"])
def test_evaluate_refuses_a_model_that_overflows_with_one_error_line(kind, toy_model, tmp_path, capsys):
    from training import evaluate

    if kind == "az":
        path = _az_file(tmp_path / "huge.pt", HUGE)
    else:
        path = rewrite_zip(toy_model, tmp_path / "huge.zip", "policy.pth", state_dict_edit=_fill)
    argv = ["--env", TOY, "--preload", "tests.conftest", "--agents", f"{kind}:{path},random", "--games", "1",
            "--workers", "1", "--no-progress", "--out", str(tmp_path / "e.json")]
    line = one_usage_error(capsys, lambda: evaluate.main(argv))
    assert "output is not finite (NaN or inf)" in line and str(path) in line
    assert not (tmp_path / "e.json").exists()


# --- examples/cleanrl_ppo_vec.py --load ---------------------------------------------------------------------
TINY_CLEANRL = ["--total-decisions", "64", "--num-envs", "2", "--num-steps", "32", "--warm-states", "0",
                "--eval-games", "2", "--hidden", "8", "--row-dim", "0", "--workers", "0"]


@pytest.fixture(scope="module")
def cleanrl():
    spec = importlib.util.spec_from_file_location("_example_cleanrl_nonfinite", ROOT / "examples" / "cleanrl_ppo_vec.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_refused(cleanrl, capsys, path) -> str:
    """``--load path`` ends with exit status 2 and one ``error: --load`` line, no traceback; returns it."""
    with pytest.raises(SystemExit) as exc:
        cleanrl.main([*TINY_CLEANRL, "--load", str(path)])
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "wins against random" not in captured.out  # refused before play
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --load {path}: "), captured.err
    return lines[0]


@pytest.mark.parametrize("value,why", [(float("nan"), "has values that are not finite"),
                                       (float("inf"), "has values that are not finite"),
                                       (HUGE, "the network's output is not finite")])
def test_cleanrl_load_refuses_weights_that_are_not_finite(cleanrl, capsys, tmp_path, value, why):
    game = monolith_envs.make_game("monolith_arena_v0")
    agent = cleanrl.Agent(game.obs_spec.size, game.layout.n, 8)
    path = tmp_path / "w.pt"
    buf = io.BytesIO()
    torch.save(_fill(agent.state_dict(), value), buf)
    path.write_bytes(buf.getvalue())
    assert why in _load_refused(cleanrl, capsys, path)


@pytest.mark.parametrize("content,why", [
    (b"root:x:0:0:root:/root:/bin/bash\n", "not a saved network of this example (not a torch zip"),
    ("LIST", "not a saved network of this example (a torch file of list"),
])
def test_cleanrl_load_refuses_a_file_that_is_not_a_saved_network(cleanrl, capsys, tmp_path, content, why):
    path = tmp_path / "not_weights"
    if content == "LIST":
        torch.save([1, 2, 3], path)
    else:
        path.write_bytes(content)
    line = _load_refused(cleanrl, capsys, path)
    assert why in line and "IndexError" not in line


def test_play_reports_an_opponent_that_cannot_go_on_mid_game_on_one_line(monkeypatch, capsys):
    """agents.play: an AgentError raised by an opponent during the game (a network whose output overflows on a
    position met in play) stops the game with one error line and exit status 1, not a traceback."""
    import agents
    from agents.play import main
    from monolith_envs.agents.base import AgentError
    from tests.agents.test_play import always

    real = agents.make_agent

    class Overflowing:
        name = "az:x.pt"

        def __init__(self, inner):
            self.inner, self.moves = inner, 0

        def reset(self):
            self.inner.reset()

        def act(self, observation, action_mask, rng):
            self.moves += 1
            if self.moves > 2:
                raise AgentError("az:x.pt: the network's output is not finite (NaN or inf) for this observation")
            return self.inner.act(observation, action_mask, rng)

    monkeypatch.setattr(agents, "make_agent", lambda spec, *a, **k: Overflowing(real("random", *a, **k)))
    out: list[str] = []
    code = main(["monolith_arena_v0", "--opponents", "random", "--seed", "4"], input_fn=always("1"),
                output_fn=out.append)
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "error: az:x.pt: the network's output is not finite" in err
    assert any("game stopped by an error after" in line for line in out)


def test_ppo_policy_whose_legal_logits_are_below_the_mask_value_is_an_agent_error_not_an_illegal_move():
    """sb3-contrib gives masked actions a logit of -1e8: a policy whose legal actions' logits are all below it
    makes predict's argmax a masked action (and the masked probabilities sum to 0). The agent stops with an
    AgentError instead of returning an illegal action or raising numpy's NaN error."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO

    from monolith_envs.agents.base import AgentError
    from monolith_envs.agents.ppo import MaskablePPOAgent

    class Env(gym.Env):
        observation_space = gym.spaces.Box(-1, 1, (3,), np.float32)
        action_space = gym.spaces.Discrete(4)

        def reset(self, seed=None, options=None):
            return np.zeros(3, np.float32), {}

        def step(self, action):
            return np.zeros(3, np.float32), 0.0, True, False, {}

        def action_masks(self):
            return np.ones(4, bool)

    model = MaskablePPO("MlpPolicy", Env(), n_steps=8, batch_size=8, device="cpu")
    with torch.no_grad():
        model.policy.action_net.weight.zero_()
        model.policy.action_net.bias.copy_(torch.tensor([-1e9, -1e9, 0.0, 0.0]))
    mask = np.array([1, 1, 0, 0], np.int8)
    for deterministic, words in ((True, "most probable action 2 is masked out"),
                                 (False, "gives its legal actions no probability")):
        agent = MaskablePPOAgent(model, deterministic=deterministic)
        with pytest.raises(AgentError, match=words):
            agent.act(np.zeros(3, np.float32), mask, np.random.default_rng(0))
