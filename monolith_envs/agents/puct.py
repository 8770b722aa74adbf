"""PUCT search guided by a policy-value network, batched over many games at once.

The network is anything with ``evaluate(obs float32[B, obs_size], masks bool[B, n]) -> (probs float64[B, n],
values float64[B, num_players])``, the values seat-relative (entry ``i`` is seat ``(seat + i) % n``):
:class:`training.az.net.PolicyValueNet`, or a pretrained baseline's
:class:`~monolith_envs.agents.baselines.net.BaselineNet`.

One call of :meth:`BatchedPUCT.run` searches the current decision of several independent games together:
every simulation round walks one path in each game's tree, and the leaves that need the network (one per
game at most) are evaluated in a **single forward pass**. So ``G`` concurrent games cost ``simulations``
forward passes of batch ``G`` per decision, not ``G * simulations`` passes of batch 1.

* **Hidden information**: each simulation starts from ``game.resample_hidden(state, viewer, rng)``, a
  determinization of what the acting seat (the viewer) may not know, as :mod:`monolith_envs.agents.mcts` does; all
  determinizations share one tree keyed by action sequences, and at a node only the actions legal in the
  current determinization compete (their priors renormalised over them).
* **Chance** during play is drawn inside ``game.apply`` from the game's own ``rng`` (an open-loop tree).
* **Selection**: PUCT, ``Q(a) + c * P(a) * sqrt(N + 1) / (1 + N(a))``, with ``N`` the node's visits and ``P``
  the prior plus ``1e-3``, renormalised over the legal actions (an action unseen at expansion keeps a small
  prior); ``Q`` is the mean final return of
  the seat that acts at the node (values are vectors over seats, so 3-4 players and teams work) and an
  unvisited action's ``Q`` is the node's value (see Leaves) for that seat.
* **Root noise** (self-play): ``P = (1 - frac) * P + frac * Dirichlet(alpha)`` over the legal root actions.
* **Leaves**: a terminal state is scored with ``game.returns``; any other new node with the network, or
  with ``leaf_mix > 0`` with ``(1 - leaf_mix) * network value + leaf_mix * leaf_value_fn(determinization)``
  (the root too: its value is the first estimate of its unvisited actions).

The result per game is the root's visit counts, ``float64[layout.n]``, non-zero only at legal actions; the
training target is :func:`visit_target` (the counts normalised to sum to 1).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["BatchedPUCT", "FiniteOutputs", "check_finite_outputs", "check_loaded_outputs", "to_absolute",
           "visit_target"]


def check_loaded_outputs(what: str, *outputs: Any, part: str = "network", kind: str = "model") -> None:
    """Refuse a model file just loaded whose network gives outputs (arrays or CPU tensors: its logits, values
    for an observation of zeros and one of ones) with a NaN or an infinite entry: finite weights so large
    that the network overflows, so every decision would be refused (:func:`check_finite_outputs`).

    Raises:
        ModelFileError: ``"{what}: the {part}'s output is not finite (NaN or inf) for an observation of zeros
            or ones; the file's weights overflow (a diverged or damaged {kind})"``.
    """
    if not all(np.isfinite(np.asarray(out, np.float64)).all() for out in outputs):
        from .model_files import ModelFileError

        raise ModelFileError(f"{what}: the {part}'s output is not finite (NaN or inf) for an observation of zeros "
                             f"or ones; the file's weights overflow (a diverged or damaged {kind})")


def check_finite_outputs(name: str, *outputs: Any, where: str = "this observation") -> None:
    """Refuse network outputs (arrays: the logits or priors of the legal actions, the values) with a NaN or an
    infinite entry: a model file whose weights are finite but so large that the network overflows.  An
    ``argmax`` over NaN would pick action 0 whether it is legal or not, and a search over NaN priors or values
    means nothing, so an agent stops with this error instead.

    Raises:
        AgentError: ``"{name}: the network's output is not finite (NaN or inf) for {where}; the file's weights
            overflow"``.
    """
    for out in outputs:
        if not np.isfinite(np.asarray(out, np.float64)).all():
            from .base import AgentError

            raise AgentError(f"{name}: the network's output is not finite (NaN or inf) for {where}; the file's "
                             "weights overflow (a diverged or damaged model)")


class FiniteOutputs:
    """A policy-value network for :class:`BatchedPUCT` whose ``evaluate`` refuses outputs that are not finite
    (:func:`check_finite_outputs`: the priors of the legal actions and the values), named ``name`` in the error.

    Raises:
        AgentError: from ``evaluate``, a NaN or infinite prior of a legal action or value.
    """

    def __init__(self, net: Any, name: str):
        self.net = net
        self.name = name

    def evaluate(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``net.evaluate(obs, masks)``, checked (see the class)."""
        probs, values = self.net.evaluate(obs, masks)
        check_finite_outputs(self.name, np.asarray(probs)[np.asarray(masks, bool)], values,
                             where="a state of its search")
        return probs, values


def to_absolute(values_rel: np.ndarray, seat: int) -> np.ndarray:
    """Seat-relative values (entry ``i`` = seat ``(seat + i) % n``) -> values indexed by seat (``float64[n]``)."""
    return np.roll(np.asarray(values_rel, np.float64), seat)


class _Node:
    __slots__ = ("N", "W", "children", "probs", "total", "value")

    def __init__(self, n_actions: int):
        self.N = np.zeros(n_actions)
        self.W = np.zeros(n_actions)
        self.total = 0
        self.children: dict[int, _Node] = {}
        self.probs: np.ndarray | None = None  # the network's prior (None: not evaluated yet)
        self.value: np.ndarray | None = None  # the node's value by seat (the network's, or the mix)


def visit_target(visits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Root visit counts -> the policy target ``float64[n]``: counts / their sum over the legal actions, 0 at
    illegal ones (uniform over the legal actions if nothing was visited).

    Raises:
        ValueError: ``mask`` has no legal action.
    """
    mask = np.asarray(mask, bool)
    if not mask.any():
        raise ValueError("visit_target: the mask has no legal action")
    v = np.where(mask, np.asarray(visits, np.float64), 0.0)
    s = v.sum()
    return v / s if s > 0 else mask / mask.sum()


class BatchedPUCT:
    """PUCT search over any :class:`~monolith_envs.core.game.Game`, with leaf evaluations batched across games.

    The ``net`` given to :meth:`run` is any policy-value network with ``evaluate`` (see the module docstring).

    Args:
        game: the rules engine (one instance shared by all searched states).
        simulations: simulations per decision, >= 1.
        c_puct: exploration constant, > 0.
        dirichlet_alpha: root noise concentration, > 0.
        noise_frac: share of root noise in the prior, in ``[0, 1]`` (0: no noise, for play).
        leaf_value_fn: optional ``value(game, state) -> float[num_players]`` (values by seat in ``[-1, 1]``,
            e.g. the game's heuristic ``state_value``) mixed into the network's value of every new node (the
            root's on a determinization, ``resample_hidden``, so no hidden information is read).
        leaf_mix: the weight of ``leaf_value_fn`` in that mix, in ``[0, 1]`` (0: the network's value alone;
            1: ``leaf_value_fn`` alone); ignored without ``leaf_value_fn``.

    Raises:
        ValueError: a parameter out of range.
    """

    def __init__(self, game: Any, simulations: int, c_puct: float = 1.5, dirichlet_alpha: float = 0.3,
                 noise_frac: float = 0.25, leaf_value_fn: Any = None, leaf_mix: float = 0.0):
        if int(simulations) < 1:
            raise ValueError(f"simulations must be >= 1, got {simulations}")
        if not c_puct > 0:
            raise ValueError(f"c_puct must be > 0, got {c_puct}")
        if not dirichlet_alpha > 0:
            raise ValueError(f"dirichlet_alpha must be > 0, got {dirichlet_alpha}")
        if not 0.0 <= noise_frac <= 1.0:
            raise ValueError(f"noise_frac must be in [0, 1], got {noise_frac}")
        if not 0.0 <= leaf_mix <= 1.0:
            raise ValueError(f"leaf_mix must be in [0, 1], got {leaf_mix}")
        self.leaf_value_fn = leaf_value_fn
        self.leaf_mix = float(leaf_mix) if leaf_value_fn is not None else 0.0
        self.game = game
        self.simulations = int(simulations)
        self.c_puct = float(c_puct)
        self.alpha = float(dirichlet_alpha)
        self.noise_frac = float(noise_frac)
        self.forward_passes = 0  # counters for measurements
        self.leaf_evals = 0

    # ----------------------------------------------------------------------------------------- evaluation
    def _evaluate(self, net: Any, items: list[tuple[Any, int]],
                  mix_states: list[Any] | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
        """``[(state, seat to act)]`` -> ``[(prior float64[n], value by seat float64[P])]``, one forward pass;
        with ``leaf_mix`` the value is mixed with ``leaf_value_fn`` of ``mix_states`` (default: the states)."""
        g = self.game
        obs = np.stack([g.observe(s, p) for s, p in items])
        masks = np.stack([np.asarray(g.legal_mask(s), bool) for s, _ in items])
        probs, vals = net.evaluate(obs, masks)
        self.forward_passes += 1
        self.leaf_evals += len(items)
        out = [(probs[i], to_absolute(vals[i], p)) for i, (_, p) in enumerate(items)]
        if self.leaf_mix > 0:
            lam = self.leaf_mix
            mixed = mix_states if mix_states is not None else [st for st, _ in items]
            out = [(prior, (1.0 - lam) * value + lam * np.asarray(self.leaf_value_fn(g, st), np.float64))
                   for (prior, value), st in zip(out, mixed)]
        return out

    # ------------------------------------------------------------------------------------------ selection
    def _select(self, node: _Node, legal: np.ndarray, seat: int) -> int:
        p = node.probs[legal] + 1e-3  # actions unseen when the node was expanded keep a small prior
        p /= p.sum()
        n = node.N[legal]
        fpu = float(node.value[seat])
        q = np.where(n > 0, node.W[legal] / np.maximum(n, 1), fpu)
        u = q + self.c_puct * p * math.sqrt(node.total + 1) / (1.0 + n)
        return int(legal[int(np.argmax(u))])

    # ---------------------------------------------------------------------------------------------- search
    def run(self, net: Any, states: list[Any], viewers: list[int],
            rngs: list[np.random.Generator]) -> list[np.ndarray]:
        """Search the decision of every ``states[i]`` (seat ``viewers[i]`` to act, randomness from ``rngs[i]``).

        ``states`` are the true states; they are only read through ``resample_hidden``, ``observe`` and
        ``legal_mask`` for their own viewer, and never modified. Returns the root visit counts
        ``float64[layout.n]`` per game (they sum to ``simulations``, and are 0 at illegal actions).

        Raises:
            ValueError: lists of different lengths, or a state that is over.
        """
        g = self.game
        if not (len(states) == len(viewers) == len(rngs)):
            raise ValueError("run: states, viewers and rngs must have the same length")
        k = len(states)
        if k == 0:
            return []
        n_actions = g.layout.n
        roots = [_Node(n_actions) for _ in range(k)]
        root_legal = []
        for s in states:
            if g.is_terminal(s):
                raise ValueError("run: cannot search a state that is over")
            root_legal.append(np.flatnonzero(g.legal_mask(s)))
        # the heuristic value of a root reads a determinization, never the true state's hidden information
        root_mix = ([g.resample_hidden(s, v, r) for s, v, r in zip(states, viewers, rngs)]
                    if self.leaf_mix > 0 else None)
        for i, (prior, value) in enumerate(self._evaluate(net, list(zip(states, viewers)), root_mix)):
            roots[i].probs, roots[i].value = prior, value
            if self.noise_frac > 0 and root_legal[i].size > 1:
                noise = rngs[i].dirichlet(np.full(root_legal[i].size, self.alpha))
                p = prior.copy()
                p[root_legal[i]] = (1 - self.noise_frac) * prior[root_legal[i]] + self.noise_frac * noise
                roots[i].probs = p
        for _ in range(self.simulations):
            pending: list[tuple[int, _Node, Any, int, list]] = []
            for i in range(k):
                rng = rngs[i]
                det = g.resample_hidden(states[i], viewers[i], rng)
                node, path, legal = roots[i], [], root_legal[i]
                while True:
                    seat = g.current_player(det)
                    a = self._select(node, legal, seat)
                    path.append((node, a, seat))
                    g.apply(det, a, rng)
                    child = node.children.get(a)
                    if child is None:
                        child = node.children[a] = _Node(n_actions)
                    node = child
                    if g.is_terminal(det):
                        self._backup(path, np.asarray(g.returns(det), np.float64))
                        break
                    if node.probs is None:
                        pending.append((i, node, det, g.current_player(det), path))
                        break
                    legal = np.flatnonzero(g.legal_mask(det))
            if pending:
                results = self._evaluate(net, [(det, p) for _, _, det, p, _ in pending])
                for (_, node, _, _, path), (prior, value) in zip(pending, results):
                    if node.probs is None:
                        node.probs, node.value = prior, value
                    self._backup(path, value)
        return [r.N.copy() for r in roots]

    @staticmethod
    def _backup(path: list, values: np.ndarray) -> None:
        for node, a, seat in path:
            node.N[a] += 1
            node.W[a] += float(values[seat])
            node.total += 1
