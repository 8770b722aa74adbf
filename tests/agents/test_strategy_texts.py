"""Terminal texts of Monolith: The Strategy Game (``agents/terminal/strategy.py``): the resolution that goes
on after a decision is narrated apart from the decision, tagged with its card and line; the toll prompt says
what paying and declining do; the result is said once; long card names are wrapped, never cut silently."""

from __future__ import annotations

import pytest

import monolith_envs
from agents.play import main
from agents.terminal import WIDTH, wrap
from agents.terminal.strategy import PIECES, _clip
from tests.agents.test_play import always

STRATEGY = "monolith_strategy_v0"


@pytest.fixture(scope="module")
def seed3_game():
    """The tester's game: seat 0 answers 1 everywhere against ``heuristic``, seed 3 (85 decisions)."""
    out: list[str] = []
    res = main([STRATEGY, "--set", "num_players=2", "--opponents", "heuristic", "--seed", "3"],
               input_fn=always("1"), output_fn=out.append)
    return res, "\n".join(out)


def test_toll_prompt_says_what_paying_and_declining_do(seed3_game):
    _, text = seed3_game
    flat = " ".join(text.split())
    assert ("P0, toll stone on space 5: pay 1 gem to move on (1 VP "
            "still to gain, this space included), or decline and stop on space 4 (the rest of this gain is lost) "
            "choose the action: 1) decline (pay nothing) 2) pay with a gem card P0 declines to pay") in flat
    assert "more gem of" not in text and "more gems of" not in text and " or declines" not in text


def test_resolution_after_a_decision_is_tagged_with_its_card_line(seed3_game):
    _, text = seed3_game
    # declining the toll gains nothing itself: the gems come from the Gem Rune resolving after it; the line
    # whose gain reaches P1's toll stone is said before P1's payment, the VP it gains after it
    assert ("\nP0 declines to pay the toll stone on space 5 (stays on space 4)\n"
            "  then SR2 Gem Rune (each here: +1 gem per die here): P0: gems 0 -> 2\n"
            "  then F3.7 Fate of Even Ground (each here: +1 VP per die here if all the dice\n"
            "      here are even):\n"
            "      P1: toll stone on space 10 (pay 2 gems to go on)\n"
            "P1 pays 2 gems for the toll stone on space 10\n"
            "  P1: gems 2 -> 0\n"
            "  then F3.7 Fate of Even Ground (each here: +1 VP per die here if all the dice\n"
            "      here are even):\n"
            "      P1: VP 9 -> 11\n"
            "  then F3.7 Fate of Even Ground (highest: draw 1 Skill card):\n"
            "      P1: hand 2 + 3 cast -> 3 + 3 cast\n"
            "P1 discards Reroll\n"
            "  P1: hand 3 + 3 cast -> 2 + 3 cast\n"
            "  then SR6 Glory Rune (each here: +1 VP per die here): P1: VP 11 -> 13\n") in text
    # an Immediate action card's effect is tagged too, and so are the Exalted side's start lines
    assert "P1 casts Tribute\n  then Tribute (caster: +1 VP): P1: VP 0 -> 1" in text
    assert ("P1 chooses the Exalted side of the Round card\n  dice: P0 rolls [2 4 6]; P1 rolls [2 2 3]\n"
            "  then Exalted Dawn (everyone: draw 1 Skill card):\n"
            "      P0: hand 1 -> 2; P1: hand 0 -> 1\n") in text  # the Chance roll, then the Exalted start (D21)


def test_the_result_is_said_once(seed3_game):
    res, text = seed3_game
    assert res is not None and res.decisions == 85 and res.winners == [1]
    # who won and why, in one narration line with the seats named (it said "P1 wins; VP 4 17", then
    # "after Final Scoring: VP P0 4, P1 17"); terminal play's "why:" repeats it next to the result
    assert text.count("\n  game over after round 5: P1 wins; after Final Scoring: VP P0 4, P1 17\n") == 1
    assert "VP 4 17" not in text and text.count("after Final Scoring") == 2
    assert text.splitlines()[-2] == "why: after Final Scoring: VP P0 4, P1 17"
    assert text.splitlines()[-1] == "game over after 85 decisions: you lose (returns: P0 -1, P1 +1)"


def test_long_card_names_wrap_in_their_cell(seed3_game):
    _, text = seed3_game
    # " 3 F3.7 Fate of Even Ground" is wider than a cell (26 columns): its name goes on in the next line
    assert " 3 F3.7 Fate of Even Groun " not in text and not any(x.endswith("Groun") for x in text.splitlines())
    assert "| 3 F3.7 Fate of Even\n  00:A. 01:A. 02:A.       |  04:1. 05:2. 06:3. 07:A. |    Ground" in text
    assert max(len(x) for x in text.splitlines() if "> " not in x) <= WIDTH
    assert _clip("x" * 30, 26) == "x" * 23 + "..." and _clip("short", 26) == "short"


def test_notes_are_the_boards_card_lines():
    env = monolith_envs.make(STRATEGY, wrapped=False, num_players=2)
    env.reset(seed=3)
    notes = PIECES.notes(env.game, env.game_state, 0)
    assert notes[:3] == ["what the cards do:", " 1 SR1: highest alone: take the Primus Token; each here: +1 VP",
                         " 2 SR2: each here: +1 gem per die here"]
    assert "\n".join(wrap(x, WIDTH, "      ") for x in notes) in PIECES.board(env.game, env.game_state, 0)


def test_a_hidden_private_rune_is_not_named_when_its_line_is_tagged():
    from monolith_envs.strategy.narration import _source

    env = monolith_envs.make(STRATEGY, wrapped=False, num_players=2)
    env.reset(seed=3)
    s = env.game_state
    card = env.game.rules.content.board[s.board[3]]  # F3.7 Fate of Even Ground
    key = (("b", card.index, "effect", 0), (1, 0))  # as if it were P1's first private Rune
    s.priv[1].append({"card": card.index, "revealed": False, "occ": [0, 0, 0, 0]})
    assert _source(env.game, key, s) == "P1's private Rune"
    s.priv[1][0]["revealed"] = True
    assert _source(env.game, key, s) == "F3.7 Fate of Even Ground (each here: +1 VP per die here if all the dice here are even)"
    assert _source(env.game, (("b", card.index, "effect", 1), 3), s) == "F3.7 Fate of Even Ground (highest: draw 1 Skill card)"


def test_a_cost_prompt_says_what_paying_and_declining_do():
    import numpy as np

    from monolith_envs.strategy.state import Kind

    game = monolith_envs.make_game(STRATEGY, num_players=2)
    rng = np.random.default_rng(5)
    state = game.initial_state(rng)
    for _ in range(49):  # random play of seed 5 reaches a card line with a gem cost at decision 49
        game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))), rng)
    assert state.pending["k"] == Kind.PAY_OFFER and state.pending["purpose"] == "cost"
    # P0 has 2 VP: the +3 VP would reach the toll stone on space 5, itself a payment (the text once let 2 gems be paid for
    # +4 VP that the next toll then stopped, with no word of it before)
    assert PIECES.decision(game, state) == ("P0 may pay 1 gem for 'each here: may pay 1 gem for +3 VP': pay to get "
                                            "it, or decline and it is skipped; the +3 VP from space 2 reach the toll "
                                            "stone on space 5 (1 gem), paid after this cost or the gain stops there")
    state.vp[0] = 6  # from space 6 the gain reaches no stone
    assert PIECES.decision(game, state).endswith("pay to get it, or decline and it is skipped")


def test_a_reveal_that_stops_at_a_toll_by_itself_says_why():
    """Final Scoring: a toll stone the gems not earmarked cannot pay is declined without a question (docs
    §4.18, §4.20 a); the narration says, under the reveal's line, where the gain stopped and why (it said
    only 'reveals 3 gem(s)', later 'the gain stops on space 14 (0 of 6 VP)' with no source)."""
    import re

    import numpy as np

    import monolith_envs
    from agents.terminal import pieces_for

    pieces = pieces_for("monolith_strategy_v0")
    game = monolith_envs.make("monolith_strategy_v0", wrapped=False, num_players=2).game
    rng = np.random.default_rng(2)
    s = game.initial_state(rng)
    said = []
    while not game.is_terminal(s):
        a = int(rng.choice(np.flatnonzero(game.legal_mask(s))))
        before, seat = game.clone(s), (s.pending or {}).get("seat", 0)
        game.apply(s, a, rng)
        text = " ".join(" ".join(pieces.narrate(game, before, s, a, seat)).split())
        said += [(seat, before, s.vp[seat], m) for m in re.finditer(
            r"then P(\d)'s reveal of (\d+) gems? for (\d+) VP: P\1: (?:VP (\d+) -> (\d+), .*?)?stopped by the toll "
            r"stone on space (\d+) after (\d+) of (\d+) VP \(it costs (\d+) gems?, more than P\1 can pay with gems "
            r"not earmarked for the reveal; P\1 keeps the earmarked gems and cards the reveal did not "
            r"use\)", text)]
    assert said
    for seat, before, vp, m in said:
        p, k, k2, vp0, vp1, stone, gained, target, cost = (int(x) if x else None for x in m.groups())
        assert p == seat and k == k2 == target and stone == vp + 1 and gained == vp - before.vp[seat] < target
        assert (vp0, vp1) == ((before.vp[seat], vp) if gained else (None, None))
        assert (stone, cost) in game.rules.content.tolls


def test_dice_an_effect_moves_are_narrated_and_a_placement_is_not_repeated(seed3_game):
    _, text = seed3_game
    # Rune of Hexes' exile: P1 chooses P0, whose 6 leaves the pool for the set-aside dice; the card is named, as
    # an action card's is (the dice it moves are said untagged)
    assert ("\nP1 chooses P0\n  for R36 Rune of Hexes (a chosen opponent: their highest pool die is set aside)\n"
            "  dice: P0 pool [6 6] -> [6], set aside 0 -> 1\n") in text
    lines = text.splitlines()
    placed = [i for i, line in enumerate(lines) if line.startswith("P0 places a ")]
    assert placed and not any(lines[i + 1].startswith("  dice: P0 ") for i in placed)  # the action, not a change


def test_the_final_reveal_says_the_toll_stones_its_largest_count_would_reach():
    """REVEAL_COUNT's "k gems for k VP" can be cut short by a toll stone paid only from what is not earmarked
    (docs §4.18): the revealing seat is told which stones lie within its largest count; the other seats,
    who do not know that count, are not."""
    import numpy as np

    from monolith_envs.strategy.state import Kind

    game = monolith_envs.make_game("monolith_strategy_v0", num_players=2)
    told = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        s = game.initial_state(rng)
        while not game.is_terminal(s):
            pd = s.pending
            if pd and pd["k"] == Kind.REVEAL_COUNT:
                p, v, kmax = pd["seat"], s.vp[pd["seat"]], pd["kmax"]
                stones = [sp for sp in sorted(game.rules.toll_at) if v < sp <= v + kmax]
                own, other = PIECES.decision(game, s, p), PIECES.decision(game, s, 1 - p)
                assert ("on the way" in own) == bool(stones) and "on the way" not in other
                for sp in stones:
                    assert f"space {sp} ({game.rules.toll_at[sp][1]} gem" in own
                told += bool(stones)
            game.apply(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))), rng)
    assert told >= 5
