"""An integer beyond a C ``int`` in a content file is refused with the field's own range, in the words the
loader uses for any value out of that range (it read ``integer -999999999999999999999 is too large; allowed:
integers from -2147483647 to 2147483647`` for Arena's ``banner_hp``, whose range is 1-999)."""

from __future__ import annotations

import importlib.resources
import re

import pytest

from monolith_envs.core.content import ContentError, parse_toml
from monolith_envs.core.fields import Fields


def _faction_error(tmp_path, value: str) -> str:
    from monolith_envs.arena.content import REFERENCE_FILES, load_content

    text = importlib.resources.files("monolith_envs.arena").joinpath("data", REFERENCE_FILES[0]).read_text()
    text, n = re.subn(r"(?m)^banner_hp = \d+$", f"banner_hp = {value}", text)
    assert n == 1
    path = tmp_path / f"copy_{len(value)}.toml"
    path.write_text(text)
    with pytest.raises(ContentError) as ei:
        load_content([str(path)])
    line = text.splitlines().index(f"banner_hp = {value}") + 1
    assert ei.value.line == line and ei.value.field == "faction.banner_hp"
    return str(ei.value).removeprefix(f"{path}:{line}: ")


@pytest.mark.parametrize("value", ["0", "2000000000", "-999999999999999999999", "2147483648", "-2147483648",
                                   "9" * 400])
def test_an_arena_banner_hp_beyond_a_c_int_gets_the_fields_range(tmp_path, value):
    shown = value if len(value) <= 60 else f"{value[:60]}... (400 characters)"
    assert _faction_error(tmp_path, value) == (f"field 'faction.banner_hp': {shown} is not an integer from 1 to 999; "
                                               "allowed: an integer >= 1 and <= 999")


def test_fields_readers_give_their_own_range_to_a_huge_integer():
    f = Fields({"hp": -10**21, "big": 2**31, "n": 10**400, "xs": [1, -2**40]}, "c.toml", "t1", label="tile")
    with pytest.raises(ContentError) as ei:
        f.int("hp", 1, 999)
    assert str(ei.value) == ("c.toml: tile 't1', field 'hp': -1000000000000000000000 is out of range; "
                             "allowed: an integer from 1 to 999")
    with pytest.raises(ContentError) as ei:
        f.int("hp", 5, 5000)
    assert str(ei.value).endswith("-1000000000000000000000 is out of range; allowed: an integer from 5 to 5000")
    with pytest.raises(ContentError) as ei:  # no bounds: a C int's
        f.int("big")
    assert str(ei.value).endswith("2147483648 is out of range; allowed: an integer from -2147483647 to 2147483647")
    with pytest.raises(ContentError) as ei:  # float() of it overflowed
        f.number("n", 0.0, 1.0)
    assert "is out of range; allowed: a number from 0.0 to 1.0" in str(ei.value)
    with pytest.raises(ContentError) as ei:
        f.number("n")
    assert "is out of range; allowed: a number; integers from -2147483647 to 2147483647" in str(ei.value)
    with pytest.raises(ContentError) as ei:
        f.int_list("xs", -5, 5)
    assert str(ei.value).endswith("value -1099511627776 is out of range; allowed: a list of integers from -5 to 5")
    assert Fields({"a": 2147483647, "b": -2147483647}, "c.toml").int("a") == 2147483647


def test_parse_toml_alone_refuses_them_and_says_too_small_for_a_negative_one():
    with pytest.raises(ContentError) as ei:
        parse_toml("[x]\ny = -999999999999999999999\n", "i.toml")
    assert str(ei.value) == ("i.toml:2: field 'x.y': integer -999999999999999999999 is too small; allowed: integers "
                             "from -2147483647 to 2147483647")
    with pytest.raises(ContentError, match=r"integer 2147483648 is too large"):
        parse_toml("y = 2147483648\n", "i.toml")
    assert parse_toml("y = -10000000000000\n", "i.toml", refuse_big_ints=False) == {"y": -10**13}
