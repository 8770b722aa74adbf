"""What every game's narration shares: the 80-column width, line wrapping, and finding a game's narration.

A game narrates its moves with an optional method ``game.narrate(before, after, action, seat) -> list[str]``
(not part of the :class:`~monolith_envs.core.game.Game` protocol check): the lines that say what ``action``
by ``seat`` did, given the state ``before`` and the state ``after`` one ``apply``.  The shipped games define
it in ``monolith_envs/<game>/narration.py``; terminal play, browser play (``agents/terminal``, ``agents/web``)
and the HTML replay page (:mod:`monolith_envs.core.html_replay`) show those lines.  A game without the
method (a user-registered one) is simply not narrated by the replay page (:func:`narrator` is None).
"""

from __future__ import annotations

import textwrap
from typing import Any, Callable

__all__ = ["WIDTH", "narrator", "wrap"]

#: terminal width every line of narration (and of terminal play) fits in
WIDTH = 80


def wrap(text: str, width: int = WIDTH, indent: str = "    ") -> str:
    """Every line of ``text`` wrapped to ``width`` columns (continuations indented by ``indent``)."""
    out = []
    for line in text.splitlines() or [""]:
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip())]
        out.extend(textwrap.wrap(line, width, initial_indent="", subsequent_indent=lead + indent,
                                 break_long_words=True, break_on_hyphens=False) or [""])
    return "\n".join(out)


def narrator(game: Any) -> Callable[[Any, Any, int, int], list[str]] | None:
    """The game's ``narrate(before, after, action, seat)`` method, or None for a game that has none."""
    fn = getattr(game, "narrate", None)
    return fn if callable(fn) else None
