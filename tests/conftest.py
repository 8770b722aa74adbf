import monolith_envs
from tests.dice_toy import ENV_ID as PIG_ID
from tests.dice_toy import PigGame
from tests.toy_game import ENV_ID, ToyGame, module_for

_TOY = module_for(ToyGame)
monolith_envs.register(ENV_ID, lambda: _TOY)
_PIG = module_for(PigGame, PIG_ID)  # a one-seat game by default (num_players=1)
monolith_envs.register(PIG_ID, lambda: _PIG)
