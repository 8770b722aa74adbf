"""The rules context (content + config tables) and board geometry: active cards, sockets, availability,
dice on a card (docs/monolith_strategy.md §2.2, §4.2, §4.6)."""

from __future__ import annotations

from bisect import bisect_left

from .content import Content
from .state import CARD_KIND, CARD_PAID, GEMS_LEFT, ITEM_GEMS, ITEM_TYPE, Phase, Side, StrategyState

__all__ = ["Rules", "PRIV0", "NSOCK"]

PRIV0 = 52   # first private socket id (docs §2.2)
NSOCK = 60   # sockets, ids 0 .. NSOCK - 1 (docs §2.2)
_ACTION = int(Phase.ACTION)  # a plain int: compared on every mask


_NO_FACES = ((),) * 6


def _by_face(opn) -> tuple:
    """Per face f (0-5): the ascending sids of ``opn`` (ascending ``(sid, requirement)`` pairs) that take a
    die showing ``f + 1`` (requirement ANY or ``f + 1``)."""
    by_face: tuple = ([], [], [], [], [], [])
    for sid, req in opn:
        if req:
            by_face[req - 1].append(sid)
        else:
            for lst in by_face:
                lst.append(sid)
    return tuple(tuple(x) for x in by_face)


class Rules:
    """Immutable tables shared by every state of one game: content, seat count, solo flag, decks
    (docs §2.1, §3).

    Attributes:
        content: the :class:`Content`; n: seats; solo: n == 1; K, C, X: kinds, board cards, Exalted sides.
        skill_cards / power_cards: the deck contents (kind indexes, one per copy, content order).
        pp_kinds: Player Power kinds in play for this seat count; rune_pool: Rune card indexes in play.
        fates: Fate card indexes in play; extra_fate: the card with the ``extra_fate`` setup line (or -1).
    """

    def __init__(self, content: Content, n: int, cfg: dict):
        self.content = c = content
        self.n = n
        self.solo = n == 1
        self.cfg = cfg
        self.K, self.C, self.X = c.K, c.C, c.X
        self.exalted = bool(cfg["exalted"])
        self.player_powers = bool(cfg["player_powers"])
        self.victory = c.victory
        self.toll_at = {sp: (i, cost) for i, (sp, cost) in enumerate(c.tolls)}
        self.hand_limit = c.hand_limit
        self.dpp = c.dice_per_player
        self.total_gems = c.gems_per_player * n

        def ok_action(a):
            return not self.solo or (a.solo and not a.attack)

        def ok_board(b):
            return b.enabled and (not self.solo or (b.solo and not b.attack))

        self.action_ok = [ok_action(a) for a in c.actions]
        self.skill_cards = [a.index for a in c.actions if a.deck == "skill" and ok_action(a) for _ in range(a.copies)]
        self.power_cards = [a.index for a in c.actions if a.deck == "power" and ok_action(a) for _ in range(a.copies)]
        self.pp_kinds = [a.index for a in c.actions if a.deck == "player_power" and ok_action(a)] \
            if self.player_powers else []
        self.is_skill = [a.deck == "skill" for a in c.actions]
        self.is_power = [a.deck == "power" for a in c.actions]
        self.is_pp = [a.deck == "player_power" for a in c.actions]
        self.anytime = [a.keyword in ("play_anytime", "player_power") for a in c.actions]
        self.gems_of = [a.gems for a in c.actions]
        self.gem_kinds = [a.index for a in c.actions if a.gems > 0]
        self.copies = [a.copies for a in c.actions]
        self.starting = [b.index for b in c.board if b.set == "starting" and b.enabled]
        self.solo_cards = [b.index for b in c.board if b.set == "solo" and b.enabled]
        self.fates = [b.index for b in c.board if b.set == "fate" and ok_board(b)]
        self.extra_fate = next((b.index for b in c.board if any(ln.op == "extra_fate" for ln in b.setup)), -1)
        self.rune_pool = [b.index for b in c.board if b.set in ("rune", "blank") and ok_board(b)]
        self.by_id = {b.id: b.index for b in c.board}
        self.by_number = {b.number: b.index for b in c.board}
        self.kind_by_id = {a.id: a.index for a in c.actions}
        self.second_fate_pos = 7 if self.solo else 13
        self.skill_total = len(self.skill_cards)
        self.power_total = len(self.power_cards)
        self.rune_total = len(self.rune_pool)
        self.order_cache = [[(p + i) % n for i in range(n)] for p in range(n)]
        self._geo: dict = {}
        self._layouts: dict = {}
        self.mask_ctx = None  # the compiled TURN lists' context (turn.mask_context), set by the game

    def __getstate__(self) -> dict:
        """Copy and pickle support: the compiled context (a capsule) is not copied; the copy builds its own."""
        state = self.__dict__.copy()
        state["mask_ctx"] = None
        state["_mask_compiled"] = self.mask_ctx is not None
        return state

    def __setstate__(self, state: dict) -> None:
        compiled = state.pop("_mask_compiled", False)
        self.__dict__.update(state)
        if compiled:
            from .turn import _fastmask, mask_context  # turn imports this module

            self.mask_ctx = mask_context(self) if _fastmask is not None else None

    # ------------------------------------------------------------------ seats
    def order(self, s: StrategyState) -> list:
        """Seats in turn order from the Primus holder (docs §4.9, §4.16)."""
        return self.order_cache[s.primus]

    # ------------------------------------------------------------------ cards and sockets
    def active(self, s: StrategyState, pos: int):
        """``(kind, obj)`` of the active card at ``pos``: ("card", BoardCard), ("exalted", RoundCard) or
        (None, None) (empty, or covered by a normal-side Round card: docs §4.2; an available socket exists
        on the active card: docs §4.6)."""
        if pos == s.rc_pos:
            if s.rc_side == Side.EXALTED:
                return "exalted", self.content.round_cards[s.rc_round - 1]
            return None, None
        b = s.board[pos]
        if b < 0:
            return None, None
        return "card", self.content.board[b]

    def socket_req(self, s: StrategyState, sid: int, seat: int):
        """Requirement (0 = ANY, 1-6) of socket ``sid`` as seen by ``seat``, or None if it does not exist;
        second value: reserved (docs §2.2, §5.4)."""
        if sid >= PRIV0:
            slot, idx = divmod(sid - PRIV0, 4)
            pr = s.priv[seat]
            if slot >= len(pr):
                return None, False
            socks = self.content.board[pr[slot]["card"]].sockets
            return (socks[idx] if idx < len(socks) else None), False
        return self.geometry(s)[1].get(sid, (None, False))

    def occupant(self, s: StrategyState, sid: int, seat: int):
        """``(seat, face)`` of the die in ``sid`` (private ids relative to ``seat``) or None (docs §2.2)."""
        if sid >= PRIV0:
            slot, idx = divmod(sid - PRIV0, 4)
            pr = s.priv[seat]
            if slot >= len(pr) or not pr[slot]["occ"][idx]:
                return None
            return seat, pr[slot]["occ"][idx]
        if s.sock_seat[sid] < 0:
            return None
        return s.sock_seat[sid], s.sock_face[sid]

    def geometry(self, s: StrategyState) -> tuple:
        """``(open, rows, key, by_face)`` for the board as it stands (cached per layout and Round card):
        ``open`` lists ``(sid, requirement)`` of every existing, non-reserved board socket of an active card;
        ``rows`` maps every existing board socket to ``(requirement, reserved)``; ``key`` identifies the
        layout; ``by_face[f]`` lists (ascending) the open sockets a die showing ``f + 1`` may enter
        (requirement ANY or ``f + 1``) (docs §2.2, §4.2, §4.6)."""
        gc = s.geo_cache
        if gc is not None and gc[0] == s.rc_pos and gc[1] == s.rc_side and gc[2] == s.rc_round:
            return gc[3]
        key = (s.rc_pos, s.rc_side, s.rc_round, *s.board)
        g = self._geo.get(key)
        if g is None:
            if len(self._geo) > 256:
                self._geo.clear()
            g = self._geo[key] = self._covered(self._layout(key[3:]), s.rc_pos, s.rc_side, s.rc_round, key)
        s.geo_cache = (s.rc_pos, s.rc_side, s.rc_round, g)
        return g

    def _layout(self, board: tuple) -> tuple:
        """``(open, rows, by_face, sids)`` of the board cards alone (no Round card), cached per layout
        (``sids``: the open sockets' ids, ascending)."""
        lay = self._layouts.get(board)
        if lay is None:
            if len(self._layouts) > 64:
                self._layouts.clear()
            cards = self.content.board
            opn = [((pos - 1) * 4 + i, req) for pos in range(1, 14) if board[pos] >= 0
                   for i, req in enumerate(cards[board[pos]].sockets)]
            lay = self._layouts[board] = (opn, {sid: (req, False) for sid, req in opn}, _by_face(opn),
                                          [sid for sid, _ in opn])
        return lay

    def _covered(self, lay: tuple, rc_pos: int, rc_side: int, rc_round: int, key: tuple) -> tuple:
        """The geometry tuple of a layout with the Round card at ``rc_pos``: that position's sockets are
        replaced by the Exalted side's (reserved or not) or by none (normal side).  Board socket ids of a
        position are one contiguous range, so each ascending list is cut and joined there."""
        opn, rows, by_face, sids = lay
        if not rc_pos:
            return tuple(opn), rows, key, by_face
        lo, hi = (rc_pos - 1) * 4, rc_pos * 4
        here: list = []
        rows = dict(rows)
        for sid in range(lo, hi):
            rows.pop(sid, None)
        if rc_side == Side.EXALTED:
            rc = self.content.round_cards[rc_round - 1]
            for i, req in enumerate(rc.sockets):
                rows[lo + i] = (req, rc.reserved)
                if not rc.reserved:
                    here.append((lo + i, req))
        opn = opn[:bisect_left(sids, lo)] + here + opn[bisect_left(sids, hi):]
        faces = []
        for lst, ex in zip(by_face, _by_face(here) if here else _NO_FACES):
            a = bisect_left(lst, lo)
            b = bisect_left(lst, hi, a)
            faces.append(lst[:a] + ex + lst[b:] if a != b or ex else lst)  # unchanged lists are shared
        faces = tuple(faces)
        return tuple(opn), rows, key, faces

    def place_actions(self, s: StrategyState, p: int, base: int) -> list:
        """Flat ``place(f, sid)`` actions of seat p for every face it has in the pool (docs §4.6), ascending:
        face by face, the open board sockets that take the face (``geometry``'s ``by_face``), then p's empty
        private sockets that take it."""
        pool = s.pool[p]
        out: list = []
        bump = s.turn["stack_ready"] and s.phase == _ACTION and s.turn["player"] == p
        sock_seat, sock_face, blocked = s.sock_seat, s.sock_face, s.blocked
        by_face = self.geometry(s)[3]
        any_blocked = True in blocked
        privs = s.priv[p]
        board = self.content.board
        for f in range(6):
            if not pool[f]:
                continue
            fb = base + f * NSOCK
            if bump:
                out += [fb + sid for sid in by_face[f] if not blocked[sid] and (
                    sock_seat[sid] < 0 or (sock_seat[sid] != p and sock_face[sid] <= f))]
            elif any_blocked:
                out += [fb + sid for sid in by_face[f] if sock_seat[sid] < 0 and not blocked[sid]]
            else:
                out += [fb + sid for sid in by_face[f] if sock_seat[sid] < 0]
            for slot, pr in enumerate(privs):
                occ = pr["occ"]
                for i, req in enumerate(board[pr["card"]].sockets):
                    if not occ[i] and (not req or req == f + 1):
                        out.append(fb + PRIV0 + slot * 4 + i)
        return out

    def available(self, s: StrategyState, seat: int, face: int, stacker: bool = True) -> list:
        """Socket ids available to ``seat`` for a die showing ``face`` (an "available" socket of
        docs §4.6); Stacker bumps count when ``stacker`` and the turn's ``stack_ready`` is set."""
        out = []
        bump = stacker and s.turn["stack_ready"] and s.phase == _ACTION and s.turn["player"] == seat
        sock_seat, sock_face, blocked = s.sock_seat, s.sock_face, s.blocked
        for sid, req in self.geometry(s)[0]:
            if blocked[sid] or (req and req != face):
                continue
            occ = sock_seat[sid]
            if occ < 0 or (bump and occ != seat and sock_face[sid] < face):
                out.append(sid)
        for slot, pr in enumerate(s.priv[seat]):
            socks = self.content.board[pr["card"]].sockets
            for i, req in enumerate(socks):
                if not pr["occ"][i] and (not req or req == face):
                    out.append(PRIV0 + slot * 4 + i)
        return out

    def blockable(self, s: StrategyState) -> list:
        """SOCKET_BLOCK options: board sockets on an active card, existing, not reserved, empty, unblocked
        (docs §4.12, §6.2)."""
        blocked, seat = s.blocked, s.sock_seat
        return [sid for sid, _ in self.geometry(s)[0] if not blocked[sid] and seat[sid] < 0]

    def dice_on(self, s: StrategyState, where) -> dict:
        """``{seat: [faces]}`` of the dice on a card: ``where`` is a position (int) or ``[owner, slot]``
        (docs §4.9)."""
        out: dict = {}
        if type(where) is int or isinstance(where, int):
            base = (where - 1) * 4
            seat = s.sock_seat
            for sid in range(base, base + 4):
                q = seat[sid]
                if q >= 0:
                    if q in out:
                        out[q].append(s.sock_face[sid])
                    else:
                        out[q] = [s.sock_face[sid]]
        else:
            owner, slot = where
            faces = [f for f in s.priv[owner][slot]["occ"] if f]
            if faces:
                out[owner] = faces
        return out

    def own_socketed(self, s: StrategyState, seat: int, reserved: bool = False) -> list:
        """``(sid, face)`` of every die of ``seat`` in a socket (private ids relative to ``seat``); dice in
        reserved sockets only when ``reserved`` (docs §2.2, §6.2 SOCKET_SRC)."""
        out = []
        for sid in range(52):
            if s.sock_seat[sid] == seat:
                _, res = self.socket_req(s, sid, seat)
                if reserved or not res:
                    out.append((sid, s.sock_face[sid]))
        for slot, pr in enumerate(s.priv[seat]):
            for i, f in enumerate(pr["occ"]):
                if f:
                    out.append((PRIV0 + slot * 4 + i, f))
        return out

    def hand_size(self, s: StrategyState, p: int) -> int:
        """Cards in p's hand, uncast and cast (Player Powers included, private Runes not; docs §2.3, §4.12)."""
        return sum(s.hand[p]) + sum(s.cast[p])

    def spendable(self, s: StrategyState, p: int) -> tuple:
        """``(physical gems, {kind: uncast copies})`` that may pay now (earmarked items left out, docs §4.18)."""
        phys = s.gems[p]
        cards = {k: s.hand[p][k] for k in self.gem_kinds if s.hand[p][k] > 0}
        rv = s.reveal[p]
        if rv:
            for it in rv["items"]:
                if it[ITEM_TYPE] == ITEM_GEMS:
                    phys -= it[GEMS_LEFT]
                elif not it[CARD_PAID]:
                    cards[it[CARD_KIND]] -= 1
        return phys, {k: v for k, v in cards.items() if v > 0}

    def spend_value(self, s: StrategyState, p: int) -> int:
        """Gems ``p`` may pay now: physical gems plus the printed gems of the spendable cards (``spendable``;
        docs §4.10, §4.11)."""
        if not s.reveal[p]:  # nothing earmarked: every uncast gem card counts (``spendable`` lists them all)
            hand, gems_of = s.hand[p], self.gems_of
            return s.gems[p] + sum([gems_of[k] * hand[k] for k in self.gem_kinds])
        phys, cards = self.spendable(s, p)
        return phys + sum(self.gems_of[k] * v for k, v in cards.items())

    def holds_gem_card(self, s: StrategyState, p: int) -> bool:
        """Whether ``p`` holds an uncast gem card (earmarked or not): the final reveal asks REVEAL_SRC only then
        (docs §4.18, §4.20)."""
        return any(s.hand[p][k] for k in self.gem_kinds)

    def gem_value(self, s: StrategyState, p: int) -> int:
        """Physical gems plus the printed gems of the uncast cards in hand (docs §2.3, §8): a card cast this
        round lies in the Action Pool, not in hand, until Advancement or Final Scoring returns it."""
        return s.gems[p] + sum(self.gems_of[k] * s.hand[p][k] for k in self.gem_kinds)

    def gems_held(self, s: StrategyState, p: int) -> int:
        """Physical gems plus the printed gems of every gem card ``p`` holds, cast this round or not (a cast
        card comes back at Advancement); :meth:`gem_value` counts only the uncast ones."""
        return s.gems[p] + sum(self.gems_of[k] * (s.hand[p][k] + s.cast[p][k]) for k in self.gem_kinds)
