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

from .base import AgentError, BaseAgent
from .heuristics.generic import StatePolicy, ValueFn, random_policy, returns_value

__all__ = ["MCTSAgent", "Node"]


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
        simulations: simulations (determinize, select, expand, roll out, back up) per decision, >= 1.
        c: UCB1 exploration constant (returns are in ``[-1, 1]``).
        rollout: ``"random"`` (uniform legal actions) or ``"heuristic"`` (``rollout_policy``).
        rollout_policy: ``policy(game, state, seat, rng) -> action`` used when ``rollout="heuristic"``.
        rollout_depth: stop a rollout after this many decisions and score it with ``value_fn``
            (``None``: play to the end of the game).
        value_fn: ``value(game, state) -> float32[num_players]`` for cut-off rollouts; default: ``returns``.
        prior_fn: optional ``prior(game, state, seat, legal, rng) -> float[len(legal)]`` scoring the root
            actions on a determinization (higher = more promising); with ``root_k`` the search keeps only the
            ``root_k`` best-scored root actions (progressive pruning for large action spaces).
        root_k: number of root actions kept when ``prior_fn`` is given (``None``: all).
        name: display name.

    Raises:
        ValueError: bad ``simulations``, ``c``, ``rollout`` or ``rollout_depth``.
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
        if simulations < 1:
            raise ValueError(f"simulations must be >= 1, got {simulations}")
        if c < 0:
            raise ValueError(f"exploration constant c must be >= 0, got {c}")
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', got {rollout!r}")
        if rollout == "heuristic" and rollout_policy is None:
            raise ValueError("rollout='heuristic' needs a rollout_policy")
        if rollout_depth is not None and rollout_depth < 0:
            raise ValueError(f"rollout_depth must be >= 0 or None, got {rollout_depth}")
        self.simulations = int(simulations)
        self.c = float(c)
        self.rollout = rollout
        self.rollout_policy: StatePolicy = rollout_policy if rollout == "heuristic" else random_policy
        self.rollout_depth = rollout_depth
        self.value_fn = value_fn or returns_value
        if root_k is not None and root_k < 1:
            raise ValueError(f"root_k must be >= 1 or None, got {root_k}")
        self.prior_fn = prior_fn
        self.root_k = root_k
        self.name = name or f"mcts:{simulations}"
        self.last_root: Node | None = None

    # ------------------------------------------------------------------ search
    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        ctx = self._require_ctx()
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
