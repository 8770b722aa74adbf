"""``training.az`` says unknown config keys in plain words, as ``training.train`` does (it printed Python lists:
``unknown config key(s) ['foo']; valid keys: ['batch_size', ...]``), and its ``--help`` is plain text (it
showed the docstring's double backticks and ``:mod:`` role)."""

from __future__ import annotations

import pytest

from training.az.config import AZ_KEYS, validate_az
from training.config import TrainConfigError

VALID = ", ".join(sorted(k.name for k in AZ_KEYS))


def test_an_unknown_key_is_named_in_plain_words():
    with pytest.raises(TrainConfigError) as ei:
        validate_az({"foo": 1})
    assert str(ei.value) == f"unknown config key 'foo'; valid keys: {VALID}"
    with pytest.raises(TrainConfigError) as ei:
        validate_az({"foo": 1, "bar": 2})
    assert str(ei.value) == f"unknown config keys 'bar', 'foo'; valid keys: {VALID}"


def test_an_unknown_quick_override_is_named_in_plain_words():
    valid = ", ".join(sorted(k.name for k in AZ_KEYS if k.name != "quick"))
    with pytest.raises(TrainConfigError) as ei:
        validate_az({"quick": {"iterationz": 1}})
    assert str(ei.value) == f"config key 'quick': unknown override key 'iterationz'; valid keys: {valid}"
    with pytest.raises(TrainConfigError) as ei:
        validate_az({"quick": {"quick": {}}})
    assert str(ei.value).startswith("config key 'quick': unknown override key 'quick'; valid keys: batch_size, ")


def test_the_command_line_error_is_one_plain_line(tmp_path, capsys):
    from training.az.__main__ import main

    cfg = tmp_path / "c.toml"
    cfg.write_text("foo = 1\n")
    with pytest.raises(SystemExit) as ei:
        main(["--config", str(cfg)])
    err = capsys.readouterr().err
    assert ei.value.code == 2
    assert err == f"python -m training.az: error: unknown config key 'foo'; valid keys: {VALID}\n"


def test_help_is_plain_text(capsys):
    from training.az.__main__ import main

    with pytest.raises(SystemExit) as ei:
        main(["--help"])
    out = capsys.readouterr().out
    assert ei.value.code == 0 and "``" not in out and ":mod:" not in out
    text = " ".join(out.split())
    assert "python -m training.az --config training/configs/az_arena_2p.toml [--quick] [--workers N]" in text
    assert "run the search-based self-play recipe (see training.az.loop)." in text
    assert "prints one error: ... line" in text


def test_plain_doc():
    from monolith_envs.core.cli import plain_doc

    assert plain_doc("``a`` (see :mod:`training.az.loop`, :func:`~monolith_envs.core.cli.one_line`)") == \
        "a (see training.az.loop, one_line)"
