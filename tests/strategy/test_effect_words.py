"""The Strategy Game's effect lines in words (``monolith_envs.strategy.words.effect_words``; docs §5.2): the
numbers, conditions, costs and caps of the content's own lines, and who ``self`` is."""

from __future__ import annotations

import re

import monolith_envs
from monolith_envs.strategy.content import Line
from monolith_envs.strategy.words import effect_words


def _content():
    return monolith_envs.make_game("monolith_strategy_v0").rules.content


def _card(cards, **key):
    (k, v), = key.items()
    return next(c for c in cards if getattr(c, k) == v)


def _words(lines, self_word="you"):
    return "; ".join(effect_words(ln, self_word) for ln in lines)


def test_board_cards_say_their_numbers_conditions_costs_and_caps():
    board = _content().board
    assert _words(_card(board, id="SR1").effect) == "highest alone: take the Primus Token; each here: +1 VP"
    assert _words(_card(board, id="SR5").effect) == (
        "highest: draw 1 Power card if the total here is 9 or more; each here: +1 VP")
    assert _words(_card(board, id="F3.2").effect) == "each here: +3 VP per pair here (at most 6)"
    assert _words(_card(board, id="R14").effect) == "each here: +1 VP per 5 pips here"
    assert _words(_card(board, id="R30").effect) == "each here: may pay 2 gems for +4 VP"
    assert _words(_card(board, id="R31").effect) == "each here: may pay 1 gem to draw 1 Power card"
    assert _words(_card(board, id="R25").effect) == "each here: +4 VP with a run of 3 here"
    assert _words(_card(board, id="R33").effect) == "each player not here: -1 gem; each here: +1 VP"
    assert _words(_card(board, id="F3.5").effect) == (
        "each here: a chase marker (+3 VP on reaching it this round); highest: +1 gem")


def test_action_cards_name_the_caster_as_the_reader_asks():
    actions = _content().actions
    assert _words(_card(actions, name="Rally").effect) == "you: +1 VP; you: +1 VP if you have the fewest VP"
    assert _words(_card(actions, name="Rally").effect, "caster") == (
        "caster: +1 VP; caster: +1 VP if they have the fewest VP")
    assert _words(_card(actions, name="Jinx").effect) == "a chosen opponent: their highest pool die turns to 1"
    assert _words(_card(actions, name="Momentum").effect) == "you: place 2 more dice"
    assert _words(_card(actions, name="Synergy").effect) == (
        "you: +1 VP per card where you and another player both have a die (at most 3)")
    assert _words(_card(actions, name="Usurper").effect).startswith("you: take the Primus Token and lock it")


def test_every_line_of_the_content_is_in_words():
    c = _content()
    lines = [ln for card in c.board for ln in card.effect] + [ln for a in c.actions for ln in a.effect]
    lines += [ln for rc in c.round_cards for ln in rc.start + rc.resolve]
    assert len(lines) > 100
    for ln in lines:
        text = effect_words(ln)
        # no raw content keyword (selector, op, condition) and no "1 gems"
        assert "_" not in text and not re.search(r"\b1 (gems|cards|dice|VPs)\b", text), (ln, text)
        assert str(ln.n) in text or ln.op in {"take_primus", "reroll", "set_face", "adjust_face", "move_die",
                                               "block_socket", "guard", "stack", "secret_rune", "chase",
                                               "auto_socket", "exile_die"}, (ln, text)


def test_a_line_the_words_do_not_know_still_reads():
    assert effect_words(Line(op="new_op", who="new_who", n=2)) == "new who: new op 2"
