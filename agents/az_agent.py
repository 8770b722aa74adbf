"""Play a policy-value network trained by :mod:`training.az`: the policy alone, or with its own search.

Specs (``agents.make_agent``): ``az:PATH`` (the most probable legal action of the network's policy; the
observation and mask are all it reads) and ``az:PATH+search:N`` (a :class:`~training.az.search.BatchedPUCT`
search of ``N`` simulations without root noise; it reads the engine through ``bind`` and resamples hidden
information before each simulation, then plays the most visited action).

``PATH`` is a checkpoint written by :func:`training.az.net.save_checkpoint`, loaded as plain tensors
(``weights_only=True``) after its size, metadata and weights are checked (:func:`training.az.net.load_checkpoint`);
finite weights so large that the network's outputs overflow are refused too: when the file is loaded (on an
observation of zeros and one of ones) and at every decision (the logits of the legal actions, and with search
every prior and value).
The env it plays must be the checkpoint's game with its number of seats, observation and action sizes: checked
when the agent is made for an env id (and config), and again at every :meth:`AZAgent.bind`.
"""

from __future__ import annotations

import os
import re
from typing import Any

import numpy as np

from monolith_envs.agents.mcts import MAX_SIMULATIONS
from monolith_envs.agents.model_files import brief
from monolith_envs.agents.puct import FiniteOutputs, check_finite_outputs, check_loaded_outputs

from .base import AgentError, BaseAgent, check_bound_state, check_rng, observation_vector

__all__ = ["AZAgent", "make_az_agent", "parse_az_spec"]


def parse_az_spec(rest: str) -> tuple[str, int]:
    """``"PATH"`` or ``"PATH+search:N"`` (the part after ``az:``) -> ``(path, simulations)`` (0: policy alone).
    ``+search`` in any case; a file named by the whole text is a path (``runs/a+search:3/final.pt``).

    Raises:
        ValueError: an empty path, ``N`` that is not an integer (ASCII digits) from 1 to
            :data:`~monolith_envs.agents.mcts.MAX_SIMULATIONS`, the bound of every search spec, or a misspelt
            ``+search:N`` after a file that exists (``final.pt+serach:8``).
    """
    if rest and os.path.isfile(rest):  # a file of that name is a checkpoint path, "+search:" in it or not
        return rest, 0  # (os.path.isfile: False, not an error, for a name too long for the system)
    if re.search(r"\+search$", rest, re.IGNORECASE):  # "+search" in any case, as baseline+search:N
        raise ValueError("az:PATH+search needs its number of simulations: az:PATH+search:N")
    cuts = list(re.finditer(r"\+search:", rest, re.IGNORECASE))  # on the text itself: lower() may change lengths
    sep = bool(cuts)
    path, tail = (rest[:cuts[-1].start()], rest[cuts[-1].end():]) if sep else (rest, "")
    if not path:
        raise ValueError("az:PATH needs a checkpoint path")
    if not sep:
        near = re.search(r"\+([A-Za-z]+):\d+$", rest)  # "+serach:8": a misspelt +search:N, not part of a path
        if near and not os.path.exists(rest) and os.path.exists(rest[:near.start()]):
            raise ValueError(f"{brief(rest, 80)}: no such file, and {near.group(0)!r} is not +search:N (the "
                             "search of N simulations: az:PATH+search:N)")
        return path, 0
    rng = f"an integer >= 1 and at most {MAX_SIMULATIONS}"
    if not (tail.isascii() and tail.isdigit() and len(tail) <= 20):
        raise ValueError(f"the N of +search:N must be {rng}, got {brief(tail, 40)}")
    n = int(tail)
    if not 1 <= n <= MAX_SIMULATIONS:
        raise ValueError(f"the N of +search:N must be {rng}, got {n}")
    return path, n


def make_az_agent(rest: str, env_id: str, env_config: dict | None = None) -> AZAgent:
    """The agent of an ``az:`` spec (``rest`` is the text after ``az:``), checked against ``env_id`` (and the game
    config ``env_config`` when given) before it plays.

    Raises:
        ValueError: a malformed spec (see :func:`parse_az_spec`).
        training.az.net.CheckpointError: a missing or bad checkpoint.
        ModelFileError: a checkpoint whose network's outputs are not finite (its weights overflow).
        AgentError: a checkpoint of another game, number of seats or observation / action sizes.
    """
    path, sims = parse_az_spec(rest)
    return AZAgent(path, sims, name=f"az:{rest}", env_id=env_id, env_config=env_config)


class AZAgent(BaseAgent):
    """A :mod:`training.az` network as a player.

    Args:
        path: checkpoint file.
        simulations: 0 for the policy alone, else the search's simulations per decision.
        c_puct: the search's exploration constant.
        name: display name.
        env_id, env_config: when given, the game it will play: a checkpoint of another game, or (with
            ``env_config``) of another number of seats or other sizes is refused here.

    Raises:
        training.az.net.CheckpointError: the file is missing or not a checkpoint of this recipe.
        ModelFileError: the network's outputs are not finite (NaN or inf) for an observation of zeros or one of
            ones: finite weights so large that they overflow.
        AgentError: a checkpoint of another game than ``env_id`` (or, with ``env_config``, of another number of
            seats or sizes); :meth:`bind` to such an env; :meth:`act` with an observation or mask of another
            size than the network's, or (with search) before :meth:`bind`; :meth:`act` when the network's
            logits of the legal actions (with search: a prior of a legal action or a value) are not finite.
    """

    def __init__(self, path: str, simulations: int = 0, c_puct: float = 1.5, name: str | None = None,
                 env_id: str | None = None, env_config: dict | None = None):
        super().__init__()
        import torch

        from monolith_envs.agents.torch_fork import guard_fork

        guard_fork()  # a forked process runs the network on one thread (a multi-threaded one would hang)

        from training.az.net import load_checkpoint

        self.net, self.meta = load_checkpoint(path)
        self.path = str(path)
        self.simulations = int(simulations)
        self.c_puct = float(c_puct)
        self.needs_env = self.simulations > 0
        self.name = name or (f"az:{path}" + (f"+search:{simulations}" if simulations else ""))
        self._search: Any = None
        self._trained_full: dict | None = None  # the trained config with the game's defaults (_warn_variant)
        self._torch = torch
        self._check_probe()
        if env_id is not None:
            self._check_env_id(env_id)
            if env_config is not None:
                from monolith_envs import make_game

                self.check_game(make_game(env_id, **env_config), f"{env_id} {brief(env_config, 120)}")

    def _check_probe(self) -> None:
        """Refuse (``ModelFileError``) a network whose logits or values are not finite for an observation of
        zeros or one of ones: weights so large that the network overflows (every decision would be refused)."""
        obs = np.stack([np.zeros(self.meta["obs_size"], np.float32), np.ones(self.meta["obs_size"], np.float32)])
        with self._torch.no_grad():
            logits, values = self.net(self._torch.as_tensor(obs))
        check_loaded_outputs(self.name, logits, values, kind="checkpoint")

    def _trained_on(self) -> str:
        return f"{self.meta['env_id']} {brief(self.meta['env_config'], 120)}"

    def _check_env_id(self, env_id: str) -> None:
        if env_id != self.meta["env_id"]:
            raise AgentError(f"{self.name}: the network was trained on {self._trained_on()}, not on {env_id}; "
                             "an az: checkpoint plays only its own game")

    def check_game(self, game: Any, what: str = "this env") -> None:
        """Raise :class:`AgentError` unless ``game`` (a rules engine) is the checkpoint's game with its number of
        seats, observation values and actions (``what`` names the game and config in the message); warn when it
        plays rules the network was not trained on (:meth:`_warn_variant`)."""
        env_id = getattr(game, "env_id", None)
        if env_id is not None:
            self._check_env_id(env_id)
        want = (self.meta["num_players"], self.meta["obs_size"], self.meta["n_actions"])
        got = (int(game.num_players), int(game.obs_spec.size), int(game.layout.n))
        if got != want:
            raise AgentError(f"{self.name}: the network plays {want[0]} seats with {want[1]} observation values and "
                             f"{want[2]} actions (trained on {self._trained_on()}), but {what} has {got[0]} seats, "
                             f"{got[1]} values and {got[2]} actions: another config (num_players, mode, modules)")
        self._warn_variant(game)

    def bind(self, env: Any) -> None:
        """Give the agent the env (see :class:`~monolith_envs.agents.base.BaseAgent`); refuse another game or config,
        and warn (once) when it plays rules its network was not trained on (a ``VariantWarning``)."""
        super().bind(env)
        self.check_game(self.ctx.game)

    def _warn_variant(self, game: Any) -> None:
        """A ``VariantWarning`` (once per process and difference) when ``game`` plays rules the network was not
        trained on. The checkpoint keeps the config keys its run set; the others were at their defaults, which
        the game's class fills in (a key left out, such as Arena's ``monolith_module``, is compared too)."""
        from monolith_envs.agents.baselines.agent import warn_variant

        if self._trained_full is None:
            stored = dict(self.meta.get("env_config") or {})
            try:
                self._trained_full = dict(type(game)(stored).config)
            except Exception:  # noqa: BLE001 - a key this game refuses: its defaults, then the stored keys
                try:
                    self._trained_full = {**type(game)({}).config, **stored}
                except Exception:  # noqa: BLE001 - a game class that builds otherwise: the stored keys alone
                    self._trained_full = stored
        warn_variant(self.name, f"the network of {self.path}", self._trained_full, getattr(game, "config", {}))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """The network's legal action with the highest probability, or with search the most visited one
        (``AgentError``: an empty mask, logits of the legal actions, or with search priors or values, that are
        not finite, or the cases the class lists)."""
        mask = np.asarray(action_mask, bool)
        observation = observation_vector(self.name, observation)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise AgentError("the action mask has no legal action")
        if mask.size != self.meta["n_actions"] or np.asarray(observation).size != self.meta["obs_size"]:
            raise AgentError(f"{self.name}: the network takes {self.meta['obs_size']} observation values and "
                             f"{self.meta['n_actions']} actions, the env gives {np.asarray(observation).size} "
                             f"and {mask.size} (trained on {self._trained_on()})")
        if legal.size == 1:
            return int(legal[0])
        if self.simulations <= 0:
            probs, _ = self.net.evaluate(np.asarray(observation, np.float32)[None], mask[None])
            check_finite_outputs(self.name, probs[0][legal])  # a NaN or infinite legal logit makes them NaN
            return int(np.argmax(probs[0]))
        ctx = self._require_ctx()
        check_bound_state(ctx, mask)  # the search reads the bound env's state
        check_rng(rng)  # the search draws its determinizations from it
        if self._search is None or self._search.game is not ctx.game:
            from training.az.search import BatchedPUCT

            self._search = BatchedPUCT(ctx.game, self.simulations, self.c_puct, noise_frac=0.0)
        visits = self._search.run(FiniteOutputs(self.net, self.name), [ctx.state], [ctx.seat], [rng])[0]
        visits = np.where(mask, visits, -1.0)
        return int(np.argmax(visits))
