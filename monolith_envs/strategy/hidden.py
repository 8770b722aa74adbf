"""Resampling what a viewer cannot know (docs/monolith_strategy.md §7 visibility): deck orders, the other
players' uncast hands (each keeps its number of Skill, Power and Player Power cards), undealt Player
Powers, other players' unrevealed private Runes and another player's Secrecy candidates."""

from __future__ import annotations

from .state import Kind, StrategyState

__all__ = ["resample"]


def _shuffle(rng, items: list) -> list:
    return [items[int(i)] for i in rng.permutation(len(items))] if items else []


def resample(game, state: StrategyState, viewer: int, rng) -> StrategyState:
    """A copy of ``state`` with everything ``viewer`` cannot know redrawn from ``rng`` (docs §7): decks, other
    players' uncast hands (same Skill, Power and Player Power counts), undealt Player Powers, their unrevealed
    private Runes and their Secrecy candidates."""
    R = game.rules
    s = game.clone(state)
    n, K = R.n, R.K
    others = [q for q in range(n) if q != viewer]
    for cat, deck_name in ((R.is_skill, "skill_deck"), (R.is_power, "power_deck"), (R.is_pp, None)):
        pool = list(getattr(s, deck_name)) if deck_name else list(s.pp_out)
        counts = []
        for q in others:
            c = 0
            for k in range(K):
                if cat[k] and s.hand[q][k]:
                    pool += [k] * s.hand[q][k]
                    c += s.hand[q][k]
                    s.hand[q][k] = 0
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
