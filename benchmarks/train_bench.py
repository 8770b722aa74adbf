"""MaskablePPO training throughput (env-steps/s) with ``DummyVecEnv`` and ``SubprocVecEnv``.

The learner plays one seat against uniformly random opponents. For Monolith envs the project's
``training.wrapper.SingleAgentEnv`` is used when it can be imported, otherwise
:class:`benchmarks.single_agent.AecSingleAgentEnv`; the reference games always use the latter.
"""

from __future__ import annotations

import importlib
from functools import partial
from time import perf_counter
from typing import Any

from .specs import BenchSpec
from .timing import Budget, seed_plus

__all__ = ["make_train_env", "measure_training", "wrapper_name"]

N_ENVS = 2


def _project_wrapper():
    """``training.wrapper.SingleAgentEnv`` if importable, else ``None``."""
    try:
        mod = importlib.import_module("training.wrapper")
        return getattr(mod, "SingleAgentEnv", None)
    except Exception:  # noqa: BLE001
        return None


def wrapper_name(spec: BenchSpec) -> str:
    """Qualified name of the single-agent wrapper used for ``spec``."""
    if spec.kind == "monolith" and _project_wrapper() is not None:
        return "training.wrapper.SingleAgentEnv"
    return "benchmarks.single_agent.AecSingleAgentEnv"


def make_train_env(spec: BenchSpec, seed: int) -> Any:
    """A single-agent gymnasium env for ``spec`` with ``action_masks()`` (picklable through ``partial``)."""
    from .single_agent import AecSingleAgentEnv, RandomOpponent

    for mod in spec.imports:
        importlib.import_module(mod)
    if spec.kind == "monolith":
        import monolith_envs

        cls = _project_wrapper()
        if cls is not None:
            return cls(spec.env_id, [RandomOpponent()], env_config=dict(spec.config), seat="rotate", seed=seed)
        return AecSingleAgentEnv(partial(monolith_envs.make, spec.env_id, wrapped=False, **spec.config), seed)
    if spec.kind == "pettingzoo":
        mod = importlib.import_module(f"pettingzoo.classic.{spec.env_id}")
        return AecSingleAgentEnv(mod.raw_env, seed)
    raise ValueError(f"no training wrapper for kind {spec.kind!r}")


def measure_training(spec: BenchSpec, budget: Budget, vec: str = "dummy", seed: int = 0) -> dict:
    """Time ``MaskablePPO.learn`` on ``N_ENVS`` envs of ``spec``.

    Args:
        vec: ``"dummy"`` (``DummyVecEnv``, all envs in this process) or ``"subproc"`` (``SubprocVecEnv``, one
            worker process per env).

    Returns:
        ``steps_per_s``: learner env-steps per second of ``learn`` (rollouts + gradient updates);
        ``collect_steps_per_s``: the same without the time spent in ``train()`` (rollout collection only);
        ``all_seat_decisions_per_s``: learner plus opponent decisions per second of ``learn``;
        ``steps``, ``seconds``, ``train_seconds``, ``n_envs``, ``vec``, ``wrapper``; the PPO settings.
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    torch.set_num_threads(1)
    fns = [partial(make_train_env, spec, seed_plus(seed, 17 * i)) for i in range(N_ENVS)]
    from monolith_envs.core.interrupt import children_ignore_sigint, signals_deferred

    venv = None
    try:
        # on Ctrl-C this process stops the workers (venv.close); a stop that arrives while they start waits
        # for the vector env to be made (cut inside its constructor, the workers were left reading a pipe
        # whose other end closed, and printed a ConnectionResetError)
        with signals_deferred(), children_ignore_sigint():
            venv = DummyVecEnv(fns) if vec == "dummy" else SubprocVecEnv(fns, start_method="forkserver")
        n_steps = budget.train_n_steps
        batch = min(64, n_steps * N_ENVS)
        model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=batch, n_epochs=4,
                            seed=seed % 2**32,  # numpy's legacy seeding (SB3) takes 0 to 2**32-1
                            device="cpu", verbose=0)
        spent = [0.0]
        orig_train = model.train

        def timed_train() -> None:
            t = perf_counter()
            orig_train()
            spent[0] += perf_counter() - t

        model.train = timed_train
        model.learn(total_timesteps=budget.train_warmup_steps)
        opp0 = sum(venv.get_attr("opponent_steps"))
        steps0 = model.num_timesteps
        spent[0] = 0.0
        t0 = perf_counter()
        model.learn(total_timesteps=budget.train_steps, reset_num_timesteps=False)
        dt = perf_counter() - t0
        steps = model.num_timesteps - steps0
        opp = sum(venv.get_attr("opponent_steps")) - opp0
    finally:
        if venv is not None:
            venv.close()
    collect = dt - spent[0]
    return {
        "vec": vec,
        "n_envs": N_ENVS,
        "wrapper": wrapper_name(spec),
        "steps": steps,
        "seconds": dt,
        "train_seconds": spent[0],
        "steps_per_s": steps / dt if dt > 0 else None,
        "collect_steps_per_s": steps / collect if collect > 0 else None,
        "all_seat_decisions_per_s": (steps + opp) / dt if dt > 0 else None,
        "ppo": {"n_steps": n_steps, "batch_size": batch, "n_epochs": 4, "policy": "MlpPolicy [64, 64]",
                "torch_threads": 1},
    }
