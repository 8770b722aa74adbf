"""Agents on the toy game: protocol, random, heuristic, MCTS (no hidden-state reads), PPO masks, human."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from agents import (
    AgentError,
    AgentSpecError,
    HumanAgent,
    MaskablePPOAgent,
    MCTSAgent,
    RandomAgent,
    heuristic_for,
    make_agent,
    masked_choice,
    play_match,
)
from agents.base import Agent
from agents.heuristics.generic import LookaheadAgent
from agents.human import parse_choice
from tests.toy_game import ENV_ID

TOY = ENV_ID


def toy_env(**cfg):
    return monolith_envs.make(TOY, wrapped=False, **cfg)


def position(env, marks0, marks1, player, card0=0, card1=0):
    """Put the toy env in a hand-built position (board cells of each seat, seat to move, hidden cards)."""
    s = env.game.clone(env.game_state)
    s.board[:] = -1
    s.board[list(marks0)] = 0
    s.board[list(marks1)] = 1
    s.player = player
    s.decisions = len(marks0) + len(marks1)
    s.cards[:] = (card0, card1)
    env.set_game_state(s)
    return s


def test_agents_follow_protocol():
    for spec in ("random", "heuristic", "mcts:10", "human"):
        a = make_agent(spec, TOY)
        assert isinstance(a, Agent), spec
        a.reset()


def test_random_agent_is_legal_and_reproducible():
    mask = np.zeros(9, np.int8)
    mask[[2, 5, 7]] = 1
    a = RandomAgent()
    picks1 = [a.act(np.zeros(23, np.float32), mask, rng) for rng in [np.random.default_rng(1)] * 50]
    picks2 = [a.act(np.zeros(23, np.float32), mask, rng) for rng in [np.random.default_rng(1)] * 50]
    assert picks1 == picks2
    assert set(picks1) == {2, 5, 7}
    with pytest.raises(AgentError, match="no legal action"):
        masked_choice(np.zeros(9, np.int8), np.random.default_rng(0))


def test_heuristic_registry_falls_back_to_lookahead_and_takes_a_win():
    h = heuristic_for(TOY)
    assert isinstance(h, LookaheadAgent)
    env = toy_env(extra_turn_face=7)
    env.reset(seed=0)
    h.bind(env)
    position(env, [0, 1], [3, 4], player=0)
    obs = env.observe("player_0")
    assert h.act(obs["observation"], obs["action_mask"], np.random.default_rng(0)) == 2


def test_mcts_takes_win_and_blocks_loss():
    env = toy_env(extra_turn_face=7)
    env.reset(seed=0)
    m = MCTSAgent(simulations=300, c=1.4)
    m.bind(env)
    position(env, [0, 1], [3, 4], player=0)
    obs = env.observe("player_0")
    assert m.act(obs["observation"], obs["action_mask"], np.random.default_rng(0)) == 2
    # player 1 to move, player 0 threatens 0-1-2: player 1 must block at 2 (it has no win of its own)
    position(env, [0, 1, 8], [4, 6], player=1)
    obs = env.observe("player_1")
    assert m.act(obs["observation"], obs["action_mask"], np.random.default_rng(0)) == 2


def test_mcts_never_reads_hidden_state():
    """Same seed, same visible position, different hidden card of the opponent: identical search."""
    env = toy_env()
    env.reset(seed=0)
    m = MCTSAgent(simulations=200)
    m.bind(env)
    visits = []
    actions = []
    for hidden in (0, 1, 2):
        position(env, [4], [0], player=0, card0=1, card1=hidden)
        obs = env.observe("player_0")
        actions.append(m.act(obs["observation"], obs["action_mask"], np.random.default_rng(7)))
        visits.append({a: (ch.n, round(ch.w, 9)) for a, ch in m.last_root.children.items()})
    assert actions[0] == actions[1] == actions[2]
    assert visits[0] == visits[1] == visits[2]
    # the viewer's own card does matter (it is not hidden from the viewer): the search statistics change
    position(env, [4], [0], player=0, card0=2, card1=0)
    obs = env.observe("player_0")
    m.act(obs["observation"], obs["action_mask"], np.random.default_rng(7))
    assert {a: (ch.n, round(ch.w, 9)) for a, ch in m.last_root.children.items()} != visits[0]


def test_mcts_options_and_errors():
    with pytest.raises(ValueError, match="simulations"):
        MCTSAgent(simulations=0)
    with pytest.raises(ValueError, match="rollout"):
        MCTSAgent(rollout="smart")
    a = make_agent("mcts:20:c=0.5:rollout=heuristic:depth=3", TOY)
    assert (a.simulations, a.c, a.rollout, a.rollout_depth) == (20, 0.5, "heuristic", 3)
    with pytest.raises(AgentError, match="bind"):
        MCTSAgent(5).act(np.zeros(23, np.float32), np.ones(9, np.int8), np.random.default_rng(0))
    with pytest.raises(AgentSpecError, match="unknown agent spec 'alphazero'"):
        make_agent("alphazero", TOY)
    with pytest.raises(AgentSpecError, match="unknown MCTS option 'x'"):
        make_agent("mcts:10:x=1", TOY)


def test_mcts_beats_random_on_toy():
    env = toy_env()
    m, r = make_agent("mcts:60", TOY), RandomAgent()
    wins = 0
    for g in range(30):
        seat = g % 2
        agents = [m, r] if seat == 0 else [r, m]
        wins += play_match(env, agents, seed=g).returns[seat] > 0
    assert wins >= 22, wins  # random vs random wins about 45% from either seat


class SpyModel:
    """Stands in for a MaskablePPO model: records every predict call, picks the lowest masked action."""

    def __init__(self, inner=None):
        self.calls = 0
        self.inner = inner

    def predict(self, observation, state=None, episode_start=None, deterministic=False, action_masks=None):
        assert action_masks is not None, "predict called without action masks"
        self.calls += 1
        self.masks_seen = np.asarray(action_masks)
        if self.inner is not None:
            return self.inner.predict(observation, deterministic=deterministic, action_masks=action_masks)
        return np.int64(np.flatnonzero(action_masks)[0]), None


def test_ppo_agent_always_passes_mask():
    spy = SpyModel()
    agent = MaskablePPOAgent(spy)
    mask = np.zeros(9, np.int8)
    mask[6] = 1
    assert agent.act(np.zeros(23, np.float32), mask, np.random.default_rng(0)) == 6
    assert spy.calls == 1 and spy.masks_seen.dtype == bool and spy.masks_seen.sum() == 1
    with pytest.raises(AgentError, match="needs the action mask"):
        agent.act(np.zeros(23, np.float32), None, np.random.default_rng(0))


def test_untrained_ppo_never_plays_illegal_over_1000_games():
    from sb3_contrib import MaskablePPO

    from training.wrapper import SingleAgentEnv

    genv = SingleAgentEnv(TOY, [RandomAgent()], seed=0)
    model = MaskablePPO("MlpPolicy", genv, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [16]},
                        seed=0, device="cpu")
    spy = SpyModel(inner=model)
    det, sto = MaskablePPOAgent(spy), MaskablePPOAgent(model, deterministic=False)
    env = toy_env()  # illegal_action="raise": an illegal move would raise
    decisions = 0
    for g in range(1000):
        ppo = det if g % 2 else sto
        agents = [ppo, RandomAgent()] if g % 4 < 2 else [RandomAgent(), ppo]
        res = play_match(env, agents, seed=g)  # raises IllegalActionError on an illegal move
        assert res.returns.sum() == 0 and res.decisions >= 3  # three marks at the least
        decisions += res.decisions
    assert spy.calls >= 1000  # every deterministic decision went through predict with a mask
    assert decisions > 5000


def test_stochastic_ppo_is_reproducible_with_rng():
    from sb3_contrib import MaskablePPO

    from training.wrapper import SingleAgentEnv

    model = MaskablePPO("MlpPolicy", SingleAgentEnv(TOY, [RandomAgent()]), policy_kwargs={"net_arch": [8]},
                        seed=1, device="cpu")
    agent = MaskablePPOAgent(model, deterministic=False)
    obs = np.zeros(23, np.float32)
    mask = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1], np.int8)
    a = [agent.act(obs, mask, np.random.default_rng(3)) for _ in range(5)]
    assert len(set(a)) == 1 and mask[a[0]] == 1
    p = agent.action_probabilities(obs, mask)
    assert p[mask == 0].sum() == 0 and abs(p.sum() - 1) < 1e-9


def test_parse_choice():
    legal = np.array([2, 445, 446])
    names = ["DISCARD(slot=2)", "END_TURN", "SELECT_HEX(hex=0)"]
    assert parse_choice("445", legal, names) == 445
    assert parse_choice("#2", legal, names) == 446
    assert parse_choice("end_turn", legal, names) == 445
    assert parse_choice("select", legal, names) == 446
    assert parse_choice("3", legal, names) is None
    assert parse_choice("SELECT_HEX(hex=1)", legal, names) is None
    assert parse_choice("", legal, names) is None


def test_human_agent_reprompts_until_legal():
    env = toy_env(extra_turn_face=7)
    env.reset(seed=0)
    answers = iter(["99", "bogus", "cell 4", "?", "MARK(cell=5)"])
    shown = []
    h = HumanAgent(lambda prompt: next(answers), shown.append)
    h.bind(env)
    position(env, [0], [4], player=0)
    obs = env.observe("player_0")
    assert h.act(obs["observation"], obs["action_mask"], np.random.default_rng(0)) == 5
    text = "\n".join(shown)
    assert "  action: MARK (the only kind of move now)" in text
    assert "7) cell 8" in text and "cell 4\n" not in text and "cell 0\n" not in text  # legal cells only
    assert "99 is not one of the options: choose 1-7" in text and "'bogus' is not a legal cell here" in text
    assert "cell 4 is not a legal cell for this move: " in text  # the engine's reason follows


def test_play_cli_human_vs_ai():
    from agents.play import main

    answers = iter([f"cell {k}" for k in (4, 0, 8, 2, 6, 1, 3, 5, 7)] * 2)
    out = []

    def inp(prompt):
        return next(answers)

    res = main([TOY, "--opponents", "random", "--seed", "3", "--seat", "0"], input_fn=inp, output_fn=out.append)
    assert "you are P0 (player_0)" in out[0]
    assert "game over" in out[-1]
    assert res.decisions >= 5 and res.returns.sum() == 0


def test_mcts_root_pruning_keeps_the_best_prior_actions():
    env = toy_env(extra_turn_face=7)
    env.reset(seed=0)
    seen = []

    def prior(game, state, seat, legal, rng):
        seen.append(list(legal))
        return -np.abs(np.asarray(legal) - 7.2)  # prefers cells 7, then 8, then 6

    m = MCTSAgent(simulations=50, prior_fn=prior, root_k=2)
    m.bind(env)
    obs = env.observe("player_0")
    a = m.act(obs["observation"], obs["action_mask"], np.random.default_rng(0))
    assert seen == [list(range(9))]
    assert a in (7, 8) and set(m.last_root.children) == {7, 8}
    with pytest.raises(ValueError, match="root_k"):
        MCTSAgent(root_k=0)


def test_repository_kinds_without_the_repository_package_say_where_they_come_from(tmp_path):
    """``az:`` and ``human`` are registered by the repository's ``agents`` package: the installed package alone
    says so instead of a bare "unknown agent spec"."""
    import subprocess
    import sys

    code = ("import sys\nfrom monolith_envs.agents import make_agent\n"
            "assert 'agents' not in sys.modules\n"
            "for spec in ('az:/x', 'human'):\n"
            "    try:\n        make_agent(spec, 'monolith_arena_v0')\n"
            "    except ValueError as e:\n        print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[0].startswith("AgentSpecError unknown agent spec 'az:/x' ('az' agents are added by the "
                               "repository's agents package")
    assert lines[1].startswith("AgentSpecError agent spec 'human' is the terminal player of the repository's "
                               "commands")


def test_a_model_trained_on_the_dict_observation_plays_and_is_size_checked(tmp_path):
    """``mask_in="observation"`` gives SB3 a Dict space (``MultiInputPolicy``): the agent passes the
    observation and the mask as that Dict (it passed the flat vector, an ``IndexError`` inside SB3), in both
    modes, through a saved file too, and its sizes are read from the Dict's ``observation``."""
    from sb3_contrib import MaskablePPO

    from monolith_envs.agents.ppo import load_maskable_ppo
    from monolith_envs.wrappers import SingleAgentEnv

    genv = SingleAgentEnv(TOY, [RandomAgent()], seed=0, mask_in="observation")
    model = MaskablePPO("MultiInputPolicy", genv, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [8]},
                        seed=0, device="cpu")
    model.save(tmp_path / "dict_model.zip")
    loaded = load_maskable_ppo(str(tmp_path / "dict_model.zip"))
    env = toy_env()
    for agent in (MaskablePPOAgent(loaded), MaskablePPOAgent(model, deterministic=False)):
        assert agent.sizes() == (23, 9)
        res = play_match(env, [agent, RandomAgent()], seed=3)  # an illegal move would raise
        assert res.decisions >= 3
        with pytest.raises(AgentError, match="takes 23 observation values and 9 actions"):
            agent.check_fits(30, 9, "that game")
    obs, mask = np.zeros(23, np.float32), np.array([0, 1, 0, 0, 1, 0, 0, 0, 0], np.int8)
    assert MaskablePPOAgent(loaded).act(obs, mask, np.random.default_rng(0)) in (1, 4)
    p = MaskablePPOAgent(loaded).action_probabilities(obs, mask)
    assert p[mask == 0].sum() == 0 and abs(p.sum() - 1) < 1e-9
