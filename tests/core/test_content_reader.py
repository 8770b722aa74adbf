"""The safe TOML reader: dotted-key depth and key count bounded before tomllib, NUL bytes in paths, control
characters in content strings and keys (refused at load, naming the key)."""

import time
import tracemalloc

import pytest

from monolith_envs.core.content import MAX_KEYS, ContentError, load_toml, parse_toml, read_text


def test_a_deep_dotted_key_is_refused_before_the_parser_runs():
    text = "a." * 30_000 + "a = 1\n"  # 60 KiB; tomllib needed GiBs for this
    tracemalloc.start()
    t0 = time.perf_counter()
    with pytest.raises(ContentError, match=r"a dotted key of more than 10 parts: tables nested too deeply; "
                                           r"allowed: at most 8 levels") as ei:
        parse_toml(text, "deep.toml")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert ei.value.line == 1
    assert time.perf_counter() - t0 < 1.0 and peak < 8 * 2**20


@pytest.mark.parametrize("text", ['"a" . "b" . ' * 6 + "c = 1", "[" + "t." * 12 + "t]\n", "x = {" + "k." * 12 + "k = 1}"])
def test_dotted_chains_count_quoted_parts_headers_and_inline_tables(text):
    with pytest.raises(ContentError, match="a dotted key of more than 10 parts"):
        parse_toml(text, "deep.toml")


def test_ordinary_dotted_keys_floats_and_dates_pass():
    data = parse_toml('a.b.c = 1.5\n"q".r = -2.5e+3\n[x.y]\nd = 1979-05-27T07:32:00.999\nw = [1.0, 2.25]\n', "ok.toml")
    assert data["a"]["b"]["c"] == 1.5 and data["q"]["r"] == -2500.0 and data["x"]["y"]["w"] == [1.0, 2.25]


@pytest.mark.parametrize("line", ["k{} = 1", "[t{}]"])
def test_key_count_is_bounded(line):
    text = "\n".join(line.format(i) for i in range(MAX_KEYS + 1))
    with pytest.raises(ContentError, match=f"more than {MAX_KEYS} keys; allowed: at most {MAX_KEYS} keys") as ei:
        parse_toml(text, "many.toml")
    assert ei.value.line == MAX_KEYS + 1
    assert len(parse_toml("\n".join(line.format(i) for i in range(100)), "ok.toml")) == 100


@pytest.mark.parametrize("path", ["/tmp/a\x00b.toml", b"/tmp/a\x00b.toml"])
def test_a_nul_byte_in_a_path_is_a_content_error(path):
    with pytest.raises(ContentError, match=r"a\\x00b.toml: the path contains a NUL byte; allowed: a path without NUL"):
        read_text(path)


@pytest.mark.parametrize("name", ["\x1b]0;X\x07\x1b[2J", "ok\x9bname", "bell\x07"])
def test_control_characters_in_content_names_are_refused_naming_the_key(tmp_path, name):
    escaped = name.encode("unicode_escape").decode("ascii").replace("\\x", "\\u00")
    p = tmp_path / "cards.toml"
    p.write_text(f'[[cards]]\nid = "c1"\nname = "{escaped}"\n', encoding="utf-8")
    with pytest.raises(ContentError) as ei:
        load_toml(p, label="card")
    assert ei.value.item == "c1" and ei.value.field == "name" and ei.value.line == 3
    assert "holds the control character U+" in str(ei.value)
    assert not any(c in str(ei.value) for c in "\x1b\x07\x9b")  # the message itself is safe to print


def test_control_characters_in_keys_are_refused_and_tabs_newlines_in_strings_pass(tmp_path):
    with pytest.raises(ContentError, match=r"field 'faction.na\\x1bme': the key holds a control character"):
        parse_toml('[faction]\n"na\\u001bme" = "x"\n', "f.toml")
    assert parse_toml('a = """x\n\ty"""\n', "f.toml") == {"a": "x\n\ty"}


def test_a_shaman_name_with_an_escape_sequence_is_refused_by_the_monolith_loader(tmp_path):
    from importlib.resources import files

    from monolith_envs.the_monolith.content import load_content

    text = (files("monolith_envs.the_monolith") / "data" / "shamans.toml").read_text(encoding="utf-8")
    p = tmp_path / "shamans.toml"
    p.write_text(text.replace('name = "Vessa the Hungering"', 'name = "Vessa\\u001b[2J"', 1), encoding="utf-8")
    with pytest.raises(ContentError) as ei:
        load_content({"shaman_file": str(p)})
    assert ei.value.field.endswith("name") and "U+001B" in str(ei.value) and ei.value.line == 6


@pytest.mark.parametrize("env_module", ["monolith_envs.arena.content", "monolith_envs.strategy.content",
                                        "monolith_envs.the_monolith.content"])
def test_shipped_content_still_loads(env_module):
    import importlib

    assert importlib.import_module(env_module).load_content() is not None


def test_a_faction_name_and_a_card_name_with_escape_sequences_are_refused_by_their_loaders(tmp_path):
    from importlib.resources import files

    from monolith_envs.arena.content import load_content as arena_content
    from monolith_envs.strategy.content import load_content as strategy_content

    arena = (files("monolith_envs.arena") / "data" / "dragon_empire.toml").read_text(encoding="utf-8")
    p = tmp_path / "dragon_empire.toml"
    p.write_text(arena.replace('name = "Dragon Empire"', 'name = "Dragon\\u001b]0;X\\u0007"', 1), encoding="utf-8")
    with pytest.raises(ContentError) as ei:
        arena_content([p])
    assert ei.value.field == "faction.name" and "U+001B" in str(ei.value) and "\x1b" not in str(ei.value)

    ref = (files("monolith_envs.strategy") / "data" / "reference.toml").read_text(encoding="utf-8")
    q = tmp_path / "cards.toml"
    q.write_text(ref.replace('name = "Primus Rune"', 'name = "Primus\\u009b2J"', 1), encoding="utf-8")
    with pytest.raises(ContentError) as ei:
        strategy_content(str(q))
    assert ei.value.field.endswith("name") and "U+009B" in str(ei.value) and ei.value.line == 22


@pytest.mark.parametrize("env_id, config", [("monolith_arena_v0", {"faction_files": ["/tmp/a\x00b.toml"]}),
                                            ("monolith_strategy_v0", {"content": "/tmp/a\x00b.toml"}),
                                            ("the_monolith_v0", {"shaman_file": "/tmp/a\x00b.toml"})])
def test_a_nul_byte_in_a_content_path_of_any_game_is_a_content_error(env_id, config):
    import monolith_envs

    with pytest.raises(ContentError, match=r"a\\x00b.toml: the path contains a NUL byte"):
        monolith_envs.make(env_id, **config)
