"""The Monolith's narration as a new player reads it (terminal and browser play): cards won at
auction, powers used, the tower lift, a skipped action phase and the rest phase's scoring step by step
with the favour's sources, recruits, events, the march prompt's "or stop", the map's locked spaces."""

from __future__ import annotations

import re

import numpy as np
import pytest

import monolith_envs
from agents.terminal import WIDTH, QuitGame, StagedEntry, pieces_for
from monolith_envs.the_monolith.board import controllers
from monolith_envs.the_monolith.narration import _trace
from monolith_envs.the_monolith.state import Frame, Phase, Sub
from tests.agents.random_steps import random_steps

MONOLITH = "the_monolith_v0"
PIECES = pieces_for(MONOLITH)


def _steps(seed: int, n: int = 3, **cfg):
    """Every decision of a random game of ``n`` seats and config ``cfg`` (the engine's rng ``seed``, the
    choices ``[seed, 7]``): ``(game, before, after, action, seat, narration)``."""
    g = monolith_envs.make_game(MONOLITH, num_players=n, **cfg)
    rng, pick = np.random.default_rng(seed), np.random.default_rng([seed, 7])
    s = g.initial_state(rng)
    while not s.terminal:
        a = int(pick.choice(g.legal_actions(s)))
        before, seat = g.clone(s), s.current
        g.apply(s, a, rng)
        yield g, before, g.clone(s), a, seat, PIECES.narrate(g, before, s, a, seat)


def _find(seed: int, n: int, cond):
    for step in _steps(seed, n):
        if cond(*step):
            return step
    raise AssertionError(f"no such step in seed {seed} ({n} players)")


def _card(g, c: int) -> str:
    return f"{g.divs[c].key} {g.divs[c].name}"


def test_a_card_won_at_auction_is_announced_with_its_price_before_the_next_order():
    # seed 5: P2 bids 14 hearts on D12 Pyre Song and wins it at the start of its next turn (after P0's order)
    g, b, s, a, seat, lines = _find(5, 3, lambda g, b, s, a, seat, lines: len(s.held[2]) > len(b.held[2]))
    slot = next(i for i in range(g.R) if b.row[i] >= 0 and s.row[i] < 0)
    card, bid = b.row[slot], b.bids[slot][2]
    assert (_card(g, card), slot, bid) == ("D12 Pyre Song", 0, 14) and card in s.held[2]
    assert s.spent[2] == b.spent[2] + bid  # the winner pays its bid
    assert lines == ["P0 stops the shaman", "  P2 wins D12 Pyre Song (row slot 0) for its bid of 14 hearts"]


def test_every_card_that_changes_hands_at_auction_is_announced():
    for seed in (1, 5, 6):
        for g, b, s, _a, _seat, lines in _steps(seed):
            text = "\n".join(lines)
            for p in range(s.n):
                for c in set(s.held[p]) - set(b.held[p]):
                    slot = b.row.index(c)  # the bid may be made in this very step (the bidder's turn comes again)
                    price = re.search(rf"^  P{p} wins {_card(g, c)} \(row slot {slot}\) for its bid of (\d+) hearts?",
                                      text, re.M)
                    assert price and int(price.group(1)) >= max(1, b.bids[slot][p]), (seed, lines)


def test_a_used_card_says_its_effect_its_cost_and_what_changed():
    # seed 6: P0 wins D18 Hidden Cache for 3 hearts, then uses it on its next turn
    steps = list(_steps(6))
    i = next(k for k, st in enumerate(steps) if st[5][0] == "P0 uses D18 Hidden Cache: take 2 unearned hearts "
             "(the card is discarded)")
    g, b, s, _a, _seat, lines = steps[i]
    assert lines[1] == (f"  P0: hearts available {b.available[0]} -> {s.available[0]}, "
                        f"unearned {b.unearned[0]} -> {s.unearned[0]}")
    assert s.available[0] - b.available[0] == 2 == b.unearned[0] - s.unearned[0]
    won = [line for st in steps[:i] for line in st[5] if "wins D18 Hidden Cache" in line]
    assert won == ["  P0 wins D18 Hidden Cache (row slot 0) for its bid of 3 hearts"]
    # seed 2: D19 Fate Weaver says its free fate moves
    _g, _b, s, *_, lines = _find(2, 3, lambda g, b, s, a, seat, lines: " uses D19 " in lines[0])
    assert lines[0].endswith("uses D19 Fate Weaver: 3 free fate moves (the card is discarded)")
    assert s.free_fate == 3


def test_a_skipped_action_phase_is_said_before_the_rest_phase_scores():
    # seed 8, day 1: nobody has hearts to lift; the temples score in the rest phase, not in P0's commit
    g, b, s, _a, _seat, lines = _find(8, 3, lambda g, b, s, a, seat, lines: b.day == 1 and s.day == 2)
    assert lines[:6] == ["P0 orders commit", "  every seat has committed", "  the tower lifts",
                         "  no seat has hearts on the board: there is no action phase today",
                         "  the rest phase scores", "  temples score"]
    ctrl = controllers(g, b)
    for p in (0, 2):
        k = sum(1 for sp in g.active_spaces if g.building[sp] == "temple" and ctrl[sp] == p)
        assert k == 1 and f"  P{p}: favour {b.favour[p]} -> {b.favour[p] + 2} (1 temple controlled, +2 each)" in lines
    assert lines[-1] == "  day 2 begins; first player P0" and s.favour[0] == b.favour[0] + 2


def test_the_rest_phase_names_each_scoring_step_and_the_favour_sources():
    """Each rest step that gives favour has its heading, then one line per seat with the favour it gave and
    where from (computed here from the state before that step)."""
    seen = set()
    for seed in (1, 2, 3):
        for g, b, s, a, _seat, lines in _steps(seed):
            text = "\n".join(lines)
            for kind, _arg, s0, s1, _lumped in _trace(g, b, s, a):
                if s1.favour == s0.favour:
                    continue
                if kind == Frame.REST_BOASTS:
                    seen.add("boast")
                    assert "  boast hearts go home and score" in text
                    mono = controllers(g, s0)[g.mono]
                    for p in range(s0.n):
                        h = sum(s0.boast[sp][p] for sp in g.active_spaces)
                        if h:
                            orsk = g.shamans[s0.shaman_id[p]].name == "Orsk the Boastful"
                            per = 3 + (mono == p) + orsk
                            split = (": 3" + (" +1 for the Monolith" if mono == p else "")
                                     + (" +1 from a power" if orsk else "")) if per > 3 else ""
                            assert (f"P{p}: favour {s0.favour[p]} -> {s1.favour[p]} ({h} boast heart"
                                    f"{'s' if h > 1 else ''} going home, +{per} each{split})") in " ".join(
                                        text.split()), text  # wrapped lines joined
                if kind == Frame.REST_DIVS:
                    seen.add("divs")
                    assert "  divinations and shamans that score at rest" in text
                    for p in range(s0.n):
                        if s1.favour[p] != s0.favour[p]:
                            assert re.search(rf"^  P{p}: favour {s0.favour[p]} -> {s1.favour[p]} \((D\d\d |shaman )",
                                             text, re.M), text
                if kind == Frame.REST_END and s1.terminal:
                    seen.add("final")
                    assert "  final scoring: +1 favour per objective still held" in text
                    for p in range(s0.n):
                        k = len(s0.objectives[p])
                        if k:
                            assert (f"  P{p}: favour {s0.favour[p]} -> {s0.favour[p] + k} ({k} objective"
                                    f"{'s' if k > 1 else ''} still held, +1 each)") in text
    assert seen == {"boast", "divs", "final"}


def test_an_objective_reveal_pass_does_not_claim_earlier_reveals():
    g = monolith_envs.make_game(MONOLITH)
    _g, b, _s, a, seat, lines = _find(5, 3, lambda g, b, s, a, seat, lines: b.sub == Sub.OBJ_REVEAL and a == 0)
    assert lines[0] == f"P{seat} passes (its objectives stay hidden)"
    assert PIECES.family_option(g, b, "pass") == "keep your objectives hidden"


def test_a_recruit_says_how_many_are_left_and_no_warrior_count_per_warrior():
    for g, b, s, a, seat, lines in _steps(5):
        if b.sub == Sub.RECRUIT_PLACE and a != 0:
            after = _trace(g, b, s, a)[0][3]  # the state right after the placement itself
            more = f" ({after.rec_paid} more to place)" if after.sub == Sub.RECRUIT_PLACE and after.rec_paid else ""
            assert lines[0].startswith(f"P{seat} recruits a warrior on ") and lines[0].endswith(more), lines
            assert not any(x.startswith(f"  P{seat}: living warriors") for x in lines), lines
            if more:
                return
    pytest.fail("no recruit in seed 5")


def test_a_placed_event_is_named_and_its_reveal_says_what_it_does():
    g, b, s, _a, seat, lines = _find(5, 3, lambda g, b, s, a, seat, lines: b.sub == Sub.EVENT_PLACE)
    ev = g.events[b.event_focus]
    assert lines[0].startswith(f"P{seat} places the event {ev.key} {ev.name} on ")
    for seed in (1, 2):
        for *_, lines in _steps(seed):
            for line in lines:
                if " takes effect: " in line:
                    assert "_" not in line and "kill each" not in line, line


def test_march_prompt_offers_stop_only_when_it_is_legal():
    g = monolith_envs.make_game(MONOLITH, num_players=3)
    rng, pick = np.random.default_rng(5), np.random.default_rng(3)
    s = g.initial_state(rng)
    seen = set()
    while not s.terminal and len(seen) < 2:
        if s.sub == Sub.MARCH_STEP:
            last = PIECES.board(g, s, s.current).splitlines()[-1]
            legal = g.legal_actions(s)
            if s.march_steps == 0:
                assert 0 not in legal and last == f"P{s.current} moves the marching group (it may stop after its first step)"
                out = []
                entry = StagedEntry(g, s, g.legal_mask(s), PIECES, s.current, _answers(["quit"]), out.append)
                with pytest.raises(QuitGame):
                    entry.read()
                assert "stop marching" not in "\n".join(out)
                seen.add("first")
            elif 0 in legal and any(g.A_SPACE <= x < g.A_SPACE + g.N for x in legal):
                assert last == f"P{s.current} moves the marching group or stops"
                seen.add("later")
        g.apply(s, int(pick.choice(g.legal_actions(s))), rng)
    assert seen == {"first", "later"}


def _answers(answers):
    it = iter(answers)

    def inp(_prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return inp


def test_map_says_which_spaces_are_locked_in_this_player_count():
    for n, locked in ((3, "locked with 3 players, out of play: spaces 1-5"), (2, None), (4, None)):
        g = monolith_envs.make_game(MONOLITH, num_players=n)
        s = g.initial_state(np.random.default_rng(0))
        text = PIECES.map_text(g, s)
        off = [sp for sp in range(g.N) if not g.active[sp]]
        if locked:
            assert off == [1, 2, 3, 4, 5] and text.splitlines()[-1] == locked
        else:
            assert ("locked" in text) == bool(off)
        assert max(len(x) for x in text.splitlines()) <= WIDTH


@pytest.mark.parametrize("seed,n", [(1, 2), (6, 3), (2, 4)])
def test_narration_replays_every_step_and_fits_the_terminal(seed, n):
    """Every step is replayed rule step by rule step (no coarse fallback), and every line fits WIDTH."""
    phases = set()
    for g, b, s, a, _seat, lines in _steps(seed, n):
        assert _trace(g, b, s, a) is not None
        assert all(len(x) <= WIDTH for line in lines for x in line.split("\n")), lines
        if b.phase == Phase.ORDER and s.phase != Phase.ORDER:
            phases.add(s.phase)
            assert "  the tower lifts" in lines
    assert Phase.ACTION in phases


def test_a_boast_heart_lost_to_the_occupancy_check_is_said():
    # docs §4.6: P0 moves its last unit out of 8 Briar Hollow, so its boast heart there goes to spent; the rest
    # phase then scored one boast heart of the three P0 had placed, with nothing said in between
    env, before, a, seat = random_steps("the_monolith_v0", 3, 166, num_players=3)
    assert before.boast[8][0] == 1 and env.game_state.boast[8][0] == 0
    assert env.game_state.spent[0] == before.spent[0] + 1
    assert pieces_for("the_monolith_v0").narrate(env.game, before, env.game_state, a, seat) == [
        "P0 moves the warrior to 6 Briar Hold",
        "  P0's boast heart on Briar Hollow (space 8) is spent: it has no unit there"]
