"""Untrusted model files: ``ppo:PATH`` never runs code from the file unless it is marked trusted."""

from __future__ import annotations

import base64
import json
import os
import pickle
import zipfile

import numpy as np
import pytest

from agents import MaskablePPOAgent, make_agent
from agents.ppo import ModelFileError, ModelTrustError, load_maskable_ppo
from tests.toy_game import ENV_ID


class _WritesFile:
    """Unpickling this calls ``pathlib.Path.write_text`` (a stand-in for any code a hostile file runs)."""

    def __init__(self, target):
        self.target = target

    def __reduce__(self):
        import pathlib

        return (pathlib.Path.write_text, (pathlib.Path(self.target), "owned"))


def _craft(src, dst, key, target):
    """Copy model zip ``src`` to ``dst`` with the pickled entry ``key`` replaced by the file-writing payload."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            blob = zin.read(item.filename)
            if item.filename == "data":
                data = json.loads(blob)
                data[key] = {":type:": "<class 'x'>",
                             ":serialized:": base64.b64encode(pickle.dumps(_WritesFile(target))).decode()}
                blob = json.dumps(data).encode()
            zout.writestr(item, blob)
    return dst


def test_own_model_loads_untrusted_and_acts_like_a_trusted_load(toy_model):
    safe, full = load_maskable_ppo(toy_model), load_maskable_ppo(toy_model, trusted=True)
    obs = np.linspace(0, 1, 23, dtype=np.float32)
    mask = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1], bool)
    a_safe = safe.predict(obs, action_masks=mask, deterministic=True)[0]
    assert a_safe == full.predict(obs, action_masks=mask, deterministic=True)[0] and mask[a_safe]
    assert make_agent(f"ppo:{toy_model}", ENV_ID).act(obs, mask.astype(np.int8), np.random.default_rng(0)) == a_safe


@pytest.mark.parametrize("key", ["observation_space", "policy_class"])
def test_crafted_model_is_refused_and_runs_nothing(toy_model, tmp_path, key):
    target = tmp_path / "pwned.txt"
    bad = _craft(toy_model, tmp_path / "bad.zip", key, target)
    with pytest.raises(ModelTrustError, match=f"{key}.*--trust-model-files"):
        MaskablePPOAgent(bad)
    assert not target.exists()
    # the payload is real: a trusted load runs it (what every load did before)
    with pytest.raises(ModelFileError):  # the int that write_text returns is no space or class: SB3 fails after
        load_maskable_ppo(bad, trusted=True)  # running the payload, and the failure is one error
    assert target.read_text() == "owned"


def test_crafted_training_only_entry_is_replaced_not_run(toy_model, tmp_path):
    target = tmp_path / "pwned.txt"
    bad = _craft(toy_model, tmp_path / "bad.zip", "lr_schedule", target)
    model = load_maskable_ppo(bad)  # the schedule is only read by training: a default stands in
    assert not target.exists() and model.action_space.n == 9


def test_evaluate_cli_refuses_crafted_model(toy_model, tmp_path, capsys, monkeypatch):
    from training.evaluate import main

    monkeypatch.delenv("MONOLITH_ENVS_TRUST_MODELS", raising=False)
    target = tmp_path / "pwned.txt"
    bad = _craft(toy_model, tmp_path / "bad.zip", "action_space", target)
    with pytest.raises(SystemExit) as exc:
        main(["--env", ENV_ID, "--agents", f"random,ppo:{bad}", "--games", "2", "--workers", "1",
              "--out", str(tmp_path / "e.json")])
    assert exc.value.code == 2 and not target.exists() and not (tmp_path / "e.json").exists()
    assert "--trust-model-files" in capsys.readouterr().err


def test_every_command_that_names_the_trust_flag_takes_it(tmp_path, capsys, monkeypatch):
    """The refusal names ``--trust-model-files``: each command that can load a model file accepts it and sets
    MONOLITH_ENVS_TRUST_MODELS=1 for its loaders and workers."""
    from training.az.__main__ import main as az_main
    from training.export_baseline import main as export_main
    from training.train import main as train_main

    def trusted_after(command, argv) -> bool:
        monkeypatch.setenv("MONOLITH_ENVS_TRUST_MODELS", "0")  # restored to the session's value at teardown
        try:
            command(argv + ["--trust-model-files"])
        except SystemExit as e:  # an error after the flag was read (a missing run or config)
            assert e.code == 2 and "unrecognized" not in capsys.readouterr().err
        return os.environ.get("MONOLITH_ENVS_TRUST_MODELS") == "1"

    assert trusted_after(train_main, ["--list-keys"])
    assert trusted_after(export_main, [str(tmp_path / "no_run"), "--name", "x", "--out-dir", str(tmp_path)])
    assert trusted_after(az_main, ["--config", str(tmp_path / "no_config.toml")])
    from training.rllib import main as rllib_main  # Ray is imported only for a run

    assert trusted_after(rllib_main, ["--list-keys"])


def test_a_cut_short_entry_is_called_corrupt_not_untrusted(toy_model, tmp_path):
    """A damaged pickle cannot be parsed at all: the message says so and does not ask to trust the file."""
    import base64
    import json
    import zipfile

    from monolith_envs.agents.model_files import CorruptModelError
    from tests.agents.model_zips import rewrite_zip

    def cut(d):
        raw = base64.b64decode(d["observation_space"][":serialized:"])
        d["observation_space"][":serialized:"] = base64.b64encode(raw[: len(raw) // 2]).decode()

    bad = rewrite_zip(toy_model, tmp_path / "cut.zip", "data", data_edit=cut)
    with zipfile.ZipFile(bad) as z:
        assert ":serialized:" in json.loads(z.read("data"))["observation_space"]
    with pytest.raises(CorruptModelError) as exc:
        MaskablePPOAgent(bad)
    text = str(exc.value)
    assert "entry 'observation_space'" in text and "corrupt or truncated, not a readable pickle" in text
    assert "--trust-model-files" not in text
