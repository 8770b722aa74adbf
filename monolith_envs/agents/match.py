"""Play one match of any registered game between agents (used by evaluation, training reports and play)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from monolith_envs.core.game import Outcome

__all__ = ["MatchResult", "play_match", "seat_rngs", "seat_verdict", "seat_win", "side_sign", "start_episode"]


@dataclass
class MatchResult:
    """Result of one match.

    Attributes:
        returns: ``float32[num_players]`` final returns by seat (engine ``returns``).
        decisions: number of actions applied.
        truncated: True if the match hit ``max_decisions``.
        outcome: the game's per-seat :class:`~monolith_envs.core.game.Outcome` tuple (``game.outcome``), or
            ``None`` when truncated (the game did not end).
        winners: the seats whose outcome is ``WIN`` or ``SUCCESS`` (allies together; empty for a draw, a
            failure or a truncation).

    Illegal actions are never counted: the env raises ``IllegalActionError`` on the first one.
    """

    returns: np.ndarray
    decisions: int
    truncated: bool
    winners: list[int] = field(default_factory=list)
    outcome: tuple | None = None

    def seat_outcome(self, seat: int) -> Outcome | None:
        """``outcome[seat]``, or ``None`` for a truncated match."""
        return None if self.outcome is None else self.outcome[seat]


def seat_verdict(result: MatchResult, seat: int) -> str:
    """One word for ``seat``'s result: ``"win"``, ``"draw"``, ``"loss"``, ``"success"``, ``"failure"`` or
    ``"truncated"``."""
    o = result.seat_outcome(seat)
    return "truncated" if o is None else o.value


def side_sign(outcome: Sequence[Any] | None, seats: Sequence[int]) -> int:
    """A game's result for the side at ``seats`` (one seat, or a team's seats): 1 a win, 0 a draw or a
    truncation (``outcome`` None), -1 a loss, from the game's per-seat outcomes (:class:`Outcome` values or
    their names, ``"win"``, ``"loss"``, ...; SUCCESS counts as a win, FAILURE as 0 alone).  A first place shared
    with a seat of another side (an Arena free-for-all that ends tied at the top gives every tied seat WIN)
    is 0: not a win of this side, not a loss.  ``training.evaluate`` counts this way; the Gymnasium wrapper's
    ``info["win"]`` and the RLlib env's ``infos[agent]["win"]`` too, but for a solo FAILURE (:func:`seat_win`)."""
    if outcome is None:
        return 0
    names = [o.value if isinstance(o, Outcome) else o for o in outcome]
    sign = {"win": 1, "success": 1, "draw": 0, "loss": -1, "failure": 0}[names[seats[0]]]
    if sign > 0 and any(w == "win" for q, w in enumerate(names) if q not in seats):
        return 0
    return sign


def seat_win(outcome: Sequence[Any] | None, seat: int, teams: Sequence[Sequence[int]]) -> int:
    """The ``"win"`` entry of a finished episode's info for ``seat`` (the Gymnasium wrapper's ``info["win"]``,
    the RLlib env's ``infos[agent]["win"]``): :func:`side_sign` of the seat's side in ``teams`` (``game.teams``),
    except that a solo FAILURE is -1."""
    if outcome is None:
        return 0
    own = outcome[seat]
    if (own.value if isinstance(own, Outcome) else own) == "failure":
        return -1
    return side_sign(outcome, next(t for t in teams if seat in t))


def seat_rngs(seed: int, n: int) -> list[np.random.Generator]:
    """One independent ``Generator`` per seat, derived from ``seed`` (reproducible)."""
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(n)]


def start_episode(env: Any, agents: Sequence[Any], seed: int, skip: int | None = None) -> list[np.random.Generator]:
    """Reset ``env`` with ``seed``, then reset each agent and bind it to ``env`` (agents that have ``bind``),
    all but ``agents[skip]`` (a person's seat).  Returns the seats' generators, :func:`seat_rngs`."""
    env.reset(seed=seed)
    for s, ag in enumerate(agents):
        if s != skip:
            ag.reset()
            if hasattr(ag, "bind"):
                ag.bind(env)
    return seat_rngs(seed, len(agents))


def play_match(env: Any, agents: Sequence[Any], seed: int, render: Any = None) -> MatchResult:
    """Play one match to the end.

    Args:
        env: an AEC env from :func:`monolith_envs.make` (reused across matches is fine; either ``mask_in``),
            or an env id (a default env of it is made).
        agents: one agent per seat (``agents[i]`` plays ``player_i``), each an agent object or an agent spec
            string (:func:`monolith_envs.agents.make_agent`); the same object may fill several seats only if
            it keeps no per-seat memory.
        seed: the episode seed (env reset) and the seed of the agents' generators.
        render: optional callable ``render(text)`` called with the omniscient text render after every step.

    Returns:
        A :class:`MatchResult`; its outcome comes from ``game.outcome`` (never from the returns' signs). A
        one-seat game takes one agent.

    Raises:
        TypeError: ``env`` is not an env of this package or an env id, or ``agents`` is not a list.
        ValueError: ``len(agents)`` differs from the number of seats.
        monolith_envs.UnknownEnvError: an unknown env id.
        monolith_envs.agents.AgentSpecError: a malformed agent spec string.
        monolith_envs.IllegalActionError: an agent chose an action that is masked out (also in an env made
            with ``illegal_action="penalize"``), or one that is not an integer (``None``, a float: ``446.9`` is
            not truncated to 446); the message names the seat.
    """
    import monolith_envs
    from monolith_envs.agents.base import rules_env
    from monolith_envs.core.actions import coerce_action
    from monolith_envs.core.game import IllegalActionError

    if isinstance(env, str):
        env = monolith_envs.make(env)
    raw = rules_env(env)
    if raw is None:
        raise TypeError(f"play_match: env must be an env of monolith_envs.make() or an env id, got "
                        f"{type(env).__name__}")
    if isinstance(agents, (str, bytes, dict)) or not (hasattr(agents, "__len__") and hasattr(agents, "__iter__")):
        raise TypeError(f"play_match: agents must be a list of agents or agent spec strings, one per seat, got "
                        f"{type(agents).__name__}")
    agents = list(agents)
    n = raw.game.num_players
    if len(agents) != n:
        raise ValueError(f"{raw.env_id} has {n} seats, got {len(agents)} agents")
    if any(isinstance(a, str) for a in agents):
        from monolith_envs.agents import make_agent

        agents = [make_agent(a, raw.env_id) if isinstance(a, str) else a for a in agents]
    rngs = start_episode(env, agents, seed)
    names = raw.possible_agents
    n_actions = raw.game.layout.n
    while True:
        agent = raw.agent_selection
        if raw.terminations[agent] or raw.truncations[agent]:
            break
        seat = raw.agent_name_mapping[agent]
        obs = raw.observe(agent)
        if isinstance(obs, dict):
            obs, mask = obs["observation"], obs["action_mask"]
        else:  # mask_in="info"
            mask = raw.infos[agent]["action_mask"]
        a = agents[seat].act(obs, mask, rngs[seat])
        try:
            a = coerce_action(a, n_actions)
        except IllegalActionError as e:  # not an integer, or out of range: named with the seat
            rest = str(e).split(e.why, 1)[1].lstrip("; ")
            raise IllegalActionError(e.asked, f"{e.why} (returned by the agent of seat {seat}, {agent})",
                                     rest) from None
        if not mask[a]:  # refused here whatever the env's illegal_action (a penalty would end the match)
            raise IllegalActionError(raw.game.layout.decode(a), f"masked out now (returned by the agent of seat "
                                     f"{seat}, {agent})", "")
        env.step(a)
        if render is not None:
            render(raw.game.render_text(raw.game_state))
    game, state = raw.game, raw.game_state
    ret = np.asarray(game.returns(state), np.float32)
    truncated = bool(raw.truncations[names[0]]) and not game.is_terminal(state)
    outcome = None if truncated else tuple(game.outcome(state))
    winners = [] if outcome is None else [i for i, o in enumerate(outcome) if o in (Outcome.WIN, Outcome.SUCCESS)]
    return MatchResult(ret, raw.num_decisions, truncated, winners, outcome)
