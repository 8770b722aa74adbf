"""``game.describe_action``: every action of random games said in words (terminal and browser play, the
replay page, Arena's "Last:" line), with and without the state it is played in."""

from __future__ import annotations

import re

import numpy as np
import pytest

import monolith_envs

#: a layout name (``PLACE(slot=0, hex=7, rot=0)``, ``END_TURN``, ``number(v=2)``): never said as words
_NAME = re.compile(r"^[A-Z_]{3,}|\w\(\w+=")

CONFIGS = [("monolith_arena_v0", {}), ("monolith_arena_v0", {"num_players": 4, "mode": "teams"}),
           ("monolith_strategy_v0", {"num_players": 2}), ("monolith_strategy_v0", {"num_players": 1}),
           ("the_monolith_v0", {"num_players": 3})]


@pytest.mark.parametrize("env_id,config", CONFIGS)
def test_every_action_of_random_games_is_said_in_words(env_id, config):
    game = monolith_envs.make_game(env_id, **config)
    families = set()
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = game.initial_state(rng)
        for _ in range(400):
            if game.is_terminal(state):
                break
            legal = np.flatnonzero(game.legal_mask(state))
            for a in legal[:: max(1, len(legal) // 7)]:  # a spread of the legal actions, not just the one played
                fam = game.layout.split(int(a))[0]
                for words in (game.describe_action(state, int(a)), game.describe_action(None, int(a))):
                    assert words and words[0].islower() and not _NAME.search(words), (fam, words)
                    assert words != game.layout.decode(int(a)), (fam, words)
                families.add(fam)
            game.apply(state, int(rng.choice(legal)), rng)
    assert len(families) >= 4, families  # several families met, not one


def test_arena_words_name_the_tile_and_the_hex():
    game = monolith_envs.make_game("monolith_arena_v0")
    rng = np.random.default_rng(0)
    state = game.initial_state(rng)
    while not game.is_terminal(state):
        legal = np.flatnonzero(game.legal_mask(state))
        place = [a for a in legal if game.layout.split(int(a))[0] == "PLACE"]
        if place:
            slot, h, rot = game.layout.split(int(place[0]))[1]
            name = game.tables.name_of[state.itype[state.hand[state.acting_seat][slot]]]
            facing = ("NE", "E", "SE", "SW", "W", "NW")[rot]
            assert game.describe_action(state, int(place[0])) == f"places {name} on hex {h:02d} facing {facing}"
            assert game.describe_action(None, int(place[0])) == (
                f"places the tile of slot {slot + 1} on hex {h:02d} facing {facing}")
            seat = state.acting_seat
            game.apply(state, int(place[0]), rng)
            svg = game.render_svg(state)
            assert f"Last: P{seat} places {name} on hex {h:02d} facing {facing}" in svg  # still on its hex
            i = state.board[h]
            state.board[h] = -1  # had it gone (a Battle), the hand before the move names it
            assert f"Last: P{seat} places {name} on hex {h:02d} facing {facing}" in game.render_svg(state)
            last = state.last_move
            state.last_move = last[:2]  # without the note of the state before, the slot is said instead
            assert f"Last: P{seat} places the tile of slot {slot + 1} on hex {h:02d}" in game.render_svg(state)
            state.board[h], state.last_move = i, last
            return
        game.apply(state, int(rng.choice(legal)), rng)
    pytest.fail("no PLACE in a whole game")


def test_words_refuse_an_action_outside_the_layout():
    game = monolith_envs.make_game("the_monolith_v0")
    with pytest.raises(ValueError):
        game.describe_action(None, game.layout.n)


def test_monolith_effects_say_every_number_that_matters():
    """The threshold, divisor and cap of an effect are said (they were left out: Sprawl read "+7 favour if:
    controlled"), and every card and shaman of the game has an effect in words."""
    from monolith_envs.the_monolith.words import effect_words

    game = monolith_envs.make_game("the_monolith_v0")
    cards = {c.name: c.effect for coll in (game.divs, game.objs, game.shamans) for c in coll}
    assert effect_words(cards["Sprawl"]) == "+7 favour with 5 or more spaces you control"
    assert effect_words(cards["Wrathful"]) == "+1 favour for every 2 warriors in your anger (at most 5)"
    assert effect_words(cards["Keeper of Tombs"]) == "+3 favour per mausoleum you control"
    assert effect_words(cards["Vigil"]) == "+5 favour if your shaman is in the Monolith"
    for name, e in cards.items():
        words = effect_words(e)
        assert words and "_" not in words and ":" not in words, (name, words)
        for number in (e.threshold, e.divisor, e.cap) if e is not None else ():
            if number > 1:
                assert str(number) in words, (name, words)
