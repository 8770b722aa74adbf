import monolith_envs
from tests.toy_game import ENV_ID, ToyGame, module_for

_TOY = module_for(ToyGame)
monolith_envs.register(ENV_ID, lambda: _TOY)
