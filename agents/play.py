"""Play any registered game in the terminal against AI opponents.

Command line::

    python -m agents.play ENV_ID [--opponents SPEC,...] [--seat 0|random] [--seed S] [--set key=value ...]
                                  [--record FILE] [--preload MODULE] [--trust-model-files]
                                  [--web [--port P] [--host H]]

The person plays seat ``--seat``; the other seats take the ``--opponents`` specs in seat order, one spec per
opponent seat, or one spec that plays every opponent seat (default: ``heuristic`` in every one).  Every action is narrated as it happens (the
opponents' moves, battles with their hits, removals and HP changes).  A move is entered in stages (the
kind of action, then each of its parts: in Monolith Arena the tile, then the hex, then the rotation; in
The Strategy Game the die, then the socket; in The Monolith the order or action, then its space, opponent
or number);
``help`` lists the commands, ``quit`` (or Ctrl-D) ends the game, Ctrl-C or SIGTERM too (exit status 130 or
143; also while the opponents load, before the game). An agent error mid-game is reported after the record is written.
``--record FILE`` writes the game's episode log (``python -m monolith_envs replay FILE``, also with ``--html``).

``--web`` plays in the browser instead (:mod:`agents.web`): a local server, bound to 127.0.0.1 unless
``--host`` says otherwise, on ``--port`` (default 8000; 0 = any free port), prints the URL and serves games
until Ctrl-C or SIGTERM (exit status 130 or 143; the server is closed and an unused log folder removed).

A game adds its board view, stage names and narration in ``agents/terminal/<game package>.py``
(:mod:`agents.terminal`); every other part of this command is the same for all games.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

import numpy as np

from monolith_envs.agents.model_files import add_trust_argument, trust_models_from_args
from monolith_envs.core.cli import spec_error, split_specs
from monolith_envs.core.seeds import seed_arg
from monolith_envs.core.words import table_text

#: the end of the line a stop prints when it comes before the first move (while modules import, the env is
#: built or the agents load)
BEFORE_START = " before the game started"

__all__ = ["main"]


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows ``(default: ...)`` only for options whose default says something (not None, [] or False)."""

    def _get_help_string(self, action):
        if action.default in (None, [], False):
            return action.help
        return super()._get_help_string(action)


def _parser() -> argparse.ArgumentParser:
    from monolith_envs.core.cli import ArgumentParser

    ap = ArgumentParser(prog="python -m agents.play", description=__doc__.split("\n\n")[0],
                                 formatter_class=_HelpFormatter)
    ap.add_argument("env_id", help="registered env id, e.g. monolith_arena_v0")
    ap.add_argument("--opponents", default=None,
                    help="comma-separated agent specs, one per other seat in seat order (a teams game's partner "
                         "too), or one spec for every other seat (random, heuristic, "
                         "mcts:N (plain mcts: mcts:200), ppo:PATH, rllib:CHECKPOINT, baseline, baseline+search:N[:mix=X], and in this "
                         "repository's commands az:PATH[+search:N], a training.az checkpoint); default: heuristic in every "
                         "other seat")
    ap.add_argument("--seat", default="0", help="your seat number, or 'random'")
    ap.add_argument("--seed", type=seed_arg, default=None, help="match seed (default: random)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="game config key; VALUE as TOML: 4, true, teams, '[\"a\", \"b\"]' (repeatable)")
    ap.add_argument("--record", default=None, metavar="FILE",
                    help="write the game's episode log to FILE (missing folders are created)")
    ap.add_argument("--preload", action="append", default=[], metavar="MODULE",
                    help="module to import first (registers extra env ids)")
    add_trust_argument(ap)
    ap.add_argument("--web", action="store_true",
                    help="play in the browser: start a local server and print its URL (Ctrl-C stops it)")
    ap.add_argument("--port", type=_port, default=None,
                    help="--web: port to listen on (default 8000; 0 = any free port)")
    ap.add_argument("--host", type=_host, default=None,
                    help="--web: address to listen on (default 127.0.0.1, this machine only)")
    return ap


def _port(text: str) -> int:
    """``--port``: a decimal port number 0-65535 (argparse type; anything else is a usage error)."""
    if not re.fullmatch(r"[0-9]{1,5}", text.strip()) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number 0-65535, got {text[:40]!r}")
    return int(text)


def _host(text: str) -> str:
    """``--host``: a host name or address to listen on (argparse type). An empty name, spaces, control
    characters, unbalanced brackets or more than 253 characters are a usage error (every interface is
    ``0.0.0.0``; an IPv6 address may be bracketed, ``[::1]``)."""
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    if (not bare or len(text) > 253 or not text.isprintable() or any(c.isspace() or c in "[]/" for c in bare)):
        raise argparse.ArgumentTypeError(f"must be a host name or address such as 127.0.0.1 (every interface: "
                                         f"0.0.0.0), got {text[:40]!r}")
    return text


def _decisions(k: int) -> str:
    """``1 decision``, ``2 decisions``."""
    return f"{k} decision" + ("" if k == 1 else "s")


def _opponent_specs(ap: argparse.ArgumentParser, text: str | None, env_id: str, n: int, seat: int) -> list[str]:
    others = [s for s in range(n) if s != seat]
    if text is None:
        return ["heuristic"] * len(others)
    try:
        specs = split_specs(text)
    except ValueError as exc:
        ap.error(f"--opponents {exc}")
    if specs and not others:
        ap.error(f"{env_id} in this config has one seat (you play alone), so --opponents takes no agent specs; "
                 f"got {len(specs)}: {', '.join(specs)}")
    if len(specs) == 1:  # one spec plays every opponent seat
        return specs * len(others)
    if len(specs) != len(others):
        seats = ", ".join(f"player_{s}" for s in others)
        wants = (f"one agent spec, for {seats}" if len(others) == 1 else
                 f"either 1 agent spec for all {len(others)} other seats or {len(others)} specs, one each for "
                 f"{seats}")
        ap.error(f"{env_id} has {n} seats and you are player_{seat}, so --opponents takes {wants}; got "
                 f"{len(specs)}: {', '.join(specs) or 'none'}")
    return specs


def _choices(key) -> tuple:
    """The allowed values of a config key checked by ``one_of`` (read from its message), else ``()``."""
    import ast

    msg = key.check(object()) if key.check is not None else None
    if not isinstance(msg, str) or not msg.startswith("one of "):
        return ()
    try:
        values = ast.literal_eval("(" + msg[len("one of "):] + ",)")
    except (ValueError, SyntaxError):
        return ()
    return values if isinstance(values, tuple) else ()


def _setting_hint(env_id: str, settings: dict | None, message: str = "") -> str:
    """``"; with --set ..., add --set key=value"`` when changing one more choice key makes the refused
    settings valid (``--set num_players=3`` in Arena: ``--set mode=ffa``); ``""`` otherwise, and when the
    error ``message`` already names every such fix (the key, and each value as ``repr`` or ``key=value``)."""
    import monolith_envs

    if not settings:
        return ""
    try:
        keys = monolith_envs.make_game(env_id).GAME_INFO.config_keys
    except (monolith_envs.MonolithEnvError, ValueError, KeyError):
        return ""
    fixes = []
    for key in keys:
        if key.name in settings:
            continue
        for value in _choices(key):
            if value == key.default:
                continue
            try:
                monolith_envs.make_game(env_id, **settings, **{key.name: value})
            except (monolith_envs.MonolithEnvError, ValueError):
                continue
            fixes.append((key.name, value))
    if not fixes or all(k in message and (repr(v) in message or f"{k}={v}" in message) for k, v in fixes):
        return ""
    given = " ".join(f"--set {k}={v}" for k, v in settings.items())
    return f"; with {given}, add {' or '.join(f'--set {k}={v}' for k, v in fixes)}"


def main(argv: list[str] | None = None, input_fn=input, output_fn=print):
    """Command-line entry point; ``input_fn``/``output_fn`` are injectable for tests.

    Returns the :class:`~agents.match.MatchResult`, ``None`` when the person ended the game early (``quit``,
    Ctrl-D), or 130 (the exit status of an interrupt) after Ctrl-C; either way a ``--record`` file is written.
    """
    ap = _parser()
    args = ap.parse_args(argv)
    if not args.web and (args.port is not None or args.host is not None):
        ap.error("--port and --host are options of --web (play in the browser)")
    if args.web and args.record:
        ap.error("--record is for terminal play; with --web every finished game's log is kept (its folder is "
                 "printed) and the page links its replay")
    trust_models_from_args(args)
    from monolith_envs.core.cli import game_settings, import_modules

    try:
        import_modules(args.preload, "--preload")
    except ImportError as e:
        ap.error(str(e))
    import monolith_envs

    try:
        settings = game_settings(args.set)
        env = monolith_envs.make(args.env_id, **settings)
    except (monolith_envs.MonolithEnvError, ValueError) as e:
        ap.error(str(e) + _setting_hint(args.env_id, locals().get("settings"), str(e)))
    raw, game = env.unwrapped, env.unwrapped.game
    n = game.num_players
    seed = args.seed if args.seed is not None else int(np.random.default_rng().integers(2**31))
    seat = int(np.random.default_rng(seed).integers(n)) if args.seat == "random" else None
    if seat is None:
        if not re.fullmatch(r"[0-9]{1,6}", args.seat) or not 0 <= int(args.seat) < n:
            ap.error(f"--seat must be 0..{n - 1} or 'random', got {args.seat[:40]!r}")
        seat = int(args.seat)
    specs = list(_opponent_specs(ap, args.opponents, args.env_id, n, seat))
    made: list = []
    if args.record is not None:  # checked (its folder made) after the other arguments, before the agents load
        made = _check_record_path(ap, args.record)
    from monolith_envs.core.interrupt import Interrupted, stop_on_signals
    from monolith_envs.core.outfiles import remove_empty_folders

    progress = {"started": False}
    with stop_on_signals():  # Ctrl-C or SIGTERM: Interrupted, also while the opponents load
        try:
            return _session(ap, args, env, settings, seat, seed, iter(specs), input_fn, output_fn, progress)
        except Interrupted as e:  # a stop during the game ends in _session (its record written)
            by = "Ctrl-C" if e.name == "SIGINT" else e.name
            output_fn(f"stopped ({by})" + ("" if progress["started"] else BEFORE_START))
            return e.exit_code
        finally:
            if not progress["started"]:  # no game: the folders made for --record go again (when still empty)
                remove_empty_folders(made)


def _session(ap, args, env, settings, seat: int, seed: int, specs, input_fn, output_fn, progress: dict):
    """Load the agents, then play one game in the terminal (or serve the browser with ``--web``); see
    :func:`main` for what it returns. ``progress["started"]`` is set when the game (or the server) starts."""
    from agents import AgentError, HumanAgent, make_agent
    from agents.match import MatchResult, seat_verdict, start_episode
    from agents.terminal import InputEnded, QuitGame, pieces_for, seat_values, wrap
    from monolith_envs.core.interrupt import Interrupted

    raw, game = env.unwrapped, env.unwrapped.game
    n = game.num_players
    pieces = pieces_for(args.env_id)
    agents = []
    for s in range(n):
        try:
            agents.append(HumanAgent(input_fn, output_fn, pieces) if s == seat else make_agent(next(specs), args.env_id, settings))
        except (ValueError, FileNotFoundError, AgentError) as e:
            ap.error(spec_error(e, args.opponents or ""))
    progress["started"] = True  # the web server reports its own stop; the game's stop is said below
    if args.web:
        return _web(ap, args, env, agents, seat, seed, pieces, output_fn)
    out = output_fn
    out(wrap(f"{args.env_id}, seed {seed}: you are P{seat} (player_{seat}); "
             + table_text([a.name for a in agents], seat, game.teams)))
    out(pieces.legend(game))
    out("type help at any prompt for the commands; quit (or Ctrl-D) ends the game")
    rngs = start_episode(env, agents, seed)
    try:
        while True:
            agent = raw.agent_selection
            if raw.terminations[agent] or raw.truncations[agent]:
                break
            s = raw.agent_name_mapping[agent]
            obs = raw.observe(agent)
            before = game.clone(raw.game_state)
            a = int(agents[s].act(obs["observation"], obs["action_mask"], rngs[s]))
            env.step(a)
            out("\n".join(pieces.narrate(game, before, raw.game_state, a, s)))
    except (QuitGame, KeyboardInterrupt, EOFError) as ended:
        stop = ended.name if isinstance(ended, Interrupted) else "SIGINT"
        if isinstance(ended, KeyboardInterrupt):
            by = "Ctrl-C" if stop == "SIGINT" else stop
        else:  # quit, or the end of the input (Ctrl-D, a pipe that ran out)
            by = f"the end of P{seat}'s input" if isinstance(ended, (InputEnded, EOFError)) else f"P{seat} quitting"
        out(f"\ngame ended by {by} after {_decisions(raw.num_decisions)}, unfinished (no result)")
        _record(args.record, raw, agents, seat, out)
        return getattr(ended, "exit_code", 130) if isinstance(ended, KeyboardInterrupt) else None
    except Exception as e:  # an agent or engine error: keep the game so far, then report the error
        out(f"\ngame stopped by an error after {_decisions(raw.num_decisions)}")
        _record(args.record, raw, agents, seat, out)
        if isinstance(e, AgentError):  # an opponent that cannot go on (a network whose output overflows here)
            print(f"{ap.prog}: error: {e}", file=sys.stderr)
            return 1
        raise
    out(pieces.board(game, raw.game_state, seat))
    hidden = pieces.final_reveal(game, raw.game_state, seat) if game.is_terminal(raw.game_state) else []
    if hidden:  # the game is over (not cut off by max_decisions): what the board kept from this seat
        out("hidden until now:\n" + "\n".join(f"  {x}" for x in hidden))
    state = raw.game_state
    ret = np.asarray(game.returns(state), np.float32)
    truncated = bool(raw.truncations[raw.possible_agents[0]]) and not game.is_terminal(state)
    outcome = None if truncated else tuple(game.outcome(state))
    winners = [] if outcome is None else [i for i, o in enumerate(outcome) if o.value in ("win", "success")]
    res = MatchResult(ret, raw.num_decisions, truncated, winners, outcome)
    verdict = {"win": "you win", "draw": "a draw", "loss": "you lose", "success": "you reach the goal",
               "failure": "you miss the goal", "truncated": "truncated"}[seat_verdict(res, seat)]
    reason = "" if truncated else game.end_reason(state)
    if reason:  # why, next to the result (the narration said it before the last board)
        out(wrap(f"why: {reason}", indent="     "))
    out(wrap(f"game over after {_decisions(raw.num_decisions)}: {verdict} (returns: {seat_values(ret)})"))
    _record(args.record, raw, agents, seat, out)
    return res


def _web(ap, args, env, agents, seat: int, seed: int, pieces, out) -> int:
    """``--web``: serve games in the browser until Ctrl-C or SIGTERM (:mod:`agents.web`); returns 130 or 143."""
    from agents import HumanAgent
    from agents.web import run

    if any(isinstance(a, HumanAgent) for s, a in enumerate(agents) if s != seat):
        ap.error("--web: an opponent cannot be 'human' (it would wait for terminal input); give agent specs such "
                 "as random, heuristic, mcts:N, ppo:PATH")
    host, port = args.host or "127.0.0.1", 8000 if args.port is None else args.port
    try:
        return run(env, agents, seat, seed, pieces, host, port, out)
    except OSError as e:
        ap.error(f"--web: cannot listen on {host}:{port}: {e.strerror or e}")
def _check_record_path(ap: argparse.ArgumentParser, path: str) -> list[Path]:
    """``--record FILE`` is checked before the game by creating its folder (missing folders are made) and a
    probe file in it: an empty path, a NUL byte, a folder, a device, a file in the way of a folder or an
    unwritable place is one ``error:`` line, not a traceback after the game.  Returns the folders it made
    (removed again by ``remove_empty_folders`` when no game starts)."""
    from monolith_envs.core.outfiles import EarlierOutput, OutputPathError, check_output_file, missing_folders

    missing = missing_folders(path)
    try:  # an earlier episode log may be replaced, no other file
        check_output_file(path, "--record", EarlierOutput("an episode log", "{", '"format": "monolith_envs.episode_log/'))
    except OutputPathError as e:
        ap.error(str(e))
    return missing


def _record(path: str | None, raw, agents, seat: int, out) -> None:
    """Write the episode log to ``--record`` (nothing without one); a Ctrl-C meanwhile waits for the file."""
    if not path:
        return
    from monolith_envs.core.interrupt import signals_deferred

    with signals_deferred():
        _write_record(path, raw, agents, seat, out)


def _write_record(path: str, raw, agents, seat: int, out) -> None:
    log = raw.episode_log
    log.note = "agents.play: " + ", ".join(f"P{i}={'you' if i == seat else a.name}" for i, a in enumerate(agents))
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    log.save(p)
    q, html = shlex.quote(str(p)), shlex.quote(str(p.with_suffix(".html")))
    out(f"episode log written to {p} (python -m monolith_envs replay {q} --html {html})")


if __name__ == "__main__":
    try:
        code = main()
    except KeyboardInterrupt:  # Ctrl-C while the game's modules import or its env is built (before the agents load)
        print("stopped (Ctrl-C)" + BEFORE_START)  # on stdout, as main() says it once the agents load
        code = 130
    sys.exit(code if isinstance(code, int) else 0)
