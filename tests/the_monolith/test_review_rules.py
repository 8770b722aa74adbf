"""Rules checks of the_monolith_v0 derived from docs/the_monolith.md (§4.1 control, §4.6 action phase)."""

from pathlib import Path

from monolith_envs.the_monolith import parse_position
from monolith_envs.the_monolith.board import controller, controllers

DATA = Path(__file__).resolve().parents[2] / "monolith_envs" / "the_monolith" / "data"


def test_shaman_control_weight_of_a_shaman_ability_counts_without_held_cards(tmp_path):
    # a custom shaman file: Korrun's passive ability becomes shaman_control_weight 2 (docs §4.1: "the shaman's
    # weight (1, or the largest shaman_control_weight modifier)", §5.3: shaman abilities are modifiers too)
    text = (DATA / "shamans.toml").read_text()
    old = 'effect = { op = "modifier", name = "recruit_at_shaman", amount = 1 }'
    assert old in text
    path = tmp_path / "shamans.toml"
    path.write_text(text.replace(old, 'effect = { op = "modifier", name = "shaman_control_weight", amount = 2 }'))
    g, s = parse_position(f"""
        config num_players=4 shaman_assignment="fixed" shamans=[0,1,2,3] first_player=0 shaman_file="{path}"
        decision ORDER_CHOOSE P0
        P0 available=5
        space 9: P0{{1W}} P1{{1W,S}} P2{{2W}}
    """)
    # P1: 1 warrior + shaman weight 2 = 3 units > P2's 2 > P0's 1, and nobody holds a divination
    assert controller(g, s, 9) == 1
    assert controllers(g, s)[9] == 1
    g.check_invariants(s)
