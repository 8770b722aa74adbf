"""The conformance suite (check_env) on every Monolith Arena configuration (issue: Arena tests)."""

import pytest

from monolith_envs import monolith_arena_v0
from monolith_envs.core.testing import CHECKS, check_env
from tests.arena.configs import pick

CONFIGS = pick(
    "duel", "ffa3", "ffa4", "teams", "module", "module_ffa3", "reinforcement", "rank_ffa4", "score_module",
)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_check_env(name):
    report = check_env(monolith_arena_v0.raw_env, CONFIGS[name], games=3, seed=11, api_cycles=120)
    assert report.checks == list(CHECKS)
    assert report.episodes == 3


def test_wrapped_env_passes_pettingzoo_api_test():
    """``env()`` (with the order-enforcing wrapper) passes PettingZoo's own api_test, as ``raw_env()`` does."""
    import contextlib
    import io

    from pettingzoo.test import api_test

    from monolith_envs import monolith_arena_v0
    from monolith_envs.core.order_enforcing import OrderEnforcingEnv

    env = monolith_arena_v0.env(num_players=3, mode="ffa", monolith_module=True)
    assert isinstance(env, OrderEnforcingEnv)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        api_test(env, num_cycles=150)
    assert "Passed API test" in out.getvalue()
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        _ = monolith_arena_v0.env().agent_selection
