"""Monolith Arena's pieces for terminal play: a compact 80-column board, stage names and option texts,
narration of every action (placements, battles: hits, removals, HP changes, eliminations)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from monolith_envs.arena.board import DIR_NAMES
from monolith_envs.arena.context import effect_of
from monolith_envs.arena.effects import get_fx
from monolith_envs.arena.render import _netted, _segments, _teams
from monolith_envs.arena.state import INSTANCES_PER_SEAT as PER_SEAT
from monolith_envs.arena.state import BattleStage, Loc
from monolith_envs.arena.words import mode_words, sub_words, tile_words

from . import WIDTH, Pieces, wrap

__all__ = ["ArenaPieces", "PIECES"]

_ROWS = ((0, 1, 2), (3, 4, 5, 6), (7, 8, 9, 10, 11), (12, 13, 14, 15), (16, 17, 18))
_CELL = 14  # columns per hex in the board picture (5 hexes in the widest row: 70 columns)

LEGEND = """\
Legend. The board has five rows of hexes, numbered 00-18. A hex reads hh:. when
empty, else hh:<seat><tile>/<facing>: <seat> 0-3, <tile> a short name (the
"tiles:" key under the board), <facing> where its front edge points (NE E SE SW
W NW). Then: +k wounds; after a comma N netted, Pk poison markers, M Net-order
marker, E entrenched; S<k> Monolith segment k (S<k>@p: seat p's, under another
tile).
Each seat: HP (teams: the team's pool), deck and discard sizes; its hand by
slot (hands are public; * = drawn this turn); a menu's numbers are its own,
not the slots.
"""

_STAGES = {"slot": "tile", "hex": "hex", "rot": "facing", "facing": "facing", "local": "tile type",
           "feature": "feature", "triangle": "triangle", "mode": "mode"}
_FAMILIES = {"PICK_TYPE": "pick a tile type", "DISCARD": "discard a tile", "PLACE": "place a tile",
             "PLAY_ORDER": "play an order", "USE_FEATURE": "use a feature (maneuver, teleport, swap, rotate)",
             "UNFOLD": "unfold the Monolith", "END_TURN": "end the turn", "SELECT_HEX": "select a hex",
             "SELECT_ROT": "select a facing", "SELECT_TRIANGLE": "select a triangle", "SELECT_MODE": "select a mode"}


def _short(name: str) -> str:
    words = name.removeprefix("Rune of ").replace("/", " ").split()
    return (words[0][:3] if len(words) == 1 else "".join(w[0] for w in words[:3])).capitalize()


@contextmanager
def _hit_trace(log: list, seen: dict | None = None):
    """While active, every Battle or order resolution step of the Arena engine appends its hits to ``log``
    as ``(source instance, or "poison" / "order", source hex or -1, target instance, target hex, strength,
    absorbed)`` tuples, in the engine's order
    (docs/monolith_arena.md §4.7: on each target the strongest hits first; a Regeneration rune absorbs one);
    ``seen["battle"]`` is set when a step of a Battle ran (not only an Order's own hits). A Battle's kill step
    (docs §4.7 step 2: a kill edge removes the enemy tile it points at, and the killer) appends
    ``("kill", killer instance, its hex, victim instance, its hex)`` for each kill edge that finds its victim."""
    from monolith_envs.arena import battle, order_steps

    orig, orig_kill = battle.resolve_step, battle.kill_step

    def traced_kill(g, s, fx):
        if seen is not None:
            seen["battle"] = True
        board, kill_dirs = s.board, g.tables.kill_dirs
        for h in fx.occ:  # battle.kill_step's own test, kill by kill
            kd = kill_dirs[fx.typ[h]][fx.fac[h]]
            if not kd or fx.netted[h] or fx.disarmed[h]:
                continue
            rel = g.rel[fx.owner[h]]
            for d in kd:
                x = battle.NB[h][d]
                if x >= 0 and board[x] >= 0 and board[x] % PER_SEAT and rel[board[x] // PER_SEAT] == battle.ENEMY:
                    log.append(("kill", board[h], h, board[x], x))
        return orig_kill(g, s, fx)

    def traced(g, s, fx, hits):
        by_t: dict[int, list] = {}
        for x, st, src, ven in hits:
            by_t.setdefault(x, []).append((st, src, ven))
        used: set = set()
        for x in sorted(by_t):
            lst = sorted(by_t[x], key=battle._strongest_first)
            runes = [r for r in fx.regen[x] if r not in used] if fx.regen[x] else []
            k = min(len(runes), len(lst))
            used.update(runes[:k])
            poison = bool(s.b_active) and s.b_stage == BattleStage.POISON
            if seen is not None and s.b_active:
                seen["battle"] = True
            for j, (st, src, _ven) in enumerate(lst):
                who = s.board[src] if src >= 0 else ("poison" if poison else "order")
                log.append((who, src, s.board[x], x, st, j < k))
        return orig(g, s, fx, hits)

    battle.resolve_step = order_steps.resolve_step = traced
    battle.kill_step = traced_kill
    try:
        yield
    finally:
        battle.resolve_step = order_steps.resolve_step = orig
        battle.kill_step = orig_kill


class ArenaPieces(Pieces):
    """Terminal play of Monolith Arena (``docs/monolith_arena.md``)."""

    legend_text = LEGEND

    # ------------------------------------------------------------------ board
    def board(self, game: Any, state: Any, viewer: int) -> str:
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
                flags = "N" * bool(netted[h]) + (f"P{state.poison[i]}" if state.poison[i] else "")
                flags += "M" * (state.net_marker_on == i) + "E" * (state.entrench_on == i)
                # after a comma, so that a facing and a flag never read as one word (SE + E is "SE,E")
                text += f",{flags}" if flags else ""
            for p, k in segs.get(h, ()):
                text += f"S{k}" if i >= 0 and i // PER_SEAT == p else f"S{k}@{p}"
            cells.append(text)
        lines = []
        for row in _ROWS:
            lines.append(" " * ((5 - len(row)) * _CELL // 2) + "".join(cells[h].ljust(_CELL) for h in row).rstrip())
        if key:
            lines.append(wrap("tiles: " + ", ".join(f"{k}={v}" for k, v in sorted(key.items())), WIDTH))
        lines.append("")
        teams = _teams(game)
        for p in range(state.num_players):
            fac = tb.content.factions[state.factions[p]].name
            life = f"pool {'AB'[p % 2]} {max(0, state.pool[p % 2])}" if teams else f"HP {max(0, state.hp[p])}"
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
        return _STAGES.get(arg, arg)

    def aliases(self, game: Any, state: Any, family: str, arg: str, value: int) -> tuple[str, ...]:
        """A rotation or facing is also chosen by its compass letters (``E``, ``NW``)."""
        return (DIR_NAMES[value],) if arg in ("rot", "facing") else ()

    def family_option(self, game: Any, state: Any, family: str) -> str:
        return _FAMILIES.get(family, family)

    def option(self, game: Any, state: Any, family: str, arg: str, value: int) -> str:
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
        if arg == "hex" and family == "PLACE" and state.board[value] >= 0:
            return f"it holds {self._tile(game.tables, state, state.board[value])}; a tile is placed on an empty hex"
        return None

    _tile = staticmethod(tile_words)

    # ------------------------------------------------------------------ narration
    def narrate(self, game: Any, before: Any, after: Any, action: int, seat: int) -> list[str]:
        tb = game.tables
        text = self.action_text(game, before, action)
        lines = [f"P{seat} {text}"]
        in_battle = before.b_active or after.b_active or "Battle" in text
        family = game.layout.split(int(action))[0]
        if after.b_active and not before.b_active:
            lines.append("  a Battle starts")
        changed = self._changed(before, after)
        seen: dict = {}
        hits = self._hit_lines(game, before, action, seen) if changed or family == "SELECT_TRIANGLE" else []
        # a whole Battle inside this one step (the board filled up, docs §4.6): said as one
        whole = bool(seen.get("battle")) and not before.b_active and not after.b_active
        if whole:
            full = family == "PLACE" and list(before.board).count(-1) == 1  # this tile filled the last hex
            lines.append("  a Battle starts" + (" (the board is full)" if full else ""))
        if changed or hits:
            lines.append("  Battle:" if in_battle or whole or family == "END_TURN" else "  effects:")
            lines.extend(hits or ())
        elif hits is not None and family == "SELECT_TRIANGLE":  # traced: an area Order that finds no target
            lines.append("  it hits nothing: no tile there that it wounds" + _kinds(game, before))
        fx = None
        for i in range(len(before.loc)):
            was, now = before.loc[i], after.loc[i]
            if was == Loc.BOARD and after.wounds[i] > before.wounds[i] and now == Loc.BOARD:
                if fx is None:
                    fx = get_fx(game.rules, after)
                got = after.wounds[i] - before.wounds[i]
                can = "" if i % PER_SEAT == 0 else f" (it can take {fx.tough[after.hexof[i]]})"  # a Banner: HP
                lines.append(f"    {self._tile(tb, before, i)} on hex {before.hexof[i]:02d} is hit: {got} "
                             f"wound{'s' * (got != 1)}, {after.wounds[i]} in all{can}")
            if was == Loc.BOARD and now != Loc.BOARD:
                lines.append(f"    {self._tile(tb, before, i)} is removed from hex {before.hexof[i]:02d}")
            elif was == Loc.BOARD and now == Loc.BOARD and after.hexof[i] != before.hexof[i]:
                lines.append(f"    {self._tile(tb, before, i)} moves from hex {before.hexof[i]:02d} to hex "
                             f"{after.hexof[i]:02d}")
        teams = _teams(game)
        lives = (before.pool, after.pool) if teams else (before.hp, after.hp)
        for p, (a, b) in enumerate(zip(*lives)):
            if a != b:
                who = f"team {'AB'[p]} pool" if teams else f"P{p} HP"
                lines.append(f"    {who} {max(0, a)} -> {max(0, b)} ({b - a:+d})")
        for p in range(after.num_players):
            if before.alive[p] and not after.alive[p]:
                lines.append(f"  P{p} is eliminated")
        if (before.b_active or whole) and not after.b_active:
            lines.append("  the Battle ends")
        if after.terminal and not before.terminal:
            lines.append(f"  game over: {_winners(after)} ({game.end_reason(after)})")
        elif after.turn_seat != before.turn_seat:
            lines.append(f"  now the turn of P{after.turn_seat}")
        return [wrap(x) for x in lines]

    def _hit_lines(self, game: Any, before: Any, action: int, seen: dict | None = None) -> list[str] | None:
        """``"    P0 Knight (hex 04) hits P1 Crossbowman on hex 09 for 2"`` per hit of ``action``, found by
        playing it again on a copy of ``before`` (Arena draws no chance during play) with the resolution steps
        traced; ``None`` when that fails (the wound lines still follow).  Every tile is named with its hex, as
        two tiles may share a name."""
        from monolith_envs.core.chance import NoDrawRng

        tb, log = game.tables, []
        try:
            with _hit_trace(log, seen):
                game.apply(game.clone(before), int(action), NoDrawRng("while narrating a Battle"))
        except Exception:  # noqa: BLE001 - narration must never stop the game; the wound lines still follow
            return None
        lines = []
        for entry in log:
            if entry[0] == "kill":  # the kill step: the removals follow among the narration's other lines
                _, src, src_hex, tgt, tgt_hex = entry
                lines.append(f"    {self._tile(tb, before, src)} (hex {src_hex:02d}) kills "
                             f"{self._tile(tb, before, tgt)} on hex {tgt_hex:02d}")
                continue
            src, src_hex, tgt, tgt_hex, st, absorbed = entry
            who = {"poison": "poison", "order": "the order"}.get(src) or f"{self._tile(tb, before, src)} (hex {src_hex:02d})"
            target = f"{self._tile(tb, before, tgt)} on hex {tgt_hex:02d}" if tgt >= 0 else f"the empty hex {tgt_hex:02d}"
            lines.append(f"    {who} hits {target} for {st}" + (", absorbed by a Regeneration rune" if absorbed else ""))
        return lines

    @staticmethod
    def _changed(before: Any, after: Any) -> bool:
        """Wounds, removals or life totals changed in this action."""
        return (list(before.hp) != list(after.hp) or list(before.pool) != list(after.pool)
                or list(before.wounds) != list(after.wounds)
                or any(a == Loc.BOARD and b != Loc.BOARD for a, b in zip(before.loc, after.loc)))


PIECES = ArenaPieces()


def _winners(state: Any) -> str:
    """``P1 won`` (teams: ``P0, P2 won``), or ``a draw``: the result of a finished game."""
    return ", ".join(f"P{p}" for p in state.winners) + " won" if len(state.winners) else "a draw"


def _kinds(game: Any, state: Any) -> str:
    """`` (Champions and Runes)``: the kinds of tile the pending Order wounds, or ``""`` when it names none."""
    if state.p_order < 0:
        return ""
    kinds = [f"{k.capitalize()}s" for k in effect_of(game.rules, state).kinds]
    return f" ({', '.join(kinds[:-1])} and {kinds[-1]})" if len(kinds) > 1 else f" ({kinds[0]})" if kinds else ""


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
