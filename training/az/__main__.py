"""``python -m training.az --config training/configs/az_arena_2p.toml [--quick] [--workers N] [--seed S]
[--out-dir DIR] [--name NAME] [--no-progress]``: run the search-based self-play recipe (see
:mod:`training.az.loop`). A bad argument or config prints one ``error: ...`` line and exits with status 2; Ctrl-C
or SIGTERM stops the run, ends its workers, says what was kept and exits with status 130 or 143.

The outputs go to ``<out_dir>/<name>/``: ``runs/az_arena_2p/`` for ``--config az_arena_2p.toml``, and
``runs/az_arena_2p_quick/`` with ``--quick`` (a name taken from the file's stem gets ``_quick``; a ``name`` in
the config or ``--name`` is used as it is). At the end the summary (JSON) is printed on stdout, then the path of
``final.pt`` and the ``training.evaluate`` commands that play it (one per opponent) on stderr."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from monolith_envs.agents.model_files import add_trust_argument, trust_models_from_args
from monolith_envs.core.cli import ArgumentParser, plain_doc


def _continue_command(argv: list[str]) -> str:
    """The command line that runs a copy of the config (``--config COPY``) as a new run (``--name NEW``),
    with the other arguments of ``argv``."""
    import shlex

    rest, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a in ("--config", "--name"):
            skip = True
        elif not a.startswith(("--config=", "--name=")):
            rest.append(a)
    return " ".join(["python -m training.az --config COPY", *map(shlex.quote, rest), "--name NEW"])


def _config_path(name: str) -> str:
    """The config file ``--config NAME`` reads (a bare name is looked up in ``training/configs/``)."""
    from pathlib import Path

    from training.config import config_file

    p = config_file(Path(name))
    try:
        p = p.relative_to(Path.cwd())
    except ValueError:  # outside the working folder: the path as it is
        pass
    return str(p)


def main(argv: list[str] | None = None) -> dict:
    """Parse the command line, run the recipe, print the final results; returns the report.

    On Ctrl-C or SIGTERM (:func:`~monolith_envs.core.interrupt.stop_on_signals`) the run stops at once, its
    worker processes are ended, it prints the stage and progress reached, the checkpoint and files kept and
    what to run next (:func:`training.az.loop.interrupted_message`), and exits with status 130 or 143.
    """
    from monolith_envs.core.interrupt import Interrupted, end_children, stop_on_signals

    argv = sys.argv[1:] if argv is None else list(argv)
    with stop_on_signals() as guard:
        try:
            report, args = _main(argv, guard)
        except Interrupted as e:
            import shlex

            from .loop import interrupted_message

            end_children()
            args = e.info.get("args")
            command = " ".join(["python -m training.az", *map(shlex.quote, argv)])
            print("\n" + interrupted_message(e, command, _config_path(getattr(args, "config", "CONFIG")),
                                             bool(getattr(args, "quick", False)), _continue_command(argv)),
                  file=sys.stderr, flush=True)
            sys.exit(e.exit_code)
    out = {"run": report["run"], "final_model": report["final_model"], "total_seconds": round(report["total_seconds"]),
           "final_eval": {k: {"win_rate": v["win_rate"], "ci95": v["ci95"], "games": v["games"]}
                          for k, v in report.get("final_eval", {}).items()}}
    print(json.dumps(out, indent=2), flush=True)
    print(final_lines(report), file=sys.stderr, flush=True)
    return report


def evaluate_commands(report: dict) -> list[str]:
    """The ``training.evaluate`` commands that play the run's ``final.pt`` (``az:PATH``) in the run's game config:
    one per opponent of its ``eval_opponents`` (``training.evaluate`` plays every pair of the agents it is
    given, so one command naming them all would also play the opponents against each other), or one that
    plays it alone in a one-seat game (:func:`training.progress.evaluate_command` writes each)."""
    import monolith_envs
    from training.progress import evaluate_command as command

    env_config = report.get("env_config") or {}
    if monolith_envs.make_game(report["env_id"], **env_config).num_players == 1:
        return [command(report, report["final_model"], "az", [])]
    opponents = list(report.get("config", {}).get("eval_opponents") or ["random"])
    return [command(report, report["final_model"], "az", [opp]) for opp in dict.fromkeys(opponents)]


def final_lines(report: dict) -> str:
    """The last lines of a finished run: where ``final.pt`` is and the command (one per opponent) that
    evaluates it."""
    commands = evaluate_commands(report)
    if len(commands) == 1:
        evaluate = f"evaluate it: {commands[0]}"
    else:
        evaluate = "\n".join(["evaluate it against each opponent (one command each):", *(f"  {c}" for c in commands)])
    return (f"final model: {report['final_model']}\n{evaluate}\n"
            f"  (add +search:N to the az: spec to play it with its own search, e.g. az:PATH+search:32)")


def _main(argv: list[str], guard: Any) -> tuple[dict, argparse.Namespace]:
    from monolith_envs.core.interrupt import Interrupted
    from monolith_envs.core.seeds import seed_arg

    ap = ArgumentParser(prog="python -m training.az", description=plain_doc(__doc__.split("\n\n")[0]),
                        epilog=plain_doc(__doc__.split("\n\n")[1]))
    ap.add_argument("--config", default="az_arena_2p.toml", help="recipe config: a path, or a name in "
                    "training/configs/, with or without .toml (default: training/configs/az_arena_2p.toml, the full Arena duel recipe; "
                    "with --quick its short run)")
    ap.add_argument("--quick", action="store_true", help="apply the config's [quick] overrides (a short run; a "
                    "config without a [quick] table is refused); a run name taken from the file's stem gets '_quick' (runs/az_arena_2p_quick/ for "
                    "az_arena_2p.toml)")
    ap.add_argument("--workers", type=int, default=None, help="worker processes (default: the config's)")
    ap.add_argument("--seed", type=seed_arg, default=None, help="seed (default: the config's)")
    ap.add_argument("--out-dir", default=None, help="root of run outputs (default: the config's out_dir, "
                    "runs)")
    ap.add_argument("--name", default=None, help="run name; outputs go to <out-dir>/<name>/ (default: the "
                    "config's name, else the config file's stem plus '_quick' with --quick, e.g. az_arena_2p or "
                    "az_arena_2p_quick)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override a config key, after --quick's overrides (VALUE as TOML; table entries: "
                         "env_config.num_players=4); repeatable")
    ap.add_argument("--no-progress", action="store_true", help="no banners or bars")
    add_trust_argument(ap)  # the model files of ppo:PATH evaluation opponents
    args = ap.parse_args(argv)
    trust_models_from_args(args)
    from training.config import TrainConfigError

    try:
        cfg = _checked_config(args)
    except (TrainConfigError, ValueError, KeyError) as e:
        ap.error(str(e))
    from . import run

    try:
        return run(cfg, progress=not args.no_progress, guard=guard), args
    except Interrupted as e:
        e.info["args"] = args
        raise


def _checked_config(args: argparse.Namespace) -> dict:
    """The validated config of the command line, its game, opponents, run folder and init files checked.

    Raises:
        TrainConfigError, ValueError: naming the key or file and what is allowed.
    """
    from pathlib import Path

    from training.config import apply_overrides

    from .config import AZ_KEYS, load_az_config, validate_az

    cfg = load_az_config(args.config, quick=args.quick)
    if args.set:
        cfg = apply_overrides(cfg, args.set, {k.name: k for k in AZ_KEYS}, validate_az)
    over = {k: v for k, v in (("workers", args.workers), ("seed", args.seed), ("out_dir", args.out_dir),
                              ("name", args.name)) if v is not None}
    cfg = validate_az({**cfg, **over})
    from training.config import TrainConfigError

    if not cfg["name"]:
        raise TrainConfigError("config key 'name': must not be empty (outputs go to <out_dir>/<name>/)")
    import monolith_envs
    from monolith_envs.core.config import short_repr
    from monolith_envs.core.outfiles import OutputPathError, check_output_dir

    try:
        game = monolith_envs.make_game(cfg["env_id"], **cfg["env_config"])
    except (monolith_envs.MonolithEnvError, ValueError, TypeError) as e:
        key = "env_id" if isinstance(e, monolith_envs.UnknownEnvError) else "env_config"
        raise TrainConfigError(f"config key {key!r}: {e}") from None
    if game.num_players > 1 and not cfg["eval_opponents"]:
        raise TrainConfigError("config key 'eval_opponents': empty; the evaluations need at least one opponent "
                               "agent spec, e.g. ['random', 'heuristic']")
    from agents import make_agent

    for spec in cfg["eval_opponents"]:
        try:
            make_agent(spec, cfg["env_id"], cfg["env_config"], unattended=True)
        except Exception as e:  # noqa: BLE001  (any failure to build a named agent is a config error)
            raise TrainConfigError(f"config key 'eval_opponents': agent spec {short_repr(spec)}: {e}") from None
    from .loop import check_opponent_files

    check_opponent_files(cfg)
    if cfg["init_samples"]:
        from .selfplay import load_samples

        load_samples(cfg["init_samples"], game)
    if cfg["init_checkpoint"]:
        from .loop import _initial_weights
        from .net import net_for_game

        _initial_weights(net_for_game(game, tuple(cfg["hidden"])), cfg["init_checkpoint"])
    from training.config import check_no_comma

    check_no_comma(Path(cfg["out_dir"]) / cfg["name"])
    try:  # the run folder, last of the checks, before any work (a file in the way, a folder that cannot be written)
        check_output_dir(Path(cfg["out_dir"]) / cfg["name"], "config key 'out_dir':", "the run's outputs")
    except OutputPathError as e:
        raise TrainConfigError(str(e)) from None
    return cfg


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:  # before the handlers are installed (while importing)
        sys.exit(130)
