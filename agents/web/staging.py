"""The staged entry of a move as data: the stages of the legal actions, for a page to walk.

The stages are those of terminal play (:class:`agents.terminal.StagedEntry`): first the action family (when
several have legal actions), then each argument of the family in order, each stage offering only the values
that still lead to a legal action, with the titles and option texts of the game's
:class:`~agents.terminal.Pieces`.  A stage with one option is taken at once and said, as in terminal play
(except a lone action without arguments, which is still offered, so the person confirms it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.terminal import next_stage

__all__ = ["TARGET_ARGS", "stage_tree"]

#: action arguments that name a board element, and the element kind of the drawing's ``data-target``
#: (``hex:<h>`` in Arena, ``socket:<sid>`` in the Strategy Game, ``space:<sid>`` in The Monolith)
TARGET_ARGS = {"hex": "hex", "sid": "socket", "s": "space"}


def stage_tree(game: Any, state: Any, mask: np.ndarray, pieces: Any) -> dict | None:
    """Every legal action of ``state`` as a tree of stages.

    Args:
        game: the game (its ``layout`` splits and names the actions).
        state: the position.
        mask: ``bool``/``int8[layout.n]`` legal mask of the seat to act.
        pieces: the game's terminal :class:`~agents.terminal.Pieces` (stage titles, option texts).

    Returns:
        ``None`` when no action is legal, else a node.  A node is ``{"auto": [str], "title": str,
        "options": [option]}`` (a stage to choose in) or ``{"auto": [str], "action": int, "name": str,
        "code": str, "targets": [str]}`` (the move is complete: ``name`` in words, ``code`` the layout's name such
        as ``SELECT_HEX(hex=7)``, ``targets`` the ``data-target`` of the board elements its forced stages name);
        ``auto`` lists the stages taken at once on the way (``"tile: slot 1: Gunner (the
        only choice)"``).  An option is ``{"label": str, "target": str | None, "node": node}``; ``target`` is
        the ``data-target`` of the board element the option names (``"hex:5"``), if any; an option that
        points somewhere from the element chosen before (Arena's facings) also has ``"direction"``, degrees
        clockwise from east (``pieces.option_direction``).
    """
    lay = game.layout
    legal = [int(a) for a in np.flatnonzero(np.asarray(mask))]
    if not legal:
        return None
    split = {a: lay.split(a) for a in legal}
    several = len(legal) > 1

    def options(chosen: list, acts: list[int]) -> tuple[str, list[tuple[Any, str, str | None, list[int]]]]:
        title, opts = next_stage(game, state, pieces, split, chosen, acts)
        kind = TARGET_ARGS.get(lay[chosen[0]].args[len(chosen) - 1]) if chosen else None
        return title, [(v, label, f"{kind}:{v}" if kind else None, xs) for v, label, xs in opts]

    def direction(chosen: list, value: Any) -> float | None:  # an argument's option that points somewhere
        if not chosen or not hasattr(pieces, "option_direction"):
            return None
        return pieces.option_direction(game, state, chosen[0], lay[chosen[0]].args[len(chosen) - 1], value)

    def option(chosen: list, value: Any, label: str, target: str | None, sub: list[int]) -> dict:
        out = {"label": label, "target": target, "node": node(chosen + [value], sub)}
        d = direction(chosen, value)
        if d is not None:
            out["direction"] = float(d)
        return out

    def node(chosen: list, acts: list[int]) -> dict:
        auto: list[str] = []
        targets: list[str] = []  # the board elements the stages taken at once name
        while True:
            if chosen and len(chosen) - 1 == len(lay[chosen[0]].args):
                a = lay.index(chosen[0], *chosen[1:])
                return {"auto": auto, "action": a, "name": pieces.action_text(game, state, a), "code": lay.decode(a),
                        "targets": targets}
            title, opts = options(chosen, acts)
            if len(opts) == 1 and (chosen or several or lay[opts[0][0]].shape):
                value, label, target, acts = opts[0]
                targets += [target] if target else []
                auto.append(f"{title}: {label} ({'the only choice' if chosen else 'the only kind of move now'})")
                chosen = chosen + [value]
                continue
            return {"auto": auto, "title": title,
                    "options": [option(chosen, value, label, target, sub) for value, label, target, sub in opts]}

    return node([], legal)
