"""More of The Strategy Game's narration (``monolith_envs/strategy/narration.py``): a hand change says the
cards in hand and the cast ones apart as the seat lines do (``hand 0 + 5 cast``), a Guard charge gained is
said with the card that gave it, and a line's gem cost offered is said with its card's line before the
answer (as a toll stone is)."""

from __future__ import annotations

import monolith_envs
from agents.terminal import WIDTH
from agents.terminal.strategy import PIECES
from monolith_envs.strategy.effects import get_line
from monolith_envs.strategy.words import effect_words, offer_words
from tests.agents.test_strategy_narration_toll_stones import _step

_play = _step  # with a config: seats, Exalted sides, Player Powers


def _narrate(seed: int, steps: int, **cfg) -> list[str]:
    game, before, after, a, seat = _play(seed, steps, **cfg) if cfg else _step(seed, steps)
    lines = PIECES.narrate(game, before, after, a, seat)
    assert all(len(x) <= WIDTH for line in lines for x in line.split("\n"))
    return lines


def test_a_hand_change_says_the_cast_cards_apart():
    # the Fate of Tribute's draw for P0, who holds 1 card and has cast 2: it said "P0: hand 3 -> 4", a count of
    # hand and cast cards together that the seat line ("hand 1 + 2 cast") never shows
    game, before, after, a, seat = _step(7, 51)
    assert (sum(before.hand[0]), sum(before.cast[0]), sum(after.hand[0]), sum(after.cast[0])) == (1, 2, 2, 2)
    assert PIECES.narrate(game, before, after, a, seat)[1:3] == [
        "  then F3.4 Fate of Tribute (highest: draw 1 Skill card):",
        "      P0: hand 1 + 2 cast -> 2 + 2 cast"]
    # with no card cast the change reads as before
    assert _narrate(7, 31) == ["P1 pays with Augment (1 gem) for R30 Rune of Exchange's +4 VP", "  P1: hand 1 -> 0"]


def test_a_guard_charge_gained_is_said_with_its_card():
    # it said only "P1 casts Guard": the charge was said only when it stopped an attack
    game, before, after, a, seat = _step(4, 100)
    assert (before.guard, after.guard) == ([0, 0], [0, 1])
    assert PIECES.narrate(game, before, after, a, seat) == [
        "P1 casts Guard",
        "  then Guard (caster: +1 Guard charge (it stops the next attack)):",
        "      P1: Guard 0 -> 1"]  # the card cast is no hand change: hand and cast count the same


def test_a_cost_offer_is_said_with_its_cards_line_before_the_answer():
    # the step that reaches the Fate of Tribute's cost ends with its line and the offer, as a toll stone's
    # does; the answer follows, then the card's next line (the decline came first, the line never said)
    game, before, after, a, seat = _step(7, 50)
    assert after.pending["purpose"] == "cost" and after.pending["seat"] == 0
    assert PIECES.narrate(game, before, after, a, seat)[-3:] == [
        "  then SR2 Gem Rune (each here: +1 gem per die here): P0: gems 2 -> 3",
        "  then F3.4 Fate of Tribute (each here: may pay 1 gem for +3 VP):",
        "      P0: may pay 1 gem for +3 VP"]
    assert _narrate(7, 51) == [
        "P0 declines to pay for F3.4 Fate of Tribute's +3 VP (skipped)",
        "  then F3.4 Fate of Tribute (highest: draw 1 Skill card):",
        "      P0: hand 1 + 2 cast -> 2 + 2 cast",
        "  then R8 Rune of Coin (each here: +1 gem per die here): P1: gems 1 -> 2",
        "  then R30 Rune of Exchange (each here: may pay 2 gems for +4 VP):",
        "      P1: may pay 2 gems for +4 VP"]


def test_a_second_seats_offer_joins_the_line_the_first_seat_gained_by():
    # P0 paid the toll its +3 VP reached; the same line then offers its cost to P1
    assert _narrate(5, 51) == [
        "P0 pays 1 gem for the toll stone on space 5",
        "  P0: gems 2 -> 1",
        "  then F3.4 Fate of Tribute (each here: may pay 1 gem for +3 VP):",
        "      P0: VP 4 -> 5; P1: may pay 1 gem for +3 VP"]


def test_offer_words_are_the_lines_words_without_its_selector():
    game = monolith_envs.make_game("monolith_strategy_v0", num_players=2)
    _, before, after, _, _ = _step(7, 50)
    ln = get_line(game.rules, list(after.pending["src"]))
    assert effect_words(ln) == "each here: may pay 1 gem for +3 VP"
    assert offer_words(ln) == "may pay 1 gem for +3 VP"
    assert offer_words(ln, 2) == "may pay 2 gems for +3 VP"


def test_a_socketed_die_set_to_a_face_says_no_empty_dice_line():
    # Overcharge sets P1's socketed die to 6 (the pool stays empty), then leaves the game (docs §4.8), and the
    # resolution reaches the Fate of Tribute's cost: it ended with "  dice: P1 ", a change of nothing
    game, before, after, a, seat = _play(5, 31, num_players=2, exalted=True, player_powers=True)
    assert before.pool == after.pool and before.aside == after.aside
    assert PIECES.narrate(game, before, after, a, seat) == [
        "P1 sets its die in socket 21 from 2 to 6",
        "  then Overcharge (caster: set a socketed die to 6):",
        "      P1: Overcharge leaves the game (hand 1 + 1 cast -> 1 + 0 cast)",
        "  then F3.4 Fate of Tribute (each here: may pay 1 gem for +3 VP):",
        "      P1: may pay 1 gem for +3 VP"]
