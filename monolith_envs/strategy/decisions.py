"""Masks and answers of every decision kind except TURN (docs/monolith_strategy.md §6.2): the opening
(BONUS, SIDE), choices inside effects (OPPONENT, FACE_*, SOCKET_*, RUNE_PICK), payments (PAY_*), DISCARD
and the Final Scoring reveal (REVEAL_*).

Each ``m_*(R, s, pd)`` returns the legal flat actions (ascending) of the open decision ``pd``; each
``a_*(R, s, pd, a, rng)`` applies a legal one (``pending`` is already cleared).
"""

from __future__ import annotations

from .board import PRIV0
from .effects import discard_card, keep_rune, place_private_reveal
from .payments import pay_apply, reveal_src_apply, start_reveal
from .state import Kind, Side

__all__ = ["MASKS", "APPLIES"]


def m_bonus(R, s, pd):
    o = R.off
    return ([o.START_BONUS] if s.skill_deck else []) + ([o.START_BONUS + 1] if s.source_gems else [])


def a_bonus(R, s, pd, a, rng):
    p = pd["seat"]
    if a == R.off.START_BONUS:
        s.hand[p][s.skill_deck.pop(0)] += 1
        s.tasks.append({"t": "hlimit", "p": p})
    else:
        s.source_gems -= 1
        s.gems[p] += 1


def m_side(R, s, pd):
    return [R.off.ROUND_SIDE, R.off.ROUND_SIDE + 1]


def a_side(R, s, pd, a, rng):
    s.rc_side = int(Side.EXALTED) if a == R.off.ROUND_SIDE + 1 else int(Side.NORMAL)


def m_opponent(R, s, pd):
    d, n = pd["seat"], R.n
    return [R.off.CHOOSE_OPPONENT + i - 1 for i in range(1, n) if (d + i) % n in pd["elig"]]


def a_opponent(R, s, pd, a, rng):
    i = a - R.off.CHOOSE_OPPONENT + 1
    then = dict(pd["then"], opp=(pd["seat"] + i) % R.n)
    s.tasks.append(then)


def m_face_src(R, s, pd):
    return [R.off.CHOOSE_FACE + f - 1 for f in pd["opts"]]


def a_face_src(R, s, pd, a, rng):
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
    p, f = pd["seat"], a - R.off.CHOOSE_FACE + 1
    s.pool[p][pd["src_face"] - 1] -= 1
    s.pool[p][f - 1] += 1


def m_socket_src(R, s, pd):
    return [R.off.CHOOSE_SOCKET + sid for sid in pd["opts"]]


def _set_sock_face(s, p, sid, face):
    if sid >= PRIV0:
        slot, idx = divmod(sid - PRIV0, 4)
        s.priv[p][slot]["occ"][idx] = face
    else:
        s.sock_face[sid] = face


def a_socket_src(R, s, pd, a, rng):
    p, sid = pd["seat"], a - R.off.CHOOSE_SOCKET
    if pd["mode"] == "set":
        _set_sock_face(s, p, sid, pd["face"])
        return
    face = R.occupant(s, sid, p)[1]
    opts = [d for d in R.available(s, p, face, False) if d != sid]
    s.pending = {"k": int(Kind.SOCKET_DST), "seat": p, "from_sid": sid, "face": face, "opts": opts,
                 "src": pd.get("src")}


def a_socket_dst(R, s, pd, a, rng):
    """move_die (docs §5.2): no Immediate trigger (D31); a private destination is revealed."""
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
    return [R.off.CHOOSE_SOCKET + sid for sid in R.blockable(s)]


def a_socket_block(R, s, pd, a, rng):
    s.blocked[a - R.off.CHOOSE_SOCKET] = True
    s.tasks.append(pd["then"])


def m_rune_pick(R, s, pd):
    return [R.off.CHOOSE_INDEX + j for j in range(len(pd["cands"]))]


def a_rune_pick(R, s, pd, a, rng):
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
    return _pay_mask(R, s, pd, True)


def m_pay_more(R, s, pd):
    return _pay_mask(R, s, pd, False)


def a_pay(R, s, pd, a, rng):
    o = R.off
    if a == o.DECLINE:
        pay_apply(R, s, pd, "decline", -1)
    elif a == o.PAY_GEMS:
        pay_apply(R, s, pd, "pay_gems", -1)
    else:
        pay_apply(R, s, pd, "pay_card", a - o.PAY_CARD)


def m_discard(R, s, pd):
    p = pd["seat"]
    return [R.off.DISCARD + k for k in range(R.K) if s.hand[p][k] + s.cast[p][k]]


def a_discard(R, s, pd, a, rng):
    discard_card(R, s, pd["seat"], a - R.off.DISCARD)
    s.tasks.append(pd["then"])


def m_reveal_count(R, s, pd):
    return [R.off.FINAL_REVEAL + k for k in range(pd["kmax"] + 1)]


def a_reveal_count(R, s, pd, a, rng):
    start_reveal(R, s, pd["seat"], a - R.off.FINAL_REVEAL)


def m_reveal_src(R, s, pd):
    return _pay_mask(R, s, pd, False)


def a_reveal_src(R, s, pd, a, rng):
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
