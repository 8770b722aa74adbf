"""Output options replace only an earlier output of their own kind: ``training.evaluate --out``, ``monolith_envs
replay --html`` and ``agents.play --record`` pointed at a model, a note or any other file refuse it with one
error line and leave it as it was (they overwrote whatever was there)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from monolith_envs.core.outfiles import EarlierOutput, OutputPathError, check_output_file

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "arena_episode.json"


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120)


def test_check_output_file_replaces_only_what_it_recognises(tmp_path):
    kind = EarlierOutput("a test report", "{", '"tag"')
    new, empty, mine, other = (tmp_path / n for n in ("new.json", "empty.json", "mine.json", "other.zip"))
    empty.write_bytes(b"")
    mine.write_text('\ufeff  {"tag": 1}')
    other.write_bytes(b"PK\x03\x04 model")
    for p in (new, empty, mine):
        assert check_output_file(p, "--out", kind) == p
    with pytest.raises(OutputPathError, match=r"--out .*other.zip: the file exists and is not a test report, so it "
                                              r"is not replaced; give a new path \(or remove the file first\)"):
        check_output_file(other, "--out", kind)
    assert check_output_file(other, "--out") == other  # without a kind: any regular file, as before
    assert other.read_bytes() == b"PK\x03\x04 model"


def test_evaluate_out_refuses_a_model_and_replaces_its_own_report(tmp_path, capsys):
    from training.evaluate import main

    model = tmp_path / "model.zip"
    model.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    argv = ["--env", "monolith_arena_v0", "--agents", "random,heuristic", "--games", "1", "--no-progress"]
    with pytest.raises(SystemExit) as e:
        main(argv + ["--out", str(model)])
    assert e.value.code == 2 and "is not an evaluation report of training.evaluate (JSON)" in capsys.readouterr().err
    assert model.read_bytes() == b"PK\x03\x04" + b"\x00" * 100
    report = tmp_path / "eval.json"
    for _ in range(2):  # a new report, then the same path again
        main(argv + ["--out", str(report)])
    assert '"games_per_pair": 1' in report.read_text()
    import json

    long = json.loads(report.read_text())  # a report of 32 long agent paths: its keys beyond the first 4 KB
    long["agents"] = [f"ppo:{'runs/' * 40}{k}/final_model.zip" for k in range(32)]
    report.write_text(json.dumps(long, indent=2))
    assert report.stat().st_size > 4096
    main(argv + ["--out", str(report)])
    assert json.loads(report.read_text())["agents"] == ["random", "heuristic"]


def test_replay_html_and_play_record_refuse_another_file(tmp_path):
    note = tmp_path / "notes.txt"
    note.write_text("my notes\n")
    page = tmp_path / "r.html"
    for _ in range(2):
        done = _run("-m", "monolith_envs", "replay", str(LOG), "--html", str(page))
        assert done.returncode == 0 and "wrote" in done.stdout + done.stderr
    done = _run("-m", "monolith_envs", "replay", str(LOG), "--html", str(note))
    assert done.returncode == 2 and "is not an HTML replay of monolith_envs, so it is not replaced" in done.stderr
    done = _run("-m", "agents.play", "monolith_arena_v0", "--opponents", "random", "--seed", "1", "--record",
                str(note), stdin="quit\n")
    assert done.returncode == 2 and "is not an episode log, so it is not replaced" in done.stderr
    assert note.read_text() == "my notes\n"
    log = tmp_path / "game.json"
    log.write_text(LOG.read_text())
    done = _run("-m", "agents.play", "monolith_arena_v0", "--opponents", "random", "--seed", "1", "--record",
                str(log), stdin="quit\n")
    assert done.returncode == 0 and f"episode log written to {log}" in done.stdout + done.stderr
