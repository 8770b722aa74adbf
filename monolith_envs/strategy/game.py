"""``StrategyGame``: the Monolith Strategy rules engine behind ``monolith_strategy_v0`` (the core Game
contract; docs/monolith_strategy.md)."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Mapping

import numpy as np

from ..core.base import GameBase
from ..core.config import ConfigError
from ..core.game import ChanceMode, GameInfo, IllegalActionError, Information, Utility
from ..core.observation import check_seat
from . import hidden, invariants, returns
from .actions import Offsets, build_layout
from .board import Rules
from .config import CONFIG_KEYS, ENV_ID, validate
from .content import load_content
from .flow import run
from .observe import Observer, _fastobs
from .setup_game import INTRO_NUMBERS, new_state
from .state import Kind, StrategyState, fast_clone
from .table import TABLE
from .turn import _fastmask, cast_checks, mask_context, turn_reason

__all__ = ["StrategyGame"]


def _check_setup(R: Rules, cfg: dict) -> None:
    """Refuse a config that the content cannot set up (docs §3): Player Powers for every seat, and the cards
    of the intro layout in play (present, enabled and, solo, allowed in solo).

    Raises:
        ConfigError: naming the setting, what it needs and what the content has.
    """
    n = R.n
    if cfg["player_powers"] and len(R.pp_kinds) < n:
        raise ConfigError(f"{ENV_ID}: player_powers=true deals a Player Power card to each of the {n} players, but "
                          f"the content has {len(R.pp_kinds)} in play{' in solo' if R.solo else ''}; use "
                          "player_powers=false or a content file with more Player Power cards")
    if cfg["intro_layout"]:
        nums = INTRO_NUMBERS["solo" if R.solo else "multiplayer"]
        runes, fates = set(R.rune_pool), set(R.fates)  # solo: the first is the Fate, the others Runes
        bad = [x for i, x in enumerate(nums)
               if R.by_number.get(x) not in (fates if R.solo and i == 0 else runes)]
        if bad:
            raise ConfigError(f"{ENV_ID}: intro_layout=true places the cards numbered {', '.join(nums)}, but "
                              f"{', '.join(bad)} {'is' if len(bad) == 1 else 'are'} not in play in this content "
                              f"(missing, of another set, disabled{' or not a solo card' if R.solo else ''}); "
                              "use intro_layout=false")


class StrategyGame(GameBase):
    """Monolith: The Strategy Game for 1-4 seats (1 = the solo variant).

    Args:
        config: the keys of docs §1 (:mod:`monolith_envs.strategy.config`), or None for the defaults.

    Raises:
        ConfigError: unknown key or bad value; ``solo_goal_stone`` beyond the content's stones (left out, it is
            the content's own ``[track] solo_goal_stone``, 4 for the reference content), or another goal than
            the content's own with more than one player (only the solo variant has a goal).
        ContentError: a content file that does not validate (file, card and field named).

    Attributes:
        env_id, config, num_players, layout (538 actions for the reference content), obs_spec (2,737
        floats), utility (ZERO_SUM, SOLO_GOAL with one seat), teams (each seat alone), max_decisions,
        rules (the :class:`Rules` tables).
    """

    GAME_INFO = GameInfo(
        env_id=ENV_ID, name="Monolith: The Strategy Game", min_players=1, max_players=4,
        utility=Utility.ZERO_SUM, chance=ChanceMode.DURING_PLAY, information=Information.IMPERFECT, teams=False,
        config_keys=CONFIG_KEYS, max_length=int(next(k.default for k in CONFIG_KEYS if k.name == "max_decisions")))
    STATE_CLASS = StrategyState
    env_id = ENV_ID

    def __init__(self, config: Mapping[str, Any] | None = None):
        cfg = validate(config)
        content = load_content(cfg["content"])
        if config is None or "solo_goal_stone" not in config:  # the content's own [track] solo_goal_stone
            cfg["solo_goal_stone"] = content.solo_goal_stone
        elif cfg["num_players"] != 1 and cfg["solo_goal_stone"] != content.solo_goal_stone:  # it would be ignored
            raise ConfigError(f"{ENV_ID}: solo_goal_stone={cfg['solo_goal_stone']} is the goal of the solo variant "
                              f"(num_players=1); this config has num_players={cfg['num_players']}: leave "
                              "solo_goal_stone out")
        elif cfg["solo_goal_stone"] > len(content.tolls):
            raise ConfigError(f"{ENV_ID}: solo_goal_stone={cfg['solo_goal_stone']} but the content has "
                              f"{len(content.tolls)} toll stones: give 1 to {len(content.tolls)}, or leave it out "
                              f"for the content's own ({content.solo_goal_stone})")
        self.config = cfg
        self.num_players = n = cfg["num_players"]
        self.layout = build_layout(content.K)
        R = self.rules = Rules(content, n, cfg)
        _check_setup(R, cfg)
        R.off = Offsets(self.layout)
        R.END_TURN = R.off.END_TURN
        R.cast_checks = cast_checks(R)
        R.mask_ctx = mask_context(R)  # None: the TURN lists in Python (no extension, or MONOLITH_ENVS_PURE_PYTHON=1)
        self.observer = Observer(R)
        self.obs_spec = self.observer.spec
        self.max_decisions = int(cfg["max_decisions"])
        self._score_mode = cfg["reward_mode"] == "score"  # the running score is the return during play
        self.solo_goal = content.tolls[cfg["solo_goal_stone"] - 1][0]

    # ------------------------------------------------------------------ protocol
    def initial_state(self, rng: np.random.Generator) -> StrategyState:
        """Setup (docs §3): shuffles, deals and the roll-off, up to the first decision."""
        return new_state(self.rules, rng)

    def current_player(self, state: StrategyState) -> int:
        """The decider of the open decision, or -1 when terminal."""
        return -1 if state.terminal or state.pending is None else state.pending["seat"]

    def legal_list(self, state: StrategyState) -> list:
        """Legal flat actions (ascending); empty when terminal."""
        c = state.legal_cache
        if c is not None:
            return c
        pd = state.pending
        if state.terminal or pd is None:
            return []
        c = state.legal_cache = TABLE[pd["k"]][0](self.rules, state, pd)
        return c

    def legal_mask_bytes(self, state: StrategyState) -> bytearray:
        """:meth:`legal_mask` as ``layout.n`` bytes of 0/1 (a new ``bytearray``)."""
        if self.rules.mask_ctx is not None:  # the compiled lists are used: the mask's bytes in C too
            legal = state.legal_cache
            return _fastmask.mask_of(self.legal_list(state) if legal is None else legal, self.layout.n)
        m = bytearray(self.layout.n)  # zeros; a few item writes cost less than numpy's list indexing
        for a in self.legal_list(state):
            m[a] = 1
        return m

    def legal_mask(self, state: StrategyState) -> np.ndarray:
        """``bool[layout.n]``: exactly the legal actions of the decider (all False when terminal)."""
        return np.frombuffer(self.legal_mask_bytes(state), np.bool_)

    def apply(self, state: StrategyState, action: int, rng: np.random.Generator) -> None:
        """Answer the open decision with ``action`` and run the engine to the next decision (docs §6.2).

        Dice are drawn from ``rng`` only after the action is known to be legal.

        Raises:
            IllegalActionError: not an action index, or not legal now (the message lists the legal ones).
        """
        if type(action) is not int:
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                raise IllegalActionError(repr(action), "an action is an integer index", self._legal_names(state))
            action = int(action)
        a = action
        if state.terminal:
            raise IllegalActionError(str(a), "the game is over", [])
        pd = state.pending
        legal = state.legal_cache
        if legal is None:
            legal = self.legal_list(state)
        i = bisect_left(legal, a)  # the list is ascending: a binary search instead of a scan
        if i == len(legal) or legal[i] != a:
            if not 0 <= a < self.layout.n:
                raise IllegalActionError(str(a), f"outside 0..{self.layout.n - 1}", self._legal_names(state))
            why = f"not legal in {Kind(pd['k']).name} of player_{pd['seat']}"
            if pd["k"] == Kind.TURN:
                detail = turn_reason(self.rules, state, a)
                if detail:
                    why += f": {detail}"
            raise IllegalActionError(self.layout.decode(a), why, [self.layout.decode(x) for x in legal])
        state.pending = None
        state.legal_cache = None
        TABLE[pd["k"]][1](self.rules, state, pd, a, rng)
        state.decisions += 1
        run(self.rules, state, rng)

    def _legal_names(self, state) -> list:
        return [self.layout.decode(x) for x in self.legal_list(state)]

    def settle(self, state: StrategyState, rng) -> None:
        """Run the engine on a hand-built state until a decision is open or the game ends."""
        state.legal_cache = None
        run(self.rules, state, rng)

    def clone(self, state: StrategyState) -> StrategyState:
        """An exact, independent copy (without the transient legal-action cache)."""
        return fast_clone(state)

    def is_terminal(self, state: StrategyState) -> bool:
        """Whether the game is over: VICTORY or the ranking after Final Scoring (docs §8)."""
        return bool(state.terminal)

    def returns(self, state: StrategyState) -> np.ndarray:
        """``float32[n]`` (docs §8): terminal values in win_loss / rank; the running score in score mode."""
        return returns.returns(self, state)

    def returns_list(self, state: StrategyState) -> list:
        """:meth:`returns` as a list of n floats (the AEC fast path): all 0.0 before the end unless in
        score mode (docs §8)."""
        if not state.terminal and not self._score_mode:
            return [0.0] * self.num_players
        return returns.returns(self, state).tolist()

    def outcome(self, state: StrategyState) -> tuple:
        """One :class:`Outcome` per seat for a terminal state (solo: SUCCESS/FAILURE)."""
        return returns.outcome(self, state)

    def describe_action(self, state: StrategyState | None, action: int) -> str:
        """``action`` in words (:func:`~monolith_envs.strategy.words.action_words`; docs §6.1), for terminal
        and browser play and the replay page; ``state`` is the state it is applied in (``None``: said without
        what only that state knows).

        Raises:
            ValueError: ``action`` is outside the layout.
        """
        from .words import action_words

        return action_words(self, state, action)

    def narrate(self, before: StrategyState, after: StrategyState, action: int, seat: int) -> list[str]:
        """What ``action`` by ``seat`` did, from the state ``before`` it and ``after`` one ``apply``, as lines of
        at most 80 columns (:func:`monolith_envs.strategy.narration.narrate`): said after every move by terminal
        and browser play, and at every step of the replay page."""
        from .narration import narrate

        return narrate(self, before, after, action, seat)

    def end_reason(self, state: StrategyState) -> str:
        """Why the game ended as it did, in words (:func:`~monolith_envs.strategy.returns.end_reason`; docs
        §8), ``""`` while it goes on: terminal and browser play add it to the end of the game."""
        from .returns import end_reason

        return end_reason(self, state)

    def success(self, state: StrategyState) -> bool:
        """Solo goal (docs §4.19): VICTORY, or ending on or past the goal stone."""
        return state.vp[0] >= self.solo_goal or state.vp[0] >= self.rules.victory

    def observe(self, state: StrategyState, player: int) -> np.ndarray:
        """``float32[obs_spec.size]`` seat-relative observation (docs §7).

        Raises:
            ValueError: ``player`` is not a seat (an int or numpy integer in ``0 .. num_players - 1``; bools,
                floats and strings are refused, as ``apply`` refuses them as actions).
        """
        if type(player) is int and 0 <= player < self.num_players:  # the common case, without a call
            ob = self.observer
            ctx = ob._ctx
            if ctx is not None:  # the compiled builder: Observer.observe without its call
                out = np.empty(ob.size, np.float32)
                _fastobs.observe(ctx, state, player, out)
                return out
            return ob.observe(state, player)
        return self.observer.observe(state, check_seat(player, self.num_players))

    def render_text(self, state: StrategyState, viewer: int | None = None) -> str:
        """The ``ansi`` text render (docs §14) as seat ``viewer`` may see it (``None``: every hand shown)."""
        from .render import render_text

        return render_text(self, state, viewer)

    def render_rgb(self, state: StrategyState) -> np.ndarray:
        """``uint8[H, W, 3]`` picture of the board: the omniscient :meth:`render_svg` drawing painted with Pillow."""
        from .render_svg import render_rgb

        return render_rgb(self, state)

    def render_svg(self, state: StrategyState, viewer: int | None = None) -> str:
        """SVG document (``str``) of the board as seat ``viewer`` may see it (``None``: omniscient).

        Raises:
            ValueError: ``viewer`` is not ``None`` or a seat.
        """
        from .render_svg import render_svg

        return render_svg(self, state, viewer)

    def resample_hidden(self, state: StrategyState, viewer: int, rng: np.random.Generator) -> StrategyState:
        """A copy with everything ``viewer`` cannot know redrawn (docs §7 visibility).

        Raises:
            ValueError: ``viewer`` is not a seat (as ``observe`` refuses it).
        """
        return hidden.resample(self, state, check_seat(viewer, self.num_players), rng)

    def state_schema(self) -> dict:
        """Field specs of a serialised state of this game, checked by ``from_dict`` (state_check.py)."""
        from .state_check import schema

        return schema(self)

    def check_state(self, state: StrategyState) -> None:
        """Cross-field checks of a state read by ``from_dict`` (:func:`.state_check.cross_check`)."""
        from .state_check import cross_check

        cross_check(self, state)

    def check_invariants(self, state: StrategyState) -> None:
        """The docs §9 invariants; raises InvariantError naming the broken one."""
        invariants.check(self, state)
