"""The Monolith's recruit and maneuver decisions in play say what they buy and move: a number of hearts
names the warriors it places and the order's bonus (as the engine then grants it), declining names the
bonus warriors left, and a maneuver's destination stage names the maneuvered unit (docs §4.4, §4.6)."""

from __future__ import annotations

import numpy as np

import monolith_envs
from agents.terminal import pieces_for
from monolith_envs.the_monolith.state import Sub

PIECES = pieces_for("the_monolith_v0")


def _states(subs, seeds=range(40), players=(3, 4)):
    """Random 3-4 player games (heuristic-free, seeded): each state whose open decision is in ``subs``."""
    for n in players:
        for seed in seeds:
            game = monolith_envs.make_game("the_monolith_v0", num_players=n)
            rng = np.random.default_rng(seed)
            s = game.initial_state(rng)
            while not game.is_terminal(s):
                if s.sub in subs:
                    yield game, s
                legal = np.flatnonzero(game.legal_mask(s))
                game.apply(s, int(rng.choice(legal)), rng)


def test_recruit_hearts_say_the_warriors_and_the_bonus_the_engine_then_grants():
    seen = bonus_seen = 0
    for game, s in _states({Sub.RECRUIT_HEARTS}):
        for a in np.flatnonzero(game.legal_mask(s)):
            name = game.layout.decode(int(a))
            if not name.startswith("number"):
                continue
            h = int(a) - game.A_NUMBER
            label = PIECES.option(game, s, "number", "v", h)
            after = game.clone(s)
            game.apply(after, int(a), np.random.default_rng(0))
            bonus = after.rec_bonus
            assert after.rec_paid == h
            extra = f" + {bonus} bonus warrior{'s' if bonus > 1 else ''} (optional)" if bonus else ""
            assert label == f"{h} hearts: {h} warriors to place{extra}"
            seen += 1
            bonus_seen += bonus > 0
        if seen > 40 and bonus_seen > 3:
            break
    assert seen > 40 and bonus_seen > 3, (seen, bonus_seen)


def test_declining_names_the_bonus_left_and_a_maneuver_destination_names_the_unit():
    declined = moved = 0
    for game, s in _states({Sub.RECRUIT_PLACE, Sub.MANEUVER_DEST}):
        if s.sub == Sub.RECRUIT_PLACE and game.legal_mask(s)[game.A_PASS]:
            assert s.rec_paid == 0 and s.rec_bonus > 0
            left = s.rec_bonus
            assert PIECES.family_option(game, s, "pass") == (
                f"decline the {left} bonus warrior{'s' if left > 1 else ''} left (free: not paid with hearts)")
            declined += 1
        elif s.sub == Sub.MANEUVER_DEST:
            assert PIECES.family_option(game, s, "space") == "move the maneuvered unit to a space"
            moved += 1
        if declined > 3 and moved > 3:
            break
    assert declined > 3 and moved > 3, (declined, moved)


def test_browser_play_explains_the_unit_codes_of_the_option_labels(tmp_path):
    """Option labels write a space's units as the terminal does (``P0{2W,S}``), which browser play has no
    legend for: The Monolith's notes beside the board say what they mean, in the picture's marks too."""
    from agents.web.session import WebGame
    from monolith_envs.agents import make_agent

    env = monolith_envs.make("the_monolith_v0", num_players=3)
    web = WebGame(env, [None, make_agent("random", "the_monolith_v0"), make_agent("random", "the_monolith_v0")],
                  0, 5, PIECES, log_dir=tmp_path)
    try:
        notes = web.view()["notes"]
    finally:
        web.close()
    assert notes == []  # the first decision (an objective to discard) offers no space
    # the note is there while a decision offers a space, and only then (not at the orders, nor at the end)
    game = monolith_envs.make_game("the_monolith_v0", num_players=3)
    state = game.initial_state(np.random.default_rng(5))
    rng = np.random.default_rng(0)
    seen = {True: 0, False: 0}
    while not game.is_terminal(state):
        legal = np.flatnonzero(game.legal_mask(state))
        offers_space = any("s" in game.layout[game.layout.split(int(a))[0]].args for a in legal)
        notes = PIECES.notes(game, state, 0)
        assert bool(notes) == offers_space, (Sub(state.sub), notes)
        seen[offers_space] += 1
        game.apply(state, int(rng.choice(legal)), rng)
    assert seen[True] > 10 and seen[False] > 10
    assert PIECES.notes(game, state, 0) == []
    from monolith_envs.the_monolith.render_svg import LEGEND
    assert all(mark in " ".join(LEGEND) for mark in ("●", "†", "◆", "✕"))  # the marks the note names
    assert not hasattr(pieces_for("monolith_arena_v0"), "notes")  # Arena's labels carry no such codes
