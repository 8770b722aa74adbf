"""How the fuzz pool hands out games: one game per task with per-step checks (each finished game is counted
at once, also when the run is interrupted), chunks of up to 16 with the invariants only."""

from monolith_envs.core.fuzz import _chunk_size


def test_games_with_per_step_checks_come_back_one_by_one():
    assert _chunk_size(200, 2, 1) == 1
    assert _chunk_size(10**9, 2, 10) == 1


def test_invariant_only_games_share_a_task():
    assert _chunk_size(200, 2, 0) == 12  # 200 // (2 workers * 8)
    assert _chunk_size(10**9, 32, 0) == 16
    assert _chunk_size(5, 2, 0) == 1
