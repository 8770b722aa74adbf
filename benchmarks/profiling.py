"""Profile the AEC loop or the engine loop of an env with cProfile.

``python -m benchmarks.profiling --env monolith_arena_v0 [--set key=value ...] [--loop aec|engine|engine_obs]
[--seconds 10] [--top 25] [--out FILE]``

Prints the functions with the largest own time (share of the total, calls, µs per call, cumulative share)
and the own time per source file. cProfile adds a roughly constant cost per Python call, so shares of
functions that make many tiny calls are overstated; use ``py-spy record`` for a sampling view.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
from collections import defaultdict
from pathlib import Path

from monolith_envs.core.cli import ArgumentParser, game_settings, import_modules
from monolith_envs.core.interrupt import Interrupted, stop_on_signals
from monolith_envs.core.outfiles import EarlierOutput, OutputPathError, check_output_file, write_text_atomic
from monolith_envs.core.seeds import seed_arg

from .loops import AecRunner, EngineRunner
from .vector import SET_HELP, env_config_error, number_arg

#: ``--seconds`` (wall seconds profiled) and ``--top`` (rows of the function table): (low, high)
SECONDS, TOP = (0.05, 3600.0), (1, 1000)

__all__ = ["format_profile", "main", "profile_loop"]


def profile_loop(env_id: str, config: dict, loop: str = "aec", seconds: float = 10.0, seed: int = 0,
                 warmup: float = 1.0) -> tuple[pstats.Stats, int]:
    """Run the chosen loop under cProfile for about ``seconds``.

    Args:
        loop: ``"aec"`` (wrapped env, ``agent_iter``/``last``/``step``), ``"aec_raw"`` (bare env),
            ``"engine"`` (``legal_mask`` + ``apply``) or ``"engine_obs"`` (plus ``observe``).

    Returns:
        ``(stats, decisions)``.
    """
    import monolith_envs

    if loop in ("aec", "aec_raw"):
        runner = AecRunner(monolith_envs.make(env_id, wrapped=(loop == "aec"), **config), seed)
    elif loop in ("engine", "engine_obs"):
        runner = EngineRunner(monolith_envs.make_game(env_id, **config), seed, observe=(loop == "engine_obs"))
    else:
        raise ValueError(f"unknown loop {loop!r}; use aec, aec_raw, engine or engine_obs")
    runner.run(warmup)
    prof = cProfile.Profile()
    prof.enable()
    decisions, _games, _t = runner.run(seconds)
    prof.disable()
    return pstats.Stats(prof), decisions


def _short(path: str) -> str:
    p = path.replace("\\", "/")
    for marker in ("/site-packages/", "/monolith_envs/", "/benchmarks/"):
        if marker in p:
            head = marker.strip("/") + "/" if marker != "/site-packages/" else ""
            return head + p.split(marker, 1)[1]
    return p


#: what an earlier ``--out`` looks like: only such a file is replaced (a file given by mistake is refused)
PROFILE_OUTPUT = EarlierOutput("a profile written by benchmarks.profiling", "", " loop=", "profiled decisions: ",
                               "per decision (with profiler overhead)")


def format_profile(stats: pstats.Stats, decisions: int, top: int = 25) -> str:
    """Text tables: top functions by own time, and own time per file, as shares of the profiled total."""
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values()) or 1e-12
    out = io.StringIO()
    out.write(f"profiled decisions: {decisions}; total own time {total:.3f} s; "
              f"{total / max(1, decisions) * 1e6:.1f} µs per decision (with profiler overhead)\n\n")
    out.write(f"{'own %':>6} {'cum %':>6} {'calls':>10} {'calls/dec':>9} {'µs/call':>8}  function\n")
    rows = sorted(raw.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    for (file, line, func), (_cc, nc, tt, ct, _callers) in rows:
        where = f"{_short(file)}:{line}" if file != "~" else "builtin"
        out.write(f"{100 * tt / total:6.1f} {100 * ct / total:6.1f} {nc:10d} {nc / max(1, decisions):9.2f} "
                  f"{tt / max(1, nc) * 1e6:8.2f}  {func} ({where})\n")
    per_file: dict[str, float] = defaultdict(float)
    for (file, _line, _func), v in raw.items():
        per_file[_short(file) if file != "~" else "builtins"] += v[2]
    out.write(f"\n{'own %':>6}  file\n")
    for f, t in sorted(per_file.items(), key=lambda kv: kv[1], reverse=True)[:15]:
        out.write(f"{100 * t / total:6.1f}  {f}\n")
    return out.getvalue()


def main(argv: list[str] | None = None) -> str:
    """Command line entry point; prints (and optionally writes) the profile tables.

    Bad input is one ``error:`` line and exit status 2, before anything is profiled; Ctrl-C (SIGINT) or
    SIGTERM stops with a message and exit status 130 or 143 (nothing written).
    """
    ap = ArgumentParser(prog="python -m benchmarks.profiling", description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="monolith_arena_v0", metavar="ID",
                    help="registered env id to profile (default monolith_arena_v0; --import can register more)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help=SET_HELP + " (repeatable)")
    ap.add_argument("--loop", default="aec", choices=["aec", "aec_raw", "engine", "engine_obs"],
                    help="aec: wrapped env (agent_iter/last/step), aec_raw: bare env, engine: legal_mask + apply, "
                         "engine_obs: plus observe (default aec)")
    ap.add_argument("--seconds", type=number_arg(float, *SECONDS), default=10.0,
                    help="wall seconds profiled, after a 1 s warm-up, a number from %g to %g (default 10)" % SECONDS)
    ap.add_argument("--top", type=number_arg(int, *TOP), default=25,
                    help="rows of the function table (largest own time first), an integer from %d to %d "
                         "(default 25)" % TOP)
    ap.add_argument("--seed", type=seed_arg, default=0,
                    help="base seed of the games and the random actions, an integer from 0 to 2**128-1 (default 0)")
    ap.add_argument("--import", action="append", dest="imports", default=[], metavar="MODULE",
                    help="import MODULE first, e.g. one that registers an extra env id (repeatable)")
    ap.add_argument("--out", type=Path, metavar="FILE", help="also write the tables to this file (checked before profiling)")
    args = ap.parse_args(argv)
    try:
        import_modules(args.imports, "--import")
        cfg = game_settings(args.set)
    except (ImportError, ValueError) as exc:
        ap.error(str(exc) if isinstance(exc, ImportError) else f"--set: {exc}")
    problem = env_config_error(args.env, cfg)
    if problem:
        ap.error(problem)
    if args.out:
        try:
            check_output_file(args.out, "--out", PROFILE_OUTPUT)
        except OutputPathError as exc:
            ap.error(str(exc))
    try:
        with stop_on_signals():
            stats, decisions = profile_loop(args.env, cfg, args.loop, args.seconds, args.seed)
    except Interrupted as exc:
        print(f"interrupted by {exc.name} while profiling; nothing printed or written", file=sys.stderr, flush=True)
        sys.exit(exc.exit_code)
    text = f"{args.env} {cfg or ''} loop={args.loop}\n" + format_profile(stats, decisions, args.top)
    print(text)
    if args.out:
        write_text_atomic(args.out, text)
        print(f"wrote {args.out}", file=sys.stderr)
    return text


if __name__ == "__main__":
    main()
