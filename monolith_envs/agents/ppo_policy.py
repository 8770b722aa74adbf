"""The policy settings of a MaskablePPO model file, checked before the policy is built
(:func:`check_policy`, called by :func:`monolith_envs.agents.ppo.load_maskable_ppo`): a known class for each
role (policy, feature extractor, activation, optimizer, rollout buffer), known ``policy_kwargs`` keys,
bounded feature-extractor settings, and at most :data:`~monolith_envs.agents.model_files.MAX_PARAMS` weights
counted on torch's ``meta`` device (nothing allocated).  Every failure is a
:class:`~monolith_envs.agents.model_files.ModelFileError` naming the file and the setting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .model_files import MAX_PARAMS, MAX_SPACE_ELEMENTS, ModelFileError, brief, short_error

__all__ = ["check_policy", "check_weight_names"]

_SB3_POLICIES = "sb3_contrib.common.maskable.policies"
_LAYERS = "stable_baselines3.common.torch_layers"
_ACT = "torch.nn.modules.activation"
#: the classes an untrusted file may name for each role (the unpickler allows more: spaces, numpy, ...)
_ROLES: dict[str, frozenset[tuple[str, str]]] = {
    "policy_class": frozenset({(_SB3_POLICIES, "MaskableActorCriticPolicy"),
                               (_SB3_POLICIES, "MaskableMultiInputActorCriticPolicy"),
                               ("training.aligned", "AlignedMaskablePolicy")}),
    "features_extractor_class": frozenset({(_LAYERS, "FlattenExtractor"), (_LAYERS, "CombinedExtractor"),
                                           ("monolith_envs.agents.sb3_features", "PieceEncoder"),
                                           ("training.aligned", "RowAttentionEncoder")}),
    "activation_fn": frozenset({(_ACT, n) for n in ("ReLU", "Tanh", "GELU", "SiLU", "ELU", "LeakyReLU")}),
    "optimizer_class": frozenset({("torch.optim.adam", "Adam")}),
    "rollout_buffer_class": frozenset({("sb3_contrib.common.maskable.buffers", "MaskableRolloutBuffer"),
                                       ("sb3_contrib.common.maskable.buffers", "MaskableDictRolloutBuffer")}),
}
_POLICY_KEYS = {"net_arch", "activation_fn", "ortho_init", "features_extractor_class", "features_extractor_kwargs",
                "share_features_extractor", "normalize_images", "optimizer_class", "optimizer_kwargs", "head"}
#: integer settings of the feature extractors and the aligned head, and their largest values (those of
#: training.config, whose models must load); "rows" counts observation rows
_SETTING_MAX = {"row_dim": 4096, "features_dim": 8192, "d": 4096, "global_dim": 8192, "layers": 64, "heads": 64,
                "hidden": 8192, "cnn_output_dim": 8192, "rows": MAX_SPACE_ELEMENTS}
_MAX_PIECES = 256
_MAX_FAMILIES = 1024


def _ints(v: Any, n: int | None, hi: int, lo: int = 0) -> bool:
    return (isinstance(v, (list, tuple)) and (n is None or len(v) == n)
            and all(type(x) is int and lo <= x <= hi for x in v))


def _check_settings(path: Path, where: str, kw: Any) -> None:
    """The keyword arguments of a feature extractor (or the aligned ``head``): known keys, bounded values."""
    if not isinstance(kw, dict):
        raise ModelFileError(f"{path}: {where} must be a dict, got {brief(kw)}")
    known = set(_SETTING_MAX) | {"pieces", "anchor", "families", "normalized_image"}
    for k, v in kw.items():
        if k in _SETTING_MAX:
            ok = type(v) is int and 1 <= v <= _SETTING_MAX[k]
            want = f"an integer from 1 to {_SETTING_MAX[k]}"
        elif k == "pieces":
            ok = isinstance(v, (list, tuple)) and len(v) <= _MAX_PIECES and all(_ints(t, 3, MAX_SPACE_ELEMENTS) for t in v)
            want = f"a list of at most {_MAX_PIECES} [offset, rows, width] triples"
        elif k == "anchor":
            ok, want = _ints(v, 3, MAX_SPACE_ELEMENTS), "an [offset, rows, width] triple"
        elif k == "families":
            ok = isinstance(v, (list, tuple)) and len(v) <= _MAX_FAMILIES and all(
                isinstance(f, (list, tuple)) and len(f) == 3 and type(f[0]) is int and 0 <= f[0] <= MAX_SPACE_ELEMENTS
                and _ints(f[1], None, MAX_SPACE_ELEMENTS) and len(f[1]) <= 8 and type(f[2]) is int and -1 <= f[2] < 8
                for f in v)
            want = f"a list of at most {_MAX_FAMILIES} [size, shape, axis] entries"
        elif k == "normalized_image":
            ok, want = type(v) is bool, "a bool"
        else:
            raise ModelFileError(f"{path}: unknown setting {brief(k, 40)} in {where}; known: {sorted(known)}")
        if not ok:
            raise ModelFileError(f"{path}: {where}[{k!r}] must be {want}, got {brief(v)}")


def check_policy(path: Path, data: dict, objs: dict[str, Any]) -> None:
    """Refuse a policy that names a class outside its role, has unknown or out-of-range settings
    (``policy_kwargs``, the feature extractor's ``features_extractor_kwargs``, the aligned ``head``), or would
    have more than :data:`MAX_PARAMS` weights.  The weights are counted on torch's ``meta`` device, which
    allocates nothing, after every setting that sets a size or a count is bounded.

    Raises:
        ModelFileError: the first problem, naming the entry and what is allowed.
    """
    for key in ("policy_class", "rollout_buffer_class"):
        if key in objs and not _is_role(objs[key], key):
            raise ModelFileError(f"{path}: entry {key!r} must be one of {_role_names(key)}, got {brief(objs[key])}")
    kwargs = objs.get("policy_kwargs", data.get("policy_kwargs")) or {}
    if not isinstance(kwargs, dict) or not all(type(k) is str for k in kwargs):
        raise ModelFileError(f"{path}: policy_kwargs must be a dict, got {brief(kwargs)}")
    unknown = sorted(set(kwargs) - _POLICY_KEYS)
    if unknown:
        raise ModelFileError(f"{path}: unknown policy_kwargs key {brief(unknown[0], 40)}; known: {sorted(_POLICY_KEYS)}")
    for key in ("features_extractor_class", "activation_fn", "optimizer_class"):
        if key in kwargs and not _is_role(kwargs[key], key):
            raise ModelFileError(f"{path}: policy_kwargs[{key!r}] must be one of {_role_names(key)}, "
                                 f"got {brief(kwargs[key])}")
    for key in ("ortho_init", "share_features_extractor", "normalize_images"):
        if key in kwargs and type(kwargs[key]) is not bool:
            raise ModelFileError(f"{path}: policy_kwargs[{key!r}] must be a bool, got {brief(kwargs[key])}")
    opt = kwargs.get("optimizer_kwargs", {})
    if not (isinstance(opt, dict) and len(opt) <= 16 and all(
            type(k) is str and (v is None or type(v) in (int, float, bool) or _floats(v)) for k, v in opt.items())):
        raise ModelFileError(f"{path}: policy_kwargs['optimizer_kwargs'] must be a dict of numbers, got {brief(opt)}")
    for key in ("features_extractor_kwargs", "head"):
        if key in kwargs:
            _check_settings(path, f"policy_kwargs[{key!r}]", kwargs[key])
    _count_weights(path, objs.get("policy_class"), objs.get("observation_space"), objs.get("action_space"), kwargs)


def _floats(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and len(v) <= 4 and all(type(x) in (int, float) for x in v)


def _is_role(v: Any, role: str) -> bool:
    return isinstance(v, type) and (v.__module__, v.__name__) in _ROLES[role]


def _role_names(role: str) -> list[str]:
    return sorted(f"{m}.{n}" for m, n in _ROLES[role])


def _count_weights(path: Path, cls: Any, obs: Any, act: Any, kwargs: dict) -> None:
    import gymnasium as gym

    if not (_is_role(cls, "policy_class") and isinstance(obs, gym.spaces.Space) and isinstance(act, gym.spaces.Space)):
        return  # a trusted file SB3 decodes itself; an untrusted one was refused before
    import torch

    try:
        # shapes only: nothing is allocated or initialised (the subclass keeps SB3's .to(policy.device) on meta)
        meta = type(cls.__name__, (cls,), {"device": property(lambda self: torch.device("meta"))})
        with torch.device("meta"):
            policy = meta(obs, act, lambda _: 0.0, **kwargs)
        count = sum(t.numel() for t in policy.parameters()) + sum(t.numel() for t in policy.buffers())
    except Exception as e:  # noqa: BLE001  (settings the policy refuses are a file error, not a traceback)
        raise ModelFileError(f"{path}: the policy cannot be built from its settings ({short_error(e)})") from None
    if count > MAX_PARAMS:
        raise ModelFileError(f"{path}: the policy would have {count} weights, more than the {MAX_PARAMS} allowed")


#: prefixes of the two feature-extractor copies that SB3 before 1.7 did not save (they share ``features_extractor``)
_SPLIT_EXTRACTORS = ("pi_features_extractor.", "vf_features_extractor.")


def check_weight_names(path: Path, fh: Any, expected: Any, shared: bool) -> None:
    """Every weight of the built policy (``expected``: its ``state_dict()`` names) is in the zip's
    ``policy.pth`` (``fh``: the opened zip). SB3 loads a file without some of them (it takes it for a model
    of SB3 before 1.7 and lets the missing weights keep their random initial values); here only the two
    feature-extractor copies of such a model may be missing, when the policy shares one extractor between
    actor and critic (``shared``: its ``share_features_extractor``) and the shared ``features_extractor``
    weights they copy are in the file.

    Raises:
        ModelFileError: weights missing from ``policy.pth`` (the first ones named), or an entry that cannot be
            read as a dict of tensors with ``torch.load(weights_only=True)``.
    """
    import io
    import zipfile

    import torch

    try:
        fh.seek(0)
        with zipfile.ZipFile(fh) as z:
            saved = torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu", weights_only=True)
        if not isinstance(saved, dict):
            raise ValueError(f"a {type(saved).__name__}, not a dict of tensors")
    except Exception as e:  # noqa: BLE001  (any unreadable entry is this file's error)
        raise ModelFileError(f"{path}: entry 'policy.pth' is not readable as the policy's weights "
                             f"({short_error(e)})") from None
    names = set(saved)
    missing = [k for k in expected if k not in names
               and not (shared and k.startswith(_SPLIT_EXTRACTORS)
                        and "features_extractor." + k.split(".", 1)[1] in names)]
    if missing:
        raise ModelFileError(f"{path}: entry 'policy.pth' lacks {len(missing)} of the policy's {len(list(expected))} "
                             f"weights ({', '.join(brief(k, 60) for k in missing[:3])}{', ...' if len(missing) > 3 else ''}); "
                             "the file is incomplete or of another network")
