"""Tournament evaluation: cross-play win rates with 95% Wilson intervals and openskill ratings.

Command line::

    python -m training.evaluate --env monolith_arena_v0 --agents random,heuristic,mcts:200,ppo:PATH \
        --games 100 --seed 0 [--workers 2] [--out results.json] [--set num_players=2] [--record-dir DIR]
        [--trust-model-files]

Every pair of agents plays ``--games`` matches (1 to :data:`MAX_GAMES`); in game ``k`` of a pair the first agent sits at seat
``k mod num_players`` and the second fills the other seats (seat rotation; in a config with teams the first
agent fills every seat of team ``k mod number_of_teams``, e.g. seats 0 and 2 of a 2v2), and the episode seed
is ``seed + k`` for every pair (the same deals for every pairing).  A match's result is the game's own
per-seat outcome (``game.outcome``: win, draw or loss; allies share one), never the sign of the returns; a
truncated match counts as a draw.  Matches run on ``--workers`` processes; results are gathered and applied
to the ratings in a fixed order, so the output does not depend on timing.  Ratings: openskill's
Plackett-Luce model, one update per match.

A one-seat game (solo) has no pairs: each agent plays ``--games`` episodes alone (``--agents`` may name just
one) and gets its success rate with a 95% Wilson interval and its mean final score (its final return; a
truncated episode is a failure).

Worker model: with ``--workers`` above 1 the matches run in a ``ProcessPoolExecutor`` whose processes are
*spawned* (a fresh interpreter each, the same on every OS; forking a process that holds torch threads is not
safe).  A spawned worker imports the module that started it, so a script that calls :func:`run_pairing` or
:func:`run_tournament` must keep its top-level code under ``if __name__ == "__main__":``, or every worker
re-runs the whole script.  Each worker builds its own env and agents from the spec strings (``ppo:PATH``
models are loaded once per task) and sets torch to one thread.  ``workers=1`` plays in the calling process.

Model files given as ``ppo:PATH`` are untrusted: they are loaded without running code from the file, and
a file that needs more is refused (:mod:`agents.ppo`); ``--trust-model-files`` lifts that for files you
trust.  The JSON goes to ``runs/eval/eval_<env>_<seed>.json`` (``-2``, ``-3``, ... appended to the name when
that file exists, so a default never replaces an earlier result) unless ``--out`` names a file (replaced if
it exists); ``--record-dir`` writes every
match's episode log (``python -m monolith_envs replay FILE``).  Both are checked before the first game, by
creating them.  Games are handed to the workers in chunks of at most 8 consecutive game numbers (``range``
objects), never as a list of every game, so the progress bar moves all through a long evaluation.

Ctrl-C or SIGTERM stops an evaluation at once: the worker processes are ended, the games played so far
are counted on stderr, nothing is written, and the exit status is 130 (SIGINT) or 143 (SIGTERM).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from monolith_envs.agents.model_files import add_trust_argument, trust_models_from_args
from monolith_envs.core.config import plain_int
from monolith_envs.core.outfiles import (
    EarlierOutput,
    OutputPathError,
    check_output_dir,
    check_output_file,
    new_folders_removed_on_error,
    write_text_atomic,
)
from monolith_envs.core.words import count
from training.eval_play import MAX_CHUNK, _executor, _play_chunk, seating
from training.eval_results import PairResult, SoloResult
from training.eval_tables import (
    format_solo_table,
    format_table,
    partial_lines,
    side_sign,
    truncation_note,
    wilson_interval,
)

__all__ = ["MAX_AGENTS", "MAX_GAMES", "MAX_WORKERS", "PairResult", "SoloResult", "eval_against_words", "eval_labels", "evaluate_against", "format_table", "format_solo_table",
           "main", "run_pairing", "run_solo", "run_tournament", "seating", "wilson_interval"]


MAX_GAMES = 100_000
"""Most games per pair (or per agent alone) of one evaluation: every result is kept for the ratings."""
MAX_WORKERS = 64
"""Most worker processes."""
MAX_AGENTS = 32
"""Most agent specs of one evaluation (every pair plays --games matches: 32 specs are 496 pairings)."""


#: an earlier ``--out`` report, which a new evaluation may replace (any other existing file is refused)
EVALUATION_REPORT = EarlierOutput("an evaluation report of training.evaluate (JSON)", "{",
                                  json_keys=("env_id", "games_per_pair", "pairs"))


def run_pairing(env_id: str, spec_a: str, spec_b: str, games: int, seed: int = 0, env_config: dict | None = None,
                workers: int = 2, preload: Sequence[str] = (), executor: Any = None, chunk: int | None = None,
                progress: bool = False, record_dir: str | Path | None = None) -> PairResult:
    """Play ``games`` matches of ``spec_a`` against ``spec_b`` (seat rotation, seeds ``seed + k``).

    Worker model: ``workers > 1`` plays on a pool of *spawned* processes (see the module docstring: a
    calling script needs ``if __name__ == "__main__":``); ``workers=1`` plays here; ``executor`` reuses a
    pool.  Results do not depend on the number of workers.

    Args:
        env_id: registered env id.
        spec_a, spec_b: agent specs (:func:`agents.make_agent`).
        games: number of matches.
        seed: base seed.
        env_config: the game's config keys.
        workers: worker processes (1 = in this process).
        preload: modules each worker imports first (e.g. one that registers extra env ids).
        executor: an existing executor to reuse (then ``workers`` is ignored).
        chunk: games per task (default: about 4 tasks per worker, at most :data:`MAX_CHUNK`).
        progress: show a tqdm bar.
        record_dir: write each match's episode log there (``pair0_game<k>.json``).
    """
    return run_tournament(env_id, [spec_a, spec_b], games, seed, env_config, workers, preload, executor,
                          pairs=[(spec_a, spec_b)], chunk=chunk, progress=progress, record_dir=record_dir)["pairs"][0]


def run_tournament(env_id: str, specs: Sequence[str], games: int, seed: int = 0, env_config: dict | None = None,
                   workers: int = 2, preload: Sequence[str] = (), executor: Any = None,
                   pairs: Sequence[tuple[str, str]] | None = None, chunk: int | None = None,
                   progress: bool = False, record_dir: str | Path | None = None) -> dict:
    """Every pair of ``specs`` plays ``games`` matches; returns ``{"pairs": [PairResult], "solo": [],
    "ratings": {...}}``. In a one-seat config every spec plays ``games`` episodes alone instead: ``{"pairs": [],
    "solo": [SoloResult per spec], "ratings": {}}``.

    A match seats the pair's first agent on one side (a seat, or a team's seats; the side rotates with the
    game number, :func:`seating`) and the second agent on every other seat. With two sides that covers both
    orders of the pair; with three or more sides (3-4 player free-for-all) the pair is played in both
    orders, ``(a, b)`` and ``(b, a)``, each ``games`` matches.

    Matches run as in :func:`run_pairing` (spawned worker processes when ``workers > 1``); with
    ``record_dir`` each match's episode log is written as ``pair<i>_game<k>.json`` (``solo<i>_...``).

    Ratings are openskill Plackett-Luce ``{spec: {"mu", "sigma", "ordinal"}}`` after all matches, applied in
    (pair, game) order.

    Raises:
        ValueError: fewer than two distinct specs (one-seat: none, or a repeated one), or ``games < 1``.
    """
    import monolith_envs
    from monolith_envs.core.cli import stderr_bar

    env_config = dict(env_config or {})
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be an integer from 1 to {MAX_GAMES:,}, got {games!r}")
    game = monolith_envs.make_game(env_id, **env_config)
    solo = game.num_players == 1
    if solo:
        if len({spec_key(s) for s in specs}) != len(specs) or not specs:
            raise ValueError(f"need at least one agent spec, each once, got {list(specs)}")
        pairs = [(s, None) for s in specs]
    elif pairs is None:
        keys = [spec_key(s) for s in specs]
        dup = [s for i, s in enumerate(specs) if keys[i] in keys[:i]]
        if dup:
            raise ValueError(f"each agent spec once: {', '.join(map(repr, dup))} is given more than once in "
                             f"{list(specs)} (a spec meets every other one, seats rotating)")
        if len(specs) < 2:
            raise ValueError(f"need at least two distinct agent specs, got {list(specs)}")
        # two sides (a duel, two teams): seats rotate, so one order of a pair plays both sides; with three
        # or more, one agent against copies of the other is not the other way round, so both orders play
        pairs = list(itertools.permutations(specs, 2) if len(game.teams) > 2 else itertools.combinations(specs, 2))
    own = executor is None
    ex = _executor(workers) if own else executor
    n_workers = workers if own else getattr(ex, "_max_workers", 2)
    size = chunk or max(1, min(MAX_CHUNK, math.ceil(games / max(1, 4 * n_workers))))
    token = os.urandom(8).hex()  # this evaluation's agents are built once per worker process
    def tasks():  # chunks of consecutive game numbers, as ranges: nothing of the size of `games` is built
        for pi, (a, b) in enumerate(pairs):
            prefix = f"solo{pi}" if solo else f"pair{pi}"
            for start in range(0, games, size):
                yield pi, (env_id, env_config, a, b, seed, range(start, min(games, start + size)), tuple(preload),
                           None if record_dir is None else (str(record_dir), prefix), token)

    from monolith_envs.core.interrupt import Interrupted, end_executor

    results: dict[int, list[tuple]] = {i: [] for i in range(len(pairs))}
    bar = stderr_bar(games * len(pairs), "games", "game", progress)
    interrupted = False
    try:
        if ex is None:
            for pi, t in tasks():
                r = _play_chunk(t)
                results[pi].extend(r)
                bar.update(len(r))
        else:
            from concurrent.futures import as_completed

            from monolith_envs.core.interrupt import children_ignore_sigint

            with children_ignore_sigint():  # the pool's processes start without SIGINT (a terminal's Ctrl-C)
                futs = {ex.submit(_play_chunk, t): pi for pi, t in tasks()}
            for f in as_completed(futs):  # the bar and an interrupt's count follow every finished chunk
                r = f.result()
                results[futs[f]].extend(r)
                bar.update(len(r))
    except Interrupted as e:
        interrupted = True
        e.info.setdefault("games_done", sum(len(r) for r in results.values()))
        e.info.setdefault("games_total", games * len(pairs))
        e.info.setdefault("partial", partial_lines(pairs, results, solo))  # the finished games' tallies
        raise
    except BaseException:  # an agent's error in a game: the queued games are ended, not played out
        interrupted = True
        raise
    finally:
        bar.close()
        if own and ex is not None:
            if interrupted:
                end_executor(ex)
            else:
                ex.shutdown()
    if solo:
        solos = []
        for pi, (a, _) in enumerate(pairs):
            sr = SoloResult(a)
            for _k, _mine, ret, dec, trunc, outcome, secs in sorted(results[pi]):
                sr.truncated += bool(trunc)
                sr.successes.append(int(outcome is not None and outcome[0] == "success"))
                sr.scores.append(float(ret[0]))
                sr.decisions.append(dec)
                sr.seconds += secs
            sr.games = len(sr.successes)
            solos.append(sr)
        return {"pairs": [], "solo": solos, "ratings": {}}
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    names = list(dict.fromkeys([p for ab in pairs for p in ab]))
    ratings = {s: model.rating(name=s) for s in names}
    out_pairs = []
    for pi, (a, b) in enumerate(pairs):
        pr = PairResult(a, b)
        for _k, mine, ret, dec, trunc, outcome, secs in sorted(results[pi]):
            pr.truncated += bool(trunc)
            o = side_sign(outcome, mine)
            pr.outcomes.append(o)
            pr.seats.append(mine[0])
            pr.returns.append(ret)
            pr.decisions.append(dec)
            pr.seconds += secs
            # rank 1 = better; equal ranks for a draw
            ranks = [1, 1] if o == 0 else ([1, 2] if o > 0 else [2, 1])
            new = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
            ratings[a], ratings[b] = new[0][0], new[1][0]
        pr.games = len(pr.outcomes)
        out_pairs.append(pr)
    rating_out = {s: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for s, r in ratings.items()}
    return {"pairs": out_pairs, "solo": [], "ratings": rating_out}


def run_solo(env_id: str, spec: str, games: int, seed: int = 0, env_config: dict | None = None,
             workers: int = 2, **kw: Any) -> SoloResult:
    """``games`` episodes of ``spec`` alone in a one-seat game (seeds ``seed + k``); see :func:`run_tournament`.

    Raises:
        ValueError: the config has more than one seat, or ``games < 1``.
    """
    import monolith_envs

    if monolith_envs.make_game(env_id, **dict(env_config or {})).num_players != 1:
        raise ValueError(f"run_solo() is for one-seat configs; {env_id} with {env_config} has more seats")
    return run_tournament(env_id, [spec], games, seed, env_config, workers, **kw)["solo"][0]


def eval_labels(env_id: str, env_config: dict | None, opponents: Sequence[str]) -> list[str]:
    """The evaluation columns of a training run: the fixed ``opponents``, or ``["alone"]`` in a one-seat
    config (where there is nobody to play against)."""
    import monolith_envs

    return ["alone"] if monolith_envs.make_game(env_id, **dict(env_config or {})).num_players == 1 else list(opponents)


def eval_against_words(labels: list[str]) -> str:
    """A training run's evaluation banner's wording for :func:`eval_labels`' ``labels``: the opponents, or
    "alone" for a one-seat config."""
    if labels == ["alone"]:
        return "alone (success rate)"
    return f"against each of {', '.join(labels)} (seats rotate)"


def evaluate_against(env_id: str, spec: str, opponent: str, games: int, seed: int = 0,
                     env_config: dict | None = None, **kw: Any) -> dict:
    """``spec``'s result against ``opponent`` (:meth:`PairResult.summary`), or, in a one-seat config
    (``opponent`` is then ignored, see :func:`eval_labels`), alone (:meth:`SoloResult.summary`) with the same
    keys added: ``wins`` = successes, ``losses`` = failures (truncations included), ``draws`` = 0, ``win_rate``
    = success rate. ``kw`` goes to :func:`run_tournament` (``workers``, ``executor``, ``progress``)."""
    import monolith_envs

    if monolith_envs.make_game(env_id, **dict(env_config or {})).num_players == 1:
        s = run_tournament(env_id, [spec], games, seed, env_config, **kw)["solo"][0].summary()
        return {**s, "opponent": "alone", "wins": s["successes"], "draws": 0, "losses": s["games"] - s["successes"],
                "win_rate": s["success_rate"]}
    return run_pairing(env_id, spec, opponent, games, seed, env_config, **kw).summary()


def free_path(path: Path, limit: int = 10_000) -> Path:
    """``path``, or the first of ``<stem>-2<suffix>``, ``-3``, ... where no file is: the name is taken by
    creating an empty file there (exclusively, so two evaluations never pick the same name), which the
    caller then replaces with its result. The default output of an evaluation never replaces an earlier one.

    Raises:
        OutputPathError: all ``limit`` names are taken, or the folder cannot be written.
    """
    for k in range(1, limit + 1):
        name = path if k == 1 else path.with_name(f"{path.stem}-{k}{path.suffix}")
        try:
            os.close(os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            continue
        except OSError as e:
            raise OutputPathError(f"{name}: cannot be created ({e.strerror or e}); give --out PATH") from None
        return name
    raise OutputPathError(f"{path.parent}: {limit:,} results named {path.stem}-N{path.suffix} are there already; "
                          "give --out PATH or move them away")


def spec_key(spec: str) -> str:
    """What two agent specs that build the same agent share: for the built-in kinds without a path (``random``,
    ``heuristic``, ``mcts``, ``baseline``) the spec in lower case with numbers without leading zeros
    (``MCTS:05`` is ``mcts:5``; plain ``mcts`` is ``mcts:200``, as :func:`agents.make_agent` reads it); any
    other spec (a model path, a registered kind) as written but its kind, and an ``az:`` spec's ``+search:N``
    in lower case without leading zeros."""
    kind, sep, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "az":  # as the agent reads it: its path as written, its +search:N in any case, no leading zeros
        from agents.az_agent import parse_az_spec

        try:
            path, n = parse_az_spec(rest)
        except ValueError:  # refused when the agent is made, with its own message
            return f"az:{rest}"
        return f"az:{path}" + (f"+search:{n}" if n else "")
    if kind not in ("random", "heuristic", "mcts", "baseline", "baseline+search"):
        return f"{kind}{sep}{rest}"
    if kind == "mcts" and not rest.strip():
        sep, rest = ":", "200"
    return re.sub(r"(?<![0-9.])0+(?=[0-9])", "", f"{kind}{sep}{rest.lower()}")


def _count_arg(lo: int, hi: int) -> Any:
    """``argparse`` type: a decimal integer from ``lo`` to ``hi``."""
    def parse(text: str) -> int:
        try:
            value = plain_int(text.strip())  # ASCII digits: int() also reads "1_0" and other scripts' digits
        except ValueError:
            value = None
        if value is None or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"expected an integer from {lo:,} to {hi:,}, got {text[:40]!r}")
        return value

    return parse


def main(argv: list[str] | None = None) -> dict:
    """Command-line entry point (see the module docstring).

    Bad arguments (``--games 0``, ``--seed -1``, an unwritable ``--out``, ...) are one ``error:`` line and
    exit status 2, before the first game; Ctrl-C or SIGTERM exits with status 130 or 143.
    """
    from monolith_envs.core.cli import ArgumentParser
    from monolith_envs.core.interrupt import Interrupted, end_children, stop_on_signals
    from monolith_envs.core.processes import local_worker_limit, worker_limit_why
    from monolith_envs.core.seeds import MAX_SEED, seed_arg

    ap = ArgumentParser(prog="python -m training.evaluate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--env", required=True, help="env id, e.g. monolith_arena_v0")
    ap.add_argument("--agents", required=True,
                    help="comma-separated agent specs: random, heuristic, mcts:N[:c=X][:rollout=random|heuristic]"
                         "[:depth=D|none][:k=K|none] (plain mcts: mcts:200), ppo:PATH, rllib:CHECKPOINT, baseline, "
                         f"baseline+search:N[:mix=X], az:PATH[+search:N] (a training.az checkpoint; "
                         f"registered by this repository's agents package) (at most {MAX_AGENTS})")
    ap.add_argument("--games", type=_count_arg(1, MAX_GAMES), default=100,
                    help=f"matches per pair of agents, and per order of a pair in a game of three or more "
                         f"sides (1 to {MAX_GAMES:,}; default: 100)")
    ap.add_argument("--seed", type=seed_arg, default=0, help="base seed (game k uses seed + k), 0 to 2**128-1 (default: 0)")
    ap.add_argument("--workers", type=_count_arg(1, MAX_WORKERS), default=2,
                    help=f"worker processes (1 to {MAX_WORKERS}, and at most {local_worker_limit()} here: "
                         f"{worker_limit_why()}; default: 2)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="game config key; VALUE as TOML: 4, true, teams, '[\"a\", \"b\"]' (repeatable)")
    ap.add_argument("--preload", action="append", default=[], metavar="MODULE",
                    help="module to import first in every process (registers extra env ids)")
    ap.add_argument("--out", default=None, help="JSON output path; an earlier evaluation report there is replaced, any other file refused (default: runs/eval/eval_<env>_<seed>.json, or "
                    "eval_<env>_<seed>-2.json, -3, ... when that file exists: a default never replaces a result)")
    ap.add_argument("--out-dir", default=None, metavar="DIR",
                    help="folder of the default JSON name instead of runs/eval (eval_<env>_<seed>.json, -2, -3, ...: "
                         "never replaces a result); not with --out")
    ap.add_argument("--record-dir", default=None, metavar="DIR",
                    help="write every match's episode log to DIR, a new or empty folder (replay: python -m "
                         "monolith_envs replay FILE)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar (the tables and the JSON are the same)")
    add_trust_argument(ap)
    with stop_on_signals():
        args = None
        try:
            args = ap.parse_args(argv)
            return _main(ap, args, MAX_SEED)
        except Interrupted as e:
            end_children()
            done = e.info.get("games_done")
            wrote = "no results written"
            started = done is not None or e.info.get("games_finished")  # else the folder holds no log of this run
            logs = _episode_logs(args.record_dir) if started and args is not None and args.record_dir else []
            if logs:  # the finished games' logs stay (each is a whole game)
                wrote += (f" (the episode logs of {len(logs):,} finished game{'s' if len(logs) != 1 else ''} are in "
                          f"{args.record_dir})")
            if done is not None:
                ran = f"after {done:,} of {e.info['games_total']:,} games"
                if len(logs) > done:  # results come back a chunk of games at a time; each log is a whole game
                    ran += f" had come back ({len(logs):,} had finished)"
            elif e.info.get("games_finished"):  # every game played: stopped while the results were written
                ran = "after every game"
                if e.info.get("written"):
                    wrote = f"the results were written to {e.info['written']}"
            else:
                ran = "before the first game"
            print(f"\ninterrupted by {e.name} {ran}; worker processes ended; {wrote} "
                  f"(exit status {e.exit_code})", file=sys.stderr, flush=True)
            partial = e.info.get("partial") or []
            if partial:  # the finished games are not lost: their tallies, with intervals (not written)
                print("the finished games (win rate, 95% Wilson interval):\n  " + "\n  ".join(partial),
                      file=sys.stderr, flush=True)
            sys.exit(e.exit_code)


#: the name of an episode log ``--record-dir`` holds: ``pair<i>_game<k>.json`` or ``solo<i>_game<k>.json``
_LOG_NAME = re.compile(r"(?:pair|solo)\d+_game\d+\.json")


def _episode_logs(folder: str | Path) -> list[Path]:
    """The episode logs an evaluation wrote in ``folder``, sorted (``[]`` when it is not a folder)."""
    p = Path(folder)
    return sorted(f for f in p.iterdir() if _LOG_NAME.fullmatch(f.name)) if p.is_dir() else []


def _main(ap: argparse.ArgumentParser, args: argparse.Namespace, max_seed: int) -> dict:
    trust_models_from_args(args)  # spawned workers inherit it
    from monolith_envs.core.cli import game_settings, import_modules, spec_error, split_specs

    try:
        import_modules(args.preload, "--preload")
    except ImportError as e:
        ap.error(str(e))
    import monolith_envs
    from agents import AgentError, make_agent

    if args.seed + args.games - 1 > max_seed:
        ap.error(f"--seed {args.seed} with --games {args.games}: game k uses seed + k, which must stay at most "
                 f"2**128-1; use a seed up to {max_seed - args.games + 1}")
    try:
        specs = split_specs(args.agents)
    except ValueError as exc:
        ap.error(f"--agents {exc}")
    if len(specs) > MAX_AGENTS:
        ap.error(f"--agents: {len(specs):,} specs; at most {MAX_AGENTS} (every pair of them plays --games matches)")
    from monolith_envs.core.processes import local_worker_limit, worker_limit_why

    if args.workers > local_worker_limit():  # each worker loads the agents (torch and a model for ppo / baseline)
        ap.error(f"--workers {args.workers}: more local processes than this machine takes: at most "
                 f"{local_worker_limit()} ({worker_limit_why()})")
    humans = [s for s in specs if s.split(":", 1)[0].strip().lower() == "human"]
    if humans:
        ap.error(f"--agents {humans[0]!r}: evaluation plays unattended on worker processes; play a human game "
                 f"with `python -m agents.play {args.env}` (agents here: random, heuristic, mcts:N, ppo:PATH, ...)")
    try:  # fail fast on a bad env id, game config or agent spec
        env_config = game_settings(args.set)
        game = monolith_envs.make(args.env, **env_config).unwrapped.game
        solo = game.num_players == 1
        ffa_opponents = game.num_players - 1 if max(len(t) for t in game.teams) == 1 else 1
        for s in specs:
            make_agent(s, args.env, env_config, unattended=True)
    except (monolith_envs.MonolithEnvError, ValueError, FileNotFoundError, AgentError) as e:
        ap.error(spec_error(e, args.agents))
    keys = [spec_key(s) for s in specs]
    dup = [s for i, s in enumerate(specs) if keys[i] in keys[:i]]
    if dup:
        ap.error(f"--agents: {dup[0]!r} repeats an earlier spec of {specs} (the same agent; each spec once)")
    if len(specs) < (1 if solo else 2):
        ap.error(f"--agents needs {'one spec or more' if solo else 'at least two'} distinct specs, got {specs}")
    if args.out is not None and args.out_dir is not None:
        ap.error("--out names the file, --out-dir the folder of the default name: give one of them")
    folder = Path(args.out_dir) if args.out_dir is not None else Path("runs") / "eval"
    path = Path(args.out) if args.out is not None else folder / f"eval_{args.env}_{args.seed}.json"
    if args.record_dir is not None and args.record_dir.strip() and Path(args.record_dir).is_dir():
        try:
            inside = sorted(Path(args.record_dir).iterdir())
        except OSError as e:
            ap.error(f"--record-dir {args.record_dir}: cannot list it ({e.strerror or e}); give a new or empty folder")
        earlier = [f for f in inside if _LOG_NAME.fullmatch(f.name)]  # as _episode_logs finds them
        if earlier:  # this run's logs would replace some of them and sit beside the others
            ap.error(f"--record-dir {args.record_dir}: holds {count(len(earlier), 'episode log')} of an earlier "
                     f"evaluation ({earlier[0].name}, ...); give a new or empty folder, so the logs of two runs do "
                     "not mix")
        if inside:  # other files: the logs would sit among them (and a run could write into any folder)
            names = [f.name for f in inside]
            ap.error(f"--record-dir {args.record_dir}: is not empty ({count(len(names), 'entry', 'entries')}: "
                     f"{', '.join(names[:3])}{', ...' if names[3:] else ''}); give a new or empty folder")
    try:  # the outputs are checked by creating their folders and a probe file, before the first game
        with new_folders_removed_on_error(path.parent, *([] if args.record_dir is None else [args.record_dir])):
            check_output_file(path if args.out is None else args.out,  # the text as given: "" is not "."
                              "--out-dir" if args.out_dir is not None else "--out",
                              EVALUATION_REPORT)
            if args.record_dir is not None:
                check_output_dir(args.record_dir, "--record-dir")
    except OutputPathError as e:
        ap.error(str(e))
    try:
        res = run_tournament(args.env, specs, args.games, args.seed, env_config, args.workers, args.preload,
                             progress=not args.no_progress, record_dir=args.record_dir)
    except AgentError as e:  # an agent that cannot go on in a game (a network whose output overflows there)
        kept = (f" (the finished games' episode logs stay in {args.record_dir})" if args.record_dir is not None
                else "")
        print(f"{ap.prog}: error: {e}; the other games were stopped and no results written{kept}", file=sys.stderr)
        raise SystemExit(1) from None
    from monolith_envs.core.interrupt import Interrupted, signals_deferred

    written = None
    try:  # every game is played: a stop from here on says so (and whether the results were written)
        print(format_solo_table(res["solo"]) if solo else format_table(specs, res["pairs"], res["ratings"],
                                                                        ffa_opponents))
        note = truncation_note(res["solo"] or res["pairs"], game.max_decisions, solo)
        if note:
            print(note)
        out = {
            "env_id": args.env, "env_config": env_config, "agents": specs, "games_per_pair": args.games,
            "seed": args.seed, "pairs": [p.summary() for p in res["pairs"]], "ratings": res["ratings"],
        }
        if solo:
            out["solo"] = [s.summary() for s in res["solo"]]
        with signals_deferred():  # the write and its record are one step: a stop inside it waits for its end
            if args.out is None:
                try:
                    path = free_path(path)  # reserved (an empty file) until the write replaces it
                except OutputPathError as e:  # the table above is printed; the file cannot be
                    ap.error(f"the results were not written: {e}")
            write_text_atomic(path, json.dumps(out, indent=2))
            written = path
            print(f"wrote {path}")
            logs = _episode_logs(args.record_dir) if args.record_dir is not None else []
            if logs:
                print(f"episode logs of {len(logs):,} game{'s' if len(logs) != 1 else ''} in {args.record_dir}; "
                      f"replay one: python -m monolith_envs replay {shlex.quote(str(logs[0]))} "
                      f"[--html FILE.html]")
    except Interrupted as e:
        e.info["games_finished"] = True
        e.info["written"] = None if written is None else str(written)
        raise
    return out


if __name__ == "__main__":
    main()
