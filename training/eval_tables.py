"""The text tables of ``training.evaluate``, and the 95% Wilson score interval they print.

:func:`format_table` prints a cross-play table (the row agent's win rate against each column agent with its
interval) and the openskill ratings; :func:`format_solo_table` one line per agent of a one-seat game. Both
read the results of :func:`training.evaluate.run_tournament` (``PairResult`` / ``SoloResult``, defined in
:mod:`training.eval_results`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from monolith_envs.agents.match import side_sign
from monolith_envs.core.words import count

__all__ = ["format_solo_table", "format_table", "partial_lines", "side_sign", "truncation_note", "wilson_interval"]


def wilson_interval(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval ``(low, high)`` of a win rate ``wins / n`` (``(0, 1)`` when ``n == 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # the ends are exact at 0 and n wins (centre - half is then 0 up to rounding, e.g. 5.6e-17)
    return (0.0 if wins <= 0 else max(0.0, centre - half)), (1.0 if wins >= n else min(1.0, centre + half))


def format_table(specs: Sequence[str], pairs: Sequence[Any], ratings: dict, opponents: int = 1) -> str:
    """Cross-play table: row agent's win rate [95% CI] against the column agent, then the ratings.

    ``opponents``: how many copies of the column agent face the row agent's one seat (free-for-all games
    of 3-4 seats); the heading then says that a win is a first place.

    A column is as wide as a cell (22 characters).  When a spec is longer (``az:runs/az_arena_2p/final.pt``),
    every agent gets a label ``#k``: its row reads ``#k`` and the full spec, its column heading ``#k`` and
    the end of the spec, so that two long specs with the same beginning can still be told apart."""
    cell: dict[tuple[str, str], str] = {}
    played = {(p.a, p.b) for p in pairs}
    for p in pairs:
        n = len(p.outcomes)
        lo, hi = wilson_interval(p.wins, n)
        cell[(p.a, p.b)] = f"{p.wins / n:5.1%} [{lo:.1%}-{hi:.1%}]"
        if (p.b, p.a) not in played:  # two sides: the column agent won what the row agent lost
            lo2, hi2 = wilson_interval(p.losses, n)
            cell[(p.b, p.a)] = f"{p.losses / n:5.1%} [{lo2:.1%}-{hi2:.1%}]"
    w = 22  # a cell: "100.0% [100.0%-100.0%]"
    names = list(specs)
    labelled = any(len(s) > w for s in specs)
    if labelled:  # a spec too long for a column heading: "#k" before each row's full spec and in its heading
        names = [f"#{i} {s}" for i, s in enumerate(specs, 1)]
    w0 = max(8, max(len(n) for n in names))
    head = ("win rate of row vs column [95% Wilson CI] (draws count as non-wins)" if opponents <= 1 else
            f"first places of row, at one seat (rotating) against {opponents} copies of column [95% Wilson CI] "
            f"(a shared first place counts as a non-win; an equal share is {100 / (opponents + 1):.0f}%; each cell "
            "is its own match, so a pair's two cells need not add up to 100%)")
    lines = [head] + (["(column #k is the agent of row #k; a long spec's heading shows only its end)"]
                      if labelled else [])
    lines.append(" " * w0 + " | " + " | ".join(_heading(n, w).ljust(w) for n in names))
    for r, name in zip(specs, names):
        row = [cell.get((r, c), "-" if r == c else "").ljust(w) for c in specs]
        lines.append(name.ljust(w0) + " | " + " | ".join(row))
    lines.append("")
    lines.append("openskill (Plackett-Luce) ratings, strongest first (ordinal = mu - 3 sigma, the skill it is "
                 "sure of; a new agent starts at mu 25, sigma 8.33):")
    for s, r in sorted(ratings.items(), key=lambda kv: -kv[1]["ordinal"]):
        lines.append(f"  {s.ljust(w0)}  mu={r['mu']:6.2f}  sigma={r['sigma']:5.2f}  ordinal={r['ordinal']:6.2f}")
    return "\n".join(lines)


def _heading(name: str, w: int) -> str:
    """``name`` as a column heading of ``w`` characters: a longer ``"#k spec"`` keeps ``#k`` and the spec's end
    (paths differ at their end: ``#1 ...n1/final.pt``)."""
    if len(name) <= w:
        return name
    label, spec = name.split(" ", 1)
    return f"{label} ...{spec[-(w - len(label) - 4):]}"


def format_solo_table(solos: Sequence[Any]) -> str:
    """One line per agent of a one-seat game: success rate [95% Wilson CI], mean final score, mean length."""
    w0 = max(8, max(len(s.agent) for s in solos))
    lines = ["success rate [95% Wilson CI], mean final score (return), mean decisions"]
    for s in solos:
        d = s.summary()
        lo, hi = d["ci95"]
        lines.append(f"  {s.agent.ljust(w0)}  {d['success_rate']:5.1%} [{lo:.1%}-{hi:.1%}]  "
                     f"score={d['mean_score']:7.3f}  decisions={d['mean_decisions']:7.1f}  ({count(d['games'], 'game')})")
    return "\n".join(lines)


def truncation_note(results: Sequence[Any], max_decisions: int, solo: bool) -> str:
    """A line under the table when some games were stopped at ``max_decisions`` (a truncation has no winner:
    a draw in a match, a failure alone), naming how many of each row's games; ``""`` when none was.

    ``results``: :class:`~training.eval_results.PairResult` or :class:`~training.eval_results.SoloResult`
    objects (their ``truncated`` and ``games``)."""
    cut = [r for r in results if r.truncated]
    if not cut:
        return ""
    counted = "failures" if solo else "draws"
    parts = [f"{r.agent if solo else f'{r.a} vs {r.b}'}: {r.truncated} of {count(r.games, 'game')}" for r in cut]
    return (f"note: games stopped at max_decisions={max_decisions:,} (counted as {counted}; raise max_decisions "
            f"with --set to play them out): {'; '.join(parts)}")


def partial_lines(pairs: Sequence[tuple], results: dict, solo: bool) -> list[str]:
    """One line per pair (or agent alone) with finished games, for an evaluation stopped before its end: the
    row agent's wins, draws and losses of those games (alone: successes) and the win rate with its 95% Wilson
    interval, e.g. ``"baseline vs heuristic: 12W 3D 17L of 32 games: 37.5% (22.9-54.7%)"``.

    ``results[i]``: the finished games of ``pairs[i]``, as :func:`training.evaluate.run_tournament` collects
    them (``(k, seats of the row agent, returns, decisions, truncated, outcome names or None, seconds)``)."""
    out = []
    for i, (a, b) in enumerate(pairs):
        games = results.get(i) or []
        if not games:
            continue
        n = len(games)
        if solo:
            won = sum(1 for g in games if g[5] is not None and g[5][0] == "success")
            lo, hi = wilson_interval(won, n)
            out.append(f"{a}: {won} successes of {n} games: {won / n:.1%} ({lo:.1%}-{hi:.1%})")
        else:
            signs = [side_sign(g[5], g[1]) for g in games]
            won, draws, lost = signs.count(1), signs.count(0), signs.count(-1)
            lo, hi = wilson_interval(won, n)
            out.append(f"{a} vs {b}: {won}W {draws}D {lost}L of {n} games: {won / n:.1%} ({lo:.1%}-{hi:.1%})")
    return out
