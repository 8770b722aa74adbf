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


def test_a_number_past_the_list_that_names_an_option_says_its_place():
    entry, out = _entry(), []
    entry.output_fn = out.append
    opts = [(0, "socket 20 at position 6, SR6 Glory Rune: needs 5"),
            (1, "socket 33 at position 9, R29 Rune of Kin: needs any")]
    assert entry._match("33", opts, "socket", []) is None
    assert " ".join(out[-1].split()) == ("33 is not one of the options: choose 1-2; socket 33 at position 9, R29 "
                                         "Rune of Kin: needs any is option 2 (help lists the commands)")
    assert entry._match("7", opts, "socket", []) is None
    assert out[-1] == "7 is not one of the options: choose 1-2 (help lists the commands)"
    # a place whose number another option carries: said after the choice, with the words that name that one
    opts = [(0, "hex 00 (empty)"), (1, "hex 02 (empty)"), (2, "hex 01 (empty)")]
    assert entry._match("1", opts, "hex", []) == 0
    assert " ".join(out[-1].split()) == ("note: 1 chose option 1 (hex 00 (empty)); hex 01 (empty) is option 3 (a "
                                         "number chooses by its place in the list; type 'hex 01' to name it)")
