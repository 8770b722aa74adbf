"""The Monolith's narration, more of it (terminal and browser play): a march reads as one
order in stages and says when it ends by itself; the steps after a chance draw (the tower lift that
leaves every heart in the tower, a reshuffle of the divination deck) are narrated one by one like the
others; the objective draws of two scriptoriums are told apart."""

from __future__ import annotations

import re

import pytest

from agents.terminal import WIDTH, pieces_for
from monolith_envs.the_monolith.narration import _trace
from monolith_envs.the_monolith.state import Phase
from tests.agents.test_monolith_narration_auction import _steps

MONOLITH = "the_monolith_v0"
PIECES = pieces_for(MONOLITH)


def _narrations(seed: int, n: int = 3, **cfg) -> list[list[str]]:
    return [lines for *_, lines in _steps(seed, n, **cfg)]


def test_a_march_reads_as_one_order_in_stages_not_as_two_marches():
    # the report: "P0 marches from 6 Briar Hold" then "P0 marches with 1 warrior" read as two marches; they
    # are the march's first two choices (docs §4.4: MARCH_SOURCE, then MARCH_GROUP)
    said = _narrations(0)
    assert [lines[0] for lines in said[35:41]] == [
        "P2 orders march", "P2 starts a march from 16 Dusk Hold", "P2 picks all 3 warriors there to march",
        "P2 marches to 17 Dusk Temple", "P2 keeps 2 warriors in the marching group", "P2 stops marching"]
    assert said[176] == ["P1 picks 1 warrior of 2 there to march"]


def test_a_march_or_a_shaman_that_cannot_go_on_says_that_it_stops():
    # P1's march has no heart left for a step: the rules stop it (its only choice), which was not said
    said = _narrations(0)
    assert said[88] == ["P1 keeps 2 warriors in the marching group",
                        "  P1's march ends: no heart or free step left to pay a step",
                        "  P0 wins D03 Barrow Chant (row slot 2) for its bid of 3 hearts"]
    assert said[34] == ["P1 moves the shaman to 12 Cinder Temple", "  P1's shaman stops: no steps left"]


_STAGE = r"(orders march|starts a march from |picks .* to march|marches to |keeps .* in the marching group|uses )"


@pytest.mark.parametrize("seed,n", [(0, 2), (1, 3), (2, 4)])
def test_every_march_ends_with_a_stop_before_the_seat_does_anything_else(seed, n):
    marching = None
    marches = 0
    for lines in _narrations(seed, n):
        head = lines[0]
        assert not re.match(r"P\d marches (from|with) ", head), head
        if marching is not None:
            if head == f"P{marching} stops marching":
                marching = None
                continue
            assert re.match(rf"P{marching} {_STAGE}", head), (seed, n, head)
        elif re.match(r"P\d orders march$", head):
            marching = int(head[1])
            marches += 1
        if any(x.startswith(f"  P{marching}'s march ends: ") for x in lines):
            marching = None
    assert marches >= 2, (seed, n, marches)  # the games do march: the checks above ran


def test_a_lift_that_keeps_every_heart_in_the_tower_scores_the_rest_phase_step_by_step():
    # tower_retention 0.9, day 1: every heart sticks, so there is no action phase; the rest phase's steps
    # were said at once ("  P2: favour 2 -> 4" with no heading) and the event drawn was not said at all
    g, b, s, _a, _seat, lines = next(st for st in _steps(0, 3, tower_retention=0.9)
                                     if st[1].phase == Phase.ORDER and st[2].phase == Phase.REST)
    assert s.tower_stuck == [6, 12, 2] and all(sum(x) == 0 for x in s.board)
    assert lines == ["P0 orders commit", "  every seat has committed", "  the tower lifts",
                     "  P0: no heart lands; 6 stuck in the tower", "  P1: no heart lands; 12 stuck in the tower",
                     "  P2: no heart lands; 2 stuck in the tower",
                     "  no seat has hearts on the board: there is no action phase today",
                     "  the rest phase scores", "  divinations and shamans that score at rest",
                     "  P2: favour 2 -> 4 (D05 Hearth Ward +2)",
                     "  P1 (least favour, tied with P0: the later in turn order draws) draws the event\n"
                     "      E08 Cave-In to place"]
    assert s.event_focus == b.event_deck[0] and g.events[b.event_deck[0]].key == "E08"


def test_the_steps_after_a_reshuffle_are_narrated_one_by_one():
    # day 7 of 8 with 5 row cards: the rest phase deals 5 divinations from a deck of 3, so the discard is
    # reshuffled; the event drawn next was said to be discarded and its effect was not said
    g, b, s, _a, _seat, lines = next(st for st in _steps(0, 4, num_days=8, div_row_size=5)
                                     if st[5][0] == "P3 reveals objective O07 Sprawl")
    assert len(b.div_deck) < g.row_size and b.div_discard and s.day == 8
    assert lines == ["P3 reveals objective O07 Sprawl", "  P3: favour 20 -> 27 (objective O07 Sprawl +7)",
                     "  temples score",
                     "  P0: favour 25 -> 27 (1 temple controlled, +2 each)",
                     "  P3: favour 27 -> 31 (2 temples controlled, +2 each)",
                     "  the event E04 Blood Moon is drawn",
                     "  the event E04 Blood Moon takes effect: 2 warriors from reserves to anger",
                     "  P0: reserves 2 -> 0, anger 0 -> 2", "  P1: reserves 10 -> 8, anger 6 -> 8",
                     "  P2: reserves 12 -> 10, anger 3 -> 5", "  P3: reserves 1 -> 0, anger 6 -> 7",
                     "  day 8 begins; first player P2"]


def test_two_objective_draws_for_two_scriptoriums_are_told_apart():
    said = _narrations(1)
    assert said[114][-2:] == ["  P1 draws an objective (draw 1 of 2: it controls 2 scriptoriums)",
                              "  P1 draws an objective (draw 2 of 2: it controls 2 scriptoriums)"]


@pytest.mark.parametrize("cfg", [{"tower_retention": 0.9}, {"tower_retention": 0.4, "tower_weights": [1, 0, 3]},
                                 {"num_days": 8, "div_row_size": 5}])
def test_chance_steps_are_replayed_so_no_step_is_lumped(cfg):
    """The tower lift and the reshuffles are replayed with the draws the game made (worked out from the
    state it reached): no step is said coarsely, and every line fits the terminal."""
    for seed, n in ((0, 2), (1, 3), (2, 4)):
        for g, b, s, a, _seat, lines in _steps(seed, n, **cfg):
            steps = _trace(g, b, s, a)
            assert steps is not None and not any(st[4] for st in steps), (cfg, seed, n, lines)
            assert all(len(x) <= WIDTH for line in lines for x in line.split("\n")), lines


def test_an_event_drawn_with_a_scoring_effect_says_what_it_will_score():
    # seed 4: E11 Pilgrimage was said as "is drawn" and nothing more until rest scoring paid its favour
    drawn = [x for lines in _narrations(4, 4) for x in lines if "the event E11 Pilgrimage is drawn" in x]
    assert drawn == ["  the event E11 Pilgrimage is drawn; it scores at the next rest scoring, each\n"
                     "      seat: +2 favour per temple you control; then it is discarded"]
