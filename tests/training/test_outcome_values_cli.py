"""``python -m training.outcome_values`` as a command: a signal stops it without a traceback and without
changing the baseline file, a refit that does not lower the held-out error is not written (unless
``--replace-worse``), a missing ``--root`` is named, and ``--help`` states each default once."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from monolith_envs.agents.baselines import registry  # noqa: E402
from monolith_envs.agents.baselines.registry import list_baselines  # noqa: E402
from tests.training.baseline_copies import copy_shipped_baselines  # noqa: E402
from training import outcome_values  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CMD = [sys.executable, "-m", "training.outcome_values"]


@pytest.fixture()
def root(tmp_path):
    """A copy of the shipped baselines (the package's files are never written by the tests)."""
    return copy_shipped_baselines(tmp_path / "baselines")


def snapshot(root: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in sorted(root.iterdir())}


def entry_of(root: Path, name: str = "arena_2p") -> dict:
    return next(e for e in list_baselines(root) if e["name"] == name)


def stop_when_seen(args: list[str], banner: bytes, signum: int, timeout: float = 120.0) -> tuple[int, str]:
    """Run the command, send ``signum`` once ``banner`` is on its stderr, and return (exit status, stderr)."""
    proc = subprocess.Popen(CMD + args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = bytearray()

    def read() -> None:
        while chunk := os.read(proc.stderr.fileno(), 65536):
            err.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout
    try:
        while banner not in err:
            assert proc.poll() is None, f"ended before {banner!r} was printed: {err.decode(errors='replace')}"
            assert time.monotonic() < deadline, f"no {banner!r} within {timeout} s"
            time.sleep(0.05)
        time.sleep(0.3)  # well inside the stage
        proc.send_signal(signum)
        proc.stdout.read()
        rc = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(10)
    return rc, err.decode(errors="replace")


def test_ctrl_c_in_the_self_play_stops_cleanly_and_leaves_the_file(root):
    before = snapshot(root)
    rc, err = stop_when_seen(["arena_2p", "--states", "300000", "--root", str(root)], b"self-play", signal.SIGINT)
    assert rc == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    last = err.strip().splitlines()[-1]
    assert last == (f"interrupted by SIGINT during the self-play rollouts; the baseline file {root / 'arena_2p.pt'} "
                    "and index.json were not changed (exit status 130)")
    assert snapshot(root) == before  # the same files, byte for byte, and no arena_2p.pt.new left


def test_sigterm_in_the_fit_stops_cleanly_and_leaves_the_file(root):
    before = snapshot(root)
    rc, err = stop_when_seen(["arena_2p", "--states", "2000", "--epochs", "10000", "--num-envs", "16",
                              "--root", str(root)], b"fit value", signal.SIGTERM)
    assert rc == 143, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (f"interrupted by SIGTERM during the value fit; the baseline file "
                                            f"{root / 'arena_2p.pt'} and index.json were not changed "
                                            "(exit status 143)")
    assert snapshot(root) == before


def test_a_stop_while_the_file_is_put_in_place_waits_for_its_index_entry(root, monkeypatch, capsys):
    """The new file and its index entry change together: a signal in between is raised once both are written."""
    real = registry.add_to_index

    def add_after_a_signal(*a, **k):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        return real(*a, **k)

    monkeypatch.setattr(registry, "add_to_index", add_after_a_signal)
    old = entry_of(root)["sha256"]
    with pytest.raises(SystemExit) as e:
        outcome_values.main(["arena_2p", "--states", "2000", "--epochs", "2", "--num-envs", "16",
                             "--replace-worse", "--root", str(root)])
    assert e.value.code == 130
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == (f"interrupted by SIGINT during the write of the new file; the new "
                                            f"baseline file {root / 'arena_2p.pt'} and its index.json entry were "
                                            "already written (exit status 130)")
    digest = hashlib.sha256((root / "arena_2p.pt").read_bytes()).hexdigest()
    assert entry_of(root)["sha256"] == digest != old
    assert not (root / "arena_2p.pt.new").exists()


def test_a_worse_refit_is_not_written_unless_asked(root, capsys):
    before = snapshot(root)
    args = ["arena_2p", "--states", "2000", "--epochs", "5", "--num-envs", "16", "--lr", "1", "--root", str(root),
            "--seed", "0"]
    out = outcome_values.main(args)  # returns: exit status 0
    cap = capsys.readouterr()
    b, a = out["holdout_mse_before"], out["holdout_mse_after"]
    assert a > 2 * b > 0  # lr 1 overshoots: the held-out error grows
    assert out["written"] is False and out["sha256"] == entry_of(root)["sha256"]
    assert snapshot(root) == before
    assert json.loads(cap.out)["written"] is False
    assert cap.err.strip().splitlines()[-1] == (
        f"kept baseline 'arena_2p' unchanged: the refit's held-out mean squared error {a:.4f} is not below "
        f"{b:.4f} (before the refit), so the file and index.json were not written (--replace-worse writes it "
        "anyway)")

    out2 = outcome_values.main(args + ["--replace-worse"])
    err = capsys.readouterr().err
    assert (out2["holdout_mse_before"], out2["holdout_mse_after"]) == (b, a)  # seeded: the same refit
    digest = hashlib.sha256((root / "arena_2p.pt").read_bytes()).hexdigest()
    assert out2["written"] is True and out2["sha256"] == digest == entry_of(root)["sha256"] != before and digest
    assert digest != hashlib.sha256(before["arena_2p.pt"]).hexdigest()
    assert err.strip().splitlines()[-1] == (f"wrote baseline 'arena_2p' although the refit's held-out mean squared "
                                            f"error {a:.4f} is not below {b:.4f} (before the refit): --replace-worse")


def test_a_better_refit_is_written(root, capsys):
    old = entry_of(root)["sha256"]
    out = outcome_values.main(["arena_2p", "--states", "2000", "--epochs", "5", "--num-envs", "16",
                               "--root", str(root), "--seed", "0"])  # seed 0: games whose refit is better
    b, a = out["holdout_mse_before"], out["holdout_mse_after"]
    assert a < b and out["written"] is True
    digest = hashlib.sha256((root / "arena_2p.pt").read_bytes()).hexdigest()
    assert out["sha256"] == digest == entry_of(root)["sha256"] != old
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"wrote baseline 'arena_2p': held-out mean squared error {b:.4f} before the refit, {a:.4f} after")


def test_a_changed_file_is_refused_before_anything_runs(root, capsys):
    """A baseline whose bytes no longer match its index entry's SHA-256 is refused as the agent loader refuses
    it: a refit would otherwise record the changed file's new digest in index.json, approving the change."""
    path = root / "arena_2p.pt"
    data = bytearray(path.read_bytes())
    data[5000] ^= 0xFF
    path.write_bytes(bytes(data))
    before = snapshot(root)
    with pytest.raises(SystemExit) as e:
        outcome_values.main(["arena_2p", "--states", "2000", "--epochs", "1", "--num-envs", "8", "--root", str(root),
                             "--replace-worse"])
    err = capsys.readouterr().err
    assert e.value.code == 1  # a file error, as an unreadable file
    assert err.startswith("python -m training.outcome_values: error: ") and f"{path}: SHA-256 " in err and "recorded in index.json (the file was changed); nothing was loaded" in err
    assert snapshot(root) == before  # neither the file nor index.json was written


def test_a_missing_root_or_a_file_as_root_is_named(tmp_path, capsys):
    for where, words in ((tmp_path / "nowhere", f"the baseline folder {tmp_path / 'nowhere'} does not exist"),
                         (tmp_path / "afile", f"{tmp_path / 'afile'} is not a folder")):
        if where.name == "afile":
            where.write_text("")
        with pytest.raises(SystemExit) as e:
            outcome_values.main(["arena_2p", "--root", str(where)])
        err = capsys.readouterr().err
        assert e.value.code == 2 and words in err and "there are: none" not in err


def test_help_says_each_default_once_and_documents_replace_worse(capsys):
    with pytest.raises(SystemExit) as e:
        outcome_values.main(["--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: None)" not in text and "(default: False)" not in text
    assert "--root ROOT folder of index.json and the files (default: the package's, monolith_envs/baselines)" in text
    assert "--states STATES decision states to collect (whole games) (default: 200000)" in text
    assert "--replace-worse write the refit even when its held-out mean squared error is not below" in text
    assert "--replace-worse" in outcome_values.__doc__


def test_an_index_that_cannot_be_written_leaves_the_old_file(root, monkeypatch):
    """The refit file and its index entry go in together (training.export_baseline.install_baseline): when
    index.json cannot be written the old file is back and nothing else is left in the folder."""
    before = snapshot(root)

    def full_disk(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(registry, "add_to_index", full_disk)
    with pytest.raises(OSError, match="No space left"):
        outcome_values.refit_baseline("arena_2p", states=2000, epochs=5, num_envs=16, root=root)
    assert snapshot(root) == before


def test_an_index_entry_naming_an_unreadable_content_file_is_one_error(root, capsys):
    """index.json is data: an entry whose env_config names a file that is not a faction file is refused on one
    line (its ContentError was a traceback)."""
    index = root / "index.json"
    data = json.loads(index.read_text())
    for e in data["baselines"]:
        if e["name"] == "arena_2p":
            e["env_config"] = {**e["env_config"], "faction_files": ["/etc/passwd"]}
    index.write_text(json.dumps(data))
    with pytest.raises(SystemExit) as e:
        outcome_values.main(["arena_2p", "--states", "50", "--epochs", "1", "--num-envs", "2", "--root", str(root)])
    err = capsys.readouterr().err
    assert e.value.code in (1, 2) and "Traceback" not in err
    assert "baseline 'arena_2p': its index entry's env_config is refused: /etc/passwd" in err
