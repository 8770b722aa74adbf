"""Named Monolith Arena configurations shared by the test modules (each name means one config everywhere)."""

ARENA_CONFIGS = {
    "duel": {},
    "ffa3": {"num_players": 3, "mode": "ffa"},
    "ffa4": {"num_players": 4, "mode": "ffa"},
    "teams": {"num_players": 4, "mode": "teams"},
    "module": {"monolith_module": True},
    "reinforcement": {"reinforcement_variant": True},
    "module_reinf": {"monolith_module": True, "reinforcement_variant": True},
    "module_ffa3": {"monolith_module": True, "num_players": 3, "mode": "ffa"},
    "module_teams": {"monolith_module": True, "num_players": 4, "mode": "teams"},
    "module_ffa3_reinf": {"monolith_module": True, "num_players": 3, "mode": "ffa", "reinforcement_variant": True},
    "module_ffa4_reinf": {"monolith_module": True, "num_players": 4, "mode": "ffa", "reinforcement_variant": True},
    "rank_ffa4": {"num_players": 4, "mode": "ffa", "reward_mode": "rank"},
    "score_module": {"monolith_module": True, "reward_mode": "score"},
}


def pick(*names: str) -> dict:
    """``{name: config}`` for the given names of :data:`ARENA_CONFIGS`, in that order."""
    return {n: ARENA_CONFIGS[n] for n in names}
