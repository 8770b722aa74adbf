"""Game generation for the recipe: heuristic games (the warm start) and search self-play games.

Both produce the same sample arrays (one row per decision with more than one legal action)::

    {"obs": float16[N, obs_size], "masks": uint8[N, ceil(n/8)] (bit-packed legal masks),
     "pi": float16[N, n] (policy target, sums to 1 over the legal actions), "z": float32[N, num_players]
     (the game's final returns, seat-relative: entry 0 is the acting seat)}

* :func:`heuristic_games`: every seat plays the game's heuristic (``heuristic_for(env_id).policy`` on
  ``resample_hidden`` of the state, as the heuristic agent does), with probability ``epsilon`` a uniformly
  random legal move instead (for variety); ``pi`` is the heuristic's move (one-hot: behaviour cloning) when
  ``value_share`` is 0; otherwise ``(1 - value_share) * one-hot + value_share * softmax(values / tau)`` over the
  legal actions, where the values are the game's heuristic ``state_value`` (``value_fn_for(env_id)``) of each
  legal action applied to a clone of the acting seat's determinization (a ranking of every action, as
  :func:`training.pretrain.collect_value_targets` makes; chance in those applies is drawn from a separate
  generator, so the games played do not depend on ``value_share``).
* :func:`search_games`: ``concurrent`` games at once, every decision searched by
  :class:`~training.az.search.BatchedPUCT` with root noise (one forward pass per simulation round for all
  games); ``pi`` is the root visit distribution; the move is drawn from it for the first ``temp_moves``
  decisions of a game, then the most visited action.

A game that reaches ``game.max_decisions`` stops there; its ``z`` is ``game.returns`` at that point.
The task functions ``*_task(args)`` run one seeded batch of games in a worker process (spawned) and report
progress in games.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .search import BatchedPUCT, visit_target

__all__ = ["heuristic_games", "heuristic_task", "load_samples", "merge_samples", "search_games", "search_task"]


class _Recorder:
    def __init__(self, game: Any):
        self.game = game
        self.obs: list = []
        self.masks: list = []
        self.pi: list = []
        self.z: list = []

    def finish(self, state: Any, rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]) -> None:
        ret = np.asarray(self.game.returns(state), np.float32)
        for obs, mask, pi, seat in rows:
            self.obs.append(np.asarray(obs, np.float16))
            self.masks.append(np.packbits(mask))
            self.pi.append(np.asarray(pi, np.float16))
            self.z.append(np.roll(ret, -seat))

    def arrays(self) -> dict[str, np.ndarray]:
        g = self.game
        n, p = g.layout.n, g.num_players
        if not self.obs:
            return {"obs": np.zeros((0, g.obs_spec.size), np.float16), "masks": np.zeros((0, (n + 7) // 8), np.uint8),
                    "pi": np.zeros((0, n), np.float16), "z": np.zeros((0, p), np.float32)}
        return {"obs": np.stack(self.obs), "masks": np.stack(self.masks), "pi": np.stack(self.pi),
                "z": np.stack(self.z).astype(np.float32)}


#: the most bytes the four arrays of a samples file may unpack to (about 450,000 Arena samples)
MAX_SAMPLES_BYTES = 4 * 2**30
#: the dtype kinds each array of a samples file may have (floats; the bit-packed masks are uint8)
_SAMPLE_KINDS = {"obs": "f", "masks": "u", "pi": "f", "z": "f"}


def _open_samples(path: Any) -> Any:
    """The samples file opened for reading (:func:`~monolith_envs.agents.model_files.open_regular`: a regular
    file, checked on the opened handle, a FIFO never waited on); ``ValueError`` naming the file otherwise."""
    from pathlib import Path

    from monolith_envs.agents.model_files import ModelFileError, open_regular

    try:
        return open_regular(Path(path))
    except FileNotFoundError:
        raise ValueError(f"samples file {str(path)!r} not found") from None
    except ModelFileError as e:
        why = "is not a regular file" if "not a regular file" in str(e) else f"cannot be read ({e})"
        raise ValueError(f"samples file {str(path)!r} {why}") from None


def _check_sample_entries(fh: Any, want: dict[str, int]) -> None:
    """Check the opened samples file ``fh`` before ``np.load`` reads it: a zip with ``obs``, ``masks``, ``pi``
    and ``z`` entries that unpack to at most :data:`MAX_SAMPLES_BYTES` in all, each a 2-d array of its dtype
    kind, ``want[k]`` columns and the rows of ``obs``, whose header declares exactly the bytes the entry holds
    (``np.load`` allocates the declared shape first). Raises ``ValueError`` or ``KeyError`` naming the problem."""
    import zipfile

    fh.seek(0)
    with zipfile.ZipFile(fh) as z:
        infos = {i.filename: i for i in z.infolist()}
        missing = [k for k in _SAMPLE_KINDS if k + ".npy" not in infos]
        if missing:
            raise KeyError(f"no array {missing[0]!r}")
        total = sum(infos[k + ".npy"].file_size for k in _SAMPLE_KINDS)
        if total > MAX_SAMPLES_BYTES:
            raise ValueError(f"the arrays unpack to {total:,} bytes, more than the {MAX_SAMPLES_BYTES:,} allowed")
        rows = None
        for k, kind in _SAMPLE_KINDS.items():
            info = infos[k + ".npy"]
            with z.open(info) as f:
                version = np.lib.format.read_magic(f)
                if version not in ((1, 0), (2, 0)):
                    raise ValueError(f"{k}: .npy format version {version}")
                read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
                shape, fortran, dtype = read(f)
                if dtype.kind != kind or (k == "masks" and dtype != np.uint8) or len(shape) != 2:
                    raise ValueError(f"{k} is {dtype} of shape {shape}; a 2-d array of "
                                     f"{'floats' if kind == 'f' else 'uint8'} is needed")
                if shape[0] * shape[1] * dtype.itemsize != info.file_size - f.tell():
                    raise ValueError(f"{k} declares shape {shape}, more or fewer bytes than it holds")
                rows = shape[0] if rows is None else rows
                if shape != (rows, want[k]):
                    raise ValueError(f"{k} has shape {shape}, this game needs ({rows}, {want[k]})")


def load_samples(path: Any, game: Any) -> dict[str, np.ndarray]:
    """Samples saved with ``np.savez`` (read with ``allow_pickle=False``: data only), checked against ``game``.

    Returns:
        ``{"obs": float[N, m], "masks": uint8[N, ceil(n / 8)] (bit-packed), "pi": float[N, n], "z": float32[N, P]}``.

    Raises:
        ValueError: no such file or not a regular file (a folder, a FIFO), not a zip of the arrays ``obs``,
            ``masks``, ``pi``, ``z``, arrays over :data:`MAX_SAMPLES_BYTES` or of other dtypes or shapes than
            the header or the game needs, values that are not finite, or values no run writes (a mask with
            no legal action; ``pi`` negative, on illegal actions or not summing to 1; ``z`` outside [-1, 1]
            in a ``win_loss`` or ``rank`` game): see :func:`_check_sample_values`.
    """
    import zipfile

    want = {"obs": game.obs_spec.size, "masks": (game.layout.n + 7) // 8, "pi": game.layout.n, "z": game.num_players}
    try:
        with _open_samples(path) as fh:  # checked and read through one handle
            _check_sample_entries(fh, want)
            fh.seek(0)
            with np.load(fh, allow_pickle=False) as f:
                data = {k: f[k] for k in ("obs", "masks", "pi", "z")}
    except (KeyError, OSError, ValueError, zipfile.BadZipFile, EOFError, MemoryError) as e:
        if isinstance(e, ValueError) and str(e).startswith("samples file "):
            raise
        raise ValueError(f"{path}: not a samples file with arrays obs, masks, pi, z ({str(e)[:300]})") from None
    for k in ("obs", "pi", "z"):
        if not np.isfinite(data[k]).all():
            raise ValueError(f"{path}: {k} has values that are not finite (NaN or inf)")
    _check_sample_values(path, data, game)
    data["z"] = data["z"].astype(np.float32, copy=False)
    return data


#: how far a row of ``pi`` may sum from 1 (float16 targets, as the runs write them, sum to 1 within about 5e-4)
PI_SUM_TOLERANCE = 1e-2
#: rows checked at once by :func:`_check_sample_values` (bounds its temporary arrays)
_CHECK_ROWS = 8192


def _z_bound(game: Any) -> float | None:
    """The largest ``|return|`` of ``game``: 1 for the ``win_loss`` and ``rank`` modes (and a one-seat goal),
    ``None`` (no bound but finiteness) for the ``score`` mode or a game that names no ``reward_mode``."""
    mode = (getattr(game, "config", None) or {}).get("reward_mode")
    return 1.0 if mode in ("win_loss", "rank") else None


def _check_sample_values(path: Any, data: dict[str, np.ndarray], game: Any) -> None:
    """Refuse samples no run writes (vectorised, :data:`_CHECK_ROWS` rows at a time): a mask with no legal
    action, a ``pi`` row with a negative entry, probability on an action its mask makes illegal or a sum
    other than 1 (within :data:`PI_SUM_TOLERANCE`), and ``z`` outside ``[-1, 1]`` where the game's returns are
    bounded so (:func:`_z_bound`). ``ValueError`` naming the file, the array, the first bad row and what is
    allowed."""
    n = game.layout.n
    bound = _z_bound(game)
    rows = len(data["pi"])
    for lo in range(0, rows, _CHECK_ROWS):
        hi = min(rows, lo + _CHECK_ROWS)
        mask = np.unpackbits(data["masks"][lo:hi], axis=1, count=n).astype(bool)
        pi = data["pi"][lo:hi].astype(np.float64)
        checks = (
            ("masks", ~mask.any(axis=1), "has no legal action; every row needs at least one"),
            ("pi", (pi < 0).any(axis=1), "has a negative entry; pi is a probability distribution (entries >= 0)"),
            ("pi", (pi * ~mask != 0).any(axis=1), "puts probability on actions its mask makes illegal; pi must "
                                                   "be 0 outside the legal actions"),
            ("pi", np.abs(pi.sum(axis=1) - 1.0) > PI_SUM_TOLERANCE,
             f"does not sum to 1 (within {PI_SUM_TOLERANCE:g}); pi is a probability distribution"),
        )
        if bound is not None:
            z = np.abs(data["z"][lo:hi].astype(np.float64))
            checks += (("z", (z > bound + 1e-5).any(axis=1),
                        f"is outside [-{bound:g}, {bound:g}], the range of this game's returns "
                        f"(reward_mode {game.config['reward_mode']!r})"),)
        for key, bad, why in checks:
            if bad.any():
                r = int(np.argmax(bad))
                raise ValueError(f"{path}: {key} row {lo + r:,} {why}; got {_row_text(key, r, mask, pi, data, lo)}")


def _row_text(key: str, r: int, mask: np.ndarray, pi: np.ndarray, data: dict[str, np.ndarray], lo: int) -> str:
    """A short account of row ``r`` (of the chunk starting at ``lo``) of array ``key``."""
    if key == "masks":
        return "an all-zero mask"
    if key == "z":
        return np.array2string(data["z"][lo + r].astype(np.float64), precision=4, threshold=8)
    legal, row = mask[r], pi[r]
    return (f"sum {row.sum():.4g}, {row[~legal].sum():.4g} on illegal actions, smallest entry {row.min():.4g} "
            f"({int(legal.sum())} legal actions)")


def merge_samples(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Concatenate sample dicts (in order)."""
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _value_target(game: Any, det: Any, seat: int, legal: np.ndarray, value: Any, tau: float,
                  rng: np.random.Generator) -> np.ndarray:
    """``softmax(state_value(apply(det, a))[seat] / tau)`` over ``legal`` (``float64[len(legal)]``)."""
    vals = np.empty(legal.size)
    for i, a in enumerate(legal):
        child = game.clone(det)
        game.apply(child, int(a), rng)
        vals[i] = float(np.asarray(value(game, child), np.float64)[seat])
    z = (vals - vals.max()) / tau
    e = np.exp(z)
    return e / e.sum()


def heuristic_games(game: Any, env_id: str, n_games: int, seed: int, epsilon: float = 0.1,
                    progress: Any = None, value_share: float = 0.0,
                    tau: float = 0.02) -> tuple[dict[str, np.ndarray], dict]:
    """``n_games`` games of the heuristic against itself (see the module docstring) -> ``(samples, stats)``.

    ``stats``: ``{"games", "decisions", "samples"}``. ``progress``: an object with ``put(n)`` (games done).
    ``value_share`` in ``[0, 1]`` and ``tau > 0`` set the soft part of the policy target.
    """
    from agents.heuristics import heuristic_for, value_fn_for

    policy = heuristic_for(env_id).policy
    value = value_fn_for(env_id)
    vrng = np.random.default_rng([*(seed if isinstance(seed, (list, tuple)) else [seed]), 1])  # its own draws
    rng = np.random.default_rng(seed)
    rec = _Recorder(game)
    decisions = 0
    for _ in range(n_games):
        state = game.initial_state(rng)
        rows: list = []
        steps = 0
        while not game.is_terminal(state) and steps < game.max_decisions:
            seat = game.current_player(state)
            mask = np.asarray(game.legal_mask(state), bool)
            legal = np.flatnonzero(mask)
            det = game.resample_hidden(state, seat, rng)
            a = int(policy(game, det, seat, rng))
            if not mask[a]:
                a = int(legal[rng.integers(legal.size)])
            if legal.size > 1:
                pi = np.zeros(mask.size, np.float64)
                pi[a] = 1.0 - value_share
                if value_share > 0:
                    pi[legal] += value_share * _value_target(game, det, seat, legal, value, tau, vrng)
                rows.append((game.observe(state, seat), mask, pi, seat))
                if rng.random() < epsilon:
                    a = int(legal[rng.integers(legal.size)])
            game.apply(state, a, rng)
            steps += 1
        decisions += steps
        rec.finish(state, rows)
        if progress is not None:
            progress.put(1)
    out = rec.arrays()
    return out, {"games": n_games, "decisions": decisions, "samples": int(len(out["obs"]))}


def search_games(game: Any, net: Any, n_games: int, seed: int, simulations: int, concurrent: int = 16,
                 c_puct: float = 1.5, dirichlet_alpha: float = 0.3, noise_frac: float = 0.25, temp_moves: int = 30,
                 progress: Any = None) -> tuple[dict[str, np.ndarray], dict]:
    """``n_games`` self-play games, ``concurrent`` at a time, every decision searched (module docstring).

    Returns ``(samples, stats)`` with ``stats = {"games", "decisions", "samples", "forward_passes",
    "leaf_evals", "returns_mean"}``. Game ``j`` uses its own generator seeded from ``(seed, j)``; the same
    arguments give the same samples.

    Raises:
        ValueError: ``n_games < 0`` or ``concurrent < 1`` (and the search's own checks).
    """
    if n_games < 0 or concurrent < 1:
        raise ValueError(f"search_games: n_games must be >= 0 and concurrent >= 1, got {n_games}, {concurrent}")
    search = BatchedPUCT(game, simulations, c_puct, dirichlet_alpha, noise_frac)
    rec = _Recorder(game)
    slots: list[dict] = []
    started = finished = decisions = 0
    ret_sum = np.zeros(game.num_players)

    def start() -> dict:
        nonlocal started
        rng = np.random.default_rng([seed, started])
        started += 1
        return {"rng": rng, "state": game.initial_state(rng), "rows": [], "steps": 0}

    while finished < n_games:
        while len(slots) < concurrent and started < n_games:
            slots.append(start())
        # play forced moves, and close finished games
        todo = []
        for sl in list(slots):
            st = sl["state"]
            while not game.is_terminal(st) and sl["steps"] < game.max_decisions:
                mask = np.asarray(game.legal_mask(st), bool)
                if mask.sum() > 1:
                    break
                game.apply(st, int(np.flatnonzero(mask)[0]), sl["rng"])
                sl["steps"] += 1
            if game.is_terminal(st) or sl["steps"] >= game.max_decisions:
                rec.finish(st, sl["rows"])
                ret_sum += np.asarray(game.returns(st), np.float64)
                decisions += sl["steps"]
                finished += 1
                slots.remove(sl)
                if progress is not None:
                    progress.put(1)
            else:
                todo.append(sl)
        if not todo:
            continue
        seats = [game.current_player(sl["state"]) for sl in todo]
        visits = search.run(net, [sl["state"] for sl in todo], seats, [sl["rng"] for sl in todo])
        for sl, seat, v in zip(todo, seats, visits):
            st = sl["state"]
            mask = np.asarray(game.legal_mask(st), bool)
            pi = visit_target(v, mask)
            sl["rows"].append((game.observe(st, seat), mask, pi, seat))
            rng = sl["rng"]
            if len(sl["rows"]) <= temp_moves:
                a = int(rng.choice(pi.size, p=pi))
            else:
                a = int(np.argmax(v))
            game.apply(st, a, rng)
            sl["steps"] += 1
    out = rec.arrays()
    return out, {"games": n_games, "decisions": decisions, "samples": int(len(out["obs"])),
                 "forward_passes": search.forward_passes, "leaf_evals": search.leaf_evals,
                 "returns_mean": (ret_sum / max(1, n_games)).tolist()}


def _setup_worker() -> None:
    import torch

    torch.set_num_threads(1)


def heuristic_task(args: tuple) -> tuple[dict, dict]:
    """Worker: ``(env_id, env_config, n_games, seed, epsilon, value_share, tau[, progress])`` ->
    :func:`heuristic_games`."""
    env_id, env_config, n_games, seed, epsilon, value_share, tau, *rest = args
    _setup_worker()
    import monolith_envs

    game = monolith_envs.make_game(env_id, **env_config)
    return heuristic_games(game, env_id, n_games, seed, epsilon, rest[0] if rest else None, value_share, tau)


def search_task(args: tuple) -> tuple[dict, dict]:
    """Worker: ``(checkpoint path, n_games, seed, search options dict[, progress])`` -> :func:`search_games`
    (the game is built from the checkpoint's env id and config)."""
    path, n_games, seed, opts, *rest = args
    _setup_worker()
    import monolith_envs

    from .net import load_checkpoint

    net, meta = load_checkpoint(path)
    game = monolith_envs.make_game(meta["env_id"], **meta["env_config"])
    return search_games(game, net, n_games, seed, progress=rest[0] if rest else None, **opts)
