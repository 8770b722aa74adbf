"""``monolith_strategy_v0``: Monolith: The Strategy Game, 1-4 players (docs/monolith_strategy.md)."""

from monolith_envs.core.aec import make_env_fns
from monolith_envs.strategy.game import StrategyGame as Game

env, raw_env = make_env_fns("monolith_strategy_v0", Game)
