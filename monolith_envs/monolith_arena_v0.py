"""``monolith_arena_v0``: Monolith Arena with the Monolith module (spec ``monolith_arena.md``)."""

from monolith_envs.arena.game import ArenaGame as Game
from monolith_envs.core.aec import make_env_fns

env, raw_env = make_env_fns("monolith_arena_v0", Game)
