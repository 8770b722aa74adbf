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
    baseline_dir,
    find_baseline,
    list_baselines,
    load_baseline,
    parse_baseline_options,
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
    assert parse_baseline_options("baseline+search:16:mix=0.25") == (16, 0.25)
    assert parse_baseline_options("baseline+search:16") == (16, 0.0) and parse_baseline_options("baseline") == (0, 0.0)
    assert parse_baseline_options("Baseline+Search:4:MIX=1") == (4, 1.0)
    for bad, why in (("baseline+search:0", "from 1 to"), ("baseline+search:x", "integer"), ("baseline:foo", "expected"),
                     ("baseline+search:8:mix=2", "from 0 to 1"), ("baseline+search:8:mix=nan", "from 0 to 1"),
                     ("baseline+search:8:mix=x", "from 0 to 1"), ("baseline+search:8:c=1", "only option is mix"),
                     ("baseline+search:8:mix=0.5:mix=0.2", "given twice"), ("baseline+search:8:", "empty option")):
        with pytest.raises(AgentSpecError, match=why):
            make_agent(bad, ARENA)


def test_a_config_without_a_baseline_is_one_error_naming_the_configs_that_have_one(tmp_path):
    fake_baseline(tmp_path)
    fake_baseline(tmp_path, "the_monolith_v0", {"num_players": 4}, name="the_monolith_4p")
    with pytest.raises(NoBaselineError) as e:
        BaselineAgent("the_monolith_v0", env_config={"num_players": 2}, root=tmp_path)
    assert str(e.value) == ("no baseline for the_monolith_v0 with num_players=2; the_monolith_v0 has baselines for: "
                            "num_players=4 (the_monolith_4p); play one of those configs, e.g. "
                            "--set num_players=4 (training.evaluate, agents.play) or make(env_id, num_players=4) (in "
                            "Python: the same keywords for make_vec and gymnasium.make)")
    with pytest.raises(NoBaselineError, match="no baseline for monolith_strategy_v0; baselines exist for"):
        BaselineAgent("monolith_strategy_v0", root=tmp_path)
    # a partial config that names neither key says so (it read "with ;")
    with pytest.raises(NoBaselineError, match=r"no baseline for the_monolith_v0 with a config that sets none of "
                                              r"num_players, mode \(give the game's full config, game.config\); "):
        find_baseline("the_monolith_v0", {"first_player": 0}, root=tmp_path)
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
        for agent in (BaselineAgent(ARENA, root=tmp_path), BaselineAgent(ARENA, simulations=4, root=tmp_path),
                      BaselineAgent(ARENA, simulations=4, root=tmp_path, leaf_mix=0.5)):
            res = play_match(env, [agent, RandomAgent()], seed=11)
            runs.append((agent.name, res.returns.tolist(), res.decisions))
    assert runs[:3] == runs[3:]
    assert [r[0] for r in runs[:3]] == ["baseline", "baseline+search:4", "baseline+search:4:mix=0.5"]
    with pytest.raises(ValueError, match="leaf_mix must be from 0 to 1"):
        BaselineAgent(ARENA, simulations=4, root=tmp_path, leaf_mix=1.5)
    with pytest.raises(ValueError, match="needs simulations > 0"):
        BaselineAgent(ARENA, root=tmp_path, leaf_mix=0.5)


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


# ------------------------------------------------------------------------------------------- shipped files
SHIPPED = {e["name"]: e for e in list_baselines()}
#: name -> (games against random, the least wins / first places / successes required, seed); from measured
#: results on these seeds, with a margin (training/README.md, "Pretrained baselines")
BEATS_RANDOM: dict[str, tuple[int, int, int]] = {
    "arena_2p": (40, 36, 70000),  # measured 38 wins of 40 (the 450k-step file; the 1.2M-step one passes too)
    "arena_4p": (40, 17, 70000),  # measured 23 first places of 40 (an equal share: 10)
    "strategy_2p": (40, 36, 70000),  # measured 39 wins of 40
    "strategy_3p": (40, 34, 70000),  # measured 39 first places of 40 (an equal share: 13.3)
    "strategy_solo": (40, 20, 70000),  # measured 31 successes of 40 (random alone: 0 of 40)
    "the_monolith_3p": (40, 28, 70000),  # measured 39 first places of 40 (an equal share: 13.3)
    "the_monolith_4p": (20, 14, 70000),  # measured 19 first places of 20 (an equal share: 5)
}


def test_the_shipped_baselines_are_small_plain_tensor_files_with_their_training_record():
    assert set(SHIPPED) == set(BEATS_RANDOM)
    total = 0
    for name, entry in SHIPPED.items():
        path = baseline_dir() / entry["file"]
        total += path.stat().st_size
        obj = torch.load(path, map_location="cpu", weights_only=True)
        assert obj["format"] == FORMAT and all(t.dtype == torch.float16 for t in obj["weights"].values())
        meta = obj["meta"]
        assert meta["name"] == name and meta["env_id"] == entry["env_id"]
        game = monolith_envs.make_game(entry["env_id"], **entry["env_config"])
        assert select_of(dict(game.config)) == entry["select"] and meta["obs_size"] == game.obs_spec.size
        rec = meta["training"]
        assert rec["command"].startswith("python -m training.train --config training/configs/")
        assert rec["learner_steps"] > 0 and rec["wall_seconds"] > 0 and rec["final_eval"]
        # the value head the search uses was refitted on game outcomes (training/outcome_values.py)
        vt = meta["value_training"]
        assert vt["command"].startswith(f"python -m training.outcome_values {name} ") and vt["samples"] >= 100_000
        assert vt["holdout_mse_after"] < vt["holdout_mse_before"]
        net, _ = load_baseline(entry)
        assert next(net.parameters()).dtype == torch.float32
    assert total <= 10 * 2**20


@pytest.mark.parametrize("name", sorted(BEATS_RANDOM))
def test_each_shipped_baseline_beats_random_and_is_deterministic_for_a_seed(name):
    from training.evaluate import evaluate_against

    entry = SHIPPED[name]
    games, least, seed = BEATS_RANDOM[name]
    s = evaluate_against(entry["env_id"], "baseline", "random", games, seed=seed, env_config=entry["env_config"],
                         workers=1)
    assert s["games"] == games and s["wins"] >= least, s
    env = monolith_envs.make(entry["env_id"], **entry["env_config"])
    n = env.unwrapped.game.num_players
    logs = []
    for _ in range(2):  # the same seed gives the same game, action by action
        play_match(env, [BaselineAgent(entry["env_id"])] + [RandomAgent() for _ in range(n - 1)], seed=seed)
        logs.append(list(env.unwrapped.episode_log.actions))
    assert logs[0] == logs[1] and len(logs[0]) > 10


def test_the_spec_works_in_evaluate_play_and_the_gymnasium_wrapper(capsys):
    from agents.play import main as play_main
    from monolith_envs.wrappers import SingleAgentEnv
    from training.evaluate import evaluate_against

    agent = make_agent("baseline", ARENA)
    assert isinstance(agent, BaselineAgent) and agent.entry is None  # chosen when bound
    chosen = make_agent("baseline+search:2", "the_monolith_v0", {"num_players": 4})
    assert chosen.entry["name"] == "the_monolith_4p" and chosen.simulations == 2  # chosen from the config
    s = evaluate_against(ARENA, "baseline+search:4", "random", 2, seed=50000, workers=1)
    assert s["games"] == 2 and s["wins"] + s["draws"] + s["losses"] == 2
    # agents.play: the non-interactive path (a scripted person who always answers 1)
    answers = iter(["1"] * 5000)
    out: list[str] = []
    res = play_main([ARENA, "--opponents", "baseline", "--seed", "4"], input_fn=lambda prompt: next(answers),
                    output_fn=out.append)
    assert res is not None and not res.truncated and "opponents: P1 baseline" in " ".join(out)
    with pytest.raises(SystemExit) as e:
        play_main(["monolith_strategy_v0", "--set", "num_players=4", "--opponents", "baseline,baseline,baseline",
                   "--seed", "4"], input_fn=lambda prompt: "1", output_fn=out.append)
    assert e.value.code == 2
    assert "no baseline for monolith_strategy_v0 with num_players=4; monolith_strategy_v0 has baselines for: num_players=2 (strategy_2p)" in capsys.readouterr().err
    # an opponent of the single-agent wrapper, chosen for the env's config at reset
    env = SingleAgentEnv(ARENA, ["baseline"], seed=3)
    obs, info = env.reset(seed=3)
    (opp,) = env.opponents.values()
    assert isinstance(opp, BaselineAgent) and opp.entry["name"] == "arena_2p"
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = term or trunc
    assert info["outcome"] in ("win", "loss", "draw")


def test_the_gymnasium_wrapper_refuses_a_baseline_opponent_for_a_config_without_one_at_construction():
    from monolith_envs.wrappers import SingleAgentEnv

    with pytest.raises(NoBaselineError, match="no baseline for monolith_arena_v0 with num_players=3 mode=ffa"):
        SingleAgentEnv("monolith_arena_v0", ["baseline", "baseline"], env_config={"num_players": 3, "mode": "ffa"})
    env = SingleAgentEnv("monolith_arena_v0", ["baseline"], env_config={"num_players": 2})
    (agent,) = env._sampler(np.random.default_rng(0), 1)
    assert agent.entry["name"] == "arena_2p"  # chosen at construction, before any reset


def test_a_rules_variant_the_baseline_never_saw_gets_a_warning_naming_it():
    """The Monolith module (Arena) and player powers (Strategy) keep the sizes, so the network plays, with a
    warning naming the option; reward and decision cap, and a faction pair of a run on random factions, do not
    warn."""
    import warnings

    from monolith_envs.agents.baselines.agent import variant_differences

    def warned(env_id, **cfg):
        env = monolith_envs.make(env_id, **cfg)
        env.reset(seed=0)
        agent = make_agent("baseline", env_id)
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            agent.bind(env)
        return [str(w.message) for w in got if issubclass(w.category, UserWarning)]

    assert warned("monolith_arena_v0", monolith_module=True) == [
        "baseline: baseline arena_2p was trained with monolith_module=False; this game has monolith_module=True: "
        "it plays, but on rules it never saw, so expect it to be weaker"]
    assert "player_powers=False; this game has player_powers=True" in warned(
        "monolith_strategy_v0", num_players=2, player_powers=True)[0]
    assert warned("monolith_arena_v0", reward_mode="score", max_decisions=300,
                  factions=["harbingers_of_the_forest", "guardians_of_the_realm"]) == []
    assert variant_differences({"a": 1, "factions": "random", "reward_mode": "x"},
                               {"a": 2, "factions": ["f", "g"], "reward_mode": "y", "new": 1}) == [("a", 1, 2)]
    assert warned("the_monolith_v0", num_players=3, first_player=0, score_scale=0.5) == []  # drawn / reward
    assert variant_differences({"first_player": 0}, {"first_player": 1}) == [("first_player", 0, 1)]
