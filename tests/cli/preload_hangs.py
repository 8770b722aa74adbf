"""A module for ``--preload``: registers ``toy_hangs_v0`` (tests/cli/hangs_game.py), whose ``apply`` never
returns once the centre is marked."""

import monolith_envs
from tests.cli.hangs_game import HANGS_ID, hangs_module

monolith_envs.register(HANGS_ID, hangs_module)
