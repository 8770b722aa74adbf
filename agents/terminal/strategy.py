"""Monolith: The Strategy Game's pieces for terminal play: an 80-column card grid, the decision being asked
in words, option texts naming cards, sockets, dice and opponents; the narration of every action (dice
placed, cards cast, VP, gems and hand changes, the Primus, rounds) that never names a hidden card is the
package's, :func:`monolith_envs.strategy.narration.narrate`.

Rules: docs/monolith_strategy.md (sections cited below).
"""

from __future__ import annotations

import textwrap
from typing import Any

from monolith_envs.core.words import count
from monolith_envs.strategy.board import PRIV0
from monolith_envs.strategy.narration import line_text, narrate, src_text, winner_words
from monolith_envs.strategy.render import _req, pool_words, socketless_words, status_line
from monolith_envs.strategy.state import Kind
from monolith_envs.strategy.words import socket_words

from . import WIDTH, Pieces, wrap

__all__ = ["PIECES", "StrategyPieces", "line_text"]

LEGEND = """\
Legend. The board is 12 cards in reading order, three to a row (a 13th with
Fate 3.6): position, card id and name, then one entry per socket,
<socket id>:<requirement><occupant>. The requirement is A (any face) or the
face 1-6 a die needs; the occupant is . (empty), # (blocked) or
[P<seat>=<face>], e.g. 05:2[P1=2] is socket 05, needing a 2, holding P1's die
showing 2.
"Round r: covered" marks the card the Round card puts out of play this round
(its Exalted side names the card that takes its place). Each player: * holds
the Primus; VP, gems, pool dice faces ("not rolled yet" before the round's
Chance roll), Source and set-aside dice, Guard charges, cards in hand
("hand 2 + 1 cast": cards cast this round count toward
the hand limit of 5 too); your own hand and private Runes (sockets 52-59). The
track line gives every player's VP and the toll stones (space and cost).
"What the cards do" lists each active card's lines as "who: what" (docs §5.2:
each here = every player with a die on it; highest = the top total there, all
who tie for it; highest alone = the top total if no one ties it).
"""

_STAGES = {("place", "face"): "die", ("set_aside", "face"): "die", ("place", "sid"): "socket",
           ("cast", "kind"): "card", ("choose_opponent", "i"): "opponent", ("choose_face", "face"): "face",
           ("choose_socket", "sid"): "socket", ("choose_index", "j"): "Rune", ("pay_card", "kind"): "card",
           ("discard", "kind"): "card", ("round_side", "side"): "side", ("start_bonus", "bonus"): "bonus",
           ("final_reveal", "k"): "number of gems"}
_FAMILIES = {"place": "place a die", "set_aside": "set a die aside (no socket fits any of your dice)",
             "end_turn": "end the turn", "cast": "cast an action card", "choose_opponent": "choose an opponent",
             "choose_face": "choose a face", "choose_socket": "choose a socket", "choose_index": "keep a Rune",
             "decline": "decline (pay nothing)", "pay_gems": "pay with gems", "pay_card": "pay with a gem card",
             "discard": "discard a card", "round_side": "choose the Round card's side",
             "start_bonus": "take a start bonus", "final_reveal": "reveal gems for VP"}


_CELL = (WIDTH - 2) // 3  # columns per card: three cards and two separators fill the 80 columns

def _clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns, the cut marked by ``...`` (a cell's lines are wrapped to fit, so
    this is only a safety net)."""
    return text if len(text) <= width else text[: width - 3] + "..."


def _card_lines(card: Any, group: str = "effect") -> str:
    return "; ".join(line_text(ln) for ln in getattr(card, group)) or "no effect"


def _exalted_lines(rc: Any) -> str:
    start = "; ".join(line_text(ln) for ln in rc.start)
    res = "; ".join(line_text(ln) for ln in rc.resolve)
    return "; ".join(x for x in (f"at the round's start: {start}" if start else "",
                                 f"at resolution: {res}" if res else "") if x) or "no effect"


def _parts(parts: list[str], indent: str = "     ") -> list[str]:
    """``parts`` joined by ``", "`` in lines of at most WIDTH columns, broken between parts (a seat line
    that does not fit goes on, indented, in the next line without splitting ``hand 0 + 1 cast``)."""
    lines = [parts[0]]
    for k, x in enumerate(parts[1:], 2):
        comma = k < len(parts)  # a line broken after x ends in its comma: room kept for it
        if len(lines[-1]) + 2 + len(x) + comma <= WIDTH:
            lines[-1] += ", " + x
        else:
            lines[-1] += ","
            lines.append(indent + x)
    return lines


def _hand(s: Any, p: int) -> str:
    """Seat ``p``'s cards: ``hand 3``, or ``hand 0 + 5 cast`` while cards it cast this round lie in the
    Action Pool (they count toward the hand limit: hand size = cards in hand + cards cast, docs §4.12)."""
    held, cast = sum(s.hand[p]), sum(s.cast[p])
    return f"hand {held} + {cast} cast" if cast else f"hand {held}"


def _stones_within(game: Any, v: int, gain: int) -> str:
    """The toll stones a gain of ``gain`` VP from space ``v`` would reach, in words (``"the toll stones on
    space 5 (1 gem), space 10 (2 gems)"``), or ``""`` when it reaches none (docs §4.11)."""
    stones = [(sp, cost) for sp, (_i, cost) in sorted(game.rules.toll_at.items()) if v < sp <= v + gain]
    if not stones:
        return ""
    said = ", ".join(f"space {sp} ({count(cost, 'gem')})" for sp, cost in stones)
    return f"the toll stone{'s' if len(stones) > 1 else ''} on {said}"


def _tolls_ahead(game: Any, s: Any, pd: dict) -> str:
    """For a gem cost offered for a VP gain, the toll stones that gain would reach (public: the payer's VP and
    the track; docs §4.11), e.g. ``; the +4 VP from space 4 reach the toll stone on space 5 (1 gem), paid
    after this cost or the gain stops there``; ``""`` when it reaches none or is not a VP gain."""
    from monolith_envs.strategy.effects import amount, get_line

    then, src = pd.get("then") or {}, pd.get("src")
    if not src or "ctx" not in then or "r" not in then:
        return ""
    ln = get_line(game.rules, list(src))
    if ln.op != "gain_vp":
        return ""
    v, gain = s.vp[pd["seat"]], amount(game.rules, s, ln, then["ctx"], then["r"])
    stones = _stones_within(game, v, gain)
    if not stones:
        return ""
    return f"; the +{gain} VP from space {v} reach {stones}, paid after this cost or the gain stops there"


def _reveal_tolls(game: Any, s: Any, pd: dict) -> str:
    """For the final reveal (REVEAL_COUNT), the toll stones its largest count would reach (docs §4.18: a toll
    is paid only from the gems and cards the reveal does not earmark, or the VP stop there), e.g. ``; on the
    way: the toll stone on space 10 (2 gems), paid from what is not earmarked or the VP stop there``."""
    stones = _stones_within(game, s.vp[pd["seat"]], int(pd.get("kmax", 0)))
    return f"; on the way: {stones}, paid from what is not earmarked or the VP stop there" if stones else ""


class StrategyPieces(Pieces):
    """Terminal play of ``monolith_strategy_v0`` (``docs/monolith_strategy.md``)."""

    legend_text = LEGEND

    def legend(self, game: Any) -> str:
        """The legend; in solo the board sentence is the solo board's (docs §2: 6 cards, the second Fate of
        Fate 3.6 on position 7) and the track line names the goal."""
        if game.num_players != 1:
            return wrap(self.legend_text)
        text = self.legend_text.replace(
            "The board is 12 cards in reading order, three to a row (a 13th with\nFate 3.6)",
            "The solo board is 6 cards in reading order, three to a row (a 7th with\nFate 3.6)")
        text = text.replace("track line gives every player's VP and the toll stones (space and cost).",
                            "track line gives your VP, the toll stones (space and cost) and the solo goal (G): "
                            "end on or past it to succeed.")
        return wrap(text)

    help_intro = """\
Enter a move in stages: pick an option by its number in the list (1, 2, ...,
not a socket number or a die's face) or by name: a unique prefix is enough
(nudge chooses Nudge), socket 17 chooses socket 17 and die showing 5 a die
showing 5."""
    help_more = """\
Full action names (docs/monolith_strategy.md §6), e.g. end_turn, decline,
place(face=1, sid=5)."""
    stable_block = "what the cards do:"  # changes when a card does (a new round, a Rune drawn)

    # ------------------------------------------------------------------ board
    def _cell(self, game: Any, s: Any, pos: int) -> list[str]:
        R = game.rules
        c = R.content
        b = s.board[pos]
        kind, obj = R.active(s, pos)
        if kind == "exalted":
            head = f"{pos:>2} {obj.exalted_name}"
        else:
            head = f"{pos:>2} {c.board[b].id} {c.board[b].name}" if b >= 0 else f"{pos:>2} (empty)"
        # a name longer than the cell goes on in the next line (never cut: "Fate of Even Ground")
        lines = textwrap.wrap(head, _CELL - 1, subsequent_indent="    ", break_on_hyphens=False) or [head]
        if pos == s.rc_pos:
            lines.append(f"   Round {s.rc_round}: " + ("Exalted" if s.rc_side else "covered"))
        if kind is None:
            lines.append("   (out this round)" if b >= 0 else "")
            return lines
        row = " "
        for i, req in enumerate(obj.sockets):
            sid = (pos - 1) * 4 + i
            occ = f"[P{s.sock_seat[sid]}={s.sock_face[sid]}]" if s.sock_seat[sid] >= 0 else "#" if s.blocked[sid] else "."
            entry = f" {sid:02d}:{_req(req)}{occ}"
            if len(row) + len(entry) > _CELL - 1:
                lines.append(row)
                row = " "
            row += entry
        lines.append(row if obj.sockets else "   (no sockets)")
        return lines

    def board(self, game: Any, state: Any, viewer: int) -> str:
        """The board as ``viewer`` sees it: the status line, the positions with their sockets, each seat's
        VP, gems, dice, hand (``viewer``'s by name) and private Runes, the track, decks, card notes and the
        open decision."""
        R = game.rules
        c = R.content
        s = state
        kinds = [a.name for a in c.actions]
        # at the end the narration has just said the result: the header would repeat it
        out = [] if s.terminal else [wrap(status_line(game, s))]
        w = _CELL
        rows = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)] + ([(13,)] if s.board[13] >= 0 else [])
        for row in rows:
            cells = [self._cell(game, s, p) for p in row]
            for i in range(max(len(x) for x in cells)):
                out.append("|".join(_clip(x[i] if i < len(x) else "", w).ljust(w) for x in cells).rstrip())
        for p in range(R.n):
            pool = pool_words(s, p)
            you = " (you)" if p == viewer else ""
            out += _parts([f"P{p}{'*' if p == s.primus else ''}{you} VP {s.vp[p]}", f"gems {s.gems[p]}",
                           f"pool [{pool}]", f"source {s.src_dice[p]}", f"aside {s.aside[p]}", f"guard {s.guard[p]}",
                           _hand(s, p)])
            if p == viewer:
                h = [kinds[k] + (f" x{s.hand[p][k]}" if s.hand[p][k] > 1 else "") for k in range(R.K) if s.hand[p][k]]
                out.append(wrap("     hand: " + (", ".join(h) or "-"), WIDTH, "           "))
            cast = [kinds[k] for k in range(R.K) for _ in range(s.cast[p][k])]
            if cast:
                out.append(wrap("     cast: " + ", ".join(cast), WIDTH, "           "))
            for slot, pr in enumerate(s.priv[p]):
                card = c.board[pr["card"]]
                base = PRIV0 + slot * 4
                if p == viewer or pr["revealed"]:
                    socks = " ".join(f"{base + i}:{_req(r)}{pr['occ'][i] or '.'}" for i, r in enumerate(card.sockets))
                    out.append(wrap(f"     private Rune {card.id} {card.name}: {socks}"))
                else:
                    out.append("     private Rune (hidden)")
        stones = ", ".join(f"{sp} (cost {cost})" for sp, cost in c.tolls)
        out.append(wrap("track: " + ", ".join(f"P{p} {s.vp[p]}" for p in range(R.n))
                        + f"; toll stones {stones}; VICTORY {R.victory}"))
        out.append(f"source gems {s.source_gems}; decks: skill {len(s.skill_deck)}, power {len(s.power_deck)}, "
                   f"rune {len(s.rune_deck)}")
        out += [wrap(x, WIDTH, "      ") for x in self.notes(game, s, viewer)]
        ask = self.decision(game, s, viewer)
        if ask:
            out.append(wrap(ask))
        if s.terminal:  # the last line of the final board, as Arena's and The Monolith's say it
            out.append(f"game over: {winner_words(game, s)}")
        return "\n".join(out)

    def final_reveal(self, game: Any, state: Any, viewer: int) -> list[str]:
        """The other seats' hands and private Runes still hidden, named (docs §4.18: the game is over)."""
        R, c, s = game.rules, game.rules.content, state
        out = []
        for p in range(R.n):
            if p == viewer:
                continue
            h = [c.actions[k].name + (f" x{s.hand[p][k]}" if s.hand[p][k] > 1 else "") for k in range(R.K)
                 if s.hand[p][k]]
            out.append(wrap(f"P{p} hand: " + (", ".join(h) or "-"), WIDTH, "    "))
            out += [f"P{p} private Rune {c.board[pr['card']].id} {c.board[pr['card']].name}" for pr in s.priv[p]
                    if not pr["revealed"]]
        return out

    def decision(self, game: Any, s: Any, viewer: int | None = None) -> str:
        """What the open decision asks, in words (docs §6.2), or ``""`` when the game is over; as ``viewer``
        may see it (``None``: every detail): the largest count of another seat's final reveal is left out,
        since it tells that seat's gem value, hand cards included (docs §7)."""
        pd = s.pending
        if s.terminal or not pd:
            return ""
        who, k = f"P{pd['seat']}", pd["k"]
        if k == Kind.TURN:
            left = s.turn["left"]
            duty = "" if s.turn["mandatory_done"] else " (placing a die is compulsory while one fits)"
            return f"{who}'s turn: {count(left, 'placement')} left{duty}"
        if k in (Kind.PAY_OFFER, Kind.PAY_MORE):
            return self._payment(game, s, pd, who)
        src = pd.get("src")
        what = f" ({src_text(game, src)})" if src else ""
        return {
            Kind.BONUS: f"{who} takes a start bonus: the top Skill card or a Source gem",
            Kind.SIDE: f"{who} (Primus) chooses the side of Round card {s.rc_round}, which covers position {s.rc_pos}",
            Kind.OPPONENT: f"{who} chooses the opponent{what}",
            Kind.FACE_SRC: f"{who} chooses one of its pool dice by its face{what}",
            Kind.FACE_NEW: f"{who} chooses the die's new face{what}",
            Kind.SOCKET_SRC: self._socket_src(game, pd, who, what),
            Kind.SOCKET_DST: f"{who} chooses where the die goes",
            Kind.SOCKET_BLOCK: f"{who} chooses a socket to block",
            Kind.RUNE_PICK: f"{who} keeps one Rune as a private Rune (the other goes under the deck)",
            Kind.DISCARD: f"{who} discards down to the hand limit ({pd.get('owed', 1)} to go)",
            Kind.REVEAL_COUNT: f"{who} chooses how many gems to reveal" + (
                f" (up to {pd.get('kmax', 0)})" if viewer in (None, pd["seat"]) else "") + ", 1 VP each, at Final Scoring"
                               + (_reveal_tolls(game, s, pd) if viewer in (None, pd["seat"]) else ""),
            Kind.REVEAL_SRC: f"{who} earmarks what pays for the reveal ({count(pd.get('rem', 0), 'gem')} to go)",
        }.get(Kind(k), f"{who} decides {Kind(k).name}")

    @staticmethod
    def _socket_src(game: Any, pd: dict, who: str, what: str) -> str:
        """SOCKET_SRC in words: a die set to a face (Overcharge) says the face, and a Player Power's decision
        (docs §4.8: it fires when every die is placed) starts with the card and its owner: ``Overcharge (P0's
        Player Power): P0 chooses a socketed die to set to 6``."""
        if pd.get("mode") != "set":
            return f"{who} chooses one of its socketed dice"
        face = pd.get("face") or 0
        ask = f"{who} chooses a socketed die to set to " + (str(face) if face else "a face it chooses next")
        src = pd.get("src")
        if src and src[0] == "a" and game.rules.is_pp[src[1]]:
            return f"{game.rules.content.actions[src[1]].name} ({who}'s Player Power): {ask}"
        return ask + what

    def _payment(self, game: Any, s: Any, pd: dict, who: str) -> str:
        """A toll or cost payment in words: what paying and declining do (docs §4.10, §4.11)."""
        offer = pd["k"] == Kind.PAY_OFFER
        rem, amount = pd["rem"], pd["amount"]
        owed = count(rem, "gem") if rem == amount else f"{count(rem, 'more gem')} ({rem} of {amount} still to pay)"
        if pd.get("purpose") == "toll":
            space = self._stone(game, pd)
            then = pd.get("then") or {}
            left = then.get("left")
            gain = f" ({left} VP still to gain, this space included)" if left else ""
            if not offer:
                return f"{who}, toll stone on space {space}: pay {owed} to move on{gain}"
            return (f"{who}, toll stone on space {space}: pay {owed} to move on{gain}, or decline and stop on "
                    f"space {s.vp[pd['seat']]} (the rest of this gain is lost)")
        src = pd.get("src")
        what = f"'{src_text(game, src)}'" if src else "this effect"
        if pd.get("purpose") != "cost":
            return f"{who} pays {owed} for {pd.get('purpose', 'a payment')}" + (" or declines" if offer else "")
        if not offer:
            return f"{who} pays {owed} for {what}"
        return (f"{who} may pay {owed} for {what}: pay to get it, or decline and it is skipped"
                + _tolls_ahead(game, s, pd))

    @staticmethod
    def _stone(game: Any, pd: dict) -> str:
        st = pd.get("stone", -1)
        tolls = game.rules.content.tolls
        return str(tolls[st][0]) if 0 <= st < len(tolls) else "?"

    # ------------------------------------------------------------------ staged entry
    def stage_name(self, game: Any, family: str, arg: str) -> str:
        """The stage's name in the game's words (``sid`` is a ``socket``, ``kind`` a ``card``, ...)."""
        return _STAGES.get((family, arg), arg)

    def family_option(self, game: Any, state: Any, family: str) -> str:
        """The family's text; at REVEAL_SRC ``pay_gems`` / ``pay_card`` read as earmarking (docs §4.18)."""
        if (state.pending or {}).get("k") == Kind.REVEAL_SRC:  # nothing is paid yet (docs §4.18)
            return {"pay_gems": "earmark gems", "pay_card": "earmark a gem card"}.get(family, family)
        return _FAMILIES.get(family, family)

    def _socket(self, game: Any, s: Any, sid: int, seat: int) -> str:
        """A socket option; at an Overcharge's socketed die (SOCKET_SRC, mode ``set``) the die's face change:
        ``socket 05 at position 2, SR2 Gem Rune: needs 2, holds P0's 2 -> 6``."""
        words = socket_words(game, s, sid, seat)
        pd = s.pending or {}
        occ = game.rules.occupant(s, sid, seat)
        if pd.get("k") == Kind.SOCKET_SRC and pd.get("mode") == "set" and pd.get("face") and occ is not None:
            held = f", holds P{occ[0]}'s {occ[1]}"
            words = (words if words.endswith(held) else f"{words}, holds your {occ[1]}") + f" -> {pd['face']}"
        return words

    def reason(self, game: Any, state: Any, family: str, chosen: tuple, arg: str, value: int) -> str | None:
        """Why a die cannot go into socket ``value`` (docs §4.6 availability), in the game's words."""
        if family != "place" or arg != "sid" or not chosen:
            return None
        R, s, face = game.rules, state, chosen[0] + 1
        seat = (s.pending or {}).get("seat", 0)
        req, reserved = R.socket_req(s, value, seat)
        if req is None:
            return "there is no such socket on an active card (docs §2.2: socket id = (position - 1) x 4 + index)"
        if reserved:
            return "it is a reserved socket of the Exalted Offering"
        if value < PRIV0 and s.blocked[value]:
            return "it is blocked this round"
        occ = R.occupant(s, value, seat)
        if occ is not None:
            return f"it holds P{occ[0]}'s die showing {occ[1]} (a socket holds one die; Stacker bumps a lower one)"
        if req and req != face:
            return f"it needs a die showing {req}, and yours shows {face}"
        return None

    def notes(self, game: Any, state: Any, viewer: int) -> list[str]:
        """What the cards do, as ``viewer`` may see it: a heading, then one unwrapped line per active card
        (the terminal board's last block; browser play shows the same lines next to the board)."""
        return ["what the cards do:"] + self._effects(game, state, viewer)

    def _effects(self, game: Any, s: Any, viewer: int) -> list[str]:
        """One line per active card: what it does at resolution (or at once, for Immediate cards)."""
        R = game.rules
        c = R.content
        out = []
        for pos in range(1, 14):
            kind, obj = R.active(s, pos)
            if kind == "exalted":
                out.append(f"{pos:>2} {obj.exalted_name}: {_exalted_lines(obj)}")
            elif kind == "card" and obj.sockets:
                out.append(f"{pos:>2} {obj.id}: " + ("at once: " if obj.immediate else "") + _card_lines(obj))
            elif kind == "card":  # Fate 3.6: no sockets, its work done at setup
                out.append(f"{pos:>2} {obj.id}: {socketless_words(R, obj, s)}")
        for pr in s.priv[viewer] if 0 <= viewer < R.n else ():
            card = c.board[pr["card"]]
            out.append(f"   your {card.id}: " + ("at once: " if card.immediate else "") + _card_lines(card))
        return out

    def option(self, game: Any, state: Any, family: str, arg: str, value: int) -> str:
        """One option in the game's words: a die, a socket, a card with its lines, an opponent with VP, gems
        and hand, a face, a Secrecy candidate, a Round card side, a start bonus or a reveal count."""
        R = game.rules
        c = R.content
        s, pd = state, state.pending or {}
        seat = pd.get("seat", 0)
        if family in ("place", "set_aside") and arg == "face":
            return f"die showing {value + 1}"
        if arg == "sid":
            return self._socket(game, s, value, seat)
        if family == "cast":
            card = c.actions[value]
            return f"{card.name} ({_card_lines(card)})"
        if family in ("pay_card", "discard"):
            card = c.actions[value]
            gems = f", shows {count(card.gems, 'gem')}" if card.gems else ""
            return f"{card.name}{gems}"
        if family == "choose_opponent":
            q = (seat + value + 1) % R.n
            return f"P{q} ({s.vp[q]} VP, {count(s.gems[q], 'gem')}, {_hand(s, q)})"
        if family == "choose_face":
            return f"face {value + 1}"
        if family == "choose_index":
            cands = pd.get("cands") or []
            if value < len(cands):
                card = c.board[cands[value]]
                return f"{card.id} {card.name} ({_card_lines(card)})"
            return f"Rune {value}"
        if family == "round_side":
            rc = c.round_cards[s.rc_round - 1] if s.rc_round >= 1 else None
            if value == 0 or rc is None:
                return f"normal (position {s.rc_pos} is out of play this round)"
            return f"Exalted: {rc.exalted_name} replaces position {s.rc_pos} ({_exalted_lines(rc)})"
        if family == "start_bonus":
            return "the top Skill card" if value == 0 else "a gem from the Source"
        if family == "final_reveal":
            return f"{count(value, 'gem')} for {value} VP"
        return super().option(game, state, family, arg, value)

    # ------------------------------------------------------------------ narration
    def narrate(self, game: Any, before: Any, after: Any, action: int, seat: int) -> list[str]:
        """The package's narration (:func:`monolith_envs.strategy.narration.narrate`): the action, then each
        change of the resolution after it tagged with its card line, the Primus, rounds and the result."""
        return narrate(game, before, after, action, seat)


PIECES = StrategyPieces()
