"""The opponent schedule of a training run: which opponent mix is in force at a learner step (the config's
``opponent_mix``, then each ``opponent_schedule`` phase from the first rollout start at or after its
``from_step``). The keys are checked by :func:`training.config.validate`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["mix_at", "opponent_phases", "phase_at", "phase_begins"]


def phase_at(cfg: Mapping[str, Any], steps: int) -> int:
    """The index of the last ``opponent_schedule`` phase whose ``from_step`` is at most ``steps`` (-1: none,
    ``opponent_mix`` is in force)."""
    return max((i for i, p in enumerate(cfg["opponent_schedule"]) if p["from_step"] <= steps), default=-1)


def mix_at(cfg: Mapping[str, Any], steps: int) -> dict:
    """The opponent mix in force from learner step ``steps`` on: the mix of the phase :func:`phase_at` names,
    else ``opponent_mix``."""
    i = phase_at(cfg, steps)
    return dict(cfg["opponent_schedule"][i]["mix"] if i >= 0 else cfg["opponent_mix"])


def phase_begins(cfg: Mapping[str, Any], from_step: int) -> int:
    """The learner step a phase with ``from_step`` begins at: the first rollout start (a multiple of
    ``n_steps * n_envs``) at or after it."""
    per = cfg["n_steps"] * cfg["n_envs"]
    return -(-from_step // per) * per


def opponent_phases(cfg: Mapping[str, Any], end: int) -> list[dict]:
    """The opponent mixes of a run that ends at learner step ``end``: ``[{"step": s, "mix": {...}}]``, the
    first at step 0 (``opponent_mix``), then each phase at the first rollout start (a multiple of ``n_steps *
    n_envs``) at or after its ``from_step`` and before ``end``; a phase overtaken by the next one within the
    same rollout is left out, as the run skips it."""
    out = [{"step": 0, "mix": dict(cfg["opponent_mix"])}]
    for phase in cfg["opponent_schedule"]:
        step = phase_begins(cfg, phase["from_step"])
        if step >= end:
            break
        if out[-1]["step"] == step:
            out.pop()
        out.append({"step": step, "mix": dict(phase["mix"])})
    return out
