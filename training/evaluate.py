"""Tournament evaluation: cross-play win rates with 95% Wilson intervals and openskill ratings.

Command line::

    python -m training.evaluate --env monolith_arena_v0 --agents random,heuristic,mcts:200,ppo:PATH \
        --games 100 --seed 0 [--workers 2] [--out results.json] [--set num_players=2] [--record-dir DIR]
        [--trust-model-files]

Every pair of agents plays ``--games`` matches; in game ``k`` of a pair the first agent sits at seat
``k mod num_players`` and the second fills the other seats (seat rotation), and the episode seed is
``seed + k`` for every pair (the same deals for every pairing).  Matches run on ``--workers`` processes;
results are gathered and applied to the ratings in a fixed order, so the output does not depend on timing.
Ratings: openskill's Plackett-Luce model, one update per match (ranked by each agent's best seat return).

Worker model: with ``--workers`` above 1 the matches run in a ``ProcessPoolExecutor`` whose processes are
*spawned* (a fresh interpreter each, the same on every OS; forking a process that holds torch threads is not
safe).  A spawned worker imports the module that started it, so a script that calls :func:`run_pairing` or
:func:`run_tournament` must keep its top-level code under ``if __name__ == "__main__":``, or every worker
re-runs the whole script.  Each worker builds its own env and agents from the spec strings (``ppo:PATH``
models are loaded once per task) and sets torch to one thread.  ``workers=1`` plays in the calling process.

Model files given as ``ppo:PATH`` are untrusted: they are loaded without running code from the file, and
a file that needs more is refused (:mod:`agents.ppo`); ``--trust-model-files`` lifts that for files you
trust.  The JSON goes to ``runs/eval/`` unless ``--out`` says otherwise; ``--record-dir`` writes every
match's episode log (``python -m monolith_envs replay FILE``).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import math
import multiprocessing as mp
import os
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["PairResult", "format_table", "main", "run_pairing", "run_tournament", "wilson_interval"]


def wilson_interval(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval ``(low, high)`` of a win rate ``wins / n`` (``(0, 1)`` when ``n == 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class PairResult:
    """Outcome of ``games`` matches of agent ``a`` against agent ``b`` (from ``a``'s side).

    ``outcomes[k]`` is ``1`` (a won), ``0`` (draw / shared win / truncation) or ``-1`` (a lost) for game k;
    ``seats[k]`` is a's seat; ``returns[k]`` the returns by seat; ``decisions[k]`` the match length.
    """

    a: str
    b: str
    games: int = 0
    outcomes: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    returns: list[list[float]] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def wins(self) -> int:
        """Games ``a`` won outright."""
        return sum(1 for o in self.outcomes if o > 0)

    @property
    def draws(self) -> int:
        """Games with no outright winner between ``a`` and ``b`` (draws, shared wins, truncations)."""
        return sum(1 for o in self.outcomes if o == 0)

    @property
    def losses(self) -> int:
        """Games ``a`` lost."""
        return sum(1 for o in self.outcomes if o < 0)

    def summary(self) -> dict:
        """JSON-ready dict: wins, draws, losses, win_rate and its 95% Wilson interval, mean length."""
        n = len(self.outcomes)
        lo, hi = wilson_interval(self.wins, n)
        return {
            "agent": self.a, "opponent": self.b, "games": n, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "win_rate": self.wins / n if n else 0.0, "ci95": [lo, hi],
            "mean_decisions": float(np.mean(self.decisions)) if self.decisions else 0.0,
            "seconds": self.seconds,
        }


def _outcome(ret: np.ndarray, seat: int, others: list[int], truncated: bool) -> int:
    if truncated:
        return 0
    mine, best_other = float(ret[seat]), float(max(ret[o] for o in others))
    return 1 if mine > best_other else (-1 if mine < best_other else 0)


def _play_chunk(args: tuple) -> list[tuple]:
    """Worker: play the games ``ks`` of one pairing; returns ``(k, seat, returns, decisions, truncated, secs)``."""
    import time

    env_id, env_config, spec_a, spec_b, seed, ks, preload, record = (tuple(args) + (None,))[:8]
    for mod in preload:
        importlib.import_module(mod)
    import monolith_envs
    from agents import make_agent, play_match

    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    env = monolith_envs.make(env_id, wrapped=False, **env_config)
    n = env.unwrapped.game.num_players
    agent_a = make_agent(spec_a, env_id)
    b_agents = [make_agent(spec_b, env_id) for _ in range(n - 1)]
    out = []
    for k in ks:
        seat = k % n
        seats: list[Any] = list(b_agents)
        seats.insert(seat, agent_a)
        t = time.perf_counter()
        res = play_match(env, seats, seed=seed + k)
        out.append((k, seat, res.returns.tolist(), res.decisions, res.truncated, time.perf_counter() - t))
        if record is not None:  # (folder, file-name prefix)
            _record_match(env.unwrapped, Path(record[0]) / f"{record[1]}_game{k:04d}.json",
                          f"{spec_a} at seat {seat} vs {spec_b}")
    return out


def _record_match(raw: Any, path: Path, note: str) -> None:
    """Write the episode log of the match just played (replay with ``python -m monolith_envs replay``)."""
    log = raw.episode_log
    log.note = note if not log.note else f"{note}; {log.note}"
    path.parent.mkdir(parents=True, exist_ok=True)
    log.save(path)


def _executor(workers: int) -> ProcessPoolExecutor | None:
    if workers <= 1:
        return None
    return ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"))


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
        chunk: games per task (default: about 4 tasks per worker).
        progress: show a tqdm bar.
        record_dir: write each match's episode log there (``pair0_game<k>.json``).
    """
    return run_tournament(env_id, [spec_a, spec_b], games, seed, env_config, workers, preload, executor,
                          pairs=[(spec_a, spec_b)], chunk=chunk, progress=progress, record_dir=record_dir)["pairs"][0]


def run_tournament(env_id: str, specs: Sequence[str], games: int, seed: int = 0, env_config: dict | None = None,
                   workers: int = 2, preload: Sequence[str] = (), executor: Any = None,
                   pairs: Sequence[tuple[str, str]] | None = None, chunk: int | None = None,
                   progress: bool = False, record_dir: str | Path | None = None) -> dict:
    """Every pair of ``specs`` plays ``games`` matches; returns ``{"pairs": [PairResult], "ratings": {...}}``.

    Matches run as in :func:`run_pairing` (spawned worker processes when ``workers > 1``); with
    ``record_dir`` each match's episode log is written as ``pair<i>_game<k>.json``.

    Ratings are openskill Plackett-Luce ``{spec: {"mu", "sigma", "ordinal"}}`` after all matches, applied in
    (pair, game) order.

    Raises:
        ValueError: fewer than two distinct specs, or ``games < 1``.
    """
    from tqdm import tqdm

    env_config = dict(env_config or {})
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    if pairs is None:
        if len(set(specs)) != len(specs) or len(specs) < 2:
            raise ValueError(f"need at least two distinct agent specs, got {list(specs)}")
        pairs = list(itertools.combinations(specs, 2))
    own = executor is None
    ex = _executor(workers) if own else executor
    n_workers = workers if own else getattr(ex, "_max_workers", 2)
    size = chunk or max(1, math.ceil(games / max(1, 4 * n_workers)))
    tasks = []
    for pi, (a, b) in enumerate(pairs):
        for start in range(0, games, size):
            tasks.append((pi, (env_id, env_config, a, b, seed, list(range(start, min(games, start + size))),
                               tuple(preload), None if record_dir is None else (str(record_dir), f"pair{pi}"))))
    results: dict[int, list[tuple]] = {i: [] for i in range(len(pairs))}
    bar = tqdm(total=games * len(pairs), desc="games", disable=not progress, file=sys.stderr)
    try:
        if ex is None:
            for pi, t in tasks:
                r = _play_chunk(t)
                results[pi].extend(r)
                bar.update(len(r))
        else:
            futs = [(pi, ex.submit(_play_chunk, t)) for pi, t in tasks]
            for pi, f in futs:
                r = f.result()
                results[pi].extend(r)
                bar.update(len(r))
    finally:
        bar.close()
        if own and ex is not None:
            ex.shutdown()
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    names = list(dict.fromkeys([p for ab in pairs for p in ab]))
    ratings = {s: model.rating(name=s) for s in names}
    out_pairs = []
    for pi, (a, b) in enumerate(pairs):
        pr = PairResult(a, b)
        for _k, seat, ret, dec, trunc, secs in sorted(results[pi]):
            n = len(ret)
            others = [s for s in range(n) if s != seat]
            o = _outcome(np.asarray(ret), seat, others, trunc)
            pr.outcomes.append(o)
            pr.seats.append(seat)
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
    return {"pairs": out_pairs, "ratings": rating_out}


def format_table(specs: Sequence[str], pairs: Sequence[PairResult], ratings: dict) -> str:
    """Cross-play table: row agent's win rate [95% CI] against the column agent, then the ratings."""
    cell: dict[tuple[str, str], str] = {}
    for p in pairs:
        n = len(p.outcomes)
        lo, hi = wilson_interval(p.wins, n)
        cell[(p.a, p.b)] = f"{p.wins / n:5.1%} [{lo:.2f},{hi:.2f}]"
        lo2, hi2 = wilson_interval(p.losses, n)
        cell[(p.b, p.a)] = f"{p.losses / n:5.1%} [{lo2:.2f},{hi2:.2f}]"
    w0 = max(8, max(len(s) for s in specs))
    w = 22
    lines = ["win rate of row vs column [95% Wilson CI] (draws count as non-wins)",
             " " * w0 + " | " + " | ".join(s[:w].ljust(w) for s in specs)]
    for r in specs:
        row = [cell.get((r, c), "-" if r == c else "").ljust(w) for c in specs]
        lines.append(r.ljust(w0) + " | " + " | ".join(row))
    lines.append("")
    lines.append("openskill (Plackett-Luce) ratings, by ordinal = mu - 3 sigma:")
    for s, r in sorted(ratings.items(), key=lambda kv: -kv[1]["ordinal"]):
        lines.append(f"  {s.ljust(w0)}  mu={r['mu']:6.2f}  sigma={r['sigma']:5.2f}  ordinal={r['ordinal']:6.2f}")
    return "\n".join(lines)


def _parse_set(items: list[str]) -> dict:
    from training.config import _parse_value

    out = {}
    for it in items:
        k, sep, v = it.partition("=")
        if not sep:
            raise SystemExit(f"--set expects key=value, got {it!r}")
        out[k.strip()] = _parse_value(v.strip())
    return out


def main(argv: list[str] | None = None) -> dict:
    """Command-line entry point (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--env", required=True, help="env id, e.g. monolith_arena_v0")
    ap.add_argument("--agents", required=True,
                    help="comma-separated agent specs: random, heuristic, mcts:N, ppo:PATH")
    ap.add_argument("--games", type=int, default=100, help="matches per pair of agents")
    ap.add_argument("--seed", type=int, default=0, help="base seed (game k uses seed + k)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="game config key")
    ap.add_argument("--preload", action="append", default=[], metavar="MODULE",
                    help="module to import first in every process (registers extra env ids)")
    ap.add_argument("--out", default=None, help="JSON output path (default: runs/eval/eval_<env>_<seed>.json)")
    ap.add_argument("--record-dir", default=None, metavar="DIR",
                    help="write every match's episode log to DIR (replay: python -m monolith_envs replay FILE)")
    ap.add_argument("--trust-model-files", action="store_true",
                    help="let ppo:PATH model files run the code they name when loaded (only for files you "
                         "trust; by default a model is loaded without running code from it, or refused)")
    args = ap.parse_args(argv)
    if args.trust_model_files:
        from agents.ppo import TRUST_ENV_VAR

        os.environ[TRUST_ENV_VAR] = "1"  # spawned workers inherit it
    for mod in args.preload:
        importlib.import_module(mod)
    import monolith_envs
    from agents import AgentError, make_agent

    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    env_config = _parse_set(args.set)
    try:  # fail fast on a bad env id, game config or agent spec
        monolith_envs.make(args.env, **env_config)
        for s in specs:
            make_agent(s, args.env)
    except (monolith_envs.MonolithEnvError, ValueError, FileNotFoundError, AgentError) as e:
        ap.error(str(e))
    if len(set(specs)) != len(specs) or len(specs) < 2:
        ap.error(f"--agents needs at least two distinct specs, got {specs}")
    res = run_tournament(args.env, specs, args.games, args.seed, env_config, args.workers, args.preload,
                         progress=True, record_dir=args.record_dir)
    print(format_table(specs, res["pairs"], res["ratings"]))
    out = {
        "env_id": args.env, "env_config": env_config, "agents": specs, "games_per_pair": args.games,
        "seed": args.seed, "pairs": [p.summary() for p in res["pairs"]], "ratings": res["ratings"],
    }
    path = Path(args.out) if args.out else Path("runs") / "eval" / f"eval_{args.env}_{args.seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2))
    print(f"wrote {path}")
    return out


if __name__ == "__main__":
    main()
