"""The conformance suite (check_env) on every listed monolith_strategy_v0 configuration: 1-4 players, each
with and without Exalted rounds and Player Powers, plus the intro layouts (docs/monolith_strategy.md §1)."""

import pytest

from monolith_envs import monolith_strategy_v0
from monolith_envs.core.testing import CHECKS, check_env

CONFIGS = {
    f"{n}p{'_ex' if ex else ''}{'_pp' if pp else ''}": {"num_players": n, "exalted": ex, "player_powers": pp}
    for n in (1, 2, 3, 4) for ex in (True, False) for pp in (True, False)
}
CONFIGS["intro_3p"] = {"num_players": 3, "intro_layout": True}
CONFIGS["intro_solo"] = {"num_players": 1, "intro_layout": True}
CONFIGS["rank_4p"] = {"num_players": 4, "reward_mode": "rank", "player_powers": True}
CONFIGS["score_2p"] = {"num_players": 2, "reward_mode": "score"}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_check_env(name):
    report = check_env(monolith_strategy_v0.raw_env, CONFIGS[name], games=1, seed=5, sample=6, api_cycles=40)
    assert report.checks == list(CHECKS)
    assert report.episodes == 1 and report.decisions > 20
