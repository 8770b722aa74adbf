"""``HumanAgent``: a person at the terminal chooses the action (number or readable name)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .base import BaseAgent

__all__ = ["HumanAgent", "parse_choice"]


def parse_choice(text: str, legal: np.ndarray, names: list[str]) -> int | None:
    """Resolve a typed choice to a legal action, or ``None`` if it names none (or several).

    Accepted: the action number (``"445"``), its menu position (``"#3"``), its readable name
    (``"END_TURN"``, case-insensitive, spaces ignored) or a prefix of a name that matches exactly one legal
    action.
    """
    t = text.strip()
    if not t:
        return None
    if t.startswith("#") and t[1:].isdigit():
        i = int(t[1:])
        return int(legal[i]) if 0 <= i < len(legal) else None
    if t.lstrip("-").isdigit():
        a = int(t)
        return a if a in {int(x) for x in legal} else None
    key = t.replace(" ", "").lower()
    norm = [n.replace(" ", "").lower() for n in names]
    for a, n in zip(legal, norm):
        if n == key:
            return int(a)
    hits = [int(a) for a, n in zip(legal, norm) if n.startswith(key)]
    return hits[0] if len(hits) == 1 else None


class HumanAgent(BaseAgent):
    """Shows the text render (as the acting seat sees it) and the legal actions by name; reads a choice.

    Args:
        input_fn: reads one line (default :func:`input`); injectable for tests.
        output_fn: prints text (default :func:`print`).

    Needs :meth:`bind` for the render and the action names.  Typing ``?`` lists the actions again.
    """

    name = "human"
    needs_env = True

    def __init__(self, input_fn: Callable[[str], str] = input, output_fn: Callable[[str], None] = print):
        super().__init__()
        self.input_fn = input_fn
        self.output_fn = output_fn

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        ctx = self._require_ctx()
        game, seat = ctx.game, ctx.seat
        legal = np.flatnonzero(action_mask)
        names = [game.layout.decode(int(a)) for a in legal]
        self.output_fn(game.render_text(ctx.state, viewer=seat))
        menu = "\n".join(f"  #{i:<3d} [{int(a):>4d}] {n}" for i, (a, n) in enumerate(zip(legal, names)))
        self.output_fn(f"player_{seat}, your legal actions:\n{menu}")
        while True:
            text = self.input_fn(f"player_{seat}> action (number, #pos or name; ? lists): ")
            if text.strip() == "?":
                self.output_fn(menu)
                continue
            a = parse_choice(text, legal, names)
            if a is not None:
                return a
            self.output_fn(f"not a legal action: {text!r}")
