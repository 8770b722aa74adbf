"""Arena's behaviour is unchanged: the digest of 20 seeded games per named config (states, masks,
observations, returns at every decision; see :mod:`tests.arena.digest`) equals the stored one. A rule change
regenerates the file on purpose with ``python -m tests.arena.digest --write`` and says so in its commit."""

import pytest

from tests.arena.configs import ARENA_CONFIGS
from tests.arena.digest import config_digest, stored


def test_every_named_config_has_a_stored_digest():
    assert sorted(stored()) == sorted(ARENA_CONFIGS)


@pytest.mark.parametrize("name", list(ARENA_CONFIGS))
def test_digest_unchanged(name):
    assert config_digest(ARENA_CONFIGS[name]) == stored()[name], (
        f"Arena behaviour changed in config {name!r}; if on purpose: python -m tests.arena.digest --write")
