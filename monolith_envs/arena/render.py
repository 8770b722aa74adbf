"""Text and picture renderers of Monolith Arena (docs/monolith_arena.md §7, end of "Engine and wrapper notes").

* :func:`render_text` prints the board rows of docs/monolith_arena.md §2.1, each hex as ``owner.type/facing/wounds``
  (``type`` = tile id; tokens ``N`` netted, ``P<k>`` poison markers, ``S<k>`` Monolith segment k, ``M`` the
  Net-order marker, ``E`` the Entrenchment marker), then per seat HP, deck size, hand, discard size and
  Monolith state (hidden contents as ``?`` unless the viewer may see them), then the sub-phase and the
  pending selection.
* :func:`render_rgb` draws the board with numpy only: hexes filled with the owner's colour, a mark on the
  front edge, short ticks on attack edges, wound pips, HP bars per seat; under them a status panel
  (decision, sub-phase, seat to act or the result, the last action, teams) and a legend of the marks, so
  that a sequence of frames can be followed without the text render.

Both take the game object (``ArenaGame``, or anything exposing ``tables`` and the rules of
:mod:`monolith_envs.arena`) and an :class:`~monolith_envs.arena.state.ArenaState`; neither mutates the state.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.raster import blend, canvas, hex_direction, hex_grid, text
from .board import COORDS, DIR_NAMES, NUM_HEXES
from .effects import get_fx
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import Eff, Sub
from .tables import Kind, tables_for

__all__ = ["OWNER_COLOURS", "RGB_SIZE", "hex_center_px", "render_rgb", "render_text"]

#: row lengths of the board (docs/monolith_arena.md §2.1): hexes 0-2, 3-6, 7-11, 12-15, 16-18
_ROWS = ((0, 1, 2), (3, 4, 5, 6), (7, 8, 9, 10, 11), (12, 13, 14, 15), (16, 17, 18))

#: RGB colour per seat (seat 0 red, 1 blue, 2 green, 3 gold)
OWNER_COLOURS: tuple[tuple[int, int, int], ...] = ((200, 55, 55), (55, 95, 205), (45, 150, 75), (205, 160, 30))
_EMPTY = (205, 203, 192)
_BG = (246, 244, 238)
_EDGE = (70, 70, 70)
_DARK = (25, 25, 25)
_WHITE = (255, 255, 255)
_WOUND = (235, 30, 30)
_POISON = (120, 220, 60)

#: picture size ``(height, width)`` of :func:`render_rgb`
RGB_SIZE = (480, 400)
_PANEL_Y = 400  # the status panel and the legend start here (the board and HP bars above)
_RESULT = (170, 20, 20)
#: the legend under the picture (the 3x5 font has no "=", so ":" separates a mark and its meaning)
RGB_LEGEND = ("LEGEND  FILL: OWNER  PALE: RUNE  RING: BANNER  WHITE WEDGE: FRONT EDGE",
              "DARK TICK: MELEE  LIGHT TICK: RANGED  GREY BAR: ARMOR  RED PIPS: WOUNDS",
              "GREEN PIPS: POISON  HATCH: NETTED  OUTLINE SK: MONOLITH SEGMENT K",
              "BARS: HP OR TEAM POOL  SQUARE: SEAT TO ACT  NUMBERS: HEXES")
_HEX_R = 40.0  # centre-to-corner radius in pixels
_BOARD_CY = 172.0
_BOARD_CX = 200.0


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


def _cell(game, state, h: int, netted, segs) -> str:
    tb = _tables(game)
    i = state.board[h]
    toks = []
    if i < 0:
        body = "."
    else:
        body = f"{i // PER_SEAT}.{_cell_name(_name(tb, state, i))}/{DIR_NAMES[state.facing[i]]}"
        if state.wounds[i]:
            body += f"+{state.wounds[i]}"
        if netted[h]:
            toks.append("N")
        if state.poison[i]:
            toks.append(f"P{state.poison[i]}")
        if state.net_marker_on == i:
            toks.append("M")
        if state.entrench_on == i:
            toks.append("E")
    for p, k in segs.get(h, ()):
        toks.append(f"S{k}" if i >= 0 and i // PER_SEAT == p else f"S{k}@{p}")
    return f"{h:02d}:" + " ".join([body] + toks)


def _wrap(line: str, indent: str = "    ") -> list[str]:
    """``line`` cut at spaces into lines of at most :data:`TEXT_WIDTH` columns (continuations indented)."""
    import textwrap

    if len(line) <= TEXT_WIDTH:
        return [line]
    return textwrap.wrap(line, TEXT_WIDTH, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False)


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
    """
    tb = _tables(game)
    netted = _netted(game, state)
    segs = _segments(game, state)
    cells = [_cell(game, state, h, netted, segs) for h in range(NUM_HEXES)]
    w = max(_CELL_W, min(TEXT_WIDTH // 5, max(len(c) for c in cells) + 1))
    lines = []
    for row in _ROWS:
        indent = " " * ((5 - len(row)) * w // 2)
        line = indent + "".join(cells[h].ljust(w) for h in row).rstrip()
        if len(line) > TEXT_WIDTH:  # a crowded row (many markers): one space between cells, then wrapped
            lines.extend(_wrap("  ".join(cells[h] for h in row), indent="  "))
        else:
            lines.append(line)
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


# --------------------------------------------------------------------------------------------------
# picture
# --------------------------------------------------------------------------------------------------

_LABEL_OVERRIDES = {"Assassin": "ASN"}


def _label(name: str, kind: int) -> str:
    """Short label: "B" for Banners, else the first 3 letters of a one-word name or the initials."""
    if kind == Kind.BANNER:
        return "B"
    name = name.removeprefix("Rune of ")
    words = name.replace("/", " ").split()
    if len(words) == 1:
        return _LABEL_OVERRIDES.get(words[0], words[0][:3])
    return "".join(w[0] for w in words[:3])


def hex_center_px(h: int) -> tuple[float, float]:
    """Pixel centre ``(x, y)`` of hex ``h`` in :func:`render_rgb`'s picture (pointy-top layout)."""
    q, r = COORDS[h]
    return (_BOARD_CX + _HEX_R * math.sqrt(3) * (q + r / 2.0), _BOARD_CY + _HEX_R * 1.5 * r)


_GEOM: dict[str, np.ndarray] = {}


def _geometry() -> dict[str, np.ndarray]:
    """Per-pixel hex index, local offsets and hex norm of the board (computed once; see
    :func:`monolith_envs.core.raster.hex_grid`)."""
    if not _GEOM:
        _GEOM.update(hex_grid(RGB_SIZE[0], RGB_SIZE[1], [hex_center_px(h) for h in range(NUM_HEXES)], _HEX_R))
    return _GEOM


def render_rgb(game, state) -> np.ndarray:
    """Picture of the board: ``uint8[480, 400, 3]`` (docs/monolith_arena.md §7): the board and the HP bars in the top 400 rows,
    then the status panel (:func:`status_lines`) and the legend of the marks (:data:`RGB_LEGEND`).

    Hexes are pointy-top in the rows of docs/monolith_arena.md §2.1 (hex 0 top left, 18 bottom right).  An occupied hex is
    filled with its owner's colour (:data:`OWNER_COLOURS`; Runes lighter, a dark ring for Banners), the
    front edge carries a white wedge, melee edges a dark tick, ranged edges a light tick, wounds are red
    pips along the bottom, poison green pips along the top, a netted tile is cross-hatched, and Monolith
    segments are outlined in their owner's colour.  Labels: the first letters of the tile name.  Under the
    board one HP bar per seat (length = HP / starting HP) with the value written next to it.
    """
    tb = _tables(game)
    g = _geometry()
    Hh, Ww = RGB_SIZE
    img = canvas(Hh, Ww, _BG)
    idx, dx, dy, norm = g["idx"], g["dx"], g["dy"], g["norm"]
    ap = float(g["apothem"])
    netted = _netted(game, state)
    segs = _segments(game, state)
    border = (idx >= 0) & (norm > ap - 2.0)
    for h in range(NUM_HEXES):
        cell = idx == h
        i = state.board[h]
        if i < 0:
            img[cell] = _EMPTY
        else:
            owner = i // PER_SEAT
            col = OWNER_COLOURS[owner % 4]
            kind = tb.kind[state.itype[i]]
            img[cell] = blend(col, 0.55) if kind == Kind.RUNE else col
            t = state.itype[i]
            f = state.facing[i]
            hx, hy = dx[cell], dy[cell]
            sub = np.zeros(hx.shape + (3,), dtype=np.uint8)
            sub[:] = img[cell]
            # attack ticks: short bars in the outer ring on each attacking direction
            for d in range(6):
                ux, uy = hex_direction(d)
                along = hx * ux + hy * uy
                perp = np.abs(-hx * uy + hy * ux)
                if tb.armor[t][f][d] or state.entrench_on == i:
                    m = (along > ap * 0.84) & (along < ap * 0.93) & (perp < ap * 0.5)
                    sub[m] = (160, 160, 160)
                if tb.melee[t][f][d] > 0:
                    m = (along > ap * 0.68) & (along < ap * 0.86) & (perp < 1.0 + 2.5 * tb.melee[t][f][d])
                    sub[m] = _DARK
                if tb.ranged[t][f][d] > 0:
                    m = (along > ap * 0.68) & (along < ap * 0.86) & (perp < 1.0 + 2.5 * tb.ranged[t][f][d])
                    sub[m] = (250, 235, 120)
            # front wedge (printed edge 0)
            ux, uy = hex_direction(f % 6)
            along = hx * ux + hy * uy
            perp = np.abs(-hx * uy + hy * ux)
            wedge = (along > ap * 0.45) & (along < ap * 0.68) & (perp < (ap * 0.68 - along) * 0.9)
            sub[wedge] = _WHITE
            if kind == Kind.BANNER:  # dark ring
                rr = np.hypot(hx, hy)
                sub[(rr > ap * 0.36) & (rr < ap * 0.44)] = _DARK
            if netted[h]:
                hatch = ((np.round(hx + hy).astype(int) % 7) == 0) | ((np.round(hx - hy).astype(int) % 7) == 0)
                sub[hatch & (norm[cell] < ap * 0.9)] = _DARK
            img[cell] = sub
            cx, cy = hex_center_px(h)
            label = _label(tb.name_of[t], kind)
            text(img, int(cx - len(label) * 4 + 1), int(cy - 7), label, _WHITE if kind != Kind.RUNE else _DARK)
            # wounds: red pips along the bottom
            nw = min(state.wounds[i], 5)
            for k in range(nw):
                px = int(cx - 3.5 * nw + k * 7)
                img[int(cy + 9):int(cy + 15), px:px + 6] = _WHITE
                img[int(cy + 10):int(cy + 14), px + 1:px + 5] = _WOUND
            npz = min(state.poison[i], 5)
            for k in range(npz):
                px = int(cx - 3.5 * npz + k * 7)
                img[int(cy - 17):int(cy - 11), px:px + 6] = _DARK
                img[int(cy - 16):int(cy - 12), px + 1:px + 5] = _POISON
        for p, k in segs.get(h, ()):  # segment outline (replaces the grey border of this hex)
            ring = cell & (norm > ap - 3.5)
            img[ring] = tuple(int(v * 0.6) for v in OWNER_COLOURS[p % 4])
            border &= ~cell
            cx, cy = hex_center_px(h)
            if not state.mono_folded[p]:
                text(img, int(cx + 12), int(cy + 16), f"S{k}", _DARK, scale=1)
    img[border] = _EDGE
    # hex numbers (small) at the top-left corner of each hex
    for h in range(NUM_HEXES):
        cx, cy = hex_center_px(h)
        text(img, int(cx - 19), int(cy - 24), f"{h}", (90, 90, 90), scale=1)
    # HP bars
    n = state.num_players
    teams = _teams(game)
    y = 330
    for p in range(n):
        if teams:
            hp, full = max(0, state.pool[p % 2]), max(1, getattr(game, "team_hp", 30))
        else:
            hp, full = max(0, state.hp[p]), max(1, tb.fac_hp[state.factions[p]])
        row = y + p * 16
        col = OWNER_COLOURS[p % 4]
        text(img, 10, row, f"P{p}", col)
        img[row:row + 10, 40:340] = (225, 225, 225)
        L = round(300 * min(1.0, hp / full))
        img[row:row + 10, 40:40 + L] = col if state.alive[p] else (120, 120, 120)
        text(img, 348, row, str(hp), _DARK)
        if p == state.acting_seat and not state.terminal:
            img[row + 2:row + 8, 2:7] = _DARK
    for k, line in enumerate(status_lines(game, state)):
        text(img, 6, _PANEL_Y + 4 + 14 * k, line, _RESULT if state.terminal and k == 1 else _DARK)
    for k, line in enumerate(RGB_LEGEND):
        text(img, 6, _PANEL_Y + 48 + 8 * k, line, (90, 90, 90), scale=1)
    return img


def _plain(s: str) -> str:
    """``s`` in the picture font's characters (letters, digits, ``/ : - .``, space)."""
    out = "".join(c if c.isalnum() or c in "/:-. " else " " for c in s.upper())
    return " ".join(out.split())


def status_lines(game, state) -> list[str]:
    """The three status lines under :func:`render_rgb`'s board: the decision number and sub-phase (and the
    last round); the seat to act, or the result on a final frame, and the teams; the last action, when the
    state came from :meth:`ArenaGame.apply` (``state.last_move``)."""
    sub = _enum_name(Sub, state.sub_phase).replace("_", " ")
    first = f"DECISION {state.decisions}  {sub}" + ("  LAST ROUND" if state.last_round else "")
    if state.terminal:
        won = " ".join(f"P{p}" for p in state.winners)
        second = f"GAME OVER - {won} WIN" + ("S" if len(state.winners) == 1 else "") if won else "GAME OVER - DRAW"
    else:
        second = f"P{state.acting_seat} TO ACT  TURN OF P{state.turn_seat}"
    if _teams(game):
        second += "  TEAMS A: P0 P2  B: P1 P3"
    last = getattr(state, "last_move", None)
    third = ""
    if last is not None:
        seat, a = last
        third = f"LAST: P{seat} {_plain(game.layout.decode(int(a)))}" if hasattr(game, "layout") else ""
    return [first, second, third[:49]]
