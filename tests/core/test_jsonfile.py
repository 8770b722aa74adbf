"""JSON files the commands read (a playthrough folder's ``configs.json``, a run's ``report.json`` and
``config.json``) go through one bounded reader: a FIFO, bytes that are not UTF-8, invalid or deeply nested
JSON are each one error naming the file, never a hang or a traceback."""

from __future__ import annotations

import os

import pytest

from monolith_envs.core.content import ContentError
from monolith_envs.core.jsonfile import read_json
from monolith_envs.core.playthrough import PlaythroughError, main_configs


@pytest.mark.parametrize("body, message", [
    (b"[" * 100_000, "JSON nested too deeply"),
    (b'{"a": \xff}', "byte 6 (0xff) is not valid UTF-8"),
    (b'{"a": 1,\n "b": }', ":2: not valid JSON: Expecting value"),
    (b"x" * (2 << 20), "too large"),
])
def test_bad_json_files_are_one_error_naming_the_file(tmp_path, body, message):
    path = tmp_path / "f.json"
    path.write_bytes(body)
    with pytest.raises(ContentError) as e:
        read_json(path)
    assert message in str(e.value) and str(path) in str(e.value)


def test_a_fifo_or_a_folder_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(ContentError, match=r"not a regular file \(a FIFO\); allowed: a regular JSON file"):
        read_json(tmp_path / "fifo.json")
    with pytest.raises(ContentError, match="not a regular file"):
        read_json(tmp_path)
    assert read_json(_write(tmp_path / "ok.json", b'{"a": [1, 2.5]}')) == {"a": [1, 2.5]}


def _write(path, body: bytes):
    path.write_bytes(body)
    return path


def test_a_playthrough_folders_nested_configs_file_is_a_playthrough_error(tmp_path):
    _write(tmp_path / "configs.json", b"[" * 100_000)
    with pytest.raises(PlaythroughError, match="configs.json: JSON nested too deeply"):
        main_configs("monolith_arena_v0", None, tmp_path)


def test_a_run_with_a_nested_report_is_one_export_error(tmp_path):
    from training.export_baseline import ExportError, export_run

    (tmp_path / "final_model.zip").write_bytes(b"")
    _write(tmp_path / "report.json", b"[" * 100_000)
    with pytest.raises(ExportError, match="report.json: JSON nested too deeply"):
        export_run(tmp_path, "x", tmp_path / "out", check_states=0)


def test_an_atomic_write_keeps_the_replaced_files_mode_and_gives_a_new_one_the_umasks(tmp_path):
    """Outputs (logs, replay pages, results) are never more readable than the user asked: a replaced file
    keeps its permissions, a new one gets 0o666 less the umask (it was always 0o644)."""
    import os
    import stat

    from monolith_envs.core.outfiles import write_text_atomic

    private = tmp_path / "private.html"
    private.write_text("old")
    os.chmod(private, 0o600)
    write_text_atomic(private, "new")
    assert private.read_text() == "new" and stat.S_IMODE(private.stat().st_mode) == 0o600
    old = os.umask(0o077)
    try:
        write_text_atomic(tmp_path / "fresh.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "fresh.json").stat().st_mode) == 0o600
    write_text_atomic(tmp_path / "shared.json", "{}")
    assert stat.S_IMODE((tmp_path / "shared.json").stat().st_mode) == 0o666 & ~old
