"""Monolith Arena (``monolith_arena_v0``): rules engine, action layout and observation.

The game (docs/monolith_arena.md):
    game:           :class:`ArenaGame`, the :class:`~monolith_envs.core.game.Game` implementation.
    config:         configuration keys (§1).
    content, content_parse, content_schema: the faction TOML files and their validation.
    tables:         per-type tables of the content; the kind, effect-code, scope and relation enums.
    board:          hex geometry (§2.1).
    state:          the plain-data match state (§2.5); the sub-phase, location, pending-effect, trigger enums.
    actions:        the flat action layout (§6.1).
    observe:        the observation vector (§7); ``_fastobs`` its optional compiled builder.
    render:         text and picture renders.
    narration:      what one action did (Battles: hits, kills, removals, HP), in words (80 columns).
    positions, positions_text: hand-built positions (helpers, and the text format ``parse_position``).
The rules, each module a part of §3-§4 (functions ``f(g, s, ...)`` of the rules context ``g`` and the state):
    context:        :class:`~monolith_envs.arena.context.RulesContext` and small shared helpers.
    setup_game:     setup (§3): decks, Monolith picks, Banners.
    turns:          turn flow (§4.1).
    main_phase:     the MAIN and DISCARD decisions.
    order_steps, orders: placement and Orders (§4.2-§4.4, §4.8, §5.3) and their options.
    features, relocation: Features (§4.4) and tiles entering, moving on and leaving the board (§4.5).
    effects, effects_update: continuous effects (§4.6) and their incremental updates.
    battle:         Battles (§4.7).
    endgame:        HP, eliminations, end of game and returns (§4.9, §8).
    monolith:       the Monolith module (§4.10).
    table:          one table from sub-phase to (mask, apply) (§6.2).
    invariants:     the invariants (§9).
"""

from __future__ import annotations

__all__ = ["ArenaGame", "parse_position", "position_to_text", "format_position"]


def __getattr__(name):  # lazy, so importing the package stays cheap
    if name == "ArenaGame":
        from .game import ArenaGame

        return ArenaGame
    if name in ("parse_position", "position_to_text", "format_position"):
        from . import positions_text

        return getattr(positions_text, name)
    raise AttributeError(name)
