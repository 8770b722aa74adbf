"""An illegal TURN action says why (docs §4.6, §4.7, §4.12): the IllegalActionError names the missing
socket, the missing die, the placement still owed or the card not held."""

import numpy as np
import pytest

import monolith_envs
from monolith_envs.core.game import IllegalActionError
from monolith_envs.strategy.state import Kind


def _first_turn():
    env = monolith_envs.make("monolith_strategy_v0", wrapped=False, num_players=2)
    env.reset(seed=4)
    while env.game_state.pending["k"] != Kind.TURN:
        env.step(int(env.legal_actions()[0]))
    return env


def test_end_turn_before_the_placement_says_a_die_is_owed():
    env = _first_turn()
    with pytest.raises(IllegalActionError, match="a die must first be placed or set aside"):
        env.step(env.game.layout.index("end_turn"))


def test_place_names_the_socket_or_the_missing_die():
    env = _first_turn()
    g, s = env.game, env.game_state
    p = s.turn["player"]
    rows = g.rules.geometry(s)[1]
    missing = next(sid for sid in range(52) if sid not in rows)
    face = next(f for f in range(6) if s.pool[p][f])
    with pytest.raises(IllegalActionError, match=f"socket {missing} .* does not exist now"):
        g.apply(g.clone(s), face * 60 + missing, np.random.default_rng(0))
    absent = next(f for f in range(6) if not s.pool[p][f])
    with pytest.raises(IllegalActionError, match=f"has no die showing {absent + 1} in the pool"):
        g.apply(g.clone(s), absent * 60 + 0, np.random.default_rng(0))


def test_cast_of_a_card_not_held_names_it():
    env = _first_turn()
    g, s = env.game, env.game_state
    p = s.turn["player"]
    k = next(k for k in range(g.rules.K) if not s.hand[p][k])
    name = g.rules.content.actions[k].name
    with pytest.raises(IllegalActionError, match=f"holds no uncast {name}"):
        g.apply(g.clone(s), g.rules.off.CAST + k, np.random.default_rng(0))


def test_an_action_of_another_decision_says_so():
    env = _first_turn()
    g, s = env.game, env.game_state
    a = g.layout.index("choose_index", 0)
    with pytest.raises(IllegalActionError, match="not legal in TURN of player_0: it answers another kind of decision"):
        g.apply(g.clone(s), a, np.random.default_rng(0))
