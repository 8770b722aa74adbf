"""Snapshots of the action layout and the observation spec (docs/monolith_strategy.md §6.1, §7)."""

from pathlib import Path

from monolith_envs.strategy import StrategyGame

SNAP = Path(__file__).parent / "snapshots"


def _check(name: str, text: str) -> None:
    path = SNAP / name
    if not path.exists():  # first run writes the snapshot
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), f"{name} changed: renumbering actions or observation pieces is a new version"


def test_layout_snapshot():
    g = StrategyGame({"num_players": 2})
    assert g.layout.n == 538
    _check("layout.txt", g.layout.describe() + "\n")


def test_obs_spec_snapshot():
    g = StrategyGame({"num_players": 2})
    assert g.obs_spec.size == 2737
    _check("obs_spec.txt", g.obs_spec.describe() + "\n")


def test_family_offsets_match_the_docs():
    lay = StrategyGame().layout
    want = {"place": 0, "set_aside": 360, "end_turn": 366, "cast": 367, "choose_opponent": 396, "choose_face": 399,
            "choose_socket": 405, "choose_index": 465, "decline": 467, "pay_gems": 468, "pay_card": 469,
            "discard": 498, "round_side": 527, "start_bonus": 529, "final_reveal": 531}
    assert {f.name: f.offset for f in lay.families} == want
