"""The network of a pretrained baseline, in plain torch: the piece encoder, then a policy and a value MLP.

This is the policy of ``python -m training.train`` with ``features = "pieces"`` (SB3's
``MaskableActorCriticPolicy`` with a shared :class:`PieceEncoderMixin` features extractor), rebuilt without
SB3 from plain metadata, so a baseline file holds only tensors and plain data:

* the **piece encoder**: every row of a table piece of the observation (:func:`piece_layout`) goes through
  one shared ``Linear(width -> row_dim)`` + ReLU (the same weights for each row of that piece), the encoded
  rows are flattened in order, the other values are appended unchanged, and ``Linear(-> features_dim)`` +
  ReLU maps everything to the features;
* the **policy**: ``Linear`` + activation per width of ``pi_arch``, then ``Linear(-> n_actions)``: the logits;
* the **value**: ``Linear`` + activation per width of ``vf_arch``, then ``Linear(-> 1)``.

:func:`load_baseline_file` reads a file written by ``python -m training.export_baseline`` with
``torch.load(weights_only=True)`` (no pickled class is ever built), checks every entry against the bounds and
shapes that the metadata implies, and casts the weights to float32.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..model_files import ModelFileError, check_finite, read_capped, short_error
from ..pickle_limits import check_torch_file
from ..puct import check_loaded_outputs
from ..torch_fork import guard_fork

__all__ = ["FORMAT", "MAX_FILE_BYTES", "BaselineNet", "PieceEncoderMixin", "expected_shapes", "load_baseline_file",
           "piece_layout", "save_baseline_file"]

guard_fork()  # a forked process runs these networks on one thread (a multi-threaded one would hang)

#: the ``format`` entry of a baseline file, and its version
FORMAT = "monolith-envs-baseline"
VERSION = 1
#: largest baseline file read (bytes), and most weights a baseline network may have
MAX_FILE_BYTES = 32 * 2**20
MAX_WEIGHTS = 2**24
_MAX_SIZE = 2**20  # observation values, actions
_MAX_WIDTH = 4096  # row_dim, features_dim, hidden widths
_MAX_LAYERS = 8
_MAX_PIECES = 256
_ACTIVATIONS = {"tanh": nn.Tanh, "relu": nn.ReLU}


def piece_layout(obs_spec: Any, min_rows: int = 2, min_width: int = 8) -> list[tuple[int, int, int]]:
    """``[(offset, rows, width)]`` for every piece of ``obs_spec`` that is a table worth sharing weights.

    A piece counts as a table when its shape has at least 2 dimensions, ``prod(shape[:-1]) >= min_rows``
    and ``shape[-1] >= min_width`` (rows = all leading dimensions, width = the last one).  Every other
    index of the observation is passed through unchanged.
    """
    out = []
    for p in obs_spec.pieces:
        if len(p.shape) < 2:
            continue
        width = int(p.shape[-1])
        rows = int(p.size // width)
        if rows >= min_rows and width >= min_width:
            out.append((int(p.offset), rows, width))
    return out


def _check_pieces(n: int, pieces: Any) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Validated ``(tables, rest)``: the pieces as int triples, and the observation indices outside them.

    Raises:
        ValueError: a piece that does not fit ``n`` inputs, or overlapping pieces.
    """
    covered = np.zeros(n, bool)
    tables: list[tuple[int, int, int]] = []
    for off, rows, width in pieces:
        off, rows, width = int(off), int(rows), int(width)
        if off < 0 or rows < 1 or width < 1 or off + rows * width > n:
            raise ValueError(f"piece at offset {off} with {rows}x{width} values does not fit {n} inputs")
        if covered[off:off + rows * width].any():
            raise ValueError(f"piece at offset {off} overlaps another piece")
        tables.append((off, rows, width))
        covered[off:off + rows * width] = True
    return tables, [int(i) for i in np.flatnonzero(~covered)]


class PieceEncoderMixin:
    """The piece encoder's layers and forward pass, shared by this package's :class:`BaselineNet` and the
    training features extractor (``training.features.PieceEncoder``), so both hold the same parameter names
    (``encoders.<i>.0.*``, ``head.0.*``) and compute the same function.

    A class using it derives from ``torch.nn.Module`` (directly or not), calls ``Module.__init__`` and then
    :meth:`_build_pieces`.  ``forward(obs float32[batch, n]) -> float32[batch, features_dim]``.
    """

    def _build_pieces(self, n: int, pieces: Any, row_dim: int, features_dim: int) -> None:
        """Create ``tables``, ``encoders``, the ``rest`` index buffer and ``head``.

        Raises:
            ValueError: a piece that does not fit the observation, or overlapping pieces.
        """
        self.tables, rest = _check_pieces(int(n), pieces)
        self.encoders = nn.ModuleList(nn.Sequential(nn.Linear(w, row_dim), nn.ReLU()) for _, _, w in self.tables)
        self.register_buffer("rest", torch.tensor(rest, dtype=torch.long), persistent=False)
        total = sum(r * row_dim for _, r, _ in self.tables) + len(rest)
        self.head = nn.Sequential(nn.Linear(total, features_dim), nn.ReLU())

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """``obs float32[batch, n]`` -> features ``float32[batch, features_dim]``."""
        parts = []
        b = obs.shape[0]
        for (off, rows, width), enc in zip(self.tables, self.encoders):
            parts.append(enc(obs[:, off:off + rows * width].reshape(b, rows, width)).reshape(b, -1))
        parts.append(obs.index_select(1, self.rest))
        return self.head(torch.cat(parts, dim=1))


class _Encoder(PieceEncoderMixin, nn.Module):
    def __init__(self, n: int, pieces: Any, row_dim: int, features_dim: int):
        nn.Module.__init__(self)
        self._build_pieces(n, pieces, row_dim, features_dim)


def _mlp(n_in: int, widths: list[int], activation: str) -> nn.Sequential:
    layers: list[nn.Module] = []
    for w in widths:
        layers += [nn.Linear(n_in, w), _ACTIVATIONS[activation]()]
        n_in = w
    return nn.Sequential(*layers)


class BaselineNet(nn.Module):
    """Piece encoder -> policy MLP -> logits, and piece encoder -> value MLP -> value (see the module docstring).

    Args:
        meta: ``obs_size``, ``n_actions``, ``num_players``, ``pieces`` (``[[offset, rows, width], ...]``),
            ``row_dim``, ``features_dim``, ``pi_arch`` and ``vf_arch`` (lists of hidden widths) and
            ``activation`` (``"tanh"`` or ``"relu"``), as checked by :func:`expected_shapes`.

    ``forward(obs float32[B, obs_size]) -> (logits float32[B, n_actions], value float32[B])``.
    """

    def __init__(self, meta: dict):
        super().__init__()
        self.meta = dict(meta)
        self.encoder = _Encoder(meta["obs_size"], meta["pieces"], meta["row_dim"], meta["features_dim"])
        fd = int(meta["features_dim"])
        self.pi = _mlp(fd, list(meta["pi_arch"]), meta["activation"])
        self.vf = _mlp(fd, list(meta["vf_arch"]), meta["activation"])
        self.action = nn.Linear(([fd] + list(meta["pi_arch"]))[-1], int(meta["n_actions"]))
        self.value = nn.Linear(([fd] + list(meta["vf_arch"]))[-1], 1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs float32[B, obs_size]`` -> ``(logits float32[B, n_actions], value float32[B])``."""
        f = self.encoder(obs)
        return self.action(self.pi(f)), self.value(self.vf(f))[:, 0]

    @torch.no_grad()
    def logits(self, obs: np.ndarray) -> np.ndarray:
        """``obs float32[B, obs_size]`` -> the policy's logits ``float32[B, n_actions]`` (no mask applied)."""
        f = self.encoder(torch.as_tensor(np.asarray(obs, np.float32)))
        return self.action(self.pi(f)).numpy()

    @torch.no_grad()
    def evaluate(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Priors and values for a search (:class:`~monolith_envs.agents.puct.BatchedPUCT`).

        ``obs float32[B, obs_size]``, ``masks bool[B, n_actions]`` (each row with a legal action) ->
        ``(probs float64[B, n_actions]`` (the policy's softmax over the legal actions, 0 elsewhere),
        ``values float64[B, num_players]`` seat-relative: entry 0 is the acting seat's value ``v``, the value
        head clipped to ``[-1, 1]``; each other seat gets ``-v`` with 2 players and ``-v / (n - 1)`` with
        more).
        """
        logits, v = self(torch.as_tensor(np.asarray(obs, np.float32)))
        m = torch.as_tensor(np.asarray(masks, bool))
        probs = torch.softmax(logits.masked_fill(~m, float("-inf")), dim=-1).double().numpy()
        v = np.clip(v.double().numpy(), -1.0, 1.0)
        n = int(self.meta["num_players"])
        values = np.empty((v.shape[0], n))
        values[:, 0] = v
        if n > 1:
            values[:, 1:] = (-v / (n - 1))[:, None]
        return probs, values


def _int(meta: dict, key: str, lo: int, hi: int, what: str) -> int:
    v = meta.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise ModelFileError(f"{what}: meta entry {key!r} must be an integer from {lo} to {hi}, got {str(v)[:60]}")
    return v


def expected_shapes(meta: Any, what: str = "baseline") -> dict[str, tuple[int, ...]]:
    """The weight names and shapes that ``meta`` implies (nothing is allocated), after checking its bounds.

    Raises:
        ModelFileError: a missing or out-of-range entry, pieces that do not fit, an unknown activation, or more
            than :data:`MAX_WEIGHTS` weights; the message names ``what``.
    """
    if not isinstance(meta, dict):
        raise ModelFileError(f"{what}: 'meta' is not a dict")
    n = _int(meta, "obs_size", 1, _MAX_SIZE, what)
    a = _int(meta, "n_actions", 1, _MAX_SIZE, what)
    _int(meta, "num_players", 1, 16, what)
    rd = _int(meta, "row_dim", 1, _MAX_WIDTH, what)
    fd = _int(meta, "features_dim", 1, _MAX_WIDTH, what)
    if meta.get("activation") not in _ACTIVATIONS:
        raise ModelFileError(f"{what}: meta entry 'activation' must be one of {sorted(_ACTIVATIONS)}, "
                             f"got {str(meta.get('activation'))[:40]}")
    archs = {}
    for key in ("pi_arch", "vf_arch"):
        arch = meta.get(key)
        if not (isinstance(arch, list) and len(arch) <= _MAX_LAYERS
                and all(type(w) is int and 1 <= w <= _MAX_WIDTH for w in arch)):
            raise ModelFileError(f"{what}: meta entry {key!r} must be a list of at most {_MAX_LAYERS} widths from 1 "
                                 f"to {_MAX_WIDTH}, got {str(arch)[:60]}")
        archs[key] = arch
    pieces = meta.get("pieces")
    if not (isinstance(pieces, list) and len(pieces) <= _MAX_PIECES
            and all(isinstance(p, (list, tuple)) and len(p) == 3 and all(type(x) is int for x in p) for p in pieces)):
        raise ModelFileError(f"{what}: meta entry 'pieces' must be a list of at most {_MAX_PIECES} "
                             "[offset, rows, width] integer triples")
    try:
        tables, rest = _check_pieces(n, pieces)
    except ValueError as e:
        raise ModelFileError(f"{what}: meta entry 'pieces': {e}") from None
    shapes: dict[str, tuple[int, ...]] = {}
    for i, (_, _, w) in enumerate(tables):
        shapes[f"encoder.encoders.{i}.0.weight"], shapes[f"encoder.encoders.{i}.0.bias"] = (rd, w), (rd,)
    total = sum(r * rd for _, r, _ in tables) + len(rest)
    shapes["encoder.head.0.weight"], shapes["encoder.head.0.bias"] = (fd, total), (fd,)
    for name, key, out_name, n_out in (("pi", "pi_arch", "action", a), ("vf", "vf_arch", "value", 1)):
        prev = fd
        for j, w in enumerate(archs[key]):
            shapes[f"{name}.{2 * j}.weight"], shapes[f"{name}.{2 * j}.bias"] = (w, prev), (w,)
            prev = w
        shapes[f"{out_name}.weight"], shapes[f"{out_name}.bias"] = (n_out, prev), (n_out,)
    count = sum(math.prod(s) for s in shapes.values())
    if count > MAX_WEIGHTS:
        raise ModelFileError(f"{what}: the network would have {count} weights, more than the {MAX_WEIGHTS} allowed")
    return shapes


def save_baseline_file(path: str | Path, meta: dict, weights: dict[str, torch.Tensor],
                       dtype: torch.dtype = torch.float16) -> Path:
    """Write a baseline file: ``{"format", "version", "meta", "weights"}``, the weights cast to ``dtype``.

    ``weights`` are :class:`BaselineNet` parameter names -> tensors of the shapes :func:`expected_shapes`
    gives; ``meta`` holds only str/int/float/bool/None/list/dict values.  The file is written whole or not
    at all (a temporary file, then a rename).

    Raises:
        ModelFileError: weights that do not match ``meta``.
    """
    shapes = expected_shapes(meta, "export")
    if set(weights) != set(shapes) or any(tuple(weights[k].shape) != s for k, s in shapes.items()):
        raise ModelFileError("export: the weights do not match the shapes of the metadata")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": FORMAT, "version": VERSION, "meta": meta,
            "weights": {k: weights[k].detach().to(dtype).contiguous().clone() for k in shapes}}
    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save(data, tmp)
    tmp.replace(path)
    return path


def load_baseline_file(path: str | Path, data: bytes | None = None) -> tuple[BaselineNet, dict]:
    """Read a baseline file and build its network (float32, eval mode).

    Args:
        path: the file (named in messages).
        data: its bytes, when already read (e.g. to check a checksum first); else read here, at most
            :data:`MAX_FILE_BYTES`.

    Returns ``(net, meta)``.

    Raises:
        FileNotFoundError: no such file.
        ModelFileError: not a regular file, too large, not readable by ``torch.load(weights_only=True)`` (a
            pickle that names any class or function is refused before anything runs), not a baseline file,
            metadata out of bounds, or weights that are not floating tensors of the expected shapes with
            finite values, or finite weights so large that the network's outputs are not finite (NaN or inf) for
            an observation of zeros or one of ones.
    """
    what = str(path)
    if data is None:
        data = read_capped(Path(path), MAX_FILE_BYTES)
    bad = check_torch_file(io.BytesIO(data))  # nesting and key sizes bounded before torch's unpickler hashes
    if bad is not None:
        raise ModelFileError(f"{what}: not a baseline file readable as plain tensors ({bad})")
    try:
        obj = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001  (a corrupt or hostile file is a refusal, never a traceback)
        raise ModelFileError(f"{what}: not a baseline file readable as plain tensors ({short_error(e, 200)})") from None
    if not (isinstance(obj, dict) and obj.get("format") == FORMAT):
        raise ModelFileError(f"{what}: not a baseline file (no format entry {FORMAT!r})")
    if obj.get("version") != VERSION:
        raise ModelFileError(f"{what}: baseline format version {str(obj.get('version'))[:20]}, this package reads "
                             f"version {VERSION}")
    meta, weights = obj.get("meta"), obj.get("weights")
    shapes = expected_shapes(meta, what)
    if not isinstance(weights, dict) or set(weights) != set(shapes):
        raise ModelFileError(f"{what}: the weights do not match the network its metadata describes")
    for k, s in shapes.items():
        t = weights[k]
        if not (isinstance(t, torch.Tensor) and t.dtype in (torch.float16, torch.float32) and tuple(t.shape) == s):
            raise ModelFileError(f"{what}: weight {k!r} must be a float16/float32 tensor of shape {s}")
    check_finite(weights, what)
    net = BaselineNet(meta)
    net.load_state_dict({k: weights[k].to(torch.float32) for k in shapes}, strict=True)
    net.eval()
    size = int(meta["obs_size"])
    with torch.no_grad():  # finite weights can still overflow the network: every decision would be refused
        logits, value = net(torch.stack([torch.zeros(size), torch.ones(size)]))
    check_loaded_outputs(what, logits, value, kind="baseline")
    return net, meta
