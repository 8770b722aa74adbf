"""Random masked play of a Monolith env through Tianshou's ``PettingZooEnv``, one masked random policy per seat.

    python examples/tianshou_pettingzoo.py                     # Arena duel, 2 games on DummyVectorEnv(2)
    python examples/tianshou_pettingzoo.py --env monolith_strategy_v0 --games 1 --envs 1

Needs ``tianshou`` next to the CPU torch.  Tianshou 2.0.1 pins ``pandas<3`` and a few heavy tools that its
env and collector do not use; to keep torch and the other packages as they are, install it without its
dependencies, then the small ones these modules import:
``pip install --no-deps tianshou==2.0.1 deepdiff==7.0.1 ordered-set==4.1.0 overrides==7.7.0
sensai-utils==1.6.0 h5py==3.16.0 numba==0.68.1 llvmlite==0.50.0`` (tested with numpy 2.4 and torch 2.13).

``PettingZooEnv`` reads the mask from the observation dict (``{"observation", "action_mask"}``, the AEC env's
default ``mask_in="observation"``) and hands the policy ``obs.mask``; with ``mask_in="info"`` it would see no
mask and allow every action.  ``MARLRandomDiscreteMaskedOffPolicyAlgorithm`` draws among the legal actions,
and ``MultiAgentOffPolicyAlgorithm`` gives each seat its own algorithm (a learning one replaces it the same way).
The returns are one column per seat.
"""

from __future__ import annotations

import argparse
import functools
import logging
import sys

import numpy as np
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector
from tianshou.env import DummyVectorEnv, PettingZooEnv

import monolith_envs
from monolith_envs.core.seeds import MAX_SEED, seed_arg

# the returns have one column per seat; Tianshou's summary statistics warn that they flatten them
logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)


def make_env(env_id: str) -> PettingZooEnv:
    """The AEC env of ``env_id`` (action masks in the observation dict) as a Tianshou multi-agent env."""
    return PettingZooEnv(monolith_envs.make(env_id))


def main(argv: list[str] | None = None) -> dict:
    """Collect ``--games`` games on ``DummyVectorEnv(--envs)`` with a masked random policy per seat.

    Returns ``{"returns": float[games, seats], "lens": int[games]}`` (Tianshou's ``CollectStats``).
    """
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--env", default="monolith_arena_v0", choices=monolith_envs.available_envs())
    ap.add_argument("--games", type=int, default=2, help="games to collect")
    ap.add_argument("--envs", type=int, default=2, help="envs in the DummyVectorEnv")
    ap.add_argument("--seed", type=seed_arg, default=0)
    args = ap.parse_args(argv)
    if args.games < 1 or args.envs < 1:
        ap.error("--games and --envs must be at least 1")
    if args.seed + args.envs - 1 > MAX_SEED:  # env i is seeded with --seed + i
        ap.error(f"--seed must be at most 2**128-{args.envs} with --envs {args.envs}: env i plays seed --seed + i, "
                 "and a seed is at most 2**128-1")

    np.random.seed(args.seed % 2**32)  # the masked random policy draws from numpy's global generator
    env = make_env(args.env)
    algorithms = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents]
    marl = MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)
    envs = DummyVectorEnv([functools.partial(make_env, args.env) for _ in range(args.envs)])
    envs.seed([args.seed + i for i in range(args.envs)])
    collector = Collector(marl.policy, envs)
    collector.reset()
    stats = collector.collect(n_episode=args.games)
    returns = np.asarray(stats.returns, np.float64).reshape(args.games, -1)
    lens = np.asarray(stats.lens, np.int64)
    print(f"{args.env}: collected {args.games} games on DummyVectorEnv({args.envs}) with a masked random policy "
          f"per seat, {int(lens.sum())} decisions, every action legal; returns per game (seats "
          f"{', '.join(env.agents)}): " + "; ".join(" ".join(f"{r:+.2f}" for r in row) for row in returns))
    envs.close()
    return {"returns": returns, "lens": lens}


if __name__ == "__main__":
    main(sys.argv[1:])
