"""HP, eliminations and the end of the game (docs/monolith_arena.md §4.9, §8).

:func:`lose_hp` takes HP off a Banner (an alliance pool in teams mode); :func:`banner_check` ends the game or
eliminates ffa seats at 0 HP; :func:`final_result` ranks the seats after the final Battle (HP, then own
Champions and Runes on the board); :func:`game_over` records the winners and the terminal returns
(:func:`terminal_values`).
"""

from __future__ import annotations

import numpy as np

from ..core import returns
from .effects import dirty, get_fx
from .relocation import remove_tile, settle
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Loc, Sub
from .tables import Kind

_ON_BOARD_KINDS = (Kind.CHAMPION, Kind.RUNE)

__all__ = ["lose_hp", "eliminate", "game_over", "banner_check", "tile_count", "final_result", "terminal_values"]


def lose_hp(g, s, owner: int, amount: int) -> None:
    """``owner``'s Banner (teams: its alliance pool) loses ``amount`` HP, floored at 0 (docs/monolith_arena.md §4.7)."""
    if g.team_mode:
        t = g.team[owner]
        s.pool[t] = max(0, s.pool[t] - amount)
    else:
        s.hp[owner] = max(0, s.hp[owner] - amount)


def eliminate(g, s, q: int) -> None:
    """Remove ffa seat ``q`` from the game (docs/monolith_arena.md §4.9, D22)."""
    s.alive[q] = False
    s.last_round_owed[q] = False
    base = q * PER_SEAT
    fx = get_fx(g, s)
    # tiles inside q's folded Monolith leave the game (whoever owns them)
    if g.module:
        if s.mono_folded[q]:
            for k in (0, 1):
                c = s.seg_content[q][k]
                if c >= 0 and s.loc[c] == Loc.MONOLITH:
                    remove_tile(g, s, c, Loc.OUT)
        s.seg_content[q] = [-1, -1]
        s.seg_hex[q] = [-1, -1, -1]
        s.mono_folded[q] = True
    for i in range(base, base + PER_SEAT):
        if s.loc[i] in (Loc.BOARD, Loc.MONOLITH):
            remove_tile(g, s, i, Loc.OUT)
    del fx
    dirty(s)


def game_over(g, s, winners) -> None:
    """End the game with ``winners`` (all seats = draw) and set the terminal returns (docs/monolith_arena.md §8)."""
    s.terminal = True
    s.winners = sorted(int(w) for w in winners)
    s.sub_phase = int(Sub.GAME_OVER)
    s.acting_seat = -1
    s.b_active = False
    s.p_effect = s.p_order = s.p_mode = s.p_a = s.p_b = s.p_c = -1
    term = terminal_values(g, s)
    if g.config["reward_mode"] == "score":
        s.cum_reward = [a + b for a, b in zip(s.cum_reward, term)]
    else:
        s.cum_reward = list(term)
    dirty(s)


def banner_check(g, s) -> bool:
    """Docs/monolith_arena.md §4.9 Banner check; returns True when the game is over."""
    n = g.n
    if not g.team_mode and min(s.hp) > 0:  # (the usual case: no Banner at 0 HP, nothing to do)
        return False
    if g.team_mode:
        a = s.pool[0] <= 0
        b = s.pool[1] <= 0
        if a or b:
            if a and b:
                game_over(g, s, range(n))
            else:
                lost = 0 if a else 1
                game_over(g, s, [p for p in range(n) if g.team[p] != lost])
            return True
        return False
    if not g.ffa:
        dead = [p for p in range(n) if s.hp[p] <= 0]
        if dead:
            game_over(g, s, range(n) if len(dead) == n else [p for p in range(n) if p not in dead])
            return True
        return False
    dead = [p for p in range(n) if s.alive[p] and s.hp[p] <= 0]
    if not dead:
        return False
    for p in dead:
        s.elim_order[p] = s.elim_count
    s.elim_count += 1
    for p in dead:
        eliminate(g, s, p)
    settle(g, s)
    alive = [p for p in range(n) if s.alive[p]]
    if len(alive) == 1:
        game_over(g, s, alive)
        return True
    if not alive:
        game_over(g, s, dead)
        return True
    return False


def tile_count(g, s, p: int) -> int:
    """Own Champions and Runes on the board (tie-break 1, D17)."""
    kind = g.tables.kind
    return sum(1 for h in range(19) if s.board[h] >= 0 and s.board[h] // PER_SEAT == p
               and kind[s.itype[s.board[h]]] in _ON_BOARD_KINDS)


def final_result(g, s) -> None:
    """Winners after the final Battle: HP (pool), then own Champions+Runes, then shared (docs/monolith_arena.md §4.9)."""
    if g.team_mode:
        keys = {}
        for t in (0, 1):
            cnt = sum(tile_count(g, s, p) for p in range(g.n) if g.team[p] == t)
            keys[t] = (s.pool[t], cnt)
        best = max(keys.values())
        wt = [t for t in (0, 1) if keys[t] == best]
        game_over(g, s, [p for p in range(g.n) if g.team[p] in wt])
        return
    cands = [p for p in range(g.n) if s.alive[p]]
    keys = {p: (max(0, s.hp[p]), tile_count(g, s, p)) for p in cands}
    best = max(keys.values())
    game_over(g, s, [p for p in cands if keys[p] == best])


def terminal_values(g, s) -> list:
    """Terminal reward vector per docs/monolith_arena.md §8 (win_loss, or rank in ffa), float64 (core/returns.py)."""
    n = g.n
    w = set(s.winners)
    if g.config["reward_mode"] == "rank" and g.ffa:
        keys = []
        for p in range(n):
            if p in w:
                keys.append((2, 0, 0))
            elif s.alive[p]:
                keys.append((1, max(0, s.hp[p]), tile_count(g, s, p)))
            else:
                keys.append((0, s.elim_order[p], 0))
        return returns.rank(keys, np.float64).tolist()
    return returns.win_loss(n, w, np.float64).tolist()


def end_reason(g, s) -> str:
    """Why a finished game ended as it did, in words (docs/monolith_arena.md §4.9): a Banner (pool) at 0, the
    others eliminated, or the final Battle's HP (pools) and, where they tie, its first tie-break, the own
    Champions and Runes on the board (D17); e.g. ``"after the final Battle: HP P0 20, P1 20; tied at the
    top, so own Champions and Runes on the board decide: P0 3, P1 4"``.  ``""`` for a game that is not over."""
    if not s.terminal:
        return ""
    n = g.n
    if g.team_mode:
        out = [t for t in (0, 1) if s.pool[t] <= 0]
        if out:
            return " and ".join(f"team {'AB'[t]}'s pool" for t in out) + " reached 0"
        lives = ", ".join(f"team {'AB'[t]} pool {s.pool[t]}" for t in (0, 1))
        counts = ", ".join(f"team {'AB'[t]} {sum(tile_count(g, s, p) for p in range(n) if g.team[p] == t)}"
                           for t in (0, 1))
        tied = s.pool[0] == s.pool[1]
    else:
        dead = [p for p in range(n) if (not s.alive[p] if g.ffa else s.hp[p] <= 0)]
        if not g.ffa and dead:
            return " and ".join(f"P{p}'s Banner" for p in dead) + " reached 0 HP"
        alive = [p for p in range(n) if s.alive[p]]
        if g.ffa and len(alive) <= 1:
            return ("every other player was eliminated" if alive else
                    "the last players were eliminated together")
        lives = "HP " + ", ".join(f"P{p} {max(0, s.hp[p])}" for p in alive)
        best = max(max(0, s.hp[p]) for p in alive)
        top = [p for p in alive if max(0, s.hp[p]) == best]
        counts = ", ".join(f"P{p} {tile_count(g, s, p)}" for p in top)
        tied = len(top) > 1
    if not tied:
        return f"after the final Battle: {lives}"
    text = f"after the final Battle: {lives}; tied at the top, so own Champions and Runes on the board decide: {counts}"
    return text + ("; still tied, so a draw" if len(s.winners) == n else "")
