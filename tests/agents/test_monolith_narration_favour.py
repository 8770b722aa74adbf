"""The Monolith's texts in terminal and browser play: the occupancy check in plain
English, where the favour of a slay or a revealed objective came from, the maneuvered unit and a sacrifice
by name, decision lines that ask instead of repeating the result; an action typed by its code name that is
not legal now says why in the game's words (what the game asks now), in terminal and browser play."""

from __future__ import annotations

import tempfile

import numpy as np
import pytest

import monolith_envs
from agents import make_agent
from agents.play import main
from agents.terminal import WIDTH, Pieces, not_legal_text, pieces_for, reason_words
from agents.web.session import WebError, WebGame
from monolith_envs.arena.state import Sub as ArenaSub
from monolith_envs.the_monolith.state import Sub
from tests.agents.test_monolith_narration_auction import _steps

MONOLITH = "the_monolith_v0"
PIECES = pieces_for(MONOLITH)


def _said(seed: int, n: int, step: int) -> list[str]:
    """The narration of decision ``step`` of the random game ``seed`` of ``n`` seats (``_steps``)."""
    for i, (*_, lines) in enumerate(_steps(seed, n)):
        if i == step:
            return lines
    raise AssertionError("the game ended first")


# ---------------------------------------------------------------- the occupancy check (docs §4.6)
def test_four_boast_hearts_lost_on_the_monolith_read_plainly():
    # it read: "P2: living warriors on the map 6 -> 5, 4 boast hearts on 0 The Monolith spent (no unit of
    # its there)"; here P1 slays P0's last unit on the Monolith, where P0 had 4 boast hearts
    g = monolith_envs.make_game(MONOLITH, num_players=4)
    rng, pick = np.random.default_rng(0), np.random.default_rng([0, 7])
    s = g.initial_state(rng)
    while s.decisions < 27:
        g.apply(s, int(pick.choice(g.legal_actions(s))), rng)
    assert s.sub == Sub.ACTION_CHOOSE and s.current == 1 and s.living[0][0] == 1 and 70 in g.legal_actions(s)
    before = g.clone(s)
    before.boast[0][0] = 4
    after = g.clone(before)
    g.apply(after, 70, np.random.default_rng(0))
    assert PIECES.narrate(g, before, after, 70, 1) == [
        "P1 slays a unit of P0 in 0 The Monolith", "  P0: living warriors on the map 11 -> 10",
        "  P0's 4 boast hearts on The Monolith (space 0) are spent: it has no unit there",
        "  P1: favour 0 -> 1 (a warrior slain +1), hearts on the board: slay 4, maneuver\n      3, boast 4"]


def test_hearts_lost_when_a_unit_moves_away_read_plainly():
    assert _said(5, 2, 103) == ["P0 moves its shaman to 16 Dusk Hold",
                                "  P0's 2 boast hearts on Dusk Temple (space 17) are spent: it has no unit there"]
    assert _said(4, 3, 221) == ["P0 moves its shaman to 7 Briar Temple",
                                "  P0's boast heart on Cinder Hollow (space 13) is spent: it has no unit there"]


# ---------------------------------------------------------------- where favour came from; units by name
def test_a_slay_says_where_its_favour_came_from():
    # docs §4.6: a slain warrior +1 favour, a slain shaman +3 (it read: "P1: favour 2 -> 5" alone)
    assert _said(1, 3, 55) == [
        "P0 slays a unit of P1 in 13 Cinder Hollow",
        "  P0: favour 0 -> 1 (a warrior slain +1), hearts on the board: slay 0, maneuver\n      0, boast 2",
        "  P1: living warriors on the map 4 -> 3"]
    assert _said(4, 3, 204) == [
        "P2 slays a unit of P1 in 16 Dusk Hold", "  P1: its shaman is slain",
        "  P2: favour 2 -> 5 (a shaman slain +3), hearts on the board: slay 3, maneuver\n      11, boast 2"]


def test_a_sacrifice_and_a_maneuvered_shaman_are_said_by_name():
    # it read: "P0 sacrifices a warrior in 1 Ashen Hold (a boast heart)"; "P0 maneuvers its shaman from 1
    # Ashen Hold" then "P0 moves the unit to 3 Ashen Hollow"
    assert _said(0, 3, 20)[0] == "P2 sacrifices a warrior in 16 Dusk Hold to its anger, paying a slay heart"
    assert _said(0, 3, 23) == ["P0 moves its shaman to 13 Cinder Hollow"]


# ---------------------------------------------------------------- decision lines that ask
def test_decision_lines_ask_instead_of_repeating_the_result():
    # it read: "P0 discards an objective (face down)" right before "P0 discards an objective face down"
    g = monolith_envs.make_game(MONOLITH, num_players=4)
    s = g.initial_state(np.random.default_rng(4))
    while s.sub != Sub.OBJ_DISCARD or s.current != 0:
        g.apply(s, int(g.legal_actions(s)[0]), np.random.default_rng(4))
    assert PIECES.board(g, s, 0).splitlines()[-1] == "P0 chooses an objective to discard (face down)"
    s.sub = Sub.RECRUIT_HEARTS
    assert PIECES.asking(g, s) == "P0 chooses how many hearts to pay for warriors"
    s.sub = Sub.MARCH_GROUP
    assert [PIECES.option(g, s, "number", "v", v) for v in (1, 2)] == ["1 warrior marches", "2 warriors march"]
    s.sub = Sub.MARCH_REGROUP
    assert PIECES.option(g, s, "number", "v", 1) == "1 warrior in the marching group"


# ---------------------------------------------------------------- an action typed by its code name
def _typed(env_id: str, opponents: int, answers: list[str]) -> str:
    """Terminal play of ``env_id`` at seed 7 against heuristics, the person typing ``answers``."""
    out: list[str] = []
    it = iter(answers + ["quit"])
    main([env_id, "--seed", "7", "--opponents", ",".join(["heuristic"] * opponents)],
         input_fn=lambda _prompt: next(it), output_fn=out.append)
    return "\n".join(out)


@pytest.mark.parametrize("env_id, opponents, typed, said", [
    ("monolith_arena_v0", 1, "END_TURN",  # was: not legal in SETUP_BANNER: the decision now (seat 0) is to ...
     "END_TURN is not legal now: P0: choose an empty hex for your Banner"),
    ("monolith_strategy_v0", 2, "END_TURN",  # was: not legal in SIDE of player_0
     "end_turn is not legal now: P0 (Primus) chooses the side of Round card 1, which\n    covers position 9"),
    (MONOLITH, 3, "relent",  # was: not legal in OBJ_DISCARD: the decision now is discard one objective ...
     "relent is not legal now: P0 chooses an objective to discard (face down)"),
])
def test_an_action_typed_by_code_that_is_not_legal_says_what_the_game_asks(env_id, opponents, typed, said):
    text = _typed(env_id, opponents, [typed])
    told = [line for line in text.splitlines() if "legal" in line]
    assert said in text and len(told) == 1 and "not legal in" not in told[0] and "player_0" not in told[0]
    assert all(len(line) <= WIDTH for line in text.splitlines())


@pytest.mark.parametrize("env_id, name, said", [
    ("monolith_arena_v0", "END_TURN",
     "END_TURN is not legal now: P0: choose an empty hex for your Banner"),
    ("monolith_strategy_v0", "end_turn",
     "end_turn is not legal now: P0 (Primus) chooses the side of Round card 1, which covers position 9"),
    (MONOLITH, "relent", "relent is not legal now: P0 chooses an objective to discard (face down)"),
])
def test_the_browser_says_the_same_for_an_action_that_is_not_legal(env_id, name, said):
    env = monolith_envs.make(env_id, wrapped=False)
    agents = [None if s == 0 else make_agent("random", env_id) for s in range(env.game.num_players)]
    with tempfile.TemporaryDirectory() as logs:
        web = WebGame(env, agents, 0, 7, pieces_for(env_id), log_dir=logs)
        a = next(f.offset for f in env.game.layout.families if f.name == name)
        with pytest.raises(WebError) as exc:
            web.play(web.game_id, a)
    assert exc.value.status == 422 and str(exc.value) == said


def test_arena_says_only_the_kinds_of_move_legal_now():
    """Arena's main phase: the engine's sentence lists every kind of move the phase can have (unfold the
    Monolith without the module too); the message lists those legal now."""
    env = monolith_envs.make("monolith_arena_v0", wrapped=False)
    env.reset(seed=3)
    arena = pieces_for("monolith_arena_v0")
    while env.game_state.sub_phase != ArenaSub.MAIN:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    g, s = env.game, env.game_state
    mask = env.observe(env.agent_selection)["action_mask"]
    exc = env._explain_illegal(0, np.asarray(mask))
    said = not_legal_text(g, s, arena, 0, getattr(exc, "why", None) or str(exc))
    kinds = {g.layout.split(int(a))[0] for a in np.flatnonzero(mask)}
    assert said.startswith(f"PICK_TYPE(local=0) is not legal now: P{s.acting_seat}'s turn: ")
    assert ("place a tile" in said) == ("PLACE" in kinds) and "end the turn" in said
    assert "unfold the Monolith" not in said  # no module in this game


def test_reason_words_keeps_a_specific_reason_and_names_seats_as_the_games_do():
    g = monolith_envs.make_game(MONOLITH)
    s = g.initial_state(np.random.default_rng(0))
    strategy = pieces_for("monolith_strategy_v0")
    assert reason_words(g, s, strategy, "not legal in TURN of player_0: player_0 has no die showing 3 in the "
                        "pool") == "P0 has no die showing 3 in the pool"
    assert reason_words(g, s, PIECES, "the game is over") == "the game is over"
    # a game whose pieces do not say the decision: the engine's sentence, without its code names
    assert reason_words(g, s, Pieces(), "not legal in SIDE of player_1") == "it does not answer the decision open now"
    assert reason_words(g, s, Pieces(), "not legal in OBJ_DISCARD: the decision now is discard one objective") == (
        "the decision now is discard one objective")
