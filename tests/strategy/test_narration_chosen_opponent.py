"""An opponent chosen for an action card's line is told what the line does to them (docs §4.13): Jinx's dice
change is said in the ``dice:`` line, which named no card, so the choice line names it."""

from __future__ import annotations

import pytest

from monolith_envs.strategy.narration import narrate

from .helpers import CAST, act, place, position
from .test_golden import G7


def _choose_p0(card: str, guard: bool) -> list[str]:
    g, s, _ = position(G7.replace("sabotage", card).replace("pool P0 4", "pool P0 4 6 2"))
    if guard:
        act(g, s, CAST + 2)  # P0's Guard
    act(g, s, place(4, 7))
    act(g, s, next(a for a in g.legal_list(s) if g.describe_action(s, a) == f"casts {card.title()}"))
    seat, before = g.current_player(s), g.clone(s)
    a = next(a for a in g.legal_list(s) if g.describe_action(s, a) == "chooses P0")
    act(g, s, a)
    return narrate(g, before, s, a, seat)


@pytest.mark.parametrize("guard, then", [
    (False, "  dice: P0 pool [2 6] -> [1 2]"),
    (True, "  P0's Guard charge stops it (Guard 1 -> 0)"),
])
def test_jinx_on_a_chosen_opponent_says_what_it_does(guard, then):
    assert _choose_p0("jinx", guard) == [
        "P1 chooses P0", "  for Jinx (a chosen opponent: their highest pool die turns to 1)", then]


def test_a_card_whose_changes_name_it_is_not_said_twice():
    assert _choose_p0("sabotage", False) == ["P1 chooses P0",
                                             "  then Sabotage (a chosen opponent: -2 VP): P0: VP 6 -> 4"]
    assert _choose_p0("sabotage", True) == ["P1 chooses P0", "  for Sabotage (a chosen opponent: -2 VP)",
                                            "  P0's Guard charge stops it (Guard 1 -> 0)"]
