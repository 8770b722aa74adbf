"""``init_samples`` files are data checked before ``np.load`` allocates or inflates anything: a FIFO or a
folder, a header declaring more than the entry holds, other dtypes, row counts or widths, and values that are
not finite are each one ``ValueError`` naming the file and the problem."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

import monolith_envs
from training.az.selfplay import load_samples

GAME = monolith_envs.make_game("the_monolith_v0", num_players=3)
N, M, P = GAME.layout.n, GAME.obs_spec.size, GAME.num_players


#: the legal actions of every row of :func:`_arrays` (the first four)
LEGAL = np.arange(N) < 4


def _arrays(rows: int = 3) -> dict[str, np.ndarray]:
    """``rows`` samples as a run writes them: four legal actions, ``pi`` uniform over them, ``z`` in [-1, 1]."""
    return {"obs": np.zeros((rows, M), np.float16), "masks": np.tile(np.packbits(LEGAL), (rows, 1)),
            "pi": np.tile(np.where(LEGAL, 0.25, 0.0).astype(np.float16), (rows, 1)),
            "z": np.tile(np.array([1.0, -0.5, -0.5], np.float32), (rows, 1))}


def _row(name: str, row: int, value) -> np.ndarray:
    """The array ``name`` of :func:`_arrays` with row ``row`` replaced by ``value``."""
    a = _arrays()[name].copy()
    a[row] = value
    return a


def _save(path, **edits) -> str:
    np.savez_compressed(path, **{**_arrays(), **edits})
    return str(path)


def _declared(path, shape) -> str:
    """A samples file whose ``obs`` header declares ``shape`` but holds no data."""
    hdr = io.BytesIO()
    np.lib.format.write_array_header_1_0(hdr, {"descr": "<f2", "fortran_order": False, "shape": shape})
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("obs.npy", hdr.getvalue())
        for k, a in _arrays().items():
            if k != "obs":
                b = io.BytesIO()
                np.save(b, a)
                z.writestr(k + ".npy", b.getvalue())
    return str(path)


def _without_pi(path) -> str:
    np.savez(path, **{k: v for k, v in _arrays().items() if k != "pi"})
    return str(path)


def test_a_good_file_loads(tmp_path):
    data = load_samples(_save(tmp_path / "ok.npz"), GAME)
    assert data["obs"].shape == (3, M) and data["z"].dtype == np.float32 and float(data["pi"][0].sum()) == pytest.approx(1, abs=1e-2)


@pytest.mark.parametrize("make, message", [
    (lambda d: _save(d / "nan.npz", obs=np.full((3, M), np.nan, np.float16)), "obs has values that are not finite"),
    (lambda d: _save(d / "inf.npz", z=np.full((3, P), np.inf, np.float32)), "z has values that are not finite"),
    (lambda d: _save(d / "complex.npz", obs=np.ones((3, M), np.complex64)), "obs is complex64"),
    (lambda d: _save(d / "floatmask.npz", masks=np.ones((3, (N + 7) // 8)) * 1e9), "masks is float64"),
    (lambda d: _save(d / "u16mask.npz", masks=np.ones((3, (N + 7) // 8), np.uint16)), "masks is uint16"),
    (lambda d: _save(d / "rows.npz", pi=np.zeros((5, N), np.float16)), f"pi has shape (5, {N}), this game needs (3, {N})"),
    (lambda d: _save(d / "width.npz", z=np.zeros((3, P + 1), np.float32)), f"this game needs (3, {P})"),
    (lambda d: _declared(d / "huge.npz", (2**20, 2**20)), "declares shape (1048576, 1048576), more or fewer bytes"),
    (lambda d: _without_pi(d / "nopi.npz"), "no array 'pi'"),
    (lambda d: _save(d / "objects.npz", pi=np.array([[None] * N] * 3)), "pi is object"),
])
def test_a_bad_samples_file_is_one_clear_error(tmp_path, make, message):
    path = make(tmp_path)
    with pytest.raises(ValueError) as e:
        load_samples(path, GAME)
    assert message in str(e.value) and str(tmp_path) in str(e.value)


_ILLEGAL = np.where(LEGAL, 0.1875, 0.0)
_ILLEGAL[10] = 0.25  # 0.25 on an action the mask makes illegal (the row still sums to 1)


@pytest.mark.parametrize("make, message", [
    (lambda d: _save(d / "z.npz", z=_row("z", 1, [1.5, -0.5, -1.0])),
     "z row 1 is outside [-1, 1], the range of this game's returns (reward_mode 'win_loss'); got [ 1.5 -0.5 -1. ]"),
    (lambda d: _save(d / "mask.npz", masks=_row("masks", 2, 0)),
     "masks row 2 has no legal action; every row needs at least one; got an all-zero mask"),
    (lambda d: _save(d / "illegal.npz", pi=_row("pi", 0, _ILLEGAL)),
     "pi row 0 puts probability on actions its mask makes illegal; pi must be 0 outside the legal actions; got "
     "sum 1, 0.25 on illegal actions"),
    (lambda d: _save(d / "half.npz", pi=_row("pi", 1, np.where(LEGAL, 0.125, 0.0))),
     "pi row 1 does not sum to 1 (within 0.01); pi is a probability distribution; got sum 0.5"),
    (lambda d: _save(d / "negative.npz", pi=_row("pi", 2, np.where(LEGAL, [0.75, 0.75, -0.25, -0.25] + [0] * (N - 4), 0))),
     "pi row 2 has a negative entry; pi is a probability distribution (entries >= 0)"),
])
def test_samples_no_run_writes_are_refused_naming_the_array_and_the_row(tmp_path, make, message):
    """Value targets out of range, masks without a legal action and policy targets that are not distributions
    over the legal actions were loaded, and fitted (an all-zero mask gives a NaN loss)."""
    path = make(tmp_path)
    with pytest.raises(ValueError) as e:
        load_samples(path, GAME)
    assert message in str(e.value) and str(e.value).startswith(f"{path}: ")


def test_the_bound_on_z_follows_the_games_reward_mode(tmp_path):
    """``score`` returns are not bounded by 1 (e.g. The Monolith's score_scale x favour difference): kept."""
    path = _save(tmp_path / "score.npz", z=_row("z", 0, [3.0, -1.5, -1.5]))
    score = monolith_envs.make_game("the_monolith_v0", num_players=3, reward_mode="score")
    assert load_samples(path, score)["z"][0].tolist() == [3.0, -1.5, -1.5]
    with pytest.raises(ValueError, match="z row 0 is outside"):
        load_samples(path, monolith_envs.make_game("the_monolith_v0", num_players=3, reward_mode="rank"))


def test_many_rows_are_checked_at_once_and_the_first_bad_row_is_named(tmp_path):
    rows = 20_000  # more than one chunk of the check
    a = _arrays(rows)
    a["z"][rows - 3] = [0.0, 2.0, -2.0]
    a["z"][rows - 1] = [0.0, 3.0, -3.0]
    np.savez(tmp_path / "big.npz", **a)
    with pytest.raises(ValueError, match=f"z row {rows - 3:,} is outside"):
        load_samples(tmp_path / "big.npz", GAME)


GAMES = [("monolith_arena_v0", {"num_players": 2}), ("monolith_arena_v0", {"num_players": 4, "mode": "teams"}),
         ("monolith_strategy_v0", {"num_players": 1}), ("the_monolith_v0", {"num_players": 4, "reward_mode": "rank"}),
         ("monolith_strategy_v0", {"num_players": 2, "reward_mode": "score"})]


@pytest.mark.parametrize("env_id, cfg", GAMES, ids=["arena_duel", "arena_teams", "strategy_solo", "monolith_rank",
                                                    "strategy_score"])
def test_the_samples_a_run_writes_load(tmp_path, env_id, cfg):
    """Warm-start samples (one-hot and soft targets) and self-play samples (visit distributions) pass the checks."""
    import torch

    from training.az.net import net_for_game
    from training.az.selfplay import heuristic_games, merge_samples, search_games

    game = monolith_envs.make_game(env_id, **dict(cfg, max_decisions=30))
    torch.manual_seed(0)
    parts = [heuristic_games(game, env_id, 1, seed=0, value_share=share)[0] for share in (0.0, 0.5)]
    parts.append(search_games(game, net_for_game(game, (8,)), 2, seed=0, simulations=3, concurrent=2)[0])
    data = merge_samples(parts)
    np.savez_compressed(tmp_path / "s.npz", **data)
    assert len(load_samples(tmp_path / "s.npz", game)["pi"]) == len(data["pi"]) > 0


def test_a_fifo_or_a_folder_is_refused_without_reading(tmp_path):
    from tests.fifo import fifo_error

    fifo = tmp_path / "samples.npz"
    assert "is not a regular file" in fifo_error(fifo, lambda: load_samples(fifo, GAME), ValueError)
    with pytest.raises(ValueError, match="is not a regular file"):
        load_samples(tmp_path, GAME)
