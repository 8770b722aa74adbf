"""Player Powers in words (docs §4.1, §4.8): when every die is placed the queued Player Powers fire, each runs
its lines with its owner as actor and then leaves the game, and only then do the cards resolve.  The texts
say so: the resolution's first line, Overcharge's question and options, its answer with the old face, each
Player Power leaving the game, no dice line for the dice coming back, and a queued card's clean sentence."""

from __future__ import annotations

import numpy as np

from agents.play import main
from agents.terminal import pieces_for
from monolith_envs.strategy.narration import RESOLVE_LINE, RESOLVE_PP_LINE
from tests.agents.random_steps import random_steps
from tests.agents.test_play import scripted

STRATEGY = "monolith_strategy_v0"
PIECES = pieces_for(STRATEGY)
#: the seeded 2-player game with Player Powers: P1 casts Windfall, P0 casts Overcharge and sets its 2 to 6
SEED12 = ["2", "1", "die showing 4", "socket 16", "2", "Overcharge", "1", "die showing 3", "socket 06", "1", "",
          "socket 05", "1"]


def _seed12() -> list[str]:
    out: list[str] = []
    main([STRATEGY, "--set", "num_players=2", "--set", "player_powers=true", "--seed", "12"],
         input_fn=scripted(SEED12), output_fn=out.append)
    return "\n".join(out).splitlines()


def test_the_resolution_line_says_the_player_powers_fire_first():
    assert RESOLVE_LINE == "  every die is placed: the cards resolve"
    assert RESOLVE_PP_LINE == "  every die is placed: the Player Powers fire, then the cards resolve"
    lines = _seed12()
    n = lines.index("P0 places a 2 in socket 05 at position 2, SR2 Gem Rune")
    assert lines[n + 1:n + 4] == [
        RESOLVE_PP_LINE,
        "  then Windfall (caster: +3 gems):",
        "      P1: gems 0 -> 3, Windfall leaves the game (hand 0 + 2 cast -> 0 + 1 cast)"]


def test_overcharge_asks_with_its_card_and_each_option_says_the_new_face():
    lines = _seed12()
    n = lines.index("Overcharge (P0's Player Power): P0 chooses a socketed die to set to 6")
    assert lines[n + 3:n + 6] == [
        "   1) socket 05 at position 2, SR2 Gem Rune: needs 2, holds P0's 2 -> 6",
        "   2) socket 06 at position 2, SR2 Gem Rune: needs 3, holds P0's 3 -> 6",
        "   3) socket 16 at position 5, SR5 Power Rune: needs 4, holds P0's 4 -> 6"]


def test_overcharge_answer_says_the_old_face_the_card_leaving_and_no_dice_line():
    lines = _seed12()
    n = lines.index("P0 sets its die in socket 05 from 2 to 6")
    assert lines[n + 1:n + 4] == [
        "  then Overcharge (caster: set a socketed die to 6):",
        "      P0: Overcharge leaves the game (hand 1 + 1 cast -> 1 + 0 cast)",
        "  then SR1 Primus Rune (each here: +1 VP): P1: VP 0 -> 1"]
    # every seat's dice came back from the sockets, the Overcharged 6 too: no one-sided "dice:" line
    rest = lines[n:lines.index("P1 chooses the Exalted side of the Round card")]
    assert not any(x.startswith("  dice:") for x in rest)


def test_a_queued_player_power_reads_as_one_sentence():
    lines = _seed12()
    assert "  Windfall is queued: it fires before the cards resolve (P1: +3 gems)" in lines
    n = lines.index("P0 casts Overcharge")
    assert lines[n + 1:n + 3] == ["  Overcharge is queued: it fires before the cards resolve (P0: set a socketed",
                                  "      die to 6)"]


def test_usurper_firing_and_overcharge_question_in_a_four_player_game():
    env, before, a, seat = random_steps(STRATEGY, 1, 28, num_players=4, exalted=True, player_powers=True)
    g, s = env.game, env.game_state
    assert PIECES.narrate(g, before, s, a, seat)[1:] == [
        RESOLVE_PP_LINE,
        "  then Usurper (caster: take the Primus Token and lock it (no one else takes it\n      this round)):",
        "      P0: takes the Primus and locks it (no one else takes it this round),\n"
        "          Usurper leaves the game (hand 1 + 1 cast -> 1 + 0 cast)"]
    assert PIECES.decision(g, s) == "Overcharge (P1's Player Power): P1 chooses a socketed die to set to 6"
    acts = [int(x) for x in np.flatnonzero(env.observe(env.agent_selection)["action_mask"])]
    assert [PIECES.option(g, s, "choose_socket", "sid", g.layout.split(x)[1][0]) for x in acts] == [
        "socket 12 at position 4, SR4 Skill Rune: needs any, holds P1's 5 -> 6",
        "socket 42 at position 11, R9 Rune of Lore: needs any, holds P1's 3 -> 6"]
    assert [g.describe_action(s, x) for x in acts] == ["sets its die in socket 12 from 5 to 6",
                                                       "sets its die in socket 42 from 3 to 6"]


def test_the_status_line_at_overchargess_question_says_the_new_face():
    from monolith_envs.strategy.render import status_line

    env, _before, _a, _seat = random_steps(STRATEGY, 1, 28, num_players=4, exalted=True, player_powers=True)
    s = env.game_state
    assert s.pending["mode"] == "set" and s.pending["face"] == 6
    assert " · P1 chooses a socketed die to set to 6 · " in status_line(env.game, s)


def test_usurper_cast_by_the_holder_says_the_primus_is_kept_locked():
    """docs §4.8: Usurper takes the Primus Token and locks it; cast by the seat that holds it already, only the
    lock changes, which the seat's line now says (it said nothing)."""
    from monolith_envs.strategy.narration import _changes

    seat = (0, 0, (1, 1), 0, None, 1, 0)  # VP, gems, (hand, cast), private Runes, chase, Primus held, Guard
    locked = (0, 0, (1, 0), 0, None, 2, 0)
    assert _changes([seat], [locked], 0, leaves="Usurper") == [
        "keeps the Primus, locked (no one else takes it this round)",
        "Usurper leaves the game (hand 1 + 1 cast -> 1 + 0 cast)"]
    assert _changes([(0, 0, (1, 1), 0, None, 0, 0)], [locked], 0) == [
        "hand 1 + 1 cast -> 1 + 0 cast", "takes the Primus and locks it (no one else takes it this round)"]
