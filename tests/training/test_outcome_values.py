"""``python -m training.outcome_values``: a baseline's value head refitted on self-play outcomes, its policy
unchanged."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from monolith_envs.agents.baselines.net import load_baseline_file  # noqa: E402
from monolith_envs.agents.baselines.registry import list_baselines  # noqa: E402
from tests.training.baseline_copies import copy_shipped_baselines  # noqa: E402
from training import outcome_values  # noqa: E402
from training.export_baseline import sample_observations  # noqa: E402


@pytest.fixture()
def root(tmp_path):
    """A copy of the shipped baselines (the package's files are never written by the tests)."""
    return copy_shipped_baselines(tmp_path)


@pytest.mark.parametrize("name", ["arena_2p", "the_monolith_4p"])
def test_each_sample_carries_its_seats_outcome(root, name):
    entry = next(e for e in list_baselines(root) if e["name"] == name)
    net, meta = load_baseline_file(root / entry["file"])
    data = outcome_values.collect_outcomes(net, entry["env_id"], entry["env_config"], 400, num_envs=8, seed=3)
    n = meta["num_players"]
    assert len(data["returns"]) >= 400 and data["obs"].shape == (len(data["returns"]), meta["obs_size"])
    for g in np.unique(data["game"]):
        here = data["game"] == g
        per_seat = {int(s): set(data["returns"][here & (data["seat"] == s)].tolist())
                    for s in np.unique(data["seat"][here])}
        assert all(len(v) == 1 for v in per_seat.values())  # one outcome per seat and game
        outcome = {s: v.pop() for s, v in per_seat.items()}
        if len(outcome) == n:
            assert abs(sum(outcome.values())) < 1e-6  # win_loss returns are zero-sum
        allowed = np.array([1.0, -1.0, 0.0, -1.0 / (n - 1)])
        assert all(np.isclose(allowed, v, atol=1e-6).any() for v in outcome.values())


def test_a_refit_changes_the_value_and_file_but_not_the_policy(root):
    entry = next(e for e in list_baselines(root) if e["name"] == "arena_2p")
    old_net, _ = load_baseline_file(root / entry["file"])
    obs, _masks = sample_observations(entry["env_id"], entry["env_config"], 32, seed=9)
    # 600 states fit a worse value head than the shipped one: written only with replace_worse (a worse refit
    # keeps the file: tests/training/test_outcome_values_cli.py)
    out = outcome_values.refit_baseline("arena_2p", states=600, epochs=2, num_envs=16, root=root, replace_worse=True)
    new_entry = next(e for e in list_baselines(root) if e["name"] == "arena_2p")
    data = (root / entry["file"]).read_bytes()
    assert new_entry["sha256"] == out["sha256"] == hashlib.sha256(data).hexdigest() != entry["sha256"]
    new_net, meta = load_baseline_file(root / entry["file"])
    assert meta["value_training"]["states"] == 600 and meta["value_training"]["holdout_samples"] > 0
    assert np.array_equal(new_net.logits(obs), old_net.logits(obs))  # the policy is the same, bit for bit
    with torch.no_grad():
        old_v = old_net(torch.as_tensor(obs))[1].numpy()
        new_v = new_net(torch.as_tensor(obs))[1].numpy()
    assert not np.allclose(old_v, new_v)
    assert np.isfinite([out["holdout_mse_before"], out["holdout_mse_after"]]).all()


def test_an_unknown_name_is_a_usage_error_listing_the_baselines(root, capsys):
    with pytest.raises(SystemExit) as e:
        outcome_values.main(["arena_9p", "--root", str(root), "--states", "10"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "no baseline called 'arena_9p'" in err and "arena_2p" in err and "strategy_solo" in err


@pytest.mark.parametrize("args, words", [(["--states", "0"], "--states must be from 1"),
                                         (["--temperature", "0"], "--temperature must be in (0, 100]"),
                                         (["--states", "100000000"], "GiB are kept (ask for fewer states)")])
def test_bad_numbers_are_usage_errors(root, capsys, args, words):
    with pytest.raises(SystemExit) as e:
        outcome_values.main(["arena_2p", "--root", str(root), *args])
    assert e.value.code == 2
    assert words in capsys.readouterr().err


def test_too_few_games_to_fit_is_a_usage_error_and_leaves_the_file(root, capsys):
    before = (root / "arena_2p.pt").read_bytes(), (root / "index.json").read_text()
    with pytest.raises(SystemExit) as e:
        outcome_values.main(["arena_2p", "--root", str(root), "--states", "1", "--num-envs", "1"])
    assert e.value.code == 2 and "leave none to fit on" in capsys.readouterr().err
    assert ((root / "arena_2p.pt").read_bytes(), (root / "index.json").read_text()) == before


def test_a_corrupt_index_is_one_error_line_not_a_traceback(root, capsys):
    (root / "index.json").write_text('{"format": 1')
    with pytest.raises(SystemExit) as e:
        outcome_values.main(["arena_2p", "--root", str(root), "--states", "10"])
    err = capsys.readouterr().err
    assert e.value.code == 1 and "not a readable JSON index" in err and "Traceback" not in err


@pytest.mark.parametrize("change, words", [
    (lambda e: e.pop("env_config"), "env_config must be a table"),
    (lambda e: e.update(env_config="x"), "env_config must be a table"),
    (lambda e: e.update(env_id="the_monolith_v0"), "the file was trained on 'monolith_arena_v0'"),
    (lambda e: e.update(env_config={"num_players": 4, "mode": "ffa"}), "makes a game of 4 seats"),
    (lambda e: e.update(env_config={"num_players": 7}), "env_config is refused"),
])
def test_an_index_entry_naming_another_game_is_one_error_before_any_game(root, capsys, change, words):
    """The entry's env id and config make the refit's self-play games: another env id, a config of other
    sizes (4 seats for a 2-seat network: it played and printed a result) or no config table is refused."""
    import json

    index = json.loads((root / "index.json").read_text())
    entry = next(e for e in index["baselines"] if e["name"] == "arena_2p")
    change(entry)
    (root / "index.json").write_text(json.dumps(index))
    before = (root / "arena_2p.pt").read_bytes()
    with pytest.raises(SystemExit) as e:
        outcome_values.main(["arena_2p", "--root", str(root), "--states", "50", "--num-envs", "2"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and words in err and "Traceback" not in err and "self-play" not in err, err[-600:]
    assert (root / "arena_2p.pt").read_bytes() == before
