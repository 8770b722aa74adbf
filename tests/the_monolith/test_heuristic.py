"""The heuristic against three random agents in 4-player games (issue: ≥ 60% first places).

40 seeded games through the env and the agent interface (the heuristic decides on
``resample_hidden`` states). With a true rate of 0.60 the chance of 32 or more first places in 40 is
0.6%, so passing at 32/40 shows the rate is above 0.6; the 200-game run is
``python -m agents.heuristics.the_monolith --games 200`` (measured in the README)."""

from agents import RandomAgent, heuristic_for, play_match
from monolith_envs import the_monolith_v0


def test_heuristic_beats_three_random_agents():
    env = the_monolith_v0.env()
    heur = heuristic_for("the_monolith_v0")
    first = 0
    games = 40
    for seed in range(games):
        me = seed % 4
        agents = [heur if p == me else RandomAgent() for p in range(4)]
        play_match(env, agents, seed=seed)
        game = env.unwrapped.game
        first += game.ranking(env.unwrapped.game_state)[0] == me
    assert first >= 32, f"heuristic first in {first}/{games}"
