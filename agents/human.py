"""``HumanAgent``: a person at the terminal enters the action in stages (:mod:`agents.terminal`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .base import BaseAgent

__all__ = ["HumanAgent", "parse_choice"]


def parse_choice(text: str, legal: np.ndarray, names: list[str]) -> int | None:
    """Resolve a typed choice to a legal action, or ``None`` if it names none (or several).

    Accepted: the action number (``"445"``), its position among the legal actions (``"#3"``: ``legal[3]``,
    0-based; terminal play's ``#N`` is an action number instead), its readable name
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
    """A person at the terminal: shows the board as the acting seat sees it, reads a move in stages.

    Args:
        input_fn: reads one line given a prompt (default :func:`input`); injectable for tests.
        output_fn: prints text (default :func:`print`).
        pieces: the game's terminal pieces (:func:`agents.terminal.pieces_for`; default: found from the
            bound env's id on the first move).

    Needs :meth:`bind`.  Moves are entered with :class:`agents.terminal.StagedEntry` (family, then each
    argument; ``help`` lists the commands).  ``quit`` and Ctrl-D raise
    :class:`agents.terminal.QuitGame`; Ctrl-C raises ``KeyboardInterrupt``.
    """

    name = "human"
    needs_env = True

    def __init__(self, input_fn: Callable[[str], str] = input, output_fn: Callable[[str], None] = print,
                 pieces=None):
        super().__init__()
        self.input_fn = input_fn
        self.output_fn = output_fn
        self.pieces = pieces
        self._noted: set = set()  # the number notes given this game (StagedEntry)
        self._shown: tuple[int, list[str]] | None = None  # (decision number, board lines) last printed
        self._block: list[str] | None = None  # the pieces' stable block as last printed in full

    def reset(self) -> None:
        """A new game: the number notes are given again, and the first board is printed whole."""
        self._noted = set()
        self._shown = None
        self._block = None

    def _show_board(self, text: str, decision: int) -> None:
        """Print the board. For a game whose terminal pieces allow it (``board_diff``: Arena, The Monolith),
        right after this seat's own previous decision (nobody else moved since), when at most a third of its
        lines changed and the line count is the same: only those lines, each with the lines it continues and
        the lines that continue it (indented 4 or more), then the board's last line (whose decision it is), so
        a turn of many small decisions (The Monolith's order, space, warriors, steps) does not reprint the whole
        board each time; ``board`` prints it whole. A stable block is said in one line while unchanged
        (:meth:`_collapse_block`)."""
        lines = self._collapse_block(text.splitlines())
        last = self._shown
        self._shown = (decision, lines)
        if (getattr(self.pieces, "board_diff", False) and last is not None and last[0] + 1 == decision
                and len(last[1]) == len(lines) and len(lines) > 1):
            body, caption = lines[:-1], lines[-1]
            rows: set[int] = set()
            for i, (old, new) in enumerate(zip(last[1][:-1], body)):
                if old != new:
                    head, tail = i, i + 1
                    while head > 0 and body[head][:4].isspace():
                        head -= 1
                    while tail < len(body) and body[tail][:4].isspace():
                        tail += 1
                    rows.update(range(head, tail))
            changed = [body[i] for i in sorted(rows)]
            if not changed:
                self.output_fn("\n".join(["the board is unchanged (board shows it again)", caption]))
                return
            if len(changed) * 3 <= len(lines):
                self.output_fn("\n".join(["the board lines that changed (board shows it whole):", *changed, caption]))
                return
        self.output_fn("\n".join(lines))

    def _collapse_block(self, lines: list[str]) -> list[str]:
        """``lines`` with the pieces' stable block (``stable_block``: its heading line, then the lines under it,
        indented or starting with a number; Strategy's "what the cards do:", a line per card position) said in
        one line while it is the same as the last one printed in full this game: ``what the cards do: as before
        (board shows them)``."""
        head = getattr(self.pieces, "stable_block", None)
        if head is None or head not in lines:
            return lines
        start = lines.index(head)
        stop = start + 1
        while stop < len(lines) and (lines[stop][:1].isspace() or lines[stop][:1].isdigit()):
            stop += 1
        block = lines[start:stop]
        if block == self._block:
            return [*lines[:start], f"{head} as before (board shows them)", *lines[stop:]]
        self._block = block
        return lines

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """Print the board as the acting seat sees it and read a legal move in stages (raises
        :class:`agents.terminal.QuitGame` on ``quit`` or Ctrl-D; ``AgentError`` before :meth:`bind`)."""
        from .terminal import StagedEntry, pieces_for

        ctx = self._require_ctx()
        game, seat = ctx.game, ctx.seat
        raw = ctx.raw
        if self.pieces is None:
            self.pieces = pieces_for(raw.env_id)
        self._show_board(self.pieces.board(game, ctx.state, seat), int(raw.num_decisions))

        def explain(a: int) -> str:
            why = getattr(raw, "_explain_illegal", None)
            if why is None:
                return "not legal now"
            exc = why(int(a), np.asarray(action_mask))
            return str(getattr(exc, "why", None) or exc)

        return StagedEntry(game, ctx.state, action_mask, self.pieces, seat, self.input_fn, self.output_fn,
                           explain, self._noted).read()
