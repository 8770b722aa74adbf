"""A Player Power runs its lines with its owner as actor and then leaves the game (docs §4.8): while its own
decision is open it is still one of its owner's cast cards and in ``pp_queue``; once its lines are done it
is in ``pp_gone``."""

from __future__ import annotations

import numpy as np

from tests.agents.random_steps import random_steps

STRATEGY = "monolith_strategy_v0"


def test_overcharge_is_cast_while_its_socket_is_chosen_and_gone_after():
    # seed 1, 28 random steps of a 4-seat game with Player Powers: Usurper has fired, Overcharge asks P1
    env, _, _, _ = random_steps(STRATEGY, 1, 28, num_players=4, exalted=True, player_powers=True)
    game, s = env.game, env.game_state
    k = s.pending["src"][1]
    assert game.rules.content.actions[k].name == "Overcharge" and s.pending["seat"] == 1
    assert [1, k] in s.pp_queue and s.cast[1][k] == 1 and s.pp_gone[k] == 0
    obs_before = game.observe(s, 1)
    after = game.clone(s)
    game.apply(after, int(np.flatnonzero(game.legal_mask(s))[0]), np.random.default_rng(0))
    assert [1, k] not in after.pp_queue and after.cast[1][k] == 0 and after.pp_gone[k] == 1
    assert not np.array_equal(obs_before, game.observe(after, 1))
