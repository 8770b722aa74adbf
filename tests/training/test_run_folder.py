"""A run folder belongs to one run: a new run in a used folder clears the earlier run's outputs (so
``--resume`` never continues another run's checkpoint), and ``--resume`` keeps the seed and refuses a
complete run unless ``total_timesteps`` grows."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
import torch

from training.config import TrainConfigError, load_config
from training.progress import output_files
from training.resume import latest_checkpoint, load_run, move_earlier_run


def _checkpoint(run, steps, weights=None, pth=None):
    (run / "checkpoints").mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    torch.save({"w": torch.zeros(3)} if weights is None else weights, buf)
    with zipfile.ZipFile(run / "checkpoints" / f"model_{steps}_steps.zip", "w") as z:
        z.writestr("data", json.dumps({"num_timesteps": steps}))
        z.writestr("policy.pth", buf.getvalue() if pth is None else pth)


def _run(tmp_path, steps=4096, total=4096, report=True):
    run = tmp_path / "run"
    run.mkdir(parents=True)
    cfg = load_config(None)
    cfg.update(total_timesteps=total, out_dir=str(tmp_path), name="run")
    (run / "config.json").write_text(json.dumps(cfg))
    _checkpoint(run, steps)
    if report:
        (run / "report.json").write_text(json.dumps({"learner_steps": steps}))
    return run


def test_a_new_run_moves_the_earlier_runs_outputs_aside_and_keeps_other_files(tmp_path):
    run = _run(tmp_path)
    _checkpoint(run, 2048)
    for name in ("final_model.zip", "notes.txt"):
        (run / name).write_text(name)
    (run / "learning_curve.json").write_text("[]")
    (run / "warm_start.json").write_text("{}")
    (run / "tb" / "ppo_1").mkdir(parents=True)
    (run / "checkpoints" / "mine.zip").write_text("x")
    (run / "eval_monolith_arena_v0_0.json").write_text("{}")  # what the printed "evaluate it" command writes
    (run / "eval_notes.json").write_text("{}")  # a file of the user's, not evaluate's name: it stays
    moved, kept = move_earlier_run(run)
    assert moved == ["checkpoints/model_2048_steps.zip", "checkpoints/model_4096_steps.zip",
                     "eval_monolith_arena_v0_0.json", "final_model.zip", "learning_curve.json", "report.json", "tb",
                     "warm_start.json"]
    assert (run / "earlier_run" / "eval_monolith_arena_v0_0.json").is_file()
    assert kept == run / "earlier_run"
    assert latest_checkpoint(run) is None and not (run / "tb").exists()
    assert latest_checkpoint(kept) == (kept / "checkpoints" / "model_4096_steps.zip", 4096)
    assert (kept / "final_model.zip").read_text() == "final_model.zip" and (kept / "tb" / "ppo_1").is_dir()
    assert (run / "notes.txt").is_file() and (run / "checkpoints" / "mine.zip").is_file()
    assert (run / "eval_notes.json").is_file()
    assert move_earlier_run(run) == ([], None) and move_earlier_run(tmp_path / "new") == ([], None)
    cfg, resume = load_run(kept, ["total_timesteps=8192"])  # the moved run can still be resumed
    assert resume["steps"] == 4096 and cfg["name"] == "earlier_run"
    # later runs never delete an earlier one: the next goes to earlier_run_2, and a file in the way is skipped
    (run / "report.json").write_text("second")
    (run / "earlier_run_2").write_text("a file of the user's")
    assert move_earlier_run(run) == (["report.json"], run / "earlier_run_3")
    assert (run / "earlier_run_3" / "report.json").read_text() == "second"
    assert (kept / "final_model.zip").is_file() and (run / "earlier_run_2").read_text() == "a file of the user's"
    # the end-of-run summary lists each earlier run's folder once (its files and config.json copy counted),
    # not each of its files as "other"
    listed = output_files(run)
    assert ("earlier run, 8 files", kept) in listed and ("earlier run, 2 files", run / "earlier_run_3") in listed
    assert ("other", run / "notes.txt") in listed and ("other", run / "earlier_run_2") in listed
    assert not any(str(p).startswith(str(kept) + "/") for _, p in listed)


def test_resume_refuses_a_complete_run_and_says_how_to_train_it_further(tmp_path):
    run = _run(tmp_path)
    with pytest.raises(TrainConfigError) as ei:
        load_run(run)
    assert f"--resume: {run} is complete (4,096 learner steps, total_timesteps 4,096" in str(ei.value)
    assert "--set total_timesteps=N with N above 4,096" in str(ei.value)
    cfg, resume = load_run(run, ["total_timesteps=8192"])
    assert cfg["total_timesteps"] == 8192 and resume["steps"] == 4096


def test_a_report_of_an_earlier_total_does_not_make_a_continued_run_complete(tmp_path):
    run = _run(tmp_path, steps=8192, total=8192, report=False)  # continued from 4,096, stopped in its evaluation
    (run / "report.json").write_text(json.dumps({"learner_steps": 4096}))  # the report of the first total
    cfg, resume = load_run(run)
    assert resume["steps"] == 8192
    (run / "report.json").write_text(json.dumps({"learner_steps": 8192}))
    with pytest.raises(TrainConfigError, match="is complete"):
        load_run(run)


def test_resume_of_a_run_stopped_in_its_final_evaluation_goes_on(tmp_path):
    run = _run(tmp_path, report=False)  # every step done, the report not yet written
    cfg, resume = load_run(run)
    assert resume["steps"] == cfg["total_timesteps"] == 4096


def test_resume_keeps_the_seed(tmp_path):
    run = _run(tmp_path, steps=2048)
    with pytest.raises(TrainConfigError, match=r"'seed=7' cannot change on resume \(the keys name, out_dir, seed"):
        load_run(run, ["seed=7"])
    seed = load_config(None)["seed"]
    assert load_run(run, [f"seed={seed}"])[0]["seed"] == seed  # its own value: fine


def test_resume_refuses_a_total_lowered_below_the_checkpoint(tmp_path):
    run = _run(tmp_path, steps=6144, total=8192, report=False)
    with pytest.raises(TrainConfigError) as ei:
        load_run(run, ["total_timesteps=4000"])
    assert "total_timesteps 4,000 is below the 6,144 learner steps of the newest checkpoint" in str(ei.value)
    run2 = _run(tmp_path / "b", steps=13096, total=10000, report=False)  # ended past its total (other rollouts)
    assert load_run(run2)[1]["steps"] == 13096  # not lowered by the user: the final evaluation is left


def test_resume_with_only_the_final_evaluation_left_finishes_the_run(tmp_path, capsys):
    """A run stopped after its last rollout (checkpoint at the end, no report) resumes to its report."""
    from tests.training.test_interrupt_resume import TINY
    from training.train import main

    args = [*TINY, "--set", "vec_env=dummy", "--set", "eval_workers=1", "--set", "total_timesteps=128",
            "--set", "eval_every=100000", "--set", "eval_games=2", "--set", f"out_dir={tmp_path}", "--set", "name=run"]
    main(args)
    run = tmp_path / "run"
    assert latest_checkpoint(run)[1] == 128
    curve = json.loads((run / "learning_curve.json").read_text())
    assert [p["step"] for p in curve] == [0, 128]
    # as if stopped in the last interim evaluation, after the final checkpoint: no last point, no report
    (run / "learning_curve.json").write_text(json.dumps(curve[:1]))
    (run / "report.json").unlink()
    report = main(["--resume", str(run)])
    assert report["learner_steps"] == 128 and report["resumed_from"]["steps"] == 128
    assert json.loads((run / "report.json").read_text())["final_eval"]["random"]["games"] == 2
    capsys.readouterr()


def test_resume_keeps_a_relative_out_dir_as_written_unless_the_folder_moved(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "runs" / "rel"
    run.mkdir(parents=True)
    cfg = load_config(None)
    cfg.update(total_timesteps=8192, out_dir="runs", name="rel")
    (run / "config.json").write_text(json.dumps(cfg))
    _checkpoint(run, 4096)
    got, _ = load_run("runs/rel")
    assert (got["out_dir"], got["name"]) == ("runs", "rel")  # paths in the messages stay as the run wrote them
    moved = tmp_path / "elsewhere" / "moved"
    moved.parent.mkdir()
    run.rename(moved)
    got, _ = load_run(moved)
    assert (got["out_dir"], got["name"]) == (str(moved.parent.resolve()), "moved")


def test_resume_names_the_bad_override_not_an_unchanged_fixed_one(tmp_path):
    run = _run(tmp_path, steps=4096, total=8192, report=False)
    with pytest.raises(TrainConfigError, match="learning_rate") as err:
        load_run(run, ["env_config.num_players=2", "learning_rate=-1"])
    assert "cannot change on resume" not in str(err.value)
    with pytest.raises(TrainConfigError, match="'env_config.num_players=4' cannot change on resume"):
        load_run(run, ["env_config.num_players=4", "learning_rate=-1"])


@pytest.mark.parametrize("weights, pth, message", [
    ({"w": torch.tensor([0.0, float("nan")])}, None, "weight 'w' has values that are not finite"),
    (None, b"not a torch file", "entry 'policy.pth': not a torch zip checkpoint"),
    ([1, 2], None, "entry 'policy.pth' is not a dict of tensors"),
    ({"w": __import__("fractions").Fraction(1, 3)}, None, "UnpicklingError"),  # torch's weights_only refusal
])
def test_resume_refuses_a_damaged_checkpoint_before_the_run(tmp_path, weights, pth, message):
    run = _run(tmp_path, total=8192)
    _checkpoint(run, 4096, weights, pth)
    with pytest.raises(TrainConfigError, match="--resume: checkpoint .*model_4096_steps.zip") as e:
        load_run(run)
    assert message in str(e.value)


def test_resume_refuses_a_checkpoint_whose_weights_are_a_hash_bomb(tmp_path):
    from tests.agents.test_model_file_bombs import _hash_bomb, _torch_file

    run = _run(tmp_path, total=8192)
    _checkpoint(run, 4096, pth=_torch_file({"format": "x"}, _hash_bomb(60)))
    with pytest.raises(TrainConfigError, match="over a size bound"):
        load_run(run)


def test_resume_of_a_folder_without_config_json_says_it_is_not_a_run_folder(tmp_path):
    with pytest.raises(TrainConfigError, match="is not a run folder: it has no config.json"):
        load_run(tmp_path)


def test_a_resume_hides_in_tensorboard_what_the_stopped_session_logged_past_its_checkpoint(tmp_path):
    """Steps 50-100 were logged before the stop; the run resumes from its step-50 checkpoint and logs 50-70
    again: TensorBoard shows 0-40 of the first session and 50-70 of the second, each step once."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from torch.utils.tensorboard import SummaryWriter

    from training.resume import purge_tensorboard_after

    tb = tmp_path / "tb"
    assert purge_tensorboard_after(tb, "ppo", 50) is None  # nothing logged yet: nothing to purge
    first = SummaryWriter(str(tb / "ppo_1"))
    for step in range(0, 101, 10):
        first.add_scalar("rollout/win_rate", step / 100, step)
    first.close()
    assert purge_tensorboard_after(tb, "ppo", 50) == tb / "ppo_1"
    second = SummaryWriter(str(tb / "ppo_1"))
    for step in range(50, 71, 10):
        second.add_scalar("rollout/win_rate", -step / 100, step)
    second.close()
    acc = EventAccumulator(str(tb / "ppo_1"))
    acc.Reload()
    shown = [(e.step, round(e.value, 2)) for e in acc.Scalars("rollout/win_rate")]
    assert shown == [(0, 0.0), (10, 0.1), (20, 0.2), (30, 0.3), (40, 0.4), (50, -0.5), (60, -0.6), (70, -0.7)]


def test_the_purge_is_read_before_the_resumed_sessions_events_whatever_the_writer_numbers(tmp_path, monkeypatch):
    """TensorBoard reads a folder's event files in name order, and a writer's number ends the name: writers 9
    and 10 of one second sort "10" first. The purge is moved in under a name that sorts before the next
    writer's file, so the resumed session's events stay (a resume test lost them when its process had made
    nine writers before)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from tensorboard.summary.writer import event_file_writer
    from torch.utils.tensorboard import SummaryWriter

    from training.resume import purge_tensorboard_after

    tb = tmp_path / "tb"
    first = SummaryWriter(str(tb / "ppo_1"))
    for step in range(0, 101, 10):
        first.add_scalar("rollout/win_rate", step / 100, step)
    first.close()
    monkeypatch.setattr(event_file_writer, "_global_uid", event_file_writer.AtomicCounter(9))  # 9, then 10
    purge_tensorboard_after(tb, "ppo", 50)
    second = SummaryWriter(str(tb / "ppo_1"))  # writer 10 (or 9), the same second
    for step in range(50, 71, 10):
        second.add_scalar("rollout/win_rate", -step / 100, step)
    second.close()
    names = sorted(p.name for p in (tb / "ppo_1").iterdir())
    assert [n for n in names if "purge" in n] == [names[1]] and len(names) == 3, names
    acc = EventAccumulator(str(tb / "ppo_1"))
    acc.Reload()
    assert [e.step for e in acc.Scalars("rollout/win_rate")] == [0, 10, 20, 30, 40, 50, 60, 70]


def test_an_event_file_named_by_a_clock_ahead_is_not_waited_for(tmp_path):
    """A run folder copied from a machine whose clock was ahead: the purge waits at most 2 s, not until this
    clock reaches the file's second (an hour here)."""
    import time

    from training.resume import purge_tensorboard_after

    folder = tmp_path / "tb" / "ppo_1"
    folder.mkdir(parents=True)
    (folder / f"events.out.tfevents.{int(time.time()) + 3600:010d}.host.1.0").write_bytes(b"")
    t0 = time.monotonic()
    assert purge_tensorboard_after(tmp_path / "tb", "ppo", 5) == folder
    assert time.monotonic() - t0 < 30 and len(list(folder.glob("*purge*"))) == 1


def test_a_run_whose_game_was_changed_by_set_says_its_folder_keeps_the_files_name():
    """``--set env_id=...`` (or the seats or mode) on a config file whose ``name`` is its stem: the run folder
    still carries the file's game in its name, and a note says so with the way to name it; a renamed run, or
    a change that keeps the game, gets none."""
    from training.config import apply_overrides
    from training.train import name_note

    base = load_config(None)  # the main job's file: monolith_arena_2p, a monolith_arena_v0 duel
    assert base["name"] == "monolith_arena_2p" and base["env_id"] == "monolith_arena_v0"
    other = apply_overrides(base, ['env_id="the_monolith_v0"'])
    note = name_note(base, other)
    assert note is not None and "'monolith_arena_2p', made for monolith_arena_v0" in note
    assert "this run trains the_monolith_v0" in note and note.endswith("--name NAME names it")
    seats = apply_overrides(base, ["env_config.num_players=4", 'env_config.mode="ffa"'])
    assert '"num_players": 4' in name_note(base, seats)
    assert name_note(base, apply_overrides(base, ['env_id="the_monolith_v0"', 'name="monolith_2p"'])) is None
    assert name_note(base, apply_overrides(base, ["total_timesteps=5000"])) is None
