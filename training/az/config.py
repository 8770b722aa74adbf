"""Configs of the search-based self-play recipe: ``training/configs/az_<game>.toml``, validated strictly.

Every key, its type, default and meaning is in :data:`AZ_KEYS`. A config file may hold a ``[quick]`` table
of overrides that ``--quick`` applies (a short run that shows every stage). Unknown keys and wrong types raise
:class:`~training.config.TrainConfigError` naming the key and what is allowed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from monolith_envs.agents.mcts import MAX_SIMULATIONS
from monolith_envs.core.processes import local_worker_limit, worker_limit_why
from monolith_envs.core.seeds import check_seed
from training.config import (
    Key,
    TrainConfigError,
    _check_type,
    check_run_folder_keys,
    check_unattended,
    read_toml,
)

__all__ = ["AZ_KEYS", "load_az_config", "validate_az"]

AZ_KEYS: tuple[Key, ...] = (
    Key("name", str, "", "run name; outputs go to <out_dir>/<name>/ (default: the config file's stem, plus "
                         "'_quick' with --quick)"),
    Key("out_dir", str, "runs", "root directory of run outputs"),
    Key("env_id", str, "monolith_arena_v0", "registered env id"),
    Key("env_config", dict, {}, "the game's config keys (table)"),
    Key("seed", int, 0, "seed of the network, the games and the evaluations"),
    Key("hidden", list, [256, 256], "hidden layer sizes of the policy-value MLP"),
    Key("init_checkpoint", str, "", "start from this checkpoint's weights (a training.az .pt of the same game "
        "config; '' = a fresh network), e.g. to continue a run"),
    Key("init_samples", str, "", "preload the replay buffer with a samples file (.npz written by a run's warm "
        "start, warm_samples.npz; '' = none; checked: training.az.selfplay.load_samples)"),
    Key("workers", int, 2, "worker processes for game generation and evaluation (1: in this process)"),
    Key("tasks", int, 4, "seeded tasks each batch of games is split into (results do not depend on workers)"),
    Key("warm_games", int, 200, "heuristic-vs-heuristic games for the warm start (0: no warm start)"),
    Key("warm_epsilon", float, 0.1, "share of random moves in the warm-start games"),
    Key("warm_value_share", float, 0.5, "share of the warm-start policy target given to softmax(heuristic "
        "state value of each legal action / warm_tau) (the rest: the heuristic's move, one-hot)"),
    Key("warm_tau", float, 0.02, "temperature of the value part of the warm-start target"),
    Key("warm_epochs", int, 10, "epochs over the warm-start samples"),
    Key("lr", float, 1e-3, "Adam learning rate"),
    Key("weight_decay", float, 1e-4, "Adam weight decay"),
    Key("batch_size", int, 256, "minibatch size"),
    Key("value_coef", float, 1.0, "weight of the value loss (mean squared error over seats)"),
    Key("iterations", int, 3, "expert-iteration steps after the warm start (self-play, fit, evaluate)"),
    Key("games_per_iteration", int, 16, "self-play games per iteration"),
    Key("concurrent", int, 8, "games searched together in one task (one forward pass per simulation round)"),
    Key("simulations", int, 32, "search simulations per self-play decision"),
    Key("c_puct", float, 1.5, "PUCT exploration constant"),
    Key("dirichlet_alpha", float, 0.3, "root noise concentration"),
    Key("noise_frac", float, 0.25, "share of root noise in the root prior"),
    Key("temp_moves", int, 30, "decisions per game whose move is drawn from the visit distribution"),
    Key("replay_size", int, 100_000, "samples kept in the replay buffer (oldest dropped)"),
    Key("train_epochs", int, 2, "epochs over the replay buffer per iteration"),
    Key("eval_games", int, 20, "games per opponent in each iteration's evaluation (seats rotating; "
        "alone in a one-seat game)"),
    Key("final_eval_games", int, 200, "games per opponent in the final evaluation (alone in a "
        "one-seat game)"),
    Key("eval_opponents", list, ["random", "heuristic"], "agent specs the policy is evaluated against"),
    Key("eval_search", int, 0, "also evaluate the policy with its own search of this many simulations (0: no)"),
    Key("quick", dict, {}, "overrides applied by --quick"),
)
_BY_NAME = {k.name: k for k in AZ_KEYS}
#: ``key: (min, max)`` of every integer key (``workers`` also at most :func:`local_worker_limit`)
_INT_RANGES = {
    "workers": (1, 256), "tasks": (1, 4096), "warm_epochs": (1, 10_000), "batch_size": (1, 10**6),
    "concurrent": (1, 4096), "simulations": (1, MAX_SIMULATIONS), "replay_size": (1, 10**8),
    "train_epochs": (1, 10_000), "warm_games": (0, 10**7), "iterations": (0, 10**6),
    "games_per_iteration": (0, 10**7), "temp_moves": (0, 10**6), "eval_games": (0, 100_000),
    "final_eval_games": (0, 100_000), "eval_search": (0, MAX_SIMULATIONS),
}
#: ``key: (min, max, min excluded)`` of every float key
_FLOAT_RANGES = {
    "lr": (0.0, 1.0, True), "weight_decay": (0.0, 1.0, False), "value_coef": (0.0, 100.0, False),
    "warm_epsilon": (0.0, 1.0, False), "warm_value_share": (0.0, 1.0, False), "warm_tau": (0.0, 1e6, True),
    "c_puct": (0.0, 1e6, True), "dirichlet_alpha": (0.0, 1e6, True), "noise_frac": (0.0, 1.0, False),
}


def validate_az(cfg: Mapping[str, Any]) -> dict:
    """Defaults filled in and every key checked -> a new dict.

    Raises:
        TrainConfigError: an unknown key (the message lists the valid ones), a wrong type, or a value out of
            range (the message says the allowed range).
    """
    unknown = sorted(set(cfg) - set(_BY_NAME))
    if unknown and {"total_timesteps", "n_steps", "opponent_mix"} & set(unknown):
        raise TrainConfigError("this is a config of the MaskablePPO recipe (keys such as 'total_timesteps'); run it "
                               "with python -m training.train --config FILE (python -m training.az runs the "
                               "search-based self-play configs, training/configs/az_*.toml)")
    if unknown:
        import difflib

        close = difflib.get_close_matches(unknown[0], list(_BY_NAME), n=1, cutoff=0.75)
        hint = f" (did you mean {close[0]!r} for {unknown[0]!r}?)" if close else ""
        raise TrainConfigError(f"unknown config {_keys(unknown)}{hint}; valid keys: {', '.join(sorted(_BY_NAME))}")
    out = {k.name: copy.deepcopy(k.default) for k in AZ_KEYS}
    for k, v in cfg.items():
        out[k] = _check_type(_BY_NAME[k], v)
    for k, (lo, hi, open_lo) in _FLOAT_RANGES.items():
        out[k] = float(out[k])
        if not (lo < out[k] <= hi if open_lo else lo <= out[k] <= hi):  # NaN fails both
            raise TrainConfigError(f"config key {k!r}: must be in {'(' if open_lo else '['}{lo:g}, {hi:g}], got {out[k]}")
    for k, (lo, hi) in _INT_RANGES.items():
        if not lo <= out[k] <= hi:
            raise TrainConfigError(f"config key {k!r}: must be an integer from {lo:,} to {hi:,}, got {out[k]:,}")
    if out["workers"] > local_worker_limit():
        raise TrainConfigError(f"config key 'workers': at most {local_worker_limit()} worker processes on this "
                               f"machine ({worker_limit_why()}), got {out['workers']:,}")
    try:
        check_seed(out["seed"])
    except (TypeError, ValueError) as e:
        raise TrainConfigError(f"config key 'seed': {e}") from None
    check_run_folder_keys(out["name"], out["out_dir"])
    if not 1 <= len(out["hidden"]) <= 16 or not all(isinstance(h, int) and not isinstance(h, bool) and 1 <= h <= 8192
                                                       for h in out["hidden"]):
        # the bounds of training.az.net.MAX_HIDDEN_LAYERS / MAX_HIDDEN_WIDTH: a checkpoint must load again
        raise TrainConfigError(f"config key 'hidden': expected a list of 1 to 16 integers from 1 to 8192, got "
                               f"{out['hidden']}")
    if not all(isinstance(s, str) for s in out["eval_opponents"]):
        raise TrainConfigError(f"config key 'eval_opponents': expected a list of agent specs, got {out['eval_opponents']}")
    for spec in out["eval_opponents"]:
        check_unattended("eval_opponents", spec)
    bad = sorted(set(out["quick"]) - set(_BY_NAME) - {"quick"})
    if bad or "quick" in out["quick"]:
        raise TrainConfigError(f"config key 'quick': unknown override {_keys(bad or ['quick'])}; valid keys: "
                               f"{', '.join(sorted(set(_BY_NAME) - {'quick'}))}")
    return out


def _keys(names: list[str]) -> str:
    """``key 'a'`` or ``keys 'a', 'b'``: key names for a message, in plain words (not a Python list)."""
    return ("key " if len(names) == 1 else "keys ") + ", ".join(map(repr, names))


def load_az_config(path: str | Path, quick: bool = False) -> dict:
    """Read and validate a recipe config; ``quick`` applies its ``[quick]`` overrides. ``name`` defaults to the
    file's stem (plus ``_quick``).

    Raises:
        TrainConfigError: missing file, TOML syntax error, unknown key, wrong type or value out of range;
            ``quick`` for a file without a ``[quick]`` table of overrides (or with an empty one): the short run
            would be the full recipe under a ``_quick`` name.
    """
    p, raw = read_toml(Path(path))
    cfg = validate_az(raw)
    if quick and not cfg["quick"]:
        what = "an empty [quick] table" if "quick" in raw else "no [quick] table"
        raise TrainConfigError(f"--quick: config file {str(p)!r} has {what}, so --quick would run the full "
                               "recipe; add a [quick] table of the keys to shorten (e.g. warm_games, iterations, "
                               "games_per_iteration, final_eval_games; see training/configs/az_arena_2p.toml), "
                               "or run without --quick")
    if quick:
        cfg = validate_az({**cfg, **cfg["quick"]})
    if not cfg["name"]:
        cfg["name"] = p.stem + ("_quick" if quick else "")
    return cfg
