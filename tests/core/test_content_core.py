"""core/content.py: safe reading of content files; core/fields.py: the typed, bounded field readers."""

from __future__ import annotations

import os
import threading

import pytest

from monolith_envs.core.content import (
    ContentError,
    load_toml,
    load_toml_resource,
    parse_toml,
    read_text,
)
from monolith_envs.core.fields import REQUIRED, Fields


def test_reads_a_regular_utf8_file(tmp_path):
    p = tmp_path / "a.toml"
    p.write_text('[faction]\nname = "Dragón"\n', encoding="utf-8")
    f = load_toml(p)
    assert f.data == {"faction": {"name": "Dragón"}}
    assert f.path == str(p) and len(f.digest) == 64
    assert f.header_lines("faction", array=False) == [1] and f.line_of("name") == 2


def test_rejects_devices_fifos_and_directories(tmp_path):
    with pytest.raises(ContentError, match=r"/dev/zero: not a regular file \(a device\)"):
        read_text("/dev/zero")
    with pytest.raises(ContentError, match="a directory"):
        read_text(tmp_path)
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    result = []
    t = threading.Thread(target=lambda: result.append(pytest.raises(ContentError, read_text, fifo)))
    t.start()
    t.join(5)
    assert not t.is_alive(), "reading a FIFO hung"
    assert "a FIFO" in str(result[0].value)


def test_size_cap_and_missing_file(tmp_path):
    p = tmp_path / "big.toml"
    p.write_bytes(b"# " + b"x" * 2000 + b"\n")
    with pytest.raises(ContentError, match="2003 bytes is too large; allowed: at most 1000 bytes"):
        read_text(p, max_bytes=1000)
    with pytest.raises(ContentError, match="nope.toml: cannot read the file: No such file"):
        read_text(tmp_path / "nope.toml")


def test_bad_utf8_names_line_and_byte(tmp_path):
    p = tmp_path / "latin1.toml"
    p.write_bytes('a = 1\nname = "Drag\u00f3n"\n'.encode("latin-1"))
    with pytest.raises(ContentError) as ei:
        load_toml(p)
    assert ei.value.line == 2 and "byte 18 (0xf3) is not valid UTF-8" in str(ei.value)


@pytest.mark.parametrize("text", ["a = " + "[" * 5000 + "]" * 5000, "a = " + "{b = " * 3000 + "1" + "}" * 3000,
                                  "a." * 40 + "b = 1", "[" + "x." * 40 + "y]\nz = 1"])
def test_deep_nesting(text):
    with pytest.raises(ContentError, match="nested too deeply; allowed: at most 8 levels"):
        parse_toml(text, "deep.toml")


def test_brackets_in_strings_and_comments_do_not_count():
    text = 'a = "[[[[[[[[[[[[[[["  # {{{{{{{{{{{{{{{{{{{\nb = \'\'\'[[[[[[[[[[[[[[\n[[[[[[[\'\'\'\nc = [[1]]\n'
    assert parse_toml(text, "s.toml")["c"] == [[1]]


def test_huge_integers():
    with pytest.raises(ContentError, match=r"field 'x\.y': integer 2147483648 is too large"):
        parse_toml("[x]\ny = 2147483648\n", "i.toml")
    with pytest.raises(ContentError, match="i.toml: value cannot be read"):
        parse_toml("x = " + "9" * 5000, "i.toml")
    with pytest.raises(ContentError, match=r"field 'x\[1\]': 1e400|field 'x\[1\]': inf"):
        parse_toml("x = [1.0, inf]", "i.toml")
    assert parse_toml("x = -2147483647", "i.toml") == {"x": -2147483647}


def test_syntax_error_has_line():
    with pytest.raises(ContentError) as ei:
        parse_toml("a = 1\nb = = 2\n", "s.toml")
    assert ei.value.line == 2 and "TOML syntax error" in str(ei.value)


def test_resource():
    f = load_toml_resource("monolith_envs.arena", "data", "dragon_empire.toml")
    assert f.data["faction"]["id"] == "dragon_empire"


def test_field_readers():
    t = {"id": "x", "n": 3, "f": 0.5, "b": True, "s": "ab", "l": [1, 2], "w": ["a"], "sub": {"k": 7}, "ts": [{}]}
    lines = {"n": 4}
    r = Fields(t, "c.toml", item="x", label="card", line=lambda f: lines.get(f, 0))
    assert r.int("n", 0, 5) == 3 and r.int("missing", 0, 5, default=1) == 1
    assert r.number("f", 0, 1) == 0.5 and r.bool("b") is True and r.str("s", pattern="[a-z]+") == "ab"
    assert r.int_list("l", 0, 9, unique=True) == (1, 2) and r.str_list("w", ("a", "b")) == ("a",)
    assert r.choice("s", ("ab", "cd")) == "ab" and r.table_of("sub").int("k", 0, 9) == 7
    assert r.tables("ts") == [{}] and "n" in r
    with pytest.raises(ContentError, match="missing"):  # REQUIRED, the readers' default: the field must be there
        r.int("missing", 0, 5, default=REQUIRED)
    with pytest.raises(ContentError) as ei:
        r.int("n", 0, 2)
    e = ei.value
    assert (e.path, e.line, e.item, e.field) == ("c.toml", 4, "x", "n")
    assert str(e) == "c.toml:4: card 'x', field 'n': 3 is out of range; allowed: an integer from 0 to 2"
    for call, msg in [
        (lambda: r.int("b"), "True is not an integer"),
        (lambda: r.int("nope"), "field 'nope': missing"),
        (lambda: r.number("s"), "'ab' is not a number"),
        (lambda: r.bool("n"), "3 is not a boolean"),
        (lambda: r.str("n"), "3 is not a string"),
        (lambda: r.str("s", max_len=1), "too long"),
        (lambda: r.int_list("l", 0, 1), "value 2 is out of range"),
        (lambda: r.list("l", max_len=1), "list of 2 items"),
        (lambda: r.str_list("w", ("b",)), "value 'a' is not allowed"),
        (lambda: r.table_of("sub").int("k", 0, 5), "field 'sub.k': 7 is out of range"),
        (lambda: r.check_keys(("id", "n")), "unknown field 'f'"),
        (lambda: Fields([], "c.toml"), "is not a table"),
    ]:
        with pytest.raises(ContentError, match=msg):
            call()
