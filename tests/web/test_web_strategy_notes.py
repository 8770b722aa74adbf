"""Browser play shows the game's notes on the position next to the board: for the Strategy Game the
"what the cards do" lines of terminal play (the same function, :meth:`StrategyPieces.notes`)."""

from __future__ import annotations

import monolith_envs
from agents.terminal import pieces_for
from tests.web.helpers import Served

STRATEGY = "monolith_strategy_v0"


def test_strategy_state_and_page_carry_what_the_cards_do(tmp_path):
    served = Served(STRATEGY, {"num_players": 2}, 3, tmp_path)
    try:
        status, st = served.request("GET", "/api/state")
        assert status == 200
        assert st["notes"][:4] == ["what the cards do:",
                                   " 1 SR1: highest alone: take the Primus Token; each here: +1 VP",
                                   " 2 SR2: each here: +1 gem per die here",
                                   " 3 F3.7: each here: +1 VP per die here if all the dice here are even; highest: draw 1 Skill card"]
        assert " 7 R16: at once: you: place 1 more die" in st["notes"]
        # the terminal's lines, unwrapped, as the person's seat sees the position
        env = monolith_envs.make(STRATEGY, wrapped=False, num_players=2)
        game = env.game
        web = served.web
        assert st["notes"] == pieces_for(STRATEGY).notes(game, web.raw.game_state, 0)
        status, page = served.request("GET", "/")
        assert status == 200
        assert '<div class="panel" id="notes-panel" hidden><div id="notes"' in page
        assert '$("notes").textContent = (st.notes || []).join("\\n");' in page
    finally:
        served.close()


def test_a_game_without_notes_sends_an_empty_list(tmp_path):
    served = Served("monolith_arena_v0", {}, 2, tmp_path)
    try:
        status, st = served.request("GET", "/api/state")
        assert status == 200 and st["notes"] == []
    finally:
        served.close()
