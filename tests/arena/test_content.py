"""Monolith Arena content files and loader (docs/monolith_arena.md §5.2-§5.4)."""

from __future__ import annotations

from collections import Counter

import pytest

from monolith_envs.arena.content import (
    REFERENCE_FILES,
    ContentError,
    Effect,
    load_content,
)

# ---------------------------------------------------------------------------------------------------
# Reference content
# ---------------------------------------------------------------------------------------------------

EXPECTED = {
    # id: (offset, number of types, kinds counts by instances)
    "dragon_empire": (0, 15, {"banner": 1, "champion": 13, "rune": 9, "order": 12}),
    "lords_of_the_abyss": (15, 17, {"banner": 1, "champion": 14, "rune": 10, "order": 10}),
    "guardians_of_the_realm": (32, 19, {"banner": 1, "champion": 13, "rune": 7, "order": 14}),
    "harbingers_of_the_forest": (51, 16, {"banner": 1, "champion": 15, "rune": 8, "order": 11}),
}


@pytest.fixture(scope="module")
def content():
    return load_content()


def test_reference_factions_and_gids(content):
    assert [f.id for f in content.factions] == list(EXPECTED)
    assert content.num_types == len(content.types) == 67
    assert len(REFERENCE_FILES) == 4
    for i, f in enumerate(content.factions):
        offset, ntypes, kinds = EXPECTED[f.id]
        assert f.index == i and f.offset == offset and len(f.types) == ntypes
        assert f.banner_hp == 20
        assert len(f.instances) == 35
        assert Counter(f.types[loc].kind for loc in f.instances) == Counter(kinds)
        # banner first, copies consecutive in local order
        assert f.instances[0] == 0 and f.types[0].kind == "banner"
        assert list(f.instances) == sorted(f.instances)
        assert Counter(f.instances) == {t.local: t.count for t in f.types}
        for loc, t in enumerate(f.types):
            assert t.local == loc and t.gid == offset + loc and content.types[t.gid] is t
            assert t.faction == f.id
            assert t.id.startswith({"dragon_empire": "de_", "lords_of_the_abyss": "la_",
                                    "guardians_of_the_realm": "gr_", "harbingers_of_the_forest": "hf_"}[f.id])
    assert content.faction("lords_of_the_abyss").offset == 15


def test_unknown_faction_and_tile(content):
    with pytest.raises(KeyError, match="dragon_empire"):
        content.faction("elves")
    with pytest.raises(KeyError):
        content.type_by_id("de_elf")


def test_cached(content):
    assert load_content() is content
    assert load_content(None) is content


def test_banners(content):
    auras = {
        "de_banner": Effect("melee_bonus", amount=1, kinds=("champion",), scope="adjacent"),
        "la_banner": Effect("grant", feature="venom", kinds=("champion",), scope="adjacent"),
        "gr_banner": Effect("toughness_bonus", amount=1, kinds=("champion", "rune"), scope="adjacent"),
        "hf_banner": Effect("grant", feature="maneuver", kinds=("champion",), scope="adjacent"),
    }
    for tid, aura in auras.items():
        b = content.type_by_id(tid)
        assert b.kind == "banner" and b.count == 1 and b.local == 0
        assert b.initiative == (0,)
        assert b.melee == tuple((e, 1) for e in range(6))
        assert b.effects == (aura,)


def test_spot_checks(content):
    k = content.type_by_id("de_knight")
    assert (k.gid, k.kind, k.count) == (2, "champion", 4)
    assert k.initiative == (1,) and k.melee == ((0, 2),) and k.ranged == ()
    assert k.armor == (0, 1, 5) and k.toughness == 1
    assert k.features == frozenset({"maneuver", "cavalry"})
    assert k.order is None and k.effects == ()

    h = content.type_by_id("hf_hunter")
    assert h.initiative == (3, 0) and h.ranged == ((0, 1),) and h.melee == () and h.count == 2

    g = content.type_by_id("gr_golem")
    assert g.initiative == () and g.toughness == 2 and g.armor == (0,) and g.count == 2

    pk = content.type_by_id("de_pikeman")
    assert pk.melee == ((0, 1), (1, 1), (2, 1), (5, 1)) and pk.initiative == (2,) and pk.toughness == 0

    d = content.type_by_id("la_demon")
    assert d.melee == ((5, 2), (0, 2), (1, 2)) and d.features == frozenset({"swap"})

    nm = content.type_by_id("la_nightmare")
    assert nm.initiative == () and nm.net == (0,) and nm.features == frozenset({"teleport"})
    hor = content.type_by_id("la_horror")
    assert hor.initiative == (0,) and hor.net == (0,) and hor.melee == ((0, 2),)
    assert content.type_by_id("la_mygalomorph").features == frozenset({"venom"})

    m = content.type_by_id("hf_morlock")
    assert m.kill == (0,) and m.initiative == ()
    a = content.type_by_id("hf_assassin")
    assert a.strike_any == 1 and a.initiative == (3,) and a.melee == ()
    w = content.type_by_id("hf_wyrm")
    assert w.initiative == (2, 1) and w.melee == tuple((e, 1) for e in range(6))

    cp = content.type_by_id("gr_combat_platform")
    assert cp.ranged == ((4, 1), (5, 1), (0, 1), (1, 1))
    ch = content.type_by_id("la_chaos")
    assert ch.melee == ((0, 2),) and ch.ranged == ((2, 1),) and ch.armor == (1,)

    fo = content.type_by_id("gr_false_order")
    assert fo.kind == "order" and fo.count == 1 and fo.gid == 50
    assert fo.order == Effect("choice", options=(
        Effect("push_back"),
        Effect("wound_area", amount=1, shape="triangle", kinds=("champion", "rune")),
        Effect("rotate_target", who="any", kinds=("champion", "rune")),
    ))
    bc = content.type_by_id("de_battle_charge")
    assert bc.count == 7 and bc.order == Effect("choice", options=(Effect("battle"), Effect("charge")))
    assert content.type_by_id("hf_precise_shot").order == Effect(
        "wound_target", amount=1, who="enemy", kinds=("champion", "rune"))
    assert content.type_by_id("gr_entrenchment").order == Effect("entrench", kinds=("banner", "champion"))
    assert content.type_by_id("de_net").order == Effect("net_mark")


def test_runes(content):
    r = content.type_by_id("de_rune_charge")
    assert r.boundless and r.connect == (0, 1, 2, 3, 4, 5)
    assert r.effects == (Effect("charge_bonus", amount=1, kinds=("champion",), scope="boundless"),)
    dis = content.type_by_id("la_rune_disarmament")
    assert dis.connect == (0, 1) and not dis.boundless
    assert dis.effects == (Effect("disarm", who="enemy", kinds=("banner", "champion")),)
    assert content.type_by_id("la_rune_strength").toughness == 1
    assert content.type_by_id("la_rune_minor_acceleration").connect == (0, 2, 3, 4)
    ga = content.type_by_id("hf_rune_greater_acceleration")
    assert ga.connect == (0, 1, 2) and ga.effects == (Effect("initiative_bonus", amount=2, kinds=("champion",)),)
    assert content.type_by_id("de_rune_minor_acceleration").connect == tuple(range(6))
    tl = content.type_by_id("la_rune_teleportation")
    assert tl.effects == (Effect("teleport_link", uses=1, kinds=("champion",)),)
    assert content.type_by_id("de_rune_regeneration").effects[0].kinds == ("banner", "champion", "rune")
    assert content.type_by_id("hf_rune_regeneration").connect == (0, 2)
    assert content.type_by_id("gr_rune_agility").effects == (
        Effect("grant", feature="rotate", kinds=("champion",)),)
    assert content.type_by_id("gr_rune_penetration").effects == (Effect("pierce", kinds=("champion",)),)


def test_monolith_pick_ranges(content):
    # docs/monolith_arena.md §5.4: Monolith picks (Board tiles except the Banner) are local 1-11, 1-13, 1-12, 1-12
    for fid, hi in [("dragon_empire", 11), ("lords_of_the_abyss", 13), ("guardians_of_the_realm", 12),
                    ("harbingers_of_the_forest", 12)]:
        f = content.faction(fid)
        assert [t.local for t in f.types if t.kind in ("champion", "rune")] == list(range(1, hi + 1))


def test_provenance(content):
    assert all(t.provenance in ("sourced", "designed", "mixed") for t in content.types)
    assert content.type_by_id("de_net").provenance == "designed"
    assert content.type_by_id("de_knight").provenance == "sourced"


# ---------------------------------------------------------------------------------------------------
# Validation errors
# ---------------------------------------------------------------------------------------------------

HEADER = '[faction]\nid = "{fid}"\nname = "Test"\nbanner_hp = 20\n\n'
BANNER = '''[[tiles]]
id = "{p}_banner"
kind = "banner"
count = 1
initiative = [0]
melee = [[0, 1], [1, 1], [2, 1], [3, 1], [4, 1], [5, 1]]
'''
CHAMP = '''[[tiles]]
id = "{p}_soldier"
kind = "champion"
count = 20
initiative = [2]
melee = [[0, 1]]
armor = [0]
toughness = 0
'''
RUNE = '''[[tiles]]
id = "{p}_rune"
kind = "rune"
count = 4
connect = [0, 1]
effects = [{{ effect = "melee_bonus", amount = 1, kinds = ["champion"] }}]
'''
ORDER = '''[[tiles]]
id = "{p}_battle"
kind = "order"
count = 10
order = {{ effect = "battle" }}
'''


def make_text(p="xx", fid="test_faction", banner=None, champ=None, rune=None, order=None, extra="", header=None):
    parts = [
        (header if header is not None else HEADER).format(fid=fid),
        (banner if banner is not None else BANNER).format(p=p),
        (champ if champ is not None else CHAMP).format(p=p),
        (rune if rune is not None else RUNE).format(p=p),
        (order if order is not None else ORDER).format(p=p),
        extra,
    ]
    return "\n".join(parts)


def write(tmp_path, text, name="f.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def expect_error(tmp_path, text, tile_id, field, *, line=None, also=(), name="f.toml"):
    path = write(tmp_path, text, name)
    with pytest.raises(ContentError) as ei:
        load_content([path])
    msg = str(ei.value)
    assert path in msg, msg
    if tile_id:
        assert f"'{tile_id}'" in msg, msg
        assert ei.value.tile_id == tile_id
    assert f"'{field}'" in msg, msg
    assert ei.value.field == field
    assert ei.value.line >= 1, msg
    if line is not None:
        assert ei.value.line == line, msg
        assert f":{line}:" in msg
    for s in also:
        assert s in msg, msg
    return ei.value


def test_valid_minimal_file(tmp_path):
    c = load_content([write(tmp_path, make_text())])
    assert len(c.factions) == 1 and c.num_types == 4
    assert c.factions[0].instances == (0,) + (1,) * 20 + (2,) * 4 + (3,) * 10
    assert c.type_by_id("xx_soldier").name == "Soldier"  # default name from the id


def test_two_files_offsets(tmp_path):
    a = write(tmp_path, make_text(p="aa", fid="fa"), "a.toml")
    b = write(tmp_path, make_text(p="bb", fid="fb"), "b.toml")
    c = load_content([a, b])
    assert [f.offset for f in c.factions] == [0, 4]
    assert c.type_by_id("bb_rune").gid == 6


def test_toml_syntax_error(tmp_path):
    text = make_text().replace('count = 20', 'count = = 20')
    path = write(tmp_path, text)
    with pytest.raises(ContentError) as ei:
        load_content([path])
    line = text.splitlines().index("count = = 20") + 1
    assert path in str(ei.value) and ei.value.line == line and "syntax" in str(ei.value)


def test_missing_faction_key(tmp_path):
    text = make_text(header='[faction]\nid = "{fid}"\nname = "Test"\n\n')
    e = expect_error(tmp_path, text, "", "faction.banner_hp", line=1)
    assert "banner_hp" in str(e)


def test_unknown_faction_key(tmp_path):
    text = make_text(header='[faction]\nid = "{fid}"\nname = "Test"\nbanner_hp = 20\ncolour = "red"\n\n')
    expect_error(tmp_path, text, "", "faction.colour", line=5)


def test_two_banners(tmp_path):
    second = BANNER.replace("{p}_banner", "{p}_banner2").replace("count = 1", "count = 1")
    text = make_text(order=ORDER.replace("count = 10", "count = 9"), extra=second.format(p="xx"))
    expect_error(tmp_path, text, "xx_banner2", "kind", also=("exactly 1 banner",))


def test_no_banner(tmp_path):
    text = make_text(banner="", champ=CHAMP.replace("count = 20", "count = 21"))
    expect_error(tmp_path, text, "xx_soldier", "kind", also=("0 banners",))


def test_too_many_types(tmp_path):
    extra = "".join(
        f'[[tiles]]\nid = "xx_o{i}"\nkind = "order"\ncount = 1\norder = {{ effect = "move" }}\n\n'
        for i in range(17))
    text = make_text(order=ORDER.replace("count = 10", "count = 1"), champ=CHAMP.replace("20", "12"),
                     extra=extra)
    expect_error(tmp_path, text, "", "tiles", also=("at most 20",))


def test_counts_not_35(tmp_path):
    text = make_text(champ=CHAMP.replace("count = 20", "count = 19"))
    expect_error(tmp_path, text, "xx_battle", "count", also=("34", "35"))


def test_duplicate_id_across_files(tmp_path):
    a = write(tmp_path, make_text(p="aa", fid="fa"), "a.toml")
    b = write(tmp_path, make_text(p="bb", fid="fb", rune=RUNE.replace("{p}_rune", "aa_rune")), "b.toml")
    with pytest.raises(ContentError) as ei:
        load_content([a, b])
    msg = str(ei.value)
    assert b in msg and "'aa_rune'" in msg and "'id'" in msg and "duplicate" in msg and a in msg


def test_unknown_kind(tmp_path):
    text = make_text(champ=CHAMP.replace('kind = "champion"', 'kind = "hero"'))
    expect_error(tmp_path, text, "xx_soldier", "kind", also=("'hero'", "champion"))


def test_unknown_field(tmp_path):
    text = make_text(champ=CHAMP + 'speed = 3\n')
    e = expect_error(tmp_path, text, "xx_soldier", "speed")
    assert text.splitlines()[e.line - 1] == "speed = 3"


def test_field_of_other_kind(tmp_path):
    text = make_text(champ=CHAMP + 'connect = [0]\n')
    expect_error(tmp_path, text, "xx_soldier", "connect")


@pytest.mark.parametrize("field,line", [
    ("melee", "melee = [[6, 1]]"),
    ("ranged", "ranged = [[-1, 1]]"),
    ("armor", "armor = [7]"),
    ("net", "net = [6]"),
    ("kill", "kill = [9]"),
])
def test_champion_edges_out_of_range(tmp_path, field, line):
    champ = CHAMP.replace("melee = [[0, 1]]\n", "").replace("armor = [0]\n", "") + line + "\n"
    text = make_text(champ=champ)
    e = expect_error(tmp_path, text, "xx_soldier", field, also=("0-5",))
    assert text.splitlines()[e.line - 1] == line


def test_connect_edge_out_of_range(tmp_path):
    text = make_text(rune=RUNE.replace("connect = [0, 1]", "connect = [0, 6]"))
    expect_error(tmp_path, text, "xx_rune", "connect", also=("0-5",))


def test_strength_below_one(tmp_path):
    text = make_text(champ=CHAMP.replace("melee = [[0, 1]]", "melee = [[0, 0]]"))
    expect_error(tmp_path, text, "xx_soldier", "melee", also=(">= 1",))


def test_negative_toughness(tmp_path):
    text = make_text(champ=CHAMP.replace("toughness = 0", "toughness = -1"))
    expect_error(tmp_path, text, "xx_soldier", "toughness", also=(">= 0",))


def test_unknown_feature(tmp_path):
    text = make_text(champ=CHAMP + 'features = ["flying"]\n')
    expect_error(tmp_path, text, "xx_soldier", "features", also=("'flying'", "maneuver"))


def test_unknown_effect_name(tmp_path):
    text = make_text(rune=RUNE.replace('"melee_bonus"', '"fireball"'))
    expect_error(tmp_path, text, "xx_rune", "effects", also=("'fireball'", "melee_bonus"))


def test_order_effect_on_rune(tmp_path):
    text = make_text(rune=RUNE.replace('{{ effect = "melee_bonus", amount = 1, kinds = ["champion"] }}',
                                       '{{ effect = "battle" }}'))
    expect_error(tmp_path, text, "xx_rune", "effects", also=("'battle'",))


def test_unknown_order_effect(tmp_path):
    text = make_text(order=ORDER.replace('"battle"', '"meteor"'))
    expect_error(tmp_path, text, "xx_battle", "order", also=("'meteor'", "push_back"))


def test_unknown_effect_parameter(tmp_path):
    text = make_text(rune=RUNE.replace("amount = 1,", "amount = 1, range = 2,"))
    expect_error(tmp_path, text, "xx_rune", "effects", also=("'range'", "amount"))


def test_bad_who(tmp_path):
    text = make_text(order=ORDER.replace('{{ effect = "battle" }}',
                                         '{{ effect = "wound_target", who = "everyone" }}'))
    expect_error(tmp_path, text, "xx_battle", "order", also=("'everyone'", "own, enemy, any"))


def test_bad_who_on_rune(tmp_path):
    text = make_text(rune=RUNE.replace('amount = 1,', 'amount = 1, who = "enemy",'))
    expect_error(tmp_path, text, "xx_rune", "effects", also=("own",))


def test_bad_kinds(tmp_path):
    text = make_text(rune=RUNE.replace('kinds = ["champion"]', 'kinds = ["order"]'))
    expect_error(tmp_path, text, "xx_rune", "effects", also=("banner, champion, rune",))


def test_bad_scope(tmp_path):
    text = make_text(rune=RUNE.replace('amount = 1,', 'amount = 1, scope = "everywhere",'))
    expect_error(tmp_path, text, "xx_rune", "effects", also=("'everywhere'", "connected"))


def test_choice_too_many_options(tmp_path):
    order = ORDER.replace('{{ effect = "battle" }}',
                          '{{ effect = "choice", options = ["battle", "move", "charge", "push_back", '
                          '"net_mark", "battle"] }}')
    expect_error(tmp_path, make_text(order=order), "xx_battle", "order", also=("6", "1-5"))


def test_choice_nested(tmp_path):
    order = ORDER.replace('{{ effect = "battle" }}',
                          '{{ effect = "choice", options = ["battle", '
                          '{{ effect = "choice", options = ["move"] }}] }}')
    expect_error(tmp_path, make_text(order=order), "xx_battle", "order", also=("choice",))


def test_choice_inline_option(tmp_path):
    order = ORDER.replace('{{ effect = "battle" }}',
                          '{{ effect = "choice", options = ["battle", '
                          '{{ effect = "wound_area", amount = 2, kinds = ["rune"] }}] }}')
    c = load_content([write(tmp_path, make_text(order=order))])
    assert c.type_by_id("xx_battle").order.options == (
        Effect("battle"), Effect("wound_area", amount=2, kinds=("rune",)))


def test_order_without_order(tmp_path):
    text = make_text(order=ORDER.replace('order = {{ effect = "battle" }}\n', ''))
    expect_error(tmp_path, text, "xx_battle", "order")


def test_champion_with_order(tmp_path):
    text = make_text(champ=CHAMP + 'order = {{ effect = "battle" }}\n')
    expect_error(tmp_path, text, "xx_soldier", "order")


def test_rune_without_connect(tmp_path):
    text = make_text(rune=RUNE.replace("connect = [0, 1]\n", ""))
    expect_error(tmp_path, text, "xx_rune", "connect", also=("boundless",))


def test_boundless_rune(tmp_path):
    text = make_text(rune=RUNE.replace("connect = [0, 1]", "boundless = true"))
    r = load_content([write(tmp_path, text)]).type_by_id("xx_rune")
    assert r.boundless and r.connect == tuple(range(6)) and r.effects[0].scope == "boundless"


def test_line_points_at_field(tmp_path):
    text = make_text(champ=CHAMP.replace("armor = [0]", "armor = [0, 8]"))
    e = expect_error(tmp_path, text, "xx_soldier", "armor")
    assert text.splitlines()[e.line - 1] == "armor = [0, 8]"


def test_unreadable_file(tmp_path):
    with pytest.raises(ContentError, match="nope.toml"):
        load_content([str(tmp_path / "nope.toml")])
