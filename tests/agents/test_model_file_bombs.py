"""Small crafted model files that would hang or exhaust memory (shared nested tuples hashed or compared,
products of huge sizes, hijacked ``__setstate__``, dtype-object allocations, torch key hashing) are refused
quickly with one clear error.

Each case stays cheap even if its check regressed, unless the fix refuses it before anything hashes it (then
the depths are those of the real attack)."""

from __future__ import annotations

import base64
import io
import struct
import time
import zipfile

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from monolith_envs.agents.model_files import ModelFileError, restricted_loads  # noqa: E402
from monolith_envs.agents.pickle_limits import MAX_TORCH_DEPTH, OverBound, scan_pickle  # noqa: E402
from monolith_envs.agents.ppo import ALLOWED_GLOBALS, RENAMED_GLOBALS, load_maskable_ppo  # noqa: E402
from tests.agents.model_zips import rewrite_zip  # noqa: E402

# --- a tiny pickle assembler ------------------------------------------------------------------------------------
PROTO, STOP = b"\x80\x04", b"."
EMPTY_TUPLE, EMPTY_LIST, EMPTY_DICT, NONE = b")", b"]", b"}", b"N"
MARK, TUPLE, TUPLE1, TUPLE2 = b"(", b"t", b"\x85", b"\x86"
LIST, APPEND, SETITEM, BUILD, REDUCE, NEWOBJ, POP = b"l", b"a", b"s", b"b", b"R", b"\x81", b"0"


def s(x: str) -> bytes:
    b = x.encode()
    return b"\x8c" + bytes([len(b)]) + b


def g(mod: str, name: str) -> bytes:
    return s(mod) + s(name) + b"\x93"


def put(i: int) -> bytes:
    return b"r" + struct.pack("<I", i)


def get(i: int) -> bytes:
    return b"j" + struct.pack("<I", i)


def i1(v: int) -> bytes:
    return b"K" + bytes([v])


def bint(v: int) -> bytes:
    return b"J" + struct.pack("<i", v)


def long4(nbytes: int) -> bytes:
    data = b"\xff" * (nbytes - 1) + b"\x7f"
    return b"\x8b" + struct.pack("<I", len(data)) + data


def bbytes(b: bytes) -> bytes:
    return b"B" + struct.pack("<I", len(b)) + b


def shared_tuple(depth: int, slot: int, leaf: bytes = EMPTY_TUPLE) -> bytes:
    """T_k = (T_{k-1}, T_{k-1}): a few bytes per level, 2**depth leaves."""
    out = leaf + put(slot)
    for _ in range(depth):
        out += get(slot) + TUPLE2 + put(slot)
    return out


def shared_list(depth: int, slot: int) -> bytes:
    out = MARK + b"G" + struct.pack(">d", 1.0) + LIST + put(slot) + POP
    for _ in range(depth):
        out += MARK + get(slot) + get(slot) + LIST + put(slot) + POP
    return out + get(slot)


BOX = g("gymnasium.spaces.box", "Box")
RELU = g("torch.nn.modules.activation", "ReLU")
MD = g("gymnasium.spaces.multi_discrete", "MultiDiscrete")


def _refused(body: bytes, message: str = "") -> str:
    t = time.monotonic()
    with pytest.raises(ModelFileError) as exc:
        restricted_loads(PROTO + body + STOP, ALLOWED_GLOBALS, "bomb.pkl", RENAMED_GLOBALS)
    assert time.monotonic() - t < 5 and message in str(exc.value) and "\n" not in str(exc.value)
    return str(exc.value)


# --- the restricted unpickler ------------------------------------------------------------------------------------

def test_a_list_of_pairs_state_is_refused_before_any_key_is_hashed():
    # depth 60: dict(state) would hash 2**60 tuples; the state's type is refused first
    _refused(BOX + EMPTY_TUPLE + NEWOBJ + EMPTY_LIST + shared_tuple(60, 0) + i1(0) + TUPLE2 + APPEND + BUILD,
             "must be a dict of attributes")
    _refused(RELU + EMPTY_TUPLE + NEWOBJ + EMPTY_LIST + shared_tuple(60, 0) + i1(0) + TUPLE2 + APPEND + BUILD)


def test_an_axis_order_is_checked_for_ints_before_it_is_sorted():
    def sh(depth: int, slot: int) -> bytes:
        return shared_tuple(depth, slot, i1(0) + TUPLE1)
    fb = g("numpy._core.numeric", "_frombuffer")
    _refused(fb + MARK + bbytes(b"\0" * 4) + s("<f4") + i1(1) + TUPLE1 + s("C") + MARK + sh(60, 1) + sh(60, 2)
             + LIST + TUPLE + REDUCE, "axis order")


def test_huge_sizes_are_bounded_before_they_are_multiplied():
    msg = _refused(BOX + MARK + b"G" + struct.pack(">d", 0.0) + b"G" + struct.pack(">d", 1.0) + MARK + long4(2000)
                   + put(5) + get(5) * 31 + TUPLE + TUPLE + REDUCE, "more than the 131072")
    assert len(msg) < 400


@pytest.mark.parametrize("second", [shared_list(16, 3), long4(5000)])
def test_a_state_cannot_set_setstate(second):
    f64, ss = g("numpy", "float64"), g("numpy.random.bit_generator", "SeedSequence")
    hook = f64 if second.startswith(MARK) else ss
    with pytest.raises(ModelFileError):  # refused: ReLU is not created bare, and dunder names are never set
        restricted_loads(PROTO + RELU + EMPTY_TUPLE + NEWOBJ + EMPTY_LIST + s("__setstate__") + hook + TUPLE2 + APPEND
                         + BUILD + second + BUILD + STOP, ALLOWED_GLOBALS, "bomb.pkl", RENAMED_GLOBALS)
    _refused(BOX + EMPTY_TUPLE + NEWOBJ + EMPTY_DICT + s("__setstate__") + hook + SETITEM + BUILD, "__setstate__")


def test_a_space_state_is_checked_before_setstate_allocates():
    _refused(MD + EMPTY_TUPLE + NEWOBJ + EMPTY_DICT + s("_shape") + bint(2**20) + TUPLE1 + SETITEM + s("dtype") + s("O")
             + SETITEM + BUILD, "more than the 131072")
    _refused(MD + EMPTY_TUPLE + NEWOBJ + EMPTY_DICT + s("_shape") + i1(3) + TUPLE1 + SETITEM + s("dtype") + s("O")
             + SETITEM + BUILD, "numeric dtype")


def test_only_spaces_and_schedules_are_created_without_arguments():
    adam = g("torch.optim.adam", "Adam")
    with pytest.raises(ModelFileError, match="may be named in a model file but not called"):
        restricted_loads(PROTO + adam + EMPTY_TUPLE + NEWOBJ + EMPTY_DICT + s("param_groups") + EMPTY_LIST + EMPTY_DICT
                         + s("params") + EMPTY_LIST + shared_tuple(60, 0) + APPEND + SETITEM + APPEND + SETITEM
                         + BUILD + STOP, ALLOWED_GLOBALS, "bomb.pkl", RENAMED_GLOBALS)


def test_state_values_are_walked_with_a_bound():
    _refused(BOX + EMPTY_TUPLE + NEWOBJ + EMPTY_DICT + s("extra") + shared_tuple(40, 0) + SETITEM + BUILD, "nests deeper")


# --- torch checkpoints -------------------------------------------------------------------------------------------

def _torch_file(obj, pkl: bytes | None = None) -> bytes:
    buf = io.BytesIO()
    torch.save(obj, buf)
    if pkl is None:
        return buf.getvalue()
    src, out = zipfile.ZipFile(io.BytesIO(buf.getvalue())), io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n in src.namelist():
            z.writestr(n, pkl if n.endswith("data.pkl") else src.read(n))
    return out.getvalue()


def shared_tuple_q(depth: int) -> bytes:
    """T_depth (BINPUT/BINGET memo opcodes, as protocol 2 writes them), left on the stack."""
    return EMPTY_TUPLE + b"q\x00" + (b"h\x00" + TUPLE2 + b"q\x00") * depth


def _hash_bomb(depth: int) -> bytes:
    # T_k = (T_{k-1}, T_{k-1}) used as a dict key: torch's unpickler hashes it on SETITEM
    return b"\x80\x02" + EMPTY_DICT + shared_tuple_q(depth) + i1(1) + SETITEM + STOP


def test_the_torch_scan_accepts_state_dicts_and_refuses_nested_keys():
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    data = _torch_file({"format": "x", "meta": {"a": [1, 2, {"b": (3, 4)}]}, "state_dict": net.state_dict()})
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        scan_pickle(z.read([n for n in z.namelist() if n.endswith("data.pkl")][0]))
    for depth in (8, 60):  # a key of 2**8 values, and one nested past MAX_TORCH_DEPTH
        with pytest.raises(OverBound):
            scan_pickle(_hash_bomb(depth))
    od = b"c" + b"collections\nOrderedDict\n"
    pairs = EMPTY_LIST + b"q\x01" + shared_tuple_q(20) + i1(1) + TUPLE2 + APPEND
    for bomb in (od + pairs + TUPLE1 + REDUCE, od + EMPTY_TUPLE + REDUCE + pairs + BUILD):  # keys hashed by torch
        with pytest.raises(OverBound, match="keys are hashed"):
            scan_pickle(b"\x80\x02" + bomb + STOP)
    with pytest.raises(OverBound, match=f"more than {MAX_TORCH_DEPTH} deep"):
        scan_pickle(b"\x80\x02" + EMPTY_LIST + b"q\x00" + (MARK + b"h\x00" + LIST + b"q\x00") * 40 + STOP)


def test_an_az_checkpoint_key_bomb_is_refused_before_torch_load(tmp_path):
    from training.az.net import CheckpointError, load_checkpoint

    p = tmp_path / "bomb.pt"
    p.write_bytes(_torch_file({"format": "x"}, _hash_bomb(60)))
    t = time.monotonic()
    with pytest.raises(CheckpointError, match="over a size bound"):
        load_checkpoint(p)
    assert time.monotonic() - t < 5


def test_a_baseline_file_key_bomb_is_refused_before_torch_load(tmp_path):
    from monolith_envs.agents.baselines.net import load_baseline_file

    p = tmp_path / "bomb.pt"
    p.write_bytes(_torch_file({"format": "x"}, _hash_bomb(60)))
    with pytest.raises(ModelFileError, match="over a size bound"):
        load_baseline_file(p)


def _deflated(data: bytes) -> bytes:
    """The torch zip ``data`` with every record rewritten DEFLATE-compressed (torch.load inflates each whole)."""
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for n in src.namelist():
            z.writestr(n, src.read(n))
    return out.getvalue()


def test_a_compressed_torch_record_is_refused_before_torch_inflates_it(tmp_path):
    from monolith_envs.agents.baselines.net import load_baseline_file
    from monolith_envs.agents.pickle_limits import check_torch_file
    from training.az.net import CheckpointError, load_checkpoint

    plain = _torch_file({"format": "x", "w": torch.zeros(64)})
    assert check_torch_file(io.BytesIO(plain)) is None  # torch.save stores its records
    bad = check_torch_file(io.BytesIO(_deflated(plain)))
    assert bad is not None and "is compressed" in bad
    p = tmp_path / "packed.pt"
    p.write_bytes(_deflated(plain))
    with pytest.raises(CheckpointError, match="is compressed"):
        load_checkpoint(p)
    with pytest.raises(ModelFileError, match="is compressed"):
        load_baseline_file(p)


# --- ppo zips ----------------------------------------------------------------------------------------------------

def _entry(key: str, body: bytes):
    def edit(d):
        d[key] = {":type:": "<class 'x'>", ":serialized:": base64.b64encode(PROTO + body + STOP).decode()}
    return edit


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(observation_space={"_shape": [10**300] * 200}), "_shape must be at most 32 sizes"),
    (lambda d: d.update(predict=0), "'predict' would replace MaskablePPO's own attribute"),
    (_entry("action_space", g("gymnasium.spaces.discrete", "Discrete") + EMPTY_TUPLE + NEWOBJ), "malformed"),
    (_entry("observation_space", g("gymnasium.spaces.dict", "Dict") + EMPTY_TUPLE + NEWOBJ + EMPTY_DICT + s("spaces")
            + EMPTY_LIST + SETITEM + BUILD), "malformed"),
    (_entry("action_space", MD + EMPTY_TUPLE + NEWOBJ + EMPTY_DICT + s("nvec") + s("abc") + SETITEM + s("start") + NONE
            + SETITEM + s("_shape") + NONE + SETITEM + BUILD), "nvec"),
])
def test_malformed_ppo_data_is_one_clear_error(toy_model, tmp_path, edit, message):
    p = rewrite_zip(toy_model, tmp_path / "bad.zip", "data", data_edit=edit)
    with pytest.raises(ModelFileError) as exc:
        load_maskable_ppo(p, trusted=False)
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_a_ppo_policy_pth_key_bomb_is_refused_before_torch_load(toy_model, tmp_path):
    p = rewrite_zip(toy_model, tmp_path / "bad.zip", "policy.pth", _torch_file({"x": 1}, _hash_bomb(60)))
    for trusted in (False, True):
        with pytest.raises(ModelFileError, match="'policy.pth': over a size bound"):
            load_maskable_ppo(p, trusted=trusted)


def test_a_multidiscrete_size_is_summed_without_int64_wrap_around():
    import gymnasium as gym
    import numpy as np

    from monolith_envs.agents.ppo import _space_size

    space = gym.spaces.MultiDiscrete(np.array([2**62, 2**62], dtype=np.int64))
    assert int(np.sum(space.nvec)) < 0  # what an int64 sum gives (and a size check would have let through)
    assert _space_size(space, None) == 2**63
