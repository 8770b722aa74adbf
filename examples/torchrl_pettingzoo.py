"""Random masked play of a Monolith env through TorchRL's ``PettingZooWrapper(use_mask=True)``.

    python examples/torchrl_pettingzoo.py                     # Arena duel: 2 games, then 200 steps on SerialEnv(2)
    python examples/torchrl_pettingzoo.py --env monolith_strategy_v0 --games 1 --serial-steps 0

Needs ``torchrl`` next to the CPU torch (``pip install "torchrl==0.14.1" "tensordict>=0.14.3,<0.15"`` after
torch: both then leave torch as it is).

TorchRL turns the AEC env into one TensorDict per step, with a group per seat (``player_0``, ...) holding
``observation``, ``action_mask`` (bool) and ``mask`` (True for the seat to act; only its action is played).
``use_mask=True`` is required for an AEC env, where one seat acts at a time.

Masks and batched envs.  A single ``PettingZooWrapper`` writes the legal actions into its action spec at
every step, so ``env.rand_action()`` and ``env.rollout(policy=None)`` play legal actions only.
``SerialEnv`` and ``ParallelEnv`` do not carry those per-env masks into their batched spec: their
``rand_action`` draws from the whole action space, and the game refuses the first illegal action with
``IllegalActionError``.  On a batched env, the policy must read ``action_mask`` from the TensorDict, as
:func:`masked_random_policy` does with TorchRL's ``MaskedCategorical`` (a learning policy does the same with
its logits).
"""

from __future__ import annotations

import argparse
import functools
import sys
import warnings

import torch
from torchrl.envs import PettingZooWrapper, SerialEnv
from torchrl.modules import MaskedCategorical

import monolith_envs
from monolith_envs.core.seeds import seed_arg_below

seed_arg = seed_arg_below(2**64 - 1, "2**64-1", "torch.manual_seed takes no more")  # argparse type of --seed

# TorchRL names the PettingZoo release it was tested with; the AEC API used here is the same in 1.24-1.27
warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested using version")


def make_env(env_id: str) -> PettingZooWrapper:
    """The AEC env of ``env_id`` (action masks in the observation dict, the default) as a TorchRL env."""
    return PettingZooWrapper(monolith_envs.make(env_id), use_mask=True)


def masked_random_policy(groups: list[str]):
    """A TorchRL policy (a callable on a TensorDict of any batch shape): for each group, a uniform draw over
    the legal actions of ``(group, "action_mask")``, written to ``(group, "action")`` (``int64``)."""

    def policy(td):
        for group in groups:
            mask = td.get((group, "action_mask"))
            td.set((group, "action"), MaskedCategorical(logits=torch.zeros(mask.shape), mask=mask).sample())
        return td

    return policy


def main(argv: list[str] | None = None) -> dict:
    """Play ``--games`` games on one env (``rand_action``), then ``--serial-steps`` steps on ``SerialEnv``.

    Returns ``{"returns": [[float per seat] per game], "decisions": [int per game], "serial_games": int}``.
    """
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--env", default="monolith_arena_v0", choices=monolith_envs.available_envs())
    ap.add_argument("--games", type=int, default=2, help="games on one env, played with env.rand_action (0: none)")
    ap.add_argument("--serial", type=int, default=2, help="envs in the SerialEnv")
    ap.add_argument("--serial-steps", type=int, default=200, help="steps on the SerialEnv (0: skip it)")
    ap.add_argument("--seed", type=seed_arg, default=0, help="seed of torch and the envs, 0 to 2**64-1")
    args = ap.parse_args(argv)
    for name in ("games", "serial", "serial_steps"):
        if getattr(args, name) < 0:
            ap.error(f"--{name.replace('_', '-')} must be 0 or more")
    if args.serial_steps and args.serial < 1:
        ap.error("--serial must be at least 1 to step a SerialEnv (--serial-steps 0 skips it)")

    torch.manual_seed(args.seed)
    env = make_env(args.env)
    env.set_seed(args.seed)
    groups = list(env.group_map)
    limit = monolith_envs.make_game(args.env).max_decisions + 1
    returns, decisions = [], []
    for _ in range(args.games):
        # one game: rand_action follows the mask of the spec, which a single env keeps current
        rollout = env.rollout(limit, break_when_any_done=True)
        returns.append([float(rollout["next", g, "reward"].sum()) for g in groups])
        decisions.append(int(rollout.batch_size[0]))
    if args.games:  # --games 0: the SerialEnv part alone
        print(f"{args.env}: played {args.games} game{'s' if args.games > 1 else ''} on PettingZooWrapper("
              f"use_mask=True), {sum(decisions)} decisions, every action legal; returns per game (seats "
              f"{', '.join(groups)}): " + "; ".join(" ".join(f"{r:+.2f}" for r in game) for game in returns))
    env.close()

    serial_games = 0
    if args.serial_steps:
        batched = SerialEnv(args.serial, functools.partial(make_env, args.env))
        batched.set_seed(args.seed)
        # a masked policy reads the mask from the TensorDict: SerialEnv's rand_action would ignore it
        rollout = batched.rollout(args.serial_steps, policy=masked_random_policy(groups),
                                  break_when_any_done=False)
        serial_games = int(rollout["next", "done"].sum())
        print(f"SerialEnv({args.serial}): {args.serial_steps} steps with masked_random_policy, "
              f"{serial_games} games finished, every action legal")
        batched.close()
    return {"returns": returns, "decisions": decisions, "serial_games": serial_games}


if __name__ == "__main__":
    main(sys.argv[1:])
