"""``resample_hidden`` while another seat is paying or revealing gems (docs §4.11, §4.18, §7): the redrawn
hand of that seat still covers what it owes, a card it earmarked stays in its hand, and every legal action of
the copy applies with the §9 invariants kept (a copy could hold an earmark of a card no longer in the hand,
or a reveal count above the redrawn gem value, which drove the gems below zero), and the copy is a world in
which the open decision is asked (an offer the seat could not pay in full, or REVEAL_SRC without a gem card,
is never asked, §4.20)."""

from __future__ import annotations

import numpy as np
import pytest

import monolith_envs
from agents.terminal.strategy import PIECES
from monolith_envs.strategy import invariants
from monolith_envs.strategy.hidden import _earmarked
from monolith_envs.strategy.state import Kind

OWES = (Kind.PAY_OFFER, Kind.PAY_MORE, Kind.REVEAL_COUNT, Kind.REVEAL_SRC)


def _paying_states(n: int, seeds: range):
    """Every state of seeded random games of ``n`` seats (Player Powers dealt) whose open decision is a
    payment offered or under way, or a step of the final gem reveal."""
    for seed in seeds:
        game = monolith_envs.make_game("monolith_strategy_v0", num_players=n, player_powers=True)
        rng = np.random.default_rng(seed)
        s = game.initial_state(rng)
        while not game.is_terminal(s):
            if s.pending is not None and s.pending["k"] in OWES:
                yield game, game.clone(s), seed
            game.apply(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))), rng)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_legal_action_of_a_resampled_copy_applies_while_another_seat_pays(n):
    kinds, checked = set(), 0
    for game, s, seed in _paying_states(n, range(16)):
        payer = s.pending["seat"]
        kinds.add(Kind(s.pending["k"]))
        for viewer in (v for v in range(n) if v != payer):
            r = game.resample_hidden(s, viewer, np.random.default_rng([seed, s.decisions, viewer]))
            assert _earmarked(r, payer, game.rules.K) == _earmarked(s, payer, game.rules.K)
            legal = np.flatnonzero(game.legal_mask(r))
            assert len(legal) > 0
            for a in legal:
                after = game.clone(r)
                game.apply(after, int(a), np.random.default_rng(0))
                invariants.check(game, after)
                checked += 1
    assert {Kind.REVEAL_COUNT, Kind.REVEAL_SRC} <= kinds and checked > 100, (kinds, checked)


def test_another_seats_largest_reveal_count_is_not_shown():
    """REVEAL_COUNT's largest count is min(6, gem value), and the gem value counts hand cards hidden from
    the other seats: the board says it to the revealing seat only."""
    game, s, _ = next((g, s, seed) for g, s, seed in _paying_states(3, range(20))
                      if s.pending["k"] == Kind.REVEAL_COUNT)
    p, kmax = s.pending["seat"], s.pending["kmax"]
    other = (p + 1) % 3
    assert f"P{p} chooses how many gems to reveal (up to {kmax}), 1 VP each, at Final Scoring" in PIECES.board(
        game, s, p)
    assert f"P{p} chooses how many gems to reveal, 1 VP each, at Final Scoring" in PIECES.board(game, s, other)
    assert "up to" not in PIECES.decision(game, s, other)


@pytest.mark.parametrize("n", [2, 3])
def test_a_resampled_copy_is_a_world_where_the_open_payment_is_asked(n):
    """An offer is opened only to a seat that can pay it in full, and REVEAL_SRC only to a seat holding a gem
    card (§4.20): the redrawn hand of that seat keeps both facts (copies declined-only offers came out of
    121 of 124 offers that needed the seat's cards)."""
    seen = {Kind.PAY_OFFER: 0, Kind.REVEAL_SRC: 0}
    for game, s, seed in _paying_states(n, range(24)):
        pd, R = s.pending, game.rules
        if pd["k"] not in seen:
            continue
        payer = pd["seat"]
        needs_cards = s.gems[payer] < pd["rem"] or pd["k"] == Kind.REVEAL_SRC
        for viewer in (v for v in range(n) if v != payer):
            r = game.resample_hidden(s, viewer, np.random.default_rng([seed, s.decisions, viewer]))
            assert R.spend_value(r, payer) >= r.pending["rem"]
            if pd["k"] == Kind.PAY_OFFER:
                names = {game.layout.decode(int(a)).split("(")[0] for a in np.flatnonzero(game.legal_mask(r))}
                assert names - {"decline"}, names  # a way to pay, as in the state itself
            else:
                assert any(r.hand[payer][k] for k in R.gem_kinds)
            seen[Kind(pd["k"])] += needs_cards
    assert min(seen.values()) >= 5, seen
