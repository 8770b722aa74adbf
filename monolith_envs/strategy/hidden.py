"""Resampling what a viewer cannot know (docs/monolith_strategy.md §7 visibility): deck orders, the other
players' uncast hands (each keeps its number of Skill, Power and Player Power cards), undealt Player
Powers, other players' unrevealed private Runes and another player's Secrecy candidates."""

from __future__ import annotations

from .state import CARD_KIND, CARD_PAID, ITEM_GEMS, ITEM_TYPE, Kind, StrategyState

__all__ = ["resample"]


def _shuffle(rng, items: list) -> list:
    return [items[int(i)] for i in rng.permutation(len(items))] if items else []


def _earmarked(s: StrategyState, q: int, K: int) -> list:
    """How many uncast copies of each card kind seat ``q`` has earmarked and not yet used in the final gem
    reveal (docs §4.18): revealed, so kept in its hand by a resample (the reveal's records name them)."""
    out = [0] * K
    rv = s.reveal[q] if q < len(s.reveal) else None
    for it in (rv or {}).get("items", ()):
        if it[ITEM_TYPE] != ITEM_GEMS and not it[CARD_PAID]:
            out[it[CARD_KIND]] += 1
    return out


#: the open decisions that say what a seat's hand can pay: a payment offered (only to a seat that can pay it in
#: full, docs §4.20) or under way, the final gem reveal (docs §4.11, §4.18)
_OWES = (int(Kind.PAY_OFFER), int(Kind.PAY_MORE), int(Kind.REVEAL_COUNT), int(Kind.REVEAL_SRC))
#: resamples tried for a world where the seat paying now can still pay, before its hand is kept as it is
_TRIES = 32


def resample(game, state: StrategyState, viewer: int, rng) -> StrategyState:
    """A copy of ``state`` with everything ``viewer`` cannot know redrawn from ``rng`` (docs §7): decks, other
    players' uncast hands (same Skill, Power and Player Power counts; a card earmarked in the final gem
    reveal stays), undealt Player Powers, their unrevealed private Runes and their Secrecy candidates.

    When another seat has a payment open (PAY_OFFER, offered only to a seat that can pay in full, §4.20;
    PAY_MORE, §4.11) or is in the final gem reveal (REVEAL_COUNT, REVEAL_SRC, §4.18), its redrawn hand must
    still be one that opens that decision: it covers what the seat owes, and at REVEAL_SRC (asked only of a
    seat holding a gem card) it holds a gem card. Hands are redrawn until one does (at most ``_TRIES`` times;
    then that seat's hand is kept), and REVEAL_COUNT's largest count is that of the redrawn hand, so the copy
    has the decision and every legal action of it that the state has."""
    pd = state.pending
    payer = pd["seat"] if pd is not None and pd["k"] in _OWES and pd["seat"] != viewer else -1
    for _ in range(_TRIES if payer >= 0 else 1):
        s = _redraw(game, state, viewer, rng, keep=-1)
        if payer < 0 or _can_pay(game.rules, s):
            return s
    return _redraw(game, state, viewer, rng, keep=payer)


def _can_pay(R, s: StrategyState) -> bool:
    """Whether the seat of the open payment or reveal could have that decision with its hand: it can pay what
    is left (PAY_OFFER: all of it), it has a gem value (REVEAL_COUNT, whose largest count is set from it),
    and at REVEAL_SRC it holds a gem card (an earmarked one stays in its hand)."""
    pd = s.pending
    p = pd["seat"]
    if pd["k"] == Kind.REVEAL_COUNT:
        pd["kmax"] = min(R.content.final_reveal_max, R.gem_value(s, p))
        return pd["kmax"] > 0
    if pd["k"] == Kind.REVEAL_SRC and not R.holds_gem_card(s, p):
        return False
    return R.spend_value(s, p) >= pd["rem"]


def _redraw(game, state: StrategyState, viewer: int, rng, keep: int) -> StrategyState:
    """One resample (:func:`resample`); seat ``keep`` (``-1``: none) keeps its hand as it is."""
    R = game.rules
    s = game.clone(state)
    n, K = R.n, R.K
    others = [q for q in range(n) if q not in (viewer, keep)]
    kept = {q: _earmarked(s, q, K) for q in others}
    for cat, deck_name in ((R.is_skill, "skill_deck"), (R.is_power, "power_deck"), (R.is_pp, None)):
        pool = list(getattr(s, deck_name)) if deck_name else list(s.pp_out)
        counts = []
        for q in others:
            c = 0
            for k in range(K):
                free = s.hand[q][k] - kept[q][k]  # a card earmarked in the final reveal stays (it is shown)
                if cat[k] and free > 0:
                    pool += [k] * free
                    c += free
                    s.hand[q][k] -= free
            counts.append(c)
        pool = _shuffle(rng, sorted(pool))
        i = 0
        for q, c in zip(others, counts):
            for k in pool[i:i + c]:
                s.hand[q][k] += 1
            i += c
        rest = pool[i:]
        if deck_name:
            setattr(s, deck_name, rest)
        else:
            s.pp_out = sorted(rest)
    # Runes: the deck, others' unrevealed private Runes, others' Secrecy candidates
    pool = list(s.rune_deck)
    slots = [(q, sl) for q in others for sl, pr in enumerate(s.priv[q]) if not pr["revealed"]]
    pool += [s.priv[q][sl]["card"] for q, sl in slots]
    pd = s.pending
    cands = pd is not None and pd["k"] == Kind.RUNE_PICK and pd["seat"] != viewer
    if cands:
        pool += pd["cands"]
    pool = _shuffle(rng, sorted(pool))
    for q, sl in slots:
        s.priv[q][sl]["card"] = pool.pop()
    if cands:
        pd["cands"] = [pool.pop() for _ in pd["cands"]]
    s.rune_deck = pool
    return s
