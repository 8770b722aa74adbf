"""``make_vec(mask_in=...)``: the two PettingZoo mask conventions, as in the AEC env (README "Ecosystem")."""

import numpy as np
import pytest
from gymnasium import spaces

import monolith_envs
from monolith_envs.core.config import ConfigError


@pytest.mark.parametrize("env_id", ["monolith_arena_v0", "the_monolith_v0"])
def test_mask_in_gives_the_aec_envs_observation_space_and_the_info_mask(env_id):
    aec = {m: monolith_envs.make(env_id, mask_in=m) for m in ("observation", "info")}
    for mask_in, env in aec.items():
        with monolith_envs.make_vec(env_id, 3, mask_in=mask_in) as vec:
            assert vec.single_observation_space == env.observation_space("player_0")
            res = vec.reset(seed=5)
            for _ in range(4):
                res = vec.step(np.array([int(np.flatnonzero(m)[0]) for m in res.action_mask], np.int64))
            if mask_in == "info":
                assert isinstance(vec.single_observation_space, spaces.Box)
                assert vec.infos["action_mask"] is res.action_mask or np.shares_memory(vec.infos["action_mask"],
                                                                                       res.action_mask)
                assert np.array_equal(vec.infos["action_mask"], res.action_mask)
            else:
                assert isinstance(vec.single_observation_space, spaces.Dict) and vec.infos == {}
            assert res.observation.shape == (3, vec.obs_size) and res.observation.dtype == np.float32


def test_a_bad_mask_in_names_the_allowed_values():
    with pytest.raises(ConfigError, match="mask_in='obs'.*'observation', 'info'"):
        monolith_envs.make_vec("monolith_arena_v0", 2, mask_in="obs")
