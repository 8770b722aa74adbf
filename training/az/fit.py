"""Fitting the policy-value network, and the replay buffer of the recipe.

Loss per minibatch (``pi`` the policy target, ``z`` the seat-relative final returns)::

    -sum_a pi(a) * log p(a | obs, mask)  +  value_coef * mean over seats of (v - z)^2

where ``log p`` is the log-softmax over the legal actions only (:func:`~training.az.net.masked_log_softmax`).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from monolith_envs.core.interrupt import Interrupted

from .net import PolicyValueNet, masked_log_softmax

__all__ = ["ReplayBuffer", "fit"]


class ReplayBuffer:
    """The last ``capacity`` samples (dicts of arrays as made by :mod:`training.az.selfplay`), oldest dropped.

    Raises:
        ValueError: ``capacity < 1``.
    """

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError(f"replay capacity must be >= 1, got {capacity}")
        self.capacity = int(capacity)
        self.data: dict[str, np.ndarray] | None = None

    def __len__(self) -> int:
        return 0 if self.data is None else len(self.data["obs"])

    def add(self, samples: dict[str, np.ndarray]) -> None:
        """Append ``samples`` and drop the oldest rows beyond the capacity."""
        if self.data is None:
            self.data = {k: v[-self.capacity:] for k, v in samples.items()}
        else:
            self.data = {k: np.concatenate([self.data[k], samples[k]])[-self.capacity:] for k in self.data}


def fit(net: PolicyValueNet, data: dict[str, np.ndarray], opt: torch.optim.Optimizer, epochs: int,
        batch_size: int, seed: int, value_coef: float = 1.0, holdout: float = 0.0, progress: bool = False,
        desc: str = "fit") -> dict:
    """Fit ``net`` in place on ``data`` (``obs``, ``masks`` bit-packed, ``pi``, ``z``), minibatches drawn with
    ``seed``; a ``holdout`` share of the rows is kept out and scored at the end.

    Returns ``{"samples", "policy_loss", "value_loss"`` (last epoch means), ``"holdout_top1"`` (share of held-out
    rows whose most probable legal action is the target's most likely one; NaN without holdout),
    ``"holdout_value_mse"}``. An interrupt (:class:`~monolith_envs.core.interrupt.Interrupted`) is raised
    again with the batches done in its ``info``.
    """
    from monolith_envs.core.cli import stderr_bar

    n_actions = net.meta["n_actions"]
    n = len(data["obs"])
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    n_hold = int(round(n * holdout))
    hold, rows = order[:n_hold], order[n_hold:]

    def batch(idx: np.ndarray) -> tuple[torch.Tensor, ...]:
        obs = torch.as_tensor(data["obs"][idx].astype(np.float32))
        masks = torch.as_tensor(np.unpackbits(data["masks"][idx], axis=1, count=n_actions).astype(bool))
        return obs, masks, torch.as_tensor(data["pi"][idx].astype(np.float32)), torch.as_tensor(data["z"][idx])

    steps = epochs * math.ceil(len(rows) / batch_size)
    bar = stderr_bar(steps, desc, "batch", progress)
    net.train()
    pl = vl = 0.0
    done = 0  # batches (the bar counts nothing when disabled)
    try:
        for _ in range(epochs):
            perm = rows[rng.permutation(len(rows))]
            pls, vls = [], []
            for start in range(0, len(perm), batch_size):
                obs, masks, pi, z = batch(perm[start:start + batch_size])
                logits, v = net(obs)
                logp = masked_log_softmax(logits, masks)
                p_loss = -(pi * torch.where(masks, logp, torch.zeros_like(logp))).sum(dim=1).mean()
                v_loss = ((v - z) ** 2).mean()
                loss = p_loss + value_coef * v_loss
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                opt.step()
                pls.append(float(p_loss.detach()))
                vls.append(float(v_loss.detach()))
                bar.update(1)
                done += 1
            pl, vl = float(np.mean(pls)) if pls else math.nan, float(np.mean(vls)) if vls else math.nan
    except Interrupted as e:  # Ctrl-C, SIGTERM: the batches done, for the final message
        e.info.setdefault("batches_done", done)
        e.info.setdefault("batches_total", steps)
        raise
    finally:
        bar.close()
    net.eval()
    top1, vmse = [], []
    with torch.no_grad():
        for start in range(0, n_hold, 1024):
            obs, masks, pi, z = batch(hold[start:start + 1024])
            logits, v = net(obs)
            best = masked_log_softmax(logits, masks).argmax(dim=1)
            top1.extend((best == pi.argmax(dim=1)).tolist())
            vmse.extend(((v - z) ** 2).mean(dim=1).tolist())
    return {"samples": int(len(rows)), "policy_loss": pl, "value_loss": vl,
            "holdout_top1": float(np.mean(top1)) if top1 else math.nan,
            "holdout_value_mse": float(np.mean(vmse)) if vmse else math.nan}
