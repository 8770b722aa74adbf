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


def _arrays(rows: int = 3) -> dict[str, np.ndarray]:
    return {"obs": np.zeros((rows, M), np.float16), "masks": np.zeros((rows, (N + 7) // 8), np.uint8),
            "pi": np.full((rows, N), 1.0 / N, np.float16), "z": np.zeros((rows, P), np.float32)}


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


def test_a_fifo_or_a_folder_is_refused_without_reading(tmp_path):
    from tests.fifo import fifo_error

    fifo = tmp_path / "samples.npz"
    assert "is not a regular file" in fifo_error(fifo, lambda: load_samples(fifo, GAME), ValueError)
    with pytest.raises(ValueError, match="is not a regular file"):
        load_samples(tmp_path, GAME)
