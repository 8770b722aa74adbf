"""The Strategy Game's narration as a new player reads it (``monolith_envs/strategy/narration.py``, the same lines in
browser play): a toll stone is said in order (the line whose gain reached it, the payment with its stone
and cost, then the VP), a gain a toll stone stopped says so, chase markers say where they go and whose
bonus a gain is, the Exalted side's round-start gain is said after the round begins, the seat line's hand
count agrees with the hand list, Final Scoring's earmarking is not a payment, Guard's words read well and
an opponent chosen for a line that changes nothing says why."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from agents.play import main
from agents.terminal import WIDTH, pieces_for
from agents.terminal.strategy import LEGEND, PIECES
from monolith_envs.strategy.words import effect_words
from tests.agents.random_steps import random_steps
from tests.agents.test_play import scripted

STRATEGY = "monolith_strategy_v0"

#: the reporter's answers in their game (seed 543869609 against ``heuristic``), as they typed them
REPORTED = ["2", "1", "2", "33", "socket 33", "", "", "2", "back", "back", "1", "1", "1", "2", "", "", "5", "2", "1",
            "1", "18", "1", "2", "19", "1", "", "", "17", "1", "1", "1", "14", "2", "", "1", "8", "1", "18", "2",
            "2", "", "4", "1", "1", "2", "1", "1", "1", "18", "1", "2", "14", "1", "1", "2", "6", "1", "1", "", "6",
            "1", "1", "", "10", "1", "1", "4", "18", "2", "", "", "11", "2", "4", "", "2", "2", "1", "2", "8", "1",
            "3", "10", "2", "2", "", "2", "", "2", "10", "1", "", "2", "2", "2", "7", "2", "", ""]


@pytest.fixture(scope="module")
def reported():
    out: list[str] = []
    res = main([STRATEGY, "--set", "num_players=2", "--opponents", "heuristic", "--seed", "543869609"],
               input_fn=scripted(REPORTED), output_fn=out.append)
    return res, "\n".join(out)


def test_the_reported_game_replays_to_its_end_in_80_columns(reported):
    res, text = reported
    assert res is not None and res.decisions == 94 and res.winners == [1]
    # who won and why, in one line with the seats named (terminal play's "why:" repeats it by the result)
    assert "\n  game over after round 5: P1 wins; after Final Scoring: VP P0 9, P1 14\n" in text
    assert max(len(x) for x in text.splitlines() if "> " not in x) <= WIDTH


def test_a_paid_toll_says_the_line_that_reached_it_then_the_payment_then_the_vp(reported):
    _, text = reported
    # round 3: SR1 gives P0 a VP and takes P1 to the stone on 5; P1 pays, then SR1's VP comes
    assert ("  every die is placed: the cards resolve\n"
            "  then SR1 Primus Rune (each here: +1 VP):\n"
            "      P0: VP 3 -> 4; P1: toll stone on space 5 (pay 1 gem to go on)\n") in text
    assert ("P1 pays 1 gem for the toll stone on space 5\n"
            "  P1: gems 2 -> 1\n"
            "  then SR1 Primus Rune (each here: +1 VP): P1: VP 4 -> 5\n") in text
    # the Rune of Famine's gain that reaches P0's stone is said before P0's question (it was never said)
    assert ("  then SR6 Glory Rune (highest: +1 VP): P1: VP 7 -> 8\n"
            "  then R33 Rune of Famine (each here: +1 VP):\n"
            "      P0: toll stone on space 5 (pay 1 gem to go on)\n"
            "round 3/5 · resolution · P0 decides whether to pay · Primus P0\n") in text
    assert ("P0 declines to pay the toll stone on space 5 (stays on space 4)\n"
            "  then R33 Rune of Famine (each here: +1 VP): P1: VP 8 -> 9\n") in text
    assert "pays with gems" not in text


def test_chase_markers_say_where_they_go_and_whose_bonus_a_gain_is(reported):
    _, text = reported
    # round 1: the markers (docs §4.15: min(25, max(vp + 2, best other vp + 1))); P1's bonus of 3 stops at the
    # toll stone on 5 that P1 cannot pay (it said "then the resolution: P1: VP 2 -> 4")
    assert ("  then F3.5 Fate of the Chase (each here: a chase marker (+3 VP on reaching it\n"
            "      this round)):\n"
            "      P0: chase marker on space 3 (+3 VP); P1: chase marker on space 2 (+3 VP)\n") in text
    assert ("  then P1's chase marker on space 2 (+3 VP on reaching it):\n"
            "      P1: VP 2 -> 4, stopped by the toll stone on space 5 (it costs 1 gem, more\n"
            "          than P1 can pay; 1 VP lost)\n") in text
    # round 3: the bonus reaches the stone on 10, P1 pays, the bonus goes on (it said "P1: VP 9 -> 12, gems 2 -> 0")
    assert ("  then P1's chase marker on space 7 (+3 VP on reaching it):\n"
            "      P1: toll stone on space 10 (pay 2 gems to go on)\n") in text
    assert ("P1 pays 2 gems for the toll stone on space 10\n"
            "  P1: gems 2 -> 0\n"
            "  then P1's chase marker on space 7 (+3 VP on reaching it): P1: VP 9 -> 12\n") in text
    assert "then the resolution:" not in text


def test_the_exalted_round_start_gain_is_said_after_the_round_begins(reported):
    _, text = reported
    assert ("P1 chooses the Exalted side of the Round card\n"
            "  round 5 begins; Round card 5 covers position 7\n"
            "  dice: P0 rolls [2 3 4 5 6]; P1 rolls [3 4 4 5 6]\n"
            "  then Exalted Last Light (those with the fewest VP: +2 VP):\n"
            "      P0: toll stone on space 5 (pay 1 gem to go on)\n"
            "round 5/5 · action · P0 decides whether to pay · Primus P1\n") in text


def test_the_seat_line_counts_cards_in_hand_and_cast_apart(reported):
    _, text = reported
    # the reporter's "hand 5" above "hand: -" and five cast cards
    assert ("P0 (you) VP 4, gems 6, pool [1 3], source 0, aside 0, guard 1, hand 0 + 5 cast\n"
            "     hand: -\n"
            "     cast: Augment, Guard, Pilfer, Jinx, Shift\n") in text
    assert "\nP1* VP 14, gems 1, pool [1], source 0, aside 0, guard 0, hand 2 + 1 cast\n" in text
    # a seat line too long for 80 columns goes on in the next line (at Advancement, before the Chance roll:
    # the pool's faces are not rolled yet, docs §11)
    assert ("P0* (you) VP 1, gems 2, pool [3 dice, not rolled yet], source 2, aside 0,\n"
            "     guard 0, hand 0 + 1 cast\n") in text
    assert "the only opponent: P1 (14 VP, 2 gems, hand 2 + 1 cast); press Enter" in text
    assert '"hand 2 + 1 cast": cards cast this round count toward\nthe hand limit of 5 too' in LEGEND
    assert all(len(x) <= WIDTH for x in LEGEND.splitlines())


def test_final_scoring_earmarks_and_says_why_a_reveal_stops(reported):
    _, text = reported
    assert ("P0 earmarks what pays for the reveal (6 gems to go)\n"
            "choose the action:\n"
            "   1) earmark gems\n"
            "   2) earmark a gem card\n") in text
    assert ("P0 earmarks 5 gems for the reveal\n"
            "  then P0's reveal of 6 gems for 6 VP:\n"
            "      P0: VP 7 -> 9, gems 5 -> 4, hand 5 -> 4, stopped by the toll stone on\n"
            "          space 10 after 2 of 6 VP (it costs 2 gems, more than P0 can pay with\n"
            "          gems not earmarked for the reveal; P0 keeps the earmarked gems and\n"
            "          cards the reveal did not use)\n") in text
    assert ("P1 reveals 6 gems for 6 VP\n"
            "P1 earmarks 5 gems for the reveal\n"
            "P1 earmarks Sculpt (1 gem) for the reveal\n"
            "  then P1's reveal of 6 gems for 6 VP:\n"
            "      P1: stopped by the toll stone on space 15 after 0 of 6 VP (it costs 3\n"
            "          gems, more than P1 can pay with gems not earmarked for the reveal; P1\n"
            "          keeps the earmarked gems and cards the reveal did not use)\n") in text
    assert "untouched earmarks" not in text  # jargon: what is kept is said plainly
    assert "gain stops" not in text


def test_guard_reads_well_for_you_and_for_the_caster(reported):
    _, text = reported
    guard = next(a for a in monolith_envs.make_game(STRATEGY).rules.content.actions if a.name == "Guard")
    assert effect_words(guard.effect[0]) == "you: +1 Guard charge (it stops the next attack)"
    assert effect_words(guard.effect[0], "caster") == "caster: +1 Guard charge (it stops the next attack)"
    assert "the only card: Guard (you: +1 Guard charge (it stops the next attack)); press" in text


def test_the_primus_is_said_under_the_line_that_moves_it(reported):
    _, text = reported
    assert ("  every die is placed: the cards resolve\n"
            "  then SR1 Primus Rune (highest alone: take the Primus Token):\n"
            "      P1: takes the Primus\n"
            "  then SR1 Primus Rune (each here: +1 VP): P1: VP 12 -> 13\n") in text
    assert "the Primus goes to" not in text


def _step(seed: int, steps: int, **cfg):
    """Random play of seed ``seed`` (two seats, or the env config ``cfg``: seats, Exalted sides, Player
    Powers) up to its ``steps``-th action: ``(game, before, after, action, seat)`` of that action."""
    game = monolith_envs.make(STRATEGY, wrapped=False, **({"num_players": 2} | cfg)).game
    rng = np.random.default_rng(seed)
    s = game.initial_state(rng)
    for _ in range(steps):
        a = int(rng.choice(np.flatnonzero(game.legal_mask(s))))
        before, seat = game.clone(s), (s.pending or {}).get("seat", 0)
        game.apply(s, a, rng)
    return game, before, s, a, seat


def test_an_opponent_chosen_for_a_line_that_changes_nothing_says_why():
    # Rune of Spite's "-2 VP" on a chosen opponent with 0 VP (the reporter's "Sabotage / P1 chooses P0"): the card
    # is named, then why nothing changes
    game, before, after, a, seat = _step(35, 44)
    assert PIECES.decision(game, before) == "P0 chooses the opponent (a chosen opponent: -2 VP)"
    assert before.vp == after.vp == [4, 0]
    assert PIECES.narrate(game, before, after, a, seat) == [
        "P0 chooses P1", "  for R20 Rune of Spite (a chosen opponent: -2 VP)", "  P1 has no VP to lose: nothing changes"]
    # a steal on an attack card that the victim's Guard charge stops
    game, before, after, a, seat = _step(37, 83)
    assert PIECES.decision(game, before) == ("P0 chooses the opponent (highest: take 1 gem from a chosen "
                                             "opponent)")
    assert before.gems == after.gems and (before.guard[1], after.guard[1]) == (1, 0)
    assert PIECES.narrate(game, before, after, a, seat) == [
        "P0 chooses P1", "  for R15 Rune of Plunder (highest: take 1 gem from a chosen opponent)",
        "  P1's Guard charge stops it (Guard 1 -> 0)"]


def test_every_random_step_is_tagged_and_fits_80_columns():
    """The replay that tags the changes (and notes a toll stone's stop) ends as the real step in every step of
    random games of 1-4 seats: no step falls back to one untagged segment."""
    from monolith_envs.strategy.narration import _replay

    pieces = pieces_for(STRATEGY)
    for n in (1, 2, 4):
        game = monolith_envs.make(STRATEGY, wrapped=False, num_players=n).game
        rng = np.random.default_rng(n)
        s = game.initial_state(rng)
        while not game.is_terminal(s):
            a = int(rng.choice(np.flatnonzero(game.legal_mask(s))))
            before, seat = game.clone(s), (s.pending or {}).get("seat", 0)
            game.apply(s, a, rng)
            assert _replay(game, before, s, a) is not None
            assert all(len(x) <= WIDTH for line in pieces.narrate(game, before, s, a, seat) for x in line.split("\n"))


def test_a_toll_paid_in_two_parts_is_announced_once():
    out: list[str] = []
    main([STRATEGY, "--set", "num_players=2", "--opponents", "heuristic", "--seed", "11"],
         input_fn=lambda _p: "1", output_fn=out.append)
    text = "\n".join(out)
    assert ("  then Exalted Clash (highest: +3 VP):\n"
            "      P1: toll stone on space 15 (pay 3 gems to go on)\n"
            "P1 pays 2 gems for the toll stone on space 15\n"
            "  P1: gems 2 -> 0\n"
            "P1 pays with Haste (1 gem) for the toll stone on space 15\n"
            "  P1: hand 2 + 1 cast -> 1 + 1 cast\n"
            "  then Exalted Clash (highest: +3 VP): P1: VP 14 -> 17\n") in text


def test_the_last_dies_immediate_effect_is_said_before_the_resolution_starts():
    # docs §4.7: an Immediate card's effect happens at placement, so the last die's Rune of Thieves steal comes
    # before "every die is placed" (it came after, as if part of the resolution)
    env, before, a, seat = random_steps(STRATEGY, 1, 79, num_players=2, exalted=True, player_powers=True)
    lines = pieces_for(STRATEGY).narrate(env.game, before, env.game_state, a, seat)
    assert lines[:6] == ["P0 chooses P1",
                         "  then R21 Rune of Thieves (placer: take 1 gem from a chosen opponent):",
                         "      P0: gems 3 -> 4; P1: gems 5 -> 4",
                         "  every die is placed: the cards resolve",
                         "  then SR4 Skill Rune (each here: draw 1 Skill card):",
                         "      P1: hand 3 + 1 cast -> 4 + 1 cast"]


def test_overcharge_says_which_die_it_sets_and_to_what():
    # a Player Power that sets a socketed die (Overcharge, docs §5.7): "picks its die in socket 12" said
    # nothing of the die becoming a 6
    env, *_ = random_steps(STRATEGY, 1, 28, num_players=4, exalted=True, player_powers=True)
    g, s = env.game, env.game_state
    a = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    assert s.pending["mode"] == "set" and s.pending["face"] == 6
    assert g.describe_action(s, a) == f"sets its die in socket {g.layout.split(a)[1][0]:02d} from 5 to 6"


def test_a_player_power_firing_is_named_with_its_effect():
    # docs §4.8: queued Player Powers fire before the resolution, run their lines, then leave the game; their
    # card leaving was said untagged or as "then the resolution". Overcharge waits for its owner's SOCKET_SRC
    # choice, still one of P1's cast cards
    env, before, a, seat = random_steps(STRATEGY, 1, 28, num_players=4, exalted=True, player_powers=True)
    assert pieces_for(STRATEGY).narrate(env.game, before, env.game_state, a, seat) == [
        "P1 places a 5 in socket 12 at position 4, SR4 Skill Rune",
        "  every die is placed: the Player Powers fire, then the cards resolve",
        "  then Usurper (caster: take the Primus Token and lock it (no one else takes it\n      this round)):",
        "      P0: takes the Primus and locks it (no one else takes it this round),\n"
        "          Usurper leaves the game (hand 1 + 1 cast -> 1 + 0 cast)"]
    s = env.game_state
    k = s.pending["src"][1]
    assert env.game.rules.content.actions[k].name == "Overcharge" and s.pending["src"] == ["a", k, "effect", 0]
    assert s.pending["seat"] == 1 and [1, k] in s.pp_queue and s.cast[1][k] == 1


def test_a_cost_payment_names_what_it_buys():
    # docs §4.10: a line with a gem cost (Fate of Tribute: may pay 1 gem for +3 VP); the answers said "for the
    # line's cost" and a bare "declines to pay"
    env, *_ = random_steps(STRATEGY, 5, 32, num_players=2)
    g, s = env.game, env.game_state
    assert s.pending["purpose"] == "cost"
    words = {g.layout.split(a)[0]: g.describe_action(s, a) for a in np.flatnonzero(g.legal_mask(s))}
    assert words["pay_gems"] == "pays 1 gem for F3.4 Fate of Tribute's +3 VP"
    assert words["decline"] == "declines to pay for F3.4 Fate of Tribute's +3 VP (skipped)"
