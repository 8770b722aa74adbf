"""Setup for 1-4 players, the Primus roll-off and the solo board (docs/monolith_strategy.md §3, §4.3, §4.19).

Every shuffle is one ``rng.permutation`` and every die one ``rng.integers(1, 7)``, in the order of docs §3.
"""

from __future__ import annotations

from .board import Rules
from .flow import run
from .state import Flow, Phase, StrategyState

__all__ = ["blank_state", "new_state", "roll_off"]


def blank_state(R: Rules) -> StrategyState:
    """Every per-seat list sized, nothing on the board, empty decks; round 1, setup phase."""
    n, K = R.n, R.K
    c = R.content
    return StrategyState(
        n=n, source_gems=R.total_gems, vp=[0] * n, gems=[0] * n,
        pool=[[c.start_dice, 0, 0, 0, 0, 0] for _ in range(n)],
        src_dice=[c.dice_per_player - c.start_dice] * n, aside=[0] * n, priv=[[] for _ in range(n)],
        hand=[[0] * K for _ in range(n)], cast=[[0] * K for _ in range(n)], skill_discard=[0] * K,
        power_discard=[0] * K, pp_gone=[0] * K, guard=[0] * n, chase=[None] * n, reveal=[None] * n,
    )


def _perm(rng, items: list) -> list:
    return [items[i] for i in rng.permutation(len(items)).tolist()]


#: the cards ``intro_layout`` places, by printed number (docs §3): solo Fate 3.3 then Runes 10, 11, 14;
#: multiplayer Runes 7-12 on positions 7-12
INTRO_NUMBERS = {"solo": ("3.3", "10", "11", "14"), "multiplayer": ("7", "8", "9", "10", "11", "12")}


def new_state(R: Rules, rng) -> StrategyState:
    """A new match, run forward to its first decision (docs §3)."""
    s = blank_state(R)
    n = R.n
    if R.pp_kinds:
        dealt = _perm(rng, R.pp_kinds)
        for p in range(n):
            s.hand[p][dealt[p]] += 1
        s.pp_out = sorted(dealt[n:])
    s.skill_deck = _perm(rng, R.skill_cards)
    s.power_deck = _perm(rng, R.power_cards)
    intro = R.cfg["intro_layout"]
    if R.solo:
        for pos, b in zip((1, 2), R.solo_cards):
            s.board[pos] = b
        fates = [R.by_number[INTRO_NUMBERS["solo"][0]]] if intro else _perm(rng, R.fates)
    else:
        for pos, b in zip((1, 2, 4, 5, 6), R.starting):
            s.board[pos] = b
        fates = _perm(rng, R.fates)
    s.board[3] = fates[0]
    if fates[0] == R.extra_fate and len(fates) > 1:
        s.board[R.second_fate_pos] = fates[1]
    positions = (4, 5, 6) if R.solo else (7, 8, 9, 10, 11, 12)
    if intro:
        nums = INTRO_NUMBERS["solo"][1:] if R.solo else INTRO_NUMBERS["multiplayer"]
        fixed = [R.by_number[x] for x in nums]
        rest = _perm(rng, [b for b in R.rune_pool if b not in fixed])
        runes = fixed + rest
    else:
        runes = _perm(rng, R.rune_pool)
    for pos, b in zip(positions, runes):
        s.board[pos] = b
    s.rune_deck = runes[len(positions):]
    if R.solo:
        s.primus = 0
        s.flow = Flow.ROUND_CARD
    else:
        s.primus = roll_off(R, rng)
        s.flow = Flow.BONUS
    s.phase = Phase.SETUP
    run(R, s, rng)
    return s


def roll_off(R: Rules, rng) -> int:
    """Primus roll-off (docs §3): 3 dice each in seat order; tied top players roll again."""
    alive = list(range(R.n))
    while True:
        sums = {p: sum(int(rng.integers(1, 7)) for _ in range(3)) for p in alive}
        top = max(sums.values())
        alive = [p for p in alive if sums[p] == top]
        if len(alive) == 1:
            return alive[0]
