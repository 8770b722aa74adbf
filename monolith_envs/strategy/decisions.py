"""Masks and answers of every decision kind except TURN (docs/monolith_strategy.md §6.2): the opening
(BONUS, SIDE), choices inside effects (OPPONENT, FACE_*, SOCKET_*, RUNE_PICK), payments (PAY_*), DISCARD
and the Final Scoring reveal (REVEAL_*).

Each ``m_*(R, s, pd)`` returns the legal flat actions (ascending) of the open decision ``pd``; each
``a_*(R, s, pd, a, rng)`` applies a legal one (``pending`` is already cleared).
"""

from __future__ import annotations

from .actions import Bonus
from .board import PRIV0
from .effects import discard_card, keep_rune, place_private_reveal
from .payments import pay_apply, reveal_src_apply, start_reveal
from .state import Kind, Side

__all__ = ["MASKS", "APPLIES"]


def m_bonus(R, s, pd):
    """BONUS mask (docs §3, §6.2): ``start_bonus`` Skill if the Skill deck has a card, gem if the Source has one."""
    o = R.off
    return (([o.START_BONUS + Bonus.SKILL] if s.skill_deck else [])
            + ([o.START_BONUS + Bonus.GEM] if s.source_gems else []))


def a_bonus(R, s, pd, a, rng):
    """Start bonus (docs §3): the top Skill into the hand (then the hand limit, §4.12) or one gem from the Source."""
    p = pd["seat"]
    if a == R.off.START_BONUS + Bonus.SKILL:
        s.hand[p][s.skill_deck.pop(0)] += 1
        s.tasks.append({"t": "hlimit", "p": p})
    else:
        s.source_gems -= 1
        s.gems[p] += 1


def m_side(R, s, pd):
    """SIDE mask (docs §4.2, §6.2): both ``round_side`` actions, normal and Exalted."""
    return [R.off.ROUND_SIDE + Side.NORMAL, R.off.ROUND_SIDE + Side.EXALTED]


def a_side(R, s, pd, a, rng):
    """The Primus holder's SIDE choice: the Round card shows its normal or its Exalted side (docs §4.2)."""
    s.rc_side = int(Side.EXALTED) if a == R.off.ROUND_SIDE + Side.EXALTED else int(Side.NORMAL)


def m_opponent(R, s, pd):
    """OPPONENT mask (docs §4.13, §6.2): ``choose_opponent(i)`` for each eligible seat (decider + i) mod N."""
    d, n = pd["seat"], R.n
    return [R.off.CHOOSE_OPPONENT + i - 1 for i in range(1, n) if (d + i) % n in pd["elig"]]


def a_opponent(R, s, pd, a, rng):
    """The chosen opponent: the suspended line or op (``then``) goes on with that seat as ``opp`` (docs §4.13, §11)."""
    i = a - R.off.CHOOSE_OPPONENT + 1
    then = dict(pd["then"], opp=(pd["seat"] + i) % R.n)
    s.tasks.append(then)


def m_face_src(R, s, pd):
    """FACE_SRC / FACE_NEW mask (docs §6.2): ``choose_face`` of each option face in ``pd["opts"]``."""
    return [R.off.CHOOSE_FACE + f - 1 for f in pd["opts"]]


def a_face_src(R, s, pd, a, rng):
    """The pool die to change (docs §5.2): ``reroll`` rolls it again, ``set`` turns it to the fixed face;
    ``adjust`` (Nudge, ±1) and ``set_any`` (Sculpt) open FACE_NEW for its new face."""
    p, f = pd["seat"], a - R.off.CHOOSE_FACE + 1
    mode = pd["mode"]
    pool = s.pool[p]
    if mode == "reroll":
        pool[f - 1] -= 1
        pool[int(rng.integers(1, 7)) - 1] += 1
    elif mode == "set":
        pool[f - 1] -= 1
        pool[pd["face"] - 1] += 1
    else:
        opts = [g for g in (f - 1, f + 1) if 1 <= g <= 6] if mode == "adjust" else \
            [g for g in range(1, 7) if g != f]
        s.pending = {"k": int(Kind.FACE_NEW), "seat": p, "src_face": f, "opts": opts, "src": pd.get("src")}


def a_face_new(R, s, pd, a, rng):
    """The new face of the chosen pool die (FACE_NEW: Nudge's ±1 or Sculpt's any other face, docs §5.2, §5.5)."""
    p, f = pd["seat"], a - R.off.CHOOSE_FACE + 1
    s.pool[p][pd["src_face"] - 1] -= 1
    s.pool[p][f - 1] += 1


def m_socket_src(R, s, pd):
    """SOCKET_SRC / SOCKET_DST mask (docs §6.2): ``choose_socket`` of each socket id (0-59) in ``pd["opts"]``."""
    return [R.off.CHOOSE_SOCKET + sid for sid in pd["opts"]]


def _set_sock_face(s, p, sid, face):
    if sid >= PRIV0:
        slot, idx = divmod(sid - PRIV0, 4)
        s.priv[p][slot]["occ"][idx] = face
    else:
        s.sock_face[sid] = face


def a_socket_src(R, s, pd, a, rng):
    """The socketed die (docs §5.2): ``set`` (Overcharge) turns it to the fixed face; ``move`` (move_die) opens
    SOCKET_DST with the empty sockets available to its face (without Stacker), not its own."""
    p, sid = pd["seat"], a - R.off.CHOOSE_SOCKET
    if pd["mode"] == "set":
        _set_sock_face(s, p, sid, pd["face"])
        return
    face = R.occupant(s, sid, p)[1]
    opts = [d for d in R.available(s, p, face, False) if d != sid]
    s.pending = {"k": int(Kind.SOCKET_DST), "seat": p, "from_sid": sid, "face": face, "opts": opts,
                 "src": pd.get("src")}


def a_socket_dst(R, s, pd, a, rng):
    """move_die (docs §5.2): no Immediate trigger (§4.7: moving a die never triggers Immediate lines); a private
    destination is revealed."""
    p, dst = pd["seat"], a - R.off.CHOOSE_SOCKET
    src, face = pd["from_sid"], pd["face"]
    if src >= PRIV0:
        slot, idx = divmod(src - PRIV0, 4)
        s.priv[p][slot]["occ"][idx] = 0
    else:
        s.sock_seat[src] = -1
        s.sock_face[src] = 0
    if dst >= PRIV0:
        slot, idx = divmod(dst - PRIV0, 4)
        s.priv[p][slot]["occ"][idx] = face
        place_private_reveal(s, p, dst)
    else:
        s.sock_seat[dst] = p
        s.sock_face[dst] = face


def m_socket_block(R, s, pd):
    """SOCKET_BLOCK mask (docs §6.2): the empty, unblocked, non-reserved board sockets of active cards."""
    return [R.off.CHOOSE_SOCKET + sid for sid in R.blockable(s)]


def a_socket_block(R, s, pd, a, rng):
    """block_socket (Seal, docs §5.2): the chosen board socket is blocked until Advancement (§4.17); the
    next block of the effect goes on."""
    s.blocked[a - R.off.CHOOSE_SOCKET] = True
    s.tasks.append(pd["then"])


def m_rune_pick(R, s, pd):
    """RUNE_PICK mask (docs §4.14, §6.2): ``choose_index(j)`` for each Secrecy candidate (0 = deck top)."""
    return [R.off.CHOOSE_INDEX + j for j in range(len(pd["cands"]))]


def a_rune_pick(R, s, pd, a, rng):
    """Secrecy (docs §4.14): candidate j becomes the next private Rune; the other goes to the deck bottom."""
    keep_rune(s, pd["seat"], pd["cands"], a - R.off.CHOOSE_INDEX)


def _pay_mask(R, s, pd, offer: bool):
    o = R.off
    p = pd["seat"]
    phys, cards = R.spendable(s, p)
    total = phys + sum(R.gems_of[k] * v for k, v in cards.items())
    out = []
    if offer:
        out.append(o.DECLINE)
        if total < pd["rem"]:
            return out
    if phys >= 1:
        out.append(o.PAY_GEMS)
    out += [o.PAY_CARD + k for k in sorted(cards)]
    return out


def m_pay_offer(R, s, pd):
    """PAY_OFFER mask (docs §4.10, §4.11, §6.2): ``decline``; with enough spendable value also ``pay_gems``
    (a physical gem) and ``pay_card(k)`` for each uncast gem-card kind."""
    return _pay_mask(R, s, pd, True)


def m_pay_more(R, s, pd):
    """PAY_MORE mask (docs §4.11, §6.2): ``pay_gems`` with a spendable gem, ``pay_card(k)`` per uncast gem card."""
    return _pay_mask(R, s, pd, False)


def a_pay(R, s, pd, a, rng):
    """Answer a cost or toll payment (PAY_OFFER / PAY_MORE, docs §4.10, §4.11): decline, pay_gems or pay_card(k)."""
    o = R.off
    if a == o.DECLINE:
        pay_apply(R, s, pd, "decline", -1)
    elif a == o.PAY_GEMS:
        pay_apply(R, s, pd, "pay_gems", -1)
    else:
        pay_apply(R, s, pd, "pay_card", a - o.PAY_CARD)


def m_discard(R, s, pd):
    """DISCARD mask (docs §4.12, §6.2): ``discard(k)`` for every kind the decider holds, uncast or cast."""
    p = pd["seat"]
    return [R.off.DISCARD + k for k in range(R.K) if s.hand[p][k] + s.cast[p][k]]


def a_discard(R, s, pd, a, rng):
    """Discard one card of kind k (a cast copy first, docs §4.12), then go on with the discards or hand limit owed."""
    discard_card(R, s, pd["seat"], a - R.off.DISCARD)
    s.tasks.append(pd["then"])


def m_reveal_count(R, s, pd):
    """REVEAL_COUNT mask (docs §4.18, §6.2): ``final_reveal(k)`` for k = 0 .. min(final_reveal_max,
    gem value)."""
    return [R.off.FINAL_REVEAL + k for k in range(pd["kmax"] + 1)]


def a_reveal_count(R, s, pd, a, rng):
    """Final Scoring reveal of k VP (docs §4.18): earmarking (REVEAL_SRC) or straight to the VP steps."""
    start_reveal(R, s, pd["seat"], a - R.off.FINAL_REVEAL)


def m_reveal_src(R, s, pd):
    """REVEAL_SRC mask (docs §4.18, §6.2): as PAY_MORE, over the unearmarked gems and gem cards."""
    return _pay_mask(R, s, pd, False)


def a_reveal_src(R, s, pd, a, rng):
    """Earmark for the reveal (docs §4.18): ``pay_gems`` min(unearmarked gems, remaining), ``pay_card(k)`` all
    the gems of one uncast copy."""
    o = R.off
    if a == o.PAY_GEMS:
        reveal_src_apply(R, s, pd, "pay_gems", -1)
    else:
        reveal_src_apply(R, s, pd, "pay_card", a - o.PAY_CARD)


MASKS = {Kind.BONUS: m_bonus, Kind.SIDE: m_side, Kind.OPPONENT: m_opponent, Kind.FACE_SRC: m_face_src,
         Kind.FACE_NEW: m_face_src, Kind.SOCKET_SRC: m_socket_src, Kind.SOCKET_DST: m_socket_src,
         Kind.SOCKET_BLOCK: m_socket_block, Kind.RUNE_PICK: m_rune_pick, Kind.PAY_OFFER: m_pay_offer,
         Kind.PAY_MORE: m_pay_more, Kind.DISCARD: m_discard, Kind.REVEAL_COUNT: m_reveal_count,
         Kind.REVEAL_SRC: m_reveal_src}
APPLIES = {Kind.BONUS: a_bonus, Kind.SIDE: a_side, Kind.OPPONENT: a_opponent, Kind.FACE_SRC: a_face_src,
           Kind.FACE_NEW: a_face_new, Kind.SOCKET_SRC: a_socket_src, Kind.SOCKET_DST: a_socket_dst,
           Kind.SOCKET_BLOCK: a_socket_block, Kind.RUNE_PICK: a_rune_pick, Kind.PAY_OFFER: a_pay,
           Kind.PAY_MORE: a_pay, Kind.DISCARD: a_discard, Kind.REVEAL_COUNT: a_reveal_count,
           Kind.REVEAL_SRC: a_reveal_src}
