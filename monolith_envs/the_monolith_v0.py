"""``the_monolith_v0``: The Monolith for 2-4 players (docs/the_monolith.md)."""

from monolith_envs.core.aec import make_env_fns
from monolith_envs.the_monolith.game import MonolithGame as Game

env, raw_env = make_env_fns("the_monolith_v0", Game)
