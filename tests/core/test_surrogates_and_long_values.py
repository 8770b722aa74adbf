"""Lone surrogates in episode logs and playthrough configs, very long values in content files, the hint for a
broken TOML list and an empty content path: each is a short, clear error or escaped text, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import monolith_envs
from monolith_envs.core.config import ConfigError, parse_value
from monolith_envs.core.content import ContentError
from monolith_envs.core.replay import printable

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "arena_episode.json"
PKG = ROOT / "monolith_envs"


def _cli(*args: str) -> subprocess.CompletedProcess:
    """``python -m monolith_envs ARGS`` with a strict UTF-8 stdout and stderr (as a UTF-8 terminal has)."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    env.pop("PYTHONUTF8", None)
    return subprocess.run([sys.executable, "-m", "monolith_envs", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, encoding="utf-8", errors="replace", timeout=300)


def _log_with(tmp_path: Path, **fields) -> Path:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data.update(fields)
    path = tmp_path / "episode.json"
    path.write_text(json.dumps(data), encoding="utf-8")  # ensure_ascii: the file holds the text "\ud800"
    return path


def test_printable_escapes_lone_surrogates():
    assert printable("a\ud800b\udfff") == "a\\ud800b\\udfff"
    assert printable("x\udc80\ny", keep_newlines=True) == "x\\udc80\ny"
    assert printable("caf\u00e9 \U0001f600") == "caf\u00e9 \U0001f600"  # a real character (a surrogate pair) stays
    printable("\ud800").encode("utf-8")  # printable text encodes


def test_replay_prints_a_lone_surrogate_in_the_note_escaped(tmp_path):
    r = _cli("replay", "--quiet", str(_log_with(tmp_path, note="\ud800")))
    assert "Traceback" not in r.stderr and r.returncode == 0, r.stderr[-2000:]
    assert "note: \\ud800" in r.stdout


def test_replay_of_a_lone_surrogate_env_id_is_one_error_line(tmp_path):
    r = _cli("replay", "--quiet", str(_log_with(tmp_path, env_id="\ud800")))
    assert "Traceback" not in r.stderr and r.returncode == 2, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "unknown env id '\\ud800'" in lines[0]
    assert len(lines[0]) < 400


def test_html_replay_writes_a_lone_surrogate_escaped(tmp_path):
    out = tmp_path / "page.html"
    r = _cli("replay", "--html", str(out), str(_log_with(tmp_path, note="\ud800 note")))
    assert "Traceback" not in r.stderr and r.returncode == 0, r.stderr[-2000:]
    page = out.read_bytes().decode("utf-8")  # valid UTF-8
    assert "<title>monolith_arena_v0 seed 7, 156 decisions (\\ud800 note)</title>" in page


def test_playthrough_refuses_a_label_with_a_lone_surrogate(tmp_path):
    (tmp_path / "configs.json").write_text('{"monolith_arena_v0": {"\\ud800": {}}}', encoding="utf-8")
    r = _cli("playthrough", "monolith_arena_v0", "--dir", str(tmp_path))
    assert "Traceback" not in r.stderr and r.returncode == 2, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "label '\\ud800' of 'monolith_arena_v0' cannot be a file name" in lines[0]


def test_playthrough_labels_that_are_not_printable_or_too_long_are_refused_briefly(tmp_path):
    from monolith_envs.core.playthrough import PlaythroughError, main_configs

    for label in ("a\x1bb", "x" * 100_000):
        (tmp_path / "configs.json").write_text(json.dumps({"monolith_arena_v0": {label: {}}}), encoding="utf-8")
        with pytest.raises(PlaythroughError, match="cannot be a file name") as ei:
            main_configs("monolith_arena_v0", None, tmp_path)
        assert len(str(ei.value)) < 400


def test_the_monolith_content_error_cuts_a_long_value(tmp_path):
    src = (PKG / "the_monolith" / "data" / "map.toml").read_text(encoding="utf-8")
    assert 'role = "hold"' in src
    bad_map = tmp_path / "map.toml"
    bad_map.write_text(src.replace('role = "hold"', 'role = "' + "x" * 100_000 + '"', 1), encoding="utf-8")
    with pytest.raises(ContentError, match=r"field 'role': 'xxx.*\.\.\. \(100,002 characters\) is not allowed; "
                                           "one of hold") as ei:
        monolith_envs.make("the_monolith_v0", map_file=str(bad_map))
    assert len(str(ei.value)) < 400


@pytest.mark.parametrize("env_id, data_file, old, new, key, extra, message", [
    ("monolith_strategy_v0", "strategy/data/reference.toml", "sockets = [0, 0, 0]",
     "sockets = [" + ", ".join(["0"] * 100_000) + "]", "content", {}, "expected a list of at most 4 requirements"),
    ("monolith_arena_v0", "arena/data/dragon_empire.toml", 'kinds = ["champion"] }]',
     "kinds = [" + ", ".join(['"champion"'] * 200) + "] }]", "faction_files",
     {"factions": ["dragon_empire", "lords_of_the_abyss"]}, "is not a non-empty list of distinct kinds"),
])
def test_strategy_and_arena_content_errors_cut_a_long_value(tmp_path, env_id, data_file, old, new, key, extra,
                                                            message):
    src = (PKG / data_file).read_text(encoding="utf-8")
    assert old in src
    bad = tmp_path / Path(data_file).name
    bad.write_text(src.replace(old, new, 1), encoding="utf-8")
    value = [str(bad)] if key == "faction_files" else str(bad)
    with pytest.raises(ContentError, match=message) as ei:
        monolith_envs.make(env_id, **{key: value}, **extra)
    assert len(str(ei.value)) < 400


def test_content_error_message_cuts_a_long_item_field_and_problem():
    e = ContentError("f.toml", 3, "i" * 100_000, "k" * 100_000, "p" * 100_000, "a TOML file")
    assert len(str(e)) < 1400 and str(e).startswith("f.toml:3: item 'iii") and str(e).endswith("; allowed: a TOML file")
    assert e.item == "i" * 100_000  # the attributes keep the whole value


def test_a_broken_toml_list_gets_no_transformed_hint():
    text = parse_value('["a",')  # not TOML: it stays text
    with pytest.raises(ConfigError) as ei:
        monolith_envs.make("monolith_arena_v0", factions=text)
    msg = str(ei.value)
    assert "'[\"a\",' is not valid TOML: a list like '[\"a\", \"b\"]'" in msg
    assert "--set" not in msg and '\\"a\\"' not in msg and len(msg) < 400
    # comma-separated text without brackets keeps its rewritten --set form
    with pytest.raises(ConfigError, match=r"--set 'factions=\[\"a\", \"b\"\]'"):
        monolith_envs.make("monolith_arena_v0", factions=parse_value("a,b"))


def test_an_empty_content_path_is_named():
    with pytest.raises(ContentError) as ei:
        monolith_envs.make("the_monolith_v0", map_file="")
    assert str(ei.value).startswith("map_file: an empty path; give a TOML file's path or None")
    with pytest.raises(ContentError) as ei:
        monolith_envs.make("monolith_arena_v0", faction_files=[""], factions=["dragon_empire", "lords_of_the_abyss"])
    assert str(ei.value).startswith("an empty path; give a TOML file's path")
