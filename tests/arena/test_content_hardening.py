"""Hostile faction files: bounds on every number, only regular UTF-8 files, limits, an edit-aware cache."""

from __future__ import annotations

import os
import threading

import pytest

import monolith_envs
from monolith_envs.arena.content import BOUNDS, ContentError, load_content
from tests.arena.test_content import CHAMP, HEADER, RUNE, make_text, write


def _err(tmp_path, text):
    path = write(tmp_path, text)
    with pytest.raises(ContentError) as ei:
        load_content([path])
    assert path in str(ei.value)
    return ei.value


@pytest.mark.parametrize("old,new,tile,field", [
    ("initiative = [2]", "initiative = [1000000]", "xx_soldier", "initiative"),
    ("initiative = [2]", "initiative = [10]", "xx_soldier", "initiative"),
    ("initiative = [2]", "initiative = [1, 1, 1, 1, 1]", "xx_soldier", "initiative"),
    ("melee = [[0, 1]]", "melee = [[0, 10]]", "xx_soldier", "melee"),
    ("toughness = 0", "toughness = 1000000000000", "xx_soldier", "toughness"),
    ("count = 20", "count = 36", "xx_soldier", "count"),
])
def test_champion_numbers_are_bounded(tmp_path, old, new, tile, field):
    e = _err(tmp_path, make_text(champ=CHAMP.replace(old, new) + "strike_any = 0\n"))
    assert (e.tile_id, e.field) == (tile, field) and "allowed" in str(e)


def test_strike_any_bounded(tmp_path):
    e = _err(tmp_path, make_text(champ=CHAMP + "strike_any = 10\n"))
    assert (e.tile_id, e.field) == ("xx_soldier", "strike_any") and "<= 9" in str(e)


@pytest.mark.parametrize("effect", ['{{ effect = "initiative_bonus", amount = 1000000, kinds = ["champion"] }}',
                                    '{{ effect = "melee_bonus", amount = 10, kinds = ["champion"] }}',
                                    '{{ effect = "teleport_link", uses = 100 }}'])
def test_effect_amounts_are_bounded(tmp_path, effect):
    rune = RUNE.replace('{{ effect = "melee_bonus", amount = 1, kinds = ["champion"] }}', effect)
    e = _err(tmp_path, make_text(rune=rune))
    assert (e.tile_id, e.field) == ("xx_rune", "effects") and "from 1 to 9" in str(e)


@pytest.mark.parametrize("name", ["[0]", "{ a = 1 }", "3", "true"])
def test_an_effect_name_that_is_not_a_string_is_a_content_error(tmp_path, name):
    """A list or table as the effect name was hashed against the vocabulary (TypeError: unhashable)."""
    rune = RUNE.replace('{{ effect = "melee_bonus", amount = 1, kinds = ["champion"] }}',
                        '{{ effect = ' + name.replace("{", "{{").replace("}", "}}") + ', amount = 1 }}')
    e = _err(tmp_path, make_text(rune=rune))
    assert (e.tile_id, e.field) == ("xx_rune", "effects") and "is not an effect name" in str(e)
    assert "melee_bonus" in str(e)  # the names allowed


@pytest.mark.parametrize("hp", ["0", "1000", "1000000000000"])
def test_banner_hp_bounded(tmp_path, hp):
    e = _err(tmp_path, make_text(header=HEADER.replace("banner_hp = 20", f"banner_hp = {hp}")))
    assert e.field == "faction.banner_hp" and e.line == 4


def test_bounds_cover_the_reference():
    c = load_content()
    assert max(v for t in c.types for v in t.initiative) <= BOUNDS["initiative"][1]
    assert max(s for t in c.types for _, s in t.melee + t.ranged) <= BOUNDS["strength"][1]


def test_int_too_large_for_c(tmp_path):
    e = _err(tmp_path, make_text(champ=CHAMP.replace("toughness = 0", "toughness = 9223372036854775808")))
    assert "too large" in str(e) and "toughness" in e.field


def test_five_thousand_digits(tmp_path):
    e = _err(tmp_path, make_text(champ=CHAMP.replace("toughness = 0", "toughness = " + "9" * 5000)))
    assert "cannot be read" in str(e)


def test_wrong_encoding(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(make_text().replace('name = "Test"', 'name = "T\u00e9st"').encode("latin-1"))
    with pytest.raises(ContentError, match=r"latin1.toml:3: byte \d+ \(0xe9\) is not valid UTF-8"):
        load_content([str(path)])


def test_deep_nesting(tmp_path):
    e = _err(tmp_path, make_text(champ=CHAMP + "notes2 = " + "[" * 3000 + "]" * 3000 + "\n"))
    assert "nested too deeply" in str(e)


def test_dev_zero_and_fifo_through_the_env_config(tmp_path):
    with pytest.raises(monolith_envs.ContentError, match="/dev/zero: not a regular file"):  # the package's export
        monolith_envs.make("monolith_arena_v0", faction_files=["/dev/zero"])
    assert monolith_envs.ContentError is ContentError
    fifo = tmp_path / "f.toml"
    os.mkfifo(fifo)
    box = []
    t = threading.Thread(target=lambda: box.append(pytest.raises(
        ContentError, monolith_envs.make, "monolith_arena_v0", faction_files=[str(fifo)])))
    t.start()
    t.join(10)
    assert not t.is_alive(), "a FIFO faction file hung"
    assert "a FIFO" in str(box[0].value)


def test_size_cap(tmp_path):
    e = _err(tmp_path, make_text() + "# " + "x" * (1 << 20) + "\n")
    assert "too large" in str(e)


def test_cache_notices_an_edited_file(tmp_path):
    path = write(tmp_path, make_text())
    a = load_content([path])
    assert load_content([path]) is a
    write(tmp_path, make_text().replace("initiative = [2]", "initiative = [3]"))  # same size, same second
    b = load_content([path])
    assert b is not a and b.type_by_id("xx_soldier").initiative == (3,)
