"""Setup (docs §3) and the shaman draft variant (docs §4.10)."""

from __future__ import annotations

from .state import NONE, Frame, MonolithState, Phase, Sub

__all__ = ["new_state", "blank_state", "apply_shaman_setup"]


def blank_state(g) -> MonolithState:
    """A state with every list sized for ``g`` and all counts 0 (no units, no cards anywhere)."""
    n, N, R = g.n, g.N, g.R
    return MonolithState(
        n=n, favour=[0] * n, available=[0] * n, spent=[0] * n, unearned=[0] * n, tower_today=[0] * n,
        tower_stuck=[0] * n, board=[[0, 0, 0] for _ in range(n)], reserves=[0] * n, anger=[0] * n,
        limbo=[0] * n, shaman_id=[0] * n, shaman_space=[g.hold[p] for p in range(n)], shaman_alive=[True] * n,
        held=[[] for _ in range(n)], objectives=[[] for _ in range(n)], committed=[False] * n, out=[False] * n,
        kills_today=[0] * n, draft_bid=[0] * n, living=[[0] * n for _ in range(N)],
        dead=[[0] * n for _ in range(N)], blood=[0] * N, boast=[[0] * n for _ in range(N)], row=[NONE] * R,
        bids=[[0] * n for _ in range(R)], d_passed=[False] * n, d_assigned=[False] * n, cum=[0.0] * n,
        favour_floor=[0] * n,
    )


def new_state(g, rng) -> MonolithState:
    """docs §3 steps 1-9. Draws, in order (§3 step 3): first player, shamans (random), the divination, event
    and objective deck permutations; then the draft (if any) and the setup objective discards."""
    s = blank_state(g)
    n = g.n
    cfg = g.config
    s.first = int(rng.integers(n)) if cfg["first_player"] < 0 else cfg["first_player"]
    if cfg["shaman_assignment"] == "random":
        s.shaman_id = [int(x) for x in rng.choice(cfg["shaman_pool"], size=n, replace=False)]
    elif cfg["shaman_assignment"] == "fixed":
        s.shaman_id = list(cfg["shamans"])
    s.div_deck = [int(x) for x in rng.permutation(g.D)]
    s.event_deck = [int(x) for x in rng.permutation(g.E)]
    s.obj_deck = [int(x) for x in rng.permutation(g.O)]
    s.blood[g.mono] = 2
    s.phase = Phase.SETUP
    s.stack.append([Frame.FINISH_SETUP, 0, 0])
    if cfg["shaman_assignment"] == "draft":
        s.shaman_id = [NONE] * n
        s.stack.append([Frame.DRAFT_NEXT, 0, 0])
    return s


def apply_shaman_setup(g, s, p: int) -> None:
    """docs §3 step 6 for seat ``p``: hearts, warriors and the shaman from its shaman's setup line."""
    sh = g.shamans[s.shaman_id[p]]
    s.available[p], s.unearned[p] = sh.available, sh.unearned
    w_hold, w_mono, w_res, w_anger = sh.warriors
    s.living[g.hold[p]][p] += w_hold
    s.living[g.mono][p] += w_mono
    s.reserves[p], s.anger[p] = w_res, w_anger
    s.shaman_alive[p] = True
    s.shaman_space[p] = g.mono if sh.start == "monolith" else g.role_space[p][sh.start]
    b = s.draft_bid[p]
    s.available[p] -= b
    s.unearned[p] += b


def frame_finish_setup(g, s, _a, _b, rng) -> None:
    """docs §3 steps 6-9 after the shamans are known."""
    for p in range(s.n):
        apply_shaman_setup(g, s, p)
    s.day = 1
    s.surge = NONE
    for i in range(g.row_size):
        if s.div_deck:
            s.row[i] = s.div_deck.pop(0)
    order = [(s.first + k) % s.n for k in range(s.n)]
    for p in order:
        for _ in range(2):
            if s.obj_deck:
                s.objectives[p].append(s.obj_deck.pop(0))
    s.stack.append([Frame.START_DAY, 1, 0])
    s.stack.append([Frame.SETUP_DISCARD, 0, 0])


def frame_setup_discard(g, s, idx: int, _b, rng) -> None:
    """docs §3 step 8: each seat in turn order discards down to 1 objective, face down."""
    while idx < s.n:
        p = (s.first + idx) % s.n
        idx += 1
        if len(s.objectives[p]) > 1:
            s.stack.append([Frame.SETUP_DISCARD, idx, 0])
            s.sub, s.current = Sub.OBJ_DISCARD, p
            return


# ---------------------------------------------------------------- draft (docs §4.10)
def frame_draft_next(g, s, _a, _b, rng) -> None:
    """docs §4.10: the next auction, nominated by the first unassigned seat in turn order (DRAFT_NOMINATE);
    with one seat left, DRAFT_FREE_PICK; with none, the draft is over."""
    order = [(s.first + k) % s.n for k in range(s.n)]
    left = [p for p in order if not s.d_assigned[p]]
    if len(left) >= 2:
        s.d_nominator = left[0]
        s.d_shaman = s.d_high = s.d_high_bidder = s.d_last = NONE
        s.d_passed = [False] * s.n
        s.sub, s.current = Sub.DRAFT_NOMINATE, left[0]
    elif len(left) == 1:
        s.d_nominator = NONE
        s.sub, s.current = Sub.DRAFT_FREE_PICK, left[0]


def _free_shamans(g, s) -> list:
    return [k for k in g.config["shaman_pool"] if k not in s.d_claimed]


def mask_draft_pick(g, s, p: int) -> list:
    """docs §4.10 DRAFT_NOMINATE and DRAFT_FREE_PICK: ``shaman(id)`` for each unclaimed shaman of the pool."""
    return sorted(g.A_SHAMAN + k for k in _free_shamans(g, s))


def mask_draft_open(g, s, p: int) -> list:
    """docs §4.10 DRAFT_OPEN_BID: ``number(v)`` for each opening bid v = 0 .. ``draft_max_bid``."""
    return [g.A_NUMBER + v for v in range(0, g.config["draft_max_bid"] + 1)]


def mask_draft_respond(g, s, p: int) -> list:
    """docs §4.10 DRAFT_RESPOND: pass for good, or ``number(v)`` for each bid above the high bid up to
    ``draft_max_bid``."""
    return [g.A_PASS] + [g.A_NUMBER + v for v in range(s.d_high + 1, g.config["draft_max_bid"] + 1)]


def _next_responder(g, s) -> None:
    n = s.n
    for k in range(1, n + 1):
        q = (s.d_last + k) % n
        if not s.d_assigned[q] and not s.d_passed[q] and q != s.d_high_bidder:
            s.sub, s.current = Sub.DRAFT_RESPOND, q
            return
    w = s.d_high_bidder
    _assign(s, w, s.d_shaman, s.d_high)
    s.d_nominator = s.d_shaman = s.d_high = s.d_high_bidder = s.d_last = NONE
    s.d_passed = [False] * n
    s.stack.append([Frame.DRAFT_NEXT, 0, 0])
    s.sub = NONE


def _assign(s, p: int, shaman: int, bid: int) -> None:
    s.shaman_id[p] = shaman
    s.draft_bid[p] = bid
    s.d_assigned[p] = True
    s.d_claimed.append(shaman)


def apply_draft_nominate(g, s, p: int, a: int, rng) -> None:
    """docs §4.10 DRAFT_NOMINATE: the named shaman goes up for auction; the nominator opens the bid."""
    s.d_shaman = a - g.A_SHAMAN
    s.sub = Sub.DRAFT_OPEN_BID


def apply_draft_open(g, s, p: int, a: int, rng) -> None:
    """docs §4.10 DRAFT_OPEN_BID: the nominator becomes the high bidder; the next responder clockwise decides."""
    s.d_high = a - g.A_NUMBER
    s.d_high_bidder = s.d_last = p
    _next_responder(g, s)


def apply_draft_respond(g, s, p: int, a: int, rng) -> None:
    """docs §4.10 DRAFT_RESPOND: pass for good or become the high bidder; the next responder clockwise
    decides or, when all others have passed, the high bidder takes the shaman at its bid."""
    if a == g.A_PASS:
        s.d_passed[p] = True
    else:
        s.d_high = a - g.A_NUMBER
        s.d_high_bidder = p
    s.d_last = p
    _next_responder(g, s)


def apply_draft_free_pick(g, s, p: int, a: int, rng) -> None:
    """docs §4.10 DRAFT_FREE_PICK: the last unassigned seat takes the named shaman for a bid of 0."""
    _assign(s, p, a - g.A_SHAMAN, 0)
    s.stack.append([Frame.DRAFT_NEXT, 0, 0])
    s.sub = NONE
