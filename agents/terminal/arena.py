"""Monolith Arena's pieces for terminal play: a compact 80-column board, stage names and option texts;
the narration of every action (placements, battles: hits, removals, HP changes, eliminations) is the
package's, :func:`monolith_envs.arena.narration.narrate`."""

from __future__ import annotations

from typing import Any

import numpy as np

from monolith_envs.arena.board import DIR_NAMES
from monolith_envs.arena.narration import _winners, narrate
from monolith_envs.arena.render import _netted, _segments, _teams, board_rows, cell_flags
from monolith_envs.arena.state import INSTANCES_PER_SEAT as PER_SEAT
from monolith_envs.arena.state import Sub
from monolith_envs.arena.table import SUB_ASKS
from monolith_envs.arena.words import mode_words, sub_words, tile_words

from . import WIDTH, Pieces, wrap

__all__ = ["ArenaPieces", "PIECES"]

_CELL = 14  # columns per hex in the board picture (5 hexes in the widest row: 70 columns)

LEGEND = """\
Legend. The board has five rows of hexes, numbered 00-18. A hex reads hh:. when
empty, else hh:<seat><tile>/<facing>: <seat> 0-3, <tile> a short name (the
"tiles:" key under the board), <facing> where its front edge points (NE E SE SW
W NW). Then: +k wounds; each flag after a comma: N netted, Pk poison markers,
M Net-order marker, E entrenched, S<k> Monolith segment k (S<k>@p: seat p's,
under another tile).
Each seat: HP (teams: its team, A or B, and the team's pool), deck and discard
sizes; its hand by slot (hands are public; * = drawn this turn); a menu's
numbers are its own, not the slots.
"""

_STAGES = {"slot": "tile", "hex": "hex", "rot": "facing", "facing": "facing", "local": "tile type",
           "feature": "feature", "triangle": "triangle", "mode": "mode"}
_FAMILIES = {"PICK_TYPE": "pick a tile type", "DISCARD": "discard a tile", "PLACE": "place a tile",
             "PLAY_ORDER": "play an order", "USE_FEATURE": "use a feature",
             "UNFOLD": "unfold the Monolith", "END_TURN": "end the turn", "SELECT_HEX": "select a hex",
             "SELECT_ROT": "select a facing", "SELECT_TRIANGLE": "select a triangle", "SELECT_MODE": "select a mode"}


def _short(name: str) -> str:
    words = name.removeprefix("Rune of ").replace("/", " ").split()
    return (words[0][:3] if len(words) == 1 else "".join(w[0] for w in words[:3])).capitalize()


class ArenaPieces(Pieces):
    """Terminal play of Monolith Arena (``docs/monolith_arena.md``)."""

    legend_text = LEGEND
    help_intro = """\
Enter a move in stages: pick an option by its number in the list (1, 2, ...,
not a hex number) or by name: a unique prefix is enough, "slot N:" may be left
out (horror chooses slot 3: Horror), and hex 5 chooses hex 05."""
    help_more = """\
Full action names (docs/monolith_arena.md §6), e.g. END_TURN, UNFOLD,
PLACE(slot=0, hex=5, rot=2). Their slots count from 0, the hand's from 1:
slot=0 is the hand's slot 1."""
    board_diff = True  # fixed rows: a changed line stays where it was

    # ------------------------------------------------------------------ board
    def board(self, game: Any, state: Any, viewer: int) -> str:
        """The board as ``viewer`` sees it: the 19 hexes (seat, tile, facing, wounds, flags), a key of the
        tile names, each seat's HP or pool, deck, discard and face-up hand, then whose turn it is or the
        result."""
        tb = game.tables
        netted, segs = _netted(game, state), _segments(game, state)
        key: dict[str, str] = {}
        cells = []
        for h in range(19):
            i = state.board[h]
            text = f"{h:02d}:."
            if i >= 0:
                name = tb.name_of[state.itype[i]]
                key[_short(name)] = name
                text = f"{h:02d}:{i // PER_SEAT}{_short(name)}/{DIR_NAMES[state.facing[i]]}"
                if state.wounds[i]:
                    text += f"+{state.wounds[i]}"
            # each flag after a comma, so that a facing and a flag never read as one word (SE + E is "SE,E")
            text += "".join("," + f for f in cell_flags(state, h, netted, segs))
            cells.append(text)
        # at least one space between two hexes: a crowded cell widens every cell (rows wrap past WIDTH)
        lines = board_rows(cells, max(_CELL, max(len(c) for c in cells) + 1), WIDTH)
        if key:
            lines.append(wrap("tiles: " + ", ".join(f"{k}={v}" for k, v in sorted(key.items())), WIDTH))
        lines.append("")
        teams = _teams(game)
        for p in range(state.num_players):
            fac = tb.content.factions[state.factions[p]].name
            life = (f"team {'AB'[p % 2]}, pool {max(0, state.pool[p % 2])}" if teams
                    else f"HP {max(0, state.hp[p])}")
            you = " (you)" if p == viewer else ""
            head = f"P{p}{you} {fac}: {life}, deck {len(state.deck[p])}, discard {len(state.discard[p])}"
            if not state.alive[p]:
                head += ", eliminated"
            lines.append(head)
            # every seat's hand: hands are face up (docs/monolith_arena.md D5; every seat observes them)
            hand = [f"[slot {k + 1}: {tb.name_of[state.itype[i]]}{'*' * bool(state.fresh[p][k])}]"
                    for k, i in enumerate(state.hand[p]) if i >= 0]
            lines.extend(_pack("    hand: ", hand or ["empty"], WIDTH))
        if state.terminal:
            lines.append(f"game over: {_winners(state)}")
        else:
            status = f"turn of P{state.turn_seat}; {sub_words(state.sub_phase)}"
            lines.append(status + "; last round" * bool(state.last_round))
        return "\n".join(lines)

    # ------------------------------------------------------------------ staged entry
    def stage_name(self, game: Any, family: str, arg: str) -> str:
        """The stage's name in Arena's words (``slot`` is a ``tile``, ``rot`` a ``facing``, ...)."""
        return _STAGES.get(arg, arg)

    def aliases(self, game: Any, state: Any, family: str, arg: str, value: int) -> tuple[str, ...]:
        """A rotation or facing is also chosen by its compass letters (``E``, ``NW``)."""
        return (DIR_NAMES[value],) if arg in ("rot", "facing") else ()

    def option_direction(self, game: Any, state: Any, family: str, arg: str, value: int) -> float | None:
        """A facing's edge of the pointy-top hex, clockwise from east: NE 300, E 0, SE 60, ... NW 240."""
        return (300.0 + 60.0 * value) % 360.0 if arg in ("rot", "facing") else None

    def family_option(self, game: Any, state: Any, family: str) -> str:
        """The family's text; USE_FEATURE names the kinds of Feature with a legal use now."""
        if family == "USE_FEATURE":  # the kinds of feature that have a legal use now, in layout order
            lay = game.layout
            fam = lay[family]
            legal = game.legal_mask(state)
            kinds = [self.option(game, state, family, "feature", f) for f in range(fam.shape[0])
                     if any(legal[lay.index(family, f, h)] for h in range(fam.shape[1]))]
            return f"use a feature ({', '.join(kinds)})" if kinds else _FAMILIES[family]
        return _FAMILIES.get(family, family)

    def option(self, game: Any, state: Any, family: str, arg: str, value: int) -> str:
        """One option in Arena's words: a hand slot with its tile, a hex with its tile (or empty), a compass
        facing, an Order's mode, a Feature kind or a tile type; anything else as the default."""
        tb, seat = game.tables, state.acting_seat
        if arg == "slot":
            i = state.hand[seat][value]
            return f"slot {value + 1}: {tb.name_of[state.itype[i]]}" if i >= 0 else f"slot {value + 1}"
        if arg == "hex":
            i = state.board[value]
            return f"hex {value:02d}" + (f" ({self._tile(tb, state, i)})" if i >= 0 else " (empty)")
        if arg in ("rot", "facing"):
            return DIR_NAMES[value]
        if arg == "mode":
            return mode_words(game, state, value)
        if arg == "feature":
            return game.layout.decode(game.layout.index(family, value, 0)).split("=")[1].split(",")[0]
        if arg == "local":
            t = tb.fac_offset[state.factions[seat]] + value
            return tb.name_of[t] if 0 <= t < len(tb.name_of) else f"type {value}"
        return super().option(game, state, family, arg, value)

    def reason(self, game: Any, state: Any, family: str, chosen: tuple, arg: str, value: int) -> str | None:
        """Why a PLACE hex cannot be chosen (it holds a tile), or ``None`` to use the engine's reason."""
        if arg == "hex" and family == "PLACE" and state.board[value] >= 0:
            return f"it holds {self._tile(game.tables, state, state.board[value])}; a tile is placed on an empty hex"
        return None

    def action_text(self, game: Any, state: Any, action: int) -> str:
        """The game's words for ``action`` (``places Knight on hex 07 facing
        NE``), but an Order's option as a noun, like the mode stage's own
        options (``Battle``, not ``chooses Battle``): the browser labels the
        button of a move left with one option with this text."""
        fam, idx = game.layout.split(int(action))
        if fam == "SELECT_MODE":
            return self.option(game, state, fam, "mode", idx[0])
        return game.describe_action(state, int(action))

    _tile = staticmethod(tile_words)

    # ------------------------------------------------------------------ narration
    def decision(self, game: Any, state: Any, viewer: int | None = None) -> str:
        """What browser play shows above the options: :meth:`asking`'s words (``P0: choose an empty hex for your
        Banner``, ``P0's turn: place a tile, discard a tile or end the turn``), since an option list alone
        (``choose the hex:``) does not say what the choice is for; ``""`` when the game is over."""
        return self.asking(game, state)

    def asking(self, game: Any, state: Any) -> str:
        """What the open decision asks, in words (for the message that says why a typed action is not legal
        now): in the main phase only the kinds of move legal now (``P0's turn: place a tile, discard a
        tile or end the turn``), else the sub-phase's question (``P0: choose an empty hex for your Banner``)."""
        if state.terminal:
            return ""
        if state.sub_phase != Sub.MAIN:
            return f"P{state.acting_seat}: {SUB_ASKS[Sub(state.sub_phase)]}"
        kinds = list(dict.fromkeys(game.layout.split(int(a))[0] for a in np.flatnonzero(game.legal_mask(state))))
        words = [_MAIN_WORDS.get(k, k.lower()) for k in kinds]
        said = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)
        return f"P{state.acting_seat}'s turn: {said}"

    def narrate(self, game: Any, before: Any, after: Any, action: int, seat: int) -> list[str]:
        """The package's narration (:func:`monolith_envs.arena.narration.narrate`): placements, Battles
        (hits, kills, removals, HP changes), eliminations, the next turn and the result."""
        return narrate(game, before, after, action, seat)


# the kinds of move of the main phase, in words (docs §6.2 MAIN)
_MAIN_WORDS = {"PLACE": "place a tile", "PLAY_ORDER": "play an Order", "USE_FEATURE": "use a Feature",
               "UNFOLD": "unfold the Monolith", "DISCARD": "discard a tile", "END_TURN": "end the turn"}

PIECES = ArenaPieces()


def _pack(lead: str, items: list[str], width: int) -> list[str]:
    """``items`` after ``lead``, two spaces apart, on lines of at most ``width`` columns; an item is never
    split (continuation lines are indented under the first item)."""
    lines, cur, empty = [], lead, True  # empty: no item on the current line yet
    for it in items:
        if not empty and len(cur) + 2 + len(it) > width:
            lines.append(cur)
            cur, empty = " " * len(lead), True
        cur += ("" if empty else "  ") + it
        empty = False
    lines.append(cur)
    return lines
