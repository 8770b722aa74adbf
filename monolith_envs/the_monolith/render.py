"""The text picture of a Monolith state: ``render_text`` (legend: docs §11 "Render legend"); the drawing (``svg`` and
``rgb_array``) is :mod:`monolith_envs.the_monolith.render_svg`."""

from __future__ import annotations

import textwrap

from ..core.drawing import check_viewer
from .board import controllers, tunnels_now, units_text
from .state import Phase, Sub

__all__ = ["render_text"]



def objectives_shown(s, viewer: int | None, p: int) -> bool:
    """Whether a picture for ``viewer`` (None: omniscient) names seat ``p``'s objectives in hand, not only their
    count: its own, and every seat's once the game is over (secret until revealed otherwise, spec §5.6)."""
    return viewer is None or viewer == p or bool(s.terminal)


def render_text(g, s, viewer: int | None = None) -> str:
    """Day, phase, decision; one line per active space; pools; row; events; the legal actions by name; every
    line at most 100 columns (a longer one continues on indented lines).
    With ``viewer`` set, other seats' objectives show as a count only, and another seat's OBJ_REVEAL
    choices are not listed (which slots may be revealed tells what its secret objectives score).

    Raises:
        ValueError: ``viewer`` is not ``None`` or a seat of this game (the check of ``render_svg``).
    """
    check_viewer(viewer, s.n)
    lines = []
    dec = "-" if s.terminal or s.sub < 0 else f"{Sub(s.sub).name} by P{s.current}"
    lines.append(f"The Monolith  day {s.day}/{g.num_days}  phase {Phase(s.phase).name}  decision {dec}  "
                 f"first P{s.first}  surge {'-' if s.surge < 0 else f'P{s.surge}'}")
    tun = tunnels_now(g, s)
    ctrl = controllers(g, s)
    for sp in g.active_spaces:
        name = g.content.map.spaces[sp].name
        b = g.building[sp]
        boast = ",".join(f"P{p}:{h}" for p, h in enumerate(s.boast[sp]) if h) or "-"
        c = f"P{ctrl[sp]}" if ctrl[sp] >= 0 else "-"
        lines.append(f"{sp:2d} {name:<19} {b if b != 'none' else '':<11} {'T' if tun[sp] else ' '} "
                     f"slots {g.slots[sp]} blood {s.blood[sp]} boast {boast:<8} ctrl {c:<3} {units_text(s, sp)}")
    for p in range(s.n):
        sh = g.shamans[s.shaman_id[p]].name if s.shaman_id[p] >= 0 else "?"
        if objectives_shown(s, viewer, p):
            objs = ",".join(g.objs[o].key for o in s.objectives[p]) or "-"
        else:
            objs = f"{len(s.objectives[p])} hidden"
        held = ",".join(g.divs[c].key for c in s.held[p]) or "-"
        flags = "".join((" committed" if s.committed[p] else "", " out" if s.out[p] else ""))
        lines.append(f"P{p} {sh}: favour {s.favour[p]} | hearts avail {s.available[p]} spent {s.spent[p]} "
                     f"unearned {s.unearned[p]} tower {s.tower_today[p]}+{s.tower_stuck[p]} board "
                     f"{'/'.join(map(str, s.board[p]))} | warriors reserves {s.reserves[p]} anger {s.anger[p]} "
                     f"limbo {s.limbo[p]} | held {held} | objectives {objs}{flags}")
    row = []
    for i in range(g.R):
        if s.row[i] >= 0:
            bids = ",".join(f"P{p}:{b}" for p, b in enumerate(s.bids[i]) if b)
            row.append(f"{i}:{g.divs[s.row[i]].key}" + (f"[{bids}]" if bids else ""))
    lines.append("row " + (" ".join(row) or "-"))
    ev = " ".join(g.events[e].key + (f"@{sp}" if sp >= 0 else "") for e, sp in s.events) or "-"
    lines.append(f"events {ev}  decks div {len(s.div_deck)} event {len(s.event_deck)} objective {len(s.obj_deck)}")
    if s.terminal:
        lines.append("game over: ranking " + " ".join(f"P{p}" for p in g.ranking(s)))
    elif viewer is not None and viewer != s.current and s.sub == Sub.OBJ_REVEAL:  # tells what scores
        lines.append(f"legal: P{s.current} decides")
    else:
        lines.append("legal: " + " ".join(g.action_name(a) for a in g.legal_actions(s)))
    return "\n".join(piece for line in lines for piece in _fit(line))


#: text renders fit this many columns
TEXT_WIDTH = 100


def _fit(line: str) -> list:
    """``line`` cut at spaces into lines of at most :data:`TEXT_WIDTH` columns (continuations indented)."""
    if len(line) <= TEXT_WIDTH:
        return [line]
    return textwrap.wrap(line, TEXT_WIDTH, subsequent_indent="    ", break_long_words=True, break_on_hyphens=False)
