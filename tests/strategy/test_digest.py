"""Monolith Strategy's behaviour is unchanged: the digest of seeded random games per config (states, masks,
observations, returns at every decision, and the same through the AEC env; see :mod:`tests.strategy.digest`)
equals the stored one. A rule change regenerates the file on purpose with
``python -m tests.strategy.digest --write`` and says so in its commit."""

import pytest

from tests.strategy.digest import DIGEST_CONFIGS, config_digest, stored


def test_every_config_has_a_stored_digest():
    assert sorted(stored()) == sorted(DIGEST_CONFIGS)


@pytest.mark.parametrize("name", list(DIGEST_CONFIGS))
def test_digest_unchanged(name):
    assert config_digest(DIGEST_CONFIGS[name]) == stored()[name], (
        f"Strategy behaviour changed in config {name!r}; if on purpose: python -m tests.strategy.digest --write")
