"""``python -m training.az --config training/configs/az_arena_2p.toml [--quick] [--workers N] [--seed S]
[--out-dir DIR] [--name NAME] [--no-progress]``: run the search-based self-play recipe (see
:mod:`training.az.loop`). A bad argument or config prints one ``error: ...`` line and exits with status 2."""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> dict:
    """Parse the command line, run the recipe, print the final results; returns the report."""
    from monolith_envs.core.seeds import seed_arg

    ap = argparse.ArgumentParser(prog="python -m training.az", description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="az_arena_2p.toml", help="recipe config (a path, or a name in "
                    "training/configs/)")
    ap.add_argument("--quick", action="store_true", help="apply the config's [quick] overrides (a short run)")
    ap.add_argument("--workers", type=int, default=None, help="worker processes (default: the config's)")
    ap.add_argument("--seed", type=seed_arg, default=None, help="seed (default: the config's)")
    ap.add_argument("--out-dir", default=None, help="root of run outputs (default: the config's out_dir)")
    ap.add_argument("--name", default=None, help="run name (default: the config file's stem)")
    ap.add_argument("--no-progress", action="store_true", help="no banners or bars")
    args = ap.parse_args(argv)
    from training.config import TrainConfigError

    from .config import load_az_config, validate_az

    try:
        cfg = load_az_config(args.config, quick=args.quick)
        over = {k: v for k, v in (("workers", args.workers), ("seed", args.seed), ("out_dir", args.out_dir),
                                  ("name", args.name)) if v is not None}
        cfg = validate_az({**cfg, **over})
        import monolith_envs

        monolith_envs.make_game(cfg["env_id"], **cfg["env_config"])
        from agents import make_agent

        for spec in cfg["eval_opponents"]:
            make_agent(spec, cfg["env_id"])
        if cfg["init_samples"]:
            from .selfplay import load_samples

            load_samples(cfg["init_samples"], monolith_envs.make_game(cfg["env_id"], **cfg["env_config"]))
        if cfg["init_checkpoint"]:
            from .loop import _initial_weights
            from .net import net_for_game

            _initial_weights(net_for_game(monolith_envs.make_game(cfg["env_id"], **cfg["env_config"]),
                                          tuple(cfg["hidden"])), cfg["init_checkpoint"])
    except (TrainConfigError, ValueError, KeyError) as e:
        ap.error(str(e))
    from . import run

    report = run(cfg, progress=not args.no_progress)
    out = {"run": report["run"], "final_model": report["final_model"], "total_seconds": round(report["total_seconds"]),
           "final_eval": {k: {"win_rate": v["win_rate"], "ci95": v["ci95"], "games": v["games"]}
                          for k, v in report.get("final_eval", {}).items()}}
    print(json.dumps(out, indent=2))
    return report


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:
        sys.exit(130)
