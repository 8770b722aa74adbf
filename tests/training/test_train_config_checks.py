"""training.train checks every config key and reads config files safely before any work starts; its console
output (interim evaluations, the PPO step count, the written files)."""

import os
import re

import pytest

import training.train as train_mod
from training.config import TrainConfigError, load_config


@pytest.fixture
def no_training(monkeypatch):
    def refuse(*_a, **_k):
        raise AssertionError("training started")

    monkeypatch.setattr(train_mod, "train", refuse)


@pytest.mark.parametrize("setting, message", [
    ("env_config.num_players=9", "config key 'env_config': monolith_arena_v0: config num_players=9 is not allowed"),
    ("seed=-1", "config key 'seed': must be an integer from 0 to (2**128-1) // 1000 - 64 = "
                "340282366920938463463374607431768147 (a run derives the seeds seed * 1000 + env rank from it), got -1"),
    ("seed=340282366920938463463374607431768211456", "config key 'seed': must be an integer from 0 to (2**128-1)"),
    ("learning_rate=nan", "'learning_rate=nan': nan is not a finite number"),
    ("learning_rate=-0.1", "config key 'learning_rate': must be a finite number above 0 and up to 1"),
    ("net_arch=[-1]", "config key 'net_arch': must be a list of 1 to 16 layer sizes"),
    ("seat=9", "config key 'seat': monolith_arena_v0 with this env_config has 2 seat(s); use 0 to 1"),
    ("eval_opponents=['nope']", "config key 'eval_opponents': agent spec 'nope': unknown agent spec 'nope'"),
    ("opponent_mix={nope = 1.0}", "config key 'opponent_mix': agent spec 'nope'"),
    ("eval_opponents=[]", "config key 'eval_opponents': empty; the evaluations need at least one opponent"),
    ("gamma=2.0", "config key 'gamma': must be a finite number above 0 and up to 1, got 2.0"),
    ("out_dir=/proc/nope", "config key 'out_dir': cannot write the run folder '/proc/nope/"),
    ("out_dir='runs/a,b'", "config key 'out_dir': the run folder 'runs/a,b/monolith_arena_2p' has a comma; the "
                           "run's model is named in comma-separated lists of agent specs"),
    ("name=../escaped", "config key 'name': must be 1 to 100 letters, digits or _ . + = -"),
    ("name=", "config key 'name': must not be empty"),
    ("total_timesteps=0", "config key 'total_timesteps': must be an integer from 1 to"),
    ("n_envs=100000", "config key 'n_envs': must be an integer from 1 to 64"),
    ("batch_size=100000", "config key 'batch_size': PPO's minibatch (and the warm start's), at most one rollout, n_steps x n_envs = 256 x 8 = 2,048 steps "
                          "(minibatches are cut from a rollout), got 100,000"),
    ("total_timesteps=true", "config key 'total_timesteps': expected int, got bool True"),
    ("n_steps=1", "config key 'batch_size': PPO's minibatch (and the warm start's), at most one rollout, n_steps x n_envs = 1 x 8 = 8 steps"),
    ("eval_opponents=['human']", "config key 'eval_opponents': agent spec 'human': training plays unattended"),
    ("opponent_mix={HUMAN = 1.0}", "config key 'opponent_mix': agent spec 'HUMAN': training plays unattended"),
    ("pretrain_opponents=['human']", "config key 'pretrain_opponents': agent spec 'human': training plays"),
    ("pretrain_teacher='mcts:-1'", "config key 'pretrain_teacher': agent spec 'mcts:-1'"),
    ("x=" + "[" * 50_000, "override 'x=[[[["),
    ("seed=" + "[" * 50_000 + "]" * 50_000, "tables or arrays nested too deeply"),
])
def test_a_bad_value_is_one_error_line_before_any_work(no_training, tmp_path, capsys, setting, message):
    with pytest.raises(SystemExit) as ei:
        train_mod.main(["--set", f"out_dir={tmp_path}", "--set", setting])
    err = capsys.readouterr().err
    assert ei.value.code == 2
    assert message in err, err
    assert "Traceback" not in err and len([ln for ln in err.splitlines() if ": error: " in ln]) == 1
    assert not (tmp_path / "escaped").exists() and not (tmp_path / "monolith_arena_2p").exists() or "name" not in setting


@pytest.mark.parametrize("settings, message", [
    (["features=aligned", "token_dim=7"],
     "config key 'token_dim': with features = 'aligned' it must be a multiple of 4 (the 4 attention heads split a "
     "token), got 7"),
    (["pretrain_targets=teacher", "pretrain_opponents=[]", "pretrain_samples=200"],
     "config key 'pretrain_opponents': empty; the teacher's warm-start games need at least one opponent"),
    (["n_steps=1000000", "n_envs=64", "batch_size=64"],  # a raw MemoryError when PPO's buffer was built
     "config keys 'n_steps' x 'n_envs': a rollout of 64,000,000 steps holds 64,000,000 observations of 4,532 "
     "values and masks of 500 actions, about 1,199.7 GiB; at most 16 GiB: lower n_steps or n_envs"),
    (["pretrain_samples=100000000"],
     "config key 'pretrain_samples': 100,000,000 warm-start states of 4,532 observation values and 500 actions "
     "need about 1,077.0 GiB; at most 16 GiB: ask for fewer"),
])
def test_settings_that_only_fail_together_are_one_error_line_before_any_work(no_training, tmp_path, capsys,
                                                                              settings, message):
    """Each value is allowed alone; together they failed inside the run (a torch assert in the attention
    layer; a ValueError in a warm-start worker)."""
    with pytest.raises(SystemExit) as ei:
        train_mod.main(["--set", f"out_dir={tmp_path}", *[a for s in settings for a in ("--set", s)]])
    err = capsys.readouterr().err
    assert ei.value.code == 2 and message in err, err
    assert "Traceback" not in err and len([ln for ln in err.splitlines() if ": error: " in ln]) == 1


def test_a_name_never_leaves_out_dir(tmp_path):
    from training.config import apply_overrides, run_dir

    for name in ("../escaped", "a/b", "..", ".", "-rf", "x\x1b[2J"):
        with pytest.raises(TrainConfigError, match="config key 'name'"):
            run_dir(apply_overrides(load_config(), [f"out_dir={tmp_path / 'runs'}", f"name={name}"]))
    assert not (tmp_path / "escaped").exists()
    assert run_dir(apply_overrides(load_config(), [f"out_dir={tmp_path / 'runs'}", "name=ok_1"])) == tmp_path / "runs" / "ok_1"


def _fifo(tmp_path):
    p = tmp_path / "fifo.toml"
    os.mkfifo(p)
    return p


@pytest.mark.parametrize("make, message", [
    (lambda t: "/dev/zero", "/dev/zero: not a regular file (a device)"),
    (_fifo, "not a regular file (a FIFO)"),
    (lambda t: t, "not a regular file (a directory)"),
    (lambda t: (t / "big.toml").write_text("# x\n" * 70_000) and t / "big.toml", "is too large; allowed: at most 262144"),
    (lambda t: (t / "latin.toml").write_bytes(b'name = "Drag\xf3n"\n') and t / "latin.toml",
     "latin.toml:1: byte 12 (0xf3) is not valid UTF-8"),
    (lambda t: (t / "deep.toml").write_text("a = " + "[" * 50_000 + "]" * 50_000) and t / "deep.toml",
     "deep.toml:1: tables or arrays nested too deeply"),
    (lambda t: (t / "dots.toml").write_text("a." * 30_000 + "a = 1\n") and t / "dots.toml",
     "dots.toml:1: a dotted key of more than 8 parts"),
    (lambda t: str(t / "a\x00b.toml"), "the path contains a NUL byte"),
])
def test_config_files_are_read_by_the_bounded_reader(no_training, tmp_path, capsys, make, message):
    path = make(tmp_path)
    with pytest.raises(TrainConfigError, match=re.escape(message)):
        load_config(path)
    with pytest.raises(SystemExit) as ei:
        train_mod.main(["--config", str(path)])
    err = capsys.readouterr().err
    assert ei.value.code == 2 and message in err and "Traceback" not in err


def test_interim_evaluations_are_printed_the_banner_states_the_bars_steps_and_every_file_is_listed(tmp_path, capsys,
                                                                                                   monkeypatch):
    from monolith_envs.core.cli import LineProgress

    monkeypatch.setattr(LineProgress.__init__, "__defaults__", (None, 30.0, 0.0, 0))  # the first line at once
    report = train_mod.main([
        "--set", "env_id=monolith_arena_v0", "--set", "env_config={}", "--set", "total_timesteps=100",
        "--set", "n_steps=64", "--set", "batch_size=64", "--set", "n_epochs=1", "--set", "n_envs=2",
        "--set", "vec_env=dummy", "--set", "net_arch=[16]", "--set", "features=flat", "--set", "shaping=none",
        "--set", "eval_every=64", "--set", "eval_games=2", "--set", "final_eval_games=2", "--set", "eval_workers=1",
        "--set", "eval_opponents=['random']", "--set", "pretrain_samples=0", "--set", "checkpoint_every=64",
        "--set", f"out_dir={tmp_path}", "--set", "name=out"])
    out, err = capsys.readouterr()
    run = tmp_path / "out"
    assert report["learner_steps"] == 128
    banner = next(ln for ln in err.splitlines() if ln.startswith("== [1/2] PPO"))
    assert "128 learner steps (100 rounded up to whole rollouts of 64 x 2)" in banner
    assert "\nPPO: 128 of 128 steps (100%), " in err  # the total of its progress (a log: lines) is the banner's
    for point in report["learning_curve"]:
        s = point["random"]
        assert (f"evaluation at step {point['step']:,}: vs random {s['win_rate']:.1%} (95% CI {s['ci95'][0]:.1%}-"
                f"{s['ci95'][1]:.1%}, 2 games)") in err
    assert len(report["learning_curve"]) >= 2
    listed = {ln.split()[-1] for ln in out.split("outputs:\n", 1)[1].splitlines() if ln.startswith("  ")}
    written = {str(p) for p in run.rglob("*") if p.is_file()}
    assert str(run / "eval_model.zip") in written and str(run / "learning_curve.json") in written
    assert written <= listed, written - listed


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_a_config_file_that_sets_no_key_is_an_error_for_train_and_az(tmp_path, text, capsys):
    """It ran the built-in defaults (not the shipped default recipe) without a word, in both commands."""
    from training.az.__main__ import main as az_main

    path = tmp_path / "empty.toml"
    path.write_text(text)
    for command in (train_mod.main, az_main):
        with pytest.raises(SystemExit) as exc:
            command(["--config", str(path)])
        err = capsys.readouterr().err.strip().splitlines()
        assert exc.value.code == 2 and len(err) == 1
        assert err[0].endswith(f"error: config file {str(path)!r} sets no key (it is empty or holds only comments); "
                               "a config names at least its game and budget (env_id, total_timesteps, ...; "
                               "--list-keys lists every key)")
    with pytest.raises(TrainConfigError, match="sets no key"):
        load_config(path)


def test_a_shipped_config_is_found_by_its_name_with_or_without_toml(tmp_path, monkeypatch):
    from pathlib import Path

    from training.config import CONFIG_DIR, TrainConfigError, read_toml

    monkeypatch.chdir(tmp_path)  # no file of that name here
    for name in ("az_arena_2p", "az_arena_2p.toml"):
        assert read_toml(Path(name))[0] == CONFIG_DIR / "az_arena_2p.toml"
    (tmp_path / "quick").write_text('env_id = "monolith_arena_v0"\n')  # a file here wins over the shipped one
    assert read_toml(Path("quick"))[0] == Path("quick")
    with pytest.raises(TrainConfigError, match="config file 'quik' not found; shipped configs"):
        read_toml(Path("quik"))
    with pytest.raises(TrainConfigError, match="not found; shipped configs"):  # a name too long for the system
        read_toml(Path("a" * 300))
