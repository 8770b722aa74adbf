"""``ArenaGame``: the Monolith Arena rules engine behind ``monolith_arena_v0`` (the core ``Game`` protocol)."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..core.actions import coerce_action
from ..core.base import GameBase
from ..core.game import ChanceMode, GameInfo, Information, Outcome, Utility
from ..core.observation import check_seat
from ..core.returns import require_terminal, score_potential, winners_outcome
from .config import CONFIG_KEYS, ENV_ID, validate
from .context import RulesContext, hp_vector
from .effects import dirty_decks
from .endgame import end_reason
from .invariants import check_invariants
from .observe import Observer
from .setup_game import new_state
from .state import ArenaState, Loc, fast_clone
from .table import APPLIES, illegal, mask_of
from .tables import Kind
from .words import move_context

__all__ = ["ArenaGame"]

_BOARD_KINDS = (Kind.CHAMPION, Kind.RUNE)


class ArenaGame(GameBase):
    """Monolith Arena rules engine (docs/monolith_arena.md) implementing :class:`~monolith_envs.core.game.Game`.

    Args:
        config: mapping of the keys of docs/monolith_arena.md §1 (see :mod:`monolith_envs.arena.config`), or None for defaults.

    Raises:
        ConfigError: unknown key, bad value or combination, unknown faction id.
        ContentError: a faction file that does not validate.

    Attributes:
        env_id, config, num_players, layout (500 actions, 848 with the reinforcement variant), obs_spec
        (4532 floats, 5348 with H=6 for the reference content), zero_sum (True), max_decisions, tables.

    The rules live in the modules of :mod:`monolith_envs.arena` (see :mod:`monolith_envs.arena.table`); the game
    holds their context, ``rules`` (a :class:`~monolith_envs.arena.context.RulesContext`), and shows its
    ``config``, ``content``, ``tables``, ``n``, ``H``, ``module``, ``reinf``, ``team_mode``, ``team``,
    ``team_hp`` and ``off``.  Hand-built positions: :mod:`monolith_envs.arena.positions`,
    :mod:`monolith_envs.arena.positions_text`.
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
        self.rules = g = RulesContext(cfg, content)
        self.config, self.content, self.tables = cfg, content, g.tables
        self.n = self.num_players = g.n
        self.H, self.module, self.reinf, self.off, self.layout = g.H, g.module, g.reinf, g.off, g.layout
        self.team_mode, self.team, self.team_hp = g.team_mode, g.team, g.team_hp
        self.max_decisions = g.max_decisions
        self._num_actions = g.off.n
        self.observer = Observer(g)
        self.obs_spec = self.observer.spec
        self.zero_sum = True
        self._score_mode = cfg["reward_mode"] == "score"
        if self.team_mode:  # seats 0/2 against 1/3 (docs/monolith_arena.md §1)
            self.teams = tuple(tuple(p for p in range(self.n) if self.team[p] == t) for t in (0, 1))

    # ------------------------------------------------------------------ protocol
    def initial_state(self, rng: np.random.Generator) -> ArenaState:
        """Docs/monolith_arena.md §3: factions, deck permutations (the only randomness); returns SETUP_PICK or SETUP_BANNER."""
        return new_state(self.rules, rng)

    def current_player(self, state: ArenaState) -> int:
        """Acting seat, or -1 when terminal."""
        return -1 if state.terminal else state.acting_seat

    def apply(self, state: ArenaState, action: int, rng: np.random.Generator | None = None) -> None:
        """Apply ``action`` for the acting seat, in place (docs/monolith_arena.md §4, §6.2). ``rng`` is never used.

        Raises:
            IllegalActionError: not an action, or not legal now (message lists the legal actions).
        """
        g = self.rules
        a = action if type(action) is int else coerce_action(action)  # no float or bool is truncated
        if state.terminal:
            raise illegal(g, state, a, "the game is over")
        if not 0 <= a < self._num_actions:
            raise illegal(g, state, a, f"action {a} outside 0..{self._num_actions - 1}")
        if not mask_of(g, state)[a]:  # the cached legal actions, a bytearray of 0/1
            raise illegal(g, state, a)
        score = self._score_mode
        if score:
            before = hp_vector(g, state)
        seat = state.acting_seat
        context = move_context(state)  # ~0.2 µs: what the drawing's "Last:" line needs of the state before
        APPLIES[state.sub_phase](g, state, a)  # the sub-phase's apply function (table.SUBPHASES)
        state.last_move = (seat, a, context)
        state.decisions += 1
        state.mask_cache = None
        if score:
            after = hp_vector(g, state)
            self._score(state, before, after)

    def _score(self, s, before, after) -> None:
        """``score`` mode (docs/monolith_arena.md §8): add the change of the score potential of HP (teams: of the two pools)."""
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
        scale = [hp0[s.factions[p]] for p in range(n)]
        if len(set(scale)) > 1:  # Banners of different HP (content files): each seat's HP as a share of its
            d, scale = [d[p] / scale[p] for p in range(n)], 1.0  # Banner's, so the rewards still sum to 0
        dp = score_potential(d, scale, np.float64).tolist()
        for p in range(n):
            s.cum_reward[p] += dp[p]

    def outcome(self, state: ArenaState) -> tuple[Outcome, ...]:
        """Per-seat result (docs/monolith_arena.md §4.9, §8): the winners (teams: both seats of the winning alliance) WIN, the
        others LOSE; a draw of every seat is DRAW for all.

        Raises:
            MonolithEnvError: the game is not over.
        """
        require_terminal(self, state)
        return winners_outcome(self.n, state.winners)

    def end_reason(self, state: ArenaState) -> str:
        """Why the game ended as it did, in words (:func:`~monolith_envs.arena.endgame.end_reason`; docs
        §4.9), ``""`` while it goes on: terminal and browser play add it to the end of the game."""
        return end_reason(self.rules, state)

    def describe_action(self, state: ArenaState | None, action: int) -> str:
        """``action`` in words (:func:`~monolith_envs.arena.words.action_words`; docs §6.1, the action
        layout): ``places Knight on hex 07 facing NE``; ``state=None`` leaves out the tiles' names.

        Raises:
            ValueError: ``action`` is outside the layout.
        """
        from .words import action_words

        return action_words(self, state, action)

    def narrate(self, before: ArenaState, after: ArenaState, action: int, seat: int) -> list[str]:
        """What ``action`` by ``seat`` did, from the state ``before`` it and ``after`` one ``apply``, as lines of
        at most 80 columns (:func:`monolith_envs.arena.narration.narrate`): said after every move by terminal
        and browser play, and at every step of the replay page."""
        from .narration import narrate

        return narrate(self, before, after, action, seat)

    def legal_mask_bytes(self, state: ArenaState) -> bytearray:
        """:meth:`legal_mask` as ``layout.n`` bytes of 0/1: the state's cached bytes themselves (read them,
        never change them; they hold until the next ``apply``)."""
        return mask_of(self.rules, state)

    def legal_mask(self, state: ArenaState) -> np.ndarray:
        """``bool[layout.n]``: exactly the legal actions (all False when terminal)."""
        mk = mask_of(self.rules, state)
        return np.ndarray(len(mk), np.bool_, bytearray(mk))  # over a copy of the cached bytes (cheaper than
        # np.frombuffer(...).copy())

    def clone(self, state: ArenaState) -> ArenaState:
        """Exact, independent copy."""
        return fast_clone(state)

    def is_terminal(self, state: ArenaState) -> bool:
        """True once the match is over."""
        return bool(state.terminal)

    def returns(self, state: ArenaState) -> np.ndarray:
        """``float32[n]``: terminal values (win_loss/rank; zeros before the end) or cumulative score (docs/monolith_arena.md §8)."""
        return np.asarray(state.cum_reward, dtype=np.float32)

    def returns_list(self, state: ArenaState) -> list:
        """:meth:`returns` as a list of Python floats (the float32 values), without building an array while
        every return is still 0 (all of a ``win_loss`` or ``rank`` match before its end)."""
        r = state.cum_reward
        if r.count(0) == len(r):
            return [0.0] * len(r)
        return np.asarray(r, dtype=np.float32).tolist()

    def observe(self, state: ArenaState, player: int) -> np.ndarray:
        """``float32[obs_spec.size]`` seat-relative observation of ``player`` (docs/monolith_arena.md §7).

        Raises:
            ValueError: ``player`` is not a seat (an int or numpy integer in ``0 .. num_players - 1``; bools,
                floats and strings are refused, as ``apply`` refuses them as actions).
        """
        return self.observer.observe(state, check_seat(player, self.num_players))

    def state_vector(self, state: ArenaState) -> np.ndarray:
        """Omniscient observation from seat 0's point of view (hidden Monolith tiles shown)."""
        return self.observer.observe(state, 0, omniscient=True)

    def state_bounds(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The bounds of :meth:`state_vector`: the observation's (the same layout, docs §7); ``None`` for a
        subclass with its own ``state_vector``."""
        if type(self).state_vector is not ArenaGame.state_vector:
            return None
        return self.obs_spec.low, self.obs_spec.high

    def render_text(self, state: ArenaState, viewer: int | None = None) -> str:
        """Text picture (docs/monolith_arena.md §7 render notes) as ``viewer`` sees it; None = omniscient."""
        from .render import render_text

        return render_text(self, state, viewer)

    def render_rgb(self, state: ArenaState) -> np.ndarray:
        """``uint8[H, W, 3]`` picture of the board: the omniscient :meth:`render_svg` drawing painted with Pillow."""
        from .render_svg import render_rgb

        return render_rgb(self, state)

    def render_svg(self, state: ArenaState, viewer: int | None = None) -> str:
        """SVG document (``str``) of the board as seat ``viewer`` may see it (``None``: omniscient).

        Raises:
            ValueError: ``viewer`` is not ``None`` or a seat.
        """
        from .render_svg import render_svg

        return render_svg(self, state, viewer)

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

        Raises:
            ValueError: ``viewer`` is not a seat (as ``observe`` refuses it).
        """
        viewer = check_seat(viewer, self.num_players)
        s = fast_clone(state)
        tb = self.tables
        for q in range(self.n):
            deck = sorted(s.deck[q])
            if self.module and q != viewer:
                hidden = [k for k in (0, 1) if s.seg_content[q][k] >= 0 and not s.seg_revealed[q][k]
                          and s.loc[s.seg_content[q][k]] == Loc.MONOLITH]
                if hidden:
                    pool = sorted(deck + [s.seg_content[q][k] for k in hidden])
                    board_tiles = [i for i in pool if tb.kind[s.itype[i]] in _BOARD_KINDS]
                    pick = list(rng.choice(len(board_tiles), size=len(hidden), replace=False))
                    chosen = [board_tiles[j] for j in pick]
                    rest = [i for i in pool if i not in chosen]
                    for k, c in zip(hidden, chosen):
                        s.seg_content[q][k] = c
                        s.loc[c] = int(Loc.MONOLITH)
                    for i in rest:
                        s.loc[i] = int(Loc.DECK)
                    deck = rest
            perm = rng.permutation(len(deck))
            s.deck[q] = [deck[j] for j in perm]
        dirty_decks(s)
        return s

    # ------------------------------------------------------------------ invariants (docs/monolith_arena.md §9)
    def check_invariants(self, state: ArenaState) -> None:
        """Docs/monolith_arena.md §9 invariants 1-10, 15, 16 (:func:`monolith_envs.arena.invariants.check_invariants`).

        Raises:
            InvariantError: naming the invariant and the offending values.
        """
        check_invariants(self.rules, state)
