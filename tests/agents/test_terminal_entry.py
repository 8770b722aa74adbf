"""Terminal play: single-option stages wait for Enter, compass letters, The Monolith's map and connections,
Arena's hit narration (scripted input)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import monolith_envs
from agents.play import main
from agents.terminal import WIDTH, QuitGame, StagedEntry, pieces_for
from monolith_envs.the_monolith.board import neighbours, tunnels_now
from monolith_envs.the_monolith.state import Sub

ARENA, MONOLITH = "monolith_arena_v0", "the_monolith_v0"


def scripted(answers):
    """Answers the prompts in order, then raises EOFError (Ctrl-D); keeps the prompts."""
    it = iter(answers)
    prompts = []

    def inp(prompt):
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    inp.prompts = prompts
    return inp


def _arena_main():
    """An Arena duel at a main-phase decision of seat 0 with a tile to place; (env, slot, hex)."""
    env = monolith_envs.make(ARENA, wrapped=False)
    env.reset(seed=4)
    lay = env.game.layout
    rng = np.random.default_rng(1)
    while True:
        legal = [int(a) for a in env.legal_actions()]
        places = [lay.split(a)[1] for a in legal if lay.split(a)[0] == "PLACE"]
        if places and env.game_state.acting_seat == 0 and "END_TURN" in {lay.split(a)[0] for a in legal}:
            return env, places[0][0], places[0][1]
        env.step(int(rng.choice([a for a in legal if lay.split(a)[0] != "PLACE"] or legal)))


def _mask(env, actions):
    m = np.zeros(env.game.layout.n, np.int8)
    m[list(actions)] = 1
    return m


def _place_or_end():
    """(env, slot, hex, place, mask): an Arena decision whose mask holds one PLACE (facing 2) and END_TURN."""
    env, slot, h = _arena_main()
    lay = env.game.layout
    place = lay.index("PLACE", slot, h, 2)
    return env, slot, h, place, _mask(env, [place, lay.index("END_TURN")])


def test_single_option_stage_waits_for_enter_and_refuses_input_typed_ahead():
    env, slot, h, place, mask = _place_or_end()
    out = []
    inp = scripted(["place", f"hex {h:02d}", "", "3", "1", "4", "back", "", ""])
    a = StagedEntry(env.game, env.game_state, mask, pieces_for(ARENA), 0, inp, out.append).read()
    assert a == place
    assert [p.split("> ")[0] for p in inp.prompts] == ["P0 action"] + ["P0 tile"] * 2 + \
        ["P0 hex"] * 2 + ["P0 facing"] * 2 + ["P0 hex", "P0 facing"]
    text = "\n".join(out)
    tile = env.game.tables.name_of[env.game_state.itype[env.game_state.hand[0][slot]]]
    assert f"the only tile: slot {slot + 1}: {tile}; press Enter to take it (back undoes a stage)" in text
    assert (f"'hex {h:02d}' is not taken: the only tile here is slot {slot + 1}: {tile}; press Enter to take "
            "it, or type back or help") in " ".join(text.split())
    assert "'4' is not taken: the only facing here is SE" in " ".join(text.split())
    assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_a_whole_action_typed_at_a_single_option_stage_is_played():
    env, slot, h = _arena_main()
    lay = env.game.layout
    mask = _mask(env, [lay.index("PLACE", slot, h, 0), lay.index("END_TURN")])
    inp = scripted(["place", "END_TURN"])
    assert StagedEntry(env.game, env.game_state, mask, pieces_for(ARENA), 0, inp, lambda _t: None).read() == \
        lay.index("END_TURN")


@pytest.mark.parametrize("typed, rot", [("E", 1), ("nw", 5), ("NE", 0), (" se ", 2)])
def test_rotation_accepts_compass_letters(typed, rot):
    env, slot, h = _arena_main()
    lay = env.game.layout
    mask = _mask(env, [lay.index("PLACE", slot, h, r) for r in (0, 1, 2, 4, 5)] + [lay.index("END_TURN")])
    out = []
    inp = scripted(["place", "", "", "SW", typed])
    a = StagedEntry(env.game, env.game_state, mask, pieces_for(ARENA), 0, inp, out.append,
                    explain=lambda _a: "no such facing here").read()
    assert a == lay.index("PLACE", slot, h, rot)
    assert "SW is not a legal facing for this move: no such facing here" in " ".join("\n".join(out).split())


def _monolith_at(sub: Sub):
    env = monolith_envs.make(MONOLITH, wrapped=False)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(5000):
        if env.game_state.sub == sub:
            return env
        env.step(int(rng.choice(env.legal_actions())))
    raise AssertionError(f"no {sub.name} decision in 5000 random decisions")


def test_monolith_march_stage_shows_the_group_space_and_its_connections_and_map_lists_all():
    env = _monolith_at(Sub.MARCH_STEP)
    g, s = env.game, env.game_state
    out = []
    inp = scripted(["march on", "map", "quit"])
    with pytest.raises(QuitGame):
        StagedEntry(g, s, env._current_mask(), pieces_for(MONOLITH), s.current, inp, out.append).read()
    text = "\n".join(out)
    flat = " ".join(text.split())
    name = g.content.map.spaces
    near = neighbours(g, s, s.current, s.march_cur)
    assert (f"the group of {s.march_group} warrior{'' if s.march_group == 1 else 's'} is on {s.march_cur} {name[s.march_cur].name}, which "
            "connects to: " + ", ".join(f"{t} {name[t].name}" for t in near) + " (map shows every connection)") in flat
    tun = tunnels_now(g, s)
    for sp in g.active_spaces:
        line = f"{sp:2d} {name[sp].name}{' T' if tun[sp] else ''}: " + ", ".join(
            str(t) for t in neighbours(g, s, s.current, sp, tun))
        assert line in text
    assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_map_command_elsewhere_and_in_a_game_without_a_map():
    env = _monolith_at(Sub.ORDER_CHOOSE)
    out = []
    with pytest.raises(QuitGame):
        StagedEntry(env.game, env.game_state, env._current_mask(), pieces_for(MONOLITH), env.game_state.current,
                    scripted(["map", "quit"]), out.append).read()
    assert any(t.startswith("map: each space and the spaces it connects to now") for t in out)
    env, _slot, _h = _arena_main()
    out = []
    with pytest.raises(QuitGame):
        StagedEntry(env.game, env.game_state, env._current_mask(), pieces_for(ARENA), 0,
                    scripted(["map", "quit"]), out.append).read()
    assert "this game has no map to show" in out


def test_arena_battle_narration_names_the_tile_that_hits_and_the_one_hit():
    out = []
    res = main([ARENA, "--opponents", "random", "--seed", "4"], input_fn=lambda _p: "1", output_fn=out.append)
    assert res is not None and res.decisions == 106
    text = "\n".join(out)
    last_battle = text[text.rindex("P1 strikes hex 00 (P0 Banner) with the Assassin on hex 13"):]
    assert last_battle.splitlines()[:12] == [
        "P1 strikes hex 00 (P0 Banner) with the Assassin on hex 13",
        "  Battle:",
        "    initiative 3:",  # each initiative phase with its hits, then its step's removals (docs §4.7)
        "      P1 Hunter (hex 01) hits P0 Banner on hex 00 for 1",
        "      P1 Assassin (hex 13) hits P0 Banner on hex 00 for 1",
        "    initiative 0:",
        "      P1 Hunter (hex 01) hits P0 Banner on hex 00 for 1",
        "      P0 Banner (hex 00) hits P1 Hunter on hex 01 for 1",
        "      P0 Banner (hex 00) hits P1 Morlock on hex 03 for 1",
        "      P1 Hunter is removed from hex 01",
        "      P1 Morlock is removed from hex 03",
        "    P0 HP 19 -> 16 (-3)",
    ]
    hits = [line for line in text.splitlines() if " hits " in line]
    assert len(hits) == 6
    pattern = re.compile(r" {4,6}(P[01] [A-Z][\w /'-]+ \(hex \d\d\)|poison|the order) hits "
                         r"(P[01] [A-Z][\w /'-]+ on hex \d\d|the empty hex \d\d) for \d+(, absorbed by a Regeneration rune)?")
    assert all(pattern.fullmatch(line) for line in hits), hits


def test_monolith_space_is_chosen_by_its_name_without_its_number():
    """The space list reads "9 Briar Barrow"; a typed number is the place in the list, so the name alone (a
    prefix, without the leading number) must choose it, and an ambiguous one is refused."""
    env = _monolith_at(Sub.MARCH_STEP)
    g, s = env.game, env.game_state
    name = g.content.map.spaces
    mask = env._current_mask()
    near = neighbours(g, s, s.current, s.march_cur)
    target = near[-1]
    typed = name[target].name.lower()
    out = []
    inp = scripted([typed])
    a = StagedEntry(g, s, mask, pieces_for(MONOLITH), s.current, inp, out.append).read()
    assert g.layout.split(a)[1][-1] == target
    first_word = name[near[0]].name.split()[0]
    shared = [t for t in near if name[t].name.split()[0] == first_word]
    if len(shared) > 1:
        out = []
        with pytest.raises(QuitGame):
            StagedEntry(g, s, mask, pieces_for(MONOLITH), s.current, scripted([first_word, "quit"]),
                        out.append).read()
        assert f"{first_word!r} matches {len(shared)} options; type more of the name or its number" in out


def test_arena_tile_is_chosen_by_its_name_without_its_slot():
    """The tile list reads "slot 3: Horror"; the tile's name alone (a prefix) chooses it, as the help says."""
    env = monolith_envs.make(ARENA, wrapped=False)
    env.reset(seed=4)
    lay, tb = env.game.layout, env.game.tables
    rng = np.random.default_rng(1)
    for _ in range(2000):
        s = env.game_state
        legal = [int(a) for a in env.legal_actions()]
        slots = [lay.split(a)[1][0] for a in legal if lay.split(a)[0] == "DISCARD"]
        names = {k: tb.name_of[s.itype[s.hand[s.acting_seat][k]]] for k in slots}
        if len(set(names.values())) == len(names) >= 2:
            break
        env.step(int(rng.choice(legal)))
    else:
        raise AssertionError("no discard of two differently named tiles in 2000 random decisions")
    slot, name = slots[-1], names[slots[-1]]
    mask = _mask(env, legal)
    out = []
    inp = scripted(["discard", name.lower()])
    a = StagedEntry(env.game, s, mask, pieces_for(ARENA), s.acting_seat, inp, out.append).read()
    assert a == lay.index("DISCARD", slot), "\n".join(out)


def test_help_fits_the_terminal_width():
    from agents.terminal import HELP_INTRO, Pieces, help_text

    assert Pieces.help_intro == HELP_INTRO
    for env_id in (ARENA, "monolith_strategy_v0", MONOLITH):
        assert max(len(line) for line in help_text(pieces_for(env_id)).splitlines()) <= WIDTH


@pytest.mark.parametrize("env_id, own, others", [
    (ARENA, ("not a hex number", "horror chooses slot 3: Horror", "END_TURN", "slot=0 is the hand's slot 1"),
     ("Briar", "carrion", "socket", "nudge", "The Monolith", "map ", "end_turn", "relent")),
    ("monolith_strategy_v0", ("not a socket number", "socket 17 chooses socket 17", "nudge chooses Nudge", "end_turn"),
     ("Briar", "carrion", "horror", "hex", "The Monolith", "map ", "END_TURN", "relent")),
    (MONOLITH, ("not a space number", "briar b chooses 9 Briar Barrow", "carrion chooses O09", "map ", "relent"),
     ("horror", "socket", "nudge", "hex", "END_TURN", "end_turn")),
])
def test_help_gives_examples_of_its_own_game_only(env_id, own, others):
    """``help`` shows how a move is entered, the commands and the action names with the game's own examples
    (Strategy's showed The Monolith's spaces, Arena's slots and an END_TURN it does not have; The Monolith's
    showed END_TURN), and every full action name it gives plays."""
    import re

    env = monolith_envs.make(env_id, wrapped=False)
    env.reset(seed=1)
    out = []
    inp = scripted(["help", "quit"])
    with pytest.raises(QuitGame):
        StagedEntry(env.game, env.game_state, env.game.legal_mask(env.game_state), pieces_for(env_id), 0, inp,
                    out.append).read()
    shown = "\n".join(out)
    text = " ".join(shown[shown.index("Enter a move in stages"):].split())
    assert all(x in text for x in own), text
    assert not any(x in text for x in others), text
    names = re.search(r"§6\), e\.g\. (.*?)\.( |$)", text).group(1)
    layout_names = {env.game.layout.decode(a).replace(" ", "") for a in range(env.game.layout.n)}
    for name in re.split(r", (?=[A-Za-z_]+(?:\(|,|$))", names):
        assert name.replace(" ", "") in layout_names, name


def test_a_number_that_is_also_another_options_own_number_is_noted():
    """Typing 14 at the hex stage takes option 14; when that is not hex 14 but hex 14 is listed, a note says
    so (and where hex 14 is), before the next stage."""
    env, slot, _h = _arena_main()
    lay, s = env.game.layout, env.game_state
    empty = [x for x in range(19) if s.board[x] < 0]
    k = next(x for x in empty[1:] if x < len(empty) and empty[x - 1] != x)  # option k is not hex k
    mask = _mask(env, [lay.index("PLACE", slot, x, 0) for x in empty] + [lay.index("END_TURN")])
    out = []
    inp = scripted(["place", "", str(k), ""])
    a = StagedEntry(env.game, s, mask, pieces_for(ARENA), 0, inp, out.append).read()
    assert a == lay.index("PLACE", slot, empty[k - 1], 0)
    text = " ".join("\n".join(out).split())
    j = empty.index(k) + 1
    assert (f"note: {k} chose option {k} (hex {empty[k - 1]:02d} (empty)); hex {k:02d} (empty) is option {j} "
            f"(a number chooses by its place in the list; type 'hex {k:02d}' to name it)") in text
    same = next((x for x in range(1, len(empty) + 1) if empty[x - 1] == x), None)  # option x is hex x
    for typed, hx in [(f"hex {k:02d}", k)] + ([(str(same), same)] if same else []):
        out = []
        a = StagedEntry(env.game, s, mask, pieces_for(ARENA), 0, scripted(["place", "", typed, ""]),
                        out.append).read()
        assert a == lay.index("PLACE", slot, hx, 0) and not any("note:" in line for line in out), out


def test_a_lone_first_stage_does_not_offer_back():
    """The only action of a decision: nothing to undo, so the line does not offer ``back``; ``back`` says so."""
    env, _, _ = _arena_main()
    lay = env.game.layout
    out = []
    inp = scripted(["back", ""])
    a = StagedEntry(env.game, env.game_state, _mask(env, [lay.index("END_TURN")]), pieces_for(ARENA), 0, inp,
                    out.append).read()
    assert a == lay.index("END_TURN")
    text = " ".join("\n".join(out).split())
    assert "press Enter to take it" in text and "back undoes a stage" not in text
    assert "nothing to undo: this is the first stage of the move" in text


def test_back_at_the_first_asked_stage_after_a_lone_kind_has_nothing_to_undo():
    """One legal action of a family with parts: its kind is a heading (not asked), so at the first part asked
    (itself with one option) ``back`` has nothing to undo (it used to drop the heading and ask the same stage
    again without a word), and that line does not offer ``back``; the stages after it do."""
    env, _, _ = _arena_main()
    lay = env.game.layout
    legal = np.flatnonzero(env.game.legal_mask(env.game_state))
    place = next(int(a) for a in legal if lay.decode(int(a)).startswith("PLACE"))
    out = []
    a = StagedEntry(env.game, env.game_state, _mask(env, [place]), pieces_for(ARENA), 0,
                    scripted(["back", "", "back", "", "", ""]), out.append).read()
    assert a == place
    text = " ".join("\n".join(out).split())
    assert text.count("nothing to undo: this is the first stage of the move") == 1
    first = text.index("press Enter to take it")
    assert not text[first:].startswith("press Enter to take it (back undoes a stage)")
    assert "press Enter to take it (back undoes a stage)" in text  # the later stages offer it


def test_the_board_after_ones_own_decision_shows_only_what_changed():
    """Right after this seat's previous decision (nobody moved in between) a game with fixed board rows (Arena,
    The Monolith) prints only the changed lines, each with the lines it continues and that continue it, then
    the board's last line (whose decision it is); otherwise, when much changed, or for a game whose board
    reflows (the Strategy Game), the whole board."""
    from agents.human import HumanAgent

    out: list[str] = []
    human = HumanAgent(output_fn=out.append, pieces=pieces_for("the_monolith_v0"))
    assert human.pieces.board_diff and pieces_for(ARENA).board_diff
    assert not pieces_for("monolith_strategy_v0").board_diff
    board = ["day 1/4", " 0 The Monolith   slots 4/6", "      P0{2W} P1{1W}", " 6 Briar Hold", "P0 (you): favour 0",
             "    hearts: available 10, on the board 0/0/0", "        (slay/maneuver/boast)", "P1: favour 0",
             "    hearts: available 12"]
    board += [f"{k:2d} Space {k}" for k in range(7, 19)] + ["P0 chooses an order"]  # the rest; the caption
    human._show_board("\n".join(board), 5)
    after = list(board)
    after[2], after[5], after[-1] = "      P0{1W} P1{1W}", "    hearts: available 9, on the board 0/0/0", "P0 chooses"
    human._show_board("\n".join(after), 6)  # the next decision, the same seat's
    assert out[1].splitlines() == ["the board lines that changed (board shows it whole):",
                                   " 0 The Monolith   slots 4/6", "      P0{1W} P1{1W}", "P0 (you): favour 0",
                                   "    hearts: available 9, on the board 0/0/0", "        (slay/maneuver/boast)",
                                   "P0 chooses"]
    human._show_board("\n".join(board), 9)  # others moved since: the whole board
    assert out[2] == "\n".join(board)
    human._show_board("\n".join(after), 10)
    assert out[3].startswith("the board lines that changed (board shows it whole):\n")
    only_caption = after[:-1] + ["P0 chooses a space"]
    human._show_board("\n".join(only_caption), 11)  # only whose decision it is changed
    assert out[4] == "the board is unchanged (board shows it again)\nP0 chooses a space"
    human.reset()  # a new game: the first board whole
    human._show_board("\n".join(board), 12)
    assert out[5] == "\n".join(board)
    strategy = HumanAgent(output_fn=out.append, pieces=pieces_for("monolith_strategy_v0"))
    strategy._show_board("\n".join(board), 1)
    strategy._show_board("\n".join(after), 2)
    assert out[-1] == "\n".join(after)  # a reflowing board: always whole


def test_the_strategy_board_says_an_unchanged_card_list_in_one_line():
    """The Strategy Game's board ends with what every active card does (a line per card position, some
    wrapped): while that list is the one last printed in full this game, the player's board says it in one
    line; a changed card (a new round's cover) prints it whole again, as do ``board`` and a new game."""
    from agents.human import HumanAgent

    env = monolith_envs.make("monolith_strategy_v0", wrapped=False, num_players=2)
    env.reset(seed=1)
    pieces = pieces_for("monolith_strategy_v0")
    out: list[str] = []
    human = HumanAgent(output_fn=out.append, pieces=pieces)
    full = pieces.board(env.game, env.game_state, 0)
    lines = full.splitlines()
    start = lines.index("what the cards do:")
    cards = [line for line in lines[start + 1:] if line[:2].strip().isdigit()]
    assert len(cards) >= 9 and any(line.startswith("10 ") for line in cards)  # positions 10-12 too
    human._show_board(full, 1)
    assert out[-1] == full
    human._show_board(full, 3)
    shown = out[-1].splitlines()
    assert "what the cards do: as before (board shows them)" in shown
    assert not set(cards) & set(shown)
    assert shown[:start] == lines[:start] and shown[-1] == lines[-1]  # the rest and the open decision as they were
    changed = full.replace(cards[0], cards[0] + " (changed)")
    human._show_board(changed, 5)
    assert out[-1] == changed
    human.reset()
    human._show_board(changed, 7)
    assert out[-1] == changed
    arena = HumanAgent(output_fn=out.append, pieces=pieces_for(ARENA))  # no stable block: as printed
    arena._show_board(full, 1)
    arena._show_board(full, 5)
    assert out[-1] == full


def test_plus_one_takes_a_single_option_and_two_numbers_are_not_read_as_one():
    env, slot, h, place, mask = _place_or_end()
    lay = env.game.layout
    out = []
    # "+1" at the lone tile, hex and facing stages takes them (it was refused there, while "1" was taken)
    inp = scripted(["place", "+1", "+1", "+1"])
    assert StagedEntry(env.game, env.game_state, mask, pieces_for(ARENA), 0, inp, out.append).read() == place
    out.clear()
    inp = scripted(["1 2", "1", "", "", ""])  # "1 2" was read as option 12
    assert StagedEntry(env.game, env.game_state, mask, pieces_for(ARENA), 0, inp, out.append).read() in (
        place, lay.index("END_TURN"))
    assert "'1 2' is more than one number: type one option's number, 1-2, or its name" in " ".join(
        " ".join(out).split())
