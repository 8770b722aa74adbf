"""The VP track with its toll stones, gem payments (PAY_OFFER / PAY_MORE) and the Final Scoring reveal
with earmarking (docs/monolith_strategy.md §4.10, §4.11, §4.18).
"""

from __future__ import annotations

from .board import Rules
from .effects import to_pile, win
from .state import (
    CARD_KIND,
    CARD_LEFT,
    CARD_PAID,
    GEMS_LEFT,
    ITEM_CARD,
    ITEM_GEMS,
    ITEM_TYPE,
    Kind,
    StrategyState,
)

__all__ = ["offer", "TASKS", "pay_apply", "use_earmark"]


def offer(R: Rules, s: StrategyState, p: int, amt: int, purpose: str, then: dict, other: dict | None,
          stone: int = -1, src=None) -> None:
    """Offer a payment of ``amt`` gems to ``p``: declined automatically when p cannot pay it in full
    (docs §4.20); ``then`` runs after full payment, ``other`` (if any) after a decline."""
    if R.spend_value(s, p) < amt:
        if other is not None:
            s.tasks.append(other)
        return
    s.pending = {"k": int(Kind.PAY_OFFER), "seat": p, "amount": amt, "rem": amt, "purpose": purpose,
                 "stone": stone, "src": src, "then": then, "other": other}


def pay_apply(R: Rules, s: StrategyState, pd: dict, fam: str, k: int) -> None:
    """Apply decline / pay_gems / pay_card(k) to the open payment ``pd`` (docs §4.11 payment procedure)."""
    p = pd["seat"]
    if fam == "decline":
        if pd["other"] is not None:
            s.tasks.append(pd["other"])
        return
    if fam == "pay_gems":
        phys, _ = R.spendable(s, p)
        x = min(phys, pd["rem"])
        s.gems[p] -= x
        s.source_gems += x
        pd["rem"] -= x
    else:
        s.hand[p][k] -= 1
        to_pile(R, s, k)
        pd["rem"] -= R.gems_of[k]
    if pd["rem"] <= 0:
        s.tasks.append(pd["then"])
    else:
        s.pending = dict(pd, k=int(Kind.PAY_MORE))


def use_earmark(R: Rules, s: StrategyState, p: int) -> None:
    """One completed reveal step uses one earmarked gem, in earmark order (docs §4.18)."""
    items = s.reveal[p]["items"]
    if not items:
        return
    it = items[0]
    if it[ITEM_TYPE] == ITEM_GEMS:
        s.gems[p] -= 1
        s.source_gems += 1
        it[GEMS_LEFT] -= 1
        if it[GEMS_LEFT] == 0:
            items.pop(0)
    else:
        if not it[CARD_PAID]:
            s.hand[p][it[CARD_KIND]] -= 1
            to_pile(R, s, it[CARD_KIND])
            it[CARD_PAID] = True
        it[CARD_LEFT] -= 1
        if it[CARD_LEFT] == 0:
            items.pop(0)


def t_vp(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Gain VP one space at a time; a toll stone opens a payment (docs §4.11)."""
    p, left, rv = t["p"], t["left"], t["rv"]
    while left > 0:
        nxt = s.vp[p] + 1
        stone = R.toll_at.get(nxt)
        if stone is not None:
            end = {"t": "reveal_end", "p": p} if rv else None
            offer(R, s, p, stone[1], "toll", {"t": "vp_step", "p": p, "left": left, "rv": rv}, end, stone[0])
            return
        s.vp[p] = nxt
        if rv:
            use_earmark(R, s, p)
        if nxt >= R.victory:
            win(s, p)
            return
        left -= 1
    if rv:
        s.tasks.append({"t": "reveal_end", "p": p})


def t_vp_step(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """The toll was paid: step onto the stone and go on."""
    p = t["p"]
    s.vp[p] += 1
    if t["rv"]:
        use_earmark(R, s, p)
    if s.vp[p] >= R.victory:
        win(s, p)
        return
    s.tasks.append({"t": "vp", "p": p, "left": t["left"] - 1, "rv": t["rv"]})


# ---------------------------------------------------------------------------------------------- final reveal
def t_reveal_p(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """REVEAL_COUNT for one player (automatic k = 0 with no gem value, docs §4.18, §4.20)."""
    p = t["p"]
    kmax = min(R.content.final_reveal_max, R.gem_value(s, p))
    if kmax > 0:
        s.pending = {"k": int(Kind.REVEAL_COUNT), "seat": p, "kmax": kmax}


def start_reveal(R: Rules, s: StrategyState, p: int, k: int) -> None:
    """Start p's Final Scoring reveal of k VP (docs §4.18): nothing for k = 0; with gem cards in hand REVEAL_SRC
    picks the earmarks, otherwise k gems are earmarked and the VP steps begin."""
    if k == 0:
        return
    s.reveal[p] = {"target": k, "items": [], "marked": 0}
    if R.holds_gem_card(s, p):
        s.pending = {"k": int(Kind.REVEAL_SRC), "seat": p, "rem": k}
        return
    s.reveal[p]["items"].append([ITEM_GEMS, k])
    s.reveal[p]["marked"] = k
    s.tasks.append({"t": "vp", "p": p, "left": k, "rv": True})


def reveal_src_apply(R: Rules, s: StrategyState, pd: dict, fam: str, k: int) -> None:
    """Earmark for the open REVEAL_SRC (docs §4.18): ``pay_gems`` min(unearmarked gems, remaining),
    ``pay_card`` all of one copy's gems; REVEAL_SRC again until k is covered, then the VP steps."""
    p = pd["seat"]
    rv = s.reveal[p]
    if fam == "pay_gems":
        phys, _ = R.spendable(s, p)
        x = min(phys, pd["rem"])
        rv["items"].append([ITEM_GEMS, x])
    else:
        x = R.gems_of[k]
        rv["items"].append([ITEM_CARD, k, x, False])
    rv["marked"] += x
    rem = pd["rem"] - x
    if rem > 0:
        s.pending = dict(pd, rem=rem)
    else:
        s.tasks.append({"t": "vp", "p": p, "left": rv["target"], "rv": True})


def t_reveal_end(R: Rules, s: StrategyState, t: dict, rng) -> None:
    """Untouched earmarks stay with the player; a started card is gone (docs §4.18)."""
    s.reveal[t["p"]] = None


TASKS = {"vp": t_vp, "vp_step": t_vp_step, "reveal_p": t_reveal_p, "reveal_end": t_reveal_end}
