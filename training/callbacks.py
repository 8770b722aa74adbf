"""The callbacks of a ``training.train`` PPO run: self-play snapshots, periodic evaluations printed to the
console and kept in ``learning_curve.json``, the progress bar over learner steps, and checkpoints at rollout
boundaries (written whole even when a signal arrives meanwhile, so ``--resume`` continues exactly).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from monolith_envs.core.interrupt import SignalGuard

__all__ = ["make_callbacks", "mix_text", "planned_steps"]


def planned_steps(cfg: dict, start: int = 0) -> int:
    """The learner steps a run ends at: PPO collects whole rollouts of ``n_steps * n_envs`` steps, so
    ``total_timesteps`` is rounded up to whole rollouts from ``start`` (a resumed run's checkpoint)."""
    per_update = cfg["n_steps"] * cfg["n_envs"]
    return start + max(0, -(-(cfg["total_timesteps"] - start) // per_update)) * per_update


def mix_text(mix: dict) -> str:
    """``{"heuristic": 0.7, "self": 0.3}`` -> ``"heuristic 70%, self 30%"`` (shares of the weights' sum)."""
    total = sum(mix.values())
    return ", ".join(f"{k} {w / total:.0%}" for k, w in mix.items())


def _save_atomic(model: Any, path: Path, steps: int) -> None:
    """``model.save`` to ``path`` with ``num_timesteps = steps``, through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp.zip")
    now = model.num_timesteps
    model.num_timesteps = steps
    try:
        model.save(tmp)
    finally:
        model.num_timesteps = now
    tmp.replace(path)


def make_callbacks(cfg: dict, run_dir: Path, curve: list, executor: Any, start: int = 0, track: dict | None = None,
                   guard: SignalGuard | None = None) -> tuple[list, Any]:
    """The callbacks of a PPO run: ``([snapshots, periodic evaluation, progress bar, checkpoints(, opponent
    schedule)], periodic evaluation)``.

    Args:
        cfg: the validated config; run_dir: the run folder (checkpoints, ``eval_model.zip``,
            ``learning_curve.json``); curve: the learning curve's points, appended to; executor: the
            evaluation pool (or None); start: the learner steps the run starts at (a resumed checkpoint's).
        track: filled with ``"bar"``, ``"checkpointer"``, ``"checkpoint"`` and ``"checkpoint_steps"`` for the
            stop of an interrupted run; ``"pool_seeded"`` True (set by the caller) when the envs' self-play
            pools already hold the policy's starting weights, which the snapshots then do not push again.
        guard: holds a signal back while a model file is written (default: no signal handling).
    """
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    from monolith_envs.core.cli import stderr_bar
    from training.evaluate import eval_labels, evaluate_against
    from training.schedule import phase_at
    from training.selfplay import policy_weights

    n_envs = cfg["n_envs"]
    track = {} if track is None else track
    guard = SignalGuard(()) if guard is None else guard

    class ProgressBar(BaseCallback):
        """tqdm bar over learner steps (its total is :func:`planned_steps`, as the stage banner says)."""

        def _on_training_start(self) -> None:
            self.bar = stderr_bar(planned_steps(cfg, start), "PPO", "step", cfg["progress_bar"], initial=start)
            track["bar"] = self.bar

        def _on_step(self) -> bool:
            self.bar.update(n_envs)
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    class Snapshots(BaseCallback):
        """Push a frozen copy of the policy into every env's self-play pool every ``snapshot_every`` steps."""

        def _on_training_start(self) -> None:
            if not track.get("pool_seeded"):  # (a self-play-only run pushed these weights before learn())
                self._push()
            self.last = start

        def _push(self) -> None:
            self.training_env.env_method("add_snapshot", policy_weights(self.model.policy))

        def _on_step(self) -> bool:
            if self.num_timesteps - self.last >= cfg["snapshot_every"]:
                self.last = self.num_timesteps
                self._push()
            return True

    class OpponentSchedule(BaseCallback):
        """``opponent_schedule``: at each rollout's start, the mix of the last phase whose ``from_step`` the run
        has reached replaces the envs' opponent mix, and the change is printed (the envs of a resumed run
        are built with the mix in force at its checkpoint, :func:`training.schedule.mix_at`)."""

        def _on_training_start(self) -> None:
            self.phase = phase_at(cfg, start)

        def _on_rollout_start(self) -> None:
            steps = self.num_timesteps
            phase = phase_at(cfg, steps)
            if phase > self.phase:
                self.phase = phase
                mix = cfg["opponent_schedule"][phase]["mix"]
                self.training_env.env_method("set_opponent_mix", mix)
                if cfg["progress_bar"]:
                    tqdm.write(f"   opponents from step {steps:,}: {mix_text(mix)}", file=sys.stderr)

        def _on_step(self) -> bool:
            return True

    class PeriodicEval(BaseCallback):
        """Every ``eval_every`` steps: win rate of the current policy against each fixed opponent, printed
        on the console (stderr) and kept in ``learning_curve.json``."""

        def _on_training_start(self) -> None:
            # the next point comes eval_every after the last one, also in a resumed run (whose curve keeps the
            # points up to its checkpoint), so an interrupted run evaluates where the uninterrupted run would
            self.last = curve[-1]["step"] if curve else start
            if cfg["eval_every"] > 0 and not curve:
                self.evaluate()  # the starting point (after any behaviour-cloning warm start)

        def _on_step(self) -> bool:
            if cfg["eval_every"] > 0 and self.num_timesteps - self.last >= cfg["eval_every"]:
                self.last = self.num_timesteps
                self.evaluate()
            return True

        #: seconds spent in :meth:`evaluate` (the learner's throughput leaves them out)
        seconds = 0.0

        def evaluate(self) -> None:
            t0 = time.perf_counter()
            track["evaluating"] = int(self.num_timesteps)  # a stop now is said to be in this evaluation
            try:
                self._evaluate()
                track["evaluating"] = None
            finally:
                self.seconds += time.perf_counter() - t0

        def _evaluate(self) -> None:
            path = run_dir / "eval_model.zip"
            with guard.deferred():  # torch's zip writer fails, not stops, when a signal cuts it
                self.model.save(path)
            point: dict[str, Any] = {"step": int(self.num_timesteps)}
            for opp in eval_labels(cfg["env_id"], cfg["env_config"], cfg["eval_opponents"]):  # one-seat: "alone"
                s = evaluate_against(cfg["env_id"], f"ppo:{path}", opp, cfg["eval_games"], seed=cfg["seed"] + 10**6,
                                     env_config=cfg["env_config"], workers=1, executor=executor)
                point[opp] = {"win_rate": s["win_rate"], "ci95": s["ci95"], "games": s["games"],
                              "truncated": s["truncated"]}
                self.logger.record(f"eval/win_rate_{opp}", s["win_rate"])
            curve.append(point)
            (run_dir / "learning_curve.json").write_text(json.dumps(curve, indent=1))
            if cfg["progress_bar"]:
                what = "; ".join(f"{'alone' if o == 'alone' else 'vs ' + o} {v['win_rate']:.1%} (95% CI "
                                 f"{v['ci95'][0]:.1%}-{v['ci95'][1]:.1%}, {v['games']} games"
                                 f"{', %d stopped at max_decisions' % v['truncated'] if v['truncated'] else ''})"
                                 for o, v in point.items() if o != "step")
                tqdm.write(f"   evaluation at step {point['step']:,}: {what}", file=sys.stderr)
            self.logger.dump(self.num_timesteps)

    class Checkpoints(BaseCallback):
        """Checkpoints at rollout boundaries (the weights after an update and the steps they were trained
        on, so a resumed run continues exactly): every ``checkpoint_every`` steps and at the end of PPO;
        :meth:`save_on_interrupt` saves the last boundary unless an update was running."""

        def __init__(self) -> None:
            super().__init__()
            # set here, not at training start: a signal may arrive during the first evaluation, before it
            self.boundary, self.last, self.updating = start, start, False

        def _on_training_start(self) -> None:
            self.boundary, self.last, self.updating = start, start, False

        def _on_rollout_start(self) -> None:
            self.boundary, self.updating = self.num_timesteps, False
            if cfg["checkpoint_every"] > 0 and self.boundary - self.last >= cfg["checkpoint_every"]:
                self.save(self.boundary)

        def _on_rollout_end(self) -> None:
            self.updating = True  # until the next rollout starts, the weights change

        def _on_step(self) -> bool:
            return True

        def _on_training_end(self) -> None:
            self.updating = False
            self.boundary = self.num_timesteps
            if cfg["checkpoint_every"] > 0 and self.boundary > self.last:
                self.save(self.boundary)

        def save(self, steps: int) -> None:
            path = run_dir / "checkpoints" / f"model_{steps}_steps.zip"
            with guard.deferred():  # a signal during the write is raised after it: never a half-written file
                _save_atomic(self.model, path, steps)
                self.last = steps
                track["checkpoint"], track["checkpoint_steps"] = path, steps

        def save_on_interrupt(self) -> None:
            if not self.updating and self.boundary > self.last:
                self.save(self.boundary)

    ckpt = Checkpoints()
    track["checkpointer"] = ckpt
    cbs = [Snapshots(), PeriodicEval(), ProgressBar(), ckpt]  # the bar starts after the first evaluation
    if cfg.get("opponent_schedule"):
        cbs.append(OpponentSchedule())
    return cbs, cbs[1]
