"""Pretrained baselines (``baseline``, ``baseline+search:N``): the shipped files, the agent, and refusing bad files."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import monolith_envs  # noqa: E402
from monolith_envs.agents import AgentError, AgentSpecError, RandomAgent, make_agent, play_match  # noqa: E402
from monolith_envs.agents.baselines import (  # noqa: E402
    BaselineAgent,
    NoBaselineError,
    list_baselines,
    parse_baseline_spec,
)
from monolith_envs.agents.baselines.net import (  # noqa: E402
    FORMAT,
    BaselineNet,
    load_baseline_file,
    piece_layout,
    save_baseline_file,
)
from monolith_envs.agents.baselines.registry import add_to_index, select_of  # noqa: E402
from monolith_envs.agents.model_files import ModelFileError  # noqa: E402

ARENA = "monolith_arena_v0"


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)  # batch-1 inference: more threads only contend on a shared machine
    yield
    torch.set_num_threads(before)


def fake_baseline(root: Path, env_id: str = ARENA, config: dict | None = None, name: str = "arena_2p",
                  seed: int = 0) -> Path:
    """A baseline file of random weights (the real layout of ``env_id``) and its index entry in ``root``."""
    game = monolith_envs.make_game(env_id, **(config or {}))
    meta = {"name": name, "env_id": env_id, "env_config": dict(game.config), "obs_size": game.obs_spec.size,
            "n_actions": game.layout.n, "num_players": game.num_players,
            "pieces": [list(p) for p in piece_layout(game.obs_spec)], "row_dim": 8, "features_dim": 16,
            "pi_arch": [16], "vf_arch": [16], "activation": "tanh", "training": {"command": "test"}}
    torch.manual_seed(seed)
    path = save_baseline_file(root / f"{name}.pt", meta, BaselineNet(meta).state_dict())
    add_to_index(root, {"name": name, "file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                        "env_id": env_id, "select": select_of(dict(game.config)), "env_config": config or {}})
    return path


# ------------------------------------------------------------------------------------------------ the agent
def test_spec_forms_and_their_errors():
    assert parse_baseline_spec("baseline") == 0 and parse_baseline_spec(" baseline+search:16 ") == 16
    for bad, why in (("baseline+search:0", "from 1 to"), ("baseline+search:x", "integer"), ("baseline:foo", "expected")):
        with pytest.raises(AgentSpecError, match=why):
            make_agent(bad, ARENA)


def test_a_config_without_a_baseline_is_one_error_naming_the_configs_that_have_one(tmp_path):
    fake_baseline(tmp_path)
    fake_baseline(tmp_path, "the_monolith_v0", {"num_players": 4}, name="the_monolith_4p")
    with pytest.raises(NoBaselineError) as e:
        BaselineAgent("the_monolith_v0", env_config={"num_players": 2}, root=tmp_path)
    assert str(e.value) == ("no baseline for the_monolith_v0 with num_players=2; baselines exist for: "
                            "monolith_arena_v0 with num_players=2 mode=duel (arena_2p), "
                            "the_monolith_v0 with num_players=4 (the_monolith_4p)")
    with pytest.raises(NoBaselineError, match="no baseline for monolith_strategy_v0; baselines exist for"):
        BaselineAgent("monolith_strategy_v0", root=tmp_path)
    # chosen when bound: a 4-seat Arena env has no baseline here
    agent = BaselineAgent(ARENA, root=tmp_path)
    env = monolith_envs.make(ARENA, num_players=4, mode="ffa")
    env.reset(seed=0)
    with pytest.raises(NoBaselineError, match="with num_players=4 mode=ffa"):
        agent.bind(env)
    with pytest.raises(AgentError, match="call agent.bind"):
        agent.act(np.zeros(4532, np.float32), np.ones(500, np.int8), np.random.default_rng(0))


def test_the_agent_plays_legal_deterministic_games_alone_and_with_search(tmp_path):
    fake_baseline(tmp_path)
    env = monolith_envs.make(ARENA)
    runs = []
    for _ in range(2):
        for agent in (BaselineAgent(ARENA, root=tmp_path), BaselineAgent(ARENA, simulations=4, root=tmp_path)):
            res = play_match(env, [agent, RandomAgent()], seed=11)
            runs.append((agent.name, res.returns.tolist(), res.decisions))
    assert runs[:2] == runs[2:] and runs[0][0] == "baseline" and runs[1][0] == "baseline+search:4"


def test_torch_missing_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(AgentError, match=r"monolith-envs\[train\]"):
        BaselineAgent(ARENA)


# --------------------------------------------------------------------------------------- refusing bad files
def test_a_changed_file_is_refused_by_its_checksum(tmp_path):
    path = fake_baseline(tmp_path)
    data = bytearray(path.read_bytes())
    data[-100] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ModelFileError, match="differs from the .* recorded in index.json"):
        BaselineAgent(ARENA, env_config={}, root=tmp_path)


def test_a_pickle_that_would_run_code_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "ran"

    class Hostile:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    path = tmp_path / "evil.pt"
    torch.save({"format": FORMAT, "version": 1, "meta": Hostile(), "weights": {}}, path)
    with pytest.raises(ModelFileError, match="not a baseline file readable as plain tensors"):
        load_baseline_file(path)
    assert not marker.exists()


def test_entries_that_are_not_the_expected_tensors_are_refused(tmp_path):
    good = fake_baseline(tmp_path)
    obj = torch.load(good, weights_only=True)
    cases = []
    w = dict(obj["weights"])
    w["action.weight"] = w["action.weight"].tolist()
    cases.append(({**obj, "weights": w}, "must be a float16/float32 tensor"))
    w = dict(obj["weights"])
    w["value.bias"] = torch.zeros(3)
    cases.append(({**obj, "weights": w}, "must be a float16/float32 tensor of shape"))
    w = dict(obj["weights"])
    w["action.bias"] = torch.full_like(w["action.bias"], float("nan"))
    cases.append(({**obj, "weights": w}, "not finite"))
    cases.append(({**obj, "meta": {**obj["meta"], "features_dim": 10**9}}, "'features_dim' must be an integer"))
    cases.append(({**obj, "meta": {**obj["meta"], "pieces": [[4530, 2, 8]]}}, "does not fit"))
    cases.append(({**obj, "format": "x"}, "not a baseline file"))
    cases.append(([1, 2, 3], "not a baseline file"))
    for i, (content, why) in enumerate(cases):
        p = tmp_path / f"bad{i}.pt"
        torch.save(content, p)
        with pytest.raises(ModelFileError, match=why):
            load_baseline_file(p)
    (tmp_path / "text.pt").write_text("not a file of tensors")
    with pytest.raises(ModelFileError, match="not a baseline file readable"):
        load_baseline_file(tmp_path / "text.pt")
    bad_index = tmp_path / "idx"
    bad_index.mkdir()
    (bad_index / "index.json").write_text(json.dumps({"format": "monolith-envs-baseline-index",
                                                      "baselines": [{"name": "x", "file": "../x.pt"}]}))
    with pytest.raises(ModelFileError, match="plain file name"):
        list_baselines(bad_index)
