"""the_monolith's behaviour is unchanged: the digest of seeded random games in 2p, 3p, 4p and 4p with the
draft (states, masks, every seat's observation, returns at every decision; see
:mod:`tests.the_monolith.digest`) equals the stored one. A rule change regenerates the file on purpose with
``python -m tests.the_monolith.digest --write`` and says so in its commit."""

import pytest

from tests.the_monolith.digest import CONFIGS, config_digest, stored


def test_every_config_has_a_stored_digest():
    assert sorted(stored()) == sorted(CONFIGS)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_digest_unchanged(name):
    assert config_digest(CONFIGS[name]) == stored()[name], (
        f"the_monolith behaviour changed in config {name!r}; if on purpose: "
        "python -m tests.the_monolith.digest --write")
