"""The Strategy narration's words for dice (docs §4.4-§4.5, §4.17): what a step did to each seat's pool and
set-aside dice, the Chance roll, the Advancement's die from the Source and an Exalted Offering's dice
(:func:`monolith_envs.strategy.narration.narrate` says them in the rules' order)."""

from __future__ import annotations

from typing import Any

from .render import pool_faces
from .state import Kind

__all__ = ["dice_changes", "exalted_start", "onto_round_card", "source_dice"]


def _dice(pool: list, aside: int) -> tuple[str, int]:
    """A seat's unsocketed dice by face (``pool[f]`` dice show ``f + 1``: ``"[4 6]"``, ``"[-]"``) and its
    set-aside count."""
    return "[" + (pool_faces(pool) or "-") + "]", aside


def _socketed(s: Any, p: int) -> list[int]:
    """How many of seat ``p``'s dice in sockets (the board's and its private Runes') show each face 1-6."""
    n = [0] * 6
    for sid in range(len(s.sock_seat)):
        if s.sock_seat[sid] == p and 1 <= s.sock_face[sid] <= 6:
            n[s.sock_face[sid] - 1] += 1
    for pr in s.priv[p]:
        for f in pr["occ"]:
            if 1 <= f <= 6:
                n[f - 1] += 1
    return n


def source_dice(before: Any, after: Any) -> list[str]:
    """The Advancement's die from the Source (docs §4.17 step 4) in words, ``["  P0, P1: a die from the Source
    into the pool"]``, or ``[]`` when no seat's Source gave one."""
    took = [f"P{p}" for p in range(len(after.src_dice)) if after.src_dice[p] < before.src_dice[p]]
    return [f"  {', '.join(took)}: a die from the Source into the pool"] if took else []


def exalted_start(key: Any) -> bool:
    """Whether a narration segment's ``key`` (``(src, where)``, ``src`` = ``(type, index, group, line)``) is a
    line of the Round card's Exalted ``start`` (docs §4.5)."""
    return key is not None and isinstance(key[0], tuple) and key[0][0] == "x" and key[0][2] == "start"


def onto_round_card(before: Any, after: Any) -> list[tuple[int, int]]:
    """``[(seat, face)]`` of the dice put into the Round card's sockets between ``before`` and ``after`` (an
    Exalted start's ``auto_socket``, docs §4.5: the position's socket ids, §4.2), in socket order."""
    lo = (after.rc_pos - 1) * 4
    return [(after.sock_seat[sid], after.sock_face[sid]) for sid in range(max(lo, 0), max(lo + 4, 0))
            if after.sock_seat[sid] >= 0
            and (before.sock_seat[sid], before.sock_face[sid]) != (after.sock_seat[sid], after.sock_face[sid])]


def dice_changes(game: Any, before: Any, after: Any, action: int, seat: int,
                 onto: list[tuple[int, int]] = (), rolled: bool = False) -> str:
    """The seats whose pool or set-aside dice changed in this step beyond the action itself (an exile, a
    reroll, a face set, the Chance Phase's rolls), e.g. ``P1 pool [4 6] -> [6], set aside 0 -> 1``; dice
    going into sockets (a placement) or back out of them with their faces, and the acting seat's die that a
    set-aside takes, are no change to say; ``onto`` (``[(seat, face)]``: dice an Exalted start put onto the
    Round card right after the roll) are shown in the pool, as rolled; with ``rolled`` (the step holds the
    Chance roll, docs §4.4) every seat with dice says what it rolled (``P1 rolls [2 5 6]``: the faces before
    it do not matter, and round 1's dice had none yet).  ``""`` when none."""
    fam, idx = game.layout.split(int(action))
    out = []
    for p in range(game.rules.n):
        pool, aside = list(before.pool[p]), before.aside[p]
        if p == seat and fam == "set_aside" and pool[idx[0]] > 0:  # the action's own die
            pool[idx[0]] -= 1
            aside += 1
        # dice into sockets (a placement) and back out of them keep their faces: no change to say; a socketed
        # die the action itself set (Overcharge) comes back with its new face
        was = _socketed(before, p)
        if p == seat:
            _face_set(game, before, action, was)
        moved = [a - b for a, b in zip(was, _socketed(after, p))]
        now = list(after.pool[p])
        for q, face in onto:  # rolled, then put onto the Round card by its Exalted start: shown as rolled
            if q == p:
                now[face - 1] += 1
        said = rolled and sum(now) > 0  # a roll is said even where it shows the faces the seat had
        if not said and [x + y for x, y in zip(pool, moved)] == list(after.pool[p]) and aside == after.aside[p]:
            continue
        (pa, aa), (pb, ab) = _dice(before.pool[p], before.aside[p]), _dice(now, after.aside[p])
        parts = ([f"rolls {pb}"] if said else [f"pool {pa} -> {pb}"] if pa != pb else []) + (
            [f"set aside {aa} -> {ab}"] if aa != ab else [])
        if parts:  # a socketed die's face set (Overcharge) leaves the pool as it was: nothing to say
            out.append(f"P{p} " + ", ".join(parts))
    return "; ".join(out)


def _face_set(game: Any, before: Any, action: int, faces: list[int]) -> None:
    """When ``action`` answers an Overcharge's socketed die (``SOCKET_SRC`` in mode ``set``, docs §5.2),
    move that die in ``faces`` (:func:`_socketed` of the deciding seat) from its old face to the new one."""
    pd = before.pending or {}
    fam, idx = game.layout.split(int(action))
    if fam != "choose_socket" or pd.get("k") != Kind.SOCKET_SRC or pd.get("mode") != "set":
        return
    occ, face = game.rules.occupant(before, idx[0], pd["seat"]), pd.get("face") or 0
    if occ is not None and 1 <= occ[1] <= 6 and 1 <= face <= 6:
        faces[occ[1] - 1] -= 1
        faces[face - 1] += 1
