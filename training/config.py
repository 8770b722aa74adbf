"""Training configs: TOML files in ``training/configs/`` with documented keys, validated strictly.

Every key, its type, default and meaning is in :data:`KEYS` (``python -m training.train --list-keys``
prints them).  Unknown keys raise :class:`TrainConfigError` listing the valid ones; ``--set key=value``
overrides use the same names (``env_config.reward_mode=score`` sets one entry of a table; values are TOML
literals, bare words are strings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomllib

__all__ = [
    "CONFIG_DIR",
    "DEFAULT_CONFIG",
    "KEYS",
    "TrainConfigError",
    "apply_overrides",
    "describe_keys",
    "load_config",
    "validate",
]

CONFIG_DIR = Path(__file__).parent / "configs"
DEFAULT_CONFIG = CONFIG_DIR / "monolith_arena_2p.toml"


class TrainConfigError(ValueError):
    """A config key that does not exist, a value of the wrong type, or an unreadable config file."""


@dataclass(frozen=True)
class Key:
    """One config key: name, accepted Python type(s), default, one-line meaning."""

    name: str
    type: type | tuple[type, ...]
    default: Any
    doc: str


KEYS: tuple[Key, ...] = (
    Key("name", str, "", "run name; outputs go to <out_dir>/<name>/ (default: the config file's stem)"),
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
    Key("pretrain_samples", int, 0, "decision states for a warm start before PPO (0 = none)"),
    Key("pretrain_targets", str, "teacher", "warm start: 'teacher' (behaviour cloning of pretrain_teacher) or "
        "'values' (distil softmax(state_value of each legal action / pretrain_tau), training/pretrain.py)"),
    Key("pretrain_tau", float, 0.02, "with pretrain_targets='values': temperature of the soft targets"),
    Key("pretrain_teacher", str, "heuristic", "agent spec of the behaviour-cloning teacher"),
    Key("pretrain_opponents", list, ["random"], "agent specs the teacher plays against while collecting"),
    Key("pretrain_epochs", int, 5, "behaviour-cloning epochs over the samples"),
    Key("pretrain_lr", float, 1e-3, "behaviour-cloning Adam learning rate"),
    Key("opponent_mix", dict, {"self": 0.5, "random": 0.25, "heuristic": 0.25},
        "opponent kinds and weights: 'self' = a frozen snapshot of the learner, else an agent spec"),
    Key("pool_size", int, 5, "newest snapshots kept in the self-play pool"),
    Key("snapshot_every", int, 10_000, "learner steps between snapshots added to the pool"),
    Key("eval_every", int, 20_000, "learner steps between evaluations for the learning curve (0 = never)"),
    Key("eval_games", int, 20, "games per fixed opponent at each periodic evaluation"),
    Key("eval_opponents", list, ["random", "heuristic"], "fixed opponents (agent specs) for evaluations"),
    Key("final_eval_games", int, 100, "games per fixed opponent in the final evaluation"),
    Key("eval_workers", int, 2, "worker processes of the final evaluation"),
    Key("checkpoint_every", int, 50_000, "learner steps between checkpoints (0 = only the final model)"),
    Key("progress_bar", bool, True, "show a tqdm progress bar"),
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
    if bool not in types and isinstance(value, bool):
        raise TrainConfigError(f"config key {key.name!r}: expected {key.type}, got bool {value!r}")
    if not isinstance(value, types):
        names = "|".join(t.__name__ for t in types)
        raise TrainConfigError(f"config key {key.name!r}: expected {names}, got {type(value).__name__} {value!r}")
    return value


def validate(cfg: Mapping[str, Any]) -> dict:
    """Merge ``cfg`` over the defaults and check every key and type.

    Raises:
        TrainConfigError: an unknown key (the message lists the valid keys) or a wrong type.
    """
    unknown = [k for k in cfg if k not in _BY_NAME]
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
    if out["pretrain_samples"] < 0:
        raise TrainConfigError(f"config key 'pretrain_samples': must be >= 0, got {out['pretrain_samples']}")
    for k in ("total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "pool_size", "torch_threads",
              "eval_workers", "row_dim", "features_dim", "token_dim", "attention_layers", "head_hidden"):
        if out[k] < 1:
            raise TrainConfigError(f"config key {k!r}: must be >= 1, got {out[k]}")
    return out


def read_toml(p: Path) -> tuple[Path, dict]:
    """``(path, table)`` of a TOML config file; a bare name is also looked up in ``training/configs/``.

    Raises:
        TrainConfigError: missing file or TOML syntax error.
    """
    if not p.exists() and (CONFIG_DIR / p).exists():
        p = CONFIG_DIR / p
    try:
        with open(p, "rb") as f:
            return p, tomllib.load(f)
    except FileNotFoundError:
        avail = ", ".join(sorted(x.name for x in CONFIG_DIR.glob("*.toml")))
        raise TrainConfigError(f"config file {str(p)!r} not found; shipped configs: {avail}") from None
    except tomllib.TOMLDecodeError as e:
        raise TrainConfigError(f"{p}: TOML syntax error: {e}") from None


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


def _parse_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text  # a bare word is a string


def apply_overrides(cfg: Mapping[str, Any], overrides: list[str], keys: Mapping[str, Key] | None = None,
                    validator: Any = None) -> dict:
    """Apply ``key=value`` overrides (``table.key=value`` for an entry of a table key) and revalidate.

    ``keys`` / ``validator``: another trainer's key table and ``validate`` (default: this module's).

    Raises:
        TrainConfigError: malformed override, unknown key, or wrong type.
    """
    by_name = _BY_NAME if keys is None else keys
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in cfg.items()}
    for item in overrides:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise TrainConfigError(f"override {item!r} is not key=value")
        value = _parse_value(text.strip())
        top, dot, sub = key.partition(".")
        if top not in by_name:
            raise TrainConfigError(f"unknown config key {top!r} in override {item!r}; valid keys: "
                                   f"{', '.join(by_name)}")
        if dot:
            if by_name[top].type is not dict:
                raise TrainConfigError(f"config key {top!r} is not a table; cannot set {key!r}")
            out[top] = dict(out.get(top) or {})
            out[top][sub] = value
        else:
            out[top] = value
    return (validator or validate)(out)
