"""RLlib callbacks and result readers of :mod:`training.rllib`."""

from __future__ import annotations

from typing import Any

from ray.rllib.callbacks.callbacks import RLlibCallback

__all__ = ["SeatMetrics", "steps_sampled"]


class SeatMetrics(RLlibCallback):
    """Logs, per finished episode, the learner seats' mean outcome (1 win, 0 draw, -1 loss) as
    ``env_runners/learner_win_rate`` (the share of wins) and ``env_runners/learner_outcome``."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        infos = episode.get_infos(-1) if hasattr(episode, "get_infos") else {}
        wins = [i["win"] for i in infos.values() if isinstance(i, dict) and "win" in i]
        if metrics_logger is not None and wins:
            metrics_logger.log_value("learner_win_rate", sum(w > 0 for w in wins) / len(wins), window=100)
            metrics_logger.log_value("learner_outcome", sum(wins) / len(wins), window=100)


def steps_sampled(result: dict) -> int:
    """Learner decisions sampled so far (RLlib's lifetime env-step count: one per learner-seat action)."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    return int(result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME])
