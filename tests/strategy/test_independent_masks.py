"""The Strategy engine's ``legal_mask`` against masks written independently from the spec's text.

Checked (``/work/shared/specs/monolith_strategy.md``, with the decisions of ``docs/monolith_strategy.md``):

* ``TURN`` (§4.6, §6.2): ``place(f, sid)`` into every socket available for f: board sockets of active cards
  (§4.2: a Round card's normal side covers its position, its Exalted side brings its own sockets; reserved
  Exalted Offering sockets are never available), not blocked, empty, requirement ANY or f (D7); p's own
  private Rune sockets 52-59 (§4.14, D23); the Stacker bump onto another player's lower die (D36);
  ``set_aside(f)`` only while the placement duty is open and no die fits anywhere (D9); ``end_turn`` once
  the duty is done; ``cast(k)`` by §4.12 castability: an uncast copy, a pool die or a set-aside this turn
  with no socketing since (D16), normal cards only before socketing and ``play_anytime`` / Player Power
  cards at any moment (D22), and every line's requirement (chosen opponent, pool dice for ``reroll``,
  ``adjust_face`` and ``set_face``, a ``move_die`` source with a destination, an empty available socket for
  ``block_socket``, a Source die for ``gain_die``, ``secret_rune`` room and deck, ``take_primus`` without lock);
* ``SOCKET_BLOCK`` (§5.2 ``block_socket``, §6.2): empty, unblocked, non-reserved board sockets of active cards;
* ``DISCARD`` (§4.12, §6.2): every kind with ``hand[k] + cast[k] ≥ 1``;
* ``REVEAL_COUNT`` (§4.18 step 2, §6.2): k ≤ min(6, gem value).

Nothing of the engine is used but the state fields, the content data (``game.rules.content``: cards'
sockets, keywords, gems and effect lines), the action layout (families by name) and the decision kind
names (``Kind``). Seeded random games (solo with Player Powers, 2 players with Exalted off, 3 players with
the intro layout, 4 players with Player Powers; the Power deck's shuffle re-ordered to bring Secrecy, Stacker
and Ascension on top, another possible shuffle, so that private Runes, bumps and the Primus holder's
Ascension come up) compare the masks at every decision of a covered kind, and check that every covered kind
and rule branch was reached.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from monolith_envs.strategy.game import StrategyGame
from monolith_envs.strategy.state import Kind, Side

ANY = 0  # a socket requirement (§2.2)
BOARD_SOCKETS = 52  # ids 0-51 = (position - 1) * 4 + index; 52-59 = the decider's private sockets
POSITIONS = range(1, 14)


class Reference:
    """The spec's view of one state for the decider ``p``: sockets, their availability, castability."""

    def __init__(self, game, s, p: int):
        self.s, self.p, self.n = s, p, s.n
        self.content = game.rules.content
        self.used: set = set()  # rule branches that changed a mask (for the coverage checks)

    def card_sockets(self, pos: int) -> tuple:
        """(requirements, reserved) of the active card on ``pos`` (§4.2): none where the Round card shows normal."""
        s, c = self.s, self.content
        if pos == s.rc_pos:
            if s.rc_side != Side.EXALTED:
                return (), False
            card = next(rc for rc in c.round_cards if rc.round == s.rc_round)
            return card.sockets, card.reserved
        return (c.board[s.board[pos]].sockets, False) if s.board[pos] >= 0 else ((), False)

    def board_sockets(self):
        """(sid, requirement, reserved) of every existing board socket."""
        for pos in POSITIONS:
            reqs, reserved = self.card_sockets(pos)
            for i, req in enumerate(reqs):
                yield (pos - 1) * 4 + i, req, reserved

    def blockable(self) -> list:
        """§5.2 ``block_socket``: empty, unblocked, non-reserved board sockets."""
        s = self.s
        return [sid for sid, _, reserved in self.board_sockets()
                if not reserved and not s.blocked[sid] and s.sock_seat[sid] < 0]

    def available(self, face: int, stacker: bool) -> list:
        """§4.6: socket ids available to p for ``face`` (with ``stacker``: a ready Stacker may bump)."""
        s, p, out = self.s, self.p, []
        bump = stacker and s.turn["stack_ready"]
        for sid, req, reserved in self.board_sockets():
            if req not in (ANY, face):
                continue
            if reserved or s.blocked[sid]:
                if s.sock_seat[sid] < 0:
                    self.used.add("reserved socket" if reserved else "blocked socket")
                continue
            if s.sock_seat[sid] < 0:
                out.append(sid)
            elif bump and s.sock_seat[sid] != p and s.sock_face[sid] < face:
                self.used.add("stacker bump")
                out.append(sid)
        for slot, rune in enumerate(s.priv[p]):
            for i, req in enumerate(self.content.board[rune["card"]].sockets):
                if not rune["occ"][i] and req in (ANY, face):
                    self.used.add("private socket")
                    out.append(BOARD_SOCKETS + slot * 4 + i)
        return out

    def own_socketed(self) -> list:
        """(sid, face) of p's dice in non-reserved board sockets and on p's private Runes."""
        s, out = self.s, []
        for sid, _, reserved in self.board_sockets():
            if s.sock_seat[sid] == self.p and not reserved:
                out.append((sid, s.sock_face[sid]))
        for slot, rune in enumerate(s.priv[self.p]):
            out += [(BOARD_SOCKETS + slot * 4 + i, f) for i, f in enumerate(rune["occ"]) if f]
        return out

    def line_can_act(self, line) -> bool:
        """§4.12: the requirement of one line of a cast card."""
        s, p, pool = self.s, self.p, self.s.pool[self.p]
        if "chosen_opponent" in (line.who, line.from_) and self.n < 2:
            return False
        if line.op in ("reroll", "adjust_face"):
            return sum(pool) > 0
        if line.op == "set_face":
            if line.who != "self" or line.where == "socketed":  # Jinx needs only an opponent; Overcharge nothing
                return True
            return any(pool[f - 1] for f in range(1, 7) if f != line.face) if line.face else sum(pool) > 0
        if line.op == "move_die":
            return any(dst != sid for sid, f in self.own_socketed() for dst in self.available(f, stacker=False))
        if line.op == "block_socket":
            return bool(self.blockable())
        if line.op == "gain_die":
            return s.src_dice[p] >= 1
        if line.op == "secret_rune":
            return len(s.priv[p]) < 2 and len(s.rune_deck) > 0
        if line.op == "take_primus" and not line.lock:
            if s.primus == p:
                self.used.add("take_primus by the holder")
            return s.primus != p
        return True


def turn_mask(L, r: Reference) -> set:
    """§4.6 and §6.2 TURN: place, set_aside, end_turn, cast."""
    s, p, turn, out = r.s, r.p, r.s.turn, set()
    pool = s.pool[p]
    if turn["left"] >= 1:
        for f in range(1, 7):
            if pool[f - 1]:
                out |= {L.index("place", f - 1, sid) for sid in r.available(f, stacker=True)}
    if not turn["mandatory_done"] and not out:
        r.used.add("set_aside")
        out |= {L.index("set_aside", f - 1) for f in range(1, 7) if pool[f - 1]}
    if turn["mandatory_done"]:
        out.add(L.index("end_turn"))
    die_ok = sum(pool) >= 1 or (turn["mandatory_done"] and not turn["socketed"])
    for k, card in enumerate(r.content.actions):
        if s.hand[p][k] < 1 or not die_ok:
            continue
        anytime = card.keyword in ("play_anytime", "player_power")
        if (anytime or not turn["socketed"]) and all(r.line_can_act(line) for line in card.effect):
            if sum(pool) == 0:
                r.used.add("cast after a set-aside")
            if card.keyword == "player_power":
                r.used.add("player power")
            if turn["socketed"]:
                r.used.add("cast after socketing")
            out.add(L.index("cast", k))
    return out


def reference_mask(game, s, used: set) -> set | None:
    """The legal actions (flat indices) of a covered decision kind; None for another kind."""
    L, kind, p = game.layout, s.pending["k"], s.pending["seat"]
    r = Reference(game, s, p)
    if kind == Kind.TURN:
        out = turn_mask(L, r)
    elif kind == Kind.SOCKET_BLOCK:
        out = {L.index("choose_socket", sid) for sid in r.blockable()}
    elif kind == Kind.DISCARD:
        out = {L.index("discard", k) for k in range(len(r.content.actions)) if s.hand[p][k] + s.cast[p][k] >= 1}
    elif kind == Kind.REVEAL_COUNT:  # gem value: physical gems + printed gems of the uncast cards in hand
        value = s.gems[p] + sum(s.hand[p][k] * card.gems for k, card in enumerate(r.content.actions))
        out = {L.index("final_reveal", k) for k in range(min(6, value) + 1)}
    else:
        return None
    used |= r.used
    return out


def compare(game, s, where: str, used: set) -> bool:
    """Fail unless the engine's mask equals the reference one; False if the decision kind is not covered."""
    if s.terminal:
        return False
    want = reference_mask(game, s, used)
    if want is None:
        return False
    L = game.layout
    got = {int(a) for a in np.flatnonzero(game.legal_mask(s))}
    if got != want:
        pytest.fail(f"{where}, decision {s.decisions}: {Kind(s.pending['k']).name} of seat {s.pending['seat']} "
                    f"(round {s.round}, turn {s.turn}): engine-only {[L.decode(a) for a in sorted(got - want)]}, "
                    f"reference-only {[L.decode(a) for a in sorted(want - got)]}")
    return True


# ---------------------------------------------------------------- seeded games
CONFIGS = {  # name: (config, rule branches reached besides BRANCHES)
    "solo_player_powers": ({"num_players": 1, "player_powers": True}, {"player power", "reserved socket"}),
    "2p_exalted_off": ({"num_players": 2, "exalted": False}, {"stacker bump"}),
    "3p_intro_layout": ({"num_players": 3, "intro_layout": True}, {"stacker bump", "reserved socket"}),
    "4p_player_powers": ({"num_players": 4, "player_powers": True},
                         {"player power", "stacker bump", "set_aside", "cast after a set-aside"}),
}
GAMES = 150
KINDS = {"TURN", "SOCKET_BLOCK", "DISCARD", "REVEAL_COUNT"}
BRANCHES = {"private socket", "blocked socket", "cast after socketing", "take_primus by the holder"}


def family_first(L, mask, rng) -> int:
    """A legal action drawn family first, then uniformly within the family (so casts, among them Secrecy
    and Stacker, are chosen about as often as placements)."""
    families: dict = {}
    for a in map(int, np.flatnonzero(mask)):
        families.setdefault(L.split(a)[0], []).append(a)
    options = families[sorted(families)[rng.integers(len(families))]]
    return options[rng.integers(len(options))]


@pytest.mark.parametrize("name", list(CONFIGS))
def test_random_games_masks_match_the_spec(name):
    cfg, branches = CONFIGS[name]
    game = StrategyGame(cfg)
    compared, used = Counter(), set()
    top = [k for k, card in enumerate(game.rules.content.actions)
           if card.name in ("Secrecy", "Stacker", "Ascension")]
    for seed in range(GAMES):
        rng = np.random.default_rng(seed)
        s = game.initial_state(rng)
        s.power_deck.sort(key=lambda k: k not in top)  # another shuffle: Secrecy, Stacker, Ascension on top
        while not s.terminal:
            if compare(game, s, f"config {name}, seed {seed}", used):
                compared[Kind(s.pending["k"]).name] += 1
            game.apply(s, family_first(game.layout, game.legal_mask(s), rng), rng)
    assert set(compared) == KINDS, compared
    assert compared["TURN"] > 500, compared
    assert BRANCHES | branches <= used, used
