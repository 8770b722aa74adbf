"""The Strategy Game's narration as a new player reads it, continued
(``monolith_envs/strategy/narration.py``; the same lines in browser play):
every card cast says what it did, the result is said once, the words of a
pool die's choice and of Final Scoring's earmarks read plainly, the dice line
comes before the offer that ends a step, and a Guard charge that stops a line
on several players is said as for a single chosen opponent."""

from __future__ import annotations

import numpy as np

import monolith_envs
from agents.terminal import WIDTH
from agents.terminal.strategy import PIECES
from monolith_envs.strategy.state import Kind
from tests.agents.test_strategy_narration_toll_stones import _step

STRATEGY = "monolith_strategy_v0"


def _narrate(seed: int, steps: int, **cfg) -> list[str]:
    game, before, after, a, seat = _step(seed, steps, **cfg)
    lines = PIECES.narrate(game, before, after, a, seat)
    assert all(len(x) <= WIDTH for line in lines for x in line.split("\n"))
    return lines


# 1. a card cast says what it did ------------------------------------------


def test_augment_says_the_placement_it_gives():
    # it said "P1 casts Augment" and nothing more
    assert _narrate(6, 58) == [
        "P1 casts Augment",
        "  then Augment (caster: place 1 more die): P1: placements left this"
        " turn 1 -> 2"]


def test_a_player_power_cast_says_when_it_fires():
    # Player Powers wait in the queue until every die is placed (docs §4.8); the card's lines are said by its
    # caster's seat, with no parenthesis inside another
    assert _narrate(0, 5, num_players=4, exalted=True, player_powers=True) == [
        "P1 casts Usurper",
        "  Usurper is queued: it fires before the cards resolve (P1: take the"
        " Primus\n      Token and lock it; no one else takes it this round)"]


def test_a_cast_that_changes_nothing_says_so_and_why():
    assert _narrate(13, 86) == [
        "P0 casts Synergy",
        "  then Synergy (caster: +1 VP per card where they and another player"
        " both have a\n      die (at most 3)): nothing changes (it comes to"
        " 0 VP)"]
    assert _narrate(11, 119, num_players=3) == [
        "P2 casts Renewal",
        "  then Renewal (caster: reroll all pool dice): nothing changes (the"
        " dice come up\n      as they were)"]


def test_stacker_and_momentum_say_what_the_turn_gains():
    """Every Skill and Power card cast in the same turn of a seeded game: the
    narration says more than the cast unless the caster is asked next (an
    opponent, a die, a socket, a Rune), where the question names the line."""
    game = monolith_envs.make(STRATEGY, wrapped=False, num_players=3).game
    R = game.rules
    rng = np.random.default_rng(0)
    s = game.initial_state(rng)
    for _ in range(11):
        game.apply(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))), rng)
    assert s.pending["k"] == Kind.TURN
    p = s.pending["seat"]
    said = {}
    for k, card in enumerate(R.content.actions):
        t = game.clone(s)
        t.hand[p] = list(t.hand[p])
        t.hand[p][k] += 1
        a = game.layout.index("cast", k)
        if R.is_pp[k] or not game.legal_mask(t)[a]:
            continue
        before = game.clone(t)
        game.apply(t, a, np.random.default_rng(1))
        lines = PIECES.narrate(game, before, t, a, p)
        asks = t.pending["seat"] == p and t.pending["k"] != Kind.TURN
        assert len(lines) > 1 or asks, card.name
        said[card.name] = lines
    assert said["Stacker"][1:] == [
        "  then Stacker (caster: bump a lower die out of a socket once this"
        " turn (it goes\n      back to its owner's pool)):",
        f"      P{p}: a bump is ready for this turn"]
    assert said["Momentum"][1:] == [
        "  then Momentum (caster: place 2 more dice):",
        f"      P{p}: placements left this turn 1 -> 3"]


# 2. the result is said once -----------------------------------------------


def test_the_result_is_said_once_with_the_seats_named():
    # it said "game over after round 5: P1 wins; VP 7 16" (no seats), then
    # "after Final Scoring: VP P0 7, P1 16"
    game, before, after, a, seat = _step(0, 69)
    assert after.terminal
    assert PIECES.narrate(game, before, after, a, seat) == [
        "P0 reveals 0 gems for 0 VP",
        "  game over after round 5: P1 wins; after Final Scoring: VP P0 7, P1"
        " 16"]
    # solo: the goal, said once
    game, before, after, a, seat = _step(2, 33, num_players=1)
    assert after.terminal
    assert PIECES.narrate(game, before, after, a, seat)[-1] == (
        "  game over after round 5: FAILURE; 5 VP: the goal of 20 VP is missed")


# 3. plain words -----------------------------------------------------------


def test_a_pool_die_choice_says_its():
    game, _, after, _, _ = _step(0, 41)
    assert PIECES.decision(game, after) == (
        "P1 chooses one of its pool dice by its face (caster: reroll one pool"
        " die)")
    game, _, after, _, _ = _step(2, 6)
    assert PIECES.decision(game, after) == "P1 chooses one of its socketed dice"


def test_a_reveal_stopped_by_a_toll_says_what_is_kept_plainly():
    assert _narrate(2, 94)[2] == (
        "      P1: VP 10 -> 14, gems 3 -> 1, hand 4 -> 2, stopped by the toll"
        " stone on\n          space 15 after 4 of 5 VP (it costs 3 gems, more"
        " than P1 can pay with\n          gems not earmarked for the reveal;"
        " P1 keeps the earmarked gems and\n          cards the reveal did not"
        " use)")


# 4. the dice line before the offer that ends the step ---------------------


def test_the_dice_line_comes_before_the_offer():
    # P1's die from the Source was said after P2's offer, just before the
    # question about it
    lines = _narrate(22, 52, num_players=4)
    assert lines[-4:] == [
        "  then Exalted Offering (highest: +2 VP): P2: VP 2 -> 4",
        "  dice: P1 pool [-] -> [1 4 4 5 6]",
        "  then R31 Rune of Ambition (each here: may pay 1 gem to draw 1 Power"
        " card):",
        "      P2: may pay 1 gem to draw 1 Power card"]


# 5. a Guard charge stopping a line on several players ---------------------


def test_a_guard_charge_stopping_a_line_on_several_players_is_said():
    # Rune of Famine takes a gem from each player not on it: P0's charge
    # stops it for P0 (it said only "P1: gems 2 -> 1")
    game, before, after, a, seat = _step(4, 164, num_players=3)
    assert (before.guard[0], after.guard[0]) == (1, 0)
    assert PIECES.narrate(game, before, after, a, seat)[4:6] == [
        "  then R33 Rune of Famine (each player not here: -1 gem):",
        "      P0's Guard charge stops it (Guard 1 -> 0); P1: gems 2 -> 1"]
    # the single chosen opponent's case reads as before
    game, before, after, a, seat = _step(37, 83)
    assert PIECES.narrate(game, before, after, a, seat) == [
        "P0 chooses P1", "  for R15 Rune of Plunder (highest: take 1 gem from a chosen opponent)",
        "  P1's Guard charge stops it (Guard 1 -> 0)"]


def test_the_final_board_ends_with_the_result_as_the_other_games_do():
    """Arena's and The Monolith's final boards end with ``game over: ...``; Strategy's had no result line."""
    for cfg in ({"num_players": 2}, {"num_players": 1}):
        game = monolith_envs.make_game("monolith_strategy_v0", **cfg)
        rng = np.random.default_rng(4)
        s = game.initial_state(rng)
        while not game.is_terminal(s):
            game.apply(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))), rng)
        last = PIECES.board(game, s, 0).splitlines()[-1]
        if game.rules.solo:
            assert last == f"game over: {'SUCCESS' if game.success(s) else 'FAILURE'}"
        else:
            assert last == (f"game over: P{s.winner} wins" if s.winner >= 0 else "game over: no winner (tie)")


def test_shift_says_whose_die_it_moves():
    """Shift's line read ``you: move one of their own socketed dice``; the caster's own, in either voice."""
    from monolith_envs.strategy.words import effect_words

    game = monolith_envs.make_game("monolith_strategy_v0", num_players=2)
    shift = next(a for a in game.rules.content.actions if a.name == "Shift")
    (line,) = [ln for ln in shift.effect if ln.op == "move_die"]
    assert effect_words(line) == "you: move one of your own socketed dice to another socket"
    assert effect_words(line, "caster") == "caster: move one of its own socketed dice to another socket"
