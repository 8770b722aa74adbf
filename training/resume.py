"""``python -m training.train --resume RUN_DIR``: continue an interrupted run from its newest checkpoint.

A run folder holds ``config.json`` (the resolved config) and ``checkpoints/model_<steps>_steps.zip``
(written at rollout boundaries, see :mod:`training.train`).  :func:`load_run` reads both without running
code from them: the config is JSON read by the bounded reader of content files, the checkpoint's step
count comes from the JSON ``data`` entry of the zip, and :func:`training.train.train` loads the weights
with ``torch.load(weights_only=True)``.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

from training.config import TrainConfigError, apply_overrides, validate

__all__ = ["FIXED_ON_RESUME", "WARM_START_FILE", "EARLIER_RUN_DIR", "earlier_run_dirs", "move_earlier_run",
           "latest_checkpoint", "load_run", "purge_tensorboard_after"]

#: keys a resumed run cannot change: they place the run, shape the network of the checkpoint or record how its
#: weights started (a resume never warm-starts nor reads init_from's file again)
FIXED_ON_RESUME = ("name", "out_dir", "seed", "env_id", "env_config", "features", "net_arch", "row_dim", "features_dim",
                   "token_dim", "attention_layers", "head_hidden", "init_from", "pretrain_samples")
#: the run folder's record of its warm start (the report's ``pretrain`` entry and the warm-start stages'
#: seconds), so that a resumed run's report still has them
WARM_START_FILE = "warm_start.json"
_CKPT = re.compile(r"model_(\d{1,20})_steps\.zip")
_MAX_JSON = 4 * 2**20


def _checkpoint_files(run_dir: Path) -> list[tuple[int, Path]]:
    """``(steps in the name, path)`` of every ``checkpoints/model_<steps>_steps.zip`` file of ``run_dir``."""
    ckpts = run_dir / "checkpoints"
    if not ckpts.is_dir():
        return []
    return [(int(m.group(1)), f) for f in ckpts.iterdir() if (m := _CKPT.fullmatch(f.name)) and f.is_file()]


def latest_checkpoint(run_dir: Path) -> tuple[Path, int] | None:
    """``(path, learner steps)`` of the newest ``checkpoints/model_<steps>_steps.zip`` (None: none).

    The steps are the zip's recorded ``num_timesteps`` (its JSON ``data`` entry).

    Raises:
        TrainConfigError: a checkpoint that is not a readable SB3 zip, or whose step count disagrees with
            its name.
    """
    found = _checkpoint_files(run_dir)
    if not found:
        return None
    steps, path = max(found)
    recorded = _checked_checkpoint(path).get("num_timesteps")
    if recorded != steps:
        raise TrainConfigError(f"--resume: checkpoint {path} records {recorded!r} learner steps, its name {steps}")
    return path, steps


def _checked_checkpoint(path: Path) -> dict:
    """The checkpoint zip's JSON ``data``, after the checks of a ``ppo:`` model file (declared sizes, each
    ``.pth`` entry scanned before ``torch.load``) and a ``weights_only`` load of its policy weights, which must
    be finite: a hostile or damaged checkpoint is refused here, before the run starts.

    Raises:
        TrainConfigError: naming the checkpoint and what is wrong with it.
    """
    import io

    import torch

    from monolith_envs.agents.model_files import ModelFileError, check_finite, open_regular, short_error
    from monolith_envs.agents.ppo import read_model_zip

    try:
        with open_regular(path) as fh:  # checked and read through one handle
            data = read_model_zip(path, fh)
            fh.seek(0)
            with zipfile.ZipFile(fh) as z:
                weights = torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu", weights_only=True)
        if not isinstance(weights, dict):
            raise ModelFileError(f"{path}: entry 'policy.pth' is not a dict of tensors")
        check_finite(weights, str(path))
    except ModelFileError as e:
        raise TrainConfigError(f"--resume: checkpoint {str(e)[:400]}") from None
    except Exception as e:  # noqa: BLE001  (torch.load's refusals include pickle.UnpicklingError: one error)
        raise TrainConfigError(f"--resume: checkpoint {path} is not a loadable model ({short_error(e, 300)})") from None
    return data


def _fraction(x: Any) -> bool:
    """Whether ``x`` is a number (not a bool) from 0 to 1."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 1


def curve_point_problem(point: dict) -> str | None:
    """What is wrong with one learning-curve point (``{"step": int, OPPONENT: {"win_rate": x, "ci95": [lo, hi],
    "games": n, ...}, ...}``, as the run's evaluations write it), or None; the curve's picture and the report
    read every field."""
    for opp, v in point.items():
        if opp == "step":
            continue
        if not isinstance(v, dict):
            return f"has {opp!r:.40}: {v!r:.60}, not a table of win_rate, ci95 and games"
        rate, ci, games = v.get("win_rate"), v.get("ci95"), v.get("games")
        if not _fraction(rate):
            return f"has {opp!r:.40} win_rate {rate!r:.40}, not a number from 0 to 1"
        if not (isinstance(ci, list) and len(ci) == 2 and all(_fraction(x) for x in ci)):
            return f"has {opp!r:.40} ci95 {ci!r:.60}, not a list of two numbers from 0 to 1"
        if not (isinstance(games, int) and not isinstance(games, bool) and games >= 0):
            return f"has {opp!r:.40} games {games!r:.40}, not a count"
    return None


def _read_json(path: Path) -> Any:
    from monolith_envs.core.content import ContentError
    from monolith_envs.core.jsonfile import read_json

    try:
        return read_json(path, _MAX_JSON)
    except ContentError as e:
        raise TrainConfigError(f"--resume: {e}") from None


def _reported_steps(run_dir: Path) -> int | None:
    """The ``learner_steps`` of the run folder's ``report.json`` (None: no readable report)."""
    if not (run_dir / "report.json").is_file():
        return None
    try:
        report = _read_json(run_dir / "report.json")
    except TrainConfigError:
        return None
    steps = report.get("learner_steps") if isinstance(report, dict) else None
    return steps if isinstance(steps, int) else None


def _alone(cfg: dict, override: str) -> object:
    """The value that ``override`` (``key=value`` or ``table.key=value``) alone gives its top-level key in
    ``cfg``, before any validation of the whole config.

    Raises:
        TrainConfigError: a malformed override or an unknown key.
    """
    out = apply_overrides(cfg, [override], validator=lambda d: d)
    return out.get(override.partition("=")[0].strip().partition(".")[0])


def load_run(run_dir: str | Path, overrides: list[str] = ()) -> tuple[dict, dict]:
    """The config and the resume point of the run in ``run_dir``.

    Returns ``(cfg, resume)``: the run's ``config.json`` validated, with ``overrides`` (``key=value``;
    not the keys of :data:`FIXED_ON_RESUME`) applied and ``out_dir`` / ``name`` pointing at ``run_dir``;
    ``resume = {"checkpoint": Path, "steps": int, "curve": [points of learning_curve.json up to steps]}``, and
    ``"warm_start": {"pretrain": dict, "stage_seconds": dict}`` when the run recorded its warm start in
    :data:`WARM_START_FILE` (a file of another shape is ignored).

    Raises:
        TrainConfigError: no such folder, no or bad ``config.json``, no checkpoint, an override of a
            fixed key, or a complete run (its checkpoint at ``total_timesteps`` and its ``report.json`` written)
            without a larger ``total_timesteps``.
    """
    d = Path(run_dir)
    if "\x00" in str(run_dir) or not d.is_dir():
        raise TrainConfigError(f"--resume: {str(run_dir)!r} is not a run folder (a folder with config.json and "
                               f"checkpoints/ written by python -m training.train)")
    if not (d / "config.json").exists():
        raise TrainConfigError(f"--resume: {str(run_dir)!r} is not a run folder: it has no config.json (a run "
                               f"folder of python -m training.train holds config.json and checkpoints/)")
    raw = _read_json(d / "config.json")
    if not isinstance(raw, dict):
        raise TrainConfigError(f"--resume: {d / 'config.json'} is not a JSON object")
    import monolith_envs

    if isinstance(raw.get("env_id"), str) and raw["env_id"] not in monolith_envs.available_envs():
        raise TrainConfigError(f"--resume: the run trained {raw['env_id'][:100]!r}, which is not a registered env id "
                               "here; a game registered by a module of yours needs --preload MODULE again (config.json "
                               "does not keep it)")
    if raw.get("recipe") == "az" or {"simulations", "games_per_iteration"} <= set(raw):
        raise TrainConfigError(f"--resume: {str(run_dir)!r} is a run of python -m training.az, which has no resume: "
                               "start a new run from its last checkpoint or samples (init_checkpoint, init_samples; "
                               "training/README.md, 'Search-based self-play')")
    cfg = validate(raw, sb3_rollout=False)  # the rollout check runs on the config with the overrides (below):
    # a run made before it, with a batch_size above one rollout, resumes once --set batch_size=... fits it
    # each override of a fixed key is compared alone, before the whole config is validated: a change of a fixed
    # key is the clearer message (e.g. pretrain_samples beside the run's init_from); giving one its own value is fine
    changed = [o for o in overrides if (k := o.partition("=")[0].strip().partition(".")[0]) in FIXED_ON_RESUME
               and _alone(cfg, o) != cfg.get(k)]
    if changed:
        raise TrainConfigError(f"--resume: {changed[0]!r} cannot change on resume (the keys "
                               f"{', '.join(FIXED_ON_RESUME)} place the run, seed it, shape its network or record "
                               "how its weights started)")
    cfg = apply_overrides(cfg, list(overrides))
    given = (Path(cfg["out_dir"]) / cfg["name"]) if cfg["name"] else None
    if given is None or not given.is_dir() or given.resolve() != d.resolve():  # the folder moved, or another name
        cfg["out_dir"], cfg["name"] = str(d.resolve().parent), d.resolve().name
    # else the run's own out_dir and name, as written (a relative out_dir stays relative in the messages)
    found = latest_checkpoint(d)
    if found is None:
        raise TrainConfigError(f"--resume: {d} has no checkpoint (checkpoints/model_<steps>_steps.zip) to resume "
                               f"from; start the run again")
    path, steps = found
    total_given = any(o.partition("=")[0].strip() == "total_timesteps" for o in overrides)
    if total_given and steps > cfg["total_timesteps"]:
        raise TrainConfigError(f"--resume: total_timesteps {cfg['total_timesteps']:,} is below the {steps:,} learner "
                               f"steps of the newest checkpoint ({path.name}); a resumed run only goes on: give at "
                               f"least {steps:,}")
    if steps >= cfg["total_timesteps"] and _reported_steps(d) == steps:
        raise TrainConfigError(f"--resume: {d} is complete ({steps:,} learner steps, total_timesteps "
                               f"{cfg['total_timesteps']:,}; report.json written); to train it further, add "
                               f"--set total_timesteps=N with N above {steps:,}")
    curve: list = []
    if (d / "learning_curve.json").is_file():
        pts = _read_json(d / "learning_curve.json")
        if isinstance(pts, list):
            curve = [p for p in pts if isinstance(p, dict) and isinstance(p.get("step"), int) and p["step"] <= steps]
            for k, point in enumerate(curve):
                problem = curve_point_problem(point)
                if problem:
                    raise TrainConfigError(f"--resume: {d / 'learning_curve.json'}: point {k} (step {point['step']}) "
                                           f"{problem}; fix the file or remove it (the run then resumes without "
                                           "its earlier curve points)")
    resume = {"checkpoint": path, "steps": steps, "curve": curve}
    if (cfg["pretrain_samples"] > 0 or cfg["init_from"]) and (d / WARM_START_FILE).is_file():
        ws = _read_json(d / WARM_START_FILE)
        if (isinstance(ws, dict) and isinstance(ws.get("pretrain"), dict)
                and isinstance(ws.get("stage_seconds"), dict)
                and all(isinstance(k, str) and isinstance(v, (int, float)) for k, v in ws["stage_seconds"].items())):
            resume["warm_start"] = {"pretrain": ws["pretrain"], "stage_seconds": ws["stage_seconds"]}
    return cfg, resume


#: what a finished or interrupted run leaves in its folder that a new run of the same name must not mix with
EARLIER_RUN_FILES = ("report.json", "learning_curve.json", "learning_curve.png", "final_model.zip", "eval_model.zip",
                     WARM_START_FILE, "tb")
#: where :func:`move_earlier_run` keeps them, inside the run folder: ``earlier_run``, then ``earlier_run_2``, ...
EARLIER_RUN_DIR = "earlier_run"


def earlier_run_dirs(run_dir: Path) -> list[Path]:
    """The folders :func:`move_earlier_run` made in ``run_dir`` (``earlier_run``, ``earlier_run_2``, ...), in
    the order it made them."""
    return sorted((d for d in Path(run_dir).glob(EARLIER_RUN_DIR + "*") if d.is_dir() and (
        d.name == EARLIER_RUN_DIR or d.name[len(EARLIER_RUN_DIR) + 1:].isdigit())),
        key=lambda d: (len(d.name), d.name))


def move_earlier_run(run_dir: Path, files: tuple[str, ...] = EARLIER_RUN_FILES, checkpoint_glob: str | None = None,
                     keep: tuple[Path, ...] = ()) -> tuple[list[str], Path | None]:
    """Move an earlier run's outputs in ``run_dir`` into a new folder ``run_dir/earlier_run`` (or
    ``earlier_run_2``, ``_3``, ...: nothing is ever deleted) before a new run (not a resumed one) starts there:
    its checkpoints (``--resume`` would continue the newest of them), report, learning curve, models,
    TensorBoard logs and the ``eval_*.json`` results of ``training.evaluate --out-dir run_dir`` (the command
    a run prints), with a copy of its ``config.json`` (so ``--resume run_dir/earlier_run`` works).

    Returns ``(names moved, sorted, "checkpoints/model_<steps>_steps.zip" for each checkpoint; the folder)``;
    ``([], None)`` for a new folder.  Other files (the user's own) stay where they are.

    ``files`` and ``checkpoint_glob`` name another recipe's outputs (``training.az``: ``final.pt``,
    ``checkpoints/iter*.pt``, ...); a path in ``keep`` (a file the new run reads, such as its
    ``init_samples`` or ``init_checkpoint``) stays where it is, and a copy of it goes with the others.

    Raises:
        TrainConfigError: the outputs cannot be moved (permissions, a full disk).
    """
    import shutil

    moving = [name for name in files if (run_dir / name).exists()]
    # the evaluations of the earlier model that the printed "evaluate it" commands wrote into the folder
    moving += [p.name for p in sorted(run_dir.glob("eval_*.json"))
               if p.is_file() and re.fullmatch(r"eval_\w+_\d+(-\d+)?\.json", p.name)]  # evaluate's default names
    ckpts = (_checkpoint_files(run_dir) if checkpoint_glob is None
             else [(0, p) for p in sorted((run_dir / "checkpoints").glob(checkpoint_glob)) if p.is_file()])
    moving += [f"checkpoints/{p.name}" for _steps, p in ckpts]
    staying = {Path(p).resolve() for p in keep}
    copying = [name for name in moving if (run_dir / name).resolve() in staying]
    if not moving:
        return [], None
    k = 1
    to = run_dir / EARLIER_RUN_DIR
    while to.exists() or to.is_symlink():
        k += 1
        to = run_dir / f"{EARLIER_RUN_DIR}_{k}"
    try:
        (to / "checkpoints").mkdir(parents=True)
        if (run_dir / "config.json").is_file():
            shutil.copy2(run_dir / "config.json", to / "config.json")
        for name in moving:
            if name in copying:  # the new run reads it: it stays, and the earlier run keeps a copy
                shutil.copy2(run_dir / name, to / name)
            else:
                (run_dir / name).replace(to / name)
    except OSError as e:
        raise TrainConfigError(f"cannot move the earlier run's outputs in {run_dir} to {to} ({e.strerror or e}); "
                               "choose another --set name=...") from None
    return sorted(moving), to


def purge_tensorboard_after(tb_dir: Path, log_name: str, step: int) -> Path | None:
    """Hide, in TensorBoard, what a stopped run logged past ``step`` (the checkpoint a resume starts from).

    A resumed run appends to the run's newest TensorBoard folder ``tb_dir/<log_name>_<k>`` (as SB3 does with
    ``reset_num_timesteps=False``), so without this the steps logged between the checkpoint and the stop
    would appear twice. Writes one event file there with TensorBoard's ``purge_step`` (a ``SessionLog.START``
    at ``step``): TensorBoard drops every earlier event at ``step`` or later. Returns the folder, or None when
    there is no folder to purge (or TensorBoard is not installed, so nothing was logged).
    """
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:  # TensorBoard absent: SB3 logged nothing to purge
        return None
    from stable_baselines3.common.utils import get_latest_run_id

    latest = get_latest_run_id(str(tb_dir), log_name)
    folder = Path(tb_dir) / f"{log_name}_{latest}"
    if latest < 1 or not folder.is_dir():
        return None
    # TensorBoard reads a folder's event files in the order of their names, events.out.tfevents.<second>.<host>.
    # <pid>.<writer number>, so the purge must sort after every file there and before the resumed session's:
    # it is written aside and moved in as <second>.0-purge with a second later than every file's (waiting for
    # it: at most a second, or 2 s when a file is named by a clock ahead of this one), which sorts before the
    # names of that second (a writer number would not: 9 then 10 sort "10" first, and the purge, read last,
    # dropped the new session's events too)
    seconds = [int(m.group(1)) for f in folder.glob("events.out.tfevents.*")
               if (m := re.match(r"events\.out\.tfevents\.(\d+)\.", f.name))]
    give_up = time.time() + 2.0  # a file named by a clock ahead of this one (a folder copied from another
    while int(time.time()) <= max(seconds, default=-1) and time.time() < give_up:  # machine) is not waited for
        time.sleep(0.05)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        SummaryWriter(log_dir=tmp, purge_step=int(step)).close()
        written = next(Path(tmp).glob("events.out.tfevents.*"))
        written.replace(folder / f"events.out.tfevents.{int(time.time()):010d}.0-purge.{os.getpid()}")
    return folder
