"""check_env on every listed the_monolith_v0 configuration (docs/the_monolith.md §1)."""

import pytest

from monolith_envs import the_monolith_v0
from monolith_envs.core.testing import CHECKS, check_env

CONFIGS = {
    "4p": {},
    "4p_draft": {"shaman_assignment": "draft"},
    "3p": {"num_players": 3},
    "3p_draft": {"num_players": 3, "shaman_assignment": "draft"},
    "2p": {"num_players": 2},
    "tower": {"tower_weights": [0.5, 0.2, 0.3], "tower_retention": 0.25, "reward_mode": "score"},
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_check_env(name):
    report = check_env(the_monolith_v0.raw_env, CONFIGS[name], games=1, seed=5, api_cycles=60)
    assert report.checks == list(CHECKS)
    assert report.episodes == 1
