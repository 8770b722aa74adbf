"""A module for ``--preload``: registers ``toy_faulty_v0`` (tests/distributed/faulty.py), whose invariants fail
in 2 games of 9, so a fuzz run finds failures at once."""

import monolith_envs
from tests.distributed.faulty import FAULTY_ID, faulty_module

monolith_envs.register(FAULTY_ID, faulty_module)
