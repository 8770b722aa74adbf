"""``ppo:PATH`` files that are corrupt, oversized or hostile: each one is a single clear error (a
``ModelFileError``), trusted or not, before anything large is unpacked or allocated; no payload runs."""

from __future__ import annotations

import pickle
import struct
import zipfile

import pytest

from agents.model_files import ModelFileError, ModelTrustError
from agents.ppo import MAX_ENTRY_BYTES, load_maskable_ppo
from tests.agents.model_zips import rewrite_zip
from tests.toy_game import ENV_ID


class _WritesFile:
    def __init__(self, target):
        self.target = target

    def __reduce__(self):
        import pathlib

        return (pathlib.Path.write_text, (pathlib.Path(self.target), "owned"))


def _declare_size(path, entry, size):
    """Patch the declared uncompressed size of ``entry`` (local and central headers) to ``size`` bytes."""
    buf = bytearray(path.read_bytes())
    name = entry.encode()
    for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        i = buf.find(sig)
        while i >= 0:
            name_at = i + (30 if sig == b"PK\x03\x04" else 46)
            if bytes(buf[name_at:name_at + len(name)]) == name:
                buf[i + off:i + off + 4] = struct.pack("<I", size)
            i = buf.find(sig, i + 4)
    path.write_bytes(bytes(buf))
    return path


def _garbage_pth(m, d, t):
    return rewrite_zip(m, d, "policy.pth", b"\x00garbage" * 100)


def _pickled_pth(m, d, t):
    return rewrite_zip(m, d, "policy.pth", pickle.dumps(_WritesFile(t)))


def _bomb(m, d, t):
    return _declare_size(rewrite_zip(m, d, "policy.pth", b"\x00" * 1000), "policy.pth", 2**32 - 16)


def _deep_data(m, d, t):
    return rewrite_zip(m, d, "data", b"[" * 200_000 + b"]" * 200_000)


def _huge_n_steps(m, d, t):
    return rewrite_zip(m, d, "data", data_edit=lambda x: x.update(n_steps=10**9))


def _huge_net(m, d, t):
    return rewrite_zip(m, d, "data", data_edit=lambda x: x.update(policy_kwargs={"net_arch": [60000, 60000, 60000]}))


def _not_zip(m, d, t):
    d.write_bytes(b"PK\x03\x04 not really a zip" * 50)
    return d


def _drop_pth(m, d, t):
    with zipfile.ZipFile(m) as zin, zipfile.ZipFile(d, "w") as zout:
        for item in zin.infolist():
            if item.filename != "policy.pth":
                zout.writestr(item, zin.read(item.filename))
    return d


CASES = {
    "garbage policy.pth": (_garbage_pth, "not a loadable MaskablePPO model"),
    "pickled policy.pth": (_pickled_pth, "not a loadable MaskablePPO model"),
    "4 GiB zip bomb": (_bomb, f"'policy.pth' unpacks to {2**32 - 16} bytes, more than the {MAX_ENTRY_BYTES}"),
    "200k-deep data": (_deep_data, "nested too deeply"),
    "n_steps=10**9": (_huge_n_steps, "n_steps must be an integer from 1 to"),
    "net_arch of 60000-wide layers": (_huge_net, "weights, more than the"),
    "not a zip": (_not_zip, "not a readable SB3 model zip"),
    "data is a list": (lambda m, d, t: rewrite_zip(m, d, "data", b"[1, 2]"), "entry 'data' is not a JSON object"),
    "data not UTF-8": (lambda m, d, t: rewrite_zip(m, d, "data", b"{\xff}"), "not a readable SB3 model zip"),
    "n_envs=0": (lambda m, d, t: rewrite_zip(m, d, "data", data_edit=lambda x: x.update(n_envs=0)),
                 "n_envs must be an integer from 1 to"),
    "n_steps a string": (lambda m, d, t: rewrite_zip(m, d, "data", data_edit=lambda x: x.update(n_steps="32")),
                         "n_steps must be an integer from 1 to"),
    "no policy.pth": (_drop_pth, "not a loadable MaskablePPO model"),
    "policy.pth a list": (lambda m, d, t: rewrite_zip(m, d, "policy.pth", state_dict_edit=lambda sd: list(sd.values())),
                          "not a loadable MaskablePPO model"),
}


@pytest.mark.parametrize("trusted", [False, True])
@pytest.mark.parametrize("case", list(CASES))
def test_bad_model_file_is_one_clear_error(toy_model, tmp_path, case, trusted):
    make, message = CASES[case]
    target = tmp_path / "pwned.txt"
    bad = make(toy_model, tmp_path / "bad.zip", target)
    with pytest.raises(ModelFileError) as exc:
        load_maskable_ppo(bad, trusted=trusted)
    assert message in str(exc.value) and str(bad) in str(exc.value)
    assert not isinstance(exc.value, ModelTrustError) and not target.exists()


@pytest.mark.parametrize("trusted", [False, True])
@pytest.mark.parametrize("keep, message", [
    (lambda k: False, r"entry 'policy.pth' lacks 1\d of the policy's 1\d weights \(.*, \.\.\.\); the file is incomplete"),
    (lambda k: "features_extractor." not in k,  # no copy of the extractor at all
     r"lacks 6 of the policy's 14 weights \('features_extractor\.head\.0\.weight', "),
])
def test_a_model_missing_weights_that_sb3_would_leave_random_is_refused(toy_piece_model, tmp_path, keep, message,
                                                                        trusted):
    """SB3 takes a file whose ``policy.pth`` lacks the actor's feature-extractor copy for a model of SB3 before
    1.7 and loads it, leaving every missing weight at its random initial value; here it is refused."""
    bad = rewrite_zip(toy_piece_model, tmp_path / "bad.zip", "policy.pth",
                      state_dict_edit=lambda sd: {k: v for k, v in sd.items() if keep(k)})
    with pytest.raises(ModelFileError, match=message):
        load_maskable_ppo(bad, trusted=trusted)


def test_a_model_with_its_own_critic_extractor_missing_is_refused(toy_split_model, tmp_path):
    """Only a shared extractor's copies may be missing: a critic with an extractor of its own would keep its
    random start values (SB3 loads it, and warns only of an old SB3 version)."""
    bad = rewrite_zip(toy_split_model, tmp_path / "bad.zip", "policy.pth", state_dict_edit=lambda sd: {
        k: v for k, v in sd.items() if not k.startswith(("pi_features_extractor.", "vf_features_extractor."))})
    with pytest.raises(ModelFileError, match=r"lacks 4 of the policy's \d+ weights \('pi_features_extractor\."):
        load_maskable_ppo(bad)
    assert load_maskable_ppo(toy_split_model).policy.share_features_extractor is False


def test_a_model_saved_without_the_split_feature_extractors_loads_with_the_shared_ones(toy_piece_model, tmp_path):
    """SB3 before 1.7 saved one ``features_extractor`` for the actor and the critic: such a file has every
    weight that matters and loads, with the same action probabilities and no SB3 warning about it."""
    import warnings

    import numpy as np

    old = rewrite_zip(toy_piece_model, tmp_path / "old.zip", "policy.pth", state_dict_edit=lambda sd: {
        k: v for k, v in sd.items() if not k.startswith(("pi_features_extractor.", "vf_features_extractor."))})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, b = load_maskable_ppo(toy_piece_model).policy, load_maskable_ppo(old).policy
    sa, sb = a.state_dict(), b.state_dict()
    assert sa.keys() == sb.keys() and all(np.array_equal(sa[k].numpy(), sb[k].numpy()) for k in sa)


def test_a_fifo_is_refused_without_reading(tmp_path):
    import os

    fifo = tmp_path / "model.zip"
    os.mkfifo(fifo)
    with pytest.raises(ModelFileError, match="not a regular file"):
        load_maskable_ppo(fifo)


@pytest.mark.parametrize("case", ["pickled policy.pth", "4 GiB zip bomb", "200k-deep data", "n_steps=10**9"])
def test_evaluate_cli_gives_one_error_line(toy_model, tmp_path, capsys, monkeypatch, case):
    from training.evaluate import main

    monkeypatch.delenv("MONOLITH_ENVS_TRUST_MODELS", raising=False)
    make, message = CASES[case]
    bad = make(toy_model, tmp_path / "bad.zip", tmp_path / "pwned.txt")
    with pytest.raises(SystemExit) as exc:
        main(["--env", ENV_ID, "--agents", f"random,ppo:{bad}", "--games", "1", "--workers", "1",
              "--out", str(tmp_path / "e.json")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "Traceback" not in err and message in err.splitlines()[-1]
    assert err.splitlines()[-1].startswith("python -m training.evaluate: error:")
    assert not (tmp_path / "pwned.txt").exists() and not (tmp_path / "e.json").exists()


@pytest.mark.parametrize("trusted", [False, True])
def test_the_file_checked_is_the_file_loaded(toy_model, tmp_path, monkeypatch, trusted):
    """The checks and SB3's load read one opened file: a file put at the same path after the checks (here:
    the same model with other weights, unchecked) is never the one loaded."""
    import shutil

    import torch

    import agents.ppo as ppo_mod

    path = tmp_path / "model.zip"
    shutil.copyfile(toy_model, path)
    other = rewrite_zip(toy_model, tmp_path / "other.zip", "policy.pth",
                        state_dict_edit=lambda sd: {k: torch.full_like(v, 0.5) for k, v in sd.items()})
    expected = load_maskable_ppo(toy_model).policy.state_dict()
    real_check = ppo_mod.check_policy

    def check_then_swap(*args, **kwargs):
        real_check(*args, **kwargs)
        other.replace(path)  # the path now names the other file; the opened handle still reads the checked one

    monkeypatch.setattr(ppo_mod, "check_policy", check_then_swap)
    loaded = load_maskable_ppo(path, trusted=trusted)
    assert not (tmp_path / "other.zip").exists() and path.exists()  # the swap happened
    got = loaded.policy.state_dict()
    assert all(torch.equal(got[k], expected[k]) for k in expected)


def test_a_model_given_with_the_other_prefix_names_the_prefix_it_plays_under(toy_model, tmp_path):
    """An SB3 zip given as ``az:`` and a training.az checkpoint given as ``ppo:``: the error says which
    prefix plays the file."""
    import torch

    import monolith_envs
    from agents.ppo import read_model_zip
    from tests.toy_game import ENV_ID as TOY
    from training.az.net import CheckpointError, load_checkpoint, net_for_game, save_checkpoint

    with pytest.raises(CheckpointError) as ei:
        load_checkpoint(toy_model)
    assert str(ei.value).endswith("; it looks like an SB3 model zip, which plays as ppo:PATH"), ei.value
    torch.manual_seed(0)
    az = save_checkpoint(net_for_game(monolith_envs.make_game(TOY), (8,)), tmp_path / "net.pt", TOY, {})
    with pytest.raises(ModelFileError) as ei:
        read_model_zip(az)
    assert str(ei.value).endswith("; it looks like a torch checkpoint: a training.az checkpoint plays as az:PATH (a "
                                  "baseline file of training.export_baseline is not played by its path: the "
                                  "package's play as 'baseline')")
    from monolith_envs.agents.baselines.registry import baseline_dir

    with pytest.raises(CheckpointError) as ei:  # a baseline file given as az:PATH
        load_checkpoint(baseline_dir() / "arena_2p.pt")
    assert str(ei.value).endswith("is not 'monolith-az-v1' (a training.az checkpoint); it is a baseline file "
                                  "(training.export_baseline): the package's baselines play as 'baseline', and one "
                                  "of your own trains on with init_from"), ei.value
    with pytest.raises(ModelFileError) as ei:  # neither kind: no guess
        (tmp_path / "other.zip").write_bytes(b"")
        with zipfile.ZipFile(tmp_path / "other.zip", "w") as z:
            z.writestr("readme.txt", "hello")
        read_model_zip(tmp_path / "other.zip")
    assert "looks like" not in str(ei.value) and "not a readable SB3 model zip" in str(ei.value)


def test_a_baseline_variant_warning_is_given_once_and_as_one_line(capsys):
    """A baseline on rules it was not trained on warns once per process and file (evaluate checked the specs,
    then bound the agent: it was said twice), and commands show it as one ``prog: warning:`` line."""
    import warnings

    from monolith_envs.agents import make_agent
    from monolith_envs.agents.baselines import VariantWarning, agent
    from monolith_envs.core.cli import plain_warnings

    agent._WARNED.clear()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        make_agent("baseline", "monolith_arena_v0", {"monolith_module": True})
        make_agent("baseline+search:2", "monolith_arena_v0", {"monolith_module": True})
    variant = [w for w in seen if issubclass(w.category, VariantWarning)]
    assert len(variant) == 1 and "trained with monolith_module=False" in str(variant[0].message)
    agent._WARNED.clear()
    saved, passed_on = warnings.showwarning, []
    try:
        warnings.showwarning = lambda *a, **k: passed_on.append(a[0])  # what was shown before
        plain_warnings("python -m demo")
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            make_agent("baseline", "monolith_arena_v0", {"monolith_module": True})
            warnings.warn("not ours", UserWarning, stacklevel=1)
    finally:
        warnings.showwarning = saved
        agent._WARNED.clear()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(
        "python -m demo: warning: baseline: baseline arena_2p was trained with monolith_module=False")
    assert [str(m) for m in passed_on] == ["not ours"]  # other warnings are shown as before


def test_an_az_checkpoint_on_another_rules_variant_warns_once(tmp_path):
    """An ``az:`` network on rules it was not trained on plays, as a baseline does, with the same warning."""
    import warnings

    torch = pytest.importorskip("torch")
    import monolith_envs
    from agents import make_agent, play_match
    from monolith_envs.agents.baselines import VariantWarning, agent
    from training.az.net import net_for_game, save_checkpoint

    torch.manual_seed(0)
    path = save_checkpoint(net_for_game(monolith_envs.make_game("monolith_arena_v0"), (8,)), tmp_path / "az.pt",
                           "monolith_arena_v0", {"monolith_module": False})
    agent._WARNED.clear()
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            for module in (False, True, True):
                env = monolith_envs.make("monolith_arena_v0", wrapped=False, monolith_module=module, max_decisions=6)
                play_match(env, [make_agent(f"az:{path}", "monolith_arena_v0"), make_agent("random", "monolith_arena_v0")],
                           seed=1)
    finally:
        agent._WARNED.clear()
    variant = [str(w.message) for w in seen if issubclass(w.category, VariantWarning)]
    assert variant == [f"az:{path}: the network of {path} was trained with monolith_module=False; this game has "
                       "monolith_module=True: it plays, but on rules it never saw, so expect it to be weaker"]
