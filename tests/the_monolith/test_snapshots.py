"""Snapshots of the action layout and the observation spec (renumbering either is a new env version)."""

from pathlib import Path

from monolith_envs.the_monolith.game import MonolithGame

HERE = Path(__file__).parent / "snapshots"


def test_layout_snapshot():
    assert MonolithGame({}).layout.describe() + "\n" == (HERE / "layout.txt").read_text()


def test_obs_spec_snapshot():
    assert MonolithGame({}).obs_spec.describe() + "\n" == (HERE / "obs_spec.txt").read_text()
