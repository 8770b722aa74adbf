"""Start PPO from the weights of a pretrained baseline (config key ``init_from``) instead of a warm start.

``init_from = "arena_2p"`` names a baseline of the package (``monolith_envs/baselines/index.json``); a value
ending in ``.pt`` is a baseline file written by ``python -m training.export_baseline`` elsewhere. The file is
read as plain tensors (``torch.load(weights_only=True)``, through the package's baseline loader), and its
encoder, policy and value MLPs and heads are copied into the SB3 ``MaskableActorCriticPolicy`` of the run:
the inverse of :func:`training.export_baseline.weights_of`. The PPO optimizer starts fresh.

The config must build the same network: ``features = "pieces"`` with the file's ``row_dim``,
``features_dim`` and ``net_arch``, on the file's env id with the same ``num_players`` and ``mode``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from monolith_envs.core.config import short_repr

__all__ = ["InitFromError", "load_init", "apply_init", "config_differences", "start_from_baseline", "ARCH_KEYS"]

#: the config keys a baseline file fixes (its metadata has the same names)
ARCH_KEYS = ("row_dim", "features_dim")
#: what to do with a model file of training.train, which is not a baseline file
_EXPORT_HINT = "python -m training.export_baseline RUN_DIR --name NAME and give the .pt file it writes"
#: SB3 policy state-dict prefix -> baseline weight prefix
_PREFIXES = (("features_extractor.", "encoder."), ("pi_features_extractor.", "encoder."),
             ("vf_features_extractor.", "encoder."), ("mlp_extractor.policy_net.", "pi."),
             ("mlp_extractor.value_net.", "vf."), ("action_net.", "action."), ("value_net.", "value."))


class InitFromError(ValueError):
    """``init_from`` names no baseline, or one whose network or game differs from the config's."""


def _is_sb3_zip(path: Path) -> bool:
    """Whether ``path`` is a zip holding SB3's ``policy.pth`` (a model file of ``training.train``)."""
    import zipfile

    from monolith_envs.agents.model_files import ModelFileError, open_regular

    try:
        with open_regular(path) as fh, zipfile.ZipFile(fh) as z:  # a FIFO is refused, never waited on
            return "policy.pth" in z.namelist()
    except (OSError, zipfile.BadZipFile, ValueError, ModelFileError):
        return False


def _game(cfg: dict) -> Any:
    """The run's game (built once for the checks of one start: :func:`load_init` and :func:`config_differences`)."""
    return _game_of(cfg["env_id"], json.dumps(cfg["env_config"], sort_keys=True))


@functools.lru_cache(maxsize=4)
def _game_of(env_id: str, env_config_json: str) -> Any:
    import monolith_envs

    return monolith_envs.make_game(env_id, **json.loads(env_config_json))


def load_init(cfg: dict) -> tuple[Any, dict]:
    """The baseline network and metadata that ``cfg["init_from"]`` names, checked against the config.

    Raises:
        InitFromError: an unknown name (the message lists the baselines), a missing or refused file, another
            env id, ``num_players`` or ``mode``, a network of other sizes, piece layout or activation than the
            config builds (the run's policy uses Tanh, SB3's default).
    """
    from monolith_envs.agents.baselines.net import load_baseline_file
    from monolith_envs.agents.baselines.registry import list_baselines, load_baseline
    from monolith_envs.agents.model_files import ModelFileError
    from training.features import piece_layout

    spec = cfg["init_from"]
    entries = {e["name"]: e for e in list_baselines()}
    try:
        if spec.endswith(".pt"):
            path = Path(spec)
            if not path.exists() and path.stem in entries and path.parent == Path("."):
                raise InitFromError(f"config key 'init_from': no file {short_repr(spec)}; a baseline of the package is "
                                    f"named without .pt: init_from = {path.stem!r}")
            net, meta = load_baseline_file(path)
        else:
            if spec not in entries:
                hint = f" (an SB3 model: export it first with {_EXPORT_HINT})" if spec.endswith(".zip") else ""
                raise InitFromError(f"config key 'init_from': no baseline named {short_repr(spec)}{hint}; the package has "
                                    f"{', '.join(sorted(entries))}, or give a baseline file's path ending in .pt")
            net, meta = load_baseline(entries[spec])
    except InitFromError:
        raise
    except (OSError, ValueError, ModelFileError) as e:
        why = str(e).removeprefix(f"{spec}: ")
        hint = f" (it holds an SB3 model: export the run with {_EXPORT_HINT})" if _is_sb3_zip(Path(spec)) else ""
        raise InitFromError(f"config key 'init_from': {short_repr(spec)} could not be loaded: {why}{hint}") from None
    problems = []
    if meta["env_id"] != cfg["env_id"]:
        problems.append(f"env id {meta['env_id']} (config: {cfg['env_id']})")
    else:
        game = _game(cfg)
        for key in ("num_players", "mode"):
            have, want = meta["env_config"].get(key), game.config.get(key)
            if have != want:
                problems.append(f"{key} {have} (config: {want})")
        if not problems and [list(t) for t in meta["pieces"]] != [list(t) for t in piece_layout(game.obs_spec)]:
            problems.append("another piece layout of the observation (another version of the game's observation)")
    if cfg["features"] != "pieces":
        problems.append(f"features 'pieces' (config: {cfg['features']!r})")
    for key in ARCH_KEYS:
        if int(meta[key]) != cfg[key]:
            problems.append(f"{key} {meta[key]} (config: {cfg[key]})")
    if list(meta["pi_arch"]) != list(cfg["net_arch"]) or list(meta["vf_arch"]) != list(cfg["net_arch"]):
        problems.append(f"net_arch {list(meta['pi_arch'])} (config: {list(cfg['net_arch'])})")
    if meta.get("activation") != "tanh":
        problems.append(f"activation {meta.get('activation')!r} (the run's policy uses 'tanh')")
    if problems:
        raise InitFromError(f"config key 'init_from': baseline {short_repr(spec)} was trained with "
                            f"{'; '.join(problems)}; set the config to match or choose another baseline")
    return net, meta


def config_differences(cfg: dict, meta: dict) -> list[str]:
    """The game config keys (other than ``num_players`` and ``mode``, which :func:`load_init` requires equal)
    whose values differ between the baseline's training and the run's config, as ``"key: baseline X, run
    Y"`` texts: a start on another variant of the game, allowed, and said on the console."""
    have = dict(meta.get("env_config") or {})
    want = dict(_game(cfg).config)
    return [f"{k}: baseline {have.get(k)!r}, run {want.get(k)!r}" for k in sorted(set(have) | set(want))
            if k not in ("num_players", "mode") and have.get(k) != want.get(k)]


def apply_init(policy: Any, net: Any) -> int:
    """Copy the weights of ``net`` (a :class:`~monolith_envs.agents.baselines.net.BaselineNet`) into the SB3
    ``policy`` in place; returns the number of tensors copied.

    Raises:
        InitFromError: a tensor of the policy that the baseline lacks or shapes differently.
    """
    import torch

    source = net.state_dict()
    state = policy.state_dict()
    new = {}
    for key, value in state.items():
        for old, prefix in _PREFIXES:
            if key.startswith(old):
                src = source.get(prefix + key[len(old):])
                if src is None or tuple(src.shape) != tuple(value.shape):
                    shape = None if src is None else tuple(src.shape)
                    raise InitFromError(f"config key 'init_from': the policy's {key} {tuple(value.shape)} has no "
                                        f"match in the baseline ({prefix + key[len(old):]}: {shape})")
                new[key] = src.detach().to(dtype=value.dtype).clone()
                break
    if not new:
        raise InitFromError("config key 'init_from': the policy has no piece-encoder weights to start from")
    with torch.no_grad():
        policy.load_state_dict({**state, **new}, strict=True)
    return len(new)


def start_from_baseline(cfg: dict, policy: Any) -> dict:
    """Load the baseline that ``cfg["init_from"]`` names into the SB3 ``policy`` (:func:`load_init`, then
    :func:`apply_init`), say so on stderr when ``cfg["progress_bar"]``, and return the run report's record of
    the start: ``{"init_from", "tensors", "baseline_training"}`` and, for another variant of the game,
    ``"game_config_differences"`` (:func:`config_differences`).

    Raises:
        training.config.TrainConfigError: the file no longer passes :func:`load_init` (it was checked before
            the run started, and may have changed since), or its tensors do not fit the policy.
    """
    import sys

    from training.config import TrainConfigError

    try:
        net, meta = load_init(cfg)
        info = {"init_from": cfg["init_from"], "tensors": apply_init(policy, net),
                "baseline_training": (meta.get("training") or {}).get("command")}
    except ValueError as e:  # InitFromError, or the game refusing the config
        raise TrainConfigError(str(e)) from None
    differ = config_differences(cfg, meta)
    if differ:
        info["game_config_differences"] = differ
    if cfg["progress_bar"]:
        print(f"start: the weights of baseline {cfg['init_from']!r} ({info['tensors']} tensors; no warm start)"
              + (f"; it was trained on another variant of the game ({'; '.join(differ)})" if differ else ""),
              file=sys.stderr, flush=True)
    return info
