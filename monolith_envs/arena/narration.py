"""Monolith Arena's narration: what one action did, in lines of at most 80 columns
(:data:`monolith_envs.core.narration.WIDTH`).

:func:`narrate` compares the states before and after one ``apply`` and says the action, a Battle starting
(and why) and ending, every hit in the engine's order (found by playing the action again on a copy with
the resolution steps traced, :func:`_hit_trace`), kills, wounds, removals, the moves that the action's own
words do not already say, HP or pool changes, eliminations, the next turn and the result.  Terminal play, browser play (``agents/terminal/arena.py``) and
the HTML replay page (``ArenaGame.narrate``) show these lines.  Rules: docs/monolith_arena.md.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from ..core.narration import wrap
from .context import effect_of
from .effects import compute_fx, get_fx
from .render import _teams
from .state import INSTANCES_PER_SEAT as PER_SEAT
from .state import BattleStage, Loc, Sub, Trigger
from .words import tile_words

__all__ = ["narrate"]


@contextmanager
def _hit_trace(log: list, seen: dict | None = None):
    """While active, every Battle or order resolution step of the Arena engine appends its hits to ``log``
    as ``(source instance, or "poison" / "order", source hex or -1, target instance, target hex, strength,
    absorbed)`` tuples, in the engine's order
    (docs/monolith_arena.md §4.7: on each target the strongest hits first; a Regeneration rune absorbs one);
    ``seen["battle"]`` is set when a step of a Battle ran (not only an Order's own hits), and
    ``seen["trigger"]`` to what started the first one (``b_trigger``). A Battle's kill step
    (docs §4.7 step 2: a kill edge removes the enemy tile it points at, and the killer) appends
    ``("kill", killer instance, its hex, victim instance, its hex)`` for each kill edge that finds its victim.
    In a Battle each initiative phase's first step appends ``("phase", initiative)`` (the poison step
    ``("poison",)``) before its hits, and every step appends ``("removed", instance, hex)`` for each tile it
    took off the board (docs §4.7: removals at the end of each step, before the next phase attacks)."""
    from . import battle, order_steps

    orig, orig_kill = battle.resolve_step, battle.kill_step
    stage: list = [None]

    def removed(board0: list, s) -> None:
        for h, inst in enumerate(board0):
            if inst >= 0 and s.board[h] != inst:
                log.append(("removed", inst, h))

    def traced_kill(g, s, fx):
        if seen is not None:
            seen["battle"] = True
            seen.setdefault("trigger", s.b_trigger)
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
        board0 = list(board)
        out = orig_kill(g, s, fx)
        removed(board0, s)
        return out

    def traced(g, s, fx, hits):
        if s.b_active and hits:
            now = ("poison",) if s.b_stage == BattleStage.POISON else ("phase", s.b_phase)
            if now != stage[0]:
                log.append(now)
                stage[0] = now
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
                seen.setdefault("trigger", s.b_trigger)
            for j, (st, src, _ven) in enumerate(lst):
                who = s.board[src] if src >= 0 else ("poison" if poison else "order")
                log.append((who, src, s.board[x], x, st, j < k))
        board0 = list(s.board)
        out = orig(g, s, fx, hits)
        removed(board0, s)
        return out

    battle.resolve_step = order_steps.resolve_step = traced
    battle.kill_step = traced_kill
    try:
        yield
    finally:
        battle.resolve_step = order_steps.resolve_step = orig
        battle.kill_step = orig_kill


#: the setup sub-phases (docs/monolith_arena.md §3): the first turn begins when the state leaves them
_SETUP = (Sub.SETUP_PICK, Sub.SETUP_BANNER)


def narrate(game: Any, before: Any, after: Any, action: int, seat: int) -> list[str]:
    """What ``action`` by ``seat`` did, as lines of at most 80 columns (``WIDTH``) (a line longer than
    that is wrapped, its parts joined by newlines): the action in words (``P0 places ...``), then ``a Battle
    starts (the board is full)`` (why, unless the action names the Battle Order), the kill step's kills and
    removals, then each initiative phase of a Battle (``initiative 3:``, then ``poison:``) with its hits
    (``P0 Knight (hex 04) hits P1 Crossbowman on hex 09 for 2``) and the removals at the end of its step, then
    the wounds of the tiles that live and any other removal or move (not one the action's words said), HP or pool changes, eliminations, ``the Battle ends``, whose turn it is now and the tiles
    that seat draws (hands are public, D5), or the result.
    A Monolith setup pick is said without the tile (it is hidden from the other seats), so the lines can be
    shown to every seat.

    ``before`` is the state the action was applied in and ``after`` the state one ``apply`` later (both are
    only read); seats are named ``P<seat>``.  Arena draws no chance during play, so the hits are found by
    applying the action again on a copy of ``before``.
    """
    tb = game.tables
    text = game.describe_action(before, int(action))
    family, idx = game.layout.split(int(action))
    if family == "PICK_TYPE":  # the Monolith's setup picks are secret (docs §3)
        text = "picks a tile for its Monolith (hidden from the other seats)"
    lines = [f"P{seat} {text}"] + _moves_at_facing(before, after, family, idx)
    in_battle = before.b_active or after.b_active or "Battle" in text
    if after.b_active and not before.b_active:
        lines.append("  a Battle starts" + _why(after.b_trigger, text))
    changed = _changed(before, after)
    seen: dict = {}
    hits = _hit_lines(game, before, action, seen) if changed or family == "SELECT_TRIANGLE" else []
    # a whole Battle inside this one step (the board filled up, docs §4.7): said as one
    whole = bool(seen.get("battle")) and not before.b_active and not after.b_active
    if whole:
        lines.append("  a Battle starts" + _why(seen.get("trigger", -1), text))
    # the moves the action's line (or the one before it) said
    said = _said_moves(game, before, action)
    if changed or hits:
        lines.append("  Battle:" if in_battle or whole or family == "END_TURN" else "  effects:")
        lines.extend(hits or ())
    elif hits is not None and family == "SELECT_TRIANGLE":  # traced: an area Order that finds no target
        lines.append("  it hits nothing: no tile there that it wounds" + _kinds(game, before))
    fx = None
    placed = _placed(before, family, idx)  # (instance, hex) of a tile this action put on the board, or None
    for i in range(len(before.loc)):
        was, now = before.loc[i], after.loc[i]
        at = before.hexof[i]
        if placed is not None and i == placed[0]:  # placed now: the Battle it filled the board for may hit it
            was, at = Loc.BOARD, placed[1]
        if was == Loc.BOARD and after.wounds[i] > before.wounds[i] and now == Loc.BOARD:
            if fx is None:
                fx = get_fx(game.rules, after)
            got = after.wounds[i] - before.wounds[i]
            tough = fx.tough[after.hexof[i]]  # a tile lives while its wounds are at most its toughness
            can = "" if i % PER_SEAT == 0 else f" (removed at {tough + 1} wounds)"  # a Banner: HP
            lines.append(f"    {tile_words(tb, before, i)} on hex {at:02d} is hit: {got} "
                         f"wound{'s' * (got != 1)}, {after.wounds[i]} in all{can}")
        if was == Loc.BOARD and now != Loc.BOARD:
            if (i, at) not in seen.get("removed", ()):  # not said already, in its step
                lines.append(f"    {tile_words(tb, before, i)} is removed from hex {at:02d}")
        elif (was == Loc.BOARD and now == Loc.BOARD and after.hexof[i] != at
              and (i, at, after.hexof[i]) not in said):  # (a tile placed now is at its new hex already)
            lines.append(f"    {tile_words(tb, before, i)} moves from hex {at:02d} to hex {after.hexof[i]:02d}")
    lines += _net_lines(game, before, after)
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
    elif after.turn_seat != before.turn_seat or (before.sub_phase in _SETUP and after.sub_phase not in _SETUP):
        # (the first turn may be that of the seat that was setting up: P0's opening draw is said too)
        lines.append(f"  now the turn of P{after.turn_seat}")
        lines.extend(_draw_lines(tb, before, after))
    return [wrap(x) for x in lines]


def _draw_lines(tb: Any, before: Any, after: Any) -> list[str]:
    """The draw at the start of the turn that ``after`` begins (docs/monolith_arena.md §4.1 step 2): the
    tiles drawn (hands are public, D5), the deck left, and the last round when this draw took the last tile."""
    p = after.turn_seat
    drawn = [tb.name_of[after.itype[i]] for k, i in enumerate(after.hand[p]) if i >= 0 and after.fresh[p][k]]
    if not drawn:
        return []
    last = "; its last tile: the last round begins" if after.last_round and not before.last_round else ""
    return [f"  P{p} draws {', '.join(drawn)} (deck {len(after.deck[p])} left){last}"]


def _hit_lines(game: Any, before: Any, action: int, seen: dict | None = None) -> list[str] | None:
    """``"    P0 Knight (hex 04) hits P1 Crossbowman on hex 09 for 2"`` per hit of ``action``, found by
    playing it again on a copy of ``before`` (Arena draws no chance during play) with the resolution steps
    traced; ``None`` when that fails (the wound lines still follow).  Every tile is named with its hex, as
    two tiles may share a name."""
    from ..core.chance import NoDrawRng

    tb, log = game.tables, []
    try:
        with _hit_trace(log, seen):
            game.apply(game.clone(before), int(action), NoDrawRng("while narrating a Battle"))
    except Exception:  # noqa: BLE001 - narration must never stop the game; the wound lines still follow
        return None
    lines, pad = [], "    "
    gone = seen.setdefault("removed", set()) if seen is not None else set()
    for entry in log:
        if entry[0] in ("phase", "poison"):  # a Battle's initiative phase, or its poison step (docs §4.7)
            lines.append(f"    initiative {entry[1]}:" if entry[0] == "phase" else "    poison:")
            pad = "      "
            continue
        if entry[0] == "removed":  # at the end of its step, before the next phase attacks
            _, inst, at = entry
            lines.append(f"{pad}{tile_words(tb, before, inst)} is removed from hex {at:02d}")
            gone.add((inst, at))
            continue
        if entry[0] == "kill":  # the kill step, before the initiative phases
            _, src, src_hex, tgt, tgt_hex = entry
            lines.append(f"{pad}{tile_words(tb, before, src)} (hex {src_hex:02d}) kills "
                         f"{tile_words(tb, before, tgt)} on hex {tgt_hex:02d}")
            continue
        src, src_hex, tgt, tgt_hex, st, absorbed = entry
        who = {"poison": "poison", "order": "the order"}.get(src) or f"{tile_words(tb, before, src)} (hex {src_hex:02d})"
        target = f"{tile_words(tb, before, tgt)} on hex {tgt_hex:02d}" if tgt >= 0 else f"the empty hex {tgt_hex:02d}"
        lines.append(f"{pad}{who} hits {target} for {st}" + (", absorbed by a Regeneration rune" if absorbed else ""))
    return lines


def _why(trigger: int, text: str) -> str:
    """`` (the board is full)``: why a Battle started (``b_trigger``, docs
    §4.7: a Battle Order, the board full, the final Battle once the last
    round is over, §4.1 step 6); ``""`` for a Battle Order that the action's
    own words name (``plays the order Battle``, ``chooses Battle``)."""
    if trigger == Trigger.BOARD_FULL:
        return " (the board is full)"
    if trigger == Trigger.FINAL:
        return " (the final Battle: the last round is over)"
    if trigger == Trigger.ORDER and "Battle" not in text:
        return " (a Battle Order)"
    return ""


# the sub-phases whose SELECT_HEX says a move to the hex chosen
_SAYS_MOVE = (Sub.MOVE_DEST, Sub.FEATURE_DEST, Sub.CHARGE_DEST, Sub.PUSH_DEST)
# the sub-phases whose SELECT_ROT ends a move its step before said
_ENDS_MOVE = (Sub.MOVE_FACING, Sub.FEATURE_FACING, Sub.CHARGE_FACING)


def _moves_at_facing(before: Any, after: Any, family: str, idx: tuple) -> list[str]:
    """``["  (it stays on hex 04 until its facing is chosen, the next step)"]`` (the hex it stands on) for a move
    or charge destination (``family`` SELECT_HEX, its arguments ``idx``) whose tile is still where it was, the
    facing to come (docs §4.4: the board shows it there until then); ``[]`` otherwise."""
    if family != "SELECT_HEX" or before.sub_phase not in _SAYS_MOVE:
        return []
    a, h = before.p_a, idx[0]
    if (a == h or not 0 <= a < len(before.board) or before.board[a] < 0 or after.sub_phase not in _ENDS_MOVE
            or after.board[a] != before.board[a]):
        return []
    return [f"  (it stays on hex {a:02d} until its facing is chosen, the next step)"]


def _placed(before: Any, family: str, idx: tuple) -> tuple[int, int] | None:
    """``(instance, hex)`` of the tile a PLACE action puts on the board (the acting seat's tile of the slot
    it names), or None for any other action."""
    if family != "PLACE":
        return None
    slot, h = idx[0], idx[1]
    seat = before.acting_seat
    if not 0 <= seat < len(before.hand) or not 0 <= slot < len(before.hand[seat]):
        return None
    i = before.hand[seat][slot]
    return (i, h) if i >= 0 else None


def _said_moves(game: Any, before: Any, action: int) -> set:
    """``{(instance, from hex, to hex)}``: the moves that the action's own
    line already says, so that no ``moves from hex`` line repeats them: a
    move, charge or push to the hex chosen (``moves the tile on hex 14 (P0
    Banner) to hex 18``), both tiles of a swap, and a facing that ends a move
    or a charge (the tile moves with it; the step before said where)."""
    fam, idx = game.layout.split(int(action))
    sub, a, b = before.sub_phase, before.p_a, before.p_b
    board = before.board
    if not 0 <= a < len(board) or board[a] < 0:
        return set()
    if fam == "SELECT_HEX":
        h = idx[0]
        if sub in _SAYS_MOVE:
            return {(board[a], a, h)}
        if sub == Sub.SWAP_TARGET:
            return {(board[a], a, h), (board[h], h, a)}
    if fam == "SELECT_ROT" and sub in _ENDS_MOVE:
        return {(board[a], a, b)}
    return set()


def _changed(before: Any, after: Any) -> bool:
    """Wounds, removals or life totals changed in this action."""
    return (list(before.hp) != list(after.hp) or list(before.pool) != list(after.pool)
            or list(before.wounds) != list(after.wounds)
            or any(a == Loc.BOARD and b != Loc.BOARD for a, b in zip(before.loc, after.loc)))


def _winners(state: Any) -> str:
    """``P1 won`` (teams: ``P0, P2 won``), or ``a draw``: the result of a finished game."""
    return ", ".join(f"P{p}" for p in state.winners) + " won" if len(state.winners) else "a draw"


def _kinds(game: Any, state: Any) -> str:
    """`` (Champions and Runes)``: the kinds of tile the pending Order wounds, or ``""`` when it names none."""
    if state.p_order < 0:
        return ""
    kinds = [f"{k.capitalize()}s" for k in effect_of(game.rules, state).kinds]
    return f" ({', '.join(kinds[:-1])} and {kinds[-1]})" if len(kinds) > 1 else f" ({kinds[0]})" if kinds else ""


def _net_lines(game: Any, before: Any, after: Any) -> list[str]:
    """``"    P0 Banner on hex 09 is netted"`` for each tile on the board that a net holds now and did not
    before (placed, moved or netted where it stands), ``"... is no longer netted"`` for one freed (docs §4.6:
    a netted tile neither attacks nor gives its aura or Rune bonus)."""
    # ``after``'s effects through its cache (the wound lines read them too); ``before`` is only read
    f0, f1 = compute_fx(game.rules, before), get_fx(game.rules, after)
    out = []
    for h, inst in enumerate(after.board):
        if inst < 0:
            continue
        was = before.loc[inst] == Loc.BOARD and bool(f0.netted[before.hexof[inst]])
        now = bool(f1.netted[h])
        if now != was:
            out.append(f"    {tile_words(game.tables, after, inst)} on hex {h:02d} is "
                       + ("netted (no attacks, aura or bonus)" if now else "no longer netted"))
    return out
