"""The shortcuts of the speed work on the Arena engine give what the plain rules give.

* ``apply_main`` decodes MAIN actions through a table: it names the same rule and values as the action
  layout's arithmetic, for both hand sizes.
* ``Tables.fx_reach`` (the quick scope test of ``place_fx``) is exactly the union of the effects' scopes.
* ``feature_dests`` without the Monolith module skips ``can_relocate``: same destinations.
* The incremental effects share unchanged lists with the previous :class:`Fx` (copy on write): an ``Fx``
  the engine has built never changes afterwards, in seeded random games.
* ``legal_mask`` returns a fresh writable array over a copy of the cached mask bytes.
"""

import copy

import numpy as np
import pytest

from monolith_envs.arena import features, main_phase
from monolith_envs.arena.board import NB, NEIGHBOURS, NUM_HEXES
from monolith_envs.arena.effects import Fx, get_fx
from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.relocation import can_relocate
from monolith_envs.arena.state import INSTANCES_PER_SEAT as PER_SEAT
from monolith_envs.arena.state import Sub
from monolith_envs.arena.tables import Scope
from tests.arena.configs import pick

CONFIGS = pick("duel", "ffa4", "teams", "module", "reinforcement", "module_ffa4_reinf")
_FX_SLOTS = tuple(name for name in Fx.__slots__ if name != "memo")  # (memo is filled on demand by design)


def _random_states(g, games: int, seed: int):
    """Every state (before each decision) of ``games`` seeded random games, as the live state object."""
    rng = np.random.default_rng(seed)
    for k in range(games):
        s = g.initial_state(np.random.default_rng(seed + k))
        while not g.is_terminal(s):
            yield s
            g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))))


@pytest.mark.parametrize("reinf", [False, True])
def test_main_decode_table_matches_the_layout(reinf):
    g = ArenaGame({"reinforcement_variant": reinf}).rules
    o, H = g.off, g.H
    table = main_phase._decode_main(g)
    assert len(table) == o.n
    for a in range(o.n):
        rule, args = table[a]
        if o.DISCARD <= a < o.DISCARD + H:
            want = (main_phase.discard, (a - o.DISCARD,))
        elif o.PLACE <= a < o.ORDER:
            k, r = divmod(a - o.PLACE, o.PLACE_SLOT)
            want = (main_phase.place_tile, (k, r // 6, r % 6))
        elif o.ORDER <= a < o.ORDER + H:
            want = (main_phase.play_order, (a - o.ORDER,))
        elif o.FEATURE <= a < o.UNFOLD:
            want = (main_phase.use_feature, divmod(a - o.FEATURE, NUM_HEXES))
        elif a == o.UNFOLD:
            want = (main_phase.start_unfold, ())
        elif a == o.END:
            want = (main_phase.end_turn, ())
        else:
            want = (main_phase._nothing, ())
        assert (rule, tuple(args)) == (want[0], tuple(want[1])), a


def test_fx_reach_is_the_union_of_the_scopes():
    tb = ArenaGame().tables
    for t in range(tb.T):
        for f in range(6):
            for h in range(NUM_HEXES):
                want = set()
                for effect in tb.fx_effects[t]:
                    scope = effect[4]
                    if scope == Scope.BOUNDLESS:
                        want |= set(range(NUM_HEXES))
                    elif scope == Scope.ADJACENT:
                        want |= {x for x in NB[h] if x >= 0}
                    else:
                        want |= set(tb.conn_hexes[t][f][h])
                got = {x for x in range(NUM_HEXES) if (tb.fx_reach[t][f][h] >> x) & 1}
                assert got == want, (t, f, h)
        assert tb.fx_codes[t] == {effect[0] for effect in tb.fx_effects[t]}


def test_feature_dests_without_the_module_match_can_relocate():
    game = ArenaGame()
    g = game.rules
    checked = 0
    for s in _random_states(game, 6, 40):
        if s.sub_phase != Sub.MAIN:
            continue
        fx = get_fx(g, s)
        for h in fx.occ:
            if s.board[h] % PER_SEAT == 0:
                continue
            for teleport in (False, True):
                want = ([x for x in range(NUM_HEXES) if can_relocate(g, s, fx, h, x)] if teleport
                        else [h] + [x for x in NEIGHBOURS[h] if can_relocate(g, s, fx, h, x)])
                assert features.feature_dests(g, s, fx, h, teleport) == want
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_built_fx_never_changes(name):
    game = ArenaGame(CONFIGS[name])
    seen = []  # (fx, a deep copy of its values when first seen)
    for s in _random_states(game, 4, 70):
        fx = s.fx_cache
        if fx is not None and not any(fx is old for old, _ in seen[-50:]):
            seen.append((fx, {k: copy.deepcopy(getattr(fx, k)) for k in _FX_SLOTS}))
    assert len(seen) > 20
    for fx, values in seen:
        for k in _FX_SLOTS:
            assert getattr(fx, k) == values[k], k


def test_legal_mask_is_a_fresh_writable_copy():
    game = ArenaGame()
    s = game.initial_state(np.random.default_rng(3))
    first = game.legal_mask(s)
    assert first.dtype == np.bool_ and first.shape == (game.layout.n,) and first.flags.writeable
    keep = first.copy()
    first[:] = ~first
    second = game.legal_mask(s)
    assert np.array_equal(second, keep) and second is not first

