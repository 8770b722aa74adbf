"""Powers whose effect depends on the order or action in progress when they resolve (docs §4.8, spec §5.3).

Each test sets a position, uses the power through ``use_power(k)`` and checks the resulting state: the
effect lands in the right counter, the cost is paid once, and the decision returns to where the power was
used.
"""

import pathlib

import numpy as np

from monolith_envs import make_game
from monolith_envs.the_monolith import parse_position
from monolith_envs.the_monolith.state import Sub

from .helpers import play

DIV_TOML = pathlib.Path(__file__).parents[2] / "monolith_envs" / "the_monolith" / "data" / "divinations.toml"
D12, D13, D16, D18, D19, D22 = 11, 12, 15, 17, 18, 21  # divination indices (id D01 is index 0)
POWER0 = 53  # use_power(0)


def _context(g, s, seat: int, name: str) -> float:
    """One field of the ``context`` observation piece as seat ``seat`` sees it."""
    obs = g.observe(s, seat)
    at = g.observer.columns["context"][name]
    return float(g.obs_spec.view(obs, "context")[at])


def _custom_divinations(tmp_path, card: str, **fields) -> str:
    """A divination file equal to the reference one except for ``fields`` of card ``card``."""
    lines = DIV_TOML.read_text(encoding="utf-8").splitlines()
    start = lines.index(f'id = "{card}"')
    for i in range(start, start + 8):
        key = lines[i].split(" = ", 1)[0]
        if key in fields:
            lines[i] = f"{key} = {fields[key]}"
    path = tmp_path / "divinations.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ march: extra_steps -> free steps
def test_forced_march_gives_two_free_march_steps():
    """D13 at the first MARCH_STEP: 2 free steps (no heart for the first two), not shaman steps."""
    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        P0 available=1 held=D13
        space 1: P0{2W,S}
    """)
    play(g, s, g.action_index("order(march)"), g.action_index("space(1)"), g.action_index("number(2)"))
    assert s.sub == Sub.MARCH_STEP and g.legal_actions(s) == [8, 9, POWER0]  # no stop before a step
    play(g, s, POWER0)
    assert (s.free_steps, s.sh_steps) == (2, 0)
    assert s.sub == Sub.MARCH_STEP and s.current == 0 and g.legal_actions(s) == [8, 9]
    assert s.held[0] == [] and s.div_discard == [D13]            # discarded after the effect
    assert _context(g, s, 0, "free_steps") == np.float32(2 / 5)
    assert _context(g, s, 0, "shaman_steps") == 0.0
    play(g, s, g.action_index("space(2)"))                       # free step 1
    assert (s.available[0], s.spent[0], s.free_steps) == (1, 0, 1)
    play(g, s, g.action_index("number(2)"))                      # regroup: keep both
    assert g.legal_actions(s) == [0, 7, 10, 14]                   # stop, spaces 1, 4, 8
    play(g, s, g.action_index("space(4)"))                       # free step 2
    assert (s.available[0], s.spent[0], s.free_steps) == (1, 0, 0)
    play(g, s, g.action_index("number(2)"), g.action_index("space(0)"))  # third step: the heart
    assert (s.available[0], s.spent[0]) == (0, 1)
    play(g, s, g.action_index("number(2)"))                      # then nothing pays: the march stops
    assert s.living[0][0] == 2 and s.living[1][0] == 0 and s.shaman_space[0] == 1
    assert (s.free_steps, s.sh_steps, s.march_steps) == (0, 0, 0)
    assert s.sub == Sub.ORDER_CHOOSE and s.current == 1


def test_forced_march_keeps_a_march_going_when_the_hearts_run_out():
    """D13 after a paid step with no heart left: the stop-or-power decision, then 2 free steps."""
    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        P0 available=1 held=D13
        space 1: P0{1W}
    """)
    play(g, s, 1, g.action_index("space(1)"), g.action_index("number(1)"), g.action_index("space(2)"))
    assert (s.available[0], s.spent[0]) == (0, 1)
    assert s.sub == Sub.MARCH_STEP and g.legal_actions(s) == [0, POWER0]
    play(g, s, POWER0)
    assert (s.free_steps, s.sh_steps) == (2, 0) and g.legal_actions(s) == [0, 7, 10, 14]
    play(g, s, g.action_index("space(8)"), g.action_index("space(13)"))  # a tunnel link counts as a step
    assert s.living[13][0] == 1 and (s.available[0], s.spent[0]) == (0, 1)
    assert s.sub == Sub.ORDER_CHOOSE and s.current == 1               # no heart, no free step: stopped


# ------------------------------------------------------------------ shaman order: extra_steps -> steps
def test_extra_steps_in_a_shaman_order_add_shaman_steps(tmp_path):
    """spec §5.3 extra_steps, shaman order: steps_left += amount (a content file puts D13 in shaman_order)."""
    path = _custom_divinations(tmp_path, "D13", window='"shaman_order"')
    g, s = parse_position(f"""
        config divination_file="{path}"
        decision ORDER_CHOOSE P0
        P0 available=1 held=D13
    """)
    play(g, s, g.action_index("order(shaman)"))
    assert s.sub == Sub.SHAMAN_STEP and s.sh_steps == 3 and g.legal_actions(s) == [0, 8, 9, POWER0]
    play(g, s, POWER0)
    assert (s.sh_steps, s.free_steps) == (5, 0) and s.sub == Sub.SHAMAN_STEP and s.held[0] == []
    assert _context(g, s, 0, "shaman_steps") == 1.0 and _context(g, s, 0, "free_steps") == 0.0
    for sp in (2, 4, 0, 5, 9):
        play(g, s, g.action_index(f"space({sp})"))
    assert s.shaman_space[0] == 9 and s.sub == Sub.ORDER_CHOOSE and s.current == 1  # 5 steps, then stop


def test_pyre_song_gains_anger_and_keeps_the_shaman_steps():
    """D12 (shaman_order, discard: gain_anger 3) at SHAMAN_STEP: anger from reserves, steps unchanged."""
    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        P0 available=1 reserves=4 held=D12
    """)
    play(g, s, g.action_index("order(shaman)"), g.action_index("space(2)"), g.action_index("space(4)"),
         g.action_index("space(0)"))
    assert s.sh_steps == 0 and g.legal_actions(s) == [0, POWER0]  # no step left, the power still offered
    play(g, s, POWER0)
    assert (s.reserves[0], s.anger[0], s.sh_steps, s.free_steps) == (1, 3, 0, 0)
    assert s.held[0] == [] and s.div_discard == [D12]
    assert s.sub == Sub.ORDER_CHOOSE and s.current == 1             # back at SHAMAN_STEP: only stop, applied


# ------------------------------------------------------------------ recruit: recruit_anywhere
_RECRUIT = """
    decision ORDER_CHOOSE P0
    P0 available=3 reserves=3 held=D16
    space 0: P0{1W}
    space 7: P0{1W}
"""


def test_open_graves_at_recruit_hearts_lasts_for_the_placements():
    g, s = parse_position(_RECRUIT)
    play(g, s, g.action_index("order(recruit)"))
    assert s.sub == Sub.RECRUIT_HEARTS and g.legal_actions(s) == [29, 30, POWER0]
    play(g, s, POWER0)
    assert s.rec_anywhere and s.sub == Sub.RECRUIT_HEARTS and g.legal_actions(s) == [29, 30]
    assert s.held[0] == [] and s.div_discard == [D16]
    play(g, s, g.action_index("number(2)"))
    assert g.legal_actions(s) == [6, 7, 13]                          # every occupied space and the Hold
    play(g, s, g.action_index("space(7)"), g.action_index("space(0)"))
    assert (s.living[7][0], s.living[0][0], s.reserves[0], s.available[0]) == (2, 2, 1, 1)
    assert not s.rec_anywhere and s.sub == Sub.ORDER_CHOOSE and s.current == 1


def test_open_graves_at_recruit_place_widens_the_remaining_placements():
    g, s = parse_position(_RECRUIT)
    play(g, s, g.action_index("order(recruit)"), g.action_index("number(2)"))
    assert s.sub == Sub.RECRUIT_PLACE and g.legal_actions(s) == [7, POWER0]   # the Hold only
    play(g, s, g.action_index("space(1)"))
    assert s.rec_paid == 1 and g.legal_actions(s) == [7, POWER0]
    play(g, s, POWER0)
    assert s.rec_anywhere and s.rec_paid == 1 and s.sub == Sub.RECRUIT_PLACE
    assert g.legal_actions(s) == [6, 7, 13]
    play(g, s, g.action_index("space(7)"))
    assert (s.living[1][0], s.living[7][0], s.reserves[0]) == (1, 2, 1)
    assert not s.rec_anywhere and s.sub == Sub.ORDER_CHOOSE and s.current == 1


# ------------------------------------------------------------------ order turn: take_unearned -> available
def test_hidden_cache_at_order_choose_funds_an_order_the_same_turn():
    g, s = parse_position("""
        decision ORDER_CHOOSE P0
        P0 available=1 reserves=2 held=D18
    """)
    assert g.legal_actions(s) == [2, 5, POWER0]                      # shaman, commit, the power
    play(g, s, POWER0)
    assert (s.available[0], s.unearned[0]) == (3, 16) and s.board[0] == [0, 0, 0]
    assert s.sub == Sub.ORDER_CHOOSE and s.current == 0 and g.legal_actions(s) == [2, 3, 5]  # recruit now
    assert s.held[0] == [] and s.div_discard == [D18]


# ------------------------------------------------------------------ action turn: free_fate, take_unearned -> zone
_ACTION = """
    decision ACTION_CHOOSE P0
    surge P0
    P0 committed board={board} held={card}
    P1 committed board=0,0,1
    P2 committed
    P3 committed
    context owed=2
    space 0: P0{{1W}} P1{{1W}}
"""


def test_fate_weaver_gives_free_fate_moves_that_lapse_with_the_turn():
    g, s = parse_position(_ACTION.format(board="2,0,0", card="D19"))
    assert 65 not in g.legal_actions(s) and POWER0 in g.legal_actions(s)  # no anger: no fate move yet
    limbo = s.limbo[0]
    play(g, s, POWER0)
    assert s.free_fate == 3 and s.sub == Sub.ACTION_CHOOSE and s.owed == 2 and s.held[0] == []
    play(g, s, g.action_index("fate(0)"), g.action_index("fate(1)"))
    assert s.board[0] == [1, 0, 1] and (s.free_fate, s.anger[0], s.limbo[0]) == (1, 0, limbo)
    assert s.owed == 2                                                # fate moves are not actions
    play(g, s, g.action_index("relent"))
    assert s.out[0] and s.current == 1 and s.sub == Sub.ACTION_CHOOSE
    assert s.free_fate == 0                                           # the unused move lapsed


def test_blood_rain_puts_unearned_hearts_in_the_slay_zone():
    g, s = parse_position(_ACTION.format(board="0,0,1", card="D22"))
    assert 68 not in g.legal_actions(s)                               # no slay heart
    play(g, s, POWER0)
    assert s.board[0] == [2, 0, 1] and s.unearned[0] == 16 and s.available[0] == 0
    assert s.sub == Sub.ACTION_CHOOSE and s.owed == 2 and 68 in g.legal_actions(s)
    play(g, s, g.action_index("slay(0,1)"))
    assert s.living[0][1] == 0 and s.dead[0][1] == 1 and s.favour[0] == 1 and s.owed == 1


# ------------------------------------------------------------------ after an action: move_again
def test_swift_feet_moves_the_maneuvered_unit_again_for_free():
    g, s = parse_position("""
        decision ACTION_CHOOSE P0
        surge P0
        P0 committed board=0,1,0 anger=1 held=D14
        P1 committed board=0,0,1
        P2 committed
        P3 committed
        context owed=2
        space 0: P0{1W}
    """)
    play(g, s, g.action_index("maneuver(0,0)"), g.action_index("space(4)"))
    assert s.sub == Sub.POWER_WINDOW and s.man_space == 4 and g.legal_actions(s) == [0, POWER0]
    play(g, s, POWER0)
    assert s.sub == Sub.MANEUVER_DEST and (s.anger[0], s.limbo[0] > 0) == (0, True)
    assert g.legal_actions(s) == [6, 8, 11, 26]                       # from 4: spaces 0, 2, 5, 20
    play(g, s, g.action_index("space(2)"))
    assert s.living[2][0] == 1 and s.living[4][0] == 0 and s.living[0][0] == 0
    assert s.spent[0] == 1 and s.board[0] == [0, 0, 0] and s.held[0] == [13]  # anger cost: card kept
    assert s.out[0] and s.current == 1 and s.sub == Sub.ACTION_CHOOSE  # window closed, no heart left


# ------------------------------------------------------------------ cost-free powers of the order windows
def test_cost_free_march_power_resolves_when_the_march_starts(tmp_path):
    """docs §4.8: a cost-free power resolves by itself when its window opens (never offered as use_power)."""
    path = _custom_divinations(tmp_path, "D13", cost='"none"')
    g, s = parse_position(f"""
        config divination_file="{path}"
        decision ORDER_CHOOSE P0
        P0 available=1 held=D13
        space 1: P0{{1W}}
    """)
    play(g, s, g.action_index("order(march)"))
    assert s.sub == Sub.MARCH_SOURCE and (s.free_steps, s.sh_steps) == (2, 0)
    play(g, s, g.action_index("space(1)"), g.action_index("number(1)"))
    assert g.legal_actions(s) == [8, 9]                               # not offered as use_power
    play(g, s, g.action_index("space(2)"), g.action_index("space(4)"))
    assert (s.available[0], s.spent[0], s.free_steps) == (1, 0, 0) and s.held[0] == [D13]
    play(g, s, g.action_index("space(0)"))                           # the third step takes the heart
    assert s.living[0][0] == 1 and (s.available[0], s.spent[0]) == (0, 1)
    assert s.sub == Sub.ORDER_CHOOSE and s.current == 1


def test_cost_free_shaman_order_power_adds_steps_when_the_order_starts(tmp_path):
    path = _custom_divinations(tmp_path, "D13", window='"shaman_order"', cost='"none"')
    g, s = parse_position(f"""
        config divination_file="{path}"
        decision ORDER_CHOOSE P0
        P0 available=1 held=D13
    """)
    play(g, s, g.action_index("order(shaman)"))
    assert s.sub == Sub.SHAMAN_STEP and (s.sh_steps, s.free_steps) == (5, 0)
    assert g.legal_actions(s) == [0, 8, 9] and s.held[0] == [D13]


def test_cost_free_recruit_power_opens_every_occupied_space(tmp_path):
    path = _custom_divinations(tmp_path, "D16", cost='"none"')
    g, s = parse_position(f"config divination_file=\"{path}\"\n" + _RECRUIT)
    play(g, s, g.action_index("order(recruit)"))
    assert s.sub == Sub.RECRUIT_HEARTS and s.rec_anywhere and g.legal_actions(s) == [29, 30]
    play(g, s, g.action_index("number(2)"))
    assert g.legal_actions(s) == [6, 7, 13] and s.held[0] == [D16]


def test_cost_free_order_turn_power_resolves_at_each_turn_start(tmp_path):
    path = _custom_divinations(tmp_path, "D18", cost='"none"')
    g, s = parse_position(f"""
        config divination_file="{path}"
        decision none
        stack TURN_WINDOW:0:0
        surge P2
        P0 available=1 held=D18
        P1 available=1
        P2 committed
        P3 committed
    """)
    assert s.sub == Sub.ORDER_CHOOSE and s.current == 0
    assert (s.available[0], s.unearned[0]) == (3, 16) and g.legal_actions(s) == [2, 5]
    play(g, s, g.action_index("order(shaman)"), 0)                   # shaman, stop at once
    play(g, s, g.action_index("order(commit)"))                     # P1 commits; P0's next turn
    assert s.sub == Sub.ORDER_CHOOSE and s.current == 0 and (s.available[0], s.unearned[0]) == (4, 14)


def test_cost_free_order_turn_power_resolves_before_the_row_checks(tmp_path):
    """Spec §4.4 "Start of turn: set up the order_turn window, then go through the row slots" and §4.8 (a
    cost-free power resolves at the start of its window): D18 made cost-free gives P0 2 hearts before its
    outbid slot is checked, so P0 may raise instead of forfeiting by itself."""
    path = _custom_divinations(tmp_path, "D18", cost='"none"')
    position = f"""
        config divination_file="{path}"
        decision none
        stack TURN_WINDOW:0:0
        P0 available=0 spent=13 unearned=5 held={{held}}
        P1 available=3
        P2 committed
        P3 committed
        surge P2
        space 1: P0{{{{2W}}}}
        row 0: D01 P0:1 P1:2
    """
    g, s = parse_position(position.format(held="D18"))
    assert s.sub == Sub.DIV_RAISE and s.current == 0 and s.focus_slot == 0
    assert (s.available[0], s.unearned[0], s.bids[0][0]) == (2, 3, 1)
    assert [g.action_name(a) for a in g.legal_actions(s)] == ["pass", "number(2)"]
    g, s = parse_position(position.format(held="D19"))  # no cost-free power: no raise possible, forfeit
    assert s.sub == Sub.ORDER_CHOOSE and (s.available[0], s.bids[0][0]) == (1, 0)


def test_an_anger_cost_recruit_power_never_leaves_the_recruit_short_of_warriors(tmp_path):
    """Spec §4.4 D22 (h never exceeds reserves + anger) with a content file whose shaman pays 1 anger for
    ``recruit_anywhere`` in the recruit window: the power is usable only while the warriors left still cover
    the order (2 for the hearts, the paid placements and one more), and the optional bonus shrinks to what is
    left. Before, anger went negative (seed 6) or RECRUIT_HEARTS had no legal action (seed 3)."""
    from monolith_envs.core.fuzz import fuzz_rollout

    ref = (DIV_TOML.parent / "shamans.toml").read_text(encoding="utf-8")
    old = ('ability = { window = "rest_scoring", cost = "none", cost_amount = 0, effect = { op = "favour_if", '
           'pred = "shaman_in", sel = "monolith", threshold = 1, amount = 2 } }')
    assert ref.count(old) == 1
    path = tmp_path / "shamans.toml"
    path.write_text(ref.replace(old, 'ability = { window = "recruit", cost = "anger", cost_amount = 1, '
                                     'effect = { op = "recruit_anywhere" } }'), encoding="utf-8")
    g = make_game("the_monolith_v0", num_players=2, shaman_assignment="fixed", shamans=[0, 1],
                  shaman_file=str(path))
    for seed in (3, 6):
        result = fuzz_rollout(g, seed, check_every=0)  # the invariants after every step, the end checks
        assert result.failure is None, result.message


# ------------------------------------------------------------------ after-action windows, on_acquire
_AFTER = """
    decision ACTION_CHOOSE P0
    surge P0
    P0 committed board={board} anger=1 held={card}
    P1 committed board=0,0,1
    P2 committed
    P3 committed
    context owed=2
    space 0: P0{{1W}} P1{{1W}}
"""


def test_red_harvest_after_a_slay_pays_anger_and_keeps_the_card():
    g, s = parse_position(_AFTER.format(board="1,0,0", card="D10"))
    play(g, s, g.action_index("slay(0,1)"))
    assert s.sub == Sub.POWER_WINDOW and s.last_space == 0 and g.legal_actions(s) == [0, POWER0]
    limbo = s.limbo[0]
    play(g, s, POWER0)
    assert (s.favour[0], s.kills_today[0], s.anger[0], s.limbo[0]) == (3, 1, 0, limbo + 1)
    assert s.held[0] == [9] and s.dead[0][1] == 1
    assert s.out[0] and s.current == 1 and s.sub == Sub.ACTION_CHOOSE  # window closed by itself


def test_blood_oath_after_a_boast_scores_once():
    g, s = parse_position(_AFTER.format(board="0,0,1", card="D21"))
    play(g, s, g.action_index("boast(0)"))
    assert s.sub == Sub.POWER_WINDOW and g.legal_actions(s) == [0, POWER0]
    play(g, s, POWER0)
    assert (s.favour[0], s.anger[0], s.boast[0][0]) == (1, 0, 1) and s.held[0] == [20]
    assert s.out[0] and s.current == 1


def test_tithe_of_hearts_acquired_at_turn_start_funds_this_turn():
    """D17 (on_acquire: take_unearned 3 to available) resolves inside the acquisition, before ORDER_CHOOSE."""
    g, s = parse_position("""
        decision none
        stack TURN_START:0:0
        surge P2
        P0 available=1 reserves=2
        P2 committed
        P3 committed
        row 0: D17 P0:1
    """)
    assert s.sub == Sub.ORDER_CHOOSE and s.current == 0 and s.held[0] == [16]
    assert (s.available[0], s.spent[0], s.unearned[0]) == (4, 1, 14)
    assert g.legal_actions(s) == [2, 3, 5]                            # recruit is affordable now


def test_extra_kill_decision_offers_no_pass_and_its_question_says_so():
    """Spec §4.8 / D09: an EXTRA_KILL is entered only with a target and has no pass action, so the question
    shown for an action of another decision must not offer one."""
    from monolith_envs.the_monolith import parse_position
    from monolith_envs.the_monolith.state import SUB_ASKS, Sub

    g, s = parse_position("""
        decision ACTION_CHOOSE P3
        surge P3
        P0 committed
        P1 committed
        P2 committed
        P3 committed board=1,0,0 anger=1 held=D09
        space 0: P3{1W} P0{3W}
    """)
    g.apply(s, g.action_index("slay(0,1)"))
    g.apply(s, 53)  # Blade Rite: extra_kill(1)
    assert s.sub == Sub.EXTRA_KILL
    assert g.legal_actions(s) == [g.action_index("slay(0,1)")]  # the kill only: no pass action
    assert "or pass" not in SUB_ASKS[Sub.EXTRA_KILL] and "no pass" in SUB_ASKS[Sub.EXTRA_KILL]
