"""The Monolith's events in words (terminal and browser play; docs §4.7 step 3, §5.5): the seat placing a
drawn event is told which event it is and what it does, the board lists it as being placed, the draw line
says the tie-break when favour ties, a wandering event to move is named with its space, and an event's
scoring reads as the rule does for its own space."""

from __future__ import annotations

import monolith_envs
from agents.terminal import pieces_for
from monolith_envs.the_monolith.rest import turn_order
from monolith_envs.the_monolith.state import Sub
from monolith_envs.the_monolith.words import effect_words, event_scoring_words
from tests.agents.test_monolith_narration_auction import _steps

MONOLITH = "the_monolith_v0"
PIECES = pieces_for(MONOLITH)


def _entering(seed: int, sub: Sub, k: int = 0):
    """The ``k``-th step of the random game ``seed`` (3 seats, ``_steps``) that opens decision ``sub``."""
    found = [st for st in _steps(seed, 3) if st[2].sub == sub and st[1].sub != sub]
    return found[k]


def _event(g, key: str):
    return next(c for c in g.events if c.key == key)


def test_event_scoring_reads_as_the_rule_for_the_events_own_space():
    g = monolith_envs.make_game(MONOLITH, num_players=3)
    words = {c.key: event_scoring_words(c) for c in g.events}
    assert words == {
        "E01": "at the next rest scoring, each seat: +5 favour if your living shaman is on this event's space; "
               "then it is discarded",
        "E02": "at every rest scoring, each seat: +3 favour if you control this event's space; then the first "
               "seat it paid moves it",
        "E03": "", "E04": "", "E05": "", "E06": "", "E08": "", "E12": "",
        "E07": "at the next rest scoring, each seat: +4 favour if you control this event's space; then it is "
               "discarded",
        "E09": "at the next rest scoring, each seat: +1 favour per kill of yours today; then it is discarded",
        "E10": "at the next rest scoring, each seat: +5 favour if you control the Monolith; then it is discarded",
        "E11": "at the next rest scoring, each seat: +2 favour per temple you control; then it is discarded"}
    for w in words.values():  # the old garbled wording: "with 1 or more space with an event you control"
        assert "or more" not in w and "with an event" not in w


def test_event_place_names_the_event_and_what_it_does_and_the_board_lists_it():
    # seed 1: P1 alone has the least favour (P0 1, P1 0, P2 4) and draws E07
    g, b, s, _a, _seat, lines = _entering(1, Sub.EVENT_PLACE)
    assert s.favour == [1, 0, 4] and g.events[s.event_focus].key == "E07" and s.events == []
    assert lines[-1] == "  P1 (least favour) draws the event E07 Relic Unearthed to place"
    assert PIECES.asking(g, s) == (
        "P1 places E07 Relic Unearthed (at the next rest scoring, each seat: +4 favour if you control this "
        "event's space; then it is discarded): choose a space")
    board = PIECES.board(g, s, 1).splitlines()
    assert board[-4:] == [
        "events: E07 Relic Unearthed (being placed); decks: divination 18, event 11,",
        "    objective 10",
        "P1 places E07 Relic Unearthed (at the next rest scoring, each seat: +4 favour if",
        "    you control this event's space; then it is discarded): choose a space"]


def test_a_tie_for_least_favour_says_the_tie_break():
    # seed 0: P0 and P1 both have 0 favour; the new first player is P0, so P1 is the later in turn order
    g, b, s, _a, _seat, lines = _entering(0, Sub.EVENT_PLACE)
    assert s.favour == [0, 0, 4] and turn_order(s) == [0, 1, 2] and s.current == 1
    assert lines[-1] == ("  P1 (least favour, tied with P0: the later in turn order draws) draws the event\n"
                         "      E08 Cave-In to place")
    assert PIECES.asking(g, s) == "P1 places E08 Cave-In (when placed: the space stops being a tunnel): choose a space"
    events_line = next(x for x in PIECES.board(g, s, 1).splitlines() if x.startswith("events: "))
    assert events_line == "events: E08 Cave-In (being placed); decks: divination 18, event 11, objective 12"


def test_an_instant_event_to_place_says_it_is_then_discarded():
    g, b, s, _a, _seat, lines = _entering(2, Sub.EVENT_PLACE, 1)
    assert lines[-1] == "  P0 (least favour) draws the event E06 Plague Fog to place"
    assert PIECES.asking(g, s) == ("P0 places E06 Plague Fog (when placed: 1 living warrior of each seat there "
                                     "dies; then it is discarded): choose a space")
    events_line = next(x for x in PIECES.board(g, s, 0).splitlines() if x.startswith("events: "))
    assert events_line == "events: E08 Cave-In on 18, E06 Plague Fog (being placed); decks: divination 12,"


def test_event_move_names_the_wandering_event_and_its_space():
    # seed 4: E02 Wandering Shade on 0 The Monolith paid P1, the first seat it paid, which moves it
    g, b, s, _a, _seat, _lines = _entering(4, Sub.EVENT_MOVE)
    ev, sp = s.events[s.event_focus]
    assert (g.events[ev].key, sp, s.current) == ("E02", 0, 1)
    assert PIECES.asking(g, s) == ("P1 moves the wandering event E02 Wandering Shade (+3 favour if you control "
                                     "this event's space) from 0 The Monolith: choose another space")
    events = next(x for x in PIECES.board(g, s, 1).splitlines() if x.startswith("events: "))
    assert events.startswith("events: E02 Wandering Shade on 0 (to move);")


def test_every_drawer_is_the_least_favour_seat_latest_in_turn_order_as_the_draw_line_says():
    for seed in range(4):
        for _g, _b, s, _a, _seat, lines in _steps(seed, 3):
            drawn = [x for x in lines if " draws the event " in x]
            if not drawn:
                continue
            tied = [p for p in turn_order(s) if s.favour[p] == min(s.favour)]
            assert s.sub == Sub.EVENT_PLACE and s.current == tied[-1]
            said = " ".join(drawn[0].split())
            if len(tied) == 1:
                assert said.startswith(f"P{s.current} (least favour) draws the event ")
            else:
                assert f"(least favour, tied with {' and '.join(f'P{p}' for p in tied[:-1])}: the " in said


def test_a_shaman_in_an_events_space_reads_as_its_own_space():
    g = monolith_envs.make_game(MONOLITH, num_players=3)
    assert effect_words(_event(g, "E01").scoring) == "+5 favour if your living shaman is on this event's space"
    assert effect_words(_event(g, "E07").scoring) == "+4 favour if you control this event's space"


def test_browser_play_asks_the_event_decisions_in_the_same_words():
    """The page's ask line (pieces.decision) says what each decision is for, in the words of the terminal's
    (pieces.asking): which event at EVENT_PLACE, and the order at ORDER_CHOOSE."""
    g, _b, s, *_ = _entering(1, Sub.EVENT_PLACE)
    assert PIECES.decision(g, s) == PIECES.asking(g, s) and "places E" in PIECES.decision(g, s)
    g2, _b2, s2, *_ = _entering(1, Sub.ORDER_CHOOSE)
    assert s2.sub == Sub.ORDER_CHOOSE and PIECES.decision(g2, s2) == f"P{s2.current} gives an order"
