"""The recipe's driver, :func:`run`: warm start, expert iterations, evaluations, checkpoints, ``report.json``.

Stages (each announced by a banner, with tqdm bars and ETA):

1. **warm start**: ``warm_games`` heuristic-vs-heuristic games (split into ``tasks`` seeded tasks on
   ``workers`` processes); the network is fitted to the heuristic's moves (behaviour cloning) and to the
   final returns (values) for ``warm_epochs`` epochs, then evaluated;
2. **iteration k** (``iterations`` times): ``games_per_iteration`` self-play games searched with the current
   network (the tasks on ``workers`` processes, ``concurrent`` games per task batched into one forward pass per
   simulation round); their samples enter the replay buffer; ``train_epochs`` epochs over the buffer; a
   checkpoint; an evaluation against ``eval_opponents`` (``eval_games`` each, seats rotating) printed to the
   console;
3. **final evaluation**: ``final_eval_games`` per opponent (and with the network's own search when
   ``eval_search`` > 0), with 95% Wilson intervals.

Outputs in ``<out_dir>/<name>/``: ``checkpoints/iter<k>.pt`` and ``final.pt`` (plain tensors, loaded with
``weights_only=True``; play them with the agent spec ``az:PATH`` or ``az:PATH+search:N``), ``warm_samples.npz``
(the warm-start samples, for ``init_samples`` of a later run), ``config.json``
and ``report.json`` (config, per-stage seconds, fit losses, self-play statistics, every evaluation).
Seeds: the network from ``seed``; game-generation task ``t`` of stage ``s`` from ``(seed, s, t)``; evaluation
games from ``seed + 10_000`` (so they are not the training deals). The results do not depend on ``workers``.
"""

from __future__ import annotations

import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["run"]

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
    """In-process progress: ``put(n)`` advances the bar."""

    def __init__(self, bar: Any):
        self.bar = bar

    def put(self, n: int) -> None:
        self.bar.update(n)


def _map_tasks(fn: Any, jobs: list[tuple], sizes: list[int], desc: str, executor: Any, progress: bool) -> list:
    """``[fn(job) for job in jobs]`` in order, on ``executor`` when given, with a tqdm bar over ``sum(sizes)``
    games: in this process it moves game by game; with workers it moves by a task's ``sizes[i]`` games when the
    task ends (no manager process is involved, so nothing but the workers can fail)."""
    from concurrent.futures import as_completed

    from tqdm import tqdm

    bar = tqdm(total=sum(sizes), desc=desc, unit="game", file=sys.stderr, disable=not progress, dynamic_ncols=True)
    try:
        if executor is None:
            q = _BarQueue(bar)
            return [fn(tuple(j) + (q,)) for j in jobs]
        futs = {executor.submit(fn, tuple(j)): i for i, j in enumerate(jobs)}
        out: list = [None] * len(jobs)
        for f in as_completed(futs):
            i = futs[f]
            out[i] = f.result()
            bar.update(sizes[i])
        return out
    finally:
        bar.close()


def _say(text: str, enabled: bool) -> None:
    if enabled:
        print(text, file=sys.stderr, flush=True)


def _evaluate(cfg: dict, spec: str, games: int, executor: Any, progress: bool, label: str) -> dict:
    from training.evaluate import eval_labels, evaluate_against

    out = {}
    for opp in eval_labels(cfg["env_id"], cfg["env_config"], cfg["eval_opponents"]):
        s = evaluate_against(cfg["env_id"], spec, opp, games, _eval_seed(cfg["seed"]), cfg["env_config"],
                             workers=cfg["workers"], executor=executor, progress=progress)
        lo, hi = s["ci95"]
        _say(f"   {label} vs {opp:10s} {s['win_rate']:6.1%}  (95% CI {lo:.1%}-{hi:.1%})  {s['wins']}W {s['draws']}D "
             f"{s['losses']}L of {s['games']}", progress)
        out[opp] = s
    return out


def run(cfg: dict, progress: bool = True) -> dict:
    """Run the recipe for a validated config (:func:`training.az.config.validate_az`) -> the report dict
    (also written to ``<out_dir>/<name>/report.json``).

    Raises:
        training.az.net.CheckpointError: an ``init_checkpoint`` that is missing or of other sizes.
        monolith_envs.core.game.ConfigError (or the game's config error): a bad ``env_config``.
        agents.AgentSpecError: a bad ``eval_opponents`` spec.
    """
    import torch

    import monolith_envs
    from training.progress import StageLog

    from .fit import ReplayBuffer, fit
    from .net import net_for_game, save_checkpoint
    from .selfplay import heuristic_task, load_samples, merge_samples, search_task

    t_start = time.perf_counter()
    env_id, env_config = cfg["env_id"], dict(cfg["env_config"])
    game = monolith_envs.make_game(env_id, **env_config)
    run_dir = Path(cfg["out_dir"]) / cfg["name"]
    ckpt_dir = run_dir / "checkpoints"
    ckpt_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps(cfg, indent=2))
    torch.manual_seed(cfg["seed"] % 2**63)
    torch.set_num_threads(1)
    net = net_for_game(game, tuple(cfg["hidden"]))
    if cfg["init_checkpoint"]:
        net = _initial_weights(net, cfg["init_checkpoint"])
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    buffer = ReplayBuffer(cfg["replay_size"])
    if cfg["init_samples"]:
        buffer.add(load_samples(cfg["init_samples"], game))
    stages = ["warm start"] + [f"iteration {k}" for k in range(1, cfg["iterations"] + 1)] + ["final evaluation"]
    log = StageLog(stages, enabled=progress)
    report: dict[str, Any] = {"recipe": "az", "run": cfg["name"], "env_id": env_id, "env_config": env_config,
                              "seed": cfg["seed"], "config": cfg, "iterations": []}
    executor = (ProcessPoolExecutor(max_workers=cfg["workers"], mp_context=__import__("multiprocessing")
                                    .get_context("spawn")) if cfg["workers"] > 1 else None)
    meta = {"recipe": "az"}
    try:
        # ------------------------------------------------------------------------------ warm start
        log.start("warm start", f"{cfg['warm_games']} heuristic games, behaviour cloning + values, "
                                f"{cfg['warm_epochs']} epochs")
        warm: dict[str, Any] = {"games": cfg["warm_games"]}
        if cfg["warm_games"] > 0:
            t0 = time.perf_counter()
            sizes = [n for n in _split(cfg["warm_games"], cfg["tasks"]) if n > 0]
            jobs = [(env_id, env_config, n, [cfg["seed"], 0, t], cfg["warm_epsilon"], cfg["warm_value_share"],
                     cfg["warm_tau"]) for t, n in enumerate(sizes)]
            parts = _map_tasks(heuristic_task, jobs, sizes, "heuristic games", executor, progress)
            data = merge_samples([p[0] for p in parts])
            warm["samples"] = int(len(data["obs"]))
            warm["collect_seconds"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            warm["fit"] = fit(net, data, opt, cfg["warm_epochs"], cfg["batch_size"], cfg["seed"],
                              cfg["value_coef"], holdout=0.05, progress=progress, desc="fit (warm start)")
            warm["fit_seconds"] = time.perf_counter() - t0
            _say(f"   {warm['samples']} samples; held-out agreement with the heuristic "
                 f"{warm['fit']['holdout_top1']:.1%}, value MSE {warm['fit']['holdout_value_mse']:.3f}", progress)
            buffer.add(data)
            np.savez_compressed(run_dir / "warm_samples.npz", **data)
        path = save_checkpoint(net, ckpt_dir / "iter0.pt", env_id, env_config, meta)
        warm["eval"] = _evaluate(cfg, f"az:{path}", cfg["eval_games"], executor, progress, "policy") \
            if cfg["eval_games"] else {}
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
            if len(buffer):
                rec["fit"] = fit(net, buffer.data, opt, cfg["train_epochs"], cfg["batch_size"], cfg["seed"] + it,
                                 cfg["value_coef"], progress=progress, desc=f"fit (iteration {it})")
            rec["fit_seconds"] = time.perf_counter() - t0
            rec["buffer"] = len(buffer)
            path = save_checkpoint(net, ckpt_dir / f"iter{it}.pt", env_id, env_config, dict(meta, iteration=it))
            rec["eval"] = _evaluate(cfg, f"az:{path}", cfg["eval_games"], executor, progress, "policy") \
                if cfg["eval_games"] else {}
            report["iterations"].append(rec)
        # ------------------------------------------------------------------------------ final
        final = save_checkpoint(net, run_dir / "final.pt", env_id, env_config,
                                dict(meta, iteration=cfg["iterations"]))
        log.start("final evaluation", f"{cfg['final_eval_games']} games per opponent, seats rotating")
        report["final_eval"] = _evaluate(cfg, f"az:{final}", cfg["final_eval_games"], executor, progress,
                                         "policy") if cfg["final_eval_games"] else {}
        if cfg["eval_search"] and cfg["final_eval_games"]:
            spec = f"az:{final}+search:{cfg['eval_search']}"
            report["final_eval_search"] = _evaluate(cfg, spec, cfg["final_eval_games"], executor, progress,
                                                    f"search:{cfg['eval_search']}")
        log.end()
    finally:
        if executor is not None:
            executor.shutdown()
    report["stage_seconds"] = log.seconds
    report["total_seconds"] = time.perf_counter() - t_start
    report["final_model"] = str(final)
    (run_dir / "report.json").write_text(json.dumps(report, indent=2, default=_json_default))
    return report


def _json_default(x: Any) -> Any:
    if isinstance(x, (np.floating, np.integer)):
        return x.item()
    if isinstance(x, float) and math.isnan(x):
        return None
    return str(x)
