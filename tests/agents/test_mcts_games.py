"""MCTS on Monolith: The Strategy Game and The Monolith, unchanged: dice and the tower are drawn inside
``apply`` (open-loop chance), hidden cards come from ``resample_hidden``, one to four seats.

Strengths are measured by commands, not here (``training/README.md``); these tests check that complete
seeded games are legal and reproducible, and that a search depends on what the acting seat sees and on
nothing else.
"""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from agents import RandomAgent, make_agent, play_match
from agents.mcts import MCTSAgent

STRATEGY, MONOLITH = "monolith_strategy_v0", "the_monolith_v0"


class LegalSpy:
    """Wraps an agent: checks every action it returns against the mask it was given and counts the
    decisions that had a real choice (more than one legal action)."""

    def __init__(self, inner):
        self.inner, self.name = inner, inner.name
        self.choices = self.decisions = 0

    def reset(self):
        self.inner.reset()

    def bind(self, env):
        self.inner.bind(env)

    def act(self, observation, action_mask, rng):
        a = self.inner.act(observation, action_mask, rng)
        assert action_mask[a] == 1, f"{self.name} chose illegal action {a}"
        self.decisions += 1
        self.choices += int(np.count_nonzero(action_mask) > 1)
        return a


def _game(env_id, config, spec, seed):
    env = monolith_envs.make(env_id, **config)  # illegal_action="raise": an illegal move raises
    n = env.unwrapped.game.num_players
    spy = LegalSpy(make_agent(spec, env_id))
    res = play_match(env, [spy] + [RandomAgent() for _ in range(n - 1)], seed=seed)
    return env, spy, res


@pytest.mark.parametrize("env_id, config, spec, seed", [
    (STRATEGY, {"num_players": 2}, "mcts:4", 1),
    (STRATEGY, {"num_players": 1}, "mcts:4", 1),
    (MONOLITH, {"num_players": 3}, "mcts:3", 0),
    (MONOLITH, {"num_players": 4}, "mcts:3", 0),
])
def test_mcts_plays_complete_seeded_games_legally_and_reproducibly(env_id, config, spec, seed):
    env, spy, res = _game(env_id, config, spec, seed)
    raw = env.unwrapped
    n = config["num_players"]
    assert not res.truncated and raw.game.is_terminal(raw.game_state)
    assert len(res.outcome) == n and res.decisions == len(raw.episode_log.actions)
    assert spy.choices >= 5 and spy.inner.last_root is not None  # real searches ran
    if n == 1:
        assert res.outcome[0].value in ("success", "failure") and res.returns.shape == (1,)
    else:
        assert len(res.winners) >= 1 and abs(float(res.returns.sum())) < 1e-5
    actions, chance = list(raw.episode_log.actions), list(raw.episode_log.chance)
    assert chance, "dice / tower draws inside apply are logged as chance events"
    env2, spy2, res2 = _game(env_id, config, spec, seed)
    assert list(env2.unwrapped.episode_log.actions) == actions
    assert list(env2.unwrapped.episode_log.chance) == chance
    np.testing.assert_array_equal(res2.returns, res.returns)


def _position(env_id, config, seed, moves):
    """An env after ``moves`` random decisions, then on until the seat to act has at least 3 legal actions."""
    env = monolith_envs.make(env_id, wrapped=False, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    for _ in range(moves):
        env.step(int(rng.choice(env.legal_actions())))
    while len(env.legal_actions()) < 3:
        env.step(int(rng.choice(env.legal_actions())))
    return env


def _search(env, agent, state):
    env.set_game_state(env.game.clone(state))
    obs = env.observe(env.agent_selection)
    a = agent.act(obs["observation"], obs["action_mask"], np.random.default_rng(5))
    return a, {k: (ch.n, round(ch.w, 9)) for k, ch in agent.last_root.children.items()}


def _hidden(env_id, state, seat, n):
    """What ``seat`` may not see: the other seats' hands (Strategy) or objectives (The Monolith), deck orders."""
    others = [q for q in range(n) if q != seat]
    if env_id == STRATEGY:
        return ([list(state.hand[q]) for q in others], list(state.skill_deck), list(state.power_deck),
                list(state.rune_deck))
    return [list(state.objectives[q]) for q in others], list(state.obj_deck), list(state.div_deck)


@pytest.mark.parametrize("env_id, config", [(STRATEGY, {"num_players": 2}), (MONOLITH, {"num_players": 4})])
def test_mcts_search_depends_only_on_what_the_acting_seat_sees(env_id, config):
    """The true state's hidden parts are redrawn (``resample_hidden`` for the acting seat): the search --
    chosen action, visits and values of every root child -- is identical.  Redrawing what the acting seat
    does see (its own hand or objectives: resampled for another seat) changes the search."""
    env = _position(env_id, config, seed=3, moves=40)
    game = env.game
    viewer, n = game.current_player(env.game_state), game.num_players
    true_state = game.clone(env.game_state)
    same_view = [game.resample_hidden(true_state, viewer, np.random.default_rng(k)) for k in (1, 2)]
    assert all(_hidden(env_id, v, viewer, n) != _hidden(env_id, true_state, viewer, n) for v in same_view)
    agent = MCTSAgent(simulations=30)
    agent.bind(env)
    runs = [_search(env, agent, s) for s in [true_state] + same_view]
    assert runs[0] == runs[1] == runs[2]
    assert len(runs[0][1]) >= 3 and sum(n for n, _ in runs[0][1].values()) == 30
    other = (viewer + 1) % n
    seen_changed = next(v for v in (game.resample_hidden(true_state, other, np.random.default_rng(k))
                                    for k in range(1, 20))
                        if _hidden(env_id, v, other, n) != _hidden(env_id, true_state, other, n))
    assert _search(env, agent, seen_changed)[1] != runs[0][1]


@pytest.mark.parametrize("spec, says", [
    ("mcts:x", "the number of simulations N in mcts:N must be an integer, got 'x'"),
    ("mcts:1.5", "the number of simulations N in mcts:N must be an integer, got '1.5'"),
    ("mcts:10:c=abc", "c (the exploration constant) must be a number, got 'abc'"),
    ("mcts:10:k=two", "k must be an integer, got 'two'"),
    ("mcts:0", "simulations must be an integer from 1 to 1000000, got 0"),
])
def test_bad_mcts_specs_name_the_field_and_the_accepted_forms(spec, says):
    from agents import AgentSpecError

    with pytest.raises(AgentSpecError) as exc:
        make_agent(spec, STRATEGY)
    msg = str(exc.value)
    assert msg.startswith(f"bad agent spec {spec!r}: {says}; accepted: random | heuristic | mcts:N")
    assert msg.count("bad agent spec") == 1


def test_strategy_mcts_prunes_the_root_to_the_heuristics_best_actions():
    """``MCTS_DEFAULTS["root_k"] = 8`` takes effect through the heuristic's ``action_prior``: of the 25 legal
    actions only the 8 best-scored are searched, the heuristic's own choice among them."""
    from agents.heuristics.strategy import action_prior, state_policy

    env = monolith_envs.make(STRATEGY, wrapped=False, num_players=2)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    while not (env.game_state.pending["k"] == 3 and len(env.legal_actions()) > 8):
        env.step(int(rng.choice(env.legal_actions())))
    game, state, legal = env.game, env.game_state, env.legal_actions()
    assert len(legal) == 25
    scores = action_prior(game, state, 0, legal, np.random.default_rng(1))
    pick = int(state_policy(game, state, 0, np.random.default_rng(1)))
    assert int(legal[int(np.argmax(scores))]) == pick and np.count_nonzero(scores >= 100) == 1
    agent = make_agent("mcts:30", STRATEGY)
    agent.bind(env)
    obs = env.observe(env.agent_selection)
    a = agent.act(obs["observation"], obs["action_mask"], np.random.default_rng(1))
    kept = set(int(x) for x in np.asarray(legal)[np.argsort(-scores, kind="stable")[:8]])
    assert set(agent.last_root.children) == kept and a in kept and pick in kept


def test_monolith_mcts_defaults_use_short_heuristic_rollouts_scored_by_the_state_value():
    from agents.heuristics import the_monolith as h

    agent = make_agent("mcts:5", MONOLITH)
    assert (agent.rollout, agent.rollout_depth, agent.c) == ("heuristic", 8, 0.7)
    assert agent.rollout_policy is h.state_policy and agent.value_fn is h.state_value
    assert make_agent("mcts:5:rollout=random:depth=none", MONOLITH).rollout_depth is None


def test_strategy_solo_state_value_is_centred_below_the_configured_goal_stone():
    """Solo ``state_value``: tanh((VP + gems / 2 - (goal space - 3)) / 6); the goal space follows
    ``solo_goal_stone`` (toll stones on 5, 10, 15, 20: docs/monolith_strategy.md §2)."""
    from agents.heuristics.strategy import state_value

    for stone, goal in ((1, 5), (4, 20)):
        game = monolith_envs.make_game("monolith_strategy_v0", num_players=1, solo_goal_stone=stone)
        s = game.initial_state(np.random.default_rng(0))
        score = s.vp[0] + 0.5 * game.rules.gem_value(s, 0)
        assert game.solo_goal == goal
        assert state_value(game, s)[0] == pytest.approx(np.tanh((score - (goal - 3)) / 6.0), abs=1e-6)
