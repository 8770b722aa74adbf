"""``MaskablePPOAgent``: a trained sb3-contrib MaskablePPO policy behind the Agent protocol.

The action mask is passed to the policy on every call (``predict(..., action_masks=mask)``), so the agent
never picks an illegal action.

**Model files are untrusted by default.**  An SB3 ``.zip`` stores some of its entries (the policy class,
its keyword arguments, the spaces, the schedules) as pickles, and unpickling can run any code the file
names.  :func:`load_maskable_ppo` therefore never unpickles with the ordinary unpickler unless asked to:
every pickled entry of the zip's ``data`` is decoded by a restricted unpickler that only builds an allowed
list of classes (:data:`ALLOWED_GLOBALS`: gymnasium spaces, numpy arrays and dtypes, SB3 / sb3-contrib
policies, schedules and feature extractors, torch activation modules, this project's encoders) and is
handed to SB3 as ``custom_objects``, so SB3 never unpickles it itself; the tensors are read by
``torch.load(weights_only=True)`` (SB3's default).  A file that names anything else is refused with a
:class:`ModelTrustError`.  Pass ``trusted=True`` (command lines: ``--trust-model-files``; environment:
``MONOLITH_ENVS_TRUST_MODELS=1``, which spawned worker processes inherit) only for files you made or trust.
"""

from __future__ import annotations

import base64
import io
import json
import os
import pickle
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .base import AgentError, BaseAgent

__all__ = ["ALLOWED_GLOBALS", "MaskablePPOAgent", "ModelTrustError", "TRUST_ENV_VAR", "load_maskable_ppo",
           "trust_models_from_env"]

#: environment variable that marks every model file as trusted (``1``); set by ``--trust-model-files``
TRUST_ENV_VAR = "MONOLITH_ENVS_TRUST_MODELS"
#: largest ``data`` entry read from a model zip (bytes)
MAX_DATA_BYTES = 16 * 2**20

_NUMPY = {("numpy", "dtype"), ("numpy", "ndarray"), ("numpy", "float32"), ("numpy", "float64"), ("numpy", "int64"),
          ("numpy", "int8"), ("numpy", "bool_")}
for _m in ("numpy._core", "numpy.core"):
    _NUMPY |= {(f"{_m}.numeric", "_frombuffer"), (f"{_m}.multiarray", "scalar"), (f"{_m}.multiarray", "_reconstruct")}
#: a space's seeded generator (``space.np_random``)
_NUMPY |= {("numpy.random._pickle", "__generator_ctor"), ("numpy.random._pickle", "__bit_generator_ctor"),
           ("numpy.random._pickle", "__randomstate_ctor"), ("numpy.random._pcg64", "PCG64"),
           ("numpy.random._generator", "Generator"), ("numpy.random._mt19937", "MT19937"),
           ("numpy.random.bit_generator", "SeedSequence"),
           ("numpy.random.bit_generator", "__pyx_unpickle_SeedSequence")}
#: ``(module, name)`` pairs the restricted unpickler may build; nothing else is ever imported or called
ALLOWED_GLOBALS: frozenset[tuple[str, str]] = frozenset(_NUMPY | {
    ("gymnasium.spaces.box", "Box"), ("gymnasium.spaces.discrete", "Discrete"),
    ("gymnasium.spaces.multi_discrete", "MultiDiscrete"), ("gymnasium.spaces.multi_binary", "MultiBinary"),
    ("gymnasium.spaces.dict", "Dict"), ("collections", "OrderedDict"), ("collections", "deque"),
    ("sb3_contrib.common.maskable.policies", "MaskableActorCriticPolicy"),
    ("sb3_contrib.common.maskable.policies", "MaskableMultiInputActorCriticPolicy"),
    ("sb3_contrib.common.maskable.buffers", "MaskableRolloutBuffer"),
    ("sb3_contrib.common.maskable.buffers", "MaskableDictRolloutBuffer"),
    ("stable_baselines3.common.utils", "FloatSchedule"), ("stable_baselines3.common.utils", "ConstantSchedule"),
    ("stable_baselines3.common.utils", "LinearSchedule"),
    ("stable_baselines3.common.torch_layers", "FlattenExtractor"),
    ("stable_baselines3.common.torch_layers", "CombinedExtractor"),
    ("torch.nn.modules.activation", "ReLU"), ("torch.nn.modules.activation", "Tanh"),
    ("torch.nn.modules.activation", "GELU"), ("torch.nn.modules.activation", "SiLU"),
    ("torch.nn.modules.activation", "ELU"), ("torch.nn.modules.activation", "LeakyReLU"),
    ("torch.optim.adam", "Adam"),
    ("training.features", "PieceEncoder"),
    ("training.aligned", "AlignedMaskablePolicy"), ("training.aligned", "RowAttentionEncoder"),
})
#: the entries acting needs; any other entry (schedules, buffers, episode statistics, ...) is only read by
#: training, and one that the restricted unpickler refuses is replaced by a default instead
_NEEDED = ("policy_class", "policy_kwargs", "observation_space", "action_space")


class ModelTrustError(AgentError):
    """A model file that cannot be loaded without running code from it (names the file and the entry)."""


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in ALLOWED_GLOBALS:
            raise pickle.UnpicklingError(f"{module}.{name} is not an allowed class")
        return super().find_class(module, name)


def trust_models_from_env() -> bool:
    """True when the environment marks model files as trusted (``MONOLITH_ENVS_TRUST_MODELS=1``)."""
    return os.environ.get(TRUST_ENV_VAR, "") == "1"


def _safe_objects(path: Path) -> dict[str, Any]:
    """Decode every pickled entry of the zip's ``data`` with the restricted unpickler (``custom_objects``).

    Raises:
        ModelTrustError: not a zip, no or oversized ``data`` entry, or an entry that needs a class outside
            :data:`ALLOWED_GLOBALS` (and is needed for acting).
    """
    try:
        with zipfile.ZipFile(path) as z:
            info = z.getinfo("data")
            if info.file_size > MAX_DATA_BYTES:
                raise ModelTrustError(f"{path}: entry 'data' is {info.file_size} bytes (at most {MAX_DATA_BYTES})")
            data = json.loads(z.read("data").decode("utf-8"))
    except (zipfile.BadZipFile, KeyError, UnicodeDecodeError, json.JSONDecodeError, OSError) as e:
        raise ModelTrustError(f"{path}: not a readable SB3 model zip ({e})") from None
    if not isinstance(data, dict):
        raise ModelTrustError(f"{path}: entry 'data' is not a JSON object")
    out: dict[str, Any] = {}
    for key, item in data.items():
        if not (isinstance(item, dict) and ":serialized:" in item):
            continue
        try:
            raw = base64.b64decode(str(item[":serialized:"]).encode(), validate=False)
            out[key] = _RestrictedUnpickler(io.BytesIO(raw)).load()
        except Exception as e:  # noqa: BLE001  (any failure of a hostile pickle is a refusal)
            if key not in _NEEDED:
                out[key] = _training_default(key)
                continue
            raise ModelTrustError(
                f"{path}: entry {key!r} cannot be loaded without running code from the file ({e}); if you made "
                f"this file or trust it, pass --trust-model-files (or set {TRUST_ENV_VAR}=1)") from None
    return out


def _training_default(key: str) -> Any:
    if key == "rollout_buffer_class":
        from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

        return MaskableRolloutBuffer
    if key == "rollout_buffer_kwargs":
        return {}
    if key in ("lr_schedule", "clip_range", "clip_range_vf"):
        from stable_baselines3.common.utils import FloatSchedule

        return FloatSchedule(0.0)
    return None


def load_maskable_ppo(path: str | Path, device: str = "cpu", trusted: bool | None = None):
    """Load a saved ``sb3_contrib.MaskablePPO`` model (``.zip``) on ``device``.

    Args:
        path: the model file (``.zip`` may be left off).
        device: torch device.
        trusted: False decodes the pickled entries with the restricted unpickler (see the module docstring);
            True lets SB3 unpickle them as it does by default (runs whatever the file names).  ``None``
            (default): :func:`trust_models_from_env`.

    Raises:
        FileNotFoundError: no such file.
        ModelTrustError: an untrusted file that needs code outside :data:`ALLOWED_GLOBALS`.
    """
    from sb3_contrib import MaskablePPO

    p = Path(path)
    if not p.exists() and Path(str(p) + ".zip").exists():
        p = Path(str(p) + ".zip")
    if not p.is_file():
        raise FileNotFoundError(f"no MaskablePPO model at {p}")
    if trusted is None:
        trusted = trust_models_from_env()
    if trusted:
        return MaskablePPO.load(str(p), device=device)
    return MaskablePPO.load(str(p), device=device, custom_objects=_safe_objects(p))


class MaskablePPOAgent(BaseAgent):
    """Acts with a MaskablePPO model (or anything with the same ``predict`` / ``policy`` interface).

    Args:
        model: a ``MaskablePPO`` model, or a path to a saved one (loaded by :func:`load_maskable_ppo`).
        deterministic: True (default) takes the most probable legal action (``predict(deterministic=True)``);
            False samples from the masked action distribution with the agent's ``rng`` (reproducible).
        name: display name.
        trusted: passed to :func:`load_maskable_ppo` for a path (default: untrusted unless the environment
            says otherwise).

    ``act(observation float32[obs_size], action_mask int8[n], rng) -> int``.

    Raises:
        AgentError: ``act`` without a mask, or with a mask that has no legal action.
        ModelTrustError: see :func:`load_maskable_ppo`.
    """

    def __init__(self, model: Any, deterministic: bool = True, name: str = "ppo", trusted: bool | None = None):
        super().__init__()
        self.model = load_maskable_ppo(model, trusted=trusted) if isinstance(model, (str, Path)) else model
        self.deterministic = deterministic
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray | None, rng: np.random.Generator) -> int:
        if action_mask is None:
            raise AgentError("MaskablePPOAgent.act needs the action mask")
        mask = np.asarray(action_mask).astype(bool)
        if not mask.any():
            raise AgentError("the action mask has no legal action")
        if self.deterministic:
            action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
            return int(action)
        probs = self.action_probabilities(observation, mask)
        return int(rng.choice(probs.size, p=probs))

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """``float64[n]`` probabilities of the masked policy (zero on illegal actions, sums to 1)."""
        import torch

        policy = self.model.policy
        obs_t, _ = policy.obs_to_tensor(observation)
        with torch.no_grad():
            dist = policy.get_distribution(obs_t, action_masks=np.asarray(action_mask, bool)[None])
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs[~np.asarray(action_mask, bool)] = 0.0
        return probs / probs.sum()
