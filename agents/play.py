"""Play any registered game in the terminal against AI opponents.

Command line::

    python -m agents.play ENV_ID [--opponents mcts:400,heuristic] [--seat 0|random] [--seed S]
                                  [--set key=value ...] [--preload MODULE]

The person plays seat ``--seat`` (default 0); the other seats take the opponents in order (the list is
cycled if it is shorter than the number of opponent seats).  At each decision the board is shown as the
person's seat sees it, with the legal actions by readable name; type the action number, ``#position`` or
the name (a unique prefix is enough).
"""

from __future__ import annotations

import argparse
import importlib

import numpy as np

__all__ = ["main"]


def main(argv: list[str] | None = None, input_fn=input, output_fn=print):
    """Command-line entry point; ``input_fn``/``output_fn`` are injectable for tests.

    Returns the :class:`~agents.match.MatchResult`.
    """
    ap = argparse.ArgumentParser(prog="python -m agents.play", description=__doc__.split("\n\n")[0])
    ap.add_argument("env_id", help="registered env id, e.g. monolith_arena_v0")
    ap.add_argument("--opponents", default="heuristic", help="comma-separated agent specs for the other seats")
    ap.add_argument("--seat", default="0", help="your seat number, or 'random'")
    ap.add_argument("--seed", type=int, default=None, help="match seed (default: random)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="game config key")
    ap.add_argument("--preload", action="append", default=[], metavar="MODULE",
                    help="module to import first (registers extra env ids)")
    args = ap.parse_args(argv)
    for mod in args.preload:
        importlib.import_module(mod)
    import monolith_envs
    from agents import HumanAgent, make_agent, play_match
    from agents.match import seat_verdict
    from monolith_envs.core.config import parse_settings

    try:
        env = monolith_envs.make(args.env_id, **parse_settings(args.set))
    except (monolith_envs.MonolithEnvError, ValueError) as e:
        ap.error(str(e))
    n = env.unwrapped.game.num_players
    seed = args.seed if args.seed is not None else int(np.random.default_rng().integers(2**31))
    seat = int(np.random.default_rng(seed).integers(n)) if args.seat == "random" else int(args.seat)
    if not 0 <= seat < n:
        ap.error(f"--seat must be 0..{n - 1} or 'random'")
    specs = [s.strip() for s in args.opponents.split(",") if s.strip()] or ["random"]
    agents = []
    k = 0
    for s in range(n):
        if s == seat:
            agents.append(HumanAgent(input_fn, output_fn))
            continue
        try:
            agents.append(make_agent(specs[k % len(specs)], args.env_id))
        except (ValueError, FileNotFoundError) as e:
            ap.error(str(e))
        k += 1
    output_fn(f"{args.env_id}, seed {seed}: you are player_{seat}; opponents: "
              + ", ".join(f"player_{i}={a.name}" for i, a in enumerate(agents) if i != seat))
    res = play_match(env, agents, seed)
    raw = env.unwrapped
    output_fn(raw.game.render_text(raw.game_state, viewer=seat))
    verdict = {"win": "you win", "draw": "draw", "loss": "you lose", "success": "you reach the goal",
               "failure": "you miss the goal", "truncated": "truncated"}[seat_verdict(res, seat)]
    output_fn(f"game over after {res.decisions} decisions: returns {res.returns.tolist()} -> {verdict}")
    return res


if __name__ == "__main__":
    main()
