"""The effects the engine derives incrementally (``place_fx``, ``move_fx``, ``remove_fx``) and the effects
cache in general are exact: every time the engine reads a cached :class:`Fx` (through ``get_fx``), it
equals the plain reference computation on a cache-less clone of the state, in seeded random games of
several configurations.  The legal-mask pieces memoised on an ``Fx`` are checked against a fresh mask.
"""

import importlib
import pkgutil
from collections import Counter

import numpy as np
import pytest

import monolith_envs.arena as arena_pkg
from monolith_envs.arena import effects, effects_update
from monolith_envs.arena.game import ArenaGame
from monolith_envs.arena.state import Sub, fast_clone
from monolith_envs.arena.table import compute_mask
from tests.arena.configs import pick
from tests.arena.reference_observe import reference_fx

CONFIGS = pick("duel", "ffa3", "ffa4", "teams", "module", "reinforcement", "module_teams", "module_ffa4_reinf")
GAMES = 8

REF_FIELDS = ("netted", "disarmed", "marker", "inits", "melee_b", "ranged_b", "charge_b", "tough", "pierce",
              "venom", "maneuver", "rotate", "regen", "tele", "segowner", "segk", "armor")
OWN_FIELDS = ("occ", "owner", "typ", "fac", "init_b", "extra", "src")


def _patch_everywhere(monkeypatch, module, name, new) -> None:
    """Replace ``module.name`` in every Arena module that imported it (the rules call it by that name)."""
    orig = getattr(module, name)
    for info in pkgutil.iter_modules(arena_pkg.__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{arena_pkg.__name__}.{info.name}")
        if getattr(mod, name, None) is orig:
            monkeypatch.setattr(mod, name, new)


def _assert_exact(g, s, fx) -> None:
    fresh = fast_clone(s)
    ref = reference_fx(g, fresh)
    for k in REF_FIELDS:
        assert getattr(fx, k) == getattr(ref, k), f"cached effects differ from the reference in {k}"
    full = effects.compute_fx(g.rules, fresh)
    for k in OWN_FIELDS:
        assert getattr(fx, k) == getattr(full, k), f"cached effects differ from compute_fx in {k}"
    # touched: occupied hexes only, covering every hex compute_fx reports
    assert set(full.touched) <= set(fx.touched) <= set(fx.occ)
    tb = g.tables
    for h in set(fx.occ) - set(fx.touched):
        t = fx.typ[h]
        assert not fx.netted[h] and not fx.disarmed[h] and not fx.melee_b[h] and not fx.ranged_b[h]
        assert fx.inits[h] == tb.init[t] and fx.tough[h] == tb.tough[t]


@pytest.mark.parametrize("name", list(CONFIGS))
def test_cached_effects_are_exact_whenever_read(name, monkeypatch):
    g = ArenaGame(CONFIGS[name])
    used = Counter()
    plain_get_fx = effects.get_fx

    def checked_get_fx(ctx, s):
        fx = s.fx_cache
        if fx is not None:
            _assert_exact(g, s, fx)
            used["hit"] += 1
        return plain_get_fx(ctx, s)

    def counting(fn_name):
        fn = getattr(effects_update, fn_name)

        def wrapper(*args):
            out = fn(*args)
            used[fn_name, out is not None] += 1
            return out
        return wrapper

    for fn_name in ("place_fx", "move_fx", "remove_fx"):
        _patch_everywhere(monkeypatch, effects_update, fn_name, counting(fn_name))
    _patch_everywhere(monkeypatch, effects, "get_fx", checked_get_fx)
    for seed in range(GAMES):
        rng = np.random.default_rng(300 + seed)
        s = g.initial_state(rng)
        while not g.is_terminal(s) and s.decisions < 2500:
            mask = g.legal_mask(s)
            if s.sub_phase == int(Sub.MAIN):  # memoised mask pieces of a reused Fx
                assert np.array_equal(mask, compute_mask(g.rules, fast_clone(s)))
            g.apply(s, int(rng.choice(np.flatnonzero(mask))))
            fx = s.fx_cache
            if fx is not None and not s.terminal:
                _assert_exact(g, s, fx)
    assert used["hit"] > 200
    assert used["place_fx", True] > 20
    assert used["move_fx", True] + used["remove_fx", True] > 10


def test_every_incremental_path_is_exercised_in_the_duel(monkeypatch):
    """Placements, moves/rotations and removals (passive tiles and active sources) all take the derived
    path in ordinary play, so the test above checks each of them."""
    g = ArenaGame({})
    seen = Counter()
    plain_remove = effects_update.remove_fx

    def remove_fx(game, s, fx, h):
        out = plain_remove(game, s, fx, h)
        if out is not None:
            seen["remove_source" if h in fx.src else "remove_passive"] += 1
        return out

    plain_move = effects_update.move_fx

    def move_fx(game, s, fx, src, dest):
        out = plain_move(game, s, fx, src, dest)
        if out is not None:
            seen["rotate" if src == dest else "move"] += 1
        return out

    _patch_everywhere(monkeypatch, effects_update, "remove_fx", remove_fx)
    _patch_everywhere(monkeypatch, effects_update, "move_fx", move_fx)
    for seed in range(20):
        rng = np.random.default_rng(500 + seed)
        s = g.initial_state(rng)
        while not g.is_terminal(s) and s.decisions < 2500:
            g.apply(s, int(rng.choice(np.flatnonzero(g.legal_mask(s)))))
    for kind in ("remove_source", "remove_passive", "rotate", "move"):
        assert seen[kind] > 0, kind
