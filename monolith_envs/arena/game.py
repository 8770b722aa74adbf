"""``ArenaGame``: the Monolith Arena rules engine behind ``monolith_arena_v0`` (the core ``Game`` protocol)."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..core.actions import coerce_action
from ..core.base import GameBase
from ..core.game import ChanceMode, GameInfo, Information, InvariantError, Outcome, Utility
from ..core.returns import require_terminal, score_potential, winners_outcome
from .actions import build_layout
from .config import CONFIG_KEYS, ENV_ID, validate
from .observe import Observer
from .rules import Rules, dirty_decks, get_fx
from .state import ArenaState, Sub, fast_clone

__all__ = ["ArenaGame"]

L_DECK, L_HAND, L_BOARD, L_MONO, L_DISCARD, L_OUT, L_SETUP = 0, 1, 2, 3, 4, 5, 6


class ArenaGame(Rules, GameBase):
    """Monolith Arena rules engine (spec ``monolith_arena.md``) implementing :class:`~monolith_envs.core.game.Game`.

    Args:
        config: mapping of the keys of spec §1 (see :mod:`monolith_envs.arena.config`), or None for defaults.

    Raises:
        ConfigError: unknown key, bad value or combination, unknown faction id.
        ContentError: a faction file that does not validate.

    Attributes:
        env_id, config, num_players, layout (500 actions, 848 with the reinforcement variant), obs_spec
        (4532 floats, 5348 with H=6 for the reference content), zero_sum (True), max_decisions, tables.

    Hand-built positions: see :mod:`monolith_envs.arena.positions` (``ArenaGame.empty_position``).
    """

    GAME_INFO = GameInfo(
        env_id=ENV_ID, name="Monolith Arena", min_players=2, max_players=4, utility=Utility.ZERO_SUM,
        chance=ChanceMode.SETUP_ONLY, information=Information.IMPERFECT, teams=True, config_keys=CONFIG_KEYS,
        max_length=int(next(k.default for k in CONFIG_KEYS if k.name == "max_decisions")))
    STATE_CLASS = ArenaState
    env_id = ENV_ID

    def __init__(self, config: Mapping[str, Any] | None = None):
        from .content import load_content

        cfg = validate(config)
        content = load_content(cfg["faction_files"])
        super().__init__(cfg, content)
        self.num_players = self.n
        self.layout = build_layout(self.H)
        self.max_decisions = int(cfg["max_decisions"])
        self.observer = Observer(self)
        self.obs_spec = self.observer.spec
        self.zero_sum = True
        self._score_mode = cfg["reward_mode"] == "score"
        if self.team_mode:  # seats 0/2 against 1/3 (spec §1)
            self.teams = tuple(tuple(p for p in range(self.n) if self.team[p] == t) for t in (0, 1))

    # ------------------------------------------------------------------ protocol
    def initial_state(self, rng: np.random.Generator) -> ArenaState:
        """Spec §3: factions, deck permutations (the only randomness); returns SETUP_PICK or SETUP_BANNER."""
        return self.new_state(rng)

    def current_player(self, state: ArenaState) -> int:
        """Acting seat, or -1 when terminal."""
        return -1 if state.terminal else state.acting_seat

    def apply(self, state: ArenaState, action: int, rng: np.random.Generator | None = None) -> None:
        """Apply ``action`` for the acting seat, in place (spec §4, §6.2). ``rng`` is never used.

        Raises:
            IllegalActionError: not an action, or not legal now (message lists the legal actions).
        """
        a = action if type(action) is int else coerce_action(action)  # no float or bool is truncated
        if state.terminal:
            raise self.illegal(state, a, "the game is over")
        if not 0 <= a < self.off.n:
            raise self.illegal(state, a, f"action {a} outside 0..{self.off.n - 1}")
        mk = state.mask_cache
        if mk is None:
            mk = np.frombuffer(self._mask_bytes(state), np.bool_)
            state.mask_cache = mk
        if not mk[a]:
            raise self.illegal(state, a)
        score = self._score_mode
        if score:
            before = self.hp_vector(state)
        seat = state.acting_seat
        self.do_apply(state, a)
        state.last_move = (seat, a)
        state.decisions += 1
        state.mask_cache = None
        if score:
            after = self.hp_vector(state)
            self._score(state, before, after)

    def _score(self, s, before, after) -> None:
        """``score`` mode (spec §8): add the change of the score potential of HP (teams: of the two pools)."""
        n = self.n
        d = [after[p] - before[p] for p in range(n)]
        if not any(d):
            return
        if self.team_mode:
            dt = score_potential([d[0], d[1]], self.team_hp, np.float64).tolist()  # seats 0/2 pool 0, 1/3 pool 1
            for p in range(n):
                s.cum_reward[p] += dt[self.team[p]]
            return
        hp0 = self.tables.fac_hp
        dp = score_potential(d, [hp0[s.factions[p]] for p in range(n)], np.float64).tolist()
        for p in range(n):
            s.cum_reward[p] += dp[p]

    def outcome(self, state: ArenaState) -> tuple[Outcome, ...]:
        """Per-seat result (spec §4.9, §8): the winners (teams: both seats of the winning alliance) WIN, the
        others LOSE; a draw of every seat is DRAW for all.

        Raises:
            MonolithEnvError: the game is not over.
        """
        require_terminal(self, state)
        return winners_outcome(self.n, state.winners)

    def legal_mask(self, state: ArenaState) -> np.ndarray:
        """``bool[layout.n]``: exactly the legal actions (all False when terminal)."""
        mk = state.mask_cache
        if mk is None:
            mk = np.frombuffer(self._mask_bytes(state), np.bool_)
            state.mask_cache = mk
        return mk.copy()

    def clone(self, state: ArenaState) -> ArenaState:
        """Exact, independent copy."""
        return fast_clone(state)

    def is_terminal(self, state: ArenaState) -> bool:
        """True once the match is over."""
        return bool(state.terminal)

    def returns(self, state: ArenaState) -> np.ndarray:
        """``float32[n]``: terminal values (win_loss/rank; zeros before the end) or cumulative score (spec §8)."""
        return np.asarray(state.cum_reward, dtype=np.float32)

    def returns_list(self, state: ArenaState) -> list:
        """:meth:`returns` as a list of Python floats (the float32 values), without building an array while
        every return is still 0 (all of a ``win_loss`` or ``rank`` match before its end)."""
        r = state.cum_reward
        if r.count(0) == len(r):
            return [0.0] * len(r)
        return np.asarray(r, dtype=np.float32).tolist()

    def observe(self, state: ArenaState, player: int) -> np.ndarray:
        """``float32[obs_spec.size]`` seat-relative observation of ``player`` (spec §7)."""
        return self.observer.observe(state, int(player))

    def state_vector(self, state: ArenaState) -> np.ndarray:
        """Omniscient observation from seat 0's point of view (hidden Monolith tiles shown)."""
        return self.observer.observe(state, 0, omniscient=True)

    def render_text(self, state: ArenaState, viewer: int | None = None) -> str:
        """Text picture (spec §7 render notes) as ``viewer`` sees it; None = omniscient."""
        from .render import render_text

        return render_text(self, state, viewer)

    def render_rgb(self, state: ArenaState) -> np.ndarray:
        """``uint8[H, W, 3]`` picture of the board."""
        from .render import render_rgb

        return render_rgb(self, state)

    def state_schema(self) -> dict:
        """The field specs of a serialised state of this game (:func:`.state_check.schema`)."""
        from .state_check import schema

        return schema(self)

    def check_state(self, state: ArenaState) -> None:
        """Cross-field checks of a state read by ``from_dict`` (:func:`.state_check.cross_check`)."""
        from .state_check import cross_check

        cross_check(self, state)

    def resample_hidden(self, state: ArenaState, viewer: int, rng: np.random.Generator) -> ArenaState:
        """Copy of ``state`` with every deck order redrawn and, for other seats, their unrevealed Monolith
        picks exchanged at random with Board tiles of their deck (the viewer only knows the union).

        The draw depends only on what ``viewer`` knows: decks and pools are sorted by instance id (copies of
        a type have consecutive ids) before shuffling, so two states that ``viewer`` cannot tell apart give
        the same sample for the same ``rng`` state (information-set search relies on this).
        """
        s = fast_clone(state)
        tb = self.tables
        for q in range(self.n):
            deck = sorted(s.deck[q])
            if self.module and q != viewer:
                hidden = [k for k in (0, 1) if s.seg_content[q][k] >= 0 and not s.seg_revealed[q][k]
                          and s.loc[s.seg_content[q][k]] == L_MONO]
                if hidden:
                    pool = sorted(deck + [s.seg_content[q][k] for k in hidden])
                    board_tiles = [i for i in pool if tb.kind[s.itype[i]] in (1, 2)]
                    pick = list(rng.choice(len(board_tiles), size=len(hidden), replace=False))
                    chosen = [board_tiles[j] for j in pick]
                    rest = [i for i in pool if i not in chosen]
                    for k, c in zip(hidden, chosen):
                        s.seg_content[q][k] = c
                        s.loc[c] = L_MONO
                    for i in rest:
                        s.loc[i] = L_DECK
                    deck = rest
            perm = rng.permutation(len(deck))
            s.deck[q] = [deck[j] for j in perm]
        dirty_decks(s)
        return s

    # ------------------------------------------------------------------ invariants (spec §9)
    def check_invariants(self, state: ArenaState) -> None:
        """Spec §9 invariants 1-10, 15, 16.

        Raises:
            InvariantError: naming the invariant and the offending values.
        """
        s = state
        n, H = self.n, self.H

        def bad(k, msg):
            raise InvariantError(f"monolith_arena invariant {k}: {msg}")

        NI = self.NI
        seen = [0] * NI
        for q in range(n):
            for i in s.deck[q]:
                seen[i] += 1
                if s.loc[i] != L_DECK or i // 35 != q:
                    bad(1, f"deck tile {i} has loc {s.loc[i]}")
            for i in s.hand[q]:
                if i >= 0:
                    seen[i] += 1
                    if s.loc[i] != L_HAND or i // 35 != q:
                        bad(1, f"hand tile {i} has loc {s.loc[i]}")
            for i in s.discard[q]:
                seen[i] += 1
                if s.loc[i] != L_DISCARD:
                    bad(1, f"discarded tile {i} has loc {s.loc[i]}")
        for h in range(19):
            i = s.board[h]
            if i >= 0:
                seen[i] += 1
                if s.loc[i] != L_BOARD:
                    bad(2, f"board[{h}]={i} but loc {s.loc[i]}")
                if s.hexof[i] != h:
                    bad(2, f"board[{h}]={i} but hexof {s.hexof[i]}")
        mono_set = set()
        if self.module:
            for q in range(n):
                for c in s.seg_content[q]:
                    if c >= 0:
                        if c in mono_set:
                            bad(5, f"tile {c} is the content of two segments")
                        mono_set.add(c)
                        if s.loc[c] == L_MONO:
                            seen[c] += 1
        loc, hexof, board, poison, facing = s.loc, s.hexof, s.board, s.poison, s.facing
        on_tiles = 0
        for i in range(NI):
            lc = loc[i]
            if lc == L_OUT or lc == L_SETUP:
                seen[i] += 1
            elif lc == L_MONO:
                if i not in mono_set:
                    bad(1, f"tile {i} is in a Monolith but no segment holds it")
            elif lc == L_BOARD:
                if board[hexof[i]] != i:
                    bad(2, f"tile {i} on board at {hexof[i]} but board holds {board[hexof[i]]}")
            if lc != L_BOARD and hexof[i] != -1:
                bad(2, f"tile {i} off board has hexof {hexof[i]}")
            if seen[i] != 1:
                bad(1, f"tile {i} found in {seen[i]} places (loc {lc})")
            pz = poison[i]
            if pz:
                if lc != L_BOARD and lc != L_MONO:
                    bad(7, f"tile {i} off the board holds {pz} poison markers")
                on_tiles += pz
            f = facing[i]
            if not 0 <= f <= 5:
                bad(16, f"tile {i} facing {f}")
            if f and i % 35 == 0:
                bad(16, f"Banner {i} facing {f}")
        setup = s.sub_phase in (0, 1)
        for q in range(n):
            if not setup and s.alive[q] and s.loc[q * 35] != L_BOARD:
                bad(1, f"living seat {q}'s Banner is not on the board")
        # 3
        for q in range(n):
            if len(s.hand[q]) != H:
                bad(3, f"seat {q} hand has {len(s.hand[q])} slots")
        # 4: deck order checked by tests (removal from the top only)
        # 5
        if self.module and not setup:
            occupied = {}
            for q in range(n):
                if not s.alive[q]:
                    continue
                sh = s.seg_hex[q]
                B = s.hexof[q * 35]
                if s.mono_folded[q]:
                    if sh != [B, B, B]:
                        bad(5, f"folded Monolith of seat {q} at {sh}, Banner at {B}")
                    for c in s.seg_content[q]:
                        if c >= 0 and s.loc[c] != L_MONO:
                            bad(5, f"folded Monolith of seat {q} holds tile {c} with loc {s.loc[c]}")
                else:
                    if len(set(sh)) != 3:
                        bad(5, f"unfolded Monolith of seat {q} on hexes {sh}")
                    if sh[0] != B:
                        bad(5, f"Banner of seat {q} at {B}, segment 1 at {sh[0]}")
                    for k in range(3):
                        others = [sh[j] for j in range(3) if j != k]
                        if not any(self._adj(sh[k], x) for x in others):
                            bad(5, f"segment {k + 1} of seat {q} at {sh[k]} is separated")
                    for k in (0, 1):
                        c = s.seg_content[q][k]
                        if c >= 0 and (s.loc[c] != L_BOARD or s.hexof[c] != sh[k + 1]):
                            if s.sub_phase != int(Sub.UNFOLD_FACING):
                                bad(5, f"content {c} of seat {q} segment {k + 2} not on {sh[k + 1]}")
                for h in set(sh):
                    if h in occupied:
                        bad(5, f"hex {h} holds segments of seats {occupied[h]} and {q}")
                    occupied[h] = q
        # 6
        if not s.terminal and s.sub_phase != int(Sub.UNFOLD_FACING):
            fx = get_fx(self, s)
            for h in range(19):
                i = s.board[h]
                if i >= 0 and i % 35 and s.wounds[i] > fx.tough[h]:
                    bad(6, f"tile {i} on hex {h} has {s.wounds[i]} wounds > toughness {fx.tough[h]}")
        # 7
        if not 0 <= s.poison_supply <= 5:
            bad(7, f"poison supply {s.poison_supply}")
        if on_tiles + s.poison_supply != 5:
            bad(7, f"poison supply {s.poison_supply} + markers on tiles {on_tiles} != 5")
        for name in ("net_marker_on", "entrench_on"):
            m = getattr(s, name)
            if m >= 0 and s.loc[m] not in (L_BOARD, L_MONO):
                bad(7, f"{name} on tile {m} with loc {s.loc[m]}")
        # 8
        if any(h < 0 for h in s.hp) or any(p < 0 for p in s.pool):
            bad(8, f"negative HP {s.hp} / pools {s.pool}")
        # 9
        if s.last_round and not s.terminal:
            mk = self.compute_mask(s)
            for k in range(H):
                i = s.hand[s.acting_seat][k] if s.acting_seat >= 0 else -1
                if mk[self.off.ORDER + k] and self.tables.order[s.itype[i]].effect == "battle":
                    bad(9, "a Battle Order is legal during the last round")
        # 10
        if not s.terminal:
            if not 0 <= s.acting_seat < n or not s.alive[s.acting_seat]:
                bad(10, f"acting seat {s.acting_seat} is not a living seat")
            if s.uses > self.cap(s):
                bad(10, f"uses {s.uses} > cap {self.cap(s)}")
        elif s.acting_seat != -1:
            bad(10, "terminal state with an acting seat")
        # 15
        for q in range(n):
            if q != s.turn_seat and any(s.fresh[q]):
                bad(15, f"seat {q} has fresh tiles outside its turn")
            for k in range(H):
                if s.fresh[q][k] and s.hand[q][k] < 0:
                    bad(15, f"seat {q} slot {k} fresh but empty")
        if s.unfolded and s.placed and not s.exception_used:
            bad(15, "a placement in a turn with an unfold that is not the exception placement")
        # 16: checked in the per-instance pass above

    @staticmethod
    def _adj(a: int, b: int) -> bool:
        from .board import ADJ

        return bool(ADJ[a, b])

    # ------------------------------------------------------------------ hand-built positions
    class _EmptyPosition:
        """``game.empty_position(factions=None)`` -> state of this game, or
        ``ArenaGame.empty_position(factions=[...], **config)`` -> state of ``ArenaGame({factions, **config})``.

        The state is in MAIN of seat 0 with an empty board and hands and full decks; see
        :func:`monolith_envs.arena.positions.empty_position` and ``new_position`` (which also returns the game).
        """

        def __get__(self, obj, cls):
            from .positions import empty_position, new_position

            if obj is None:
                return lambda factions, **config: new_position(factions, **config)[1]
            return lambda factions=None, **_: empty_position(obj, factions)

    empty_position = _EmptyPosition()





def _bind_position_helpers() -> None:
    """Expose the :mod:`positions` helpers as methods (``game.put_tile(state, seat, tile, hex, ...)``)."""
    from . import positions

    for name in ("put_tile", "set_hand", "set_deck", "set_hp", "set_pool", "set_monolith", "set_turn",
                 "begin_turn", "settle_position", "effects", "tile_at"):
        fn = getattr(positions, name)
        setattr(ArenaGame, name, fn)


_bind_position_helpers()
