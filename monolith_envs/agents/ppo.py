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

Trusted or not, a file is checked before it is unpacked: a regular file, a zip with at most
:data:`MAX_ENTRIES` entries whose declared uncompressed sizes stay under :data:`MAX_ENTRY_BYTES` each and
:data:`MAX_ZIP_BYTES` in all (``data``: :data:`MAX_DATA_BYTES`), a ``data`` JSON object, ``n_steps`` /
``n_envs`` / ``net_arch`` that build a rollout buffer and a network of bounded size, and policy settings
(:func:`check_policy`: a known class per role, bounded feature-extractor settings, at most :data:`MAX_PARAMS`
weights counted on torch's ``meta`` device) checked before the policy is built; weights must be finite, and
so must the policy's logits for an observation of zeros and one of ones (finite weights can be so large that
the network overflows; :class:`MaskablePPOAgent` checks the logits of the legal actions at every decision too).
Every failure is a :class:`ModelFileError` (:class:`ModelTrustError` for code the file would run) naming the
file and the reason.
"""

from __future__ import annotations

import base64
import json
import math
import warnings
import zipfile
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from .base import AgentError, BaseAgent, observation_vector
from .model_files import (
    MAX_PARAMS,
    NUMPY_GLOBALS,
    TRUST_ENV_VAR,
    TRUST_HINT,
    CorruptModelError,
    ModelFileError,
    ModelTrustError,
    brief,
    check_finite,
    open_regular,
    restricted_loads,
    short_error,
    trust_models_from_env,
)
from .model_kinds import mlp_params, model_kind_hint
from .pickle_limits import check_torch_file
from .ppo_policy import check_policy, check_weight_names
from .ppo_runs import MAX_RUN_CONFIG_BYTES, _seats_of, run_config_of  # noqa: F401 (re-exported)
from .puct import check_finite_outputs, check_loaded_outputs
from .torch_fork import guard_fork

__all__ = ["ALLOWED_GLOBALS", "MaskablePPOAgent", "check_policy", "read_model_zip", "ModelFileError", "ModelTrustError",
           "TRUST_ENV_VAR", "load_maskable_ppo", "trust_models_from_env"]

#: largest ``data`` entry read from a model zip (bytes)
MAX_DATA_BYTES = 16 * 2**20
#: largest declared uncompressed size of one zip entry, and of all of them (bytes), and most entries
MAX_ENTRY_BYTES = 4 * MAX_PARAMS + 2**20
MAX_ZIP_BYTES = 3 * MAX_ENTRY_BYTES
MAX_ENTRIES = 64
#: largest rollout buffer a load builds (``n_steps * n_envs * (observation size + actions)`` floats), and
#: largest ``n_steps`` / ``n_envs``
MAX_BUFFER_FLOATS = 2**28
MAX_N_STEPS = 2**20
MAX_N_ENVS = 2**12
_MAX_WIDTH = 2**16

#: ``(module, name)`` pairs the restricted unpickler may build; nothing else is ever imported or called
ALLOWED_GLOBALS: frozenset[tuple[str, str]] = frozenset(NUMPY_GLOBALS | {
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
    ("monolith_envs.agents.sb3_features", "PieceEncoder"),
    ("training.aligned", "AlignedMaskablePolicy"), ("training.aligned", "RowAttentionEncoder"),
})
#: classes of models saved before they moved into the package, read as their new place (never imported)
RENAMED_GLOBALS = {("training.features", "PieceEncoder"): ("monolith_envs.agents.sb3_features", "PieceEncoder")}
#: the entries acting needs; any other entry (schedules, buffers, episode statistics, ...) is only read by
#: training, and one that the restricted unpickler refuses is replaced by a default instead
_NEEDED = ("policy_class", "policy_kwargs", "observation_space", "action_space")


def read_model_zip(path: Path, fh: BinaryIO | None = None) -> dict:
    """The zip's ``data`` entry as a JSON object, after checking the zip's declared sizes (nothing is unpacked
    before that). ``fh``: the file already opened (:func:`~monolith_envs.agents.model_files.open_regular`),
    read from its start; None opens ``path``.

    Raises:
        FileNotFoundError: ``fh`` is None and there is no file at ``path``.
        ModelFileError: not a regular file, not a zip, too many or too large entries (declared uncompressed
            sizes over :data:`MAX_ENTRY_BYTES` / :data:`MAX_ZIP_BYTES`), no ``data`` entry, or one that is not
            a JSON object (nested too deep, not UTF-8).
    """
    if fh is None:
        with open_regular(path) as own:
            return read_model_zip(path, own)
    names: list[str] = []
    try:
        fh.seek(0)
        with zipfile.ZipFile(fh) as z:
            infos = z.infolist()
            names = [i.filename for i in infos[:MAX_ENTRIES + 1]]
            if len(infos) > MAX_ENTRIES:
                raise ModelFileError(f"{path}: {len(infos)} zip entries, more than the {MAX_ENTRIES} allowed")
            for info in infos:
                cap = MAX_DATA_BYTES if info.filename == "data" else MAX_ENTRY_BYTES
                if info.file_size > cap:
                    raise ModelFileError(f"{path}: entry {info.filename[:80]!r} unpacks to {info.file_size} "
                                         f"bytes, more than the {cap} allowed")
            total = sum(i.file_size for i in infos)
            if total > MAX_ZIP_BYTES:
                raise ModelFileError(f"{path}: the entries unpack to {total} bytes, more than the {MAX_ZIP_BYTES} "
                                     "allowed")
            data = json.loads(z.read("data").decode("utf-8"))
            for info in infos:  # torch's unpickler hashes keys: bound the nesting of each .pth before torch.load
                if info.filename.endswith(".pth"):
                    with z.open(info) as f:
                        bad = check_torch_file(f)
                    if bad is not None:
                        raise ModelFileError(f"{path}: not a loadable MaskablePPO model (entry {info.filename[:80]!r}: "
                                             f"{bad})")
    except ModelFileError:
        raise
    except RecursionError:
        raise ModelFileError(f"{path}: entry 'data' is nested too deeply") from None
    except (zipfile.BadZipFile, KeyError, UnicodeDecodeError, json.JSONDecodeError, OSError, ValueError,
            NotImplementedError, EOFError) as e:
        hint = model_kind_hint(names) if "data" not in names else ""  # an SB3 zip always has 'data'
        raise ModelFileError(f"{path}: not a readable SB3 model zip ({short_error(e)}){hint}") from None
    if not isinstance(data, dict):
        raise ModelFileError(f"{path}: entry 'data' is not a JSON object")
    return data


def _safe_objects(path: Path, data: dict) -> dict[str, Any]:
    """Decode every pickled entry of the zip's ``data`` with the restricted unpickler (``custom_objects``).

    Raises:
        ModelTrustError: an entry that needs a class outside :data:`ALLOWED_GLOBALS` (and is needed for acting).
    """
    out: dict[str, Any] = {}
    for key, item in data.items():
        if not (isinstance(item, dict) and ":serialized:" in item):
            continue
        try:
            raw = base64.b64decode(str(item[":serialized:"]).encode(), validate=False)
            out[key] = restricted_loads(raw, ALLOWED_GLOBALS, f"{path}: entry {key!r}", RENAMED_GLOBALS)
        except (ModelTrustError, CorruptModelError, ValueError) as e:
            if key not in _NEEDED:
                out[key] = _training_default(key)
                continue
            if isinstance(e, CorruptModelError):  # trusting the file would not help
                raise
            raise ModelTrustError(
                f"{path}: entry {key!r} cannot be loaded without running code from the file; {TRUST_HINT}") from None
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


def _space_size(space: Any, item: Any) -> int:
    """Floats per step of a space (a decoded one, else the ``_shape`` / ``n`` of its JSON entry; 1 if unknown)."""
    import gymnasium as gym

    if isinstance(space, gym.spaces.Dict):
        return sum(_space_size(s, None) for s in space.spaces.values())
    if isinstance(space, gym.spaces.Discrete):
        return int(space.n)
    if isinstance(space, gym.spaces.MultiDiscrete):
        return sum(int(x) for x in np.asarray(space.nvec).flat)  # Python ints: an int64 sum could wrap negative
    if isinstance(space, gym.spaces.Space) and space.shape is not None:
        return int(math.prod(int(x) for x in space.shape))
    if isinstance(item, dict):  # the JSON's own numbers: each size bounded before any product
        n, shape = item.get("n"), item.get("_shape")
        if type(n) is int or (type(n) is str and n.isdigit() and len(n) <= 18):
            return _json_size([int(n)], "n")
        if isinstance(shape, list) and all(type(x) is int for x in shape):
            return _json_size(shape, "_shape")
    return 1


def _json_size(sizes: list, key: str) -> int:
    total = 1
    if len(sizes) > 32 or not all(0 <= x <= MAX_BUFFER_FLOATS for x in sizes):
        raise ModelFileError(f"a space's {key} must be at most 32 sizes from 0 to {MAX_BUFFER_FLOATS}, got "
                             f"{brief(sizes)}")
    for x in sizes:
        total = min(total * x, MAX_BUFFER_FLOATS + 1)
    return total


def _check_sizes(path: Path, data: dict, objs: dict[str, Any]) -> None:
    """Refuse a model whose load would build an oversized rollout buffer or network (see the ``MAX_`` bounds).

    ``objs`` holds the decoded entries (the restricted unpickler's; an entry it cannot decode falls back to what
    the JSON says).

    Raises:
        ModelFileError: ``n_steps`` / ``n_envs`` not integers in range, or a buffer or ``net_arch`` too large.
    """
    for key, hi in (("n_steps", MAX_N_STEPS), ("n_envs", MAX_N_ENVS)):
        v = data.get(key, 1)
        if type(v) is not int or not 1 <= v <= hi:
            raise ModelFileError(f"{path}: {key} must be an integer from 1 to {hi}, got {brief(v, 40)}")
    n_obs = _space_size(objs.get("observation_space"), data.get("observation_space"))
    n_act = _space_size(objs.get("action_space"), data.get("action_space"))
    floats = data.get("n_steps", 1) * data.get("n_envs", 1) * (n_obs + n_act + 8)
    if floats > MAX_BUFFER_FLOATS:
        raise ModelFileError(f"{path}: n_steps * n_envs * (observation size + actions) is {floats} floats, more "
                             f"than the {MAX_BUFFER_FLOATS} allowed")
    kwargs = objs.get("policy_kwargs", data.get("policy_kwargs"))
    arch = kwargs.get("net_arch") if isinstance(kwargs, dict) else None
    if arch is None:
        return
    nets = arch if isinstance(arch, dict) else {"pi": arch, "vf": arch}
    for widths in nets.values():
        if not (isinstance(widths, (list, tuple)) and len(widths) <= 64
                and all(type(h) is int and 1 <= h <= _MAX_WIDTH for h in widths)):
            raise ModelFileError(f"{path}: net_arch must be lists of at most 64 layer widths from 1 to {_MAX_WIDTH}, "
                                 f"got {brief(arch, 100)}")
    params = sum(mlp_params(n_obs, w, n_act if k == "pi" else 1) for k, w in nets.items())
    if params > MAX_PARAMS:
        raise ModelFileError(f"{path}: the network would have {params} weights, more than the {MAX_PARAMS} allowed")


def load_maskable_ppo(path: str | Path, device: str = "cpu", trusted: bool | None = None):
    """Load a saved ``sb3_contrib.MaskablePPO`` model (``.zip``) on ``device``.

    Args:
        path: the model file (``.zip`` may be left off).
        device: torch device.
        trusted: False decodes the pickled entries with the restricted unpickler (see the module docstring);
            True lets SB3 unpickle them as it does by default (runs whatever the file names).  ``None``
            (default): :func:`trust_models_from_env`.

    Raises:
        AgentError: torch, stable-baselines3 or sb3-contrib is not installed (the ``[train]`` extra).
        FileNotFoundError: no such file.
        ModelTrustError: an untrusted file that needs code outside :data:`ALLOWED_GLOBALS`.
        ModelFileError: a path that is not a regular file (a folder, a device, a FIFO); policy settings refused by
            :func:`check_policy`; weights with NaN or inf values, or finite weights that overflow the network (its
            logits are not finite for an observation of zeros or one of ones).
        ModelFileError: a file that cannot be loaded: not a zip, entries over the size bounds (checked on the
            declared sizes, before anything is unpacked), ``data`` nested too deeply, ``n_steps`` / ``n_envs`` /
            ``net_arch`` over their bounds, unreadable or pickled tensors (``policy.pth`` is read by
            ``torch.load(weights_only=True)``).
    """
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as e:
        raise AgentError(f"ppo: agents need torch, stable-baselines3 and sb3-contrib ({e}): pip install "
                         "'monolith-envs[train]' (in the repository: pip install -e '.[train]')") from None

    p = Path(path)
    if not p.exists() and Path(str(p) + ".zip").exists():
        p = Path(str(p) + ".zip")
    if not p.exists():
        raise FileNotFoundError(f"no MaskablePPO model at {p}")
    if not p.is_file():
        raise ModelFileError(f"{p}: not a regular file ({'a folder' if p.is_dir() else 'a device, FIFO or socket'}); "
                             "a ppo: model is the .zip file that MaskablePPO.save writes")
    if trusted is None:
        trusted = trust_models_from_env()
    with open_regular(p) as fh:  # checked and loaded through one handle: a file swapped in meanwhile is not read
        return _load_checked(p, fh, device, trusted, MaskablePPO)


def _load_checked(p: Path, fh: BinaryIO, device: str, trusted: bool, MaskablePPO: Any) -> Any:
    """:func:`load_maskable_ppo` of the opened file ``fh`` (the checks, then SB3's load of the same handle)."""
    data = read_model_zip(p, fh)
    if trusted:
        try:
            probe = _safe_objects(p, data)  # only for the size checks; SB3 decodes the file its own way
        except ModelTrustError:
            probe = {}
    else:
        probe = _safe_objects(p, data)
    shadow = sorted(k for k in data if hasattr(MaskablePPO, k))  # SB3 does model.__dict__.update(data)
    if shadow:
        raise ModelFileError(f"{p}: entry 'data' key {brief(shadow[0], 60)} would replace MaskablePPO's own "
                             "attribute or method")
    try:
        _check_sizes(p, data, probe)
    except ModelFileError as e:
        raise ModelFileError(e if str(e).startswith(str(p)) else f"{p}: {e}") from None
    except Exception as e:  # noqa: BLE001  (a malformed space or setting is an error line, not a traceback)
        raise ModelFileError(f"{p}: the model's spaces or settings are malformed ({short_error(e)})") from None
    check_policy(p, data, probe)
    try:
        fh.seek(0)  # SB3 reads the same opened file the checks read
        with warnings.catch_warnings(record=True) as caught:  # SB3's "saved with SB3 < 1.7.0": checked below
            warnings.simplefilter("always")
            if trusted:  # SB3 decodes the file; the policy's classes from the probe when it read them (a class
                # saved under its former place, training.features.PieceEncoder, then loads outside the repository)
                extra = {k: probe[k] for k in ("policy_kwargs",) if k in probe}
                model = MaskablePPO.load(fh, device=device, custom_objects=extra or None)
            else:
                model = MaskablePPO.load(fh, device=device, custom_objects=probe)
    except Exception as e:  # noqa: BLE001  (a corrupt or hostile file is an error line, not a traceback)
        raise ModelFileError(f"{p}: not a loadable MaskablePPO model ({short_error(e, 240)})") from None
    weights = model.policy.state_dict()
    check_weight_names(p, fh, weights.keys(), bool(getattr(model.policy, "share_features_extractor", True)))
    for w in caught:  # the file's weights are all there: SB3's other warnings as they were
        if "deactivated exact_match" not in str(w.message):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    check_finite(weights, f"{p}: policy.pth")
    _check_probe(p, model)
    return model


def policy_logits(policy: Any, model_input: Any) -> np.ndarray | None:
    """``float32[B, n]``: the unmasked logits of a ``MaskableActorCriticPolicy`` for ``model_input`` (what its
    ``predict`` takes, batched or not), computed as its ``get_distribution`` does but without building the
    distribution (which refuses NaN logits with a long ``ValueError``); ``None`` for any other policy."""
    try:
        import torch
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
        from stable_baselines3.common.policies import BasePolicy
    except ImportError:  # no sb3-contrib: no policy of it either
        return None
    if not isinstance(policy, MaskableActorCriticPolicy):
        return None
    obs_t, _ = policy.obs_to_tensor(model_input)
    with torch.no_grad():
        features = BasePolicy.extract_features(policy, obs_t, policy.pi_features_extractor)
        return policy.action_net(policy.mlp_extractor.forward_actor(features)).cpu().numpy()


def _filled(space: Any, value: float) -> Any:
    """An observation of ``space`` (a Box, or a Dict of them) with every entry ``value``."""
    spaces = getattr(space, "spaces", None)
    if isinstance(spaces, dict):
        return {k: _filled(v, value) for k, v in spaces.items()}
    return np.full(space.shape, value, dtype=space.dtype)


def _check_probe(p: Path, model: Any) -> None:
    """Refuse (``ModelFileError``) a policy whose logits are not finite for an observation of zeros or one of
    ones: finite weights so large that the network overflows, so every decision would be refused."""
    try:
        inputs = [_filled(model.observation_space, v) for v in (0, 1)]
        logits = [policy_logits(model.policy, x) for x in inputs]
    except Exception:  # noqa: BLE001  (a space this probe cannot fill: the decisions check their own logits)
        return
    check_loaded_outputs(str(p), *(lg for lg in logits if lg is not None), part="policy")


_UNREAD = object()  # MaskablePPOAgent: its run's record not read yet
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
        ModelTrustError, ModelFileError: see :func:`load_maskable_ppo`.
    """

    def __init__(self, model: Any, deterministic: bool = True, name: str = "ppo", trusted: bool | None = None):
        super().__init__()
        guard_fork()  # a forked process runs the model on one thread (a multi-threaded one would hang)
        self.model = load_maskable_ppo(model, trusted=trusted) if isinstance(model, (str, Path)) else model
        #: the game the model was trained on, from its run's config.json (:func:`run_config_of`), or None
        self.trained_on = run_config_of(Path(model)) if isinstance(model, (str, Path)) else None
        self._seats: Any = _UNREAD  # (env_id, num_players, mode) of trained_on, read at the first check
        self.deterministic = deterministic
        self.name = name

    def check_game(self, game: Any, what: str = "this env") -> None:
        """Raise :class:`AgentError` unless the model fits ``game`` (a rules engine; ``what`` names it in the
        message): its observation and action sizes (:meth:`check_fits`) and, when the model's run recorded its
        game (:attr:`trained_on`), the same env id, ``num_players`` and ``mode``.  Other game config keys
        (variants, modules of the same sizes, the reward mode) are not compared."""
        self.check_fits(int(game.obs_spec.size), int(game.layout.n), what)
        if self._seats is _UNREAD:
            self._seats = _seats_of(self.trained_on)
        seats = self._seats
        if seats is None:
            return
        got = (getattr(game, "env_id", seats[0]), game.config.get("num_players"), game.config.get("mode"))
        seats = tuple(g if s is None else s for s, g in zip(seats, got))  # a value the record cannot tell
        if got[0] != seats[0]:
            raise AgentError(f"{self.name}: the model was trained on {seats[0]} (its run's config.json), not on "
                             f"{got[0]}; a ppo: model plays only its own game")
        if got != seats:
            raise AgentError(f"{self.name}: the model was trained with num_players={seats[1]}, mode={seats[2]!r} "
                             f"(its run's config.json), but {what} has num_players={got[1]}, mode={got[2]!r}; a "
                             "ppo: model plays the seats and mode of its run")

    def bind(self, env: Any) -> None:
        """Give the agent the env (see :class:`~monolith_envs.agents.base.BaseAgent`); refuse a game the model does
        not fit (:meth:`check_game`)."""
        super().bind(env)
        game = getattr(self.ctx, "game", None)
        if game is not None:
            self.check_game(game)

    def sizes(self) -> tuple[int, int] | None:
        """``(observation values, actions)`` the model takes, or None when its spaces do not say."""
        if getattr(self, "_sizes_of", None) is not self.model:  # computed once per model
            self._sizes, self._sizes_of = self._model_sizes(), self.model
        return self._sizes

    def _dict_space(self) -> Any:
        """The model's observation space when it is a Dict of ``observation`` and ``action_mask`` (a model
        trained on the wrapper's ``mask_in="observation"``, SB3's ``MultiInputPolicy``), else None."""
        space = getattr(self.model, "observation_space", None)
        spaces = getattr(space, "spaces", None)
        if isinstance(spaces, dict) and set(spaces) == {"observation", "action_mask"}:
            return space
        return None

    def _model_input(self, observation: np.ndarray, mask: np.ndarray) -> Any:
        """What the model's ``predict`` takes: the flat observation, or for a Dict model the observation and
        the mask in the dtypes of its space."""
        space = self._dict_space()
        if space is None:
            return observation
        return {"observation": np.asarray(observation, space["observation"].dtype),
                "action_mask": np.asarray(mask, space["action_mask"].dtype)}

    def _model_sizes(self) -> tuple[int, int] | None:
        obs_space = getattr(self.model, "observation_space", None)
        if self._dict_space() is not None:
            obs_space = obs_space["observation"]
        act_space = getattr(self.model, "action_space", None)
        shape, n = getattr(obs_space, "shape", None), getattr(act_space, "n", None)
        if not shape or n is None:
            return None
        return int(np.prod(shape)), int(n)

    def check_fits(self, obs_size: int, n_actions: int, what: str) -> None:
        """Raise :class:`AgentError` unless the model takes ``obs_size`` observation values and ``n_actions``
        actions (``what`` names the game and config in the message)."""
        sizes = self.sizes()
        if sizes is not None and sizes != (obs_size, n_actions):
            raise AgentError(f"{self.name}: the model takes {sizes[0]} observation values and {sizes[1]} actions, "
                             f"but {what} has {obs_size} and {n_actions}: it was trained on another game or "
                             "config (num_players, mode, modules)")

    def act(self, observation: np.ndarray, action_mask: np.ndarray | None, rng: np.random.Generator) -> int:
        """A legal action for the acting seat (arguments as :meth:`BaseAgent.act`).

        Returns the policy's most probable legal action (``deterministic``) or one sampled from it.

        Raises:
            AgentError: no mask, sizes other than the model's, or logits of the legal actions that are not
                finite (NaN or inf: the model's weights overflow the network).
        """
        if action_mask is None:
            raise AgentError("MaskablePPOAgent.act needs the action mask")
        observation = observation_vector(self.name, observation)
        sizes = self.sizes()
        if sizes is not None and (len(observation), len(action_mask)) != sizes:
            self.check_fits(int(np.size(observation)), int(np.size(action_mask)), "this env")
        mask = np.asarray(action_mask).astype(bool)
        if not mask.any():
            raise AgentError("the action mask has no legal action")
        if self.deterministic:
            try:
                action, _ = self.model.predict(self._model_input(observation, mask), action_masks=mask,
                                               deterministic=True)
            except ValueError:  # torch's distribution refuses NaN logits
                self._check_logits(observation, mask)
                raise
            if not mask.reshape(-1)[int(action)]:  # the argmax of NaN probabilities (infinite logits), or legal
                self._check_logits(observation, mask)  # logits all below the mask's own -1e8
                raise AgentError(f"{self.name}: the policy's most probable action {int(action)} is masked out (its "
                                 "legal actions' logits are below the value masked actions get); the model cannot "
                                 "play this position")
            return int(action)
        probs = self.action_probabilities(observation, mask)
        return int(rng.choice(probs.size, p=probs))

    def _check_logits(self, observation: np.ndarray, mask: np.ndarray) -> None:
        """Raise :class:`AgentError` when the policy's logits of the legal actions (``mask``) are not finite (a
        model that is not a ``MaskableActorCriticPolicy``'s is not checked).  Called only once a move went
        wrong (a refused distribution, an illegal or non-finite result), so a sound model runs its network once
        a move."""
        policy = getattr(self.model, "policy", None)
        logits = None if policy is None else policy_logits(policy, self._model_input(observation, mask))
        if logits is not None:
            check_finite_outputs(self.name, logits.reshape(-1)[np.asarray(mask, bool).reshape(-1)])

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """``float64[n]`` probabilities of the masked policy (zero on illegal actions, sums to 1).

        Raises:
            AgentError: logits of the legal actions that are not finite (the model's weights overflow).
        """
        import torch

        policy = self.model.policy
        obs_t, _ = policy.obs_to_tensor(self._model_input(observation, action_mask))
        try:
            with torch.no_grad():
                dist = policy.get_distribution(obs_t, action_masks=np.asarray(action_mask, bool)[None])
                probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        except ValueError:  # torch's distribution refuses NaN logits
            self._check_logits(observation, action_mask)
            raise
        probs[~np.asarray(action_mask, bool)] = 0.0
        if not np.isfinite(probs).all() or not probs.sum() > 0:  # infinite logits: NaN probabilities
            self._check_logits(observation, action_mask)
            raise AgentError(f"{self.name}: the policy gives its legal actions no probability (their logits are "
                             "below the value masked actions get); the model cannot play this position")
        return probs / probs.sum()
