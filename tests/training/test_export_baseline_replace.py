"""``python -m training.export_baseline`` into a folder that already has a baseline for the run's env and config
under another name: the command says which baseline it replaces and removes that baseline's file, so that
``index.json`` and the ``.pt`` files stay consistent and the printed total counts only the indexed files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from monolith_envs.agents.baselines.registry import list_baselines  # noqa: E402
from tests.training.baseline_copies import copy_shipped_baselines  # noqa: E402
from tests.training.test_export_baseline import make_run  # noqa: E402
from training.export_baseline import export_run  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DUEL = {"num_players": 2, "mode": "duel"}
FFA = {"num_players": 4, "mode": "ffa"}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A run of the shipped arena 2p config (the config of the shipped baseline ``arena_2p``)."""
    d = tmp_path_factory.mktemp("bl") / "run"
    torch.set_num_threads(1)
    make_run(d)
    return d


@pytest.fixture()
def out(tmp_path):
    """A copy of the shipped baselines (the package's files are never written by the tests)."""
    return copy_shipped_baselines(tmp_path / "baselines")


def names(out: Path) -> list[str]:
    return [e["name"] for e in list_baselines(out)]


def test_the_command_says_which_baseline_it_replaces_and_removes_its_file(run, out):
    others = {f.name: f.read_bytes() for f in out.glob("*.pt") if f.name != "arena_2p.pt"}
    assert "arena_2p" in names(out) and (out / "arena_2p.pt").is_file()
    cmd = [sys.executable, "-m", "training.export_baseline", str(run), "--name", "t2p", "--out-dir", str(out),
           "--check-states", "0"]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    assert lines[0] == "replaces baseline 'arena_2p' (the same env and config); removed its file arena_2p.pt"
    assert names(out) == ["arena_4p", "strategy_2p", "strategy_3p", "strategy_solo", "t2p", "the_monolith_3p",
                          "the_monolith_4p"]
    assert not (out / "arena_2p.pt").exists()
    assert sorted(f.name for f in out.glob("*.pt")) == sorted(e["file"] for e in list_baselines(out))
    assert {f.name: f.read_bytes() for f in out.glob("*.pt") if f.name != "t2p.pt"} == others  # only one removed
    total = sum((out / e["file"]).stat().st_size for e in list_baselines(out))
    assert lines[1].startswith(f"wrote {out / 't2p.pt'} (")
    assert lines[1].endswith(f"for monolith_arena_v0 {DUEL}; all 7 baseline files of index.json: {total:,} bytes")

    # the same export again: a plain re-export of t2p replaces nothing else and says that it rewrote the file
    again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    said = again.stdout.strip().splitlines()
    assert said[0] == "replaces baseline 't2p' (the same name): t2p.pt rewritten"
    assert said[1].startswith(f"wrote {out / 't2p.pt'} (")
    assert names(out)[4] == "t2p" and len(names(out)) == 7


def write_index(out: Path, entries: list[dict]) -> None:
    (out / "index.json").write_text(json.dumps({"format": "monolith-envs-baseline-index", "baselines": entries}))


def fake(name: str, file: str, select: dict) -> dict:
    return {"name": name, "file": file, "sha256": "0" * 64, "env_id": "monolith_arena_v0", "select": select,
            "env_config": {"num_players": select["num_players"]}}


def test_a_same_name_entry_for_another_config_is_replaced_with_its_own_file(run, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "old_t2p.pt").write_bytes(b"old")
    write_index(out, [fake("t2p", "old_t2p.pt", FFA)])
    res = export_run(run, "t2p", out, check_states=0)
    assert res["replaced"] == [{"name": "t2p", "file": "old_t2p.pt", "removed": True,
                                "why": f"the same name; it was for monolith_arena_v0 {FFA}"}]
    assert not (out / "old_t2p.pt").exists() and (out / "t2p.pt").is_file()
    assert [(e["name"], e["file"], e["select"]) for e in list_baselines(out)] == [("t2p", "t2p.pt", DUEL)]


def test_only_a_replaced_entrys_own_pt_file_is_removed(run, tmp_path):
    """A file that an entry left in the index still names, or a file that is not a .pt file, stays."""
    out = tmp_path / "o"
    out.mkdir()
    for f in ("shared.pt", "notes.txt", "keep.pt"):
        (out / f).write_bytes(b"x")
    write_index(out, [fake("dup", "shared.pt", DUEL), fake("other", "shared.pt", FFA),
                      fake("odd", "notes.txt", DUEL), fake("kept", "keep.pt", {"num_players": 3, "mode": "ffa"})])
    res = export_run(run, "t2p", out, check_states=0)
    assert sorted((r["name"], r["file"], r["why"], r["removed"]) for r in res["replaced"]) == [
        ("dup", "shared.pt", "the same env and config", False),
        ("odd", "notes.txt", "the same env and config", False)]
    assert names(out) == ["kept", "other", "t2p"]
    assert sorted(f.name for f in out.iterdir()) == ["index.json", "keep.pt", "notes.txt", "shared.pt", "t2p.pt"]


def test_nothing_replaced_in_an_empty_folder(run, tmp_path):
    res = export_run(run, "t2p", tmp_path / "new", check_states=0)
    assert res["replaced"] == [] and names(tmp_path / "new") == ["t2p"]


def test_the_package_folders_replaced_file_stays_and_no_temporary_file_is_left(run, tmp_path, monkeypatch):
    import training.export_baseline as export_baseline

    out = tmp_path / "pkg"
    out.mkdir()
    (out / "old_t2p.pt").write_bytes(b"old")
    write_index(out, [fake("old", "old_t2p.pt", DUEL)])
    monkeypatch.setattr(export_baseline, "DEFAULT_OUT", out)  # as if it were the package's own folder
    res = export_run(run, "t2p", out, check_states=0)
    assert res["replaced"] == [{"name": "old", "file": "old_t2p.pt", "removed": False,
                                "why": "the same env and config"}]
    assert (out / "old_t2p.pt").read_bytes() == b"old"  # the repository keeps it
    assert [e["name"] for e in list_baselines(out)] == ["t2p"]
    assert sorted(f.name for f in out.iterdir()) == ["index.json", "old_t2p.pt", "t2p.pt"]  # no t2p.pt.new


def test_an_index_that_cannot_be_written_leaves_the_old_file_and_no_temporary_files(run, tmp_path, monkeypatch):
    import hashlib

    from monolith_envs.agents.baselines import registry

    out = tmp_path / "o"
    export_run(run, "t2p", out, check_states=0)
    before = {f.name: f.read_bytes() for f in out.iterdir()}

    def full_disk(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(registry, "add_to_index", full_disk)
    with pytest.raises(OSError, match="No space left"):
        export_run(run, "t2p", out, dtype="float32", check_states=0)  # another file than before
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before  # the file its index names, nothing else
    entry = list_baselines(out)[0]
    assert hashlib.sha256((out / entry["file"]).read_bytes()).hexdigest() == entry["sha256"]


def test_a_users_file_beside_the_baseline_and_a_symlinked_baseline_survive_a_failed_index_write(run, tmp_path,
                                                                                                 monkeypatch):
    from monolith_envs.agents.baselines import registry

    out = tmp_path / "o"
    export_run(run, "t2p", out, check_states=0)
    (out / "t2p.pt.old").write_bytes(b"USER BACKUP")  # a name the export must not use or delete
    export_run(run, "t2p", out, dtype="float32", check_states=0)
    assert (out / "t2p.pt.old").read_bytes() == b"USER BACKUP"
    store = tmp_path / "store.pt"
    (out / "t2p.pt").replace(store)
    (out / "t2p.pt").symlink_to(store)

    def full_disk(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(registry, "add_to_index", full_disk)
    with pytest.raises(OSError):
        export_run(run, "t2p", out, check_states=0)
    assert (out / "t2p.pt").is_symlink() and (out / "t2p.pt").resolve() == store.resolve()  # the link is back
    assert sorted(f.name for f in out.iterdir()) == ["index.json", "t2p.pt", "t2p.pt.old"]
