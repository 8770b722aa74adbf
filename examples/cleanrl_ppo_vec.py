"""Masked PPO with all-seat self-play on ``monolith_envs.make_vec``, in one file (CleanRL style).

    python examples/cleanrl_ppo_vec.py              # Arena duel: warm start, PPO, then 256 games vs random
    python examples/cleanrl_ppo_vec.py --total-decisions 4096 --warm-states 500 --eval-games 20   # a smoke run

One network plays every seat: at each step each game's acting seat picks from the masked policy given its own
observation, so every decision of every seat is a training sample. A seat's reward for a decision is what it
receives from that step until its next decision (or the end of its game); the advantage of a decision
(GAE) chains it to the same seat's next decision in the same game, and a game cut by the end of a rollout is
bootstrapped with the value of that seat's current observation (``vec.observe(seat)``). Illegal actions get
a logit of -1e8, so they are never sampled and carry no gradient. Each table of the observation (Arena's 19
hexes, the hand slots, ...) is encoded row by row with one shared layer (``--row-dim``; 0: a plain MLP).

PPO from scratch stalls on Arena at 60-75 % against random: it picks no better than random among the
placements (training/README.md, "Runs tried on the way"). Two uses of the game heuristic's state value
(``monolith_envs.agents.heuristics.value_fn_for``) fix that:

- **warm start** (``--warm-states``, 0: none): decision states from games in which one seat plays greedily on
  that value and the others at random; every legal action is scored by the value of the state it leads to,
  and the policy is fitted to ``softmax(value / --warm-tau)`` before PPO;
- **potential-based shaping** (``--shaping-coef``, 0: none): between two decisions of a seat its reward gains
  ``gamma * phi(next decision) - phi(this decision)``, ``phi`` = the coefficient x the value for that seat
  (0 once the game is over), which leaves the optimal policies unchanged (Ng, Harada & Russell 1999). The
  values are read from the in-process games with ``vec.game_states()``, so shaping needs ``--workers 0``.

Training games use ``--reward-mode`` (default ``win_loss``: +1 / -1 at the end); the evaluation games play
``win_loss``. After the warm start, at the end (and every ``--eval-every`` updates) the greedy policy plays
``--eval-games`` games against the uniform random player, taking each seat in turn, on seeds that no
training game used; the win rate and its 95 % Wilson interval are printed, and ``--json PATH`` writes the
curve. The worker processes (``--workers``) re-import this file: everything runs under
``if __name__ == "__main__":``.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from pathlib import Path
from typing import NoReturn

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import monolith_envs
from monolith_envs.agents.heuristics import value_fn_for
from monolith_envs.agents.model_files import ModelFileError, check_finite, read_capped, short_error
from monolith_envs.agents.pickle_limits import check_torch_file
from monolith_envs.agents.puct import check_loaded_outputs
from monolith_envs.core.interrupt import stop_on_signals
from monolith_envs.core.outfiles import (
    OutputPathError,
    check_output_file,
    new_folders_removed_on_error,
    write_bytes_atomic,
    write_text_atomic,
)
from monolith_envs.core.seeds import seed_arg_below

MAX_SEED = 2**64 - 1  # torch.manual_seed takes no more; the game seeds derived from it stay below 2**128-1


seed_arg = seed_arg_below(MAX_SEED, "2**64-1", "torch.manual_seed takes no more")  # argparse type of --seed


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    def bounded(kind, low, high):
        def parse(text: str):
            try:
                value = kind(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"expected a number from {low} to {high}, got {text[:40]!r}") from None
            if not low <= value <= high:
                raise argparse.ArgumentTypeError(f"expected a number from {low} to {high}, got {text[:40]!r}")
            return value
        return parse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--env", default="monolith_arena_v0", help="registered env id")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="config key of the env (JSON value), e.g. --set num_players=3")
    p.add_argument("--reward-mode", default="win_loss", choices=["score", "win_loss", "rank"],
                   help="reward_mode of the training games (score: the change of the score difference after every "
                        "step, a dense signal); the evaluation games always play win_loss")
    p.add_argument("--seed", type=seed_arg, default=1, help="seed of torch, numpy and the games, 0 to 2**64-1")
    p.add_argument("--total-decisions", type=bounded(int, 0, 10**9), default=204_800,
                   help="decisions played for training (all seats together), rounded down to whole rollouts; "
                        "0: no PPO update, only the evaluation (after the warm start, unless --load or "
                        "--warm-states 0)")
    p.add_argument("--num-envs", type=bounded(int, 1, 1024), default=32, help="games stepped together (make_vec N)")
    p.add_argument("--num-steps", type=bounded(int, 1, 4096), default=64, help="steps per rollout")
    p.add_argument("--workers", type=bounded(int, 0, 64), default=0, help="make_vec worker processes")
    p.add_argument("--lr", type=bounded(float, 1e-7, 1.0), default=2.5e-4, help="Adam step, annealed linearly to 0")
    p.add_argument("--gamma", type=bounded(float, 0.0, 1.0), default=0.99, help="discount per own decision")
    p.add_argument("--gae-lambda", type=bounded(float, 0.0, 1.0), default=0.95, help="GAE lambda")
    p.add_argument("--update-epochs", type=bounded(int, 1, 100), default=4, help="passes over each rollout")
    p.add_argument("--num-minibatches", type=bounded(int, 1, 1024), default=4, help="minibatches per pass")
    p.add_argument("--clip-coef", type=bounded(float, 0.0, 10.0), default=0.2, help="PPO ratio clip")
    p.add_argument("--ent-coef", type=bounded(float, 0.0, 10.0), default=0.01, help="entropy bonus weight")
    p.add_argument("--vf-coef", type=bounded(float, 0.0, 10.0), default=0.5, help="value loss weight")
    p.add_argument("--max-grad-norm", type=bounded(float, 0.0, 1e6), default=0.5, help="gradient norm clip")
    p.add_argument("--hidden", type=bounded(int, 1, 4096), default=256, help="width of the two hidden layers")
    p.add_argument("--row-dim", type=bounded(int, 0, 1024), default=32,
                   help="encoded size of one row of each table of the observation (one shared layer per table, "
                        "e.g. the 19 hexes of Arena); 0: the trunk reads the flat observation")
    p.add_argument("--shaping-coef", type=bounded(float, 0.0, 1000.0), default=5.0,
                   help="potential-based reward shaping: phi = this x the heuristic's state value for each seat, "
                        "paid between its decisions (0: none; needs --workers 0, the states are read from the "
                        "in-process games)")
    p.add_argument("--warm-states", type=bounded(int, 0, 100_000), default=40_000,
                   help="warm start: decision states scored with the game heuristic's state value of every legal "
                        "action, the policy fitted to softmax(value / --warm-tau) before PPO (0: start from scratch)")
    p.add_argument("--warm-tau", type=bounded(float, 1e-4, 100.0), default=0.02,
                   help="temperature of the warm start's soft targets (smaller: closer to the best action)")
    p.add_argument("--warm-epochs", type=bounded(int, 1, 1000), default=15, help="passes over the warm-start states")
    p.add_argument("--warm-lr", type=bounded(float, 1e-7, 1.0), default=1e-3, help="Adam step of the warm start")
    p.add_argument("--eval-games", type=bounded(int, 0, 100_000), default=256,
                   help="games against random at the start, after the warm start and at the end (rounded up to "
                        "whole rounds of 64 slots)")
    p.add_argument("--eval-policy", choices=["greedy", "sample"], default="greedy",
                   help="how the evaluated policy picks: its most likely legal action, or a draw from it")
    p.add_argument("--save", type=Path, metavar="PATH", help="save the network's weights (torch state dict)")
    p.add_argument("--load", type=Path, metavar="PATH", help="start from saved weights (no warm start)")
    p.add_argument("--eval-every", type=bounded(int, 0, 10**6), default=0, help="also evaluate every N updates (0: only at the end)")
    p.add_argument("--threads", type=bounded(int, 1, 256), default=1, help="torch CPU threads")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the settings and the win-rate curve")
    args = p.parse_args(argv)
    config = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key:
            p.error(f"--set expects KEY=VALUE, got {item[:40]!r}")
        try:
            config[key] = json.loads(value)
        except ValueError:
            config[key] = value
    args.config = {"reward_mode": args.reward_mode, **config}
    args.eval_config = {**args.config, "reward_mode": "win_loss"}
    if args.env not in monolith_envs.available_envs():
        p.error(f"unknown env id {args.env!r}; available: {', '.join(monolith_envs.available_envs())}")
    if args.workers > args.num_envs:
        p.error(f"--workers {args.workers} is more than --num-envs {args.num_envs}")
    if args.shaping_coef and args.workers:
        p.error(f"--shaping-coef reads the game states in this process: use --workers 0 (got {args.workers})")
    try:
        monolith_envs.make_game(args.env, **args.config)
    except monolith_envs.ConfigError as err:
        p.error(str(err))
    if args.save and args.json and args.save.absolute() == args.json.absolute():
        p.error(f"--save and --json name the same file {args.save}")
    try:  # before the training: a path that cannot be written ends the run now, not after it
        with new_folders_removed_on_error(*(f for f in (args.save, args.json) if f)):
            for option, path in (("--save", args.save), ("--json", args.json)):
                if path:
                    check_output_file(path, option)
    except OutputPathError as err:
        p.error(str(err))
    return args


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


def table_pieces(obs_spec, min_rows: int = 2, min_width: int = 8) -> list[tuple[int, int, int]]:
    """``[(offset, rows, width)]``: the pieces of ``obs_spec`` that are tables (2+ dimensions, at least
    ``min_rows`` rows of ``min_width`` values, e.g. Arena's 19 hexes x 143), which :class:`Agent` encodes row
    by row with one shared layer per table."""
    out = []
    for piece in obs_spec.pieces:
        if len(piece.shape) >= 2:
            width = int(piece.shape[-1])
            rows = int(piece.size // width)
            if rows >= min_rows and width >= min_width:
                out.append((int(piece.offset), rows, width))
    return out


class Agent(nn.Module):
    """Shared trunk, masked policy head over the flat action space, value head (seat-relative view).

    With ``pieces`` (from :func:`table_pieces`), each table of the observation goes through its own
    ``Linear(width, row_dim) + ReLU`` applied to every row (the same weights for the 19 hexes, the 12 hand
    slots, ...) and the trunk reads those encodings with the other values; without, the trunk reads the flat
    observation. ``trunk(obs float32[B, obs_size]) -> float32[B, hidden]``.
    """

    def __init__(self, obs_size: int, num_actions: int, hidden: int, pieces=(), row_dim: int = 32):
        super().__init__()
        self.pieces = [tuple(p) for p in pieces]
        covered = np.zeros(obs_size, bool)
        for offset, rows, width in self.pieces:
            covered[offset:offset + rows * width] = True
        self.register_buffer("rest", torch.from_numpy(np.flatnonzero(~covered)), persistent=False)
        self.rows = nn.ModuleList(nn.Sequential(layer_init(nn.Linear(width, row_dim)), nn.ReLU())
                                  for _, _, width in self.pieces)
        size = int((~covered).sum()) + sum(rows * row_dim for _, rows, _ in self.pieces)
        self.body = nn.Sequential(layer_init(nn.Linear(size, hidden)), nn.Tanh(),
                                  layer_init(nn.Linear(hidden, hidden)), nn.Tanh())
        self.actor = layer_init(nn.Linear(hidden, num_actions), std=0.01)
        self.critic = layer_init(nn.Linear(hidden, 1), std=1.0)

    def trunk(self, obs: torch.Tensor) -> torch.Tensor:
        if not self.pieces:
            return self.body(obs)
        parts = [obs[:, self.rest]]
        for (offset, rows, width), enc in zip(self.pieces, self.rows):
            parts.append(enc(obs[:, offset:offset + rows * width].reshape(-1, rows, width)).flatten(1))
        return self.body(torch.cat(parts, 1))

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.trunk(obs)).squeeze(-1)

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        """``(action, log-prob, entropy, value)``; illegal actions get a logit of -1e8."""
        h = self.trunk(obs)
        logits = self.actor(h).masked_fill(~mask, -1e8)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(h).squeeze(-1)


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal action per row of ``mask`` (one vectorised draw)."""
    n_envs, n = mask.shape
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // n, minlength=n_envs)
    pick = (rng.random(n_envs) * counts).astype(np.int64)
    return flat[np.cumsum(counts) - counts + pick] - np.arange(n_envs) * n


def collect_warm_states(game, value_fn, n_states: int, rng: np.random.Generator, label_share: float = 0.25):
    """Decision states scored with ``value_fn`` for every legal action (the warm start's data).

    Games are played from ``game.initial_state(rng)``; in each game one seat drawn at random (or none) plays
    the one-ply greedy policy on ``value_fn`` and the others play uniformly at random. Every decision of the
    greedy seat with more than one legal action is kept, and each such decision of the other seats with
    probability ``label_share``: every legal action is applied to a clone and scored by
    ``value_fn(game, child)[seat]``.

    Returns:
        ``(obs float16[n_states, m], masks bool[n_states, n], values float32[n_states, n])``: the acting
        seat's observation, the legal mask and the score of each legal action (0 where illegal).
    """
    m, n, P = game.obs_spec.size, game.layout.n, game.num_players
    obs = np.zeros((n_states, m), np.float16)
    masks = np.zeros((n_states, n), bool)
    values = np.zeros((n_states, n), np.float32)
    k = 0
    while k < n_states:
        state = game.initial_state(rng)
        greedy = int(rng.integers(P + 1))  # P: every seat plays at random
        for _ in range(game.max_decisions):
            if k == n_states or game.is_terminal(state):
                break
            seat = game.current_player(state)
            mask = game.legal_mask(state)
            legal = np.flatnonzero(mask)
            action = int(legal[rng.integers(legal.size)])
            if legal.size > 1 and (seat == greedy or rng.random() < label_share):
                scores = []
                for a in legal:
                    child = game.clone(state)
                    game.apply(child, int(a), rng)
                    scores.append(float(value_fn(game, child)[seat]))
                obs[k], masks[k], values[k, legal] = game.observe(state, seat), mask, scores
                k += 1
                if seat == greedy:
                    action = int(legal[int(np.argmax(scores))])
            game.apply(state, action, rng)
    return obs, masks, values


def distill(agent: "Agent", obs: np.ndarray, masks: np.ndarray, values: np.ndarray, tau: float, epochs: int,
            lr: float, rng: np.random.Generator, batch: int = 256) -> dict:
    """Fit the policy head (and trunk) to ``softmax(values / tau)`` over the legal actions, in place: the
    cross-entropy to that soft target, Adam with step ``lr``, ``epochs`` passes over all but a held-out tenth
    of the states (arrays as returned by :func:`collect_warm_states`).

    Returns:
        ``{"states", "loss" (mean of the last pass), "holdout_best" (share of held-out states whose most
        likely action has the best value)}``.
    """
    n = len(obs)
    order = rng.permutation(n)
    hold, fit = order[: n // 10], order[n // 10:]
    optimizer = torch.optim.Adam(agent.parameters(), lr=lr, eps=1e-5)

    def tensors(idx):
        mask = torch.from_numpy(masks[idx])
        target = torch.softmax(torch.from_numpy(values[idx] / tau).masked_fill(~mask, -1e9), dim=1)
        return torch.from_numpy(obs[idx].astype(np.float32)), mask, target

    losses = []
    for _ in range(epochs):
        losses = []
        perm = fit[rng.permutation(len(fit))]
        for s in range(0, len(perm), batch):
            x, mask, target = tensors(perm[s:s + batch])
            logp = torch.log_softmax(agent.actor(agent.trunk(x)).masked_fill(~mask, -1e8), dim=1)
            loss = -(target * logp).sum(1).mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
            losses.append(loss.item())
    best = 0
    with torch.no_grad():
        for s in range(0, len(hold), 1024):
            idx = hold[s:s + 1024]
            x, mask, _ = tensors(idx)
            pick = agent.actor(agent.trunk(x)).masked_fill(~mask, -1e8).argmax(1).numpy()
            got = values[idx, pick]
            top = np.where(masks[idx], values[idx], -np.inf).max(1)
            best += int((got >= top - 1e-6).sum())
    return {"states": n, "loss": float(np.mean(losses)) if losses else float("nan"),
            "holdout_best": best / max(len(hold), 1)}


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval ``(low, high)`` of a win rate of ``wins`` out of ``games`` (``(0, 1)``
    for no game)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * np.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, float(centre - half)), min(1.0, float(centre + half))  # no -0.0 from rounding at 0 wins


def eval_seed(args: argparse.Namespace) -> int:
    """The base seed of the evaluation games: ``10**6`` (the same games in every run) unless the training
    games could reach it; then the first seed after them. Training slot ``i`` plays its ``k``-th game with
    seed ``seed + i + N * k`` and a game takes at least one decision, so every training seed is below
    ``seed + N + total_decisions``; the evaluation uses ``min(eval_games, 64) * ceil(eval_games / 64)``
    seeds from its base."""
    n = max(1, min(args.eval_games, 64))
    used = n * -(-args.eval_games // n)
    train_end = args.seed + args.num_envs + args.total_decisions  # exclusive bound of the training seeds
    if 10**6 + used <= args.seed or 10**6 >= train_end:
        return 10**6
    return train_end


@torch.no_grad()
def evaluate(agent: Agent, args: argparse.Namespace, games: int, seed: int) -> dict:
    """The policy (greedy, or sampled with ``--eval-policy sample``) against the uniform random player: game slot ``i`` gives the policy seat
    ``i % P`` and the random player every other seat; each of ``min(games, 64)`` slots plays the same number
    of whole games, at least ``games`` in all (so short games are not over-counted). A win is a
    positive final return of the policy's seat (the evaluation games play ``reward_mode="win_loss"``)."""
    n = max(1, min(games, 64))
    rounds = -(-games // n)  # every slot plays this many whole games: n * rounds >= games are counted
    rng = np.random.default_rng(seed)
    wins = draws = done = 0
    with monolith_envs.make_vec(args.env, n, **args.eval_config) as vec:
        mine = np.arange(n) % vec.num_players
        counted = np.zeros(n, np.int64)
        res = vec.reset(seed=seed)
        while done < n * rounds:
            actions = random_actions(res.action_mask, rng)
            ours = np.flatnonzero(res.current_seat == mine)
            if ours.size:
                logits = agent.actor(agent.trunk(torch.from_numpy(res.observation[ours])))
                logits = logits.masked_fill(~torch.from_numpy(res.action_mask[ours]), -1e8)
                if args.eval_policy == "greedy":
                    actions[ours] = logits.argmax(1).numpy()
                else:
                    actions[ours] = Categorical(logits=logits).sample().numpy()
            res = vec.step(actions)
            for i in np.flatnonzero(res.terminated | res.truncated):
                if counted[i] < rounds:
                    counted[i] += 1
                    done += 1
                    r = res.final_returns[i, mine[i]]
                    wins += int(r > 0)
                    draws += int(r == 0)
    return {"games": done, "wins": wins, "draws": draws, "win_rate": wins / max(done, 1)}


def advantages(rewards, ended, seats, values, last_values, gamma: float, lam: float, potentials=None,
               last_potentials=None) -> np.ndarray:
    """GAE per (game slot, seat) chain of decisions, optionally with potential-based shaping.

    Args:
        rewards: ``float32[T, N, P]``, what each seat got from step t; ended: ``bool[T, N]``, the game ended on
            step t; seats: ``int[T, N]``, the seat that acted at step t; values: ``float32[T, N]``, the
            critic's value of that decision; last_values: ``float32[N, P]``, each seat's value of its view
            after the last step (the bootstrap of chains cut by the rollout's end).
        potentials: ``float32[T, N]``, the acting seat's potential phi of the state it decided in, or None
            (no shaping); last_potentials: ``float32[N, P]``, each seat's potential after the last step. A
            decision's reward then gains ``gamma * phi(its seat's next decision) - phi(this decision)``, with
            phi = 0 once the game is over (Ng, Harada & Russell 1999: the optimal policies stay the same).

    Returns:
        ``float32[T, N]`` advantages.
    """
    T, N, P = rewards.shape
    adv = np.zeros((T, N), np.float32)
    for i in range(N):
        next_val = last_values[i].astype(np.float64).copy()
        next_phi = np.zeros(P) if potentials is None else last_potentials[i].astype(np.float64).copy()
        next_adv = np.zeros(P)
        acc = np.zeros(P)
        for t in range(T - 1, -1, -1):
            if ended[t, i]:  # the steps after t belong to the slot's next game
                next_val[:] = 0.0
                next_phi[:] = 0.0
                next_adv[:] = 0.0
                acc[:] = 0.0
            acc += rewards[t, i]
            p = seats[t, i]
            phi = 0.0 if potentials is None else float(potentials[t, i])
            delta = acc[p] + gamma * next_phi[p] - phi + gamma * next_val[p] - values[t, i]
            a = delta + gamma * lam * next_adv[p]
            adv[t, i] = a
            next_val[p] = values[t, i]
            next_phi[p] = phi
            next_adv[p] = a
            acc[p] = 0.0
    return adv


def load_weights(agent: Agent, path: Path, obs_size: int) -> None:
    """Load ``--load PATH`` into ``agent``: a regular file (never a FIFO or device) of at most twice this
    network's weights, a torch zip of plain tensors read as weights only (data, never code), every weight
    finite, and the network's outputs finite for an observation of zeros and one of ones (finite weights can
    overflow it).  A refused file is one ``error: --load PATH: ...`` line on stderr.

    Raises:
        SystemExit: status 2, for a missing or unreadable file, a file that is not a saved network (not a
            torch zip, not a dict of tensors, the weights of another network), or weights or outputs that are
            not finite (NaN or inf).
    """
    def refuse(why: str) -> NoReturn:
        print(f"error: --load {path}: {why}", file=sys.stderr)
        raise SystemExit(2) from None

    hint = "save one with --save and the same --env, --hidden and --row-dim"
    cap = 2 * sum(t.numel() * t.element_size() for t in agent.state_dict().values()) + 2**20
    try:
        data = read_capped(path, cap)
    except (FileNotFoundError, ModelFileError) as err:
        print(f"error: --load: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    bad = check_torch_file(io.BytesIO(data))  # nesting and key sizes bounded before torch's unpickler runs
    if bad is not None:
        refuse(f"not a saved network of this example ({bad}); {hint}")
    try:
        state = torch.load(io.BytesIO(data), weights_only=True)
    except Exception as err:  # noqa: BLE001 - any unreadable file is the user's input
        refuse(f"not a saved network of this example ({short_error(err, 200)}); {hint}")
    if not (isinstance(state, dict) and state and all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                                      for k, v in state.items())):
        refuse(f"not a saved network of this example (a torch file of {type(state).__name__}, not the name -> "
               f"tensor dict that --save writes); {hint}")
    try:
        check_finite(state, f"--load {path}")
    except ModelFileError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    try:
        agent.load_state_dict(state)
    except Exception as err:  # noqa: BLE001 - any mismatched file is the user's input
        refuse(f"not weights of this network ({short_error(err, 300)}); {hint}")
    with torch.no_grad():
        h = agent.trunk(torch.stack([torch.zeros(obs_size), torch.ones(obs_size)]))
        outputs = agent.actor(h), agent.critic(h)
    try:
        check_loaded_outputs(f"--load {path}", *outputs, kind="network")
    except ModelFileError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from None


def train(args: argparse.Namespace) -> dict:
    t_start = time.perf_counter()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    T, N = args.num_steps, args.num_envs
    curve, stats, warm = [], [], None
    with monolith_envs.make_vec(args.env, N, workers=args.workers, **args.config) as vec:
        P, m, n = vec.num_players, vec.obs_size, vec.num_actions
        agent = Agent(m, n, args.hidden, table_pieces(vec.game.obs_spec) if args.row_dim else (), args.row_dim)
        if args.load:
            load_weights(agent, args.load, m)
        seed_eval = eval_seed(args)

        def report(label: str, decisions: int, phase: str) -> None:
            result = evaluate(agent, args, args.eval_games, seed=seed_eval)
            low, high = wilson(result["wins"], result["games"])
            curve.append({"decisions": decisions, "phase": phase, **result, "wilson_low": low, "wilson_high": high})
            what = "successes (solo: no opponent)" if P == 1 else "wins against random"
            print(f"{label}: {result['wins']}/{result['games']} {what} ({100 * result['win_rate']:.1f}%, "
                  f"95% Wilson {100 * low:.1f}-{100 * high:.1f}%, {phase})", flush=True)

        if args.eval_games:
            report("update 0", 0, "loaded" if args.load else "untrained")
        value_fn = value_fn_for(args.env)
        if args.warm_states and not args.load:
            t_warm = time.perf_counter()
            data = collect_warm_states(vec.game, value_fn, args.warm_states,
                                       np.random.default_rng([args.seed, 1]))
            t_fit = time.perf_counter()
            warm = distill(agent, *data, tau=args.warm_tau, epochs=args.warm_epochs, lr=args.warm_lr, rng=rng)
            del data
            warm.update(collect_seconds=t_fit - t_warm, fit_seconds=time.perf_counter() - t_fit)
            print(f"warm start: {warm['states']} states scored in {warm['collect_seconds']:.0f} s, fitted in "
                  f"{warm['fit_seconds']:.0f} s (loss {warm['loss']:.3f}; the best-valued action is the most likely "
                  f"on {100 * warm['holdout_best']:.1f}% of held-out states)", flush=True)
            if args.eval_games:
                report("warm start", 0, "warm start")
        optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
        obs = torch.zeros((T, N, m))
        masks = torch.zeros((T, N, n), dtype=torch.bool)
        actions = torch.zeros((T, N), dtype=torch.long)
        logprobs = torch.zeros((T, N))
        values = torch.zeros((T, N))
        rewards = np.zeros((T, N, P), np.float32)
        ended = np.zeros((T, N), bool)
        seats = np.zeros((T, N), np.int64)
        potentials = np.zeros((T, N), np.float32)
        rows = np.arange(N)

        def potential_all() -> np.ndarray:  # float32[N, P]: every seat's potential in every game
            return args.shaping_coef * np.array([value_fn(vec.game, s) for s in vec.game_states()], np.float32)

        res = vec.reset(seed=args.seed)
        phi = potential_all() if args.shaping_coef else None
        updates = args.total_decisions // (T * N)
        t0, games = time.perf_counter(), 0
        for update in range(1, updates + 1):
            optimizer.param_groups[0]["lr"] = args.lr * (1.0 - (update - 1) / updates)  # linear annealing
            for t in range(T):
                obs[t] = torch.from_numpy(res.observation)
                masks[t] = torch.from_numpy(res.action_mask)
                seats[t] = res.current_seat
                if phi is not None:
                    potentials[t] = phi[rows, seats[t]]
                with torch.no_grad():
                    action, logprob, _, value = agent.act(obs[t], masks[t])
                actions[t], logprobs[t], values[t] = action, logprob, value
                res = vec.step(action.numpy())
                rewards[t] = res.rewards
                ended[t] = res.terminated | res.truncated
                games += int(ended[t].sum())
                if phi is not None:
                    phi = potential_all()
            with torch.no_grad():
                last = np.stack([agent.value(torch.from_numpy(vec.observe(p))).numpy() for p in range(P)], 1)
            adv = torch.from_numpy(advantages(rewards, ended, seats, values.numpy(), last, args.gamma,
                                              args.gae_lambda, None if phi is None else potentials, phi))
            returns = adv + values
            b_obs, b_masks, b_actions = obs.reshape(T * N, m), masks.reshape(T * N, n), actions.reshape(-1)
            b_logprobs, b_adv, b_returns = logprobs.reshape(-1), adv.reshape(-1), returns.reshape(-1)
            batch = T * N
            mb = max(1, batch // args.num_minibatches)
            for _ in range(args.update_epochs):
                order = torch.from_numpy(rng.permutation(batch))
                for s in range(0, batch, mb):
                    idx = order[s:s + mb]
                    _, newlogprob, entropy, newvalue = agent.act(b_obs[idx], b_masks[idx], b_actions[idx])
                    logratio = newlogprob - b_logprobs[idx]
                    ratio = logratio.exp()
                    a = b_adv[idx]
                    a = (a - a.mean()) / (a.std() + 1e-8)
                    pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                    v_loss = 0.5 * ((newvalue - b_returns[idx]) ** 2).mean()
                    loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                    optimizer.step()
                    with torch.no_grad():
                        approx_kl = ((ratio - 1) - logratio).mean().item()
            decisions = update * T * N
            sps = decisions / (time.perf_counter() - t0)
            stats.append({"update": update, "decisions": decisions, "games": games, "value_loss": v_loss.item(),
                          "entropy": entropy.mean().item(), "approx_kl": approx_kl})
            print(f"update {update}/{updates}: {decisions} decisions, {games} games, {sps:.0f} decisions/s, "
                  f"value loss {v_loss.item():.3f}, entropy {entropy.mean().item():.2f}", flush=True)
            last_update = update == updates
            if args.eval_games and (last_update or (args.eval_every and update % args.eval_every == 0)):
                report(f"update {update}", decisions, "ppo")
        if args.save:  # written whole or not at all (a temporary file renamed over it)
            buf = io.BytesIO()
            torch.save(agent.state_dict(), buf)
            write_bytes_atomic(args.save, buf.getvalue())
    summary = {"env": args.env, "config": args.config, "seed": args.seed, "total_decisions": updates * T * N,
               "seconds": time.perf_counter() - t0, "total_seconds": time.perf_counter() - t_start,
               "warm_start": warm, "curve": curve, "updates": stats}
    print(f"done in {summary['total_seconds']:.0f} s ({summary['seconds']:.0f} s of PPO with its evaluations)",
          flush=True)
    if args.json:
        write_text_atomic(args.json, json.dumps(summary, indent=1))
    return summary


def main(argv: list[str] | None = None) -> int:
    """Run the example; returns the exit status (0, or 130 / 143 when stopped by Ctrl-C / SIGTERM)."""
    args = parse_args(argv)
    try:
        with stop_on_signals():  # the first Ctrl-C stops the run; the cleanup (closing the workers) then runs whole
            train(args)
    except KeyboardInterrupt as err:
        print("interrupted" + (" (--save and --json are written only at the end of a run)" if args.save or args.json
                               else ""), file=sys.stderr)
        return getattr(err, "exit_code", 130)
    return 0


if __name__ == "__main__":
    sys.exit(main())
