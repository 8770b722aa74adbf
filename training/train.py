"""Train MaskablePPO by self-play on any registered game, then evaluate it and write a report.

Command line (the main job)::

    python -m training.train [--config FILE | --quick] [--set key=value ...] [--no-progress] [--list-keys]
                             [--trust-model-files]
    python -m training.train --resume RUN_DIR [--set key=value ...] [--no-progress]

``--no-progress`` is ``--set progress_bar=false`` (no stage banners, tqdm bars or interim evaluations' win
rates on stderr, e.g. for a log file; the report is the same), on a new run and on ``--resume`` alike.

``--trust-model-files`` lets the model files of ``ppo:PATH`` evaluation opponents run the code they name
when loaded (only for files you trust; the same as ``MONOLITH_ENVS_TRUST_MODELS=1``).

Default config: ``training/configs/monolith_arena_2p.toml``; ``--quick`` runs ``training/configs/quick.toml``
(its stages without the heuristic phase, small enough to finish in about a minute); ``--quick --config FILE`` runs FILE's game and
recipe with quick.toml's budget (:func:`quick_config`).  The run announces each stage (warm-start
collection, warm-start fit, PPO, evaluation) with a progress bar and ETA on stderr, and ends with a
summary: the final win rates with 95% intervals, every output path and the TensorBoard command.
Outputs under ``<out_dir>/<name>/``:

* ``tb/``: TensorBoard logs (PPO losses, episode rewards, ``eval/win_rate_<opponent>``);
* ``checkpoints/``: model checkpoints at rollout boundaries (every ``checkpoint_every`` steps, at the end of
  PPO and on Ctrl-C / SIGTERM; ``--resume RUN_DIR`` continues from the newest), and at step 0 right after a
  warm start (a run stopped later resumes without it); ``final_model.zip``: the
  final policy; ``eval_model.zip``: the policy of the last interim evaluation; ``learning_curve.json``:
  the interim evaluations (printed on the console as they run);
* optional behaviour-cloning warm start from a teacher agent (``pretrain_samples``, see
  :mod:`training.pretrain`) before PPO;
* ``report.json``: final win rates against the fixed opponents with 95% Wilson intervals, the learning
  curve, throughput and the resolved config;
* ``learning_curve.png``: win rate against the fixed opponents over training steps (95% bands, the warm
  start marked, the widest interval stated).
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from monolith_envs.agents.model_files import add_trust_argument, trust_models_from_args
from monolith_envs.core.cli import import_modules, preload_worker
from monolith_envs.core.interrupt import (
    Interrupted,
    SignalGuard,
    end_children,
    end_executor,
    end_processes,
    ignore_sigint,
    spawn_pool,
    stop_on_signals,
)
from monolith_envs.core.outfiles import write_text_atomic
from training.callbacks import make_callbacks, mix_text, planned_steps
from training.config import (
    CONFIG_DIR,
    DEFAULT_CONFIG,
    TrainConfigError,
    apply_overrides,
    check_config,
    describe_keys,
    load_config,
    run_dir,
)
from training.progress import StageLog, format_summary, interrupted_message, plot_curve
from training.resume import WARM_START_FILE, move_earlier_run, purge_tensorboard_after
from training.schedule import mix_at, opponent_phases, phase_begins

QUICK_CONFIG = CONFIG_DIR / "quick.toml"
# the keys that set a run's budget: ``--quick --config FILE`` takes these from quick.toml, the rest from FILE
QUICK_BUDGET_KEYS = ("total_timesteps", "snapshot_every", "pretrain_samples", "pretrain_epochs", "pretrain_rounds",
                     "eval_every", "eval_games", "final_eval_games", "checkpoint_every")

__all__ = ["env_seed_base", "main", "make_vec_env", "planned_steps", "plot_curve", "policy_class", "policy_kwargs", "quick_config", "train",
           "warm_start"]


def quick_config(path: str | Path | None = None) -> dict:
    """The quick form of a config: its recipe with the budget of ``quick.toml`` (about a minute or two).

    ``path=None`` gives ``quick.toml`` itself (Monolith Arena). Otherwise the config at ``path`` keeps its
    game, recipe and network and takes :data:`QUICK_BUDGET_KEYS` from ``quick.toml`` (a config without a
    warm start keeps none); the ``from_step`` of each ``opponent_schedule`` phase is scaled by the ratio of the
    two ``total_timesteps``, so each phase keeps its share of the run; its run name gains ``_quick``.

    Raises:
        TrainConfigError: as :func:`training.config.load_config`.
    """
    quick = load_config(QUICK_CONFIG)
    if path is None:
        return quick
    cfg = load_config(path)
    scale = quick["total_timesteps"] / cfg["total_timesteps"]
    for key in QUICK_BUDGET_KEYS:
        if key.startswith("pretrain_") and cfg["pretrain_samples"] == 0:
            continue
        cfg[key] = quick[key]
    # the opponent phases keep their share of the run (phase steps scaled with total_timesteps)
    last = 0
    for phase in cfg["opponent_schedule"]:
        phase["from_step"] = last = min(10**10, max(last + 1, round(phase["from_step"] * scale)))
    cfg["name"] = f"{cfg['name']}_quick"
    return cfg


def policy_kwargs(cfg: dict) -> dict:
    """``policy_kwargs`` of the learner's policy from the config: ``net_arch``, and with ``features =
    "pieces"`` the :class:`~training.features.PieceEncoder`, with ``features = "aligned"`` the
    :class:`~training.aligned.RowAttentionEncoder` and the :class:`~training.aligned.AlignedHead` settings
    (the policy class is then :class:`~training.aligned.AlignedMaskablePolicy`, see :func:`policy_class`).

    Raises:
        TrainConfigError: ``features = "aligned"`` for a game without a board piece named like an action axis.
    """
    kw: dict[str, Any] = {"net_arch": list(cfg["net_arch"])}
    if cfg["features"] == "flat":
        return kw
    import monolith_envs
    from training.features import PieceEncoder, piece_layout

    game = monolith_envs.make_game(cfg["env_id"], **cfg["env_config"])
    if cfg["features"] == "pieces":
        kw["features_extractor_class"] = PieceEncoder
        kw["features_extractor_kwargs"] = {"pieces": piece_layout(game.obs_spec), "row_dim": cfg["row_dim"],
                                           "features_dim": cfg["features_dim"]}
        return kw
    from training.aligned import RowAttentionEncoder, alignment

    try:
        al = alignment(game.layout, game.obs_spec)
    except ValueError as e:
        raise TrainConfigError(f"features = 'aligned' does not fit {cfg['env_id']}: {e}") from None
    d = cfg["token_dim"]
    kw["net_arch"] = {"pi": [], "vf": list(cfg["net_arch"])}
    kw["features_extractor_class"] = RowAttentionEncoder
    kw["features_extractor_kwargs"] = {"anchor": al["anchor"], "pieces": piece_layout(game.obs_spec), "d": d,
                                       "global_dim": cfg["features_dim"], "row_dim": cfg["row_dim"],
                                       "layers": cfg["attention_layers"]}
    kw["head"] = {"rows": al["anchor"][1], "d": d, "global_dim": cfg["features_dim"],
                  "families": al["families"], "hidden": cfg["head_hidden"]}
    return kw


def policy_class(cfg: dict) -> Any:
    """The learner's policy class: ``MaskableActorCriticPolicy``, or ``AlignedMaskablePolicy`` for
    ``features = "aligned"``."""
    if cfg["features"] == "aligned":
        from training.aligned import AlignedMaskablePolicy

        return AlignedMaskablePolicy
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    return MaskableActorCriticPolicy


def _make_env_fn(cfg: dict, rank: int, worker: bool = False, start: int = 0, preload: tuple[str, ...] = ()):
    """A picklable env factory for rank ``rank`` (a training env with its own opponent pool, drawing from the
    opponent mix in force at learner step ``start``); ``worker``: it runs in a worker process of its own,
    which then ignores SIGINT and imports the ``preload`` modules (``--preload``: they register the env id)."""
    env_id, env_config, seed = cfg["env_id"], dict(cfg["env_config"]), cfg["seed"]
    mix, pool_size, seat = mix_at(cfg, start), cfg["pool_size"], cfg["seat"]
    shaping, coef, gamma = cfg["shaping"], cfg["shaping_coef"], cfg["gamma"]

    pkw, pcls = policy_kwargs(cfg), policy_class(cfg)

    def make():
        import torch

        if worker:
            ignore_sigint()  # a terminal's Ctrl-C reaches every process; the learner ends the workers itself
            import_modules(preload)
        torch.set_num_threads(1)
        from training.selfplay import OpponentPool
        from training.wrapper import SingleAgentEnv

        holder: dict[str, Any] = {}

        def make_policy():
            env = holder["env"]
            return pcls(env.observation_space, env.action_space, lambda _: 0.0, **pkw)

        pool = OpponentPool(env_id, mix, pool_size, make_policy)
        value_fn = None
        if shaping == "heuristic":
            from agents.heuristics import value_fn_for

            value_fn = value_fn_for(env_id)
        env = SingleAgentEnv(env_id, pool, env_config, seat=seat, seed=seed * 1000 + rank, shaping=value_fn,
                             shaping_coef=coef, shaping_gamma=gamma)
        holder["env"] = env
        env.add_snapshot = pool.add_snapshot  # type: ignore[attr-defined]  (reached by env_method)
        env.set_opponent_mix = pool.set_mix  # type: ignore[attr-defined]  (opponent_schedule)
        env.opponent_counts = pool.counts  # type: ignore[attr-defined]  (opponents drawn, by kind: the report)
        return env

    return make


def env_seed_base(seed: int, start: int = 0) -> int:
    """The seed of the first reset of training env rank 0 (rank ``r`` takes ``base + r``): ``seed * 1000`` for
    a run from step 0, so runs whose seeds differ play different episodes; a run resumed at learner step
    ``start`` > 0 takes a base drawn from ``(seed, start)`` (a multiple of 1000 below 2**74), so it does not
    replay the first session's episodes."""
    if start == 0:
        return seed * 1000
    import numpy as np

    return int(np.random.SeedSequence([seed, start]).generate_state(1, np.uint64)[0]) * 1000


def make_vec_env(cfg: dict, start: int = 0, preload: tuple[str, ...] = ()):
    """The training ``VecEnv`` (``DummyVecEnv`` or ``SubprocVecEnv`` per ``vec_env``) with ``VecMonitor``; its
    opponents are drawn from the mix in force at learner step ``start`` (a resumed run's checkpoint); its
    worker processes import the ``preload`` modules first."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    subproc = cfg["vec_env"] == "subproc" and cfg["n_envs"] > 1
    fns = [_make_env_fn(cfg, i, worker=subproc, start=start, preload=preload) for i in range(cfg["n_envs"])]
    if subproc:
        from monolith_envs.core.interrupt import children_ignore_sigint, signals_deferred

        vec = None
        try:  # the workers start with SIGINT blocked (they are ended by the learner); a stop while they start
            # waits for the vector env (cut inside its constructor, the workers were left reading a closed pipe)
            with signals_deferred(), children_ignore_sigint():
                vec = SubprocVecEnv(fns, start_method="spawn")
        except BaseException:
            if vec is not None:
                vec.close()
            raise
    else:
        vec = DummyVecEnv(fns)
    return VecMonitor(vec)


def warm_start(cfg: dict, policy: Any, n_actions: int, executor: Any, stages: StageLog | None = None) -> dict:
    """Fit ``policy`` before PPO per ``pretrain_targets`` (see :mod:`training.pretrain`): ``"values"`` distils
    the game's action values, ``"teacher"`` clones ``pretrain_teacher``'s decisions (in ``pretrain_rounds``
    rounds: each after the first collects where the policy fitted so far plays, DAgger).  Collection runs on
    ``executor`` (``2 * eval_workers`` tasks).  ``stages`` announces the collection and the fit.  Returns
    the report's ``pretrain`` entry."""
    import numpy as np

    from training import pretrain

    stages = stages or StageLog(["warm-start collection", "warm-start fit"], enabled=False)
    tasks, bar = 2 * cfg["eval_workers"], cfg["progress_bar"]
    workers = f"{cfg['eval_workers']} worker processes" if executor is not None else "this process"
    if cfg["pretrain_targets"] == "values":
        stages.start("warm-start collection", f"{cfg['pretrain_samples']:,} decision states on {workers}, every "
                     "legal action scored with the game's state value")
        data = pretrain.collect_value_targets(cfg["env_id"], cfg["env_config"], cfg["pretrain_samples"],
                                              cfg["seed"], executor=executor, tasks=tasks, progress=bar)
        stages.start("warm-start fit", f"policy fitted to softmax(value / {cfg['pretrain_tau']}) for "
                     f"{cfg['pretrain_epochs']} epochs")
        info = pretrain.value_distillation(policy, data, n_actions, cfg["pretrain_tau"], cfg["pretrain_epochs"],
                                           cfg["batch_size"], cfg["pretrain_lr"], seed=cfg["seed"], progress=bar)
        out = {"holdout_agreement": info["holdout_agreement"], "holdout_value_gain": info["holdout_value_gain"]}
    else:
        rounds, data, out = cfg["pretrain_rounds"], None, {}
        for r in range(rounds):
            t_r = time.perf_counter()
            student = None if r == 0 else pretrain.student_of(policy, cfg["env_id"], cfg["env_config"],
                                                              cfg["pretrain_student_prob"])
            head = f"round {r + 1} of {rounds}: " if rounds > 1 else ""
            who = (f", the policy fitted so far playing {cfg['pretrain_student_prob']:.0%} of the decisions"
                   if student else "")
            stages.start("warm-start collection", f"{head}{cfg['pretrain_samples']:,} decisions of "
                         f"{cfg['pretrain_teacher']} on {workers}{who}")
            part = pretrain.collect_demonstrations(
                cfg["env_id"], cfg["env_config"], cfg["pretrain_samples"], cfg["pretrain_teacher"],
                cfg["pretrain_opponents"], cfg["seed"] + 1_000_003 * r, cfg["gamma"], executor=executor, tasks=tasks,
                progress=bar, student=student)
            data = part if data is None else {k: np.concatenate([data[k], part[k]]) for k in data}
            del part
            stages.start("warm-start fit", f"{head}behaviour cloning on {len(data['actions']):,} samples for "
                         f"{cfg['pretrain_epochs']} epochs")
            info = pretrain.behaviour_cloning(policy, data, n_actions, cfg["pretrain_epochs"], cfg["batch_size"],
                                              cfg["pretrain_lr"], cfg["vf_coef"], cfg["seed"], progress=bar)
            if rounds > 1:
                out.setdefault("rounds", []).append({"samples": len(data["actions"]), "train_accuracy": info["accuracy"],
                                                     "seconds": time.perf_counter() - t_r})
        out["train_accuracy"] = info["accuracy"]
    stages.end()  # the stage log adds up each stage's seconds over the rounds
    return {"targets": cfg["pretrain_targets"], "samples": info["samples"], **out, "final_loss": info["loss"][-1],
            "collect_seconds": stages.seconds["warm-start collection"], "fit_seconds": stages.seconds["warm-start fit"]}


def name_note(base: dict, cfg: dict) -> str | None:
    """A note when ``--set`` changed the game (``env_id``, or the seats or mode of ``env_config``) of the config
    file ``base`` but not the run's ``name``, which still names the file's game (``cfg``: after the
    overrides); None otherwise."""
    def game(c: dict) -> tuple:
        ec = c.get("env_config") or {}
        return c["env_id"], ec.get("num_players"), ec.get("mode")

    if cfg["name"] != base["name"] or game(cfg) == game(base):
        return None
    return (f"note: the run folder keeps the config file's name {cfg['name']!r}, made for {base['env_id']}, while "
            f"this run trains {cfg['env_id']} {json.dumps(cfg.get('env_config') or {})}; --name NAME names it")


def train(cfg: dict, resume: dict | None = None, guard: SignalGuard | None = None,
          preload: tuple[str, ...] = ()) -> dict:
    """Run one training job from a validated config (see :mod:`training.config`); returns the report dict.

    ``resume`` (from :func:`training.resume.load_run`): ``{"checkpoint": Path, "steps": int, "curve":
    list}``; the run then loads the checkpoint's weights (no warm start), counts its steps and continues
    PPO to :func:`planned_steps` in the same run folder.  A run with a warm start writes ``warm_start.json``
    (its ``pretrain`` entry and stage seconds), and a resumed run's report keeps both from it.

    On :class:`~monolith_envs.core.interrupt.Interrupted` (see :func:`main`) the worker processes are ended, a
    checkpoint of the last rollout boundary is saved when no update was running, and the exception is
    raised again with ``info`` saying the stage, the steps and the checkpoint kept.  ``guard`` (from
    :func:`~monolith_envs.core.interrupt.stop_on_signals`) holds a signal back while a checkpoint is written.
    ``preload``: modules (already imported here) that every worker process imports first (``--preload``).

    Raises:
        monolith_envs.UnknownEnvError / ConfigError: bad ``env_id`` / ``env_config``.
    """
    import torch
    from sb3_contrib import MaskablePPO

    import monolith_envs
    from training.evaluate import eval_against_words, eval_labels, evaluate_against

    monolith_envs.make(cfg["env_id"], **cfg["env_config"])  # fail fast on env id / config errors
    guard = SignalGuard(()) if guard is None else guard  # no handlers: the deferred blocks are plain blocks
    torch.set_num_threads(cfg["torch_threads"])
    run_dir = Path(cfg["out_dir"]) / cfg["name"]
    run_dir.mkdir(parents=True, exist_ok=True)
    with guard.deferred():
        earlier, kept = ([], None) if resume else move_earlier_run(run_dir)
    if earlier:
        print(f"note: {run_dir} held an earlier run; its {sum(f.is_file() for f in kept.rglob('*'))} files (report, "
              f"models, checkpoints, logs, a copy of its config) are moved to {kept} (--set name=NEW starts a run "
              "beside it)", file=sys.stderr, flush=True)
    if not resume:  # a resumed run writes it once its checkpoint has loaded into this run's network
        (run_dir / "config.json").write_text(json.dumps(cfg, indent=2))
    t_start = time.perf_counter()
    start = int(resume["steps"]) if resume else 0
    planned = planned_steps(cfg, start)
    warm = cfg["pretrain_samples"] > 0 and not resume
    names = (["warm-start collection", "warm-start fit"] if warm else []) + ["PPO", "evaluation"]
    stages = StageLog(names, enabled=cfg["progress_bar"])
    banner = (f"training {cfg['name']} on {cfg['env_id']} {json.dumps(cfg['env_config'])}: "
              f"{' -> '.join(names)}; outputs in {run_dir}")
    if cfg["progress_bar"] and not resume:
        print(banner, file=sys.stderr, flush=True)
    curve: list[dict] = list(resume["curve"]) if resume else []
    track: dict[str, Any] = {"checkpoint": resume["checkpoint"] if resume else None, "checkpoint_steps": start,
                             "planned": planned, "run_dir": run_dir, "start": start}
    vec = executor = model = None
    interrupted = False
    try:
        vec = make_vec_env(cfg, start, preload)
        executor = (spawn_pool(cfg["eval_workers"], functools.partial(preload_worker, preload) if preload else None)
                    if cfg["eval_workers"] > 1 else None)
        model = MaskablePPO(
            policy_class(cfg), vec, learning_rate=cfg["learning_rate"], n_steps=cfg["n_steps"],
            batch_size=cfg["batch_size"], n_epochs=cfg["n_epochs"], gamma=cfg["gamma"],
            gae_lambda=cfg["gae_lambda"], clip_range=cfg["clip_range"], ent_coef=cfg["ent_coef"],
            vf_coef=cfg["vf_coef"], max_grad_norm=cfg["max_grad_norm"],
            policy_kwargs=policy_kwargs(cfg), tensorboard_log=str(run_dir / "tb"),
            seed=cfg["seed"], device="cpu", verbose=0,
        )
        vec.seed(env_seed_base(cfg["seed"], start))  # MaskablePPO(seed=s) gave rank r the episodes of seed s + r
        if resume:  # weights and optimizer state only (torch weights_only load: no code runs from the file)
            from monolith_envs.agents.model_files import open_regular

            with open_regular(Path(resume["checkpoint"])) as fh:  # a regular file (a FIFO is not waited on)
                try:
                    model.set_parameters(fh, exact_match=True, device="cpu")
                except (RuntimeError, ValueError, KeyError) as e:  # torch: missing keys, size mismatch
                    from monolith_envs.agents.model_files import short_error

                    vec.close()
                    vec = None
                    raise TrainConfigError(
                        f"--resume: checkpoint {resume['checkpoint']} holds another network than this run builds "
                        f"(features {cfg['features']!r}, features_dim {cfg['features_dim']}, net_arch "
                        f"{cfg['net_arch']}, activation and the game's sizes must be those of the run that wrote it): "
                        f"{short_error(e, 300)}") from None
            (run_dir / "config.json").write_text(json.dumps(cfg, indent=2))  # the run goes on: its config now
            if cfg["progress_bar"]:
                print(banner, file=sys.stderr, flush=True)
            model.num_timesteps = start
            purge_tensorboard_after(run_dir / "tb", "ppo", start)  # steps logged past the checkpoint: hidden
        if cfg["init_from"] and not resume:  # a baseline's weights (plain tensors) instead of a warm start
            from training.init_weights import start_from_baseline

            pretrain_info = start_from_baseline(cfg, model.policy)
        else:
            pretrain_info = warm_start(cfg, model.policy, vec.action_space.n, executor, stages) if warm else {}
        if pretrain_info and not resume:  # the start's record, kept for a resumed run's report
            write_text_atomic(run_dir / WARM_START_FILE, json.dumps(
                {"pretrain": pretrain_info, "stage_seconds": dict(stages.seconds)}, indent=2))
        elif resume and resume.get("warm_start"):
            pretrain_info = resume["warm_start"]["pretrain"]
        cbs, evaluator = make_callbacks(cfg, run_dir, curve, executor, start, track, guard)
        if warm and pretrain_info:  # the warm-started weights, step 0 (whatever checkpoint_every is): a run
            # stopped from here on resumes without doing the warm start again
            track["checkpointer"].model = model
            track["checkpointer"].save(0)
        labels = eval_labels(cfg["env_id"], cfg["env_config"], cfg["eval_opponents"])  # one-seat: ["alone"]
        against = eval_against_words(labels)
        evals = (f"; every {cfg['eval_every']:,} steps {cfg['eval_games']} games {against}"
                 if cfg["eval_every"] > 0 else "")
        rounded = (f" ({cfg['total_timesteps']:,} rounded up to whole rollouts of {cfg['n_steps']} x "
                   f"{cfg['n_envs']})" if planned != cfg["total_timesteps"] and not resume else "")
        steps_text = (f"{planned - start:,} more learner steps, from the checkpoint's {start:,} to {planned:,}"
                      if resume else f"{planned:,} learner steps{rounded}")
        solo = labels == ["alone"]  # a one-seat game: no opponent seat to fill
        opponents = "; no opponents (a one-seat game)" if solo else f"; opponents {mix_text(mix_at(cfg, start))}"
        for phase in ([] if solo else cfg["opponent_schedule"]):
            if phase["from_step"] > start:
                late = " (after this run's end: not reached)" if phase_begins(cfg, phase["from_step"]) >= planned else ""
                opponents += f", from step {phase['from_step']:,}: {mix_text(phase['mix'])}{late}"
        stages.start("PPO", f"{steps_text} on {cfg['n_envs']} envs{evals}{opponents}")
        t0, eval_s0 = time.perf_counter(), evaluator.seconds
        if not solo and all(kind == "self" for kind in mix_at(cfg, start)):  # self-play only: the pool needs
            # a snapshot before learn() resets the envs (the first one otherwise comes at the training start)
            from training.selfplay import policy_weights

            vec.env_method("add_snapshot", policy_weights(model.policy))
            track["pool_seeded"] = True  # the snapshot callback does not push these weights a second time
        if planned > start:
            model.learn(cfg["total_timesteps"] - start, callback=cbs, tb_log_name="ppo",
                        reset_num_timesteps=not resume)
        # PPO's own time: the periodic evaluations inside learn() are left out, so the rate does not depend on
        # how many of them fell inside it
        t_train = max(time.perf_counter() - t0 - (evaluator.seconds - eval_s0), 1e-9)
        opp_steps = int(sum(vec.get_attr("opponent_steps")))
        drawn: Counter = Counter()  # update, not +: a kind never drawn keeps its 0
        for counts in vec.get_attr("opponent_counts"):
            drawn.update(counts)
        final_path = run_dir / "final_model.zip"
        with guard.deferred():
            model.save(final_path)
        if planned > start and cfg["eval_every"] > 0 and (not curve or model.num_timesteps - curve[-1]["step"]
                                      >= cfg["n_steps"] * cfg["n_envs"]):  # a last point unless one is recent
            evaluator.evaluate()
        vec.close()
        stages.start("evaluation", f"{cfg['final_eval_games']} games {against}")
        t1 = time.perf_counter()
        final: dict[str, Any] = {}
        for opp in labels:
            final[opp] = evaluate_against(cfg["env_id"], f"ppo:{final_path}", opp, cfg["final_eval_games"],
                                          seed=cfg["seed"] + 2 * 10**6, env_config=cfg["env_config"], workers=1,
                                          executor=executor, progress=cfg["progress_bar"])
        t_eval = time.perf_counter() - t1
        stages.end()
    except Interrupted as e:
        interrupted = True
        if track.get("bar") is not None:
            track["bar"].close()
        if model is not None and "checkpointer" in track:
            track["checkpointer"].save_on_interrupt()
        in_eval = track.get("evaluating") is not None and stages.current == "PPO"  # in an interim evaluation
        stage = "an evaluation of PPO" if in_eval else stages.current
        e.info.update(stage=stage, done=dict(stages.seconds), seconds=time.perf_counter() - t_start,
                      steps=int(model.num_timesteps) if model is not None else start, planned=planned,
                      checkpoint=track["checkpoint"], checkpoint_steps=track["checkpoint_steps"], run_dir=run_dir,
                      preload=list(preload))
        raise
    finally:
        sb3_logger = getattr(model, "_logger", None)  # set by learn(), which leaves its TensorBoard writer open:
        if sb3_logger is not None:  # closed, so the event file is released when the run ends or stops
            sb3_logger.close()
        if interrupted:  # end the workers now: no clean close of envs that may be mid-step
            if vec is not None:
                end_processes(getattr(vec.unwrapped, "processes", []))
            end_executor(executor)
        elif executor is not None:
            executor.shutdown()
    steps = int(model.num_timesteps)
    report = {
        "run": cfg["name"], "env_id": cfg["env_id"], "env_config": cfg["env_config"],
        "final_model": str(final_path), "learner_steps": steps, "pretrain": pretrain_info,
        "final_eval": final, "learning_curve": curve,
        "throughput": {  # this session's PPO; rates None when it ran no step (a resume at its last checkpoint)
            "train_seconds": t_train,
            "learner_steps_per_s": (steps - start) / t_train if steps > start else None,
            "env_steps_per_s": (steps - start + opp_steps) / t_train if steps > start else None,
            "opponent_steps": opp_steps,
        },
        "final_eval_seconds": t_eval, "total_seconds": time.perf_counter() - t_start,
        "stage_seconds": {**(resume.get("warm_start", {}).get("stage_seconds", {}) if resume else {}),
                          **stages.seconds}, "config": cfg,
    }
    if resume:
        report["resumed_from"] = {"checkpoint": str(resume["checkpoint"]), "steps": start}
    if preload:
        report["preload"] = list(preload)  # the printed evaluate command passes them on
    report["opponents_drawn"] = dict(drawn)  # opponents drawn per kind over this session's episodes
    if cfg["opponent_schedule"]:
        report["opponent_phases"] = opponent_phases(cfg, steps)
    (run_dir / "report.json").write_text(json.dumps(report, indent=2))
    plot_curve(curve, labels, run_dir / "learning_curve.png",
               f"{cfg['name']}: MaskablePPO on {cfg['env_id']}", warm_start=bool(pretrain_info))
    return report


def main(argv: list[str] | None = None) -> dict:
    """Command-line entry point (see the module docstring).

    Every config key is checked (:func:`training.config.validate`, :func:`~training.config.check_config`,
    the run folder created) before any work; a bad value is one ``error:`` line and exit status 2.  On
    Ctrl-C or SIGTERM the run stops at once, prints what ran, the checkpoint kept and the ``--resume``
    command, and exits with status 130 or 143.
    """
    from monolith_envs.core.cli import ArgumentParser

    ap = ArgumentParser(prog="python -m training.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default=None, help=f"TOML config: a path, or a name in training/configs/, with or "
                    f"without .toml (default: {DEFAULT_CONFIG.name})")
    ap.add_argument("--quick", action="store_true",
                    help=f"a run small enough for a minute or two: {QUICK_CONFIG.name} (Monolith Arena), or with "
                         f"--config the budget of {QUICK_CONFIG.name} on that config's game and recipe")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override a config key (table entries: env_config.reward_mode=score)")
    ap.add_argument("--resume", default=None, metavar="RUN_DIR",
                    help="continue an interrupted run from its newest checkpoint (RUN_DIR/checkpoints/), with "
                         "its config.json, to its total_timesteps; outputs stay in RUN_DIR")
    ap.add_argument("--out-dir", default=None, metavar="DIR",
                    help="root of run outputs (the config key out_dir; default: runs)")
    ap.add_argument("--name", default=None,
                    help="run name; outputs go to <out-dir>/<name>/ (the config key name; default: the config "
                         "file's stem)")
    ap.add_argument("--no-progress", action="store_true",
                    help="no stage banners, tqdm bars or interim evaluations' win rates on stderr: the same as "
                         "--set progress_bar=false (also with --resume)")
    ap.add_argument("--list-keys", action="store_true", help="print every config key and exit")
    ap.add_argument("--preload", action="append", default=[], metavar="MODULE",
                    help="import MODULE first, here and in every worker process (e.g. one that registers a game "
                         "of your own with monolith_envs.register); repeatable; give it again with --resume")
    add_trust_argument(ap)  # the model files of ppo:PATH evaluation opponents
    with stop_on_signals() as guard:
        try:
            args = ap.parse_args(argv)
            trust_models_from_args(args)
            try:
                args.preload = list(dict.fromkeys(args.preload))  # each module once (the commands printed too)
                import_modules(args.preload)
            except ImportError as e:
                ap.error(str(e))
            if args.list_keys:
                print(f"# The defaults below hold for a key that a config file leaves out. Without --config the run "
                      f"is {DEFAULT_CONFIG.relative_to(CONFIG_DIR.parent.parent)}, which sets many of them;\n# a "
                      f"config of your own starts from these defaults, not from that file (copy it to start "
                      f"from the default recipe).\n")
                print(describe_keys())
                return {}
            if args.resume is not None and (args.config is not None or args.quick):
                ap.error("--resume RUN_DIR continues a run with its own config.json; it takes no --config or "
                         "--quick (--set may change e.g. total_timesteps)")
            if args.resume is not None and (args.out_dir is not None or args.name is not None):
                ap.error("--resume RUN_DIR keeps its outputs in RUN_DIR; it takes no --out-dir or --name")
            folder = [f"{k}={json.dumps(v)}" for k, v in (("out_dir", args.out_dir), ("name", args.name)) if v is not None]
            # after the --set items, so it wins over a --set progress_bar=true (progress_bar may change on resume)
            quiet = ["progress_bar=false"] if args.no_progress else []
            resume, note = None, None
            try:
                if args.resume is not None:
                    from training.resume import load_run

                    cfg, resume = load_run(args.resume, args.set + quiet)
                else:
                    base = quick_config(args.config) if args.quick else load_config(args.config)
                    cfg = apply_overrides(base, args.set + folder + quiet)
                    note = name_note(base, cfg)
                check_config(cfg, resuming=resume is not None)
                policy_kwargs(cfg)  # features = 'aligned' must fit the game
                run_dir(cfg)
            except TrainConfigError as e:
                ap.error(str(e))
            if note:  # once the config is known to be good: never before an error about it
                print(note, file=sys.stderr, flush=True)
            try:
                report = train(cfg, resume, guard, tuple(args.preload))
            except TrainConfigError as e:  # earlier outputs not moved aside, or a checkpoint of another network
                ap.error(str(e))
        except Interrupted as e:
            end_children()
            print(interrupted_message(e), file=sys.stderr, flush=True)
            sys.exit(e.exit_code)
    print("\n" + format_summary(report, Path(cfg["out_dir"]) / cfg["name"]), flush=True)
    return report


if __name__ == "__main__":
    main()
