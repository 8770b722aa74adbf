"""The games of a range of slots of a vector env, stepped in place into the vector's arrays.

One :class:`Slots` runs the slots ``lo .. hi-1`` of a vector of ``N`` games: the whole vector in process
(``workers=0``), or one worker's share. It reads the actions from, and writes every result into, arrays of
the whole vector (``numpy`` arrays in process, views of shared memory in a worker), so nothing is copied
or sent back per step. The bookkeeping is that of :class:`~monolith_envs.core.aec.RulesAECEnv`, so each
slot plays exactly the game ``make(env_id, **config).reset(seed=...)`` plays with the same actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.base import GameBase
from ..core.chance import NoDrawRng
from ..core.game import IllegalActionError
from ..core.seeds import SEED_MODULUS  # game seeds wrap around at 2**128
from ._obs import row_writer

__all__ = ["Slots", "ARRAY_FIELDS", "array_shapes", "explain_illegal", "returns_lister", "mask_byter",
           "byte_rows"]

#: name -> dtype of every array a vector env shares with its slots.
ARRAY_FIELDS = {
    "observation": np.float32,
    "action_mask": np.bool_,
    "current_seat": np.int32,
    "rewards": np.float32,
    "terminated": np.bool_,
    "truncated": np.bool_,
    "final_returns": np.float32,
    "final_observation": np.float32,
    "actions": np.int64,
    "seat_observation": np.float32,
}


def array_shapes(num_envs: int, num_players: int, num_actions: int, obs_size: int) -> dict[str, tuple]:
    """The shape of each array of :data:`ARRAY_FIELDS` for a vector of ``num_envs`` games."""
    return {
        "observation": (num_envs, obs_size),
        "action_mask": (num_envs, num_actions),
        "current_seat": (num_envs,),
        "rewards": (num_envs, num_players),
        "terminated": (num_envs,),
        "truncated": (num_envs,),
        "final_returns": (num_envs, num_players),
        "final_observation": (num_envs, obs_size),
        "actions": (num_envs,),
        "seat_observation": (num_players, num_envs, obs_size),
    }


def returns_lister(game: Any) -> Any:
    """``f(state) -> list[float]``, the returns of every seat as a list: the game's own ``returns_list`` where
    it has one (no array built), else ``game.returns(state).tolist()``."""
    fast = getattr(game, "returns_list", None)
    return fast if callable(fast) else (lambda s: game.returns(s).tolist())


def mask_byter(game: Any) -> Any:
    """``f(state) -> bytes``, the legal actions as ``layout.n`` bytes of 0/1: the game's own
    ``legal_mask_bytes`` where it has one (no array built), else the bytes of ``game.legal_mask(state)``."""
    fast = getattr(game, "legal_mask_bytes", None)
    return fast if callable(fast) else (lambda s: GameBase.legal_mask_bytes(game, s))  # the default's definition


def byte_rows(rows: np.ndarray) -> list[memoryview]:
    """One writable byte view (``memoryview``, format ``B``) per row of a C-contiguous ``bool[k, n]`` array, so
    ``view[:] = mask_bytes`` copies a mask into its row with no array built."""
    return [memoryview(row).cast("B") for row in rows]


def explain_illegal(game: Any, state: Any, action: int, mask: np.ndarray) -> IllegalActionError:
    """The engine's own :class:`IllegalActionError` for the masked-out ``action`` (applied to a clone with
    a generator that refuses every draw, as the AEC env does), or a generic one naming the legal actions."""
    try:
        game.apply(game.clone(state), action, NoDrawRng("while rejecting an illegal action"))
    except IllegalActionError as exc:
        return exc
    except Exception:  # noqa: BLE001 - an engine that draws first (or fails) still gets a clear message
        pass
    return IllegalActionError(game.layout.decode(action), "not legal now", game.layout.names(mask))


class Slots:
    """Slots ``lo .. hi-1`` of a vector of ``num_envs`` games of ``game``, writing into ``arrays``.

    Args:
        game: the rules engine (one :class:`~monolith_envs.core.game.Game` shared by the slots).
        lo, hi: the slots this object runs.
        num_envs: N, the size of the whole vector (the seed of the k-th new game of slot i is
            ``seed + i + N * k``, modulo 2**128).
        arrays: the arrays of :data:`ARRAY_FIELDS`, shaped by :func:`array_shapes` for the whole vector.
    """

    def __init__(self, game: Any, lo: int, hi: int, num_envs: int, arrays: dict[str, np.ndarray]):
        self.game = game
        self.lo, self.hi, self.num_envs = lo, hi, num_envs
        self.a = arrays
        self.write_obs = row_writer(game)
        self.returns_list = returns_lister(game)
        self.mask_bytes = mask_byter(game)
        k = hi - lo
        self.states: list[Any] = [None] * k
        self.rngs: list[Any] = [None] * k
        self.decisions = [0] * k
        self.prev: list[list[float]] = [[0.0] * game.num_players for _ in range(k)]
        self.games = [0] * k  # games started in each slot since the last reset (the k of the seeds)
        self.seed = 0
        self.obs_rows = list(arrays["observation"][lo:hi])  # row views, made once
        self.mask_rows = byte_rows(arrays["action_mask"][lo:hi])  # written with the game's mask bytes
        self.final_rows = list(arrays["final_observation"][lo:hi])
        self.final_written: list[int] = []  # the local slots whose final_observation row the last step wrote
        self.seats: list[int] = [0] * k  # the seat to act in each local slot (what current_seat says)

    def _start(self, j: int) -> int:
        """Start the next game of local slot ``j``, write its first observation and mask; return its seat."""
        i = self.lo + j
        seed = (self.seed + i + self.num_envs * self.games[j]) % SEED_MODULUS  # a seed the episode log holds
        self.games[j] += 1
        rng = self.rngs[j] = np.random.default_rng(seed)
        game = self.game
        state = self.states[j] = game.initial_state(rng)
        self.decisions[j] = 0
        self.prev[j] = [0.0] * game.num_players
        seat = game.current_player(state)
        self.mask_rows[j][:] = self.mask_bytes(state)
        self.write_obs(state, seat, self.obs_rows[j])
        return seat

    def reset(self, seed: int) -> None:
        """Start game 0 of every slot: slot ``i`` with seed ``seed + i``; clear rewards and end flags."""
        lo, hi, a = self.lo, self.hi, self.a
        self.seed = seed
        for name in ("rewards", "terminated", "truncated", "final_returns", "final_observation"):
            a[name][lo:hi] = 0
        self.final_written = []
        seats = []
        for j in range(hi - lo):
            self.games[j] = 0
            seats.append(self._start(j))
        a["current_seat"][lo:hi] = seats
        self.seats = seats

    def illegal(self, j: int, action: int) -> IllegalActionError:
        """The error of the masked-out ``action`` in local slot ``j``, its message led by the game index (the
        legal actions named are the game's own, not the shared array the caller may have changed in place)."""
        i = self.lo + j
        exc = explain_illegal(self.game, self.states[j], action, self.game.legal_mask(self.states[j]))
        out = IllegalActionError(exc.asked, exc.why, "")
        out.args = (f"game {i} of {self.num_envs}: {exc}",)
        out.game_index = i
        out.action = action
        return out

    def step(self) -> None:
        """Apply ``arrays["actions"][lo:hi]`` (checked legal by the vector env's ``step`` against its copy of
        the masks), write rewards, end
        flags, final returns, and the next observation, mask and seat; a game that ends starts the slot's
        next game in the same step.

        The rewards, end flags and final returns of the slots are cleared whole first (the caller may have
        changed the arrays handed out in place), and the final observation rows the previous step wrote (a row
        is only meaningful where its game ended; clearing every row would cost a copy of the observation
        array per step); then
        the slots whose returns changed or whose game ended are written. A game that ends writes its last
        state, from the view of the seat that just acted, into its ``final_observation`` row."""
        game, a = self.game, self.a
        lo, hi = self.lo, self.hi
        acts = a["actions"][lo:hi].tolist()
        rewards, term, trunc, final = a["rewards"], a["terminated"], a["truncated"], a["final_returns"]
        rewards[lo:hi] = 0.0
        term[lo:hi] = False
        trunc[lo:hi] = False
        final[lo:hi] = 0.0
        final_rows, acting = self.final_rows, self.seats  # the seats to act, our copy (the caller may write theirs)
        for j in self.final_written:
            final_rows[j].fill(0.0)
        written = self.final_written = []
        apply, returns_list, is_terminal = game.apply, self.returns_list, game.is_terminal
        current_player, mask_bytes, write_obs = game.current_player, self.mask_bytes, self.write_obs
        limit = game.max_decisions
        states, rngs, decisions, prev = self.states, self.rngs, self.decisions, self.prev
        obs_rows, mask_rows = self.obs_rows, self.mask_rows
        seats = [0] * len(acts)
        for j, action in enumerate(acts):
            state = states[j]
            try:
                apply(state, action, rngs[j])
            except IllegalActionError as exc:  # allowed by the vector's copy of the masks, refused by the game
                err = self.illegal(j, action)
                err.add_note("the vector's copy of the previous masks allowed it: the mask and the game disagree")
                raise err from exc
            decisions[j] += 1
            ret = returns_list(state)
            p = prev[j]
            if ret != p:
                i = lo + j
                rewards[i] = [r - q for r, q in zip(ret, p)]
                prev[j] = ret
            if is_terminal(state):
                i = lo + j
                term[i] = True
            elif decisions[j] >= limit:
                i = lo + j
                trunc[i] = True
            else:
                seat = seats[j] = current_player(state)
                mask_rows[j][:] = mask_bytes(state)
                write_obs(state, seat, obs_rows[j])
                continue
            final[i] = ret
            write_obs(state, acting[j], final_rows[j])  # the last state, as the seat that just acted sees it
            written.append(j)
            seats[j] = self._start(j)
        a["current_seat"][lo:hi] = seats
        self.seats = seats

    def observe(self, seat: int) -> None:
        """Write seat ``seat``'s observation of each slot's game into ``arrays["seat_observation"][seat]``."""
        out = self.a["seat_observation"][seat]
        write = self.write_obs
        for j, state in enumerate(self.states):
            write(state, seat, out[self.lo + j])
