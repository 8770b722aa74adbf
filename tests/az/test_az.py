"""The search-based self-play recipe (training.az) on every game, at a tiny budget."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import torch

import monolith_envs
from agents import AgentSpecError, make_agent, play_match
from training.az.config import validate_az
from training.az.fit import ReplayBuffer
from training.az.net import CheckpointError, load_checkpoint, net_for_game, save_checkpoint, to_absolute
from training.az.search import BatchedPUCT, visit_target
from training.az.selfplay import heuristic_games, search_games
from training.config import TrainConfigError

GAMES = [
    ("monolith_arena_v0", {"num_players": 2}),
    ("monolith_arena_v0", {"num_players": 4, "mode": "teams"}),
    ("monolith_strategy_v0", {"num_players": 2}),
    ("the_monolith_v0", {"num_players": 4}),
    ("monolith_strategy_v0", {"num_players": 1}),
]
torch.set_num_threads(1)  # one intra-op thread, as the recipe's processes use (many threads crawl on a busy machine)

IDS = ["arena_duel", "arena_teams", "strategy_2p", "monolith_4p", "strategy_solo"]


def _net(game, seed=0):
    torch.manual_seed(seed)
    return net_for_game(game, (16,))


def _midgame_states(game, k, seed):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(k):
        s = game.initial_state(rng)
        for _ in range(5 + 3 * i):
            legal = np.flatnonzero(game.legal_mask(s))
            if game.is_terminal(s) or legal.size == 0:
                break
            game.apply(s, int(legal[rng.integers(legal.size)]), rng)
        if not game.is_terminal(s):
            out.append(s)
    return out


@pytest.mark.parametrize("env_id,cfg", GAMES, ids=IDS)
def test_search_visits_only_legal_actions_and_target_sums_to_one(env_id, cfg):
    game = monolith_envs.make_game(env_id, **cfg)
    states = _midgame_states(game, 3, seed=1)
    before = [game.to_dict(s) for s in states]
    search = BatchedPUCT(game, simulations=6, noise_frac=0.25)
    seats = [game.current_player(s) for s in states]
    visits = search.run(_net(game), states, seats, [np.random.default_rng(i) for i in range(len(states))])
    assert search.forward_passes <= 1 + 6  # the roots, then at most one pass per simulation round for all games
    for s, v, b in zip(states, visits, before):
        mask = np.asarray(game.legal_mask(s), bool)
        assert v.shape == (game.layout.n,)
        assert v.sum() == 6 and np.all(v[~mask] == 0)
        t = visit_target(v, mask)
        assert t.sum() == pytest.approx(1.0) and np.all(t[~mask] == 0) and np.all(t >= 0)
        assert game.to_dict(s) == b  # the true states are never modified


def test_visit_target_without_visits_is_uniform_and_refuses_an_empty_mask():
    mask = np.array([False, True, True, False])
    assert visit_target(np.zeros(4), mask).tolist() == [0.0, 0.5, 0.5, 0.0]
    assert visit_target(np.array([9.0, 3.0, 1.0, 5.0]), mask).tolist() == [0.0, 0.75, 0.25, 0.0]
    with pytest.raises(ValueError, match="no legal action"):
        visit_target(np.ones(4), np.zeros(4, bool))


def test_values_are_seat_relative():
    assert to_absolute(np.array([0.5, -0.1, 0.2, -0.6]), 1).tolist() == [-0.6, 0.5, -0.1, 0.2]


@pytest.mark.parametrize("env_id,cfg", GAMES, ids=IDS)
def test_self_play_samples_are_legal_and_deterministic(env_id, cfg):
    game = monolith_envs.make_game(env_id, **dict(cfg, max_decisions=40))
    net = _net(game)
    a, stats = search_games(game, net, n_games=2, seed=3, simulations=2, concurrent=2, temp_moves=10)
    b, _ = search_games(game, net, n_games=2, seed=3, simulations=2, concurrent=2, temp_moves=10)
    n, p = game.layout.n, game.num_players
    m = len(a["obs"])
    assert m > 0 and stats["games"] == 2 and stats["samples"] == m
    assert a["obs"].shape == (m, game.obs_spec.size) and a["pi"].shape == (m, n) and a["z"].shape == (m, p)
    masks = np.unpackbits(a["masks"], axis=1, count=n).astype(bool)
    assert np.all(masks.sum(axis=1) > 1)  # only real choices become samples
    assert np.all(a["pi"][~masks] == 0)
    np.testing.assert_allclose(a["pi"].astype(np.float64).sum(axis=1), 1.0, atol=2e-3)
    # batching: fewer forward passes than leaves when two games are searched together
    assert stats["forward_passes"] < stats["leaf_evals"]
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def test_heuristic_games_give_one_hot_legal_targets_and_final_returns():
    game = monolith_envs.make_game("the_monolith_v0", num_players=3)
    data, stats = heuristic_games(game, "the_monolith_v0", n_games=1, seed=0, epsilon=0.0)
    masks = np.unpackbits(data["masks"], axis=1, count=game.layout.n).astype(bool)
    assert stats["samples"] == len(data["obs"]) > 0
    assert np.all(data["pi"].sum(axis=1) == 1) and np.all(data["pi"][~masks] == 0)
    assert np.all(data["pi"].max(axis=1) == 1)  # one-hot: the heuristic's move
    soft, _ = heuristic_games(game, "the_monolith_v0", n_games=1, seed=0, epsilon=0.0, value_share=0.5)
    np.testing.assert_allclose(soft["pi"].astype(np.float64).sum(axis=1), 1.0, atol=2e-3)
    assert np.all(soft["pi"][~masks] == 0) and np.all(soft["pi"].max(axis=1) >= 0.5)
    np.testing.assert_array_equal(soft["obs"], data["obs"])  # the same games: the value part draws nothing
    z = data["z"].astype(np.float64)  # the same final returns, rolled to each acting seat
    assert np.allclose(np.sort(z, axis=1), np.sort(z[0])[None, :])


def test_replay_buffer_keeps_the_newest_rows():
    buf = ReplayBuffer(5)
    buf.add({"obs": np.arange(3)})
    buf.add({"obs": np.arange(3, 7)})
    assert len(buf) == 5 and buf.data["obs"].tolist() == [2, 3, 4, 5, 6]


def _tiny_cfg(tmp_path, env_id, cfg, **kw):
    return validate_az(dict(dict(
        env_id=env_id, env_config=dict(cfg, max_decisions=40), name="tiny", out_dir=str(tmp_path), workers=1, tasks=1,
        hidden=[16], warm_games=1, warm_epochs=1, iterations=1, games_per_iteration=1, concurrent=1, simulations=2,
        train_epochs=1, eval_games=0, final_eval_games=2, eval_opponents=["random"]), **kw))


@pytest.mark.parametrize("env_id,cfg", [GAMES[0], GAMES[2], GAMES[3]], ids=["arena_duel", "strategy_2p", "monolith_4p"])
def test_tiny_run_writes_a_plain_tensor_checkpoint_and_report(tmp_path, env_id, cfg):
    from training.az import run

    rep = run(_tiny_cfg(tmp_path, env_id, cfg), progress=False)
    blob = torch.load(rep["final_model"], weights_only=True)
    assert blob["format"] == "monolith-az-v1" and blob["meta"]["env_id"] == env_id
    net, meta = load_checkpoint(rep["final_model"])
    game = monolith_envs.make_game(env_id, **cfg)
    assert meta["n_actions"] == game.layout.n and meta["num_players"] == game.num_players
    saved = json.loads((tmp_path / "tiny" / "report.json").read_text())
    assert saved["final_eval"]["random"]["games"] == 2
    assert saved["iterations"][0]["selfplay"]["games"] == 1 and saved["warm_start"]["samples"] > 0


def test_tiny_run_is_deterministic_for_a_seed(tmp_path):
    from training.az import run

    env = ("the_monolith_v0", {"num_players": 3})
    r1 = run(_tiny_cfg(tmp_path / "a", *env, final_eval_games=0), progress=False)
    r2 = run(_tiny_cfg(tmp_path / "b", *env, final_eval_games=0), progress=False)
    s1, s2 = load_checkpoint(r1["final_model"])[0].state_dict(), load_checkpoint(r2["final_model"])[0].state_dict()
    assert all(torch.equal(s1[k], s2[k]) for k in s1)
    assert r1["iterations"][0]["fit"] == r2["iterations"][0]["fit"]


def test_init_checkpoint_starts_from_its_weights_and_refuses_other_sizes(tmp_path):
    from training.az import run

    env = ("the_monolith_v0", {"num_players": 3})
    game = monolith_envs.make_game(*env[:1], **env[1])
    src = save_checkpoint(_net(game, seed=7), tmp_path / "src.pt", env[0], env[1])
    rep = run(_tiny_cfg(tmp_path, *env, init_checkpoint=str(src), warm_games=0, iterations=0, final_eval_games=0),
              progress=False)
    a, b = load_checkpoint(src)[0].state_dict(), load_checkpoint(rep["final_model"])[0].state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    with pytest.raises(CheckpointError, match="has sizes"):
        run(_tiny_cfg(tmp_path, *env, hidden=[8], init_checkpoint=str(src), warm_games=0, iterations=0,
                      final_eval_games=0), progress=False)


@pytest.fixture
def arena_ckpt(tmp_path):
    game = monolith_envs.make_game("monolith_arena_v0", num_players=2)
    return save_checkpoint(_net(game), tmp_path / "net.pt", "monolith_arena_v0", {"num_players": 2})


@pytest.mark.parametrize("suffix", ["", "+search:3"])
def test_az_agent_spec_plays_legal_moves_deterministically(arena_ckpt, suffix):
    env = monolith_envs.make("monolith_arena_v0", wrapped=False, num_players=2, max_decisions=60)
    spec = f"az:{arena_ckpt}{suffix}"
    res = [play_match(env, [make_agent(spec, "monolith_arena_v0"), make_agent("random", "monolith_arena_v0")],
                      seed=5) for _ in range(2)]
    assert res[0].decisions > 0  # play_match refuses illegal actions, so the whole match was legal
    assert res[0].returns.tolist() == res[1].returns.tolist() and res[0].decisions == res[1].decisions


def test_az_agent_spec_errors(tmp_path, arena_ckpt):
    with pytest.raises(AgentSpecError, match="integer >= 1"):
        make_agent(f"az:{arena_ckpt}+search:0", "monolith_arena_v0")
    with pytest.raises(CheckpointError, match="no policy-value checkpoint"):
        make_agent(f"az:{tmp_path / 'missing.pt'}", "monolith_arena_v0")
    bad = tmp_path / "obj.pt"
    torch.save({"format": "monolith-az-v1", "meta": ReplayBuffer(1)}, bad)  # needs unpickling a class: refused
    with pytest.raises(CheckpointError, match="not a plain-tensor checkpoint"):
        make_agent(f"az:{bad}", "monolith_arena_v0")
    agent = make_agent(f"az:{arena_ckpt}", "monolith_arena_v0")
    with pytest.raises(Exception, match="network takes 4532 observation values"):
        agent.act(np.zeros(10, np.float32), np.ones(5, np.int8), np.random.default_rng(0))


def test_config_errors_name_the_key_and_the_range():
    with pytest.raises(TrainConfigError, match="unknown config key.*'simulatons'"):
        validate_az({"simulatons": 3})
    with pytest.raises(TrainConfigError, match="'simulations': must be an integer from 1 to"):
        validate_az({"simulations": 0})
    with pytest.raises(TrainConfigError, match="'noise_frac': must be in \\[0, 1\\]"):
        validate_az({"noise_frac": 1.5})
    with pytest.raises(TrainConfigError, match="'quick': unknown override"):
        validate_az({"quick": {"bogus": 1}})


def test_cli_bad_input_is_one_error_line_and_status_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("simulations = -1\n")
    for args in (["--config", str(bad)], ["--seed", "x"]):
        p = subprocess.run([sys.executable, "-m", "training.az", *args], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2, p.stderr
        assert "Traceback" not in p.stderr and p.stderr.strip().splitlines()[-1].startswith("python -m training.az: error:")


def test_shipped_configs_load_and_name_a_valid_game():
    from training.az.config import load_az_config
    from training.config import CONFIG_DIR

    paths = sorted(CONFIG_DIR.glob("az_*.toml"))
    assert {p.stem for p in paths} >= {"az_arena_2p", "az_strategy_2p", "az_the_monolith_4p"}
    for p in paths:
        for quick in (False, True):
            cfg = load_az_config(p, quick=quick)
            game = monolith_envs.make_game(cfg["env_id"], **cfg["env_config"])
            assert game.num_players == cfg["env_config"]["num_players"]
            assert cfg["name"] == p.stem + ("_quick" if quick else "")


def test_warm_samples_are_saved_and_preload_the_buffer(tmp_path):
    from training.az import run
    from training.az.selfplay import load_samples

    env = ("the_monolith_v0", {"num_players": 3})
    run(_tiny_cfg(tmp_path / "a", *env, iterations=0, final_eval_games=0), progress=False)
    path = tmp_path / "a" / "tiny" / "warm_samples.npz"
    game = monolith_envs.make_game(env[0], **env[1])
    data = load_samples(path, game)
    rep = run(_tiny_cfg(tmp_path / "b", *env, warm_games=0, init_samples=str(path), final_eval_games=0),
              progress=False)
    assert rep["iterations"][0]["buffer"] == len(data["obs"]) + rep["iterations"][0]["selfplay"]["samples"]
    with pytest.raises(ValueError, match="this game needs"):
        load_samples(path, monolith_envs.make_game("the_monolith_v0", num_players=4))
    with pytest.raises(ValueError, match="not found"):
        load_samples(tmp_path / "none.npz", game)


def _toy_position(marks: dict[int, int], player: int):
    from tests.toy_game import ToyGame

    game = ToyGame({"extra_turn_face": 7})
    s = game.initial_state(np.random.default_rng(0))
    for cell, seat in marks.items():
        s.board[cell] = seat
    s.player = player
    return game, s


@pytest.mark.parametrize("player", [0, 1])
def test_search_takes_the_win_and_blocks_the_loss_with_an_untrained_network(player):
    """Perspective check: values backed up for the seat that acts at each node (either seat to move)."""
    me, them = player, 1 - player
    torch.manual_seed(0)
    # cells 0 1 2 / 3 4 5 / 6 7 8: `me` wins at 2; otherwise `them` (to move next) wins at 8
    game, s = _toy_position({0: me, 1: me, 5: them, 4: them, 3: me, 6: them}, me)
    net = net_for_game(game, (8,))
    search = BatchedPUCT(game, simulations=64, noise_frac=0.0)
    v = search.run(net, [s], [me], [np.random.default_rng(1)])[0]
    assert int(np.argmax(v)) == 2
    # no win for `me` now: `them` threatens 2 (4-... no) -> build: them has 4 and 6, threat at 2; me must block
    game, s = _toy_position({4: them, 6: them, 0: me, 8: me, 5: them, 3: me}, me)
    v = search.run(net, [s], [me], [np.random.default_rng(2)])[0]
    legal = np.flatnonzero(game.legal_mask(s))
    assert set(legal.tolist()) == {1, 2, 7}
    assert int(np.argmax(v)) == 2, v


def test_leaf_mix_steers_the_search_by_the_leaf_value_and_is_checked():
    """With ``leaf_mix=1`` the leaf values are ``leaf_value_fn``'s alone: a value that rewards the mover for
    holding the corner cell 6 makes the search pick 6 on an empty board; ``leaf_mix=0`` ignores the function."""
    from monolith_envs.agents.puct import BatchedPUCT as PUCT

    torch.manual_seed(0)
    game, s = _toy_position({}, 0)
    net = net_for_game(game, (8,))
    calls = []

    def corner_value(g, state):
        calls.append(1)
        holder = int(state.board[6])
        return np.array([1.0, -1.0] if holder == 0 else [-1.0, 1.0] if holder == 1 else [0.0, 0.0])

    v = PUCT(game, 64, noise_frac=0.0, leaf_value_fn=corner_value, leaf_mix=1.0).run(
        net, [s], [0], [np.random.default_rng(3)])[0]
    assert int(np.argmax(v)) == 6 and v[6] > 32 and calls
    calls.clear()
    PUCT(game, 8, noise_frac=0.0, leaf_value_fn=corner_value, leaf_mix=0.0).run(
        net, [s], [0], [np.random.default_rng(3)])
    assert not calls
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match=r"leaf_mix must be in \[0, 1\]"):
            PUCT(game, 8, leaf_value_fn=corner_value, leaf_mix=bad)


def test_leaf_mix_reads_no_hidden_information_of_the_true_state():
    """Two states that look the same to the acting seat (the true one and a redraw of what it cannot see) get
    the same search with the heuristic value mixed in: the root's value is taken on a determinization too."""
    from monolith_envs.agents.heuristics import value_fn_for
    from monolith_envs.agents.puct import BatchedPUCT as PUCT

    game = monolith_envs.make_game("monolith_strategy_v0", num_players=2)
    net = _net(game)
    search = PUCT(game, 8, noise_frac=0.0, leaf_value_fn=value_fn_for("monolith_strategy_v0"), leaf_mix=1.0)
    states = _midgame_states(game, 6, seed=4)
    differ = 0
    for k, s in enumerate(states):
        seat = game.current_player(s)
        twin = game.resample_hidden(s, seat, np.random.default_rng(100 + k))
        assert np.array_equal(game.observe(s, seat), game.observe(twin, seat))
        differ += not np.allclose(value_fn_for("monolith_strategy_v0")(game, s),
                                  value_fn_for("monolith_strategy_v0")(game, twin))
        a = search.run(net, [s], [seat], [np.random.default_rng(k)])[0]
        b = search.run(net, [twin], [seat], [np.random.default_rng(k)])[0]
        assert np.array_equal(a, b), k
    assert differ > 0  # the hidden part does change the heuristic value of some of these states


def test_an_az_network_warns_on_a_rule_its_run_left_at_the_default(arena_ckpt):
    """The checkpoint keeps the config keys its run set ({num_players: 2}); Arena's monolith_module, left at
    its default (off), is still a rule it was trained without: playing with it on warns, at the spec check
    of training.evaluate (make_agent with env_config) and at bind; the same rules do not. ``+search`` with no
    number names the form it needs."""
    from monolith_envs.agents.baselines import VariantWarning

    with pytest.warns(VariantWarning, match=r"monolith_module"):
        make_agent(f"az:{arena_ckpt}", "monolith_arena_v0", {"num_players": 2, "monolith_module": True})
    other = arena_ckpt.with_name("copy.pt")  # once per process and network: another file for the bind
    other.write_bytes(arena_ckpt.read_bytes())
    with pytest.warns(VariantWarning, match=r"monolith_module"):
        agent = make_agent(f"az:{other}+search:2", "monolith_arena_v0")
        env = monolith_envs.make("monolith_arena_v0", wrapped=False, monolith_module=True)
        env.reset(seed=0)
        agent.bind(env)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", VariantWarning)
        make_agent(f"az:{arena_ckpt}", "monolith_arena_v0", {"num_players": 2, "factions": "random"})
    with pytest.raises(AgentSpecError, match=r"az:PATH\+search needs its number of simulations: az:PATH\+search:N"):
        make_agent(f"az:{arena_ckpt}+search", "monolith_arena_v0")


def test_a_stored_key_the_game_refuses_still_leaves_the_defaults_compared(tmp_path):
    """A checkpoint whose config holds a key this game refuses (an older version's) still fills the rest
    with the game's defaults, so Arena's monolith_module=true warns; a checkpoint file whose name ends in
    "+search" is a path, not a spec missing its N."""
    from monolith_envs.agents.baselines import VariantWarning

    game = monolith_envs.make_game("monolith_arena_v0", num_players=2)
    odd = save_checkpoint(_net(game), tmp_path / "odd.pt", "monolith_arena_v0", {"num_players": 2, "legacy_key": 1})
    with pytest.warns(VariantWarning, match=r"monolith_module=False; this game has monolith_module=True"):
        make_agent(f"az:{odd}", "monolith_arena_v0", {"num_players": 2, "monolith_module": True})
    named = tmp_path / "net+search"
    named.write_bytes(odd.read_bytes())
    assert make_agent(f"az:{named}", "monolith_arena_v0").simulations == 0
