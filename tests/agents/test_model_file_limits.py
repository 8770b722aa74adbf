"""Model files are data: every size is bounded before anything is allocated, bad weights are refused at load, and
each refusal is one short line naming what was wrong and what is allowed.

The crafted sizes sit just above the bounds (or a few MB at most), so a regression allocates little: nothing
here can take more than a few hundred MB even if a check is removed.
"""

from __future__ import annotations

import base64
import collections
import pickle

import numpy as np
import pytest

pytest.importorskip("torch")
import gymnasium as gym  # noqa: E402
import numpy.random._pickle as numpy_pickle  # noqa: E402
import torch  # noqa: E402

import monolith_envs  # noqa: E402
from agents import AgentError, AgentSpecError, make_agent  # noqa: E402
from monolith_envs.agents.model_files import (  # noqa: E402
    MAX_SPACE_ELEMENTS,
    ModelFileError,
    ModelTrustError,
    restricted_loads,
    short_error,
)
from monolith_envs.agents.ppo import ALLOWED_GLOBALS, check_policy, load_maskable_ppo  # noqa: E402
from tests.agents.model_zips import rewrite_zip  # noqa: E402

BIG = MAX_SPACE_ELEMENTS + 1


class _Call:
    """Pickles as ``func(*args)`` (a REDUCE), whatever ``func`` is."""

    def __init__(self, func, *args):
        self.func, self.args = func, args

    def __reduce__(self):
        return self.func, self.args


def _loads(obj, protocol=4):
    return restricted_loads(pickle.dumps(obj, protocol=protocol), ALLOWED_GLOBALS, "test.pkl")


def _nested(depth):
    v = [1]
    for _ in range(depth):
        v = [v, v]  # shared: a few bytes per level, 2**depth leaves when expanded
    return v


# --- the restricted unpickler -------------------------------------------------------------------------------------

def test_spaces_numpy_and_containers_still_round_trip():
    box = gym.spaces.Box(0.0, 1.0, (7,), np.float32, seed=3)
    value = {"box": box, "dict": gym.spaces.Dict({"a": gym.spaces.Discrete(5, seed=1), "b": box}),
             "md": gym.spaces.MultiDiscrete([2, 3]), "mb": gym.spaces.MultiBinary(4), "arr": np.arange(6.0).reshape(2, 3),
             "f32": np.float32(1.5), "dq": collections.deque([{"r": 1.0}], maxlen=100),
             "od": collections.OrderedDict(w=np.ones(3, np.float32)), "rng": np.random.default_rng(4)}
    for protocol in (4, 5):
        out = _loads(value, protocol)
        assert out["box"] == box and out["dict"] == value["dict"] and out["md"] == value["md"]
        assert np.array_equal(out["arr"], value["arr"]) and out["f32"] == np.float32(1.5)
        assert list(out["dq"]) == [{"r": 1.0}] and out["dq"].maxlen == 100 and list(out["od"]) == ["w"]
        assert out["rng"].random() == np.random.default_rng(4).random()


@pytest.mark.parametrize("make, message", [
    (lambda: _Call(gym.spaces.Box, 0.0, 1.0, (BIG,), np.float32), f"has {BIG} elements, more than the {MAX_SPACE_ELEMENTS}"),
    (lambda: _Call(gym.spaces.Box, 0.0, 1.0, (512, 512), np.float32), f"more than the {MAX_SPACE_ELEMENTS} allowed"),
    (lambda: _Call(gym.spaces.Discrete, BIG), f"Discrete n must be an integer from 1 to {MAX_SPACE_ELEMENTS}"),
    (lambda: _Call(gym.spaces.MultiBinary, (BIG,)), f"MultiBinary n ({BIG},) has {BIG} elements"),
    (lambda: _Call(np.dtype, "O"), "numeric dtype"),
])
def test_a_space_call_over_the_bounds_is_refused_before_it_is_built(monkeypatch, make, message):
    built = []
    for cls in (gym.spaces.Box, gym.spaces.Discrete, gym.spaces.MultiBinary):
        init = cls.__init__
        monkeypatch.setattr(cls, "__init__", lambda self, *a, _i=init, **k: (built.append(a), _i(self, *a, **k))[1])
    with pytest.raises(ModelFileError, match="over a size bound") as exc:
        _loads(make())
    assert message in str(exc.value) and not isinstance(exc.value, ModelTrustError) and not built


def test_a_space_state_over_the_bounds_is_refused():
    box = gym.spaces.Box(0.0, 1.0, (3,), np.float32)
    box._shape = (BIG,)  # arrays of 3 values, a claimed shape past the bound
    with pytest.raises(ModelFileError, match=f"has {BIG} elements, more than the {MAX_SPACE_ELEMENTS}"):
        _loads(box)


@pytest.mark.parametrize("payload, message", [
    (lambda: _Call(np.ndarray, (2**20,)), "numpy.ndarray may be named in a model file but not called"),
    (lambda: _Call(np.random.SeedSequence, 0, (), 2**20), "may be named in a model file but not called"),
    (lambda: _Call(np.float32, _nested(3)), "numpy.float32 may be named in a model file but not called"),
    # numpy's pickle helpers call their second argument: it must be the bit-generator helper itself
    (lambda: _Call(getattr(numpy_pickle, "__generator_ctor"), (2**20,), np.ndarray),
     "random generator must be made from"),
    (lambda: _Call(np._core.multiarray._reconstruct, np.ndarray, (2**20,), b"f"), "start shape"),
    (lambda: _Call(gym.spaces.Box, _nested(20), 1.0), "Box low must be a number or a numeric array"),
])
def test_calls_that_would_allocate_are_refused(payload, message):
    with pytest.raises(ModelFileError) as exc:
        _loads(payload())
    assert message in str(exc.value)


def test_shared_references_cannot_expand_a_small_pickle():
    blob = pickle.dumps({"net_arch": _nested(22)}, protocol=4)
    assert len(blob) < 300
    with pytest.raises(ModelFileError, match="holds too many containers"):
        restricted_loads(blob, ALLOWED_GLOBALS, "test.pkl")
    key = (1,)
    for _ in range(22):
        key = (key, key)  # hashing it would take 2**22 steps (2**40 at depth 40)
    with pytest.raises(ModelFileError, match="key must be a plain value"):
        _loads({key: 1})


class _Array:
    """Pickles as an array whose data is ``data`` (the same bytes object each time: memoized once)."""

    def __init__(self, data):
        self.data = data

    def __reduce__(self):
        return (np._core.multiarray._reconstruct, (np.ndarray, (0,), b"b"),
                (1, (len(self.data),), np.dtype("u1"), False, self.data))


def test_arrays_cannot_copy_the_same_bytes_many_times():
    data = bytes(2**16)
    blob = pickle.dumps([_Array(data) for _ in range(200)], protocol=4)  # 12.5 MiB of arrays from 66 KiB
    assert len(blob) < 2**16 + 10_000
    with pytest.raises(ModelFileError, match="more bytes than the file"):
        restricted_loads(blob, ALLOWED_GLOBALS, "test.pkl")
    assert [a.size for a in _loads([_Array(data)] * 3)] == [2**16] * 3  # one copy per array state


def test_the_pickle_cannot_change_a_class_or_replace_a_method():
    before = collections.OrderedDict.__dict__.get("popitem")
    blob = b"\x80\x04ccollections\nOrderedDict\nN}\x8c\x07popitem\x8c\x01xs\x86b."  # BUILD (None, {...}) on the class
    with pytest.raises(ModelTrustError, match="may not change"):
        restricted_loads(blob, ALLOWED_GLOBALS, "test.pkl")
    assert collections.OrderedDict.__dict__.get("popitem") is before
    box = gym.spaces.Box(0.0, 1.0, (2,), np.float32)
    box.__dict__["sample"] = np.ndarray  # a stored callable in place of a method
    with pytest.raises(ModelTrustError, match="may not set 'sample'"):
        _loads(box)


def test_a_schedule_whose_function_is_an_allowed_global_is_refused():
    """A bare schedule's state may hold a schedule object, never an allowed function it would call later."""
    from stable_baselines3.common.utils import ConstantSchedule, FloatSchedule

    from monolith_envs.agents.model_files import ModelTrustError, restricted_loads

    ok = FloatSchedule(ConstantSchedule(3e-4))
    assert restricted_loads(pickle.dumps(ok), ALLOWED_GLOBALS, "lr")(0.5) == pytest.approx(3e-4)
    bad = FloatSchedule(ConstantSchedule(3e-4))
    bad.value_schedule = numpy_pickle.__bit_generator_ctor
    with pytest.raises(ModelTrustError, match="may not set 'value_schedule' of a FloatSchedule"):
        restricted_loads(pickle.dumps(bad), ALLOWED_GLOBALS, "lr")


def test_a_huge_memo_index_allocates_nothing():
    blob = b"\x80\x04K\x01r" + (2**24).to_bytes(4, "little") + b"."  # LONG_BINPUT 2**24 (C: a 256 MiB memo)
    assert restricted_loads(blob, ALLOWED_GLOBALS, "test.pkl") == 1


# --- ppo: ---------------------------------------------------------------------------------------------------------

def _serialized(obj):
    return {":type:": "<class 'x'>", ":serialized:": base64.b64encode(pickle.dumps(obj, protocol=4)).decode()}


def _piece_kwargs(**fe):
    from monolith_envs.agents.sb3_features import PieceEncoder

    return {"net_arch": [8], "features_extractor_class": PieceEncoder,
            "features_extractor_kwargs": {"pieces": [], "row_dim": 8, "features_dim": 16, **fe}}


@pytest.mark.parametrize("trusted", [False, True])
@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(observation_space=_serialized(_Call(gym.spaces.Box, 0.0, 1.0, (BIG,), np.float32))),
     f"Box shape ({BIG},) has {BIG} elements, more than the {MAX_SPACE_ELEMENTS} allowed"),
    (lambda d: d.update(policy_kwargs=_serialized(_piece_kwargs(features_dim=9000))),
     "['features_dim'] must be an integer from 1 to 8192, got 9000"),
    (lambda d: d.update(policy_kwargs=_serialized(_piece_kwargs(pieces=[[0, 1, 1]] * 300))),
     "must be a list of at most 256 [offset, rows, width] triples"),
    (lambda d: d.update(policy_kwargs=_serialized(_piece_kwargs(bogus=1))), "unknown setting 'bogus'"),
    (lambda d: d.update(policy_kwargs={"net_arch": [8], "log_std_init": 1.0}), "unknown policy_kwargs key"),
    (lambda d: d.update(policy_class=_serialized(gym.spaces.Box)), "entry 'policy_class' must be one of"),
    (lambda d: d.update(policy_kwargs=_serialized({"activation_fn": np.ndarray})), "['activation_fn'] must be one of"),
])
def test_ppo_settings_over_the_bounds_are_refused_before_the_policy_is_built(toy_model, tmp_path, edit, message,
                                                                            trusted):
    bad = rewrite_zip(toy_model, tmp_path / "bad.zip", "data", data_edit=edit)
    with pytest.raises(ModelFileError) as exc:
        load_maskable_ppo(bad, trusted=trusted)
    assert message in str(exc.value) and str(bad) in str(exc.value) and "\n" not in str(exc.value)


def test_ppo_weights_are_counted_without_allocating():
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from monolith_envs.agents.sb3_features import PieceEncoder

    objs = {"policy_class": MaskableActorCriticPolicy, "observation_space": gym.spaces.Box(0, 1, (5000,), np.float32),
            "action_space": gym.spaces.Discrete(10),
            "policy_kwargs": {"features_extractor_class": PieceEncoder,  # 400k encoded values x 8192: 3.3e9 weights
                              "features_extractor_kwargs": {"pieces": [[0, 100, 50]], "row_dim": 4096,
                                                            "features_dim": 8192}}}
    with pytest.raises(ModelFileError, match=r"the policy would have 33\d{8} weights, more than the 134217728"):
        check_policy(__import__("pathlib").Path("m.zip"), {}, objs)


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_ppo_non_finite_weights_are_refused_at_load(toy_model, tmp_path, value):
    def poison(sd):
        k = next(k for k, t in sd.items() if t.is_floating_point())
        sd[k] = torch.full_like(sd[k], value)
        return sd

    bad = rewrite_zip(toy_model, tmp_path / "nan.zip", "policy.pth", state_dict_edit=poison)
    with pytest.raises(ModelFileError, match=r"policy.pth: weight '.*' has values that are not finite"):
        load_maskable_ppo(bad)


def test_ppo_path_that_is_not_a_file_says_so(tmp_path):
    with pytest.raises(ModelFileError, match="not a regular file .a folder.; a ppo: model is the .zip file"):
        load_maskable_ppo(tmp_path)
    with pytest.raises(ModelFileError, match="not a regular file .a device"):
        load_maskable_ppo("/dev/null")
    with pytest.raises(FileNotFoundError, match="no MaskablePPO model"):
        load_maskable_ppo(tmp_path / "missing.zip")


def test_ppo_weights_of_another_net_give_one_short_line(toy_model, tmp_path):
    bad = rewrite_zip(toy_model, tmp_path / "wrong.zip", "policy.pth",
                      state_dict_edit=lambda sd: {k: torch.zeros(3) for k in sd})
    with pytest.raises(ModelFileError, match="not a loadable MaskablePPO model") as exc:
        load_maskable_ppo(bad)
    assert "\n" not in str(exc.value) and len(str(exc.value)) < len(str(bad)) + 320


def test_short_error_keeps_torchs_reason_only():
    e = pickle.UnpicklingError("Weights only load failed. In PyTorch 2.6, we changed ... trusted source.\n\n\n"
                               "Trying to load unsupported GLOBAL posix.system whose module posix is blocked.\n\n"
                               "Check the documentation of torch.load to learn more.")
    assert short_error(e) == ("UnpicklingError: Trying to load unsupported GLOBAL posix.system whose module posix "
                              "is blocked.")
    assert short_error(RuntimeError("Error(s) in loading:\n\tsize mismatch for a\n\tb")).count("\n") == 0


# --- az: ----------------------------------------------------------------------------------------------------------

def _az(tmp_path, env_id="the_monolith_v0", config=None, name="net.pt", edit=None):
    from training.az.net import PolicyValueNet

    game = monolith_envs.make_game(env_id, **(config or {}))
    net = PolicyValueNet(game.obs_spec.size, game.layout.n, game.num_players, (8,))
    blob = {"format": "monolith-az-v1", "meta": dict(net.meta, env_id=env_id, env_config=dict(config or {})),
            "state_dict": {k: v.clone() for k, v in net.state_dict().items()}}
    if edit is not None:
        edit(blob)
    torch.save(blob, tmp_path / name)
    return tmp_path / name


@pytest.mark.parametrize("edit, message", [
    (lambda b: b["meta"].update(hidden=[9000]), "'hidden' must be a list of 1 to 16 widths from 1 to 8192, got [9000]"),
    (lambda b: b["meta"].update(hidden=[8] * 17), "'hidden' must be a list of 1 to 16 widths"),
    (lambda b: b["meta"].update(obs_size=BIG), f"'obs_size' must be an integer from 1 to {MAX_SPACE_ELEMENTS}"),
    (lambda b: b["meta"].update(num_players=17), "'num_players' must be an integer from 1 to 16"),
    (lambda b: b["meta"].update(env_config=_nested(22)), "'env_config' must be a dict of plain values"),
    (lambda b: b["state_dict"].update({"trunk.0.weight": torch.zeros(3, 3)}), "must be a float tensor of shape"),
    (lambda b: b["state_dict"]["policy.bias"].fill_(float("nan")), "'policy.bias' has values that are not finite"),
    (lambda b: b["state_dict"]["trunk.0.weight"].fill_(float("-inf")), "'trunk.0.weight' has values that are not"),
])
def test_az_checkpoint_is_checked_before_the_network_is_built(tmp_path, monkeypatch, edit, message):
    from training.az import net as az_net
    from training.az.net import CheckpointError

    path = _az(tmp_path, edit=edit)
    built = []
    monkeypatch.setattr(az_net.PolicyValueNet, "__init__", lambda self, *a: built.append(a))
    with pytest.raises(CheckpointError) as exc:
        make_agent(f"az:{path}", "the_monolith_v0")
    assert message in str(exc.value) and not built and "\n" not in str(exc.value)


def test_az_file_size_is_capped_and_devices_are_refused(tmp_path, monkeypatch):
    from training.az import net as az_net
    from training.az.net import CheckpointError

    path = _az(tmp_path)
    monkeypatch.setattr(az_net, "MAX_CHECKPOINT_BYTES", 1000)
    with pytest.raises(CheckpointError, match="bytes, more than the 1000 bytes allowed"):
        az_net.load_checkpoint(path)
    with pytest.raises(CheckpointError, match="not a regular file"):
        az_net.load_checkpoint("/dev/zero")


def test_az_pickle_payload_is_one_short_line(tmp_path):
    from training.az.net import CheckpointError

    bad = tmp_path / "evil.pt"
    torch.save({"format": "monolith-az-v1", "meta": _Call(print, "owned")}, bad)
    with pytest.raises(CheckpointError, match="not a plain-tensor checkpoint") as exc:
        make_agent(f"az:{bad}", "the_monolith_v0")
    assert "In PyTorch 2.6" not in str(exc.value) and len(str(exc.value)) < len(str(bad)) + 220


def test_az_checkpoint_of_another_game_or_config_is_refused(tmp_path):
    from agents.az_agent import AZAgent, make_az_agent

    path = _az(tmp_path, config={"num_players": 4})
    with pytest.raises(AgentError, match="trained on the_monolith_v0 .*not on monolith_arena_v0"):
        make_az_agent(str(path), "monolith_arena_v0")
    with pytest.raises(AgentError, match="plays 4 seats .* has 3 seats"):
        make_az_agent(f"{path}+search:2", "the_monolith_v0", {"num_players": 3})
    assert make_az_agent(str(path), "the_monolith_v0", {"num_players": 4}).meta["num_players"] == 4
    agent = AZAgent(str(path))  # no env given: checked when bound
    env = monolith_envs.make("the_monolith_v0", wrapped=False, num_players=2)
    env.reset(seed=0)
    with pytest.raises(AgentError, match="plays 4 seats .* this env has 2 seats"):
        agent.bind(env)
    env = monolith_envs.make("the_monolith_v0", wrapped=False, num_players=4)
    env.reset(seed=0)
    agent.bind(env)


def test_make_agent_refuses_an_az_checkpoint_of_another_game_or_seat_count_when_made(tmp_path):
    path = _az(tmp_path, config={"num_players": 4})
    with pytest.raises(AgentError, match="trained on the_monolith_v0 .*not on monolith_arena_v0"):
        make_agent(f"az:{path}", "monolith_arena_v0")
    with pytest.raises(AgentError, match="plays 4 seats .* has 3 seats"):
        make_agent(f"az:{path}", "the_monolith_v0", {"num_players": 3})
    assert make_agent(f"az:{path}", "the_monolith_v0", {"num_players": 4}).meta["num_players"] == 4
    # the env's own keys beside the game's (as --set passes them) are not mistaken for the agent's fault
    assert make_agent(f"az:{path}", "the_monolith_v0", {"num_players": 4, "illegal_action": "raise"}) is not None


@pytest.mark.parametrize("n, ok", [("1000000", True), ("1000001", False), ("10" * 10, False), ("\u0665", False),
                                   ("0", False), ("5_0", False)])
def test_az_search_n_has_the_search_bound(n, ok):
    from agents.az_agent import parse_az_spec

    if ok:
        assert parse_az_spec(f"x.pt+search:{n}") == ("x.pt", int(n))
        return
    with pytest.raises(ValueError, match="integer >= 1 and at most 1000000"):
        parse_az_spec(f"x.pt+search:{n}")
    with pytest.raises(AgentSpecError, match="at most 1000000"):
        make_agent(f"az:x.pt+search:{n}", "the_monolith_v0")


def test_az_search_suffix_takes_any_case_and_a_file_named_by_the_whole_text_is_a_path(tmp_path):
    from agents.az_agent import parse_az_spec

    assert parse_az_spec("x.pt+SEARCH:8") == ("x.pt", 8)
    assert parse_az_spec("runs/A+Search:2/final.pt+search:16") == ("runs/A+Search:2/final.pt", 16)
    with pytest.raises(ValueError, match="needs its number of simulations"):
        parse_az_spec("x.pt+Search")
    folder = tmp_path / "run+search:3"
    folder.mkdir()
    (folder / "final.pt").write_bytes(b"")
    path = str(folder / "final.pt")
    assert parse_az_spec(path) == (path, 0)  # its folder's name is not read as a search
    assert parse_az_spec(path + "+search:4") == (path, 4)
    assert parse_az_spec("runs/\u0130stanbul/final.pt+search:8") == ("runs/\u0130stanbul/final.pt", 8)  # lower() lengthens
    long = "a" * 300 + ".pt"  # too long a name for the system: a path that does not exist, not an OSError
    assert parse_az_spec(long) == (long, 0)
    with pytest.raises(AgentError, match="no policy-value checkpoint"):
        make_agent(f"az:{long}", "monolith_arena_v0")


def test_a_misspelt_search_suffix_after_a_checkpoint_that_exists_is_named(tmp_path):
    from agents.az_agent import parse_az_spec

    ckpt = tmp_path / "final.pt"
    ckpt.write_bytes(b"")
    with pytest.raises(ValueError, match=r"no such file, and '\+serach:8' is not \+search:N \(the search of N "):
        parse_az_spec(f"{ckpt}+serach:8")
    with pytest.raises(AgentSpecError, match=r"'\+serach:8' is not \+search:N"):
        make_agent(f"az:{ckpt}+serach:8", "monolith_arena_v0")
    other = str(tmp_path / "none.pt") + "+serach:8"  # nothing there at all: the missing file is the error
    assert parse_az_spec(other) == (other, 0)
