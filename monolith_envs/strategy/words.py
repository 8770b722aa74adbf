"""The Strategy Game's actions in words, as terminal play, browser play and the replay page say them
(``places a 4 in socket 07 at position 2, SR2 Gem Rune``; docs/monolith_strategy.md §6.1, the action families)."""

from __future__ import annotations

from typing import Any

from ..core.words import count
from .actions import Bonus
from .board import PRIV0
from .render_svg import _req  # a socket's required face as the drawing labels it: any, 1-6
from .state import Kind, Side

__all__ = ["action_words", "card_name", "effect_words", "offer_words", "socket_words"]


#: who a line gives to (docs §5.2 selectors), as the lines say it
WHO_WORDS = {"each_here": "each here", "highest": "highest", "highest_unique": "highest alone", "lowest": "lowest",
             "others_here": "others here", "each_opponent": "each player not here", "self": "you",
             "chosen_opponent": "a chosen opponent", "each_other": "each other player",
             "all_players": "everyone", "trailer": "those with the fewest VP"}
_FROM = {"chosen_opponent": "a chosen opponent", "others_here": "each of the others here"}
_SCALE = {"flat": "", "per_die": " per die here", "per_pair": " per pair here",
          "per_shared_card": " per card where you and another player both have a die"}
_COND = {"total_min": "if the total here is {k} or more", "total_max": "if the total here is {k} or less",
         "total_eq": "if the total here is exactly {k}", "dice_min": "with {k} or more dice here",
         "pair": "with a pair here", "run": "with a run of {k} here", "all_even": "if all the dice here are even",
         "all_odd": "if all the dice here are odd", "fewest_vp": "if {they} the fewest VP"}


def _what(ln: Any) -> str:
    """The op of a line with its amount, in words (docs §5.2 ops), without its selector, cost or condition."""
    n, op = ln.n, ln.op
    if op in ("gain_vp", "gain_gems", "gain_die"):
        noun = {"gain_vp": "VP", "gain_gems": "gem", "gain_die": "die"}[op]
        amount = f"{n} VP" if op == "gain_vp" else count(n, noun, "dice" if noun == "die" else None)
        scale = f" per {ln.k} pips here" if ln.scale == "per_pips" else _SCALE.get(ln.scale, f" {ln.scale}")
        return f"+{amount}{' from the Source' if op == 'gain_die' else ''}{scale}" + (
            f" (at most {ln.max})" if ln.max else "")
    if op in ("lose_vp", "lose_gems"):
        return f"-{n} VP" if op == "lose_vp" else f"-{count(n, 'gem')}"
    if op in ("steal_vp", "steal_gems"):
        what = f"{n} VP" if op == "steal_vp" else count(n, "gem")
        return f"take {what} from {_FROM.get(ln.from_, ln.from_.replace('_', ' '))}"
    if op == "draw":
        return f"draw {count(n, (ln.deck.capitalize() + ' card') if ln.deck else 'card')}"
    if op == "set_face":
        where = "socketed" if ln.where == "socketed" else "pool"
        if ln.who != "self":  # Jinx: the opponent's die
            die = {"chosen": "one of their", "highest": "their highest", "lowest": "their lowest"}.get(ln.which, ln.which)
            return f"{die} {where} die turns to {ln.face or 'any face'}"
        die = {"chosen": "a", "highest": "the highest", "lowest": "the lowest"}.get(ln.which, ln.which)
        return f"set {die} {where} die to {ln.face or 'any face'}"
    if op == "exile_die":
        dice = "pool die is" if n == 1 else f"{n} pool dice are"
        return f"their highest {dice} set aside"
    if op == "reroll":
        return "reroll all pool dice" if ln.which == "all" else "reroll one pool die"
    if op == "take_primus":
        return "take the Primus Token" + (" and lock it (no one else takes it this round)" if ln.lock else "")
    if op == "secret_rune":
        return f"look at the top {count(ln.look or 2, 'Rune')} and keep one as a private Rune"
    if op == "chase":
        return f"a chase marker (+{ln.bonus} VP on reaching it this round)"
    if op == "auto_socket":
        return f"the {ln.which or 'lowest'} pool die goes onto this card"
    return {"discard": f"discard {count(n, 'card')}",
            "adjust_face": "turn a pool die 1 up or down", "extra_placement": f"place {count(n, 'more die', 'more dice')}",
            "move_die": "move one of your own socketed dice to another socket", "block_socket": "block an empty socket",
            "guard": f"+{count(n, 'Guard charge')} ({'it stops' if n == 1 else 'each stops'} the next attack)",
            "stack": "bump a lower die out of a socket once this turn (it goes back to its owner's pool)",
            "extra_fate": "another Fate card comes onto the board"}.get(op, f"{op.replace('_', ' ')} {n}")


def effect_words(ln: Any, self_word: str = "you") -> str:
    """One effect line (a :class:`~monolith_envs.strategy.content.Line`) in words, ``who: what``, with every
    number that matters (docs §5.2): ``highest alone: take the Primus Token``, ``each here: +1 VP per die
    here if all the dice here are even``, ``each here: may pay 1 gem for +3 VP``, ``highest: +1 VP per pair
    here (at most 6)``. ``self_word`` names the ``self`` selector (the caster of an action card, the placer
    of an Immediate card): ``you`` where the reader is that player, e.g. ``caster`` in a narration."""
    what = _what(ln)
    if self_word != "you":  # Synergy's "where you and another player" read by a third person, and so on
        what = what.replace("where you and", "where they and").replace("one of your own", "one of its own")
    they = "you have" if ln.who == "self" and self_word == "you" else "they have"
    cond = " ".join(_COND.get(c, c.replace("_", " ") + (f" {k}" if k else "")).format(k=k, they=they)
                    for c, k in ln.cond)
    what = f"{what} {cond}" if cond else what
    if ln.cost:
        what = _may_pay(ln.cost, what)
    who = self_word if ln.who == "self" else WHO_WORDS.get(ln.who, ln.who.replace("_", " "))
    return f"{who}: {what}"


def _may_pay(cost: int, what: str) -> str:
    return f"may pay {count(cost, 'gem')} {'for' if what[0] in '+-' else 'to'} {what}"


def offer_words(ln: Any, cost: int | None = None) -> str:
    """A line's gem cost offered to a seat (docs §4.10), its condition met: ``may pay 1 gem for +3 VP``;
    ``cost`` the amount asked (the line's own by default)."""
    return _may_pay(ln.cost if cost is None else cost, _what(ln))


def socket_words(game: Any, s: Any, sid: int, seat: int) -> str:
    """Socket ``sid`` for seat ``seat``: where it is and what it needs (``socket 07 at position 2, SR2 Gem
    Rune: needs 4``, ``, holds P1's 3`` when taken; a private Rune's socket says ``your private``: the words of the
    seat choosing it). Docs §2.2 (socket ids)."""
    R = game.rules
    c = R.content
    if sid >= PRIV0:
        slot, i = divmod(sid - PRIV0, 4)
        if slot >= len(s.priv[seat]):
            return f"socket {sid} (private Rune slot {slot}: none)"
        card = c.board[s.priv[seat][slot]["card"]]
        req = card.sockets[i] if i < len(card.sockets) else 0
        return f"socket {sid}, your private {card.id} {card.name}: needs {_req(req)}"
    pos, i = sid // 4 + 1, sid % 4
    kind, obj = R.active(s, pos)
    if kind is None:
        return f"socket {sid:02d}: position {pos} (out of play)"
    req = obj.sockets[i] if i < len(obj.sockets) else 0
    occ = f", holds P{s.sock_seat[sid]}'s {s.sock_face[sid]}" if s.sock_seat[sid] >= 0 else ""
    name = obj.exalted_name if kind == "exalted" else f"{c.board[s.board[pos]].id} {c.board[s.board[pos]].name}"
    return f"socket {sid:02d} at position {pos}, {name}: needs {_req(req)}{occ}"


def action_words(game: Any, state: Any | None, action: int) -> str:
    """``action`` in words (no seat: ``casts Guard``, ``declines to pay``).

    Args:
        game: a ``StrategyGame``.
        state: the state the action is applied in (for the socket's card and the open decision's kind);
            ``None`` says it without them (``places a 4 in socket 07``).
        action: an action index (``int``, 0 <= action < ``game.layout.n``).

    Raises:
        ValueError: ``action`` is outside the layout (``ActionLayout.split``).
    """
    fam, idx = game.layout.split(int(action))
    c = game.rules.content
    pd = (state.pending if state is not None else None) or {}
    seat = pd.get("seat", 0)
    if fam == "place":
        face, sid = idx
        if sid >= PRIV0:
            where = f"socket {sid} on a private Rune"
        elif state is None:
            where = f"socket {sid:02d}"
        else:
            where = socket_words(game, state, sid, seat).split(": needs")[0]
        return f"places a {face + 1} in {where}"
    if fam == "set_aside":
        return f"sets aside a die showing {idx[0] + 1}"
    if fam == "end_turn":
        return "ends the turn"
    if fam == "cast":
        return f"casts {c.actions[idx[0]].name}"
    if fam == "choose_opponent":
        if state is None:
            return f"chooses the player {idx[0] + 1} seat{'s' if idx[0] else ''} after it"
        return f"chooses P{(seat + idx[0] + 1) % game.rules.n}"
    if fam == "choose_face":
        verb = "turns the die to" if pd.get("k") == Kind.FACE_NEW else "picks its pool die showing"
        return f"{verb} {idx[0] + 1}"
    if fam == "choose_socket":
        if pd.get("k") == Kind.SOCKET_SRC and pd.get("mode") == "set":  # Overcharge: a socketed die to a face
            face = pd.get("face") or 0
            occ = game.rules.occupant(state, idx[0], seat)
            was = f" from {occ[1]}" if occ is not None else ""
            return f"sets its die in socket {idx[0]:02d}{was} to " + (str(face) if face else "a face it chooses next")
        verb = {Kind.SOCKET_BLOCK: "blocks", Kind.SOCKET_DST: "moves the die to"}.get(pd.get("k"), "picks its die in")
        return f"{verb} socket {idx[0]:02d}"
    if fam == "choose_index":
        return "keeps one of the Runes it looked at"
    if fam in ("decline", "pay_gems", "pay_card") and state is not None:
        return _payment_words(game, state, fam, idx[0] if fam == "pay_card" else -1)
    if fam == "decline":
        return "declines to pay"
    if fam == "pay_gems":
        return "pays with gems"
    if fam in ("pay_card", "discard"):
        return f"{'pays with' if fam == 'pay_card' else 'discards'} {c.actions[idx[0]].name}"
    if fam == "round_side":
        return "chooses the " + ("Exalted side" if idx[0] == Side.EXALTED else "normal side") + " of the Round card"
    if fam == "start_bonus":
        return "takes " + ("the top Skill card" if idx[0] == Bonus.SKILL else "a gem from the Source")
    if fam == "final_reveal":  # docs §4.18: k gems shown for k VP
        return f"reveals {count(idx[0], 'gem')} for {idx[0]} VP"
    return game.layout.decode(int(action))


def _payment_words(game: Any, state: Any, fam: str, k: int) -> str:
    """A payment answer in words with what it pays for (docs §4.11, §4.18): ``pays 1 gem for the toll stone
    on space 5``, ``declines to pay the toll stone on space 10 (stays on space 9)``; at Final Scoring's
    REVEAL_SRC nothing is paid yet: ``earmarks 2 gems for the reveal``, ``earmarks Augment (1 gem) for the
    reveal``."""
    R = game.rules
    c = R.content
    pd = state.pending or {}
    seat = pd.get("seat", 0)
    if fam == "pay_gems":
        what = count(min(R.spendable(state, seat)[0], pd.get("rem", 0)), "gem")
    else:
        what = f"{c.actions[k].name} ({count(R.gems_of[k], 'gem')})" if k >= 0 else ""
    if pd.get("k") == Kind.REVEAL_SRC:
        return f"earmarks {what} for the reveal" if fam != "decline" else "declines to earmark"
    stone = pd.get("stone", -1)
    toll = (f"the toll stone on space {c.tolls[stone][0]}" if pd.get("purpose") == "toll" and 0 <= stone < len(c.tolls)
            else "")
    cost = _cost_words(game, pd.get("src")) if pd.get("purpose") == "cost" else ""
    if fam == "decline":
        if toll:
            return f"declines to pay {toll} (stays on space {state.vp[seat]})"
        return f"declines to pay for {cost} (skipped)" if cost else "declines to pay"
    verb = "pays" if fam == "pay_gems" else "pays with"
    if toll:
        return f"{verb} {what} for {toll}"
    return f"{verb} {what} for {cost}" if cost else f"{verb} {what}"


def _cost_words(game: Any, src: Any) -> str:
    """What a line's gem cost buys, by its card: ``R30 Rune of Exchange's +4 VP`` (docs §4.10), or ``""``."""
    if not src:
        return ""
    from .effects import get_line

    name = card_name(game.rules.content, src)
    return f"{name}'s {_what(get_line(game.rules, list(src)))}" if name else ""


def card_name(content: Any, src: Any) -> str:
    """The card of an effect line's ``src`` (``[type, index, group, line]``, docs §5.2) by name: a board card
    with its id (``R30 Rune of Exchange``), a Round card's Exalted side, an action card; ``""`` for another
    type."""
    typ, i = src[0], src[1]
    if typ == "b":
        return f"{content.board[i].id} {content.board[i].name}"
    if typ == "x":
        return content.round_cards[i].exalted_name
    return content.actions[i].name if typ == "a" else ""
