"""render_mode="svg" and rgb_array of each game: the drawing parses, names what is on the board as real
text, marks the clickable board elements, and shows hidden information only as the observation does."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import monolith_envs
from monolith_envs.arena.positions_text import parse_position as arena_position
from monolith_envs.arena.render_svg import hex_center
from monolith_envs.strategy import parse_position as strategy_position
from monolith_envs.the_monolith import parse_position as monolith_position

NS = "{http://www.w3.org/2000/svg}"

ARENA = """
factions: dragon_empire, harbingers_of_the_forest
config: monolith_module=true
9: de_banner
11: hf_banner
monolith P0: unfolded seg2=de_knight hex2=10 f2=1 hex3=14
monolith P1: folded seg2=hf_spark seg3=hf_assassin revealed3
turn: P0 discarded=1
"""

STRATEGY = """
players 3
round 2
roundcard 7 exalted
vp 9 10 0
gems 2 1 0
die 0 P1 6
die 20 P0 5
blocked 21
pool P0 1 4
pool P2 2
hand P0 augment sabotage
hand P1 jinx
private P1 R25
private P2 R13 revealed faces 3 0 0 0
decision turn P0
"""

MONOLITH = """
decision ORDER_CHOOSE P0
P0 available=5 objectives=O05,O10
space 9: P0{2W,3w}
"""


def _texts(svg: str) -> list:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(NS + "text")]


def _targets(svg: str) -> set:
    return {g.get("data-target") for g in ET.fromstring(svg).iter(NS + "g") if g.get("data-target")}


def test_arena_drawing_names_tiles_seats_and_hidden_segments():
    game, s = arena_position(ARENA)
    omni, p0, p1 = (_texts(game.render_svg(s, v)) for v in (None, 0, 1))
    for t in ("Banner", "P0 Dragon Empire", "P1 Harbingers of the Forest", "HP 20/20"):
        assert any(t in x for x in omni), t
    assert "Monolith folded on hex 11 · S2: Spark · S3: Assassin" in omni
    assert "Monolith folded on hex 11 · S2: ? · S3: Assassin" in p0   # P1's seg 2 unrevealed, seg 3 revealed
    assert "Monolith folded on hex 11 · S2: Spark · S3: Assassin" in p1  # its own
    assert any("as seen by P1" in x for x in p1) and any("omniscient view" in x for x in omni)
    assert _targets(game.render_svg(s)) == {f"hex:{h}" for h in range(19)}


def test_strategy_drawing_names_cards_sockets_and_hides_hands():
    g, s = strategy_position(STRATEGY)
    omni, p0 = _texts(g.render_svg(s)), _texts(g.render_svg(s, 0))
    assert "hand: Augment, Sabotage" in p0 and "hand: 1 card, hidden" in p0 and "hand: Jinx" not in p0
    assert "private 0: hidden Rune" in p0 and "hand: Jinx" in omni
    # a cast card is public and counts toward the hand size, not toward the hidden hand
    s.cast[1][s.hand[1].index(1)] += 1
    s.hand[1][s.hand[1].index(1)] -= 1
    p0 = _texts(g.render_svg(s, 0))
    assert "hand: 0 cards, hidden" in p0 and any(x.startswith("cast: ") and "Jinx" in x for x in p0)
    assert any("hand size 1" in x for x in p0)
    assert any("Rune of Sequence" in x for x in omni) and not any("Rune of Sequence" in x for x in p0)
    assert any("Primus Rune" in x for x in omni) and "Score track" in omni
    targets = _targets(g.render_svg(s))
    assert {"socket:0", "socket:20", "socket:21"} <= targets and all(t.startswith("socket:") for t in targets)


def test_monolith_drawing_shows_the_named_map_and_hides_objectives():
    g, s = monolith_position(MONOLITH)
    omni, p1 = _texts(g.render_svg(s)), _texts(g.render_svg(s, 1))
    for name in ("The Monolith", "Ashen Hold", "Briar Temple", "Cinder Scriptorium", "Dusk Hollow"):
        assert any(name in x for x in omni), name
    assert "9 Briar Barrow" in omni and "barrow, mausoleum" in omni
    assert "2" in omni and "†3" in omni  # P0's 2 living and 3 dead warriors on space 9
    assert any(x.startswith("objectives: ") and "hidden" not in x for x in omni)
    assert "objectives: 2 hidden" in p1
    at = omni.index("Open decision:")  # the decision in words, in the side column: only the orders offered
    assert omni[at + 1] == "P0, the order phase: march, shaman or commit"
    assert sorted(n.split("=")[1].rstrip(")") for n in g.layout.names(g.legal_mask(s))) == ["commit", "march", "shaman"]
    targets = _targets(g.render_svg(s))
    assert {f"space:{sp.id}" for sp in g.content.map.spaces} == targets
    svg = g.render_svg(s)
    assert svg.count('stroke="#a57d4b"') >= len([1 for a, b in g.content.map.dashed if g.active[a] and g.active[b]])


def test_monolith_drawing_names_only_the_orders_and_actions_offered():
    """The open ORDER_CHOOSE / ACTION_CHOOSE decision lists the kinds its legal actions have (docs §4.4, §4.6),
    read here from the legal actions' names, over seeded random games of 3 and 4 players."""
    words = {"fate": "manipulate fate", "use_power": "use a power"}
    checked = 0
    for n in (3, 4):
        env = monolith_envs.make("the_monolith_v0", num_players=n)
        env.reset(seed=n)
        rng = np.random.default_rng(n)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            g, s = env.unwrapped.game, env.unwrapped.game_state
            status = _texts(g.render_svg(s))[0].split(" · ")  # the status line on top says it whole
            ask = next((x for x in status if "the order phase: " in x or "the action phase: " in x), None)
            if ask is not None:
                names = g.layout.names(obs["action_mask"])
                kinds = {nm.split("=")[1].rstrip(")") if nm.startswith("order(") else
                         words.get(nm.split("(")[0], nm.split("(")[0]) for nm in names}
                said = ask.split(" phase: ", 1)[1].replace(" or ", ", ").split(", ")
                assert set(said) == kinds and len(said) == len(kinds), (ask, sorted(kinds))
                checked += 1
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked >= 100


@pytest.mark.parametrize("eid,cfg", [("monolith_arena_v0", {}), ("monolith_strategy_v0", {"num_players": 2}),
                                     ("the_monolith_v0", {"num_players": 2})])
def test_env_render_modes_svg_and_rgb_array_agree(eid, cfg):
    env = monolith_envs.make(eid, render_mode="svg", **cfg)
    env.reset(seed=2)
    svg = env.render()
    assert isinstance(svg, str) and svg.startswith("<svg") and ET.fromstring(svg) is not None
    root = ET.fromstring(svg)
    w, h = int(root.get("width")), int(root.get("height"))
    env = monolith_envs.make(eid, render_mode="rgb_array", **cfg)
    env.reset(seed=2)
    img = env.render()
    assert img.shape == (h, w, 3) and img.dtype == np.uint8
    flat = img.reshape(-1, 3)
    assert len(np.unique(flat, axis=0)) > 50                       # anti-aliased text and marks
    assert (np.abs(flat.astype(int) - flat[0]).sum(axis=1) > 60).mean() > 0.05  # not blank
    game = env.unwrapped.game
    with pytest.raises(ValueError, match="viewer must be None or a seat"):
        game.render_svg(env.unwrapped.game_state, game.num_players)


# ------------------------------------------------------------------------------ hidden information
LEAK_CASES = [("monolith_arena_v0", {"monolith_module": True}), ("monolith_arena_v0", {"num_players": 4, "mode": "teams", "monolith_module": True}),
              ("monolith_strategy_v0", {"num_players": 3, "player_powers": True}),
              ("the_monolith_v0", {"num_players": 3})]


@pytest.mark.parametrize("eid,cfg", LEAK_CASES)
def test_no_hidden_fact_of_another_seat_in_a_seats_drawing(eid, cfg):
    """As the observation leak test: redraw everything a seat may not know (``resample_hidden``); the seat's
    observation and its SVG must not change, while the omniscient drawing does for some state."""
    env = monolith_envs.make(eid, wrapped=False, **cfg)
    game = env.game
    rng = np.random.default_rng(5)
    changed = checked = 0
    for seed in (1, 2):
        env.reset(seed=seed)
        step = 0
        while not game.is_terminal(env.game_state) and step < 400:
            if step % 9 == 0:
                state = env.game_state
                for viewer in range(game.num_players):
                    other = game.resample_hidden(state, viewer, rng)
                    if hasattr(state, "last_move"):  # not game state: the engine's note of the move that led here
                        other.last_move = state.last_move
                    assert np.array_equal(game.observe(state, viewer), game.observe(other, viewer))
                    assert game.render_svg(state, viewer) == game.render_svg(other, viewer), (seed, step, viewer)
                    changed += game.render_svg(state) != game.render_svg(other)
                    checked += 1
                ET.fromstring(game.render_svg(state))  # every drawing is well-formed XML
            env.step(int(rng.choice(env.legal_actions())))
            step += 1
        for viewer in (None, *range(game.num_players)):  # the final state too
            assert ET.fromstring(game.render_svg(env.game_state, viewer)) is not None
    assert checked > 20 and changed > 0  # the omniscient drawing does show what was redrawn


def test_drawing_text_is_escaped_and_selectable():
    game, s = arena_position(ARENA)
    svg = game.render_svg(s)
    assert re.search(r"<text [^>]*>P0 Dragon Empire</text>", svg) or re.search(r"<text [^>]*>▶ P0 Dragon Empire</text>", svg)
    assert "<image" not in svg and "base64" not in svg


def test_arena_pending_hexes_are_outlined_and_named():
    game, s = arena_position("""
factions: lords_of_the_abyss, dragon_empire
0: la_banner
9: la_spike f=1
16: de_banner
10: de_knight f=0
hand P0: la_push_back
""")
    game.apply(s, 365)
    assert "dashed" not in game.render_svg(s).replace("Dashed", "")  # nothing chosen yet
    hex10 = next(a for a in np.flatnonzero(game.legal_mask(s)) if game.layout.decode(int(a)) == "SELECT_HEX(hex=10)")
    game.apply(s, int(hex10), np.random.default_rng(0))
    svg = game.render_svg(s)
    assert "Pending: P0's order Push Back · chosen: hex 10 (P1 Knight)" in _texts(svg)  # in words, tiles by name
    dashed = [p for p in ET.fromstring(svg).iter(NS + "polyline") if p.get("stroke-dasharray")]
    assert len(dashed) == 1
    xs = [float(v.split(",")[0]) for v in dashed[0].get("points").split()]
    assert abs(sum(xs[:6]) / 6 - hex_center(10)[0]) < 1


def test_the_monolith_drawing_offers_to_stop_a_march_only_where_stopping_is_legal():
    from monolith_envs.the_monolith.state import Sub

    g = monolith_envs.make_game("the_monolith_v0", num_players=3)
    rng, s = np.random.default_rng(0), g.initial_state(np.random.default_rng(0))
    said = {}
    while not g.is_terminal(s) and len(said) < 2:
        if s.sub == Sub.MARCH_STEP:
            header = " ".join(x for x in _texts(g.render_svg(s)) if f"P{s.current}," in x or "march" in x)
            said[0 in g.legal_actions(s)] = header
        g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))), rng)
    assert "step to an adjacent space or stop" in said[True]
    assert "or stop" not in said[False] and "(it may stop after its first step)" in said[False]


def test_arena_pending_line_names_the_option_of_a_choice_order():
    from monolith_envs.arena.render_svg import pending_line

    g = monolith_envs.make_game("monolith_arena_v0")
    said = set()
    for seed in range(40):
        rng, s = np.random.default_rng(seed), g.initial_state(np.random.default_rng(seed))
        while not g.is_terminal(s):
            if s.p_order >= 0 and s.p_mode >= 0:
                said.add(pending_line(g.tables, s).split(" · ")[0].split("'s order ", 1)[1])
            g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))))
    # D55: False Order acts as Push Back, Fire Concoction or Rotation; the options are named as those Orders
    assert {"Battle/Charge, as Battle", "Battle/Charge, as Charge", "False Order, as Push Back"} <= said
    assert not any("option" in x or "(" in x for x in said), said
