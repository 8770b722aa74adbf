"""``RLlibAgent``: the shared policy of a :mod:`training.rllib` checkpoint behind the Agent protocol.

``rllib:PATH`` in :func:`monolith_envs.agents.make_agent` builds one.  ``PATH`` is an algorithm checkpoint written by
``training.rllib`` (``<run>/final_checkpoint``, ``<run>/checkpoints/step_N``) or the RLModule folder
inside it (``.../learner_group/learner/rl_module/shared``).  The module is loaded in this process, on the
CPU; no Ray instance is needed, but the ``[distributed]`` extra is (the module class is RLlib's).  The
action mask goes into the module with every observation, so an illegal action has probability 0.

**Checkpoints are untrusted by default** (as ``ppo:PATH`` files, :mod:`monolith_envs.agents.model_files`).  RLlib's own
loader (``RLModule.from_checkpoint``) unpickles ``class_and_ctor_args.pkl`` and ``module_state.pkl`` with
the ordinary unpickler, which runs whatever code the files name.  :func:`load_rllib_module` reads only the
RLModule folder's two pickles, with a restricted unpickler: the constructor file may name only the spaces,
numpy arrays, :class:`~monolith_envs.agents.rllib_module.MaskedPPOTorchRLModule` (also under its former path
``training.rllib_module``) and RLlib's ``PPOCatalog``, the state
file only numpy arrays in an ``OrderedDict``.  It checks what they hold (the module class, the spaces, a
model config of plain values whose network has at most :data:`~monolith_envs.agents.model_files.MAX_PARAMS` weights, one
array of the right shape per weight), builds the module itself and copies the weights in.  Anything else is
refused with a :class:`~monolith_envs.agents.model_files.ModelTrustError` that says how to trust the file
(``--trust-model-files`` or ``MONOLITH_ENVS_TRUST_MODELS=1``); a trusted checkpoint is loaded by RLlib.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np

from .base import AgentError, BaseAgent, observation_vector
from .model_files import (
    MAX_PARAMS,
    NUMPY_GLOBALS,
    TRUST_HINT,
    ModelFileError,
    ModelTrustError,
    brief,
    check_finite,
    read_capped,
    restricted_loads,
    short_error,
    trust_models_from_env,
)
from .model_kinds import mlp_params

__all__ = ["MAX_CTOR_BYTES", "MAX_STATE_BYTES", "RLlibAgent", "load_rllib_module", "module_dir"]

_INNER = Path("learner_group") / "learner" / "rl_module" / "shared"
_CTOR_FILE = "class_and_ctor_args.pkl"
_STATE_FILE = "module_state.pkl"
#: largest ``class_and_ctor_args.pkl`` read (bytes)
MAX_CTOR_BYTES = 2**20
#: largest ``module_state.pkl`` read (bytes): :data:`~monolith_envs.agents.model_files.MAX_PARAMS` float32 weights and some
MAX_STATE_BYTES = 4 * MAX_PARAMS + 2**20

_SPACES = frozenset({("gymnasium.spaces.box", "Box"), ("gymnasium.spaces.dict", "Dict"),
                     ("gymnasium.spaces.discrete", "Discrete")})
_MODULE_PATH = "monolith_envs.agents.rllib_module"
_CTOR_GLOBALS = NUMPY_GLOBALS | _SPACES | {("collections", "OrderedDict"),
                                           ("ray.rllib.algorithms.ppo.ppo_catalog", "PPOCatalog"),
                                           (_MODULE_PATH, "MaskedPPOTorchRLModule")}
#: checkpoints written before the module moved into the package name its former path; read as the new one
_RENAMED = {("training.rllib_module", "MaskedPPOTorchRLModule"): (_MODULE_PATH, "MaskedPPOTorchRLModule")}
_STATE_GLOBALS = NUMPY_GLOBALS | {("collections", "OrderedDict")}
_CTOR_KEYS = {"observation_space", "action_space", "inference_only", "learner_only", "model_config", "catalog_class"}
_ACTIVATIONS = {"tanh", "relu", "swish", "silu", "elu", "linear", None}
#: model-config keys a checkpoint may set to its own values (every other key must hold RLlib's default)
_FREE_KEYS = {"fcnet_hiddens", "fcnet_activation", "fcnet_use_layernorm", "head_fcnet_hiddens",
              "head_fcnet_activation", "head_fcnet_use_layernorm", "vf_share_layers"}
_MAX_WIDTH = 2**16
_MAX_LAYERS = 64


def module_dir(path: str | Path) -> Path:
    """The shared RLModule's folder of an algorithm checkpoint (or ``path`` itself if it is one).

    Raises:
        FileNotFoundError: neither ``path`` nor ``path/learner_group/learner/rl_module/shared`` holds one.
    """
    p = Path(path)
    for cand in (p / _INNER, p):
        if (cand / _CTOR_FILE).exists() or (cand / _STATE_FILE).exists():
            return cand
    raise FileNotFoundError(f"no RLlib checkpoint of training.rllib at {p} (expected {p / _INNER})")


def _import_module_class() -> type:
    try:
        from .rllib_module import MaskedPPOTorchRLModule
    except ImportError as e:
        raise AgentError(f"rllib: agents need Ray RLlib and torch ({e}): pip install 'monolith-envs[distributed]' "
                         "(in the repository: pip install -e '.[distributed]')") from None
    return MaskedPPOTorchRLModule


def _refuse(d: Path, why: str) -> ModelTrustError:
    return ModelTrustError(f"{d}: not an RLModule checkpoint of training.rllib that can be loaded without "
                           f"running code from it ({why}); {TRUST_HINT}")


def _plain(v: Any, depth: int = 0) -> bool:
    """True for None, bools, numbers, strings and short lists / tuples / dicts of them (nested 4 deep at most)."""
    if v is None or type(v) in (bool, int, float, str):
        return True
    if type(v) in (list, tuple) and depth < 4 and len(v) <= 1024:
        return all(_plain(x, depth + 1) for x in v)
    if type(v) is dict and depth < 4 and len(v) <= 1024:
        return all(type(k) is str and _plain(x, depth + 1) for k, x in v.items())
    return False


def _widths(cfg: dict, key: str, d: Path) -> list[int]:
    v = cfg.get(key, [])
    if not (isinstance(v, (list, tuple)) and len(v) <= _MAX_LAYERS
            and all(type(h) is int and 1 <= h <= _MAX_WIDTH for h in v)):
        raise _refuse(d, f"model_config[{key!r}] must be a list of at most {_MAX_LAYERS} layer widths from 1 "
                         f"to {_MAX_WIDTH}, got {brief(v, 100)}")
    return [int(h) for h in v]


def _check_ctor(info: Any, module_cls: type, d: Path) -> dict:
    """The constructor keyword arguments of a decoded ``class_and_ctor_args.pkl``, checked (see module doc)."""
    import gymnasium as gym
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig

    if not (isinstance(info, dict) and info.get("class") is module_cls):
        raise _refuse(d, f"the module class must be {module_cls.__name__}")
    ak = info.get("ctor_args_and_kwargs")
    if not (isinstance(ak, (tuple, list)) and len(ak) == 2 and not ak[0] and isinstance(ak[1], dict)
            and set(ak[1]) <= _CTOR_KEYS):
        raise _refuse(d, f"the constructor arguments must be keywords among {sorted(_CTOR_KEYS)}")
    kw = dict(ak[1])
    obs, act = kw.get("observation_space"), kw.get("action_space")
    if not (isinstance(obs, gym.spaces.Dict) and set(obs.spaces) == {"observation", "action_mask"}
            and all(isinstance(s, gym.spaces.Box) and len(s.shape) == 1 for s in obs.spaces.values())
            and isinstance(act, gym.spaces.Discrete) and 1 <= int(act.n) <= 2**24
            and obs["action_mask"].shape == (int(act.n),)):
        raise _refuse(d, "the spaces must be Dict(observation=Box[n], action_mask=Box[actions]) and Discrete(actions)")
    for k in ("inference_only", "learner_only"):
        if kw.get(k) not in (None, True, False):
            raise _refuse(d, f"{k} must be a bool")
    catalog = kw.get("catalog_class")
    if catalog is not None:
        from ray.rllib.algorithms.ppo.ppo_catalog import PPOCatalog

        if catalog is not PPOCatalog:
            raise _refuse(d, "the catalog class must be PPOCatalog")
    cfg = kw.get("model_config") or {}
    if dataclasses.is_dataclass(cfg):
        cfg = dataclasses.asdict(cfg)
    if not isinstance(cfg, dict):
        raise _refuse(d, "model_config must be a dict")
    defaults = {f.name: (f.default if f.default is not dataclasses.MISSING else f.default_factory())
                for f in dataclasses.fields(DefaultModelConfig)}
    for k, v in cfg.items():
        if not _plain(v):
            raise _refuse(d, f"model_config[{brief(k, 60)}] must hold plain values (numbers, strings, lists)")
        if k not in defaults:
            raise _refuse(d, f"unknown model_config key {brief(k, 60)}")
        if k not in _FREE_KEYS and v != defaults[k]:
            raise _refuse(d, f"model_config[{k!r}] must be RLlib's default {defaults[k]!r}")
    for k in ("fcnet_activation", "head_fcnet_activation"):
        if cfg.get(k, defaults[k]) not in _ACTIVATIONS:
            raise _refuse(d, f"model_config[{k!r}] must be one of {sorted(a for a in _ACTIVATIONS if a)}")
    for k in ("fcnet_use_layernorm", "head_fcnet_use_layernorm", "vf_share_layers"):
        if cfg.get(k, defaults[k]) not in (True, False):
            raise _refuse(d, f"model_config[{k!r}] must be a bool")
    hidden, head = _widths(cfg, "fcnet_hiddens", d), _widths(cfg, "head_fcnet_hiddens", d)
    n_obs, n_act = int(obs["observation"].shape[0]), int(act.n)
    last = hidden[-1] if hidden else n_obs
    enc = mlp_params(n_obs, hidden[:-1], last) if hidden else 0
    params = (enc * (1 if cfg.get("vf_share_layers", defaults["vf_share_layers"]) else 2)
              + mlp_params(last, head, n_act) + mlp_params(last, head, 1))
    if params > MAX_PARAMS:
        raise ModelFileError(f"{d}: the network would have {params} weights, more than the {MAX_PARAMS} allowed")
    kw["model_config"] = cfg
    return kw


#: what a corrupt checkpoint file's message says to do
_REWRITE = "; write the checkpoint again (training.rllib)"


def _load_untrusted(d: Path, module_cls: type) -> Any:
    import torch

    if (d / "module_state.msgpack").exists():
        raise _refuse(d, "a msgpack state file may hold pickled arrays; only module_state.pkl is read")
    info = restricted_loads(read_capped(d / _CTOR_FILE, MAX_CTOR_BYTES), _CTOR_GLOBALS, f"{d / _CTOR_FILE}",
                            _RENAMED, corrupt_hint=_REWRITE)
    try:
        kw = _check_ctor(info, module_cls, d)
    except ModelFileError:
        raise
    except Exception as e:  # noqa: BLE001  (a malformed space or value is a refusal, not a traceback)
        raise _refuse(d, short_error(e, 200)) from None
    state = restricted_loads(read_capped(d / _STATE_FILE, MAX_STATE_BYTES), _STATE_GLOBALS, f"{d / _STATE_FILE}",
                             corrupt_hint=_REWRITE)
    if not (isinstance(state, dict) and all(isinstance(k, str) and isinstance(v, np.ndarray)
                                            and v.dtype.kind in "fiub" for k, v in state.items())):
        raise _refuse(d, "module_state.pkl must map weight names to numeric numpy arrays")
    check_finite(state, str(d / _STATE_FILE))
    try:
        module = module_cls(**kw)
    except Exception as e:  # noqa: BLE001  (a config RLlib cannot build is a refusal, not a traceback)
        raise ModelFileError(f"{d}: the module cannot be built ({short_error(e, 200)})") from None
    own = module.state_dict()
    for name, t in own.items():
        if name not in state or tuple(state[name].shape) != tuple(t.shape):
            got = "missing" if name not in state else f"shape {tuple(state[name].shape)}"
            raise ModelFileError(f"{d}: weight {name!r} of shape {tuple(t.shape)} is {got} in {_STATE_FILE}")
    weights = {k: torch.as_tensor(np.array(state[k])).to(own[k].dtype) for k in own}
    check_finite(weights, f"{d / _STATE_FILE} (read as the module's dtypes)")  # 1e300 as float32 is inf
    module.load_state_dict(weights, strict=True)
    return module


def load_rllib_module(path: str | Path, trusted: bool | None = None) -> Any:
    """Load the shared :class:`~monolith_envs.agents.rllib_module.MaskedPPOTorchRLModule` of a checkpoint (eval mode).

    Args:
        path: an algorithm checkpoint of ``training.rllib`` or its RLModule folder (:func:`module_dir`).
        trusted: False reads the weights without unpickling anything outside an allow list (see the module
            docstring); True lets RLlib load the folder (runs whatever its pickles name).  ``None`` (default):
            :func:`~monolith_envs.agents.model_files.trust_models_from_env`.

    Raises:
        FileNotFoundError: no checkpoint at ``path``.
        ModelTrustError: an untrusted checkpoint that needs more than the allow list.
        ModelFileError: a checkpoint that cannot be read (corrupt, over a size bound, weights that do not fit).
        AgentError: the ``[distributed]`` extra (Ray RLlib) is not installed.
    """
    d = module_dir(path)
    module_cls = _import_module_class()
    if trusted is None:
        trusted = trust_models_from_env()
    if trusted:
        from ray.rllib.core.rl_module.rl_module import RLModule

        try:
            module = RLModule.from_checkpoint(str(d))
        except Exception as e:  # noqa: BLE001
            raise ModelFileError(f"{d}: RLlib cannot load this checkpoint "
                                 f"({short_error(e, 200)})") from None
        if not isinstance(module, module_cls):
            raise ModelFileError(f"{d}: RLlib loaded a {type(module).__name__}, not the {module_cls.__name__} "
                                 "of training.rllib")
    else:
        module = _load_untrusted(d, module_cls)
    module.eval()
    return module


class RLlibAgent(BaseAgent):
    """Acts with the shared policy of a ``training.rllib`` checkpoint.

    Args:
        module: a loaded module, or a checkpoint path (see :func:`module_dir`).
        deterministic: True (default) takes the most probable legal action; False samples from the masked
            distribution with the agent's ``rng`` (reproducible).
        name: display name.
        trusted: passed to :func:`load_rllib_module` for a path (default: untrusted unless the environment
            says otherwise).

    ``act(observation float32[obs_size], action_mask int8[n], rng) -> int``.

    Raises:
        AgentError: ``act`` with a mask that has no legal action, or with an observation or mask whose size is
            not the checkpoint's.
        ModelTrustError, ModelFileError: see :func:`load_rllib_module`.
    """

    def __init__(self, module: Any, deterministic: bool = True, name: str = "rllib", trusted: bool | None = None):
        super().__init__()
        self.module = load_rllib_module(module, trusted) if isinstance(module, (str, Path)) else module
        self.deterministic = deterministic
        self.name = name

    def sizes(self) -> tuple[int, int] | None:
        """``(observation values, actions)`` the checkpoint's policy takes (known once it is loaded), or None
        when the module's spaces do not say."""
        space = getattr(self.module, "observation_space", None)
        if space is None or "observation" not in getattr(space, "spaces", {}):
            return None
        return int(space["observation"].shape[0]), int(space["action_mask"].shape[0])

    def check_fits(self, n_obs: int, n_actions: int, what: str = "the env") -> None:
        """Raise :class:`AgentError` unless the policy takes ``n_obs`` observation values and ``n_actions``
        actions (``what`` names where they come from in the message)."""
        want = self.sizes()
        if want is not None and (int(n_obs), int(n_actions)) != want:
            raise AgentError(f"{self.name}: the checkpoint's policy takes {want[0]} observation values and "
                             f"{want[1]} actions, {what} gives {n_obs} and {n_actions} (a checkpoint of another "
                             "game or config?)")

    def check_game(self, game: Any, what: str = "this env") -> None:
        """Raise :class:`AgentError` unless the policy fits ``game`` (a rules engine): its observation and
        action sizes.  :func:`~monolith_envs.agents.make_agent` calls it when given the game config, so a
        checkpoint of another game is refused before the first game is played."""
        self.check_fits(int(game.obs_spec.size), int(game.layout.n), what)

    def bind(self, env: Any) -> None:
        """Give the agent the env (see :class:`~monolith_envs.agents.base.BaseAgent`); refuse one whose
        observation or action sizes are not the checkpoint's (:meth:`check_game`)."""
        super().bind(env)
        game = getattr(self.ctx, "game", None)
        if game is not None:
            self.check_game(game, f"the {getattr(game, 'env_id', type(game).__name__)} env")

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """``float64[n]``: the masked policy's probabilities (exactly 0 on illegal actions).

        Raises:
            AgentError: an observation or mask whose size is not the module's (a checkpoint of another game
                or config).
        """
        self.check_fits(int(np.asarray(observation).size), int(np.asarray(action_mask).size))
        return self.module.action_probabilities(observation, action_mask)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action for the acting seat (arguments as :meth:`BaseAgent.act`).

        Returns the module's most probable legal action (``deterministic``) or one sampled from it.

        Raises:
            AgentError: a mask with no legal action, or action probabilities that are not finite.
        """
        mask = np.asarray(action_mask).astype(bool)
        if not mask.any():
            raise AgentError("the action mask has no legal action")
        probs = self.action_probabilities(observation_vector(self.name, observation), mask)
        if not np.isfinite(probs).all():
            raise AgentError("the policy's action probabilities are not finite (NaN or inf): its weights or this "
                             "observation overflow the network")
        if self.deterministic:
            return int(np.argmax(probs))
        return int(rng.choice(probs.size, p=probs / probs.sum()))
