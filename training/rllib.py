"""Train PPO with RLlib (new API stack) by self-play on any registered game, locally or on a Ray cluster.

Command line::

    python -m training.rllib --env ENV_ID [--config FILE] [--set key=value ...] [--num-env-runners N]
                             [--address auto|HOST:PORT] [--list-keys]

One shared policy (the RLModule ``"shared"``, :class:`~training.rllib_module.MaskedPPOTorchRLModule`,
action mask applied to its logits) plays every learner seat of :class:`~training.rllib_env.MonolithMultiAgentEnv`;
the other seats are frozen snapshots of it and fixed agents per ``opponent_mix`` (see
:mod:`training.rllib_config`, ``--list-keys``).  The learner runs in this process; ``num_env_runners`` Ray
actors sample episodes, on any node of the cluster.  Outputs under ``<out_dir>/<name>/``
(``--out-dir``, ``--name``):

* ``config.json``; ``metrics.jsonl`` (one JSON line per training iteration: steps, throughput, PPO losses,
  episode return and the learner seats' win rate, evaluations) and, with the ``[train]`` extra,
  TensorBoard logs in ``tb/``;
* ``checkpoints/step_<N>/``: RLlib algorithm checkpoints every ``checkpoint_every`` learner steps;
  ``final_checkpoint/``: the last one (``rllib:<run>/final_checkpoint`` is an agent spec);
* ``report.json``: the shape of :mod:`training.train`'s report (final win rates against the
  ``eval_opponents`` with 95% Wilson intervals, the learning curve, throughput, the resolved config).

Every config key is checked (the checks of :mod:`training.train` on the keys they share, every agent spec
built once, ``address`` of the form ``auto`` or HOST:PORT, no more env runners than a local Ray instance has
CPUs, the run folder created) before Ray starts: a bad value is one ``error:`` line and exit status 2.  A Ray
cluster that cannot be joined (nothing listens at ``address``, no cluster for ``auto``) or that has fewer
CPUs than env runners is also one ``error:`` line and exit status 2, and leaves no run folder behind: the
run writes its outputs only once Ray is joined.  A run of the name of an earlier one moves that run's outputs
(report, metrics, checkpoints, TensorBoard logs) to ``<run>/earlier_run`` (``earlier_run_2``, ...) first.
On Ctrl-C or SIGTERM (also while Ray starts or RLlib builds the algorithm) the run stops, shuts Ray down,
prints the stage it stopped in and the last checkpoint kept, and exits with status 130 or 143.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from monolith_envs.agents.model_files import add_trust_argument, trust_models_from_args
from monolith_envs.core.cli import ArgumentParser
from monolith_envs.core.interrupt import Interrupted, SignalGuard, end_children, stop_on_signals
from monolith_envs.core.outfiles import missing_folders, remove_empty_folders
from monolith_envs.core.words import count
from training.config import TrainConfigError
from training.resume import move_earlier_run
from training.rllib_config import (
    apply_overrides,
    check_config,
    describe_keys,
    load_config,
    prepare_run_dir,
    run_name,
)
from training.rllib_ray import (
    RayStartError,
    _as_interrupted,
    _init_ray,
    _record_signals,
    check_address,
    check_cpus,
)

__all__ = ["RayStartError", "build_config", "final_lines", "interrupted_message", "main", "module_spec", "seconds_text",
           "shared_weights", "train"]


def _to_shared(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Policy mapping: every learner seat plays the one shared module."""
    from training.rllib_env import SHARED_MODULE

    return SHARED_MODULE


def module_spec(cfg: dict, observation_space: Any = None, action_space: Any = None) -> Any:
    """The ``RLModuleSpec`` of the shared module (``net_arch`` hidden layers, separate value network)."""
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from training.rllib_module import MaskedPPOTorchRLModule

    return RLModuleSpec(module_class=MaskedPPOTorchRLModule, observation_space=observation_space,
                        action_space=action_space,
                        model_config=DefaultModelConfig(fcnet_hiddens=list(cfg["net_arch"]), vf_share_layers=False))


#: what a run writes in its folder: a new run of the same name moves an earlier run's outputs aside first
#: (:func:`training.resume.move_earlier_run`, into ``earlier_run``, ``earlier_run_2``, ...)
EARLIER_RUN_OUTPUTS = ("report.json", "metrics.jsonl", "tb", "checkpoints", "final_checkpoint", "eval_checkpoint")


def _build_module(spec: Any) -> Any:
    return spec.build()


def env_config(cfg: dict) -> dict:
    """RLlib's ``env_config`` for :class:`~training.rllib_env.MonolithMultiAgentEnv` (picklable)."""
    import monolith_envs

    aec = monolith_envs.make(cfg["env_id"], wrapped=False, **cfg["env_config"])
    name = aec.possible_agents[0]
    spec = module_spec(cfg, aec.observation_space(name), aec.action_space(name))
    return {"env_id": cfg["env_id"], "env_config": dict(cfg["env_config"]), "opponent_mix": dict(cfg["opponent_mix"]),
            "pool_size": cfg["pool_size"], "seat": cfg["seat"], "seed": cfg["seed"], "preload": list(cfg["preload"]),
            "module_factory": partial(_build_module, spec)}


def build_config(cfg: dict) -> Any:
    """The ``PPOConfig``: multi-agent, one trained module ``"shared"``, torch, the learner in this process."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    from training.rllib_callbacks import SeatMetrics
    from training.rllib_env import SHARED_MODULE, MonolithMultiAgentEnv

    return (
        PPOConfig()
        .environment(MonolithMultiAgentEnv, env_config=env_config(cfg), disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=cfg["num_env_runners"], num_envs_per_env_runner=cfg["envs_per_env_runner"],
                     num_cpus_per_env_runner=1, rollout_fragment_length="auto")
        .learners(num_learners=0)
        .multi_agent(policies={SHARED_MODULE}, policy_mapping_fn=_to_shared, policies_to_train=[SHARED_MODULE])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED_MODULE: module_spec(cfg)}))
        .training(lr=cfg["learning_rate"], gamma=cfg["gamma"], lambda_=cfg["gae_lambda"],
                  clip_param=cfg["clip_range"], entropy_coeff=cfg["ent_coef"], vf_loss_coeff=cfg["vf_coef"],
                  grad_clip=cfg["max_grad_norm"], grad_clip_by="global_norm",
                  train_batch_size_per_learner=cfg["train_batch_size"], minibatch_size=cfg["batch_size"],
                  num_epochs=cfg["n_epochs"])
        .callbacks(SeatMetrics)
        .debugging(seed=cfg["seed"], log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=20)
    )


def shared_weights(algo: Any) -> dict:
    """``{name: float32 ndarray}``: a frozen copy of the shared module's parameters (from the learner)."""
    from training.rllib_env import SHARED_MODULE

    module = algo.learner_group._learner.module[SHARED_MODULE]
    return {k: v.detach().cpu().numpy().copy() for k, v in module.state_dict().items()}


def _sub_envs(runner: Any) -> list:
    env = getattr(runner, "env", None)
    if env is None:
        return []
    env = getattr(env, "unwrapped", env)
    return [getattr(e, "unwrapped", e) for e in getattr(env, "envs", [env])]


def _push_snapshot(algo: Any, weights: dict) -> None:
    def add(runner: Any) -> int:
        subs = _sub_envs(runner)
        for e in subs:
            if hasattr(e, "add_snapshot"):
                e.add_snapshot(weights)
        return len(subs)

    algo.env_runner_group.foreach_env_runner(add, local_env_runner=True)


def _opponent_steps(algo: Any) -> int:
    counts = algo.env_runner_group.foreach_env_runner(
        lambda r: sum(getattr(e, "opponent_steps", 0) for e in _sub_envs(r)), local_env_runner=True)
    return int(sum(counts))


def _evaluate(cfg: dict, ckpt: Path, games: int, seed: int, progress: bool = False) -> dict:
    """``{opponent: summary}`` of the checkpoint against each ``eval_opponents`` (``{"alone": ...}`` in a
    one-seat config), as :mod:`training.train` reports them."""
    from training.evaluate import eval_labels, evaluate_against

    return {opp: evaluate_against(cfg["env_id"], f"rllib:{ckpt}", opp, games, seed=seed, env_config=cfg["env_config"],
                                  workers=cfg["eval_workers"], preload=cfg["preload"], progress=progress)
            for opp in eval_labels(cfg["env_id"], cfg["env_config"], cfg["eval_opponents"])}


class _Log:
    """``metrics.jsonl`` plus TensorBoard scalars when ``torch.utils.tensorboard`` can be imported."""

    def __init__(self, run_dir: Path):
        self.file = open(run_dir / "metrics.jsonl", "w")
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.tb = SummaryWriter(str(run_dir / "tb"))
        except ImportError:
            self.tb = None

    def write(self, row: dict) -> None:
        self.file.write(json.dumps(row) + "\n")
        self.file.flush()
        if self.tb is not None:
            for k, v in _flat(row).items():
                self.tb.add_scalar(k, v, row["step"])

    def close(self) -> None:
        self.file.close()
        if self.tb is not None:
            self.tb.close()


def _flat(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}/"))
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and k != "step":
            out[f"{prefix}{k}"] = float(v)
    return out


def _row(res: dict, step: int, seconds: float, opp_steps: int) -> dict:
    from training.rllib_env import SHARED_MODULE

    runners = res.get("env_runners", {})
    learner = res.get("learners", {}).get(SHARED_MODULE, {})
    keep = ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "curr_entropy_coeff")
    return {"step": step, "seconds": round(seconds, 3), "opponent_steps": opp_steps,
            "learner_steps_per_s": step / max(seconds, 1e-9),
            "env_steps_per_s": (step + opp_steps) / max(seconds, 1e-9),
            "episode_return_mean": runners.get("episode_return_mean"),
            "episodes": runners.get("num_episodes_lifetime"),
            "learner_win_rate": runners.get("learner_win_rate"),
            "ppo": {k: float(learner[k]) for k in keep if k in learner}}


def train(cfg: dict, guard: SignalGuard | None = None) -> dict:
    """Run one RLlib training job from a validated config; returns the report dict (also ``report.json``).

    On :class:`~monolith_envs.core.interrupt.Interrupted` (see :func:`main`) Ray is shut down (when this call
    started it) and the exception is raised again with ``info`` saying the stage, the learner steps and the
    last checkpoint kept.  ``guard`` (from :func:`~monolith_envs.core.interrupt.stop_on_signals`) holds a
    signal back while a checkpoint is written.

    Raises:
        monolith_envs.UnknownEnvError / ConfigError: bad ``env_id`` / ``env_config``.
    """
    import ray
    import torch

    import monolith_envs

    guard = SignalGuard(()) if guard is None else guard  # no handlers: the deferred blocks are plain blocks
    for mod in cfg["preload"]:
        importlib.import_module(mod)
    monolith_envs.make(cfg["env_id"], **cfg["env_config"])  # fail fast on env id / config errors
    cfg = {**cfg, "name": run_name(cfg)}
    torch.set_num_threads(cfg["torch_threads"])
    run_dir = Path(cfg["out_dir"]) / cfg["name"]
    t_start = time.perf_counter()
    owns_ray = not ray.is_initialized()
    track: dict[str, Any] = {"stage": "Ray start", "checkpoint": None, "checkpoint_steps": 0}
    log: _Log | None = None
    curve: list[dict] = []
    steps = 0

    def save(path: Path, kept: bool = True) -> Path:
        with guard.deferred():  # a checkpoint is written whole (and counted as kept) or not at all
            out = Path(algo.save_to_path(str(path.resolve())))
            if kept:
                track.update(checkpoint=out, checkpoint_steps=steps)
        return out

    try:
        _init_ray(cfg)  # nothing is written before Ray is joined: a run that cannot start leaves no outputs
        track["stage"] = "the algorithm's start"
        run_dir.mkdir(parents=True, exist_ok=True)
        with guard.deferred():
            earlier, kept_at = move_earlier_run(run_dir, EARLIER_RUN_OUTPUTS)
        if earlier:
            print(f"note: {run_dir} held an earlier run; its outputs ({', '.join(earlier)}) are moved to {kept_at} "
                  "(--set name=NEW starts a run beside it)", file=sys.stderr, flush=True)
        (run_dir / "config.json").write_text(json.dumps(cfg, indent=2))
        log = _Log(run_dir)
        algo = build_config(cfg).build_algo()
        from training.rllib_callbacks import steps_sampled

        last_snap = last_eval = last_ckpt = 0
        _push_snapshot(algo, shared_weights(algo))
        t0 = time.perf_counter()
        t_eval = 0.0
        track["stage"] = "training"
        while steps < cfg["total_timesteps"]:
            res = algo.train()
            steps = steps_sampled(res)
            opp = _opponent_steps(algo)
            row = _row(res, steps, time.perf_counter() - t0 - t_eval, opp)
            if cfg["snapshot_every"] and steps - last_snap >= cfg["snapshot_every"]:
                last_snap = steps
                _push_snapshot(algo, shared_weights(algo))
            if cfg["checkpoint_every"] and steps - last_ckpt >= cfg["checkpoint_every"]:
                last_ckpt = steps
                save(run_dir / "checkpoints" / f"step_{steps}")
            if cfg["eval_every"] and (steps - last_eval >= cfg["eval_every"] or steps >= cfg["total_timesteps"]):
                last_eval = steps
                te = time.perf_counter()
                track["stage"] = f"the evaluation at {steps:,} learner steps"
                path = save(run_dir / "eval_checkpoint", kept=False)
                point = {"step": steps, **{k: {"win_rate": v["win_rate"], "ci95": v["ci95"], "games": v["games"]}
                                           for k, v in _evaluate(cfg, path, cfg["eval_games"],
                                                                 cfg["seed"] + 10**6).items()}}
                curve.append(point)
                row["eval"] = {k: v["win_rate"] for k, v in point.items() if k != "step"}
                t_eval += time.perf_counter() - te
                track["stage"] = "training"
            log.write(row)
            if cfg["progress_bar"]:
                spent = time.perf_counter() - t0
                left = spent / max(steps, 1) * max(cfg["total_timesteps"] - steps, 0)
                evals = "".join(f", {k} {v:.0%}" for k, v in row.get("eval", {}).items())
                print(f"train: {steps:,}/{cfg['total_timesteps']:,} learner steps, {row['env_steps_per_s']:.0f} "
                      f"env steps/s, {seconds_text(left)} left"
                      + (f"; evaluation at {steps:,} (win rate):{evals[1:]}" if evals else ""),
                      file=sys.stderr, flush=True)
        t_train = time.perf_counter() - t0 - t_eval
        opp_steps = _opponent_steps(algo)
        final_path = save(run_dir / "final_checkpoint")
        track["stage"] = "the final evaluation"
        algo.stop()
        t1 = time.perf_counter()
        final = _evaluate(cfg, final_path, cfg["final_eval_games"], cfg["seed"] + 2 * 10**6, cfg["progress_bar"])
        t_final = time.perf_counter() - t1
    except KeyboardInterrupt as e:  # Ray turns the Interrupted of a stop inside ray.wait into a KeyboardInterrupt
        stop = e if isinstance(e, Interrupted) else _as_interrupted(e)
        stop.info.update(stage=track["stage"], steps=steps, planned=cfg["total_timesteps"], run_dir=run_dir,
                         seconds=time.perf_counter() - t_start, checkpoint=track["checkpoint"],
                         checkpoint_steps=track["checkpoint_steps"], ray_shut_down=owns_ray,
                         written=log is not None)
        if stop is e:
            raise
        raise stop from None
    finally:
        if log is not None:
            log.close()
        if owns_ray:  # also after a stop inside ray.init: the processes it started so far are ended
            ray.shutdown()
    report = {
        "run": cfg["name"], "env_id": cfg["env_id"], "env_config": cfg["env_config"],
        "final_model": str(final_path), "learner_steps": steps, "pretrain": {},
        "final_eval": final, "learning_curve": curve,
        "throughput": {"train_seconds": t_train, "learner_steps_per_s": steps / t_train,
                       "env_steps_per_s": (steps + opp_steps) / t_train, "opponent_steps": opp_steps,
                       "num_env_runners": cfg["num_env_runners"],
                       "envs_per_env_runner": cfg["envs_per_env_runner"]},
        "final_eval_seconds": t_final, "total_seconds": time.perf_counter() - t_start, "config": cfg,
    }
    (run_dir / "report.json").write_text(json.dumps(report, indent=2))
    return report


def seconds_text(seconds: float) -> str:
    """A duration in words: ``"0.4 s"`` below 10 s, ``"12 s"``, ``"3 min 5 s"`` from 100 s on."""
    if seconds < 0.05:
        return "under 0.1 s"
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 100:
        return f"{seconds:.0f} s"
    m, sec = divmod(int(round(seconds)), 60)
    return f"{m} min {sec} s" if m < 60 else f"{m // 60} h {m % 60} min"


def final_lines(report: dict) -> str:
    """One line per opponent of ``report["final_eval"]`` in the words of ``training.train``'s summary
    (:func:`training.progress.rate_text`): a win rate with its 95% CI and wins/draws/losses, or, for a
    one-seat game played alone, the success rate."""
    from training.progress import rate_text

    return "\n".join(f"  alone: {rate_text(s).strip()}" if "success_rate" in s else f"  vs {opp:10s} {rate_text(s)}"
                     for opp, s in report["final_eval"].items())


def interrupted_message(e: Interrupted) -> str:
    """The lines a run stopped by a signal prints: the signal, the stage and the learner steps reached, the
    last checkpoint kept (an ``rllib:`` agent spec) and the exit status."""
    info = e.info
    if not info:
        return f"interrupted by {e.name} before training started; Ray was not started (exit status {e.exit_code})"
    ray_text = "; Ray shut down" if info.get("ray_shut_down") else ""
    lines = [f"interrupted by {e.name} during {info['stage']} at {info['steps']:,} of {info['planned']:,} learner "
             f"steps, after {seconds_text(info['seconds'])}{ray_text}"]
    if info.get("checkpoint") is not None:
        lines.append(f"  kept: checkpoint {info['checkpoint']} ({info['checkpoint_steps']:,} learner steps; "
                     f"rllib:{info['checkpoint']} is an agent spec)")
    else:
        lines.append("  no checkpoint kept (one is written every checkpoint_every learner steps)")
    if info.get("written", True):
        lines.append(f"  outputs so far (config.json, metrics.jsonl) in {info['run_dir']}; no report.json")
    else:
        lines.append("  no outputs written (the run had not started)")
    lines.append(f"  exit status {e.exit_code}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    """Command-line entry point (see the module docstring).

    Every config key is checked (:func:`training.rllib_config.validate` and
    :func:`~training.rllib_config.check_config`, the run folder created) before Ray starts; a bad value is
    one ``error:`` line and exit status 2.  On Ctrl-C or SIGTERM the run stops, shuts Ray down, prints
    :func:`interrupted_message` and exits with status 130 or 143.
    """
    ap = ArgumentParser(prog="python -m training.rllib", description=__doc__.split("\n\n")[0])
    ap.add_argument("--env", default=None, help="registered env id (default: the config's env_id)")
    ap.add_argument("--config", default=None, help="TOML config (default: the built-in defaults)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override a config key (table entries: env_config.num_players=3); repeatable")
    ap.add_argument("--num-env-runners", type=int, default=None, metavar="N",
                    help="RLlib env runners (default: the config's num_env_runners)")
    ap.add_argument("--address", default=None,
                    help="Ray cluster: 'auto' or HOST:PORT (default: the config's address; empty = start a local "
                         "Ray instance)")
    ap.add_argument("--preload", action="append", default=[], metavar="MODULE",
                    help="module to import first in every process (registers extra env ids); repeatable")
    ap.add_argument("--out-dir", default=None, metavar="DIR",
                    help="root of run outputs (the config key out_dir; default: runs)")
    ap.add_argument("--name", default=None,
                    help="run name; outputs go to <out-dir>/<name>/ (the config key name; default: the config file's "
                         "stem, else rllib_<env_id>)")
    ap.add_argument("--list-keys", action="store_true", help="print every config key and exit")
    ap.add_argument("--no-progress", action="store_true",
                    help="no progress on stderr (--set progress_bar=false, as in training.train and training.az)")
    add_trust_argument(ap)  # the model files of ppo:PATH evaluation opponents (set before Ray starts)
    made: list[Path] = []
    with stop_on_signals() as guard:
        _record_signals()
        try:
            args = ap.parse_args(argv)
            trust_models_from_args(args)
            for mod in args.preload:
                try:
                    importlib.import_module(mod)
                except Exception as e:  # noqa: BLE001  (a module that cannot be imported is a usage error)
                    ap.error(f"--preload {mod!r}: cannot import it: {type(e).__name__}: {e}")
            if args.list_keys:
                print(describe_keys())
                return {}
            sets = list(args.set)
            if args.env is not None:
                sets.append(f"env_id={json.dumps(args.env)}")
            if args.num_env_runners is not None:
                sets.append(f"num_env_runners={args.num_env_runners}")
            if args.preload:
                sets.append("preload=" + json.dumps(args.preload))
            if args.address is not None:
                sets.append(f"address={json.dumps(args.address)}")
            for key, value in (("out_dir", args.out_dir), ("name", args.name)):
                if value is not None:
                    sets.append(f"{key}={json.dumps(value)}")
            if args.no_progress:  # after the --set items, so it wins over a --set progress_bar=true
                sets.append("progress_bar=false")
            try:
                cfg = apply_overrides(load_config(args.config), sets)
                check_address(cfg["address"])
                check_cpus(cfg, runners_flag=args.num_env_runners is not None)
                if cfg["address"] and cfg["ray_num_cpus"]:  # it sizes a local instance only
                    print(f"note: config key 'ray_num_cpus' ({cfg['ray_num_cpus']}) is ignored with --address: "
                          "the cluster's own CPUs count (checked once it is joined)", file=sys.stderr)
                check_config(cfg)  # the game, the seat and every agent spec, before Ray starts
                made = missing_folders(Path(cfg["out_dir"]) / run_name(cfg))
                prepare_run_dir(cfg)
            except (TrainConfigError, ValueError, KeyError) as e:
                ap.error(str(e))
            try:
                report = train(cfg, guard)
            except (RayStartError, TrainConfigError) as e:
                remove_empty_folders(made)  # a run that never started leaves no run folder
                ap.error(str(e))
        except Interrupted as e:
            end_children()
            if e.info and not e.info.get("written", True):
                remove_empty_folders(made)
            print(interrupted_message(e), file=sys.stderr, flush=True)
            sys.exit(e.exit_code)
    tp = report["throughput"]
    print(f"\nrun {report['run']}: {count(report['learner_steps'], 'learner step')} in "
          f"{seconds_text(tp['train_seconds'])} ({tp['env_steps_per_s']:.0f} env steps/s incl. opponents, "
          f"{count(cfg['num_env_runners'], 'env runner')})")
    print(final_lines(report))
    run_path = Path(cfg["out_dir"]) / report["run"]
    print(f"report: {run_path / 'report.json'}")
    from training.progress import evaluate_command

    model = run_path / "final_checkpoint"
    spec = {"env_id": cfg["env_id"], "env_config": cfg["env_config"], "final_eval": report.get("final_eval", {}),
            "preload": cfg["preload"]}
    for opp in dict.fromkeys(cfg["eval_opponents"] or ["random"]):
        print(f"evaluate it: {evaluate_command(spec, model, 'rllib', [opp])}", file=sys.stderr)
    return report


if __name__ == "__main__":
    main()
