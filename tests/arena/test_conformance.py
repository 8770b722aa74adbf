"""The conformance suite (check_env) on every Monolith Arena configuration (issue: Arena tests)."""

import pytest

from monolith_envs.core.testing import CHECKS, check_env

CONFIGS = {
    "duel": {},
    "ffa3": {"num_players": 3, "mode": "ffa"},
    "ffa4": {"num_players": 4, "mode": "ffa"},
    "teams": {"num_players": 4, "mode": "teams"},
    "module": {"monolith_module": True},
    "module_ffa3": {"num_players": 3, "mode": "ffa", "monolith_module": True},
    "reinforcement": {"reinforcement_variant": True},
    "rank_ffa4": {"num_players": 4, "mode": "ffa", "reward_mode": "rank"},
    "score_module": {"monolith_module": True, "reward_mode": "score"},
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_check_env(name):
    report = check_env("monolith_arena_v0", CONFIGS[name], games=3, seed=11, api_cycles=120)
    assert report.checks == list(CHECKS)
    assert report.episodes == 3
