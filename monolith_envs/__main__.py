"""Command line: ``python -m monolith_envs {list,info,fuzz,replay,check,playthrough} ...`` (also installed as
``monolith-envs``).

Exit status: 0 success; 1 a fuzz run or ``check`` found a failure, a ``playthrough`` differs from the stored
one, or a replay ended with a broken invariant, met an exception of the engine (e.g. the log of such a fuzz
failure; ``--html`` writes the page up to it), or saw the per-step check its note names (a fuzz failure's log) fail
again at its last position (the check runs on copies of it, so the log's actions stop before it); 2 bad input
(bad arguments, a bad ``--config``, a malformed or non-replaying episode log, an output path that cannot be
written), reported on one line ``error: ...`` on stderr, never as a traceback; 130 / 143 stopped by Ctrl-C
(SIGINT) / SIGTERM (fuzz first stops its workers and prints the summary of what ran).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any


def _config(text: str | None) -> dict:
    """``--config`` JSON text as a dict (argparse ``type``: a bad value is a usage error, exit status 2)."""
    if not text:
        return {}
    try:
        cfg = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        why = f"{exc.msg} at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else "unreadable"
        raise argparse.ArgumentTypeError(f"not valid JSON ({why}): {text[:80]!r}") from None
    if not isinstance(cfg, dict):
        raise argparse.ArgumentTypeError(f"must be a JSON object like '{{\"num_players\": 3}}', got {text[:80]!r}")
    from monolith_envs.core.cli import check_game_config

    try:
        return check_game_config(cfg, "--config")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _int_at_least(lo: int, hi: int | None = None):
    def parse(text: str) -> int:
        try:
            v = int(text) if len(text) <= 40 else None
        except ValueError:
            v = None
        if v is None:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not an integer") from None
        if v < lo:
            raise argparse.ArgumentTypeError(f"{v} is below {lo}; expected an integer >= {lo}")
        if hi is not None and v > hi:
            raise argparse.ArgumentTypeError(f"{v} is above {hi:_}; expected an integer from {lo} to {hi:_}")
        return v

    parse.__name__ = f"int>={lo}" if hi is None else f"int in {lo}..{hi}"
    return parse


#: the default --timeout of fuzz (each rollout) and check (each episode and check), in seconds: far above any
#: game of the package (a checked episode takes seconds), so only a game method that never returns meets it
DEFAULT_TIMEOUT = 300.0


def _timeout(text: str) -> float | None:
    """``--timeout``: a positive number of seconds, or ``none`` (no limit)."""
    from monolith_envs.core.deadline import MAX_TIMEOUT

    if text.strip().lower() == "none":
        return None
    try:
        v = float(text) if len(text) <= 40 else None
    except ValueError:
        v = None
    if v is None or not 0 < v <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a positive number of seconds up to {MAX_TIMEOUT:g} "
                                         "(or none: no limit)")
    return v


_TIMEOUT_HELP = ("seconds {what} may take before it fails as timeout, naming where the game's code was (a method "
                 "that never returns); none: no limit")


def _preload(modules: list[str]) -> None:
    """Import each ``--preload`` module (it may register envs with ``monolith_envs.register``).

    Raises:
        MonolithEnvError: a module that cannot be imported, or a name that is not a module name.
    """
    from monolith_envs.core.cli import import_modules
    from monolith_envs.core.game import MonolithEnvError

    try:
        import_modules(modules, "--preload")
    except ImportError as exc:
        raise MonolithEnvError(str(exc)) from None


def _same_file(a: str, b: str) -> bool:
    """``a`` and ``b`` name the same file (through links too); False when ``a`` does not exist yet."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _one_line(exc: BaseException) -> str:
    """The message on one line, control characters escaped (it may quote a file's contents), at most
    1,000 characters."""
    from monolith_envs.core.cli import one_line

    return one_line(exc, 1000)


def _note_line(note: str, limit: int = 300) -> str:
    """The first non-blank line of a log's note, cut to ``limit`` characters, control characters escaped, and
    how many more lines the note holds."""
    from monolith_envs.core.replay import printable

    lines = [ln for ln in note.splitlines() if ln.strip()]
    line, more = lines[0], len(lines) - 1
    return (printable(line if len(line) <= limit else line[:limit] + "...")
            + (f" (+{more} more line{'s' if more > 1 else ''} in the log's note)" if more else ""))


def _check_again(note: str, game: Any, state: Any, seed: int) -> int:
    """The replay's exit status after its last action, when the log's note names a per-step check of fuzz
    (``[masked_actions_apply] ...``: fuzz writes its failure so). Such a check ran on copies of the last
    position, so the log's actions do not hold what failed: the check runs again there, trying every action
    (legal and masked out) instead of fuzz's sample, and says what it finds: 1 when it fails again, else 0."""
    import numpy as np

    from monolith_envs.core.replay import printable
    from monolith_envs.core.state_checks import STEP_CHECKS, StepCheckFailure, step_checks

    check = note[1:note.find("]")] if note.startswith("[") and "]" in note else ""
    if check not in STEP_CHECKS:
        return 0
    rng = np.random.default_rng([seed, 2])
    try:
        step_checks(game, state, rng, [check], sample=game.layout.n)
    except StepCheckFailure as exc:
        print(f"the note's check [{check}] fails again at this position (it runs on copies of the position, so "
              f"the log's actions stop before it): {printable(exc.detail[:1000])}")
        return 1
    except Exception as exc:  # noqa: BLE001 - the engine's own failure inside the check
        print(f"the note's check [{check}] raised at this position: {type(exc).__name__}: "
              f"{printable(str(exc)[:1000])}")
        return 1
    if check == "hidden_info":  # its resamples drew from fuzz's checking generator, advanced by every step before
        print(f"the note's check [{check}] did not fail again at this position (fuzz resampled the hidden "
              "information with a generator that every earlier step had advanced, which a replay does not "
              "repeat: run the fuzz command that found it, with --games 1 and its --seed)")
    elif check in ("masked_actions_apply", "unmasked_actions_raise", "rejected_no_draw"):
        print(f"the note's check [{check}] passes at this position now, every action tried (the engine changed "
              "since the log was written?)")
    else:
        print(f"the note's check [{check}] passes at this position now (the engine changed since the log was "
              "written?)")
    return 0


def _cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _info_line(info) -> str:
    """``"players 2-4, zero_sum, setup_only, imperfect, teams"`` from a GameInfo."""
    players = f"{info.min_players}-{info.max_players}" if info.min_players != info.max_players else f"{info.min_players}"
    return (f"players {players}, {info.utility.value}, {info.chance.value}, {info.information.value}"
            + (", teams" if info.teams else ""))


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code (1 when a fuzz run or replay found a failure)."""
    import monolith_envs
    from monolith_envs.core.cli import ArgumentParser
    from monolith_envs.core.fuzz import MAX_GAMES, MAX_SAMPLE, MAX_WORKERS
    from monolith_envs.core.game import MonolithEnvError
    from monolith_envs.core.interrupt import Interrupted, stop_on_signals
    from monolith_envs.core.processes import local_worker_limit, worker_limit_why
    from monolith_envs.core.seeds import seed_arg

    fmt = _DefaultsShown
    parser = ArgumentParser(prog="python -m monolith_envs", description=__doc__.replace("``", ""),
                            formatter_class=fmt)
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND",
                                title="commands (python -m monolith_envs COMMAND --help for each)")
    sub.add_parser("list", help="list the registered env ids with their players, utility, chance and information",
                   formatter_class=fmt).add_argument("--preload", action="append", default=[], metavar="MODULE",
                                                     help=_PRELOAD_HELP)
    i = sub.add_parser("info", help="a game's static info (GAME_INFO) and its config keys", formatter_class=fmt)
    i.add_argument("env_id", help="a registered env id (see the list command)")
    i.add_argument("--preload", action="append", default=[], metavar="MODULE", help=_PRELOAD_HELP)
    f = sub.add_parser("fuzz", help="random masked rollouts with per-step checks and invariants", formatter_class=fmt)
    f.add_argument("env_id", help="a registered env id (see the list command)")
    f.add_argument("--games", type=_int_at_least(1, MAX_GAMES), default=FUZZ_GAMES,
                   help=f"number of rollouts (1 to {MAX_GAMES:_}); the default takes about 1.5 minutes on 2 cores in "
                        "the largest configs (Ctrl-C stops early with the summary)")
    f.add_argument("--seed", type=seed_arg, default=0, help="seed of the first rollout (0 to 2**128-1)")
    f.add_argument("--workers", type=_int_at_least(1, MAX_WORKERS), default=2,
                   help=f"worker processes (local backend: 1 to {min(local_worker_limit(), MAX_WORKERS)} here, "
                        f"{worker_limit_why()}; ray: 1 to {MAX_WORKERS})")
    f.add_argument("--config", type=_config, default={},
                   help='game config as JSON, e.g. \'{"num_players": 3, "mode": "ffa"}\'')
    f.add_argument("--out", default="fuzz_failures",
                   help="folder for failing episode logs (created and checked before the run)")
    f.add_argument("--sample", type=_int_at_least(0, MAX_SAMPLE), default=8,
                   help="legal and illegal actions tried per step")
    f.add_argument("--check-every", type=_int_at_least(0), default=1,
                   help="run the per-step conformance checks every K decisions (0 = invariants only, fastest)")
    f.add_argument("--no-progress", action="store_true", help="no progress bar (on a terminal) or progress lines (on a log file or pipe: after 5 s, then every 30 s)")
    f.add_argument("--max-failures", type=_int_at_least(1), default=None, metavar="N",
                   help="stop after N failures (default: play every game; a broken game fails them all)")
    f.add_argument("--preload", action="append", default=[], metavar="MODULE", help=_PRELOAD_HELP)
    f.add_argument("--timeout", type=_timeout, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=_TIMEOUT_HELP.format(what="each rollout"))
    f.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local: a process pool on this machine; ray: Ray tasks (needs the [distributed] extra)")
    f.add_argument("--address", default=None,
                   help="with --backend ray: 'auto' or HOST:PORT of a running Ray cluster (default: start a "
                        "local Ray instance with --workers CPUs)")
    r = sub.add_parser("replay", help="replay an episode log step by step with the text render", formatter_class=fmt)
    r.add_argument("file", help="an episode log (format: docs/episode_log.md)")
    r.add_argument("--quiet", action="store_true", help="print only the actions, not the board")
    r.add_argument("--html", default=None, metavar="OUT.html",
                   help="write one self-contained HTML page (picture of every decision, slider, step buttons, "
                        "decoded actions and chance events) instead of printing")
    r.add_argument("--preload", action="append", default=[], metavar="MODULE", help=_PRELOAD_HELP)
    c = sub.add_parser("check", help="run the conformance suite (check_env)", formatter_class=fmt)
    c.add_argument("env_id", help="a registered env id (see the list command)")
    c.add_argument("--config", type=_config, default={}, help="game config as JSON")
    c.add_argument("--games", type=_int_at_least(1, CHECK_MAX_GAMES), default=10,
                   help=f"games (episodes) played (1 to {CHECK_MAX_GAMES:_})")
    c.add_argument("--seed", type=seed_arg, default=0, help="seed of the first game (0 to 2**128-1)")
    c.add_argument("--preload", action="append", default=[], metavar="MODULE", help=_PRELOAD_HELP)
    c.add_argument("--no-progress", action="store_true", help="no progress bar (on a terminal) or progress lines (on a log file or pipe: after 5 s, then every 30 s)")
    c.add_argument("--timeout", type=_timeout, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=_TIMEOUT_HELP.format(what="each episode and each other check"))
    from monolith_envs.core.playthrough import DEFAULT_FOLDER

    pt = sub.add_parser("playthrough", help="compare (or --regenerate) the stored golden playthroughs",
                        formatter_class=fmt)
    pt.add_argument("env_ids", nargs="*", help="default: every registered env id")
    pt.add_argument("--regenerate", action="store_true", help="rewrite the stored files instead of comparing")
    pt.add_argument("--dir", default=DEFAULT_FOLDER, help="the folder of the stored playthroughs")
    pt.add_argument("--preload", action="append", default=[], metavar="MODULE", help=_PRELOAD_HELP)
    args = parser.parse_args(argv)
    if args.cmd == "fuzz" and args.address is not None and args.backend != "ray":
        f.error(f"--address is an option of --backend ray (a Ray cluster to run on), got it with --backend "
                f"{args.backend}")

    with stop_on_signals():  # Ctrl-C / SIGTERM: exit 130 / 143 without a traceback
        try:
            _preload(args.preload)
            if args.cmd == "list":
                for e in monolith_envs.available_envs():
                    try:
                        print(f"{e:24s} {_info_line(monolith_envs.game_class(e).GAME_INFO)}")
                    except ImportError as exc:  # a registered module that does not import: still listed
                        print(f"{e:24s} (not importable: {exc})")
                return 0
            if args.cmd == "info":
                info = monolith_envs.game_class(args.env_id).GAME_INFO
                print(f"{info.env_id}: {info.name}\n  {_info_line(info)}\n  max_length {info.max_length}\nconfig keys:")
                for k in info.config_keys:
                    print(f"  {k.name} = {json.dumps(k.default, default=str)}  ({k.doc})")
                return 0
            if args.cmd == "fuzz":
                from monolith_envs.core.fuzz import StuckWorkersError, run_fuzz

                try:
                    n = run_fuzz(monolith_envs.game_class(args.env_id), args.games, args.seed, args.workers,
                                 args.config, args.out, sample=args.sample, progress=not args.no_progress,
                                 check_every=args.check_every, backend=args.backend, address=args.address,
                                 preload=args.preload, env_id=args.env_id, max_failures=args.max_failures,
                                 timeout=args.timeout)
                except StuckWorkersError as exc:  # a finding about the game (a hang), not bad input
                    print(f"error: {_one_line(exc)}", file=sys.stderr)
                    return 1
                return 1 if n else 0
            if args.cmd == "replay":
                from monolith_envs.core.replay import (
                    EngineRaised,
                    LogError,
                    load_log,
                    printable,
                    replay_steps,
                )

                if "\x00" in args.file:
                    print(f"error: {printable(args.file)}: the path contains a NUL byte", file=sys.stderr)
                    return 2
                if not args.file.strip():
                    print("error: the episode log's path is empty; give the log file to replay (FILE.json)",
                          file=sys.stderr)
                    return 2
                try:
                    log = load_log(args.file)
                except LogError as exc:  # the message starts with the file name
                    print(f"error: {_one_line(exc)}", file=sys.stderr)
                    return 2
                make = lambda eid, **cfg: monolith_envs.make(eid, wrapped=False, **cfg)  # noqa: E731
                if args.html is not None and not args.html.strip():
                    print("error: --html: the path is empty; give the file to write (OUT.html)", file=sys.stderr)
                    return 2
                if args.html and _same_file(args.html, args.file):
                    print(f"error: --html {printable(args.html)} is the episode log being replayed; give another "
                          "file (OUT.html)", file=sys.stderr)
                    return 2
                if args.html:
                    from monolith_envs.core.html_replay import write_html_replay
                    from monolith_envs.core.outfiles import OutputPathError

                    try:
                        out = write_html_replay(log, args.html, make)
                    except EngineRaised as exc:  # a finding (1): the page up to it is written
                        print(f"error: {printable(args.file)}: {_one_line(exc)}; the page up to that step is "
                              f"written to {printable(str(args.html))}", file=sys.stderr)
                        return 1
                    except OutputPathError as exc:  # the --html path: the message names it
                        print(f"error: {_one_line(exc)}", file=sys.stderr)
                        return 2
                    except MonolithEnvError as exc:  # the log: named, as the text replay names it
                        print(f"error: {printable(args.file)}: {_one_line(exc)}", file=sys.stderr)
                        return 2
                    n = len(log.actions)
                    print(f"wrote {printable(str(out))} ({n} decision{'s' if n != 1 else ''} of "
                          f"{printable(log.env_id)} seed {log.seed})")
                    return 0
                # everything taken from the log is printed through printable(): a note or an event holding
                # terminal escape sequences is shown, not obeyed
                cfg = json.dumps(log.config)
                print(f"replay {_cut(printable(log.env_id), 120)} seed={log.seed} config={_cut(printable(cfg), 300)} "
                      f"actions={len(log.actions)}"
                      + (f"\nnote: {_note_line(log.note)}" if log.note.strip() else ""))
                env = None
                prev = None
                try:
                    for step, action, env in replay_steps(log, make):
                        if prev is not None:
                            for ev in env.episode_log.chance_at(prev):
                                print(f"    chance: {printable(str(ev))}")
                        if not args.quiet:
                            print(printable(env.game.render_text(env.game_state), keep_newlines=True))
                        if action is not None:
                            print(f"--- step {step}: {env.agent_selection} plays "
                                  f"{printable(env.game.layout.decode(action))} [{action}]")
                        prev = step
                except EngineRaised as exc:  # the engine's own failure: a finding (1), not a bad log (2)
                    print(f"error: {printable(args.file)}: {_one_line(exc)}", file=sys.stderr)
                    return 1
                except MonolithEnvError as exc:
                    print(f"error: {printable(args.file)}: {_one_line(exc)}", file=sys.stderr)
                    return 2
                if env is not None:
                    if log.chance is not None:
                        print(f"chance events checked: {len(log.chance)} (the replayed draws are the logged ones)")
                    g, s = env.game, env.game_state
                    ended = g.is_terminal(s) or bool(env.truncations.get(env.possible_agents[0]))
                    print(f"end: terminal={g.is_terminal(s)} returns={[round(float(x), 4) for x in g.returns(s)]}"
                          + ("" if ended else " (the log ends before the game does: the returns so far)"))
                    try:
                        g.check_invariants(s)
                    except MonolithEnvError as exc:
                        print(f"invariant violated at the end: {_one_line(exc)}")
                        return 1
                    if not ended:
                        return _check_again(log.note, g, s, log.seed)
                return 0
            if args.cmd == "check":
                from monolith_envs.core.testing import ConformanceError, check_env, check_env_seeds

                try:
                    check_env_seeds(args.seed, args.games)
                except ValueError:
                    c.error(f"--seed {args.seed} with --games {args.games}: the check plays seeds --seed to --seed "
                            "+ games - 1 (and --seed + 1000 for its replay check), past the largest seed 2**128-1; "
                            "give a smaller --seed or fewer --games")
                from monolith_envs.core.cli import progress_bar

                seen: list = []  # the report, once the first episode is checked (for the interrupted summary)
                bars: list = []  # the bar, made at the first episode (after the config and env id are checked)

                def progress(report: object) -> None:
                    seen[:] = [report]
                    if not bars:  # a bar on a terminal, a line every 30 s on a log file (None: no progress)
                        bars.append(progress_bar(args.games, f"check {args.env_id}", "game",
                                                 enabled=not args.no_progress))
                    if bars[0] is not None:
                        bars[0].update(1)

                def close_bar() -> None:
                    if bars and bars[0] is not None:
                        bars[0].close()

                try:
                    rep = check_env(monolith_envs.env_module(args.env_id).raw_env, args.config, games=args.games,
                                    seed=args.seed, progress=progress, timeout=args.timeout)
                except ConformanceError as exc:  # a failing check is a finding (1), not bad input (2)
                    close_bar()
                    print(f"check failed: {_one_line(exc)}", file=sys.stderr)
                    return 1
                except Interrupted:
                    close_bar()
                    done = seen[0] if seen else None
                    print(f"check stopped after {done.episodes if done else 0} of {args.games} games "
                          f"({done.decisions if done else 0} decisions): no check failed in them", file=sys.stderr)
                    raise
                close_bar()
                print(f"{args.env_id}: {len(rep.checks)} checks passed over {rep.episodes} "
                      f"game{'s' if rep.episodes != 1 else ''}, {rep.decisions} decisions")
                return 0
            if args.cmd == "playthrough":
                from monolith_envs.core.playthrough import run_command

                return run_command(args.env_ids or monolith_envs.available_envs(), args.regenerate, args.dir,
                                   lambda env_id, **cfg: monolith_envs.make(env_id, wrapped=False, **cfg))
        except MonolithEnvError as exc:
            print(f"error: {_one_line(exc)}", file=sys.stderr)
            return 2
        except Interrupted as exc:  # fuzz has printed its summary on stdout; this line is on stderr (the
            # one a reader sees when stdout goes to a file)
            print(f"interrupted by {exc.name}", file=sys.stderr)
            return exc.exit_code
        except BrokenPipeError:  # the reader went away (``... | head``): stop quietly, as a killed pipe writer
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141
        return 0


#: fuzz's default --games: at most about 1.5 minutes on 2 idle cores with every per-step check (README "Rules
#: fuzzing and replay": The Monolith ~1.5 min, Arena and Strategy ~0.5 min)
FUZZ_GAMES = 200

#: check's largest --games (each episode runs every conformance check at every decision)
CHECK_MAX_GAMES = 100_000

class _DefaultsShown(argparse.ArgumentDefaultsHelpFormatter):
    """Help that gives each option's default: ``none`` for an empty one (None, an empty list), and nothing
    more where the option's help already states it (``default: ...``) or for a positional argument."""

    def _get_help_string(self, action: argparse.Action) -> str:
        d, text = action.default, action.help or ""
        if "default:" in text or d is argparse.SUPPRESS or not action.option_strings:
            return text  # (a required positional has no default to show)
        if d is None or (isinstance(d, list) and not d):
            return f"{text} (default: none)"
        return super()._get_help_string(action)


_PRELOAD_HELP = ("import MODULE first (repeatable), e.g. one that calls monolith_envs.register, so envs registered "
                 "at run time can be used")


if __name__ == "__main__":
    sys.exit(main())
