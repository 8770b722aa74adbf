"""Training configs: TOML files in ``training/configs/`` with documented keys, validated strictly.

Every key, its type, default and meaning is in :data:`KEYS` (``python -m training.train --list-keys``
prints them).  Unknown keys raise :class:`TrainConfigError` listing the valid ones; ``--set key=value``
overrides use the same names (``env_config.reward_mode=score`` sets one entry of a table; values are TOML
literals, bare words are strings).

Config files are read by the safe reader of content files (:func:`monolith_envs.core.content.read_text` and
``parse_toml``): a regular file of at most :data:`MAX_CONFIG_BYTES` in UTF-8, nesting, dotted keys and the
key count bounded before ``tomllib`` parses.  :func:`validate` checks every key's type and range;
:func:`check_config` checks what needs the game and the agents (the env config, the seat, every agent
spec, the run folder) so that a bad value fails before any work starts.
"""

from __future__ import annotations

import copy
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from monolith_envs.core.config import short_repr
from training.config_hints import unknown_key_hint

__all__ = [
    "CONFIG_DIR",
    "DEFAULT_CONFIG",
    "KEYS",
    "MAX_CONFIG_BYTES",
    "MAX_RUN_ARRAY_BYTES",
    "TrainConfigError",
    "apply_overrides",
    "check_no_comma",
    "check_run_folder_keys",
    "check_config",
    "check_unattended",
    "check_memory",
    "describe_keys",
    "load_config",
    "read_toml",
    "run_dir",
    "validate",
]

CONFIG_DIR = Path(__file__).parent / "configs"
DEFAULT_CONFIG = CONFIG_DIR / "monolith_arena_2p.toml"
MAX_CONFIG_BYTES = 256 * 1024
"""Size cap of a config file (the shipped ones are about 3 KiB)."""


class TrainConfigError(ValueError):
    """A config key that does not exist, a value of the wrong type, or an unreadable config file."""


def check_unattended(key: str, spec: str) -> None:
    """Refuse a ``human`` agent spec in config key ``key``: training plays its games unattended, on worker
    processes with no terminal (a human agent there ends the run with the workers' ``EOFError``).

    Raises:
        TrainConfigError: ``spec`` names the human agent.
    """
    if isinstance(spec, str) and spec.split(":", 1)[0].strip().lower() == "human":
        raise TrainConfigError(f"config key {key!r}: agent spec {short_repr(spec)}: training plays unattended, with "
                               "no one to answer a human agent; play a game yourself with python -m agents.play "
                               "ENV_ID --opponents SPEC")


@dataclass(frozen=True)
class Key:
    """One config key: name, accepted Python type(s), default, one-line meaning."""

    name: str
    type: type | tuple[type, ...]
    default: Any
    doc: str


KEYS: tuple[Key, ...] = (
    Key("name", str, "", "run name; outputs go to <out_dir>/<name>/ (default: the config file's stem, with _quick for --quick)"),
    Key("out_dir", str, "runs", "root directory of run outputs"),
    Key("env_id", str, "monolith_arena_v0", "registered env id to train on"),
    Key("env_config", dict, {}, "the game's config keys (table), e.g. {num_players = 2, reward_mode = 'score'}"),
    Key("seed", int, 0, "seed of the model, the envs, the opponents and the evaluation games"),
    Key("total_timesteps", int, 100_000, "learner decisions to train for"),
    Key("n_envs", int, 2, "parallel training envs"),
    Key("vec_env", str, "subproc", "'dummy' (one process) or 'subproc' (one process per env)"),
    Key("torch_threads", int, 1, "torch intra-op threads of the learner process"),
    Key("seat", (str, int), "rotate", "learner's seat: 'rotate' over episodes, 'random', or a fixed seat"),
    Key("learning_rate", float, 3e-4, "Adam learning rate"),
    Key("n_steps", int, 512, "rollout length per env between updates"),
    Key("batch_size", int, 256, "minibatch size"),
    Key("n_epochs", int, 4, "epochs per update"),
    Key("gamma", float, 0.99, "discount factor"),
    Key("gae_lambda", float, 0.95, "GAE lambda"),
    Key("clip_range", float, 0.2, "PPO clip range"),
    Key("ent_coef", float, 0.01, "entropy bonus coefficient"),
    Key("vf_coef", float, 0.5, "value loss coefficient"),
    Key("max_grad_norm", float, 0.5, "gradient clipping"),
    Key("shaping", str, "none", "reward shaping: 'none', or 'heuristic' = potential-based shaping with the "
        "game's heuristic state_value (gamma * phi(s') - phi(s), policy-invariant)"),
    Key("shaping_coef", float, 1.0, "scale of the shaping potential"),
    Key("features", str, "flat", "policy network: 'flat' (the whole observation into the MLP), 'pieces' (one "
        "shared encoder per row of each table piece, training/features.py) or 'aligned' (row attention with "
        "per-place action logits, training/aligned.py)"),
    Key("row_dim", int, 32, "with features='pieces'/'aligned': encoded size of one table row"),
    Key("features_dim", int, 256, "with 'pieces': size of the encoded observation; 'aligned': global vector"),
    Key("token_dim", int, 64, "with features='aligned': size of a place token"),
    Key("attention_layers", int, 2, "with features='aligned': Transformer encoder layers over the places"),
    Key("head_hidden", int, 64, "with features='aligned': hidden size of the action head MLPs"),
    Key("net_arch", list, [128, 128], "hidden layer sizes of the policy and value MLPs"),
    Key("init_from", str, "", "start PPO from a pretrained baseline's weights instead of a warm start: a "
        "baseline name (e.g. 'arena_2p') or a baseline .pt file; needs features='pieces' with its sizes "
        "(training/init_weights.py); '' = none"),
    Key("pretrain_samples", int, 0, "decision states for a warm start before PPO (0 = none)"),
    Key("pretrain_targets", str, "teacher", "warm start: 'teacher' (behaviour cloning of pretrain_teacher) or "
        "'values' (distil softmax(state_value of each legal action / pretrain_tau), training/pretrain.py)"),
    Key("pretrain_tau", float, 0.02, "with pretrain_targets='values': temperature of the soft targets"),
    Key("pretrain_teacher", str, "heuristic", "agent spec of the behaviour-cloning teacher"),
    Key("pretrain_opponents", list, ["random"], "agent specs the teacher plays against while collecting"),
    Key("pretrain_epochs", int, 5, "behaviour-cloning epochs over the samples"),
    Key("pretrain_lr", float, 1e-3, "behaviour-cloning Adam learning rate"),
    Key("pretrain_rounds", int, 1, "with pretrain_targets='teacher': collection rounds; each round after the first "
        "collects pretrain_samples more states where the policy fitted so far plays (DAgger) and refits on all"),
    Key("pretrain_student_prob", float, 0.5, "in rounds after the first: probability that the policy fitted so far "
        "plays a decision instead of the teacher (the teacher labels every state)"),
    Key("opponent_mix", dict, {"self": 0.5, "random": 0.25, "heuristic": 0.25},
        "opponent kinds and weights: 'self' = a frozen snapshot of the learner, else an agent spec"),
    Key("opponent_schedule", list, [],
        "later opponent mixes: a list of {from_step = N, mix = {...}} tables (N increasing); from the first "
        "rollout at or after learner step N, new episodes draw their opponents from mix instead of opponent_mix "
        "(e.g. random opponents first, then the heuristic)"),
    Key("pool_size", int, 5, "newest snapshots kept in the self-play pool"),
    Key("snapshot_every", int, 10_000, "learner steps between snapshots added to the pool"),
    Key("eval_every", int, 20_000, "learner steps between evaluations for the learning curve (0 = never)"),
    Key("eval_games", int, 20, "games per fixed opponent at each periodic evaluation"),
    Key("eval_opponents", list, ["random", "heuristic"], "fixed opponents (agent specs) for evaluations"),
    Key("final_eval_games", int, 100, "games per fixed opponent in the final evaluation"),
    Key("eval_workers", int, 2, "worker processes of the final evaluation"),
    Key("checkpoint_every", int, 50_000, "learner steps between checkpoints (0 = none but the step-0 one after "
        "a warm start, the one of a stop and the final model)"),
    Key("progress_bar", bool, True, "show progress on stderr: stage banners, tqdm bars and each interim "
        "evaluation's win rates (false: quiet; the report is the same)"),
)
_BY_NAME = {k.name: k for k in KEYS}


def describe_keys(keys: tuple[Key, ...] = KEYS) -> str:
    """One line per key (default: this module's): name, type, default, meaning."""
    out = []
    for k in keys:
        t = k.type.__name__ if isinstance(k.type, type) else "|".join(x.__name__ for x in k.type)
        out.append(f"{k.name:20s} {t:8s} default={k.default!r}\n    {k.doc}")
    return "\n".join(out)


def _check_type(key: Key, value: Any) -> Any:
    types = key.type if isinstance(key.type, tuple) else (key.type,)
    if float in types and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    names = "|".join(t.__name__ for t in types)
    if bool not in types and isinstance(value, bool):
        raise TrainConfigError(f"config key {key.name!r}: expected {names}, got bool {value!r}")
    if not isinstance(value, types):
        hint = ""
        if isinstance(value, str) and value.strip()[:1] in ("[", "{") and {list, dict} & set(types):
            hint = ("; that text did not read as a TOML value: write tables as {key = value, ...} and strings in "
                    "quotes, e.g. --set 'opponent_schedule=[{from_step = 150000, mix = {heuristic = 0.7}}]'")
        raise TrainConfigError(f"config key {key.name!r}: expected {names}, got {type(value).__name__} "
                               f"{short_repr(value)}{hint}")
    return value


def _check_rollout(out: Mapping[str, Any]) -> None:
    """MaskablePPO's rollout, ``n_steps x n_envs`` steps: at least 2 (the advantages are normalised over it),
    and ``batch_size`` at most one rollout (minibatches are cut from it); a :class:`TrainConfigError` else."""
    rollout = out["n_steps"] * out["n_envs"]
    if rollout < 2:
        raise TrainConfigError(f"config keys 'n_steps' x 'n_envs': a rollout of at least 2 steps is needed (PPO "
                               f"normalises the advantages over it), got {out['n_steps']} x {out['n_envs']}")
    if out["batch_size"] > rollout:
        raise TrainConfigError(f"config key 'batch_size': PPO's minibatch (and the warm start's), at most one rollout, "
                               f"n_steps x n_envs = {out['n_steps']:,} x {out['n_envs']} = {rollout:,} steps "
                               f"(minibatches are cut from a rollout), got {out['batch_size']:,}: set "
                               f"batch_size={rollout} or less, or more n_steps / n_envs")


def validate(cfg: Mapping[str, Any], *, sb3_rollout: bool = True) -> dict:
    """Merge ``cfg`` over the defaults and check every key and type; with ``sb3_rollout`` (MaskablePPO's
    configs; ``training.rllib``, whose rollout is its ``train_batch_size``, passes False) also that
    ``batch_size`` fits in one rollout of ``n_steps x n_envs`` steps.

    Raises:
        TrainConfigError: an unknown key (the message lists the valid keys) or a wrong type.
    """
    unknown = [k for k in cfg if k not in _BY_NAME]
    if unknown and {"simulations", "c_puct", "games_per_iteration"} & set(unknown):
        raise TrainConfigError(
            "this is a config of the search-based self-play recipe (keys such as 'simulations'); run it with "
            "python -m training.az --config FILE (python -m training.train runs MaskablePPO configs)"
        )
    if unknown:
        raise TrainConfigError(
            f"unknown config key(s) {', '.join(map(repr, unknown))}; valid keys: {', '.join(_BY_NAME)}"
        )
    out = {}
    for k in KEYS:
        v = cfg.get(k.name, k.default)
        out[k.name] = _check_type(k, v) if k.name in cfg else (dict(v) if isinstance(v, dict) else
                                                               list(v) if isinstance(v, list) else v)
    if out["vec_env"] not in ("dummy", "subproc"):
        raise TrainConfigError(f"config key 'vec_env': expected 'dummy' or 'subproc', got {out['vec_env']!r}")
    if out["features"] not in ("flat", "pieces", "aligned"):
        raise TrainConfigError(f"config key 'features': expected 'flat', 'pieces' or 'aligned', "
                               f"got {out['features']!r}")
    if out["shaping"] not in ("none", "heuristic"):
        raise TrainConfigError(f"config key 'shaping': expected 'none' or 'heuristic', got {out['shaping']!r}")
    if out["pretrain_targets"] not in ("teacher", "values"):
        raise TrainConfigError(f"config key 'pretrain_targets': expected 'teacher' or 'values', "
                               f"got {out['pretrain_targets']!r}")
    if out["pretrain_tau"] <= 0:
        raise TrainConfigError(f"config key 'pretrain_tau': must be > 0, got {out['pretrain_tau']}")
    if out["pretrain_rounds"] > 1 and out["pretrain_targets"] != "teacher":
        raise TrainConfigError("config key 'pretrain_rounds': rounds after the first need pretrain_targets = "
                               f"'teacher', got {out['pretrain_targets']!r}")
    if out["pretrain_rounds"] > 1 and out["features"] != "pieces":
        raise TrainConfigError("config key 'pretrain_rounds': the student of rounds after the first needs "
                               f"features = 'pieces', got {out['features']!r}")
    if out["pretrain_samples"] < 0:
        raise TrainConfigError(f"config key 'pretrain_samples': must be >= 0, got {out['pretrain_samples']}")
    for k, (lo, hi) in _INT_RANGES.items():
        if not lo <= out[k] <= hi:
            raise TrainConfigError(f"config key {k!r}: must be an integer from {lo:,} to {hi:,}, got {short_repr(out[k])}")
    for k, (lo, hi, lo_open) in _FLOAT_RANGES.items():
        v = out[k]
        if not math.isfinite(v) or v < lo or v > hi or (lo_open and v == lo):
            where = f"{'above' if lo_open else 'from'} {lo:g} {'and up to' if lo_open else 'to'} {hi:g}"
            raise TrainConfigError(f"config key {k!r}: must be a finite number {where}, got {v!r}")
    if sb3_rollout:
        _check_rollout(out)
    _check_seed(out)
    _check_strings(out)
    arch = out["net_arch"]
    if not 1 <= len(arch) <= 16 or any(isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 4096
                                       for x in arch):
        raise TrainConfigError(f"config key 'net_arch': must be a list of 1 to 16 layer sizes, each an integer "
                               f"from 1 to 4096, got {short_repr(arch)}")
    seat = out["seat"]
    if isinstance(seat, str) and seat not in ("rotate", "random") or isinstance(seat, int) and not 0 <= seat < 64:
        raise TrainConfigError(f"config key 'seat': must be 'rotate', 'random' or a seat number (0 to the "
                               f"number of seats - 1), got {seat!r}")
    _check_mix("config key 'opponent_mix'", out["opponent_mix"])
    _check_schedule(out["opponent_schedule"])
    for k in ("eval_opponents", "pretrain_opponents"):
        if len(out[k]) > 16 or not all(isinstance(x, str) and x for x in out[k]):
            raise TrainConfigError(f"config key {k!r}: must be a list of at most 16 agent specs (strings such as "
                                   f"'random', 'heuristic', 'mcts:100'), got {short_repr(out[k])}")
    if out["features"] == "aligned" and out["token_dim"] % ATTENTION_HEADS:
        raise TrainConfigError(f"config key 'token_dim': with features = 'aligned' it must be a multiple of "
                               f"{ATTENTION_HEADS} (the {ATTENTION_HEADS} attention heads split a token), "
                               f"got {out['token_dim']}")
    return out


#: attention heads of ``features = "aligned"`` (:class:`training.aligned.RowAttentionEncoder`): they split a
#: token of ``token_dim`` values, so it must be a multiple of them
ATTENTION_HEADS = 4
#: ``key: (min, max)`` of every integer key
_INT_RANGES = {
    "total_timesteps": (1, 10**10), "n_envs": (1, 64), "n_steps": (1, 10**6), "batch_size": (1, 10**7),
    "n_epochs": (1, 1000), "pool_size": (1, 1000), "torch_threads": (1, 256), "eval_workers": (1, 64),
    "row_dim": (1, 4096), "features_dim": (1, 8192), "token_dim": (1, 4096), "attention_layers": (1, 64),
    "head_hidden": (1, 8192), "pretrain_samples": (0, 10**8), "pretrain_epochs": (1, 10_000), "pretrain_rounds": (1, 100),
    "snapshot_every": (1, 10**10), "eval_every": (0, 10**10), "eval_games": (1, 100_000),
    "final_eval_games": (1, 100_000), "checkpoint_every": (0, 10**10),
}
#: ``key: (min, max, min excluded)`` of every float key
_FLOAT_RANGES = {
    "learning_rate": (0.0, 1.0, True), "gamma": (0.0, 1.0, True), "gae_lambda": (0.0, 1.0, False),
    "clip_range": (0.0, 10.0, True), "ent_coef": (0.0, 100.0, False), "vf_coef": (0.0, 100.0, False),
    "max_grad_norm": (0.0, 1e6, True), "shaping_coef": (-1e6, 1e6, False), "pretrain_tau": (0.0, 1e6, True),
    "pretrain_lr": (0.0, 1.0, True), "pretrain_student_prob": (0.0, 1.0, False),
}
#: the run derives seeds up to ``seed * 1000 + n_envs`` (training envs) and ``seed + 2 * 10**6 + games``
MAX_TRAIN_SEED = (2**128 - 1) // 1000 - 64
#: the most memory a run's two big arrays may take, each (PPO's rollout buffer: ``n_steps x n_envs`` observations
#: and masks; the warm start's ``pretrain_samples`` states): refused before any work rather than a MemoryError later
MAX_RUN_ARRAY_BYTES = 16 * 2**30
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+=-]{0,99}")


def _check_mix(where: str, mix: Any) -> None:
    """An opponent mix: a table of 1 to 64 agent specs (or ``self``) with finite non-negative weights and a
    positive sum; a :class:`TrainConfigError` naming ``where`` otherwise."""
    if (not isinstance(mix, dict) or not mix or len(mix) > 64
            or any(isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0
                   for w in mix.values()) or sum(mix.values()) <= 0):
        raise TrainConfigError(f"{where}: a table of 1 to 64 agent specs (or 'self') with finite non-negative "
                               f"weights and a positive sum, got {short_repr(mix)}")


def _check_schedule(schedule: list) -> None:
    """``opponent_schedule``: at most 16 tables ``{from_step = N, mix = {...}}``, N from 1 to 10**10 and
    increasing, each mix as ``opponent_mix``."""
    if len(schedule) > 16:
        raise TrainConfigError(f"config key 'opponent_schedule': at most 16 phases, got {len(schedule)}")
    last = 0
    for i, phase in enumerate(schedule):
        where = f"config key 'opponent_schedule', phase {i + 1}"
        if not isinstance(phase, dict) or set(phase) != {"from_step", "mix"}:
            raise TrainConfigError(f"{where}: a table with exactly the keys from_step and mix, e.g. {{from_step = "
                                   f"150000, mix = {{heuristic = 0.7, self = 0.3}}}}, got {short_repr(phase)}")
        step = phase["from_step"]
        if isinstance(step, bool) or not isinstance(step, int) or not last < step <= 10**10:
            raise TrainConfigError(f"{where}: from_step must be an integer above {last:,} (the phases in order of "
                                   f"their steps) and at most 10,000,000,000, got {short_repr(step)}")
        last = step
        _check_mix(f"{where}, mix", phase["mix"])


def _check_seed(out: dict) -> None:
    from monolith_envs.core.seeds import check_seed

    bound = (f"an integer from 0 to (2**128-1) // 1000 - 64 = {MAX_TRAIN_SEED} (a run derives the seeds "
             "seed * 1000 + env rank from it)")
    try:
        check_seed(out["seed"], "config key 'seed'")
    except (TypeError, ValueError):
        raise TrainConfigError(f"config key 'seed': must be {bound}, got {short_repr(out['seed'])}") from None
    if out["seed"] > MAX_TRAIN_SEED:
        raise TrainConfigError(f"config key 'seed': must be {bound}, got {out['seed']}")


def check_run_folder_keys(name: str, out_dir: str) -> None:
    """``name`` ('' = not chosen yet) is one folder name under ``out_dir``, a folder path without NUL or control
    characters (the run folder is ``<out_dir>/<name>``, never outside ``out_dir``; :func:`run_dir` refuses a
    comma in it).

    Raises:
        TrainConfigError: naming the key and what is allowed.
    """
    if name and (not _NAME.fullmatch(name) or name in (".", "..")):
        raise TrainConfigError(f"config key 'name': must be 1 to 100 letters, digits or _ . + = - (one folder "
                               f"name under out_dir, not starting with '.' or '-'), got {short_repr(name)}")
    if not out_dir or "\x00" in out_dir or len(out_dir) > 4096 or any(ord(c) < 32 for c in out_dir):
        raise TrainConfigError(f"config key 'out_dir': must be a folder path without NUL or control characters, "
                               f"got {short_repr(out_dir)}")


def _check_strings(out: dict) -> None:
    check_run_folder_keys(out["name"], out["out_dir"])
    for k in ("env_id", "pretrain_teacher"):
        if not 1 <= len(out[k]) <= 4096 or any(ord(c) < 32 for c in out[k]):
            raise TrainConfigError(f"config key {k!r}: must be a non-empty string without control characters, "
                                   f"got {short_repr(out[k])}")
    init = out["init_from"]
    if len(init) > 4096 or any(ord(c) < 32 for c in init):
        raise TrainConfigError(f"config key 'init_from': must be a baseline name or a .pt path without control "
                               f"characters, got {short_repr(init)}")
    if init and out["pretrain_samples"] > 0:
        raise TrainConfigError(f"config key 'init_from': {short_repr(init)} and a warm start (pretrain_samples = "
                               f"{out['pretrain_samples']:,}) both set the starting weights; set pretrain_samples = 0 "
                               "to start from the baseline")


def check_no_comma(folder: Path) -> None:
    """Refuse a run folder whose path has a comma: the run's printed evaluate commands name its model in a
    comma-separated list of agent specs (``--agents ppo:PATH,random``), which would split the path there.

    Raises:
        TrainConfigError: naming the folder.
    """
    if "," in str(folder):
        raise TrainConfigError(f"config key 'out_dir': the run folder {short_repr(str(folder))} has a comma; the "
                               "run's model is named in comma-separated lists of agent specs (--agents "
                               "ppo:PATH,random), so choose a folder path without one")


def run_dir(cfg: Mapping[str, Any]) -> Path:
    """``<out_dir>/<name>``, created (with a write check) so an unusable folder fails before any work (a
    resumed run's ``out_dir`` is the folder it is in now).

    Raises:
        TrainConfigError: an empty or unsafe ``name``, a folder path with a comma (:func:`check_no_comma`), or a
            folder that cannot be created or written.
    """
    name = cfg["name"]
    if not name:
        raise TrainConfigError("config key 'name': must not be empty (outputs go to <out_dir>/<name>/)")
    d = Path(cfg["out_dir"]) / name
    check_no_comma(d)
    try:
        d.mkdir(parents=True, exist_ok=True)
        probe = d / f".write_check_{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise TrainConfigError(f"config key 'out_dir': cannot write the run folder {str(d)!r} "
                               f"({e.strerror or e}); choose a writable folder") from None
    return d


def check_config(cfg: Mapping[str, Any], resuming: bool = False) -> None:
    """The checks of a validated config that need the game and the agents, run before any work starts:
    the env id and ``env_config`` (the game validates them), a fixed ``seat`` below the number of seats,
    and every agent spec (``eval_opponents``, ``pretrain_teacher``, ``pretrain_opponents``, the keys of
    ``opponent_mix`` and of the mixes of ``opponent_schedule`` but ``self``) built once, and the baseline of
    ``init_from`` loaded and compared with the config (not when ``resuming``: a resumed run starts from its
    checkpoint).

    Raises:
        TrainConfigError: naming the key and what is allowed.
    """
    import monolith_envs
    from agents import make_agent

    try:
        game = monolith_envs.make_game(cfg["env_id"], **cfg["env_config"])
    except (monolith_envs.MonolithEnvError, ValueError, TypeError) as e:
        key = "env_id" if isinstance(e, monolith_envs.UnknownEnvError) else "env_config"
        raise TrainConfigError(f"config key {key!r}: {e}") from None
    seat = cfg["seat"]
    if isinstance(seat, int) and not 0 <= seat < game.num_players:
        raise TrainConfigError(f"config key 'seat': {cfg['env_id']} with this env_config has {game.num_players} "
                               f"seat(s); use 0 to {game.num_players - 1}, 'rotate' or 'random', got {seat}")
    check_memory(cfg, game.obs_spec.size, game.layout.n)
    if game.num_players > 1 and not cfg["eval_opponents"]:
        raise TrainConfigError("config key 'eval_opponents': empty; the evaluations need at least one opponent "
                               "agent spec, e.g. ['random', 'heuristic']")
    if (game.num_players > 1 and cfg["pretrain_samples"] > 0 and cfg["pretrain_targets"] == "teacher"
            and not cfg["pretrain_opponents"] and not cfg["init_from"] and not resuming):
        raise TrainConfigError("config key 'pretrain_opponents': empty; the teacher's warm-start games need at "
                               "least one opponent agent spec for the other seats, e.g. ['random'] or "
                               "['heuristic'] (or pretrain_samples = 0 for no warm start)")
    specs = [("eval_opponents", s) for s in cfg["eval_opponents"]]
    specs += [("pretrain_teacher", cfg["pretrain_teacher"])]  # checked even when no warm start uses it
    specs += [("pretrain_opponents", s) for s in cfg["pretrain_opponents"]]
    specs += [("opponent_mix", s) for s in cfg["opponent_mix"] if s != "self"]
    specs += [("opponent_schedule", s) for phase in cfg["opponent_schedule"] for s in phase["mix"] if s != "self"]
    for key, spec in specs:
        check_unattended(key, spec)
        try:
            make_agent(spec, cfg["env_id"], cfg["env_config"], unattended=True)
        except Exception as e:  # noqa: BLE001  (any failure to build a named agent is a config error)
            raise TrainConfigError(f"config key {key!r}: agent spec {short_repr(spec)}: {e}") from None
    if cfg["init_from"] and not resuming:  # a resume starts from its checkpoint, not from the file
        from training.init_weights import InitFromError, load_init

        try:
            load_init(cfg)
        except InitFromError as e:
            raise TrainConfigError(str(e)) from None


def check_memory(cfg: Mapping[str, Any], obs_size: int, n_actions: int) -> None:
    """Refuse a config whose rollout buffer (``n_steps x n_envs`` float32 observations and masks, as
    MaskablePPO keeps them) or warm-start states (``pretrain_samples`` float16 observations, bool masks and
    float32 targets) would take more than :data:`MAX_RUN_ARRAY_BYTES`.

    Raises:
        TrainConfigError: naming the keys, the size they need and the limit.
    """
    limit = MAX_RUN_ARRAY_BYTES / 2**30
    rollout = cfg["n_steps"] * cfg["n_envs"]
    need = rollout * 4 * (obs_size + n_actions)
    if need > MAX_RUN_ARRAY_BYTES:
        raise TrainConfigError(f"config keys 'n_steps' x 'n_envs': a rollout of {rollout:,} steps holds {rollout:,} "
                               f"observations of {obs_size:,} values and masks of {n_actions:,} actions, about "
                               f"{need / 2**30:,.1f} GiB; at most {limit:.0f} GiB: lower n_steps or n_envs")
    need = cfg["pretrain_samples"] * (2 * obs_size + 5 * n_actions)
    if need > MAX_RUN_ARRAY_BYTES:
        raise TrainConfigError(f"config key 'pretrain_samples': {cfg['pretrain_samples']:,} warm-start states of "
                               f"{obs_size:,} observation values and {n_actions:,} actions need about "
                               f"{need / 2**30:,.1f} GiB; at most {limit:.0f} GiB: ask for fewer")


def config_file(p: Path) -> Path:
    """The file that ``--config p`` names: ``p`` itself, or for a bare name that is not a file here the shipped
    config of that name in ``training/configs/``, with or without its ``.toml`` (``p`` unchanged when there is
    neither)."""
    if not os.path.lexists(p) and p.parent == Path("."):  # os.path: False, not an OSError, for too long a name
        for name in (p.name, p.name + ".toml") if p.suffix != ".toml" else (p.name,):
            if os.path.isfile(CONFIG_DIR / name):
                return CONFIG_DIR / name
    return p


def read_toml(p: Path) -> tuple[Path, dict]:
    """``(path, table)`` of a TOML config file; a bare name is also looked up in ``training/configs/``.

    Read with the safe reader of content files: a regular file (not a directory, FIFO or device) of at
    most :data:`MAX_CONFIG_BYTES`, UTF-8, nesting and dotted keys at most 6 deep, at most 2,000 keys.

    Raises:
        TrainConfigError: a NUL byte in the path, a missing, unreadable, oversized or non-UTF-8 file, too
            deep a nesting or too many keys, a TOML syntax error, or a file that sets no key.
    """
    from monolith_envs.core.content import ContentError, parse_toml, read_text

    text = str(p)
    if "\x00" in text:
        raise TrainConfigError(f"config file {text.replace(chr(0), '?')!r}: the path contains a NUL byte")
    p = config_file(p)
    if not os.path.lexists(p):
        if p.suffix != ".toml" and os.path.isfile(config_file(Path(text + ".toml"))):
            raise TrainConfigError(f"config file {text!r} not found; did you mean {text + '.toml'!r}?")
        names = sorted(x.name for x in CONFIG_DIR.glob("*.toml"))
        ppo = ", ".join(x for x in names if not x.startswith("az_"))
        az = ", ".join(x for x in names if x.startswith("az_"))
        raise TrainConfigError(f"config file {text!r} not found; shipped configs (training/configs/): {ppo}; "
                               f"for python -m training.az: {az}")
    try:
        raw = parse_toml(read_text(p, MAX_CONFIG_BYTES), str(p), max_depth=6, int_limit=2**130, label="key",
                         max_keys=2000)
    except ContentError as e:
        raise TrainConfigError(f"config file {e}") from None
    if not raw:  # most likely a mistake: it would run the built-in defaults, not a shipped recipe
        raise TrainConfigError(f"config file {text!r} sets no key (it is empty or holds only comments); a config "
                               "names at least its game and budget (env_id, total_timesteps, ...; --list-keys "
                               "lists every key)")
    return p, raw


def load_config(path: str | Path | None = None) -> dict:
    """Read and validate a TOML config (default: ``training/configs/monolith_arena_2p.toml``).

    ``name`` defaults to the file's stem.

    Raises:
        TrainConfigError: missing file, TOML syntax error, unknown key or wrong type.
    """
    p, raw = read_toml(Path(path) if path is not None else DEFAULT_CONFIG)
    cfg = validate(raw)
    if not cfg["name"]:
        cfg["name"] = p.stem
    return cfg


def _parse_value(text: str, item: str = "") -> Any:
    """A ``--set`` value: a TOML literal (read by the bounded reader), else the text as a bare string (see
    :func:`apply_overrides` for ``True`` / ``False``)."""
    from monolith_envs.core.content import ContentError, parse_toml

    if len(text) > MAX_CONFIG_BYTES:
        raise TrainConfigError(f"override {item[:40]!r}...: value of {len(text)} characters is too long; at most "
                               f"{MAX_CONFIG_BYTES}")
    try:
        return parse_toml(f"v = {text}", "--set", max_depth=6, int_limit=2**130, max_keys=2000)["v"]
    except ContentError as e:
        if e.problem.startswith("TOML syntax error"):
            return text  # a bare word is a string
        raise TrainConfigError(f"override {item[:60]!r}: {e.problem}; allowed: {e.allowed}") from None


def apply_overrides(cfg: Mapping[str, Any], overrides: list[str], keys: Mapping[str, Key] | None = None,
                    validator: Any = None) -> dict:
    """Apply ``key=value`` overrides (``table.key=value`` for an entry of a table key) and revalidate.

    ``keys`` / ``validator``: another trainer's key table and ``validate`` (default: this module's).

    Raises:
        TrainConfigError: malformed override, unknown key, or wrong type.
    """
    by_name = _BY_NAME if keys is None else keys
    out = copy.deepcopy(dict(cfg))  # nested tables (the schedule's phases) are not shared with ``cfg``
    for item in overrides:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise TrainConfigError(f"override {item!r} is not key=value")
        value = _parse_value(text.strip(), item)
        top, dot, sub = key.partition(".")
        if top not in by_name:
            hint = unknown_key_hint(out, by_name, top, text.strip())
            raise TrainConfigError(f"unknown config key {top!r} in override {item!r}{hint}; valid keys: "
                                   f"{', '.join(by_name)}")
        # Python's True / False: booleans for a boolean key and for the game's settings (env_config), where
        # no string value is spelled so; a string key keeps the text
        if value in ("True", "False") and (by_name[top].type is bool or (dot and by_name[top].type is dict)):
            value = value == "True"
        if dot:
            if by_name[top].type is not dict:
                raise TrainConfigError(f"config key {top!r} is not a table; cannot set {key!r}")
            out[top] = dict(out.get(top) or {})
            out[top][sub] = value
        else:
            out[top] = value
    return (validator or validate)(out)
