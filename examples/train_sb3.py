"""Train your own MaskablePPO agent on a Monolith env with plain SB3 calls, then evaluate it against random.

    python examples/train_sb3.py                         # Monolith Arena duel, 20k steps, 100 games
    python examples/train_sb3.py --steps 2000 --games 10 --out runs/my_agent

The learner sees one seat of the game through :class:`training.wrapper.SingleAgentEnv` (the other seats are
played inside ``step`` by the opponent agents); ``MaskablePPO`` reads the legal actions from the env's
``action_masks()``.  The evaluation runs :func:`training.evaluate.run_pairing` on spawned worker processes,
which import this file again: everything below stays under ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env

from agents import RandomAgent
from training.evaluate import run_pairing
from training.wrapper import SingleAgentEnv


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--env", default="monolith_arena_v0", help="registered env id")
    ap.add_argument("--steps", type=int, default=20_000, help="MaskablePPO learner steps")
    ap.add_argument("--games", type=int, default=100, help="evaluation games against random")
    ap.add_argument("--workers", type=int, default=2, help="evaluation worker processes (spawned)")
    ap.add_argument("--out", default="runs/sb3_example", help="output folder of the model")
    args = ap.parse_args(argv)

    # SB3's checker steps with actions drawn from the whole action space, illegal ones included; with
    # illegal_action="penalize" such an action ends the episode with -1 instead of raising. Train with the
    # default ("raise"): MaskablePPO only ever picks legal actions.
    check_env(SingleAgentEnv(args.env, [RandomAgent()], {"illegal_action": "penalize"}, seed=0))

    env = SingleAgentEnv(args.env, [RandomAgent()], seed=0)  # the learner's seat rotates over episodes
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, policy_kwargs={"net_arch": [64, 64]},
                        seed=0, device="cpu", verbose=0)
    model.learn(args.steps)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model.save(out / "model.zip")

    result = run_pairing(args.env, f"ppo:{out / 'model.zip'}", "random", args.games, seed=0, workers=args.workers)
    s = result.summary()
    print(f"{args.env}: after {args.steps} steps the agent won {s['wins']} of {s['games']} games against random "
          f"({s['win_rate']:.1%}, 95% CI {s['ci95'][0]:.1%}-{s['ci95'][1]:.1%}); model: {out / 'model.zip'}")
    return s


if __name__ == "__main__":  # required: the spawned evaluation workers import this module
    main()
