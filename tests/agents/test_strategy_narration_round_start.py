"""Strategy's narration of a round's start follows the rules' order (docs §4.17 steps 4-5, §4.4, §4.5 D21):
the die each seat takes from the Source, the round beginning, the Chance roll (every seat's roll, also one
that shows the faces the seat had), then the Exalted start; an Exalted Offering's dice are said as rolled,
then which die went onto the card."""

from __future__ import annotations

import re

import pytest

from monolith_envs import make_game
from monolith_envs.strategy.narration import narrate
from tests.agents.random_steps import random_game_steps


def _round_starts(n: int, games: int, exalted: bool = True):
    """``(before, after, lines)`` of every step of seeded random games in which a round's dice were rolled."""
    g = make_game("monolith_strategy_v0", num_players=n, exalted=exalted)
    for before, s, a, p in random_game_steps(g, range(games)):
        lines = narrate(g, before, s, a, p)
        if any(x.startswith("  dice: ") for x in lines) and (s.round != before.round or before.round == 1
                                                                and any("Exalted side" in x for x in lines[:1])):
            yield before, s, lines


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_source_die_round_line_roll_then_the_exalted_start(n):
    starts = offerings = 0
    for before, after, lines in _round_starts(n, 12 if n > 1 else 40):
        text = [x.split("\n")[0] for x in lines]
        roll = next(i for i, x in enumerate(text) if x.startswith("  dice: "))
        exalted = [i for i, x in enumerate(text) if x.startswith("  then Exalted ") and "at resolution" not in x]
        assert all(i > roll for i in exalted), lines  # the Chance roll comes first (D21)
        starts += bool(exalted)
        took = [p for p in range(n) if after.src_dice[p] < before.src_dice[p]]
        begins = [i for i, x in enumerate(text) if re.match(r"  round \d begins", x)]
        if after.round != before.round:
            assert begins and begins[0] < roll
            if took:  # Advancement step 4, said before the round begins
                assert text[begins[0] - 1] == f"  {', '.join(f'P{p}' for p in took)}: a die from the Source into the pool"
            else:
                assert not any("from the Source into the pool" in x for x in text)
        joined = " ".join(" ".join(lines).split())  # wrapped lines joined
        rolls = dict(re.findall(r"P(\d) rolls \[([^\]]*)\]", joined))
        assert sorted(rolls) == [str(p) for p in range(n) if sum(after.pool[p]) + sum(  # every seat with dice
            1 for sid in range(52) if after.sock_seat[sid] == p) > 0], lines
        for p, face in re.findall(r"P(\d): a (\d) goes onto it", joined):
            offerings += 1
            assert int(face) == min(int(f) for f in rolls[p].split()), lines  # the lowest die of the roll
            assert sum(after.pool[int(p)]) == len(rolls[p].split()) - 1  # it left the pool
    assert starts >= 2 and offerings >= (1 if n == 1 else 2)


@pytest.mark.parametrize("n", [2, 4])
def test_without_exalted_sides_every_seat_still_says_its_roll(n):
    """With ``exalted = false`` a new round begins in the step of the last card's resolution (no side
    choice): its roll is said for every seat with dice all the same."""
    rounds = 0
    for _before, after, lines in _round_starts(n, 6, exalted=False):
        joined = " ".join(" ".join(lines).split())
        rolls = dict(re.findall(r"P(\d) rolls \[([^\]]*)\]", joined))
        assert sorted(rolls) == [str(p) for p in range(n) if sum(after.pool[p])], lines
        rounds += 1
    assert rounds >= 10
