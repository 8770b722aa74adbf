"""Config of :mod:`training.rllib`: :mod:`training.config`'s keys where they apply, plus RLlib's own.

A TOML file or ``--set key=value`` overrides, validated as strictly as ``training.train``'s configs (the
same types and messages: :class:`~training.config.TrainConfigError`).  ``python -m training.rllib
--list-keys`` prints every key.  Keys of ``training.train`` that have no meaning here (the SB3 vector env,
the feature extractors, the warm start, reward shaping) are refused by name, so a ``training.train``
config is never half-applied.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from monolith_envs.core.config import short_repr
from training.config import KEYS as TRAIN_KEYS
from training.config import Key, TrainConfigError, _check_type, check_run_folder_keys, read_toml, run_dir
from training.config import apply_overrides as train_overrides
from training.config import check_config as train_check_config
from training.config import describe_keys as train_describe
from training.config import validate as train_validate

__all__ = ["KEYS", "NOT_APPLICABLE", "apply_overrides", "check_config", "describe_keys", "load_config",
           "prepare_run_dir", "run_name", "validate"]

_SHARED = ("name", "out_dir", "env_id", "env_config", "seed", "total_timesteps", "torch_threads", "seat",
           "learning_rate", "batch_size", "n_epochs", "gamma", "gae_lambda", "clip_range", "ent_coef",
           "vf_coef", "max_grad_norm", "net_arch", "opponent_mix", "pool_size", "snapshot_every", "eval_every",
           "eval_games", "eval_opponents", "final_eval_games", "eval_workers", "checkpoint_every",
           "progress_bar")
_TRAIN = {k.name: k for k in TRAIN_KEYS}
_OVERRIDE = {
    "opponent_mix": Key("opponent_mix", dict, {"learner": 0.5, "self": 0.2, "random": 0.15, "heuristic": 0.15},
                        "role weights of the seats besides the first learner seat: 'learner' = the live "
                        "shared policy (trained on), 'self' = a frozen snapshot of it, else an agent spec "
                        "played inside the env"),
    "batch_size": dataclasses.replace(_TRAIN["batch_size"], doc="PPO minibatch size (RLlib minibatch_size)"),
    "eval_workers": dataclasses.replace(_TRAIN["eval_workers"], default=1,
                                        doc="worker processes of the evaluations (rllib: agents)"),
    "name": dataclasses.replace(_TRAIN["name"], doc="run name; outputs go to <out_dir>/<name>/ (default: the "
                                "config file's stem, else rllib_<env_id>)"),
    "checkpoint_every": dataclasses.replace(_TRAIN["checkpoint_every"], doc="learner steps between checkpoints "
                                            "in checkpoints/ (0 = none; final_checkpoint/ is always written, and a "
                                            "stop keeps the checkpoints written so far)"),
    "progress_bar": dataclasses.replace(_TRAIN["progress_bar"], doc="show progress on stderr: one line per "
                                        "training iteration (learner steps, env steps/s, time left) and each "
                                        "interim evaluation's win rates (false: quiet; the report is the same)"),
}
KEYS: tuple[Key, ...] = tuple(_OVERRIDE.get(n, _TRAIN[n]) for n in _SHARED) + (
    Key("num_env_runners", int, 1, "RLlib env runners (Ray actors sampling episodes; 0 = sample in the "
        "driver)"),
    Key("envs_per_env_runner", int, 1, "env copies stepped by each env runner"),
    Key("train_batch_size", int, 2000, "learner decisions per training iteration, over all env runners"),
    Key("address", str, "", "Ray cluster to join ('auto', 'HOST:PORT'); empty = start a local Ray instance"),
    Key("ray_num_cpus", int, 0, "CPUs of a local Ray instance (0 = those this process may use: its affinity and "
        "container quota)"),
    Key("preload", list, [], "modules every process imports first (env runners, evaluation workers): "
        "they register extra env ids; set by --preload (or --set), never read from a config file"),
)
_BY_NAME = {k.name: k for k in KEYS}
NOT_APPLICABLE = tuple(k.name for k in TRAIN_KEYS if k.name not in _BY_NAME)


def describe_keys() -> str:
    """One line per key: name, type, default, meaning."""
    return train_describe(KEYS)


def _refuse_unknown(keys: Any) -> None:
    only_train = [k for k in keys if k in NOT_APPLICABLE]
    if only_train:
        raise TrainConfigError(f"config key(s) {', '.join(map(repr, only_train))} apply to training.train only "
                               f"(MaskablePPO); training.rllib accepts: {', '.join(_BY_NAME)}")
    unknown = [k for k in keys if k not in _BY_NAME]
    if unknown:
        raise TrainConfigError(f"unknown config key(s) {', '.join(map(repr, unknown))}; valid keys: "
                               f"{', '.join(_BY_NAME)}")


#: ``key: (min, max)`` of RLlib's own integer keys (the shared ones are checked by training.config)
_OWN_INT_RANGES = {"num_env_runners": (0, 10_000), "envs_per_env_runner": (1, 1024), "train_batch_size": (1, 10**8),
                   "ray_num_cpus": (0, 100_000), "snapshot_every": (0, 10**10)}
#: shared keys whose range differs here: ``snapshot_every = 0`` means no snapshots (training.train: >= 1)
_OWN_RANGE = ("snapshot_every",)


def _shared_subset(out: Mapping[str, Any]) -> dict:
    return {k: out[k] for k in _SHARED if k not in _OWN_RANGE}


def validate(cfg: Mapping[str, Any]) -> dict:
    """Merge ``cfg`` over the defaults and check every key, type and range.

    The keys shared with ``training.train`` get :func:`training.config.validate`'s checks and messages
    (ranges, ``seed``, ``net_arch``, ``seat``, ``name`` as one folder name under ``out_dir``, the opponent
    mix's weights, the agent spec lists); RLlib's own keys are checked here.

    Raises:
        TrainConfigError: an unknown key, a ``training.train``-only key, a wrong type or a bad value.
    """
    _refuse_unknown(cfg)
    out = {}
    for k in KEYS:
        v = cfg.get(k.name, k.default)
        out[k.name] = _check_type(k, v) if k.name in cfg else (dict(v) if isinstance(v, dict) else
                                                               list(v) if isinstance(v, list) else v)
    train_validate(_shared_subset(out), sb3_rollout=False)  # RLlib's rollout: train_batch_size, checked below
    for k, (lo, hi) in _OWN_INT_RANGES.items():
        if not lo <= out[k] <= hi:
            raise TrainConfigError(f"config key {k!r}: must be an integer from {lo:,} to {hi:,}, "
                                   f"got {short_repr(out[k])}")
    if len(out["address"]) > 4096 or any(ord(c) < 32 for c in out["address"]):
        raise TrainConfigError(f"config key 'address': must be 'auto', HOST:PORT or empty, without control "
                               f"characters, got {short_repr(out['address'])}")
    if len(out["preload"]) > 64 or not all(isinstance(m, str) and m and m.isprintable() for m in out["preload"]):
        raise TrainConfigError(f"config key 'preload': must be a list of at most 64 module names (strings such as "
                               f"'tests.distributed.toy'), got {short_repr(out['preload'])}")
    if out["batch_size"] > out["train_batch_size"]:
        raise TrainConfigError(f"config key 'batch_size' ({out['batch_size']}) must not exceed "
                               f"'train_batch_size' ({out['train_batch_size']})")
    return out


def check_config(cfg: Mapping[str, Any]) -> None:
    """The checks of a validated config that need the game and the agents, run before Ray starts: the
    ``preload`` modules imported, then :func:`training.config.check_config` on the shared keys (the env id
    and ``env_config``, a fixed ``seat`` below the number of seats, every ``eval_opponents`` agent spec and
    every agent spec of ``opponent_mix`` but ``learner`` and ``self`` built once).

    Raises:
        TrainConfigError: naming the key and what is allowed.
    """
    for mod in cfg["preload"]:
        try:
            importlib.import_module(mod)
        except Exception as e:  # noqa: BLE001  (any failure to import a named module is a config error)
            raise TrainConfigError(f"config key 'preload': cannot import {short_repr(mod)}: "
                                   f"{type(e).__name__}: {e}") from None
    shared = train_validate(_shared_subset(cfg), sb3_rollout=False)  # the full training.train config: its other keys at defaults
    shared["opponent_mix"] = {k: w for k, w in cfg["opponent_mix"].items() if k != "learner"}
    train_check_config(shared)


def prepare_run_dir(cfg: Mapping[str, Any]) -> Path:
    """``<out_dir>/<run_name>``: the run folder, created with a write check before Ray starts.

    Raises:
        TrainConfigError: an unsafe run name or a folder that cannot be created or written.
    """
    name = run_name(cfg)
    check_run_folder_keys(name, cfg["out_dir"])
    return run_dir({"name": name, "out_dir": cfg["out_dir"]})


def load_config(path: str | Path | None = None) -> dict:
    """Read and validate a TOML config (``None``: the defaults; ``name`` stays empty, see :func:`run_name`).

    A bare file name is also looked up in ``training/configs/``.

    Raises:
        TrainConfigError: missing file, TOML syntax error, unknown key or wrong type, or a ``preload`` key
            (modules to import come from ``--preload`` only).
    """
    if path is None:
        return validate({})
    p, raw = read_toml(Path(path))
    if "preload" in raw:  # a file is data: it names no code to import
        raise TrainConfigError(f"{p}: config key 'preload' is not read from a config file (a file must not make "
                               "every process import a module); give --preload MODULE on the command line")
    cfg = validate(raw)
    cfg["name"] = cfg["name"] or p.stem
    return cfg


def run_name(cfg: Mapping[str, Any]) -> str:
    """The run's name: ``name``, else ``rllib_<env_id>``."""
    return cfg["name"] or f"rllib_{cfg['env_id']}"


def apply_overrides(cfg: Mapping[str, Any], overrides: list[str]) -> dict:
    """Apply ``key=value`` overrides (``env_config.num_players=3`` sets one entry of a table) and revalidate.

    Raises:
        TrainConfigError: malformed override, unknown or ``training.train``-only key, or wrong type.
    """
    _refuse_unknown([item.partition("=")[0].strip().partition(".")[0] for item in overrides if "=" in item])
    return train_overrides(cfg, overrides, _BY_NAME, validate)
