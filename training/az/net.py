"""The policy-value network of the search-based self-play recipe, and its checkpoints.

:class:`PolicyValueNet` is an MLP on a game's flat observation (``game.obs_spec.size`` floats, the acting
seat's view). It has two heads:

* **policy**: ``float32[batch, layout.n]`` logits; illegal actions are masked out by :func:`masked_log_softmax`
  (their log-probability is ``-inf``), so a masked policy never selects an illegal action;
* **value**: ``float32[batch, num_players]`` in ``[-1, 1]`` (``tanh``), *seat-relative*: entry ``i`` is the
  expected final return of seat ``(p + i) % num_players`` where ``p`` is the seat whose observation was given.
  One value per seat makes 3-4 players and the 2v2 teams mode work (allies get equal returns from the game).
  :func:`to_absolute` turns it into a value per seat.

Checkpoints are plain tensors and plain data (``torch.save({"format", "meta", "state_dict"})``), read back with
``torch.load(..., weights_only=True)``: loading a file never runs code from it.
"""

from __future__ import annotations

import io
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from monolith_envs.agents.model_files import (
    MAX_PARAMS,
    MAX_SPACE_ELEMENTS,
    ModelFileError,
    brief,
    check_finite,
    read_capped,
    short_error,
)
from monolith_envs.agents.pickle_limits import check_torch_file
from monolith_envs.agents.puct import to_absolute  # re-exported: the seat-relative value head's inverse

__all__ = ["CHECKPOINT_FORMAT", "CheckpointError", "MAX_CHECKPOINT_BYTES", "MAX_HIDDEN_LAYERS", "MAX_HIDDEN_WIDTH",
           "PolicyValueNet", "checkpoint_shapes", "load_checkpoint", "masked_log_softmax", "net_for_game",
           "save_checkpoint", "to_absolute"]

CHECKPOINT_FORMAT = "monolith-az-v1"
#: most hidden layers and widest hidden layer of a network (the recipe config refuses more)
MAX_HIDDEN_LAYERS = 16
MAX_HIDDEN_WIDTH = 8192
#: most seats a checkpoint's value head may have
MAX_PLAYERS = 16
#: largest checkpoint file read: the float32 weights of a network of MAX_PARAMS weights, and 1 MiB more
MAX_CHECKPOINT_BYTES = 4 * MAX_PARAMS + 2**20


class CheckpointError(ModelFileError, ValueError):
    """A checkpoint file that is missing, unreadable, or not a policy-value network of this recipe.

    Both a ``ValueError`` and a :class:`~monolith_envs.agents.model_files.ModelFileError`, so an ``az:PATH``
    spec reports it as a model-file error (one ``error:`` line in the commands)."""


class PolicyValueNet(nn.Module):
    """MLP trunk (``Linear`` + ReLU per hidden size), a policy head and a per-seat value head.

    Args:
        obs_size: inputs (``game.obs_spec.size``), >= 1.
        n_actions: policy logits (``game.layout.n``), >= 1.
        num_players: value outputs (``game.num_players``), >= 1.
        hidden: hidden layer sizes, each >= 1.

    ``forward(obs float32[B, obs_size]) -> (logits float32[B, n_actions], values float32[B, num_players])``.

    Raises:
        ValueError: a size below 1.
    """

    def __init__(self, obs_size: int, n_actions: int, num_players: int, hidden: tuple[int, ...] = (256, 256)):
        super().__init__()
        sizes = {"obs_size": obs_size, "n_actions": n_actions, "num_players": num_players}
        for k, v in sizes.items():
            if int(v) < 1:
                raise ValueError(f"PolicyValueNet: {k} must be >= 1, got {v}")
        if not hidden or any(int(h) < 1 for h in hidden):
            raise ValueError(f"PolicyValueNet: hidden must be a non-empty list of sizes >= 1, got {list(hidden)}")
        self.meta = {"obs_size": int(obs_size), "n_actions": int(n_actions), "num_players": int(num_players),
                     "hidden": [int(h) for h in hidden]}
        layers: list[nn.Module] = []
        width = int(obs_size)
        for h in hidden:
            layers += [nn.Linear(width, int(h)), nn.ReLU()]
            width = int(h)
        self.trunk = nn.Sequential(*layers)
        self.policy = nn.Linear(width, int(n_actions))
        self.value = nn.Linear(width, int(num_players))

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs float32[B, obs_size]`` -> ``(logits float32[B, n_actions], values float32[B, num_players])``,
        values in [-1, 1] (tanh), unmasked logits."""
        z = self.trunk(obs)
        return self.policy(z), torch.tanh(self.value(z))

    @torch.no_grad()
    def evaluate(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Inference on a batch: ``obs float32[B, obs_size]``, ``masks bool[B, n_actions]`` ->
        ``(probs float64[B, n_actions]`` (0 at illegal actions, rows sum to 1), ``values float64[B, num_players]``
        seat-relative)."""
        logits, values = self(torch.as_tensor(np.asarray(obs, np.float32)))
        logp = masked_log_softmax(logits, torch.as_tensor(np.asarray(masks, bool)))
        return torch.exp(logp).double().numpy(), values.double().numpy()


def masked_log_softmax(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Log-softmax over the legal actions only: ``-inf`` where ``masks`` is False.

    ``logits float32[B, n]``, ``masks bool[B, n]`` (each row with at least one True) -> ``float32[B, n]``.
    """
    return torch.log_softmax(logits.masked_fill(~masks, float("-inf")), dim=-1)


def net_for_game(game: Any, hidden: tuple[int, ...] = (256, 256)) -> PolicyValueNet:
    """A fresh :class:`PolicyValueNet` sized for ``game`` (a :class:`~monolith_envs.core.game.Game` instance)."""
    return PolicyValueNet(game.obs_spec.size, game.layout.n, game.num_players, tuple(hidden))


def save_checkpoint(net: PolicyValueNet, path: str | Path, env_id: str, env_config: dict,
                    extra: dict | None = None) -> Path:
    """Write ``net`` as plain tensors plus plain data: ``{"format", "meta": {sizes, hidden, env_id, env_config,
    **extra}, "state_dict"}``. ``env_config`` and ``extra`` hold only str/int/float/bool/list/dict values.
    Returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = dict(net.meta, env_id=str(env_id), env_config=dict(env_config), **(extra or {}))
    sd = {k: v.detach().clone().contiguous() for k, v in net.state_dict().items()}
    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save({"format": CHECKPOINT_FORMAT, "meta": meta, "state_dict": sd}, tmp)
    tmp.replace(path)
    return path


def _meta_int(meta: dict, key: str, hi: int, what: str) -> int:
    v = meta.get(key)
    if type(v) is not int or not 1 <= v <= hi:
        raise CheckpointError(f"{what}: meta entry {key!r} must be an integer from 1 to {hi}, got {brief(v, 60)}")
    return v


def _plain(v: Any, budget: list[int], depth: int = 0) -> bool:
    """True for None, bools, numbers, strings and lists / dicts of them, at most 4 deep and 4096 values in all."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if v is None or type(v) in (bool, int, float, str):
        return type(v) is not str or len(v) <= 4096
    if type(v) in (list, tuple) and depth < 4:
        return all(_plain(x, budget, depth + 1) for x in v)
    if type(v) is dict and depth < 4:
        return all(type(k) is str and _plain(x, budget, depth + 1) for k, x in v.items())
    return False


def checkpoint_shapes(meta: Any, what: str = "checkpoint") -> dict[str, tuple[int, ...]]:
    """The weight names and shapes that a checkpoint's ``meta`` implies (nothing is allocated), after checking its
    bounds: ``obs_size`` and ``n_actions`` 1 to :data:`~monolith_envs.agents.model_files.MAX_SPACE_ELEMENTS`,
    ``num_players`` 1 to 16, ``hidden`` 1 to :data:`MAX_HIDDEN_LAYERS` widths of 1 to :data:`MAX_HIDDEN_WIDTH`,
    at most :data:`~monolith_envs.agents.model_files.MAX_PARAMS` weights, ``env_id`` a name and ``env_config``
    plain data.

    Raises:
        CheckpointError: the first entry out of bounds (named, with its range).
    """
    if not isinstance(meta, dict):
        raise CheckpointError(f"{what}: 'meta' must be a dict, got {brief(meta, 40)}")
    n = _meta_int(meta, "obs_size", MAX_SPACE_ELEMENTS, what)
    a = _meta_int(meta, "n_actions", MAX_SPACE_ELEMENTS, what)
    p = _meta_int(meta, "num_players", MAX_PLAYERS, what)
    hidden = meta.get("hidden")
    if not (type(hidden) in (list, tuple) and 1 <= len(hidden) <= MAX_HIDDEN_LAYERS
            and all(type(h) is int and 1 <= h <= MAX_HIDDEN_WIDTH for h in hidden)):
        raise CheckpointError(f"{what}: meta entry 'hidden' must be a list of 1 to {MAX_HIDDEN_LAYERS} widths from 1 "
                              f"to {MAX_HIDDEN_WIDTH}, got {brief(hidden, 60)}")
    env_id, env_config = meta.get("env_id"), meta.get("env_config")
    if not (type(env_id) is str and 0 < len(env_id) <= 200):
        raise CheckpointError(f"{what}: meta entry 'env_id' must be an env id, got {brief(env_id, 60)}")
    if not (type(env_config) is dict and _plain(env_config, [4096])):
        raise CheckpointError(f"{what}: meta entry 'env_config' must be a dict of plain values, got "
                              f"{brief(env_config, 60)}")
    shapes: dict[str, tuple[int, ...]] = {}
    prev = n
    for i, h in enumerate(hidden):
        shapes[f"trunk.{2 * i}.weight"], shapes[f"trunk.{2 * i}.bias"] = (h, prev), (h,)
        prev = h
    shapes["policy.weight"], shapes["policy.bias"] = (a, prev), (a,)
    shapes["value.weight"], shapes["value.bias"] = (p, prev), (p,)
    count = sum(math.prod(s) for s in shapes.values())
    if count > MAX_PARAMS:
        raise CheckpointError(f"{what}: the network would have {count} weights, more than the {MAX_PARAMS} allowed")
    return shapes


def _kind_hint(data: bytes) -> str:
    """Where a file that is no torch checkpoint looks like another kind of model (an SB3 zip: ``ppo:PATH``)."""
    import zipfile

    from monolith_envs.agents.model_kinds import model_kind_hint

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return model_kind_hint(i.filename for i in z.infolist()[:10_000])
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError):
        return ""


def load_checkpoint(path: str | Path) -> tuple[PolicyValueNet, dict]:
    """Read a checkpoint of :func:`save_checkpoint` (``weights_only=True``: no code runs) -> ``(net in eval
    mode, meta)``.

    The file is read only if it is a regular file of at most :data:`MAX_CHECKPOINT_BYTES`; its metadata is
    checked (:func:`checkpoint_shapes`) and every weight must be a floating tensor of the shape it implies with
    finite values, all before the network is built.

    Raises:
        CheckpointError: no such file, not a regular file or too large, not readable as plain tensors, wrong
            format, metadata out of bounds, or weights that do not fit the recorded sizes or are not finite.
    """
    path = Path(path)
    if not os.path.exists(path):  # (False, not an OSError, for a name too long for the system)
        raise CheckpointError(f"no policy-value checkpoint at {str(path)!r} (expected a .pt file written by "
                              "training.az)")
    try:
        data = read_capped(path, MAX_CHECKPOINT_BYTES)
    except (ModelFileError, OSError) as e:
        raise CheckpointError(f"{e} (a training.az checkpoint is a .pt file of at most {MAX_CHECKPOINT_BYTES} "
                              "bytes)") from None
    bad = check_torch_file(io.BytesIO(data))  # nesting and key sizes bounded before torch's unpickler hashes
    if bad is not None:
        raise CheckpointError(f"{path}: not a plain-tensor checkpoint ({bad}){_kind_hint(data)}")
    try:
        blob = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - any unreadable file is reported the same way
        raise CheckpointError(f"{path}: not a plain-tensor checkpoint ({short_error(e, 200)})") from None
    del data
    if not isinstance(blob, dict) or blob.get("format") != CHECKPOINT_FORMAT:
        got = blob.get("format") if isinstance(blob, dict) else type(blob).__name__
        hint = ("; it is a baseline file (training.export_baseline): the package's baselines play as 'baseline', "
                "and one of your own trains on with init_from" if got == "monolith-envs-baseline" else "")
        raise CheckpointError(f"{path}: format {brief(got, 60)} is not {CHECKPOINT_FORMAT!r} (a training.az "
                              f"checkpoint){hint}")
    meta, sd = blob.get("meta"), blob.get("state_dict")
    shapes = checkpoint_shapes(meta, str(path))
    if not isinstance(sd, dict) or set(sd) != set(shapes):
        raise CheckpointError(f"{path}: the weights do not fit the recorded sizes (state_dict must hold exactly "
                              f"{sorted(shapes)})")
    for k, s in shapes.items():
        t = sd[k]
        if not (isinstance(t, torch.Tensor) and t.is_floating_point() and tuple(t.shape) == s):
            raise CheckpointError(f"{path}: the weights do not fit the recorded sizes ({k!r} must be a float tensor "
                                  f"of shape {s})")
    try:
        check_finite(sd, str(path))
    except ModelFileError as e:
        raise CheckpointError(str(e)) from None
    net = PolicyValueNet(meta["obs_size"], meta["n_actions"], meta["num_players"], tuple(meta["hidden"]))
    net.load_state_dict({k: sd[k].to(torch.float32) for k in shapes})
    net.eval()
    return net, meta
