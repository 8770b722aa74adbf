"""Terminal play takes an option by its name without the number or card code that leads its label
(``carrion`` for ``O09 Carrion Feast``, ``briar b`` for ``9 Briar Barrow``, ``horror`` for ``slot 3: Horror``)."""

from __future__ import annotations

import monolith_envs
from agents.terminal import StagedEntry, pieces_for


def _entry():
    env = monolith_envs.make("the_monolith_v0", wrapped=False, num_players=3)
    env.reset(seed=0)
    mask = env._current_mask()
    return StagedEntry(env.game, env.game_state, mask, pieces_for("the_monolith_v0"), 0, lambda _p: "", print)


def test_a_name_chooses_past_its_leading_code_or_number():
    entry = _entry()
    opts = [(0, "O09 Carrion Feast (+2 favour per kill)"), (1, "O10 Cinder Pact"), (2, "F3.1 Fate of Fortune"),
            (3, "9 Briar Barrow"), (4, "slot 3: Horror"), (5, "14 Cinder Barrow")]
    assert entry._match_value("carrion", opts, []) == [0]
    assert entry._match_value("o09", opts, []) == [0]  # the code itself still names it
    assert entry._match_value("fate of", opts, []) == [2]
    assert entry._match_value("briar b", opts, []) == [3]
    assert entry._match_value("horror", opts, []) == [4]
    assert entry._match_value("cinder", opts, []) == [1, 5]  # two names start so: ambiguous, none taken
    assert entry._match_value("feast", opts, []) == []  # a word inside the name is not a prefix
