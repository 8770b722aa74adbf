"""The recipe's driver, :func:`run`: warm start, expert iterations, evaluations, checkpoints, ``report.json``.

Stages (each announced by a banner, with tqdm bars and ETA):

1. **warm start**: ``warm_games`` heuristic-vs-heuristic games (split into ``tasks`` seeded tasks on
   ``workers`` processes); the network is fitted to the heuristic's moves (behaviour cloning) and to the
   final returns (values) for ``warm_epochs`` epochs, then evaluated (``warm_games = 0``: skipped, nothing is
   fitted; ``iter0.pt`` is the fresh network or the ``init_checkpoint`` weights);
2. **iteration k** (``iterations`` times): ``games_per_iteration`` self-play games searched with the current
   network (the tasks on ``workers`` processes, ``concurrent`` games per task batched into one forward pass per
   simulation round); their samples enter the replay buffer; ``train_epochs`` epochs over the buffer; a
   checkpoint; an evaluation against ``eval_opponents`` (``eval_games`` each, seats rotating) printed to the
   console;
3. **final evaluation**: ``final_eval_games`` per opponent (and with the network's own search when
   ``eval_search`` > 0), with 95% Wilson intervals; a one-seat game is evaluated alone (its success rate).

Outputs in ``<out_dir>/<name>/``: ``checkpoints/iter<k>.pt`` and ``final.pt`` (plain tensors, loaded with
``weights_only=True``; play them with the agent spec ``az:PATH`` or ``az:PATH+search:N``), ``warm_samples.npz``
(the warm-start samples, for ``init_samples`` of a later run), ``config.json``
and ``report.json`` (config, per-stage seconds, fit losses, self-play statistics, every evaluation).
Seeds: the network from ``seed``; game-generation task ``t`` of stage ``s`` from ``(seed, s, t)``; evaluation
games from ``seed + 10_000`` (so they are not the training deals). The results do not depend on ``workers``.

Ctrl-C / SIGTERM (:mod:`monolith_envs.core.interrupt`): the workers start with SIGINT ignored and are ended by
this process; the files already written stay (a checkpoint or the samples file is never left half-written), and
:func:`interrupted_message` says the stage, the progress and what was kept.
"""

from __future__ import annotations

import fnmatch
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from monolith_envs.core.interrupt import Interrupted
from training.resume import move_earlier_run

__all__ = ["check_opponent_files", "interrupted_message", "run"]

#: a finished or interrupted run's outputs in its folder (besides ``checkpoints/iter*.pt``), moved aside by a
#: new run of the same name (:func:`training.resume.move_earlier_run`)
EARLIER_AZ_FILES = ("report.json", "final.pt", "warm_samples.npz")

EVAL_SEED_OFFSET = 10_000


def _split(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def _eval_seed(seed: int) -> int:
    from monolith_envs.core.seeds import MAX_SEED

    return (seed + EVAL_SEED_OFFSET) % (MAX_SEED + 1 - 100_000)


def _initial_weights(net: Any, path: str) -> Any:
    """``net`` with the weights of the checkpoint at ``path``; a :class:`CheckpointError` naming both sizes
    when they differ."""
    from .net import CheckpointError, load_checkpoint

    init, meta = load_checkpoint(path)
    if init.meta != net.meta:
        raise CheckpointError(f"init_checkpoint {path!r} has sizes {init.meta}, the config needs {net.meta}")
    return init


class _BarQueue:
    """In-process progress: ``put(n)`` advances the bar (and the count ``n``, kept when the bar is disabled)."""

    def __init__(self, bar: Any):
        self.bar = bar
        self.n = 0

    def put(self, n: int) -> None:
        """Count ``n`` more games done."""
        self.bar.update(n)
        self.n += n


def _map_tasks(fn: Any, jobs: list[tuple], sizes: list[int], desc: str, executor: Any, progress: bool) -> list:
    """``[fn(job) for job in jobs]`` in order, on ``executor`` when given, with a tqdm bar over ``sum(sizes)``
    games: in this process it moves game by game; with workers it moves by a task's ``sizes[i]`` games when the
    task ends (no manager process is involved, so nothing but the workers can fail)."""
    from concurrent.futures import as_completed

    from monolith_envs.core.cli import stderr_bar
    from monolith_envs.core.interrupt import children_ignore_sigint

    bar = stderr_bar(sum(sizes), desc, "game", progress)
    q = _BarQueue(bar)
    try:
        if executor is None:
            return [fn(tuple(j) + (q,)) for j in jobs]
        with children_ignore_sigint():  # the pool's processes start without SIGINT (a terminal's Ctrl-C)
            futs = {executor.submit(fn, tuple(j)): i for i, j in enumerate(jobs)}
        out: list = [None] * len(jobs)
        for f in as_completed(futs):
            i = futs[f]
            out[i] = f.result()
            q.put(sizes[i])
        return out
    except Interrupted as e:  # the games done, for the final message
        e.info.setdefault("games_done", q.n)
        e.info.setdefault("games_total", sum(sizes))
        raise
    finally:
        bar.close()


def _say(text: str, enabled: bool) -> None:
    if enabled:
        print(text, file=sys.stderr, flush=True)


def _evaluate(cfg: dict, spec: str, games: int, executor: Any, progress: bool, label: str,
              track: dict | None = None) -> dict:
    """``spec`` against each of the config's opponents (alone in a one-seat game), one line each: a win rate
    with wins, draws and losses, or a solo success rate (as :func:`training.progress.rate_text` words them)."""
    from training.evaluate import eval_labels, evaluate_against
    from training.progress import rate_text

    out = {}
    for opp in eval_labels(cfg["env_id"], cfg["env_config"], cfg["eval_opponents"]):
        if track is not None:
            track["step"] = "evaluation alone" if opp == "alone" else f"evaluation vs {opp}"
        s = evaluate_against(cfg["env_id"], spec, opp, games, _eval_seed(cfg["seed"]), cfg["env_config"],
                             workers=cfg["workers"], executor=executor, progress=progress)
        against = "alone" if opp == "alone" else f"vs {opp}"
        _say(f"   {label} {against:13s} {rate_text(s)}", progress)
        out[opp] = s
    return out


def _solo(cfg: dict) -> bool:
    """Whether the config's game has one seat (evaluated alone, by its success rate)."""
    import monolith_envs

    return monolith_envs.make_game(cfg["env_id"], **cfg["env_config"]).num_players == 1


def _warm_banner(cfg: dict) -> str:
    """The warm start's banner: its games and epochs, or that it is skipped and what ``iter0.pt`` holds."""
    if cfg["warm_games"] > 0:
        return f"{cfg['warm_games']} heuristic games, behaviour cloning + values, {cfg['warm_epochs']} epochs"
    start = "the weights of init_checkpoint" if cfg["init_checkpoint"] else "a fresh network"
    buffer = "; the replay buffer starts with init_samples" if cfg["init_samples"] else ""
    return f"skipped (warm_games = 0): nothing is fitted, checkpoints/iter0.pt is {start}{buffer}"


def _final_banner(cfg: dict) -> str:
    """The final evaluation's banner: games per opponent (seats rotating), or games alone in a one-seat game."""
    games = cfg["final_eval_games"]
    if not games:
        return "skipped (final_eval_games = 0)"
    if _solo(cfg):
        return f"{games} games alone, success rate"
    return f"{games} games per opponent, seats rotating"


def _executor(workers: int) -> Any:
    """A pool of ``workers`` spawned processes that ignore SIGINT (None for ``workers`` 1)."""
    if workers <= 1:
        return None
    from monolith_envs.core.interrupt import spawn_pool

    return spawn_pool(workers)


def run(cfg: dict, progress: bool = True, guard: Any = None) -> dict:
    """Run the recipe for a validated config (:func:`training.az.config.validate_az`) -> the report dict
    (also written to ``<out_dir>/<name>/report.json``).

    On ``KeyboardInterrupt`` (and :class:`~monolith_envs.core.interrupt.Interrupted`, SIGINT or SIGTERM inside
    :func:`~monolith_envs.core.interrupt.stop_on_signals`) the worker processes are ended at once and the
    exception is raised again; an ``Interrupted`` then carries in ``info`` the stage, the step and its progress,
    the last checkpoint and the files kept (see :func:`interrupted_message`). ``guard`` (the ``SignalGuard`` of
    ``stop_on_signals``) holds a signal back while a checkpoint or the samples file is written.

    Raises:
        training.config.TrainConfigError: an empty ``name``; an ``az:PATH`` opponent that is one of this run's
            own output files (:func:`check_opponent_files`).
        training.az.net.CheckpointError: an ``init_checkpoint`` that is missing or of other sizes.
        monolith_envs.core.game.ConfigError (or the game's config error): a bad ``env_config``.
        agents.AgentSpecError: a bad ``eval_opponents`` spec.
    """
    import torch

    import monolith_envs
    from monolith_envs.core.interrupt import SignalGuard, end_executor
    from training.progress import StageLog

    from .fit import ReplayBuffer, fit
    from .net import net_for_game, save_checkpoint
    from .selfplay import heuristic_task, load_samples, merge_samples, search_task

    if not cfg["name"]:  # validate_az leaves it to load_az_config (the file's stem); '' would be out_dir itself
        from training.config import TrainConfigError

        raise TrainConfigError("config key 'name': must not be empty (outputs go to <out_dir>/<name>/)")
    guard = SignalGuard(()) if guard is None else guard  # no handlers: its deferred blocks are plain blocks
    check_opponent_files(cfg)
    t_start = time.perf_counter()
    env_id, env_config = cfg["env_id"], dict(cfg["env_config"])
    run_dir = Path(cfg["out_dir"]) / cfg["name"]
    ckpt_dir = run_dir / "checkpoints"
    stages = ["warm start"] + [f"iteration {k}" for k in range(1, cfg["iterations"] + 1)] + ["final evaluation"]
    log = StageLog(stages, enabled=progress)
    # what this run reached and wrote (an interrupt's summary names only these files, not an earlier run's)
    track: dict[str, Any] = {"step": "setup", "checkpoint": None, "checkpoint_iteration": None, "kept": []}
    executor = None
    try:
        game = monolith_envs.make_game(env_id, **env_config)
        ckpt_dir.mkdir(parents=True, exist_ok=True)
        with guard.deferred():  # an earlier run's outputs must not mix with this one's (the files it reads stay)
            # (an az:PATH opponent among the outputs moved was refused above: check_opponent_files)
            reads = tuple(Path(cfg[k]) for k in ("init_samples", "init_checkpoint") if cfg[k])
            earlier, moved_to = move_earlier_run(run_dir, EARLIER_AZ_FILES, "iter*.pt", keep=reads)
        if earlier:
            copied = sum((run_dir / name).exists() for name in earlier)  # the files this run reads stay
            both = f" ({copied} of them copied: this run reads them)" if copied else ""
            print(f"note: {run_dir} held an earlier run; its {len(earlier)} outputs (report, models, checkpoints) "
                  f"are moved to {moved_to}{both} (--name NEW starts a run beside it)", file=sys.stderr, flush=True)
        with guard.deferred():
            (run_dir / "config.json").write_text(json.dumps(cfg, indent=2))
            track["kept"].append(run_dir / "config.json")
        torch.manual_seed(cfg["seed"] % 2**63)
        torch.set_num_threads(1)
        net = net_for_game(game, tuple(cfg["hidden"]))
        if cfg["init_checkpoint"]:
            net = _initial_weights(net, cfg["init_checkpoint"])
        opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
        buffer = ReplayBuffer(cfg["replay_size"])
        if cfg["init_samples"]:
            buffer.add(load_samples(cfg["init_samples"], game))
        report: dict[str, Any] = {"recipe": "az", "run": cfg["name"], "env_id": env_id, "env_config": env_config,
                                  "seed": cfg["seed"], "config": cfg, "iterations": []}
        executor = _executor(cfg["workers"])
        meta = {"recipe": "az"}

        def checkpoint(path: Path, iteration: int, extra: dict) -> Path:
            with guard.deferred():  # the file and the record of it: both or neither
                out = save_checkpoint(net, path, env_id, env_config, extra)
                track.update(checkpoint=out, checkpoint_iteration=iteration)
            return out

        def evaluate(spec: str, games: int, label: str = "policy") -> dict:
            return _evaluate(cfg, spec, games, executor, progress, label, track) if games else {}

        # ------------------------------------------------------------------------------ warm start
        log.start("warm start", _warm_banner(cfg))
        warm: dict[str, Any] = {"games": cfg["warm_games"]}
        if cfg["warm_games"] > 0:
            t0 = time.perf_counter()
            sizes = [n for n in _split(cfg["warm_games"], cfg["tasks"]) if n > 0]
            jobs = [(env_id, env_config, n, [cfg["seed"], 0, t], cfg["warm_epsilon"], cfg["warm_value_share"],
                     cfg["warm_tau"]) for t, n in enumerate(sizes)]
            track["step"] = "heuristic games"
            parts = _map_tasks(heuristic_task, jobs, sizes, "heuristic games", executor, progress)
            data = merge_samples([p[0] for p in parts])
            warm["samples"] = int(len(data["obs"]))
            warm["collect_seconds"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            track["step"] = "fit"
            warm["fit"] = fit(net, data, opt, cfg["warm_epochs"], cfg["batch_size"], cfg["seed"],
                              cfg["value_coef"], holdout=0.05, progress=progress, desc="fit (warm start)")
            warm["fit_seconds"] = time.perf_counter() - t0
            _say(f"   {warm['samples']} samples; held-out agreement with the heuristic "
                 f"{warm['fit']['holdout_top1']:.1%}, value MSE {warm['fit']['holdout_value_mse']:.3f}", progress)
            buffer.add(data)
            with guard.deferred():
                np.savez_compressed(run_dir / "warm_samples.npz", **data)
                track["kept"].append(run_dir / "warm_samples.npz")
        path = checkpoint(ckpt_dir / "iter0.pt", 0, meta)
        warm["eval"] = evaluate(f"az:{path}", cfg["eval_games"])
        report["warm_start"] = warm
        # ------------------------------------------------------------------------------ iterations
        opts = {k: cfg[k] for k in ("simulations", "concurrent", "c_puct", "dirichlet_alpha", "noise_frac",
                                    "temp_moves")}
        for it in range(1, cfg["iterations"] + 1):
            log.start(f"iteration {it}", f"{cfg['games_per_iteration']} self-play games, {cfg['simulations']} "
                                         f"simulations per decision, then {cfg['train_epochs']} epochs")
            rec: dict[str, Any] = {"iteration": it}
            t0 = time.perf_counter()
            sizes = [n for n in _split(cfg["games_per_iteration"], cfg["tasks"]) if n > 0]
            jobs = [(str(path), n, [cfg["seed"], it, t], opts) for t, n in enumerate(sizes)]
            track["step"] = "self-play"
            parts = _map_tasks(search_task, jobs, sizes, "self-play", executor, progress) if jobs else []
            if parts:
                data = merge_samples([p[0] for p in parts])
                stats = [p[1] for p in parts]
                rec["selfplay"] = {"games": sum(s["games"] for s in stats), "samples": int(len(data["obs"])),
                                   "decisions": sum(s["decisions"] for s in stats),
                                   "forward_passes": sum(s["forward_passes"] for s in stats),
                                   "leaf_evals": sum(s["leaf_evals"] for s in stats),
                                   "seconds": time.perf_counter() - t0}
                buffer.add(data)
            t0 = time.perf_counter()
            track["step"] = "fit"
            if len(buffer):
                rec["fit"] = fit(net, buffer.data, opt, cfg["train_epochs"], cfg["batch_size"], cfg["seed"] + it,
                                 cfg["value_coef"], progress=progress, desc=f"fit (iteration {it})")
            rec["fit_seconds"] = time.perf_counter() - t0
            rec["buffer"] = len(buffer)
            path = checkpoint(ckpt_dir / f"iter{it}.pt", it, dict(meta, iteration=it))
            rec["eval"] = evaluate(f"az:{path}", cfg["eval_games"])
            report["iterations"].append(rec)
        # ------------------------------------------------------------------------------ final
        final = checkpoint(run_dir / "final.pt", cfg["iterations"], dict(meta, iteration=cfg["iterations"]))
        log.start("final evaluation", _final_banner(cfg))
        report["final_eval"] = evaluate(f"az:{final}", cfg["final_eval_games"])
        if cfg["eval_search"] and cfg["final_eval_games"]:
            spec = f"az:{final}+search:{cfg['eval_search']}"
            report["final_eval_search"] = evaluate(spec, cfg["final_eval_games"], f"search:{cfg['eval_search']}")
        log.end()
        if executor is not None:
            track["step"] = "ending the workers"
            executor.shutdown()
            executor = None
        report["stage_seconds"] = log.seconds
        report["total_seconds"] = time.perf_counter() - t_start
        report["final_model"] = str(final)
        track["step"] = "writing the report"
        with guard.deferred():
            (run_dir / "report.json").write_text(json.dumps(_no_nan(report), indent=2, default=_json_default,
                                                            allow_nan=False))
            track["step"] = "done"
    except Interrupted as e:
        e.info.update(track, stage=log.current, done=dict(log.seconds), run_dir=run_dir,
                      iterations=cfg["iterations"], seconds=time.perf_counter() - t_start)
        raise
    finally:  # interrupted or failed: end the workers at once (a pool's shutdown waits for the tasks running)
        end_executor(executor)
    return report


def interrupted_message(e: Any, command: str = "python -m training.az", config: str = "CONFIG",
                        quick: bool = False, continue_command: str = "python -m training.az --config COPY") -> str:
    """The lines ``python -m training.az`` prints when stopped by a signal (an
    :class:`~monolith_envs.core.interrupt.Interrupted` raised through :func:`run`): the signal, the stage and
    the progress reached, the stages done, the checkpoint and files kept, and how to go on. ``command`` is the
    command that was run; ``config`` its config file, ``quick`` whether it ran with ``--quick`` and
    ``continue_command`` the command that runs a copy of the config (the hint to start a new run from the
    checkpoint kept, with the recipe's ``init_checkpoint`` / ``init_samples`` keys: there is no resume)."""
    info = e.info
    if "run_dir" not in info:
        return f"interrupted by {e.name} before the run started; nothing was written (exit status {e.exit_code})"
    stage = info["stage"]
    if stage is None and info.get("step") == "done":
        return (f"interrupted by {e.name} after the run had finished; its outputs are complete: "
                f"{info['run_dir']} (exit status {e.exit_code})")
    where = {"warm start": "the warm start", "final evaluation": "the final evaluation",
             None: "the end of the run" if info.get("checkpoint") else "setup"}.get(stage, f"{stage} of "
                                                                                   f"{info['iterations']}")
    step = info.get("step")
    if info.get("games_done") is not None:
        step = f"{step}: {info['games_done']:,} of {info['games_total']:,} games played"
    elif info.get("batches_done") is not None:
        step = f"{step}: {info['batches_done']:,} of {info['batches_total']:,} batches"
    step = f" ({step})" if step and step != "setup" else ""
    lines = [f"interrupted by {e.name} during {where}{step}, after {info['seconds']:.0f} s; worker processes ended"]
    if info.get("done"):
        lines.append("  stages run: " + ", ".join(f"{k} {v:.0f} s" for k, v in info["done"].items()))
    kept = ", ".join(str(f) for f in info.get("kept", []))
    ckpt = info.get("checkpoint")
    if ckpt is None:
        lines.append(f"  no checkpoint yet (the first, checkpoints/iter0.pt, follows the warm start); kept: "
                     f"{kept or 'nothing'}; run the same command again to start over:")
        lines.append(f"    {command}")
    else:
        samples = Path(info["run_dir"]) / "warm_samples.npz"  # this run's own samples, when it wrote them
        it = info["checkpoint_iteration"]
        lines.append(f"  kept: checkpoint {ckpt} ({f'iteration {it}' if it else 'the warm start'}); {kept}")
        table = " ([quick] table)" if quick else ""
        lines.append(f"  to start a new run from it, set in a copy of {config}{table}: init_checkpoint = \"{ckpt}\""
                     + (f", init_samples = \"{samples}\"" if samples in info.get("kept", []) else "")
                     + f", warm_games = 0; then {continue_command}")
    lines.append(f"  exit status {e.exit_code}")
    return "\n".join(lines)


def check_opponent_files(cfg: dict) -> None:
    """Refuse an ``az:PATH`` evaluation opponent whose file is one this run writes (its ``final.pt`` or a
    ``checkpoints/iter<k>.pt``): the run would replace it and then play its own network under that name.

    Raises:
        training.config.TrainConfigError: naming the spec and the run folder.
    """
    from agents.az_agent import parse_az_spec
    from training.config import TrainConfigError

    try:
        run_dir = (Path(cfg["out_dir"]) / cfg["name"]).resolve()
    except (OSError, RuntimeError):  # a symlink loop: the run folder's own check names it
        return
    for spec in cfg["eval_opponents"]:
        kind, _, rest = str(spec).strip().partition(":")  # as the agent factory reads a spec
        if kind.lower() != "az":
            continue
        try:
            given = Path(parse_az_spec(rest)[0])
        except ValueError:  # the agent's own check names a bad spec
            continue
        try:  # the file itself, and the name in its folder (a link named final.pt is written over too)
            names = {given.resolve(), given.parent.resolve() / given.name}
        except (OSError, RuntimeError):
            continue
        for path in names:
            if path == run_dir / "final.pt" or (path.parent == run_dir / "checkpoints"
                                                 and fnmatch.fnmatchcase(path.name, "iter*.pt")):
                raise TrainConfigError(f"config key 'eval_opponents': agent spec {spec!r} plays a file this run "
                                       f"writes over or moves ({path.relative_to(run_dir)} of {run_dir}); copy it "
                                       "elsewhere and name the copy, or run under another name (--name NEW)")


def _no_nan(x: Any) -> Any:
    """``x`` with every float that is not finite (a fit without held-out rows gives NaN) as ``None``, so
    ``report.json`` is strict JSON."""
    if isinstance(x, dict):
        return {k: _no_nan(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_no_nan(v) for v in x]
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(x) else None
    return x


def _json_default(x: Any) -> Any:
    if isinstance(x, (np.floating, np.integer)):
        return x.item()
    if isinstance(x, float) and math.isnan(x):
        return None
    return str(x)
