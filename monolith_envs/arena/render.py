"""Text and picture renderers of Monolith Arena (docs/monolith_arena.md §7.3 "Renders").

* :func:`render_text` prints the board rows of docs/monolith_arena.md §2.1, each hex as ``owner.type/facing/wounds``
  (``type`` = tile id; tokens ``N`` netted, ``P<k>`` poison markers, ``S<k>`` Monolith segment k, ``M`` the
  Net-order marker, ``E`` the Entrenchment marker), then per seat HP, deck size, hand, discard size and
  Monolith state (hidden contents as ``?`` unless the viewer may see them), then the sub-phase and the
  pending selection.
* the drawing (``render_mode="svg"`` and ``rgb_array``) is :mod:`monolith_envs.arena.render_svg`.

It takes the game object (``ArenaGame``, or anything exposing ``tables`` and the rules of
:mod:`monolith_envs.arena`) and an :class:`~monolith_envs.arena.state.ArenaState`; neither mutates the state.
"""

from __future__ import annotations

from ..core.drawing import check_viewer
from .board import DIR_NAMES, NUM_HEXES
from .effects import get_fx
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Eff, Sub
from .tables import tables_for

__all__ = ["render_text", "board_rows", "cell_flags"]

#: row lengths of the board (docs/monolith_arena.md §2.1): hexes 0-2, 3-6, 7-11, 12-15, 16-18
_ROWS = ((0, 1, 2), (3, 4, 5, 6), (7, 8, 9, 10, 11), (12, 13, 14, 15), (16, 17, 18))

# --------------------------------------------------------------------------------------------------
# helpers shared by both renderers
# --------------------------------------------------------------------------------------------------


def _tables(game):
    tb = getattr(game, "tables", None)
    if tb is not None:
        return tb
    from .content import load_content

    files = getattr(game, "config", {}).get("faction_files") if hasattr(game, "config") else None
    return tables_for(load_content(files))


def _netted(game, state) -> list[bool]:
    """Netted flag per hex from the engine's continuous effects (docs/monolith_arena.md §4.6)."""
    return [bool(x) for x in get_fx(game.rules, state).netted]


def _segments(game, state) -> dict[int, list[tuple[int, int]]]:
    """hex -> list of (owner, segment number 1-3) of Monolith segments standing on it (module only)."""
    out: dict[int, list[tuple[int, int]]] = {}
    if not _module(game, state):
        return out
    for p in range(state.num_players):
        if p < len(state.seg_hex) and state.alive[p]:
            hexes = state.seg_hex[p]
            if state.mono_folded[p]:
                if hexes[0] >= 0:
                    out.setdefault(hexes[0], []).append((p, 1))
                continue
            for k, h in enumerate(hexes):
                if h >= 0:
                    out.setdefault(h, []).append((p, k + 1))
    return out


def _module(game, state) -> bool:
    m = getattr(game, "module", None)
    if m is None:
        cfg = getattr(game, "config", None) or {}
        m = bool(cfg.get("monolith_module", False))
    return bool(m)


def _teams(game) -> bool:
    t = getattr(game, "team_mode", None)
    if t is None:
        cfg = getattr(game, "config", None) or {}
        t = cfg.get("mode") == "teams"
    return bool(t)


def _enum_name(enum, v: int) -> str:
    try:
        return enum(v).name
    except ValueError:
        return str(v)


# --------------------------------------------------------------------------------------------------
# text
# --------------------------------------------------------------------------------------------------


#: text renders fit this many columns
TEXT_WIDTH = 100
_CELL_W = 20  # columns per hex in the text board (5 hexes in the widest row: 100 columns)


def _name(tb, state, i: int) -> str:
    """The tile's printed name (``Rune of Regeneration``)."""
    return tb.name_of[state.itype[i]]


def _cell_name(name: str) -> str:
    """A tile name for one board cell: ``Rune of`` dropped, at most 9 characters (``Regenerat``)."""
    return name.removeprefix("Rune of ").replace(" ", "")[:9]


def cell_flags(state, h: int, netted, segs) -> list[str]:
    """The flags of hex ``h`` in a board picture, in this order: ``N`` netted, ``P<k>`` poison markers, ``M``
    the Net-order marker, ``E`` entrenched (each only under a tile), then ``S<k>`` per Monolith segment k
    on the hex (``S<k>@p``: seat p's segment under another seat's tile, or empty). ``netted`` and ``segs``
    are :func:`_netted` and :func:`_segments` of the state; shared by :func:`render_text` and terminal play."""
    i = state.board[h]
    toks = []
    if i >= 0:
        toks += ["N"] * bool(netted[h]) + ([f"P{state.poison[i]}"] if state.poison[i] else [])
        toks += ["M"] * (state.net_marker_on == i) + ["E"] * (state.entrench_on == i)
    toks += [f"S{k}" if i >= 0 and i // PER_SEAT == p else f"S{k}@{p}" for p, k in segs.get(h, ())]
    return toks


def board_rows(cells: list[str], cell_width: int, width: int) -> list[str]:
    """The five rows of hexes of a board picture (docs/monolith_arena.md §2.1), each row's ``cells`` (one
    string per hex, 0-18) left-justified to ``cell_width`` columns and centred by half a cell per missing
    hex; a row longer than ``width`` columns, or with a cell that fills its ``cell_width`` (it would touch the
    next one), gets two spaces between its cells and is wrapped at spaces (continuations indented by two).
    Shared by :func:`render_text` and terminal play."""
    lines = []
    for row in _ROWS:
        line = " " * ((5 - len(row)) * cell_width // 2) + "".join(cells[h].ljust(cell_width) for h in row).rstrip()
        if len(line) > width or any(len(cells[h]) >= cell_width for h in row[:-1]):  # a crowded row
            lines.extend(_wrap("  ".join(cells[h] for h in row), indent="  ", width=width))
        else:
            lines.append(line)
    return lines


def _cell(game, state, h: int, netted, segs) -> str:
    tb = _tables(game)
    i = state.board[h]
    if i < 0:
        body = "."
    else:
        body = f"{i // PER_SEAT}.{_cell_name(_name(tb, state, i))}/{DIR_NAMES[state.facing[i]]}"
        if state.wounds[i]:
            body += f"+{state.wounds[i]}"
    return f"{h:02d}:" + " ".join([body] + cell_flags(state, h, netted, segs))


def _wrap(line: str, indent: str = "    ", width: int = TEXT_WIDTH) -> list[str]:
    """``line`` cut at spaces into lines of at most ``width`` columns (continuations indented)."""
    import textwrap

    if len(line) <= width:
        return [line]
    return textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False)


def render_text(game, state, viewer: int | None = None) -> str:
    """Readable multi-line picture of ``state`` (docs/monolith_arena.md §7.3), at most 100 columns wide.

    Args:
        game: the game (``ArenaGame``) that owns ``state``.
        state: an :class:`~monolith_envs.arena.state.ArenaState`.
        viewer: seat whose knowledge is shown; ``None`` = omniscient.  Unrevealed Monolith contents of
            other seats print as ``?``; deck order is never printed (only sizes).

    Returns:
        A string: five board rows (hexes ``hh:owner.Name/facing+wounds``, ``Name`` the tile's name in at most
        9 letters, facing a compass direction, with flags ``N`` netted, ``P<k>`` poison, ``M`` Net-order
        marker, ``E`` entrenched, ``S<k>`` segment k, ``S<k>@p`` a segment of seat p under another seat's
        tile, ``.`` empty), the full names of the tiles the cells shorten, one line per seat (faction, HP, deck,
        hand by name, discard, Monolith), then the sub-phase, the acting seat and the pending selection.

    Raises:
        ValueError: ``viewer`` is not ``None`` or a seat of this game (the check of ``render_svg``).
    """
    check_viewer(viewer, state.num_players)
    tb = _tables(game)
    netted = _netted(game, state)
    segs = _segments(game, state)
    cells = [_cell(game, state, h, netted, segs) for h in range(NUM_HEXES)]
    w = max(_CELL_W, min(TEXT_WIDTH // 5, max(len(c) for c in cells) + 1))
    lines = board_rows(cells, w, TEXT_WIDTH)
    names = [(h, _name(tb, state, state.board[h])) for h in range(NUM_HEXES) if state.board[h] >= 0]
    short = [f"{h:02d} {n}" for h, n in names if _cell_name(n) != n]
    if short:  # the full names of the tiles the cells shorten
        lines.extend(_wrap("full names: " + ", ".join(short)))
    lines.append("")
    teams = _teams(game)
    module = _module(game, state)
    for p in range(state.num_players):
        fac = tb.content.factions[state.factions[p]].name if hasattr(tb, "content") else str(state.factions[p])
        if teams:
            hp_txt = f"pool {'AB'[p % 2]}={max(0, state.pool[p % 2])}"
        else:
            hp_txt = f"HP {max(0, state.hp[p])}"
        hand = []
        for slot, i in enumerate(state.hand[p]):
            if i >= 0:
                hand.append(_name(tb, state, i) + ("*" if state.fresh[p][slot] else ""))
        parts = [f"P{p} {fac}", hp_txt, f"deck {len(state.deck[p])}", f"discard {len(state.discard[p])}"]
        if not state.alive[p]:
            parts.append("eliminated")
        parts.append("hand [" + ", ".join(hand) + "]")
        lines.extend(_wrap("  ".join(parts)))
        if module:
            lines.extend(_wrap("    " + _monolith_text(tb, state, p, viewer)))
    lines.append("")
    sub = _enum_name(Sub, state.sub_phase)
    acting = f"P{state.acting_seat}" if state.acting_seat >= 0 and not state.terminal else "-"
    status = [f"sub-phase {sub}", f"acting {acting}", f"turn P{state.turn_seat}"]
    if state.last_round:
        owed = [f"P{p}" for p in range(state.num_players) if state.last_round_owed[p]]
        status.append("last round (owed: " + (", ".join(owed) or "none") + ")")
    if state.b_active:
        status.append(f"battle phase {state.b_phase}")
    status.append(f"poison supply {state.poison_supply}")
    if state.terminal:
        status.append("GAME OVER winners " + (", ".join(f"P{p}" for p in state.winners) or "none (draw)"))
    lines.extend(_wrap("  ".join(status)))
    pend = _pending_text(tb, state)
    if pend:
        lines.extend(_wrap(pend))
    return "\n".join(lines)


def _monolith_text(tb, state, p: int, viewer: int | None) -> str:
    if not state.alive[p]:
        return "monolith -"
    if state.seg_hex[p][0] < 0:
        where = "not placed"
    elif state.mono_folded[p]:
        where = f"folded at {state.seg_hex[p][0]}"
    else:
        where = "unfolded at " + "/".join(str(h) for h in state.seg_hex[p])
    segs = []
    for k in (0, 1):
        i = state.seg_content[p][k]
        if i < 0:
            txt = "-"
        elif viewer is None or viewer == p or state.seg_revealed[p][k]:
            txt = f"P{i // PER_SEAT} {_name(tb, state, i)}" if i // PER_SEAT != p else _name(tb, state, i)
        else:
            txt = "?"
        segs.append(f"seg{k + 2}={txt}")
    return f"monolith {where} " + " ".join(segs)


def _pending_text(tb, state) -> str:
    if state.p_effect < 0 and state.p_order < 0:
        return ""
    parts = ["pending"]
    if state.p_effect >= 0:
        parts.append(_enum_name(Eff, state.p_effect).lower())
    if state.p_order >= 0:
        parts.append(f"order={_name(tb, state, state.p_order)}")
    if state.p_mode >= 0:
        parts.append(f"mode={state.p_mode}")
    for name, v in (("A", state.p_a), ("B", state.p_b), ("C", state.p_c)):
        if v >= 0:
            parts.append(f"{name}={v}")
    if state.unfold_queue:
        parts.append("unfold_queue=" + ",".join(str(x) for x in state.unfold_queue))
    return " ".join(parts)
