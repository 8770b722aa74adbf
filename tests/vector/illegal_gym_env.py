"""Test-only Gymnasium env that steps Arena's AEC env with the action it is given, so an illegal action
raises the package's IllegalActionError inside a Gymnasium vector worker."""

import gymnasium
import numpy as np

import monolith_envs


class IllegalStepEnv(gymnasium.Env):
    def __init__(self):
        self.aec = monolith_envs.make("monolith_arena_v0")
        self.observation_space = self.aec.unwrapped.game.obs_spec.space
        self.action_space = gymnasium.spaces.Discrete(self.aec.unwrapped.game.layout.n)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        return self.aec.observe(self.aec.agent_selection)["observation"], {}

    def step(self, action):
        self.aec.step(int(action))
        obs = self.aec.observe(self.aec.agent_selection)["observation"]
        return obs, 0.0, False, False, {}

    def first_illegal(self) -> int:
        return int(np.argmin(self.aec.observe(self.aec.agent_selection)["action_mask"]))
