"""Terminal play, the generic part: staged move entry, narration, 80-column text; a game adds its pieces.

A game plugs in by a module ``agents.terminal.<pkg>`` (``<pkg>`` = the game's package inside
``monolith_envs``, as for heuristics) that defines ``PIECES``, a :class:`Pieces` subclass instance.  Without
one, :class:`Pieces` itself gives a plain but complete interface for any game.

**Staged entry.**  An action of family ``F(a1, a2, ...)`` (the game's ``ActionLayout``) is entered in
stages: first the family, then ``a1``, then ``a2``..., each stage offering only the values that still lead
to a legal action.  When one family alone has legal actions, it is said as a heading and its first part is
asked.  Any other stage with a single option is announced and waits for Enter (or ``1``, or the option's
name), so that a line typed ahead for an earlier stage is refused there instead of choosing in the next one.
Arena's ``PLACE(slot, hex, rot)`` thus asks for the tile, then the hex, then the rotation.  At any prompt: a
number from the list, a name (a unique prefix, or an exact short name such as a compass direction ``NW``),
``#N`` or a full action name like ``END_TURN`` to play it directly, ``back`` (undo a stage), ``board`` (show
the board again), ``map`` (the game's map, where it has one), ``legend``, ``help`` and ``quit``.  Input that
names no legal option says why.

**Narration.**  After every action (the person's and the opponents') :meth:`Pieces.narrate` compares the
states before and after and says what happened (the game's pieces name hits, removals, HP changes).  The
shipped games' narration lives in the package, ``monolith_envs/<game>/narration.py`` (the HTML replay page
shows it too); their pieces delegate to it.  :data:`WIDTH` and :func:`wrap` come from
:mod:`monolith_envs.core.narration`.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from monolith_envs.core.narration import WIDTH, wrap
from monolith_envs.core.words import seat_values

__all__ = ["HELP", "HELP_INTRO", "help_text", "WIDTH", "Pieces", "QuitGame", "InputEnded", "StagedEntry", "next_stage", "not_legal_text", "pieces_for",
           "reason_words", "seat_values", "wrap"]

#: a number leading an option's label (The Monolith's "9 Briar Barrow", Arena's "slot 3: Horror"), skipped
#: when matching by name
_LEADING_NUMBER = re.compile(r"^(?:\d+\s+|slot\s+\d+:\s*|[A-Z]{1,2}\d+(?:\.\d+)?:?\s+)")

#: a typed place in a list of options: an optional sign, then ASCII digits
_PLACE = re.compile(r"([+-]?)[0-9]+")
#: the number an option's label gives its thing (hex 14, socket 18, 9 Briar Barrow, 1 E, slot 3, die showing 6)
_OWN_NUMBER = re.compile(r"^(?:hex |socket |slot |die showing |face )?(\d+)\b")
#: a typed number with its word, ``hex 5`` or ``socket5``: matched by value against :data:`_OWN_NUMBER`
_NAMED_NUMBER = re.compile(r"^(hex|socket|slot|die showing|face) ?(\d+)$")
#: an engine's reason that names only the open decision by its code (``not legal in SETUP_BANNER: ...``,
#: ``not legal in SIDE of player_0``); what follows the colon, if anything, is the engine's detail
_ENGINE_WHY = re.compile(r"not legal in [A-Z][A-Z0-9_]*(?: of player_\d+)?(?::\s*|$)")
#: an engine's detail that says no more than which decision is open (then the game's words for it replace it)
_ONLY_DECISION = ("the decision now", "it answers another kind of decision")

#: how a move is entered (the first lines of ``help``); each game's :class:`Pieces` gives its own examples
HELP_INTRO = """\
Enter a move in stages: pick an option by its number in the list (1, 2, ...)
or by name: a unique prefix is enough."""

#: the commands of every game (``help``, after the game's :attr:`Pieces.help_intro`; then its
#: :attr:`Pieces.help_more`)
HELP = """\
Commands at any prompt:
  back     undo the last stage of this decision (a decision already played
           stays played)
  board    show the board again
  legend   what the board's marks mean
  help     this text
  quit     end the game (Ctrl-D, Ctrl-C)
  #N (an action's number) or an action's full name plays that action directly.
A stage with a single option waits for Enter (or 1): a line typed ahead is not
applied to the next stage."""


def help_text(pieces: "Pieces") -> str:
    """What ``help`` shows in terminal play: the game's :attr:`~Pieces.help_intro`, the commands of every
    game (:data:`HELP`) with the game's own :attr:`~Pieces.help_commands` before ``help``, and the game's
    :attr:`~Pieces.help_more`, each line within :data:`WIDTH`."""
    commands = HELP.replace("\n  help ", f"\n{pieces.help_commands}\n  help ") if pieces.help_commands else HELP
    return "\n".join(x for x in (pieces.help_intro, commands, pieces.help_more) if x)


class QuitGame(Exception):
    """The person ended the game (``quit`` or Ctrl-D; Ctrl-C raises ``KeyboardInterrupt`` as usual)."""


class InputEnded(QuitGame):
    """The :class:`QuitGame` of the input running out (Ctrl-D, a pipe that ended), not of a ``quit``."""


#: the longest line read as an answer (a longer one is refused without being echoed)
MAX_ANSWER = 200
#: the answer to ``back`` where no stage of the decision can be undone
NOTHING_TO_UNDO = "nothing to undo: this is the first stage of the move (a decision already played stays played)"


def _own_number(label: str) -> int | None:
    """The number an option's label gives its thing (``hex 14`` -> 14), or None."""
    m = _OWN_NUMBER.match(label)
    return int(m.group(1)) if m else None


def _carrying(opts: list[tuple[Any, str]], k: int) -> int | None:
    """The place (1-based) of the first option whose label carries the number ``k`` itself (``hex 14``), or
    None."""
    return next((j for j, (_v, label) in enumerate(opts, 1) if _own_number(label) == k), None)


def _readable(text: str) -> str:
    """A line read from the terminal with bytes that are not UTF-8 (Python keeps them as lone surrogates,
    echoed as ``'\\udcff'``) shown as U+FFFD instead."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeError:  # a lone surrogate that is not an escaped byte
        return text.encode("utf-8", "replace").decode("utf-8")


class Pieces:
    """What a game supplies to terminal play; every method has a generic default.

    Override in ``agents/terminal/<pkg>.py`` (``PIECES = MyPieces()``).
    """

    #: what the board's marks mean (shown at the start and by ``legend``)
    legend_text = "The board is the game's text render (render_text); see the game's documentation."
    #: how a move is entered, with the game's own examples: the first lines of ``help`` (then :data:`HELP`)
    help_intro = HELP_INTRO
    #: the game's own commands (lines in the form of :data:`HELP`'s), listed before ``help``, or ``""``
    help_commands = ""
    #: the game's own lines after :data:`HELP` (its action names), or ``""``
    help_more = ""
    #: right after the player's own decision, print only the board lines that changed (HumanAgent); a game
    #: whose board reflows (its rows move when one changes) keeps the whole board
    board_diff = False
    #: the heading line of a board block that seldom changes (its lines are indented under it), or None: the
    #: player's board says it in one line while it is the same as the last one printed in full (HumanAgent)
    stable_block: str | None = None

    def legend(self, game: Any) -> str:
        """The legend, already fitting :data:`WIDTH` columns."""
        return wrap(self.legend_text)

    def board(self, game: Any, state: Any, viewer: int) -> str:
        """The board as ``viewer`` sees it, wrapped to :data:`WIDTH` columns."""
        return wrap(game.render_text(state, viewer=viewer))

    def final_reveal(self, game: Any, state: Any, viewer: int) -> list[str]:
        """At the end of the game, what the board hid from ``viewer`` (the other seats' hands, objectives,
        private cards), one line per seat and kind; ``[]`` when the game hides nothing (the default)."""
        return []

    def stage_name(self, game: Any, family: str, arg: str) -> str:
        """What the stage for ``arg`` of ``family`` asks for (e.g. ``"tile"`` for Arena's ``slot``)."""
        return arg

    def option(self, game: Any, state: Any, family: str, arg: str, value: int) -> str:
        """One option of a stage, e.g. ``"hex 9 (empty)"``; default: the layout's label of the value."""
        lab = getattr(game.layout, "_labels", {}).get(arg)
        return f"{arg} {lab(value) if lab else value}"

    def aliases(self, game: Any, state: Any, family: str, arg: str, value: int) -> tuple[str, ...]:
        """Short names that choose ``value`` when typed exactly (case-insensitive), besides the option
        text's prefixes, e.g. ``("NW",)`` for a rotation; default: none."""
        return ()

    def option_direction(self, game: Any, state: Any, family: str, arg: str, value: int) -> float | None:
        """The direction an option points on the board, in degrees clockwise from east (the drawing's x axis,
        y down), for a page to draw it at the board element chosen before (Arena's facings); default: none."""
        return None

    def stage_note(self, game: Any, state: Any, family: str, arg: str, chosen: tuple) -> str | None:
        """A line shown above the options of the stage for ``arg`` (e.g. where the group stands and which
        spaces it connects to), or ``None``."""
        return None

    def map_text(self, game: Any, state: Any) -> str | None:
        """The ``map`` command's text (which spaces connect), or ``None`` for a game without one."""
        return None

    def family_option(self, game: Any, state: Any, family: str) -> str:
        """The option text of a whole action family (the first stage)."""
        return family

    def reason(self, game: Any, state: Any, family: str, chosen: tuple, arg: str, value: int) -> str | None:
        """Why ``value`` cannot be chosen for ``arg`` of ``family`` after the values ``chosen``, in the game's
        words, or ``None`` to use the engine's reason."""
        return None

    def action_text(self, game: Any, state: Any, action: int) -> str:
        """One line for an action about to be applied in ``state``; default: the game's words for it
        (``game.describe_action``, the layout's name where a game says no more)."""
        return game.describe_action(state, int(action))

    def asking(self, game: Any, state: Any) -> str:
        """What the open decision asks of its seat, in the game's words (``P0 gives an order``), for the
        message that says why a typed action is not legal now; ``""`` where the game does not say.  Default:
        the pieces' ``decision`` (what browser play shows above the options) where they have one."""
        decision = getattr(self, "decision", None)
        return str(decision(game, state)) if decision and not getattr(state, "terminal", False) else ""

    def narrate(self, game: Any, before: Any, after: Any, action: int, seat: int) -> list[str]:
        """Lines saying what ``action`` by ``seat`` did (``before`` -> ``after``); default: the action and
        any change of the returns."""
        lines = [f"P{seat}: {self.action_text(game, before, action)}"]
        r0, r1 = np.asarray(game.returns(before)), np.asarray(game.returns(after))
        if not np.allclose(r0, r1):
            lines.append(f"  returns now {seat_values(r1)}")
        return lines


def reason_words(game: Any, state: Any, pieces: Any, why: str) -> str:
    """The engine's reason ``why`` an action is not legal, in the game's words: a reason that only names the
    open decision by its code (``not legal in SETUP_BANNER: the decision now (seat 0) is to ...``, ``not
    legal in SIDE of player_0``) says what the game asks now instead (:meth:`Pieces.asking`; else the
    engine's own sentence, its seat as ``P0``); a specific reason is kept, its seats named ``P0``."""
    why = str(why).strip()
    m = _ENGINE_WHY.match(why)
    detail = why[m.end():] if m else why
    detail = re.sub(r"\bplayer_(\d+)\b", r"P\1", detail)
    detail = re.sub(r"^the decision now \(seat (\d+)\) is to ", r"the decision now is P\1's: ", detail)
    if m is None or (detail and not detail.startswith(_ONLY_DECISION)):
        return detail
    asking = getattr(pieces, "asking", None)
    return (asking(game, state) if asking else "") or detail or "it does not answer the decision open now"


def not_legal_text(game: Any, state: Any, pieces: Any, action: int, why: str) -> str:
    """``END_TURN is not legal now: P0: choose an empty hex for your Banner``: action
    ``action`` by its code name (as typed) and why it is not legal, in the game's words (:func:`reason_words`)."""
    return f"{game.layout.decode(int(action))} is not legal now: {reason_words(game, state, pieces, why)}"


def _named_by(text: str, opts: list[tuple[Any, str]]) -> list:
    """The options ``text`` names by their label: a number typed with its word names by value (``hex 5``
    and ``hex 05`` name ``hex 05``, never ``hex 50``; ``socket 4`` names ``socket 04``, not ``socket 44``),
    else every option whose label starts with ``text`` (case and spaces ignored)."""
    named = _NAMED_NUMBER.match(text.strip().lower())
    if named:
        word, n = named.group(1).replace(" ", ""), int(named.group(2))
        hits = [v for v, label in opts if (m := _OWN_NUMBER.match(label.lower())) and int(m.group(1)) == n
                and label.lower().replace(" ", "").startswith(word)]
        if hits:
            return hits
    key = text.lower().replace(" ", "")
    return [v for v, label in opts if label.lower().replace(" ", "").startswith(key)]


def pieces_for(env_id: str) -> Pieces:
    """The game's :class:`Pieces` (``agents.terminal.<pkg>.PIECES``), or the generic one."""
    import monolith_envs

    game = monolith_envs.make_game(env_id)
    parts = type(game).__module__.split(".")
    if len(parts) >= 2 and parts[0] == "monolith_envs":
        try:
            mod = importlib.import_module(f"{__name__}.{parts[1]}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{parts[1]}":
                raise
        else:
            return mod.PIECES
    return Pieces()


def next_stage(game: Any, state: Any, pieces: Pieces, split: dict, chosen: list,
               acts: list[int]) -> tuple[str, list[tuple[Any, str, list[int]]]]:
    """The next stage of a move after the ``chosen`` prefix (a family name, then argument values).

    Args:
        game, state: the position (``game.layout`` splits and names the actions).
        pieces: the game's :class:`Pieces` (stage titles and option texts).
        split: ``{action: game.layout.split(action)}`` for every action in ``acts``.
        chosen: the prefix chosen so far.
        acts: the legal actions that start with ``chosen``.

    Returns:
        ``(title, [(value, text, actions)])``: the stage's title and, for each value of the stage in order
        (families in the order of their first action, argument values ascending), its text and the actions
        of ``acts`` it leads to.  Used by terminal play (:class:`StagedEntry`) and the browser page
        (``agents/web/staging.py``).
    """
    groups: dict[Any, list[int]] = {}
    if not chosen:
        for a in acts:
            groups.setdefault(split[a][0], []).append(a)
        return "action", [(f, pieces.family_option(game, state, f), xs) for f, xs in groups.items()]
    fam, k = chosen[0], len(chosen) - 1
    arg = game.layout[fam].args[k]
    for a in acts:
        groups.setdefault(split[a][1][k], []).append(a)
    return pieces.stage_name(game, fam, arg), [(v, pieces.option(game, state, fam, arg, v), groups[v])
                                               for v in sorted(groups)]


class StagedEntry:
    """Reads one legal action in stages (see the module docstring).

    Args:
        game, state, mask: the position and its ``int8[n]`` legal mask.
        pieces: the game's :class:`Pieces`.
        seat: the person's seat.
        input_fn: reads a line given a prompt (``EOFError`` ends the game as :class:`InputEnded`, a
            ``QuitGame``; ``KeyboardInterrupt`` propagates).
        output_fn: prints text.
        explain: ``explain(action) -> str``, the engine's reason an action is illegal (optional).

    :meth:`read` returns the action or raises :class:`QuitGame`.
    """

    def __init__(self, game: Any, state: Any, mask: np.ndarray, pieces: Pieces, seat: int,
                 input_fn: Callable[[str], str], output_fn: Callable[[str], None],
                 explain: Callable[[int], str] | None = None, noted: set | None = None):
        self.game, self.state, self.pieces, self.seat = game, state, pieces, seat
        self.noted = set() if noted is None else noted  # the kinds of number already explained (this game)
        self.legal = [int(a) for a in np.flatnonzero(mask)]
        self.input_fn, self.output_fn, self.explain = input_fn, output_fn, explain
        self.split = {a: game.layout.split(a) for a in self.legal}
        self._finished: int | None = None

    def _options(self, chosen: list) -> tuple[str, list[tuple[Any, str]]]:
        """(stage title, [(value, text)]) for the next stage after the ``chosen`` prefix."""
        idx = tuple(chosen[1:])
        acts = [a for a in self.legal if not chosen or (self.split[a][0] == chosen[0]
                                                         and self.split[a][1][:len(idx)] == idx)]
        title, opts = next_stage(self.game, self.state, self.pieces, self.split, chosen, acts)
        return title, [(value, text) for value, text, _ in opts]

    def _complete(self, chosen: list) -> int | None:
        if not chosen:
            return None
        fam = self.game.layout[chosen[0]]
        if len(chosen) - 1 == len(fam.args):
            return self.game.layout.index(fam.name, *chosen[1:])
        return None

    def _direct(self, text: str) -> int | None:
        """A full action typed directly (``#N`` or its exact name), or None; says why when it is illegal."""
        lay = self.game.layout
        a = None
        negative = text.startswith("#-")
        digits = text[2:] if negative else text[1:]
        if text.startswith("#") and digits.isascii() and digits.isdigit():
            a = -int(digits) if negative else int(digits)
            if negative or not 0 <= a < lay.n:  # "#-0" too
                self.output_fn(f"#{'-' if negative else ''}{digits[:20]}: no such action (actions are #0-#{lay.n - 1})")
                return -1
        else:
            key = text.replace(" ", "").lower()
            names = {lay.decode(x).replace(" ", "").lower(): x for x in range(lay.n)} if "(" in key else {}
            for f in lay.families:
                if not f.shape:
                    names.setdefault(f.name.lower(), f.offset)
            a = names.get(key)
            if a is None:
                return None
        if a in self.legal:
            return a
        why = self.explain(a) if self.explain else "not legal now"
        self.output_fn(wrap(not_legal_text(self.game, self.state, self.pieces, a, why)))
        return -1

    def read(self) -> int:
        """Ask stage by stage until a legal action is complete; returns it.

        Raises:
            QuitGame: ``quit`` or Ctrl-D (Ctrl-C raises ``KeyboardInterrupt``).
        """
        chosen: list = []
        while True:
            done = self._complete(chosen)
            if done is not None:
                return done
            title, opts = self._options(chosen)
            note = self._note(chosen)
            if note:
                self.output_fn(wrap(note))
            if len(opts) == 1 and not chosen and self.game.layout[opts[0][0]].shape:
                # one kind of action: a heading, not a question (its first part is asked next)
                self.output_fn(wrap(f"  {title}: {opts[0][1]} (the only kind of move now)"))
                chosen.append(opts[0][0])
                continue
            if len(opts) == 1:
                if self._confirm_only(title, opts[0], chosen):
                    chosen.append(opts[0][0])
                elif self._finished is not None:
                    return self._finished
                continue
            # labels that carry numbers of their own (hex 14 as option 12): say which number chooses
            by_place = any(_own_number(label) not in (None, i) for i, (_, label) in enumerate(opts, 1))
            head = f"choose the {title}" + (" by the option number on the left:" if by_place else ":")
            lines = [head] + [f"  {i + 1:>2}) {label}" for i, (_, label) in enumerate(opts)]
            self.output_fn(self._columns(lines))
            text = self._ask(title)
            if text is None:
                continue
            if text == "back":
                if self._can_undo(chosen):
                    chosen.pop()
                else:
                    self.output_fn(wrap(NOTHING_TO_UNDO))
                continue
            direct = self._direct(text)
            if direct is not None:
                if direct >= 0:
                    return direct
                continue
            pick = self._match(text, opts, title, chosen)
            if pick is not None:
                chosen.append(pick)

    def _note(self, chosen: list) -> str | None:
        if not chosen:
            return None
        fam = self.game.layout[chosen[0]]
        if len(chosen) - 1 >= len(fam.args):
            return None
        return self.pieces.stage_note(self.game, self.state, fam.name, fam.args[len(chosen) - 1],
                                      tuple(chosen[1:]))

    def _can_undo(self, chosen: list) -> bool:
        """Whether ``back`` has a stage of this decision to undo: not when nothing is chosen, nor when the only
        stage chosen is the one kind of action there is (said as a heading, not asked)."""
        return bool(chosen) and not (len(chosen) == 1 and len(self._options([])[1]) == 1)

    def _confirm_only(self, title: str, opt: tuple[Any, str], chosen: list) -> bool:
        """A stage with one option: announce it and wait for Enter, ``1``, ``y`` or its name.  Returns True
        when it is taken; False after a command, ``back`` (then ``chosen`` is shorter) or refused input, or
        when an action typed in full was chosen (then in ``_finished``)."""
        value, label = opt
        undo = " (back undoes a stage)" if self._can_undo(chosen) else ""
        self.output_fn(wrap(f"the only {title}: {label}; press Enter to take it{undo}"))
        text = self._ask(title, allow_empty=True)
        if text is None:
            return False
        low = text.lower()
        if low in ("", "1", "+1", "y", "yes", "ok"):
            return True
        if low == "back":
            if self._can_undo(chosen):
                chosen.pop()
            else:
                self.output_fn(wrap(NOTHING_TO_UNDO))
            return False
        if self._match_value(text, [opt], chosen) == [value]:
            return True
        direct = self._direct(text)
        if direct is not None:
            if direct >= 0:
                self._finished = direct
            return False
        self.output_fn(wrap(f"{text!r} is not taken: the only {title} here is {label}; press Enter to take it, "
                            "or type back or help"))
        return False

    def _ask(self, title: str, allow_empty: bool = False) -> str | None:
        """One line of input; handles the commands that do not choose anything (returns None for those)."""
        try:
            text = _readable(self.input_fn(f"P{self.seat} {title}> ")).strip()
        except EOFError:  # Ctrl-D; Ctrl-C's KeyboardInterrupt goes on to the runner (exit status 130)
            raise InputEnded from None
        if len(text) > MAX_ANSWER:  # not echoed back: a pasted page would flood the terminal
            self.output_fn(wrap(f"that line has {len(text):,} characters; an answer is an option's number or "
                                "name (help lists the commands)"))
            return None
        low = text.lower()
        if low in ("quit", "exit", "q"):
            raise QuitGame
        if low in ("help", "?", "h"):
            self.output_fn(help_text(self.pieces))
            return None
        if low == "legend":
            self.output_fn(self.pieces.legend(self.game))
            return None
        if low == "board":
            self.output_fn(self.pieces.board(self.game, self.state, self.seat))
            return None
        if low == "map":
            self.output_fn(self.pieces.map_text(self.game, self.state) or "this game has no map to show")
            return None
        if not text and allow_empty:
            return ""
        if not text:
            self.output_fn("type the number of an option (help lists the commands)")
            return None
        return low if low == "back" else text

    def _why_not(self, text: str, chosen: list, title: str) -> str | None:
        """Why ``text`` (naming a value of this stage that is not among the options) is illegal: the engine's
        reason for the action it would make, or None when ``text`` names no value of the stage."""
        if not chosen:
            return None
        lay, g, s = self.game.layout, self.game, self.state
        fam = lay[chosen[0]]
        pos = len(chosen) - 1
        arg = fam.args[pos]
        key = text.lower().replace(" ", "")
        values = [v for v in range(fam.shape[pos])
                  if key in (x.lower() for x in self.pieces.aliases(g, s, fam.name, arg, v))]
        if not values:
            values = _named_by(text, [(v, self.pieces.option(g, s, fam.name, arg, v)) for v in range(fam.shape[pos])])
        if len(values) != 1:
            return None
        why = self.pieces.reason(g, s, fam.name, tuple(chosen[1:]), arg, values[0])
        if why is None:
            rest = [0] * (len(fam.args) - pos - 1)
            a = lay.index(fam.name, *chosen[1:], values[0], *rest)
            why = reason_words(g, s, self.pieces, self.explain(a)) if self.explain else "not legal now"
        return f"{self.pieces.option(g, s, fam.name, arg, values[0])} is not a legal {title} for this move: {why}"

    def _match(self, text: str, opts: list[tuple[Any, str]], title: str, chosen: list) -> Any | None:
        padded = [(v, m.group(1)) for v, label in opts if (m := _OWN_NUMBER.match(label)) and m.group(1)[0] == "0"]
        number = _PLACE.fullmatch(text)  # ASCII digits only ("²" is a digit to str.isdigit, not to int)
        if number and not number.group(1) and len(text) > 1 and text.startswith("0") and padded:  # hex "05"
            named = [v for v, own in padded if own == text]
            if len(named) == 1:
                return named[0]
            self.output_fn(wrap(f"{text} names no {title} here (a number with a leading zero names a hex or socket "
                                f"as the board labels it; without one it chooses by place, 1-{len(opts)})"))
            return None
        if number:  # a place in the list; "-1" or "+0" is a place outside it, as "0" is
            k = int(text)
            if 1 <= k <= len(opts):
                self._number_note(k, opts, title)
                return opts[k - 1][0]
            j = _carrying(opts, k)
            hint = f"; {opts[j - 1][1]} is option {j}" if j else ""
            self.output_fn(wrap(f"{k} is not one of the options: choose 1-{len(opts)}{hint} (help lists the commands)"))
            return None
        if re.fullmatch(r"[+-]?\d+(\s+[+-]?\d+)+", text):  # "1 2": two numbers, not the number 12
            self.output_fn(wrap(f"{text!r} is more than one number: type one option's number, 1-{len(opts)}, or its "
                                "name (help lists the commands)"))
            return None
        hits = self._match_value(text, opts, chosen)
        if len(hits) == 1:
            return hits[0]
        if hits:
            self.output_fn(f"{text!r} matches {len(hits)} options; type more of the name or its number")
        elif (why := self._why_not(text, chosen, title)) is not None:
            self.output_fn(wrap(why))
        else:
            self.output_fn(wrap(f"{text!r} is not a legal {title} here; the legal ones are listed above "
                                "(help lists the commands)"))
        return None

    def _number_note(self, k: int, opts: list[tuple[Any, str]], title: str = "") -> None:
        """A typed number is a place in the list; when another option carries that number itself (``hex 14``
        as option 12, rotation ``1 E`` as option 2) say which one was taken and where the other one is, the
        first time in the game for each kind of number at each stage (``noted``: the first socket, the first
        hex, the first gem count)."""
        if _own_number(opts[k - 1][1]) == k:
            return
        j = _carrying(opts, k)
        if j:
            name = _OWN_NUMBER.match(opts[j - 1][1]).group(0)
            kind = (title, name.rstrip("0123456789"))  # the stage, and "socket ", "hex " or "" (a bare number)
            if kind in self.noted:  # said once a game for each kind of number at each stage: the same every time
                return
            self.noted.add(kind)
            tip = f"; type '{name}' to name it" if not name.isdigit() else ""
            self.output_fn(wrap(f"note: {k} chose option {k} ({opts[k - 1][1]}); {opts[j - 1][1]} is option {j} "
                                f"(a number chooses by its place in the list{tip})"))

    def _match_value(self, text: str, opts: list[tuple[Any, str]], chosen: list) -> list:
        """The options ``text`` names: those with an exact alias (``NW``), else those whose text starts
        with it (case and spaces ignored)."""
        key = text.lower().replace(" ", "")
        if chosen:
            fam = self.game.layout[chosen[0]]
            arg = fam.args[len(chosen) - 1]
            exact = [v for v, _ in opts
                     if key in (x.lower() for x in self.pieces.aliases(self.game, self.state, fam.name, arg, v))]
            if exact:
                return exact
        hits = _named_by(text, opts)
        if hits or key[:1].isdigit():
            return hits
        # a label led by the thing's own number or code ("9 Briar Barrow", "slot 3: Horror", "O09 Carrion
        # Feast", "R18 Rune of the Smith"): its name alone names it
        return [v for v, label in opts
                if _LEADING_NUMBER.sub("", label, count=1).lower().replace(" ", "").startswith(key)]

    @staticmethod
    def _columns(lines: list[str]) -> str:
        """The option list in two columns when it is long and short enough to fit :data:`WIDTH`."""
        head, items = lines[0], lines[1:]
        if len(items) <= 8 or max(len(x) for x in items) > WIDTH // 2 - 2:
            return wrap("\n".join(lines))
        half = -(-len(items) // 2)
        rows = [items[i].ljust(WIDTH // 2) + (items[i + half] if i + half < len(items) else "")
                for i in range(half)]
        return "\n".join([head] + [r.rstrip() for r in rows])
