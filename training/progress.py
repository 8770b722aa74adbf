"""What a training run shows while it works: a banner per stage, tqdm bars with ETA, the final summary.

Everything goes to ``stderr`` except the summary (``stdout``), so a run's output can be piped.  Worker
processes report progress through a queue (:func:`map_with_progress`); the results do not depend on it.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import queue as queue_mod
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from monolith_envs.core.cli import preload_flags

__all__ = ["StageLog", "format_summary", "interrupted_message", "map_with_progress", "output_files", "plot_curve", "rate_text"]


class StageLog:
    """Prints ``[k/n] title: detail`` banners and keeps each stage's wall time (``seconds[title]``).

    Args:
        stages: the titles in order (their number gives ``n``).
        enabled: False prints nothing (the times are still kept).
        file: the stream (default ``sys.stderr``).
    """

    def __init__(self, stages: Sequence[str], enabled: bool = True, file: Any = None):
        self.stages = list(stages)
        self.enabled = enabled
        self.file = file
        self.seconds: dict[str, float] = {}
        self._current: tuple[str, float] | None = None

    def start(self, title: str, detail: str) -> None:
        """End the running stage and announce ``title`` (one of ``stages``)."""
        self.end()
        k = self.stages.index(title) + 1
        if self.enabled:
            print(f"\n== [{k}/{len(self.stages)}] {title}: {detail}", file=self.file or sys.stderr, flush=True)
        self._current = (title, time.perf_counter())

    @property
    def current(self) -> str | None:
        """The running stage's title (None between stages)."""
        return None if self._current is None else self._current[0]

    def end(self) -> None:
        """Record the running stage's time (and say it)."""
        if self._current is None:
            return
        title, t0 = self._current
        self.seconds[title] = self.seconds.get(title, 0.0) + time.perf_counter() - t0
        if self.enabled:
            print(f"   {title} done in {self.seconds[title]:.0f} s", file=self.file or sys.stderr, flush=True)
        self._current = None


def _advance(bar: Any, n: int) -> None:
    """Advance ``bar`` by ``n`` units, up to its total: jobs that finish whole episodes collect a few states
    past their share, and a bar past 100% loses its percentage and its ETA."""
    bar.update(max(0, min(n, (bar.total or 0) - bar.n)) if bar.total else n)


class _LocalQueue:
    """In-process stand-in for a manager queue: ``put(n)`` advances the bar at once."""

    def __init__(self, bar: Any):
        self.bar = bar

    def put(self, n: int) -> None:
        _advance(self.bar, n)


def map_with_progress(fn: Callable[[tuple], Any], jobs: Sequence[tuple], total: int, desc: str, unit: str,
                      executor: Any = None, enabled: bool = True) -> list:
    """``[fn(job + (queue,)) for job in jobs]`` on ``executor`` (in order), with a tqdm bar of ``total``.

    ``fn`` calls ``queue.put(n)`` (``queue`` is its job's last element) after each ``n`` units of work; the
    bar follows those counts while the jobs run (a job's error is raised once every job has ended).  Without
    an executor the jobs run here, one by one.  When the wait is stopped (a signal) with jobs submitted and
    still running, the executor's processes are ended first
    (:func:`~monolith_envs.core.interrupt.end_executor`): they would otherwise report to the progress queue
    after it is gone, each with a traceback.
    """
    from monolith_envs.core.cli import stderr_bar

    bar = stderr_bar(total, desc, unit, enabled)
    try:
        if executor is None:
            q = _LocalQueue(bar)
            return [fn(tuple(j) + (q,)) for j in jobs]
        from multiprocessing.managers import SyncManager

        from monolith_envs.core.interrupt import children_ignore_sigint, end_executor

        manager = SyncManager(ctx=mp.get_context("spawn"))
        futs: list = []
        try:
            with children_ignore_sigint():  # the manager and the pool's processes start without SIGINT (Ctrl-C)
                manager.start()
            q = manager.Queue()
            with children_ignore_sigint():
                for j in jobs:  # one by one: a stop part way still ends the jobs submitted so far
                    futs.append(executor.submit(fn, tuple(j) + (q,)))
            while not all(f.done() for f in futs):
                try:
                    _advance(bar, q.get(timeout=0.2))
                except queue_mod.Empty:
                    pass
            return [f.result() for f in futs]
        except BaseException:  # a stop: the jobs still running would report to a queue that is about to go,
            if any(not f.done() for f in futs):  # each with a traceback: end them first
                end_executor(executor)
            raise
        finally:  # also when interrupted right after the start: a manager left running blocks the exit
            if hasattr(manager, "shutdown"):
                manager.shutdown()
    finally:
        bar.close()


def rate_text(s: dict) -> str:
    """One evaluation result in words (a :meth:`PairResult.summary`, or a solo one with ``success_rate``):
    ``" 37.0%  (95% CI 30.6%-43.9%)  74W 2D 124L of 200"``, ``", k stopped at max_decisions"`` added when
    some were."""
    lo, hi = s["ci95"]
    cut = f", {s['truncated']} stopped at max_decisions" if s.get("truncated") else ""  # no winner: not a win
    if "success_rate" in s:  # a one-seat game, evaluated alone
        return (f"{s['success_rate']:6.1%} success  (95% CI {lo:.1%}-{hi:.1%})  {s['successes']} of {s['games']}, "
                f"mean score {s['mean_score']:.3g}{cut}")
    return (f"{s['win_rate']:6.1%}  (95% CI {lo:.1%}-{hi:.1%})  {s['wins']}W {s['draws']}D {s['losses']}L "
            f"of {s['games']}{cut}")


def evaluate_command(report: dict, model: Path | str, kind: str = "ppo",
                     opponents: list[str] | None = None) -> str:
    """The ``training.evaluate`` command that plays ``model`` (agent spec ``<kind>:<model>``) again in the
    run's env config.

    Against ``opponents`` (default: random) in a multi-seat config; alone (success rate) in a one-seat config
    (one whose final evaluation is ``alone``, or ``opponents=[]``). Its ``--out-dir`` is the model's folder, so
    a pasted command writes its JSON there (``eval_<env>_<seed>.json``, ``-2``, ... on later runs), not into
    ``runs/eval/`` under the current folder.
    """
    def toml_text(v: Any) -> str:  # a value as `--set` reads it back (monolith_envs.core.config.parse_value)
        if isinstance(v, bool):
            return str(v).lower()
        return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))

    cfg = report.get("env_config") or {}
    sets = "".join(f" --set {shlex.quote(f'{k}={toml_text(v)}')}" for k, v in cfg.items() if v is not None)
    alone = list(report.get("final_eval", {})) == ["alone"] or opponents == []
    against = [] if alone else opponents or ["random"]
    agents = ",".join([f"{kind}:{model}", *against])
    # the results beside the model (not in runs/eval/ under the current folder), under evaluate's default
    # name, which never replaces an earlier result: eval_<env>_<seed>.json, then -2, -3, ...
    return (f"python -m training.evaluate --env {report['env_id']} --agents {shlex.quote(agents)} --games 200{sets}"
            f"{preload_flags(report.get('preload') or [])} --out-dir {shlex.quote(str(Path(model).parent))}")


def format_summary(report: dict, run_dir: Path) -> str:
    """The end-of-run summary: headline win rates with intervals, stage times, every output path and the
    TensorBoard command."""
    rate = report["throughput"].get("learner_steps_per_s")
    ppo = (f"{rate:.0f} learner steps/s in PPO, evaluations not counted" if rate is not None
           else "no PPO step in this session")
    resumed = report.get("resumed_from")
    span = (f"{report['total_seconds']:.0f} s in this session, resumed at step {resumed['steps']:,}" if resumed
            else f"{report['total_seconds']:.0f} s in all")
    lines = [f"run {report['run']} on {report['env_id']}: {report['learner_steps']:,} learner steps, {span} ({ppo})"]
    stages = report.get("stage_seconds") or {}
    if stages:
        earlier = (" (with the warm start of the first session)"
                   if resumed and any(k.startswith("warm-start") for k in stages) else "")
        lines.append(f"  stages{earlier}: " + ", ".join(f"{k} {v:.0f} s" for k, v in stages.items()))
    lines.append("final evaluation (the learner in one seat, the opponent in every other seat; alone in a "
                 "one-seat game):")
    for opp, s in report["final_eval"].items():
        lines.append(f"  vs {opp:10s} {rate_text(s)}")
    lines.append("outputs:")
    files = output_files(run_dir)
    width = max([18] + [len(what) + 1 for what, _ in files])
    lines += [f"  {what + ':' if what else '':{width}s} {path}" for what, path in files]
    lines.append(f"watch the losses and win rates: tensorboard --logdir {shlex.quote(str(run_dir / 'tb'))}")
    lines.append(f"evaluate it again: {evaluate_command(report, run_dir / 'final_model.zip')}")
    lines.append("  (other games than the final evaluation above, so its figure may differ; the intervals say by "
                 "how much)")
    return "\n".join(lines)


_OUTPUT_NAMES = (("model", "final_model.zip"), ("report", "report.json"), ("learning curve", "learning_curve.png"),
                 ("curve points", "learning_curve.json"), ("config", "config.json"),
                 ("interim eval model", "eval_model.zip"), ("warm start / init_from", "warm_start.json"))


def output_files(run_dir: Path) -> list[tuple[str, Path]]:
    """``(what, path)`` of every file a run wrote under ``run_dir``: the named outputs first, then the
    ``checkpoints`` folder and each checkpoint, the TensorBoard folder and each event file, each folder of an
    earlier run moved aside (``earlier_run``, ``earlier_run_2``, ...: one line each, with its file count), then
    any other file."""
    from training.resume import earlier_run_dirs

    out: list[tuple[str, Path]] = []
    seen: set[Path] = set()
    for what, name in _OUTPUT_NAMES:
        if (run_dir / name).is_file():
            out.append((what, run_dir / name))
            seen.add(run_dir / name)
    for what, sub in (("checkpoints", "checkpoints"), ("TensorBoard logs", "tb")):
        d = run_dir / sub
        if d.is_dir():
            out.append((what, d))
            files = sorted((f for f in d.rglob("*") if f.is_file() and not f.name.startswith(".")),
                           key=lambda f: (len(f.parts), _steps_key(f)))
            out += [("", f) for f in files]
            seen |= set(files)
    if run_dir.is_dir():
        for d in earlier_run_dirs(run_dir):
            files = [f for f in d.rglob("*") if f.is_file()]
            out.append((f"earlier run, {len(files)} file{'s' * (len(files) != 1)}", d))
            seen |= set(files)
        out += [("other", f) for f in sorted(run_dir.rglob("*"))
                if f.is_file() and f not in seen and not f.name.startswith(".")]
    return out


def _steps_key(f: Path) -> tuple:
    import re

    m = re.search(r"_(\d+)_steps", f.name)
    return (int(m.group(1)) if m else -1, f.name)


def interrupted_message(e: Any) -> str:
    """The lines a training run prints when stopped by a signal (:class:`~monolith_envs.core.interrupt.Interrupted`):
    the signal, the stage and the learner steps reached, the stages done, the checkpoint kept and the
    command that resumes from it."""
    info = e.info
    if not info:
        return f"interrupted by {e.name} before training started; nothing was written (exit status {e.exit_code})"
    lines = [f"interrupted by {e.name} during {info.get('stage') or 'setup'} at {info['steps']:,} of "
             f"{info['planned']:,} learner steps, after {info['seconds']:.0f} s; worker processes ended"]
    if info.get("done"):
        lines.append("  stages run: " + ", ".join(f"{k} {v:.0f} s" for k, v in info["done"].items()))
    run_dir = info["run_dir"]
    if info.get("checkpoint") is not None:
        kept = info["checkpoint_steps"]
        lines.append(f"  kept: checkpoint {info['checkpoint']} ({kept:,} learner steps)")
        again = (f" (it goes on from step {kept:,}: the steps after the checkpoint are played again)"
                 if kept < info["steps"] else "")
        pre = preload_flags(info.get("preload") or [])  # config.json does not keep them
        lines.append(f"  resume with: python -m training.train --resume {shlex.quote(str(run_dir))}{pre}{again}")
    else:
        lines.append(f"  no checkpoint yet (one is written right after a warm start, at a rollout boundary every "
                     f"checkpoint_every learner steps, and on a stop while a rollout is collected, not during an "
                     f"update); run the same command again to start over (outputs in {run_dir})")
    lines.append(f"  exit status {e.exit_code}")
    return "\n".join(lines)


def plot_curve(curve: list[dict], opponents: list[str], path: Path, title: str, warm_start: bool = False) -> dict:
    """Write the learning curve PNG: win rate (with its 95% Wilson band) per fixed opponent over training steps.

    The title names the opponents and the games per point; the subtitle states the widest 95% interval of
    any point (in percentage points); with ``warm_start`` the first point (step 0, taken after the warm
    start) is marked; the legend sits below the axes so it never covers the data.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.0, 4.8), dpi=100)
    widest, games = 0.0, set()
    for opp in opponents:
        pts = [p for p in curve if opp in p]
        if not pts:
            continue
        x = [p["step"] for p in pts]
        y = [100 * p[opp]["win_rate"] for p in pts]
        lo = [100 * p[opp]["ci95"][0] for p in pts]
        hi = [100 * p[opp]["ci95"][1] for p in pts]
        widest = max([widest] + [max(yy - a, b - yy) for yy, a, b in zip(y, lo, hi)])
        games |= {p[opp]["games"] for p in pts}
        (line,) = ax.plot(x, y, marker="o", label=f"vs {opp}")
        ax.fill_between(x, lo, hi, alpha=0.2, color=line.get_color(), label=f"95% interval vs {opp}")
    if warm_start and curve and curve[0]["step"] == 0:
        ax.axvline(0, color="0.35", linestyle="--", linewidth=1, label="after the warm start (step 0)")
    ax.set_xlabel("learner steps (PPO)")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    per = "/".join(str(g) for g in sorted(games))
    if per:
        ax.set_title(f"{title}\nwin rate vs {', '.join(opponents)}; {per} games per point; "
                     f"widest 95% interval ±{widest:.0f} points", fontsize=9)
    else:  # eval_every = 0 (or a run stopped before its first evaluation): say why the axes are empty
        ax.set_title(f"{title}\nno periodic evaluation in this run (eval_every = 0, or stopped before the "
                     "first): no points", fontsize=9)
    legend = None
    if ax.get_legend_handles_labels()[0]:
        legend = ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    renderer = fig.canvas.get_renderer()
    overlaps = legend is not None and legend.get_window_extent(renderer).overlaps(ax.get_window_extent(renderer))
    info = {"title": ax.get_title(), "widest_ci_points": widest, "legend_overlaps_axes": bool(overlaps)}
    plt.close(fig)
    return info
