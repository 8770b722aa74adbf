"""Behaviour-cloning warm start: fit the MaskablePPO policy to a teacher agent's decisions before PPO.

A teacher (by default the game's heuristic) plays the learner's seat of :class:`~training.wrapper.SingleAgentEnv`
against the configured opponents; every teacher decision gives one sample ``(observation, action mask,
action, discounted return-to-go)`` seen exactly as the PPO learner would see it.  The policy is then fitted by
masked cross-entropy on the actions and the value head by mean squared error on the returns.  Sample
collection runs on worker processes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["behaviour_cloning", "collect_demonstrations"]


def _collect(args: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    env_id, env_config, teacher_spec, opponent_specs, n_samples, seed, gamma = args
    import torch

    torch.set_num_threads(1)
    from agents import make_agent
    from training.wrapper import SingleAgentEnv

    opps = [make_agent(s, env_id) for s in opponent_specs]
    rng_opp = np.random.default_rng(seed)
    env = SingleAgentEnv(env_id, lambda rng, k: [opps[int(rng_opp.integers(len(opps)))] for _ in range(k)],
                         env_config, seed=seed)
    teacher = make_agent(teacher_spec, env_id)
    rng = np.random.default_rng(seed + 1)
    obs_l, mask_l, act_l, ret_l = [], [], [], []
    while len(act_l) < n_samples:
        obs, _ = env.reset()
        teacher.reset()
        if hasattr(teacher, "bind"):
            teacher.bind(env.aec)
        rewards = []
        done = False
        while not done:
            mask = env.action_masks()
            a = teacher.act(obs, mask, rng)
            obs_l.append(obs.astype(np.float16))
            mask_l.append(np.packbits(mask))
            act_l.append(a)
            obs, r, term, trunc, _ = env.step(a)
            rewards.append(r)
            done = term or trunc
        g = 0.0
        rets = []
        for r in reversed(rewards):
            g = r + gamma * g
            rets.append(g)
        ret_l.extend(reversed(rets))
    return np.stack(obs_l), np.stack(mask_l), np.asarray(act_l, np.int64), np.asarray(ret_l, np.float32)


def collect_demonstrations(env_id: str, env_config: dict, n_samples: int, teacher: str = "heuristic",
                           opponents: Sequence[str] = ("random",), seed: int = 0, gamma: float = 0.99,
                           executor: Any = None, tasks: int = 4) -> dict[str, np.ndarray]:
    """Teacher decisions from the learner's seat (seats rotate over episodes).

    Returns ``{"obs": float16[N, obs_size], "masks": uint8[N, ceil(n/8)]`` (bit-packed),
    ``"actions": int64[N], "returns": float32[N]}`` with ``N >= n_samples`` (whole episodes).
    ``executor``: a process pool to spread ``tasks`` collection tasks over (``None``: in this process).
    """
    per = math.ceil(n_samples / tasks)
    jobs = [(env_id, dict(env_config), teacher, list(opponents), per, seed * 7919 + 104729 * i, gamma)
            for i in range(tasks)]
    parts = list(executor.map(_collect, jobs)) if executor is not None else [_collect(j) for j in jobs]
    return {
        "obs": np.concatenate([p[0] for p in parts]), "masks": np.concatenate([p[1] for p in parts]),
        "actions": np.concatenate([p[2] for p in parts]), "returns": np.concatenate([p[3] for p in parts]),
    }


def behaviour_cloning(policy: Any, data: dict[str, np.ndarray], n_actions: int, epochs: int = 5,
                      batch_size: int = 256, lr: float = 1e-3, vf_coef: float = 0.5, seed: int = 0) -> dict:
    """Fit ``policy`` (a ``MaskableActorCriticPolicy``) to the demonstrations in place.

    Loss per minibatch: ``-log pi(a | obs, mask) + vf_coef * (V(obs) - return)^2``.  Uses a fresh Adam
    optimiser with learning rate ``lr``.  Returns ``{"loss": [...], "accuracy": float}`` where accuracy is
    the share of samples whose teacher action is the policy's most probable legal action (last epoch).
    """
    import torch

    rng = np.random.default_rng(seed)
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    obs_all = data["obs"]
    masks_all = np.unpackbits(data["masks"], axis=1, count=n_actions).astype(bool)
    acts_all = data["actions"]
    rets_all = data["returns"]
    n = len(acts_all)
    losses, correct = [], 0
    policy.set_training_mode(True)
    for _epoch in range(epochs):
        order = rng.permutation(n)
        correct = 0
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            obs = torch.as_tensor(obs_all[idx].astype(np.float32))
            masks = masks_all[idx]
            acts = torch.as_tensor(acts_all[idx])
            rets = torch.as_tensor(rets_all[idx])
            dist = policy.get_distribution(obs, action_masks=masks)
            logp = dist.log_prob(acts)
            values = policy.predict_values(obs).flatten()
            loss = -logp.mean() + vf_coef * torch.nn.functional.mse_loss(values, rets)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            losses.append(float(loss.detach()))
            with torch.no_grad():
                correct += int((dist.distribution.probs.argmax(dim=1) == acts).sum())
    policy.set_training_mode(False)
    return {"loss": losses, "accuracy": correct / max(1, n), "samples": n}
