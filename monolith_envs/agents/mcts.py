"""Monte Carlo tree search over any rules engine, as determinized information-set MCTS.

Each simulation starts from a *determinization*: ``game.resample_hidden(state, viewer, rng)`` redraws
everything the acting seat (the viewer) may not know -- opponents' hidden cards, deck orders, dice to come --
so the search never depends on the true hidden state.  All determinizations share one tree keyed by action
sequences (single-observer ISMCTS, Cowling et al. 2012): at a node only the actions legal in the current
determinization compete, with UCB1 over availability counts.  Chance inside ``apply`` (dice) is sampled
from the agent's ``rng`` (open-loop tree).  Rewards are the engine's ``returns`` vector, so any number of
players works: at each node the seat to act maximises its own entry.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .base import AgentError, BaseAgent, check_bound_state, check_mask, check_rng
from .heuristics.generic import StatePolicy, ValueFn, random_policy, returns_value

__all__ = ["MAX_C", "MAX_ROLLOUT_DEPTH", "MAX_ROOT_K", "MAX_SIMULATIONS", "MCTSAgent", "Node"]

#: bounds of the options (a spec such as ``mcts:N:c=X:depth=D:k=K`` outside them is refused, naming the range)
MAX_SIMULATIONS = 10**6
MAX_C = 100.0
MAX_ROLLOUT_DEPTH = 10**6
MAX_ROOT_K = 10**6


def _int_in(value: Any, lo: int, hi: int, what: str, none_ok: bool = False) -> int | None:
    """``value`` as an int in ``[lo, hi]`` (or None when ``none_ok``); a ``ValueError`` naming the range otherwise."""
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        extra = " or None" if none_ok else ""
        raise ValueError(f"{what} must be an integer from {lo} to {hi}{extra}, got {repr(value)[:40]}")
    return int(value)


class Node:
    """One tree node: the seat that chose the action leading here, visit and availability counts, value sum.

    Attributes:
        player: seat whose action led to this node (``-1`` for the root).
        n: visits.
        avail: times this node's action was legal when its parent was visited (ISMCTS availability).
        w: sum of ``returns[player]`` over the simulations through this node.
        children: ``{action: Node}``.
    """

    __slots__ = ("avail", "children", "n", "player", "w")

    def __init__(self, player: int = -1):
        self.player = player
        self.n = 0
        self.avail = 0
        self.w = 0.0
        self.children: dict[int, Node] = {}


class MCTSAgent(BaseAgent):
    """Determinized information-set MCTS (UCT) agent; needs :meth:`bind` (reads the engine through ``clone``).

    Args:
        simulations: simulations (determinize, select, expand, roll out, back up) per decision, an integer from
            1 to :data:`MAX_SIMULATIONS`.
        c: UCB1 exploration constant (returns are in ``[-1, 1]``), a finite number from 0 to :data:`MAX_C`.
        rollout: ``"random"`` (uniform legal actions) or ``"heuristic"`` (``rollout_policy``).
        rollout_policy: ``policy(game, state, seat, rng) -> action`` used when ``rollout="heuristic"``.
        rollout_depth: stop a rollout after this many decisions and score it with ``value_fn``
            (``None``: play to the end of the game); an integer from 0 to :data:`MAX_ROLLOUT_DEPTH`.
        value_fn: ``value(game, state) -> float32[num_players]`` for cut-off rollouts; default: ``returns``.
        prior_fn: optional ``prior(game, state, seat, legal, rng) -> float[len(legal)]`` scoring the root
            actions on a determinization (higher = more promising); with ``root_k`` the search keeps only the
            ``root_k`` best-scored root actions (progressive pruning for large action spaces).
        root_k: number of root actions kept when ``prior_fn`` is given (``None``: all); an integer from 1 to
            :data:`MAX_ROOT_K`.
        name: display name.

    Raises:
        ValueError: ``simulations``, ``c``, ``rollout_depth`` or ``root_k`` of the wrong type or out of its range
            (the message names the range), or a bad ``rollout``.
        AgentError: :meth:`act` before :meth:`bind`.
    """

    needs_env = True

    def __init__(
        self,
        simulations: int = 200,
        c: float = 1.4,
        rollout: str = "random",
        rollout_policy: StatePolicy | None = None,
        rollout_depth: int | None = None,
        value_fn: ValueFn | None = None,
        prior_fn: Any = None,
        root_k: int | None = None,
        name: str | None = None,
    ):
        super().__init__()
        self.simulations = _int_in(simulations, 1, MAX_SIMULATIONS, "simulations")
        if isinstance(c, bool) or not isinstance(c, (int, float, np.integer, np.floating)) \
                or not math.isfinite(c) or not 0 <= c <= MAX_C:
            raise ValueError(f"c (the exploration constant) must be a finite number from 0 to {MAX_C:g}, "
                             f"got {repr(c)[:40]}")
        self.c = float(c)
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', got {repr(rollout)[:40]}")
        if rollout == "heuristic" and rollout_policy is None:
            raise ValueError("rollout='heuristic' needs a rollout_policy")
        self.rollout_depth = _int_in(rollout_depth, 0, MAX_ROLLOUT_DEPTH, "rollout_depth (depth)", none_ok=True)
        self.rollout = rollout
        self.rollout_policy: StatePolicy = rollout_policy if rollout == "heuristic" else random_policy
        self.value_fn = value_fn or returns_value
        self.prior_fn = prior_fn
        self.root_k = _int_in(root_k, 1, MAX_ROOT_K, "root_k (k)", none_ok=True)
        self.name = name or f"mcts:{simulations}"
        self.last_root: Node | None = None

    # ------------------------------------------------------------------ search
    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """A legal action for the acting seat (arguments as :meth:`BaseAgent.act`).

        Returns the most visited root action after ``simulations`` simulations.

        Raises:
            AgentError: not bound to an env, a mask of another size, with no legal action or not that of the
                bound env's state (bound to another env), or no ``rng``.
        """
        ctx = self._require_ctx()
        check_mask(ctx, action_mask)
        check_bound_state(ctx, action_mask)
        check_rng(rng)
        legal_root = np.flatnonzero(action_mask)
        if legal_root.size == 0:
            raise AgentError("the action mask has no legal action")
        if legal_root.size == 1:
            return int(legal_root[0])
        return self.search(ctx.game, ctx.state, ctx.seat, legal_root, rng)

    def search(self, game: Any, true_state: Any, viewer: int, legal_root: np.ndarray,
               rng: np.random.Generator) -> int:
        """Run the simulations from ``true_state`` as seen by ``viewer``; return the most visited root action.

        ``true_state`` is only passed to ``game.resample_hidden``; everything else works on the
        determinized copies.  Root actions are restricted to ``legal_root`` (the viewer's action mask).
        """
        root = Node()
        if self.prior_fn is not None and self.root_k is not None and len(legal_root) > self.root_k:
            det = game.resample_hidden(true_state, viewer, rng)
            scores = np.asarray(self.prior_fn(game, det, viewer, legal_root, rng), np.float64)
            keep = np.argsort(-scores, kind="stable")[: self.root_k]
            legal_root = np.sort(np.asarray(legal_root)[keep])
        root_set = {int(a) for a in legal_root}
        for _ in range(self.simulations):
            state = game.resample_hidden(true_state, viewer, rng)
            self._simulate(game, state, root, root_set, rng)
        self.last_root = root
        best, best_n = -1, -1
        for a in legal_root:  # deterministic order, ties to the lowest action
            child = root.children.get(int(a))
            n = child.n if child is not None else 0
            if n > best_n:
                best, best_n = int(a), n
        return best

    def _simulate(self, game: Any, state: Any, root: Node, root_set: set[int], rng: np.random.Generator) -> None:
        node = root
        path = [root]
        expanded = False
        while not game.is_terminal(state):
            legal = np.flatnonzero(game.legal_mask(state))
            if node is root:
                legal = np.array([a for a in legal if int(a) in root_set], dtype=np.int64)
            player = game.current_player(state)
            children = node.children
            untried = [int(a) for a in legal if int(a) not in children]
            for a in legal:
                ch = children.get(int(a))
                if ch is not None:
                    ch.avail += 1
            if untried:
                a = untried[rng.integers(len(untried))]
                child = Node(player)
                child.avail = 1
                children[a] = child
                game.apply(state, a, rng)
                path.append(child)
                expanded = True
                break
            best_a, best_u = -1, -math.inf
            for a in legal:
                ch = children[int(a)]
                u = ch.w / ch.n + self.c * math.sqrt(math.log(max(1, ch.avail)) / ch.n) if ch.n else math.inf
                if u > best_u:
                    best_a, best_u = int(a), u
            node = children[best_a]
            game.apply(state, best_a, rng)
            path.append(node)
        if expanded:
            depth = 0
            while not game.is_terminal(state) and (self.rollout_depth is None or depth < self.rollout_depth):
                a = self.rollout_policy(game, state, game.current_player(state), rng)
                game.apply(state, int(a), rng)
                depth += 1
        values = (np.asarray(game.returns(state), np.float64) if game.is_terminal(state)
                  else np.asarray(self.value_fn(game, state), np.float64))
        for nd in path:
            nd.n += 1
            if nd.player >= 0:
                nd.w += float(values[nd.player])
