"""Play a policy-value network trained by :mod:`training.az`: the policy alone, or with its own search.

Specs (``agents.make_agent``): ``az:PATH`` (the most probable legal action of the network's policy; the
observation and mask are all it reads) and ``az:PATH+search:N`` (a :class:`~training.az.search.BatchedPUCT`
search of ``N`` simulations without root noise; it reads the engine through ``bind`` and resamples hidden
information before each simulation, then plays the most visited action).

``PATH`` is a checkpoint written by :func:`training.az.net.save_checkpoint`, loaded as plain tensors
(``weights_only=True``). The env it plays must have the checkpoint's observation and action sizes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .base import AgentError, BaseAgent

__all__ = ["AZAgent", "parse_az_spec"]


def parse_az_spec(rest: str) -> tuple[str, int]:
    """``"PATH"`` or ``"PATH+search:N"`` (the part after ``az:``) -> ``(path, simulations)`` (0: policy alone).

    Raises:
        ValueError: an empty path, or ``N`` that is not an integer >= 1.
    """
    path, sep, tail = rest.rpartition("+search:")
    if not sep:
        path, tail = rest, ""
    if not path:
        raise ValueError("az:PATH needs a checkpoint path")
    if not sep:
        return path, 0
    try:
        n = int(tail)
    except ValueError:
        raise ValueError(f"the N of +search:N must be an integer >= 1, got {tail!r}") from None
    if n < 1:
        raise ValueError(f"the N of +search:N must be an integer >= 1, got {n}")
    return path, n


class AZAgent(BaseAgent):
    """A :mod:`training.az` network as a player.

    Args:
        path: checkpoint file.
        simulations: 0 for the policy alone, else the search's simulations per decision.
        c_puct: the search's exploration constant.
        name: display name.

    Raises:
        training.az.net.CheckpointError: the file is missing or not a checkpoint of this recipe.
        AgentError: :meth:`act` with an observation or mask of another size than the network's, or (with
            search) before :meth:`bind`.
    """

    def __init__(self, path: str, simulations: int = 0, c_puct: float = 1.5, name: str | None = None):
        super().__init__()
        import torch

        from training.az.net import load_checkpoint

        self.net, self.meta = load_checkpoint(path)
        self.simulations = int(simulations)
        self.c_puct = float(c_puct)
        self.needs_env = self.simulations > 0
        self.name = name or (f"az:{path}" + (f"+search:{simulations}" if simulations else ""))
        self._search: Any = None
        self._torch = torch

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        mask = np.asarray(action_mask, bool)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise AgentError("the action mask has no legal action")
        if mask.size != self.meta["n_actions"] or np.asarray(observation).size != self.meta["obs_size"]:
            raise AgentError(f"{self.name}: the network takes {self.meta['obs_size']} observation values and "
                             f"{self.meta['n_actions']} actions, the env gives {np.asarray(observation).size} "
                             f"and {mask.size} (trained on {self.meta['env_id']} {self.meta['env_config']})")
        if legal.size == 1:
            return int(legal[0])
        if self.simulations <= 0:
            probs, _ = self.net.evaluate(np.asarray(observation, np.float32)[None], mask[None])
            return int(np.argmax(probs[0]))
        ctx = self._require_ctx()
        if self._search is None or self._search.game is not ctx.game:
            from training.az.search import BatchedPUCT

            self._search = BatchedPUCT(ctx.game, self.simulations, self.c_puct, noise_frac=0.0)
        visits = self._search.run(self.net, [ctx.state], [ctx.seat], [rng])[0]
        visits = np.where(mask, visits, -1.0)
        return int(np.argmax(visits))
