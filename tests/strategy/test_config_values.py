"""Config values (docs/monolith_strategy.md §1): numpy scalars are numbers like Python's
(num_players and max_decisions accepted np.int64, score_scale refused np.float32); bools and non-finite
values stay refused."""

from __future__ import annotations

import numpy as np
import pytest

from monolith_envs.core.config import ConfigError
from monolith_envs.strategy import StrategyGame


@pytest.mark.parametrize("v", [np.float32(10), np.float64(2.5), np.int64(5), 7])
def test_score_scale_accepts_numeric_scalars(v):
    g = StrategyGame({"num_players": 2, "reward_mode": "score", "score_scale": v})
    assert type(g.config["score_scale"]) is float and g.config["score_scale"] == float(v)


@pytest.mark.parametrize("v", [True, np.bool_(True), float("nan"), float("inf"), np.float32("nan"), 0, "25"])
def test_score_scale_refuses_the_rest(v):
    with pytest.raises(ConfigError, match="score_scale"):
        StrategyGame({"num_players": 2, "score_scale": v})
