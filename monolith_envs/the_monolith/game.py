"""``MonolithGame``: the rules engine behind ``the_monolith_v0`` (the core ``Game`` protocol).

The game object holds the validated config and the static tables of the map and the content; the state
(:class:`~monolith_envs.the_monolith.state.MonolithState`) holds everything that changes. ``apply``
resolves one decision and then runs the pending rule steps (``state.stack``) until the next real decision
(docs §4.12: a decision whose only legal action is ``pass`` is applied automatically).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..core.base import GameBase
from ..core.config import ConfigError
from ..core.game import (
    ChanceMode,
    GameInfo,
    IllegalActionError,
    Information,
    InvariantError,
    Utility,
)
from ..core.observation import check_seat
from ..core.returns import rank, require_terminal, score_potential, win_loss, winners_outcome
from .actions import Offsets, action_index, action_name, build_layout
from .config import CONFIG_KEYS, ENV_ID, validate
from .content import load_content
from .effects import WINDOW_CODE
from .state import NONE, SUB_ASKS, MonolithState, Phase, Sub, fast_clone
from .table import FRAMES, TABLE

__all__ = ["MonolithGame"]

_MAX_AUTO = 10_000


class MonolithGame(GameBase):
    """The Monolith rules engine (docs/the_monolith.md) implementing :class:`~monolith_envs.core.game.Game`.

    Args:
        config: mapping of the keys of docs §1 (see :mod:`monolith_envs.the_monolith.config`), or None.

    Raises:
        ConfigError: unknown key, bad value or combination, a shaman id not in the shaman file.
        ContentError: a content file that does not validate.

    Attributes:
        env_id, config, num_players, layout (264 actions by default), obs_spec (1587 floats by default),
        zero_sum (True), max_decisions, content, and the static map tables (``N``, ``R``, ``active``, ...).
    """

    GAME_INFO = GameInfo(
        env_id=ENV_ID, name="The Monolith", min_players=2, max_players=4, utility=Utility.ZERO_SUM,
        chance=ChanceMode.DURING_PLAY, information=Information.IMPERFECT, teams=False, config_keys=CONFIG_KEYS,
        max_length=int(next(k.default for k in CONFIG_KEYS if k.name == "max_decisions")))
    STATE_CLASS = MonolithState
    env_id = ENV_ID

    def __init__(self, config: Mapping[str, Any] | None = None):
        cfg = validate(config)
        self.config = cfg
        self.content = c = load_content({k: cfg[k] for k in ("map_file", "shaman_file", "divination_file",
                                                              "event_file", "objective_file")})
        n = self.n = self.num_players = cfg["num_players"]
        mp = c.map
        self.N, self.R, self.S = len(mp.spaces), 6, len(c.shamans)
        self.D, self.E, self.O = len(c.divinations), len(c.events), len(c.objectives)
        self.shamans, self.divs, self.events, self.objs = c.shamans, c.divinations, c.events, c.objectives
        for key in ("shamans", "shaman_pool"):
            bad = [k for k in cfg[key] if not 0 <= k < self.S]
            if bad:
                raise ConfigError(f"{ENV_ID}: {key} names unknown shaman ids {bad}; the shaman file has 0..{self.S - 1}")
        if cfg["shaman_assignment"] == "draft":
            low = min(self.shamans[k].available for k in cfg["shaman_pool"])
            if cfg["draft_max_bid"] > low:
                raise ConfigError(f"{ENV_ID}: draft_max_bid={cfg['draft_max_bid']} exceeds the smallest starting "
                                  f"available ({low}) among the pool's shamans")
        locked = set(mp.locked[n])
        self.mono = mp.monolith
        self.active = [sp.quadrant not in locked for sp in mp.spaces]
        self.active_spaces = [i for i in range(self.N) if self.active[i]]
        self.quad = [sp.quadrant for sp in mp.spaces]
        self.building = [sp.building for sp in mp.spaces]
        self.mausoleums = [i for i in self.active_spaces if self.building[i] == "mausoleum"]
        self.slots = [sp.slots if self.active[i] else 0 for i, sp in enumerate(mp.spaces)]
        self.base_tunnel = [sp.tunnel and self.active[i] for i, sp in enumerate(mp.spaces)]
        adj = [[] for _ in range(self.N)]
        for a, b in mp.dashed:
            if self.active[a] and self.active[b]:
                adj[a].append(b)
                adj[b].append(a)
        self.dashed_adj = [sorted(x) for x in adj]
        self.seat_quad = list(mp.seats[n])
        self.hold = [next(sp.id for sp in mp.spaces if sp.quadrant == q and sp.role == "hold") for q in self.seat_quad]
        self.home = [[sp.id for sp in mp.spaces if sp.quadrant == q] for q in self.seat_quad]
        self.role_space = [{mp.spaces[i].role: i for i in h} for h in self.home]
        for k in (cfg["shaman_pool"] if cfg["shaman_assignment"] != "fixed" else cfg["shamans"]):
            st = self.shamans[k].start
            for p in range(n):
                if st != "monolith" and st not in self.role_space[p]:
                    raise ConfigError(f"{ENV_ID}: shaman {k} starts on role {st!r}, missing in seat {p}'s quadrant")
        self.row_size = min(self.R, cfg["div_row_size"] or n)
        self.shaman_weights = any(sh.window == "passive" and sh.effect.op == "modifier"
                                  and sh.effect.name == "shaman_control_weight" for sh in self.shamans)
        w = np.asarray(cfg["tower_weights"], float)
        w = w / w.sum()
        # a zone of weight 0 never gets a heart, also where rounding leaves w0 + w1 just below 1 (docs §4.9)
        self.cumw = [float(w[0]), 1.0 if w[2] == 0 else float(w[0] + w[1]), 1.0]
        self.rho = float(cfg["tower_retention"])
        self.num_days = cfg["num_days"]
        self.off = Offsets(self.N, self.R, self.S)
        for name in ("PASS", "ORDER", "SPACE", "NUMBER", "ROW", "POWER", "DISCARD", "OBJECTIVE", "FATE", "SLAY",
                     "MANEUVER", "BOAST", "SACRIFICE", "RELENT", "SHAMAN"):
            setattr(self, "A_" + name, getattr(self.off, name))
        self.n_actions = self.off.n
        self.div_window = [WINDOW_CODE[d.window] for d in self.divs]
        self.shaman_window = [WINDOW_CODE[sh.window] for sh in self.shamans]
        self._derived_tables()
        self.layout = build_layout(self.N, self.R, self.S)
        self.max_decisions = int(cfg["max_decisions"])
        self.reward_mode = cfg["reward_mode"]
        from .observe import Observer

        self.observer = Observer(self)
        self.obs_spec = self.observer.spec

    def _derived_tables(self) -> None:
        """Static tables read from the content once, so that the hot rule functions skip the string work:
        per card and per shaman the passive modifier it adds (``(name, amount)`` or None, :mod:`.board`) and
        the window code of a cost-free power (None for a costed one, :func:`.effects.auto_powers`); per
        modifier name the shamans and cards that have it; per event the values of its ``set_tunnel`` reveal
        effects; per objective whether its scoring reads the controllers (:func:`.effects.reads_control`);
        per seat its opponents clockwise with their slay offsets; the active temples and scriptoriums."""
        from .effects import reads_control

        def passive_modifier(card):
            eff = card.effect
            return (eff.name, eff.amount) if card.window == "passive" and eff.op == "modifier" else None

        self.div_mod = [passive_modifier(d) for d in self.divs]
        self.shaman_mod = [passive_modifier(sh) for sh in self.shamans]
        sources: dict = {}
        for k, m in enumerate(self.shaman_mod):
            if m is not None:
                sources.setdefault(m[0], (set(), set()))[0].add(k)
        for c, m in enumerate(self.div_mod):
            if m is not None:
                sources.setdefault(m[0], (set(), set()))[1].add(c)
        self.modifier_sources = {name: (frozenset(a), frozenset(b)) for name, (a, b) in sources.items()}
        self.div_free_window = [WINDOW_CODE[d.window] if d.cost == "none" else None for d in self.divs]
        self.shaman_free_window = [WINDOW_CODE[sh.window] if sh.cost == "none" else None for sh in self.shamans]
        self.event_tunnels = [tuple(bool(e.value) for e in ev.reveal if e.op == "set_tunnel") for ev in self.events]
        self.obj_reads_control = [reads_control(o.effect) for o in self.objs]
        n = self.num_players
        self.opponents = [[((p + o) % n, o - 1) for o in range(1, n)] for p in range(n)]  # (seat, offset o-1)
        self.temples = [i for i in self.active_spaces if self.building[i] == "temple"]
        self.scriptoriums = [i for i in self.active_spaces if self.building[i] == "scriptorium"]

    # ------------------------------------------------------------------ flow
    def run(self, s: MonolithState, rng) -> None:
        """Run pending rule steps until a real decision or the end (docs §4.12).

        Raises:
            InvariantError: a decision with no legal action, no decision and no rule step pending, or
                ``_MAX_AUTO`` automatic steps without reaching a decision (an engine bug).
        """
        table, frames = TABLE, FRAMES
        for _ in range(_MAX_AUTO):
            if s.terminal:
                return
            sub = s.sub
            if sub != NONE:
                mask_fn, apply_fn = table[sub]
                legal = mask_fn(self, s, s.current)
                s.legal_cache = legal
                if len(legal) == 1 and legal[0] == self.A_PASS:
                    apply_fn(self, s, s.current, self.A_PASS, rng)
                    continue
                if not legal:
                    raise InvariantError(f"the_monolith: decision {Sub(s.sub).name} of seat {s.current} has no "
                                         "legal action")
                return
            s.legal_cache = None
            if not s.stack:
                raise InvariantError("the_monolith: no pending decision and no pending rule step")
            kind, a, b = s.stack.pop()
            frames[kind](self, s, a, b, rng)
        raise InvariantError("the_monolith: automatic steps did not reach a decision")

    def legal_actions(self, s: MonolithState) -> list:
        """Sorted legal action indices of the decider (empty when terminal)."""
        if s.terminal or s.sub == NONE:
            return []
        lg = s.legal_cache
        if lg is None:
            lg = s.legal_cache = TABLE[s.sub][0](self, s, s.current)
        return sorted(lg)

    # ------------------------------------------------------------------ protocol
    def initial_state(self, rng: np.random.Generator) -> MonolithState:
        """docs §3: the setup draws, then the first decision (draft, setup objective discard)."""
        from .opening import new_state

        s = new_state(self, rng)
        self.run(s, rng)
        s.favour_floor = list(s.favour)
        return s

    def current_player(self, state: MonolithState) -> int:
        """Deciding seat, or -1 when terminal."""
        return -1 if state.terminal else state.current

    def legal_mask_bytes(self, state: MonolithState) -> bytearray:
        """:meth:`legal_mask` as ``layout.n`` bytes of 0/1 (a new ``bytearray``)."""
        m = bytearray(self.n_actions)  # zeros; a few item writes cost less than numpy's list indexing
        if not (state.terminal or state.sub == NONE):
            lg = state.legal_cache
            if lg is None:
                lg = state.legal_cache = TABLE[state.sub][0](self, state, state.current)
            for a in lg:
                m[a] = 1
        return m

    def legal_mask(self, state: MonolithState) -> np.ndarray:
        """``bool[layout.n]``: exactly the legal actions (docs §6.2; all False when terminal)."""
        return np.frombuffer(self.legal_mask_bytes(state), np.bool_)

    def illegal(self, s: MonolithState, action: Any, why: str) -> IllegalActionError:
        """The :class:`IllegalActionError` (returned, not raised) for ``action`` refused because ``why``; it names
        the action and the legal ones in docs §6.1 notation."""
        legal = [action_name(self.off, a) for a in self.legal_actions(s)]
        asked = repr(action)
        if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
            try:
                asked = action_name(self.off, int(action))
            except (TypeError, ValueError):
                pass
        return IllegalActionError(asked, why, legal)

    def apply(self, state: MonolithState, action: int, rng: np.random.Generator | None = None) -> None:
        """Apply ``action`` for the decider, in place, then run the automatic steps (docs §4.12). Chance
        (tower, reshuffles) is drawn from ``rng`` only after the action is known to be legal.

        Raises:
            IllegalActionError: not an action index, the game is over, or not legal now (lists the legal ones).
        """
        if type(action) is int:  # the common case, without the checks below
            a = action
        elif isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise self.illegal(state, action, f"{action!r} is not an action index")
        else:
            a = int(action)
        if state.terminal:
            raise self.illegal(state, a, "the game is over")
        if not 0 <= a < self.n_actions:
            raise self.illegal(state, a, f"action {a} outside 0..{self.n_actions - 1}")
        lg = state.legal_cache
        if lg is None:
            lg = TABLE[state.sub][0](self, state, state.current)
        if a not in lg:
            raise self.illegal(state, a, f"not legal in {Sub(state.sub).name}: the decision now is "
                                          f"{SUB_ASKS[state.sub]}")
        if rng is None:  # no chance given: resolve on a copy, so a draw leaves the state unchanged
            import dataclasses

            work = fast_clone(state)
            self._apply(work, a, _NoRng())
            for f in dataclasses.fields(work):
                setattr(state, f.name, getattr(work, f.name))
            return
        self._apply(state, a, rng)

    def _apply(self, state: MonolithState, a: int, rng) -> None:
        apply_fn = TABLE[state.sub][1]
        state.favour_floor = list(state.favour)
        state.legal_cache = None
        apply_fn(self, state, state.current, a, rng)
        state.decisions += 1
        self.run(state, rng)
        if self.reward_mode == "score":
            self._score(state)

    def _score(self, s: MonolithState) -> None:
        s.cum = score_potential(s.favour, 1.0 / self.config["score_scale"], np.float64).tolist()

    def finish_returns(self, s: MonolithState) -> None:
        """Terminal returns (docs §8): win_loss, rank (ties broken by the §8 rule, so every place is
        distinct), or score."""
        n = s.n
        if self.reward_mode == "win_loss":
            s.cum = win_loss(n, [self.ranking(s)[0]], np.float64).tolist()
        elif self.reward_mode == "rank":
            s.cum = rank([(s.favour[p], -((p - s.first) % n)) for p in range(n)], np.float64).tolist()
        else:
            self._score(s)

    def ranking(self, s: MonolithState) -> list:
        """Seats best first (most favour; ties to the seat nearest the first player, clockwise; docs §8)."""
        from .rest import final_ranking

        return final_ranking(s)

    def describe_action(self, state: MonolithState | None, action: int) -> str:
        """``action`` in words (:func:`~monolith_envs.the_monolith.words.action_words`; docs §6.1), for terminal
        and browser play and the replay page; ``state`` is the state it is applied in (``None``: said without
        what only that state knows).

        Raises:
            ValueError: ``action`` is outside the layout.
        """
        from .words import action_words

        return action_words(self, state, action)

    def narrate(self, before: MonolithState, after: MonolithState, action: int, seat: int) -> list[str]:
        """What ``action`` by ``seat`` did, from the state ``before`` it and ``after`` one ``apply``, as lines of
        at most 80 columns (:func:`monolith_envs.the_monolith.narration.narrate`): said after every move by terminal
        and browser play, and at every step of the replay page."""
        from .narration import narrate

        return narrate(self, before, after, action, seat)

    def end_reason(self, state: MonolithState) -> str:
        """Why the game ranked as it did, in words (:func:`~monolith_envs.the_monolith.rest.end_reason`; docs
        §8), ``""`` while it goes on: terminal and browser play add it to the end of the game."""
        from .rest import end_reason

        return end_reason(state)

    def outcome(self, state: MonolithState) -> tuple:
        """Per-seat result of a finished game: the one winner WIN, the others LOSS (docs §8: there is
        always exactly one winner).

        Raises:
            MonolithEnvError: the game is not over.
        """
        require_terminal(self, state)
        return winners_outcome(state.n, [self.ranking(state)[0]])

    def clone(self, state: MonolithState) -> MonolithState:
        """An exact, independent copy (:func:`~monolith_envs.the_monolith.state.fast_clone`)."""
        return fast_clone(state)

    def is_terminal(self, state: MonolithState) -> bool:
        """Whether the game is over (docs §8: the rest phase of the last day has ended)."""
        return bool(state.terminal)

    def returns(self, state: MonolithState) -> np.ndarray:
        """``float32[n]``: win_loss/rank terminal values (0 before the end), or the score return (docs §8)."""
        return np.asarray(state.cum, dtype=np.float32)

    def returns_list(self, state: MonolithState) -> list:
        """:meth:`returns` as a list of Python floats (all zeros, signs kept, without numpy: the common case
        before the end)."""
        c = state.cum
        if not any(c):
            return [float(x) for x in c]
        return np.asarray(c, dtype=np.float32).tolist()

    def observe(self, state: MonolithState, player: int) -> np.ndarray:
        """``float32[obs_spec.size]`` seat-relative observation (docs §7; :meth:`Observer.observe
        <monolith_envs.the_monolith.observe.Observer.observe>`).

        Raises:
            ValueError: ``player`` is not a seat (an int or numpy integer in ``0 .. num_players - 1``; bools,
                floats and strings are refused, as ``apply`` refuses them as actions).
        """
        return self.observer.observe(state, check_seat(player, self.num_players))

    def render_text(self, state: MonolithState, viewer: int | None = None) -> str:
        """Text picture of ``state`` (docs §11, ``render_mode="ansi"``); with ``viewer`` set, other seats' objectives
        show as a count and another seat's OBJ_REVEAL choices are not listed."""
        from .render import render_text

        return render_text(self, state, viewer)

    def render_rgb(self, state: MonolithState) -> np.ndarray:
        """``uint8[H, W, 3]`` picture of the board: the omniscient :meth:`render_svg` drawing painted with Pillow."""
        from .render_svg import render_rgb

        return render_rgb(self, state)

    def render_svg(self, state: MonolithState, viewer: int | None = None) -> str:
        """SVG document (``str``) of the board as seat ``viewer`` may see it (``None``: omniscient).

        Raises:
            ValueError: ``viewer`` is not ``None`` or a seat.
        """
        from .render_svg import render_svg

        return render_svg(self, state, viewer)

    def resample_hidden(self, state: MonolithState, viewer: int, rng: np.random.Generator) -> MonolithState:
        """Copy with what ``viewer`` cannot know redrawn (docs §7 visibility): the order of the three decks,
        the other seats' objectives, and which objective discards lie face down (pooled with the deck).

        While another seat decides OBJ_REVEAL, the viewer knows that seat holds an objective that scores now
        (else the pass would have been automatic, docs §4.12), so hands are redrawn until one does (at most
        64 tries; then that seat keeps its hand).

        Raises:
            ValueError: ``viewer`` is not a seat (as ``observe`` refuses it).
        """
        viewer = check_seat(viewer, self.num_players)
        s = fast_clone(state)
        pool = sorted(list(s.obj_deck) + [o for q in range(s.n) if q != viewer for o in s.objectives[q]]
                      + [o for o, up in s.obj_discard if not up])
        reveal = s.sub == Sub.OBJ_REVEAL and s.current != viewer and not s.terminal
        keep = [viewer]
        for tries in range(65 if reveal else 1):
            if tries == 64:  # give up: the decider keeps its hand, the others are redrawn
                keep.append(s.current)
                s.objectives[s.current] = list(state.objectives[s.current])
                pool = [o for o in pool if o not in state.objectives[s.current]]
            perm = [pool[int(j)] for j in rng.permutation(len(pool))]
            for q in range(s.n):
                if q not in keep:
                    k = len(s.objectives[q])
                    s.objectives[q], perm = perm[:k], perm[k:]
            s.legal_cache = None
            if not reveal or tries == 64 or TABLE[s.sub][0](self, s, s.current) != [self.A_PASS]:
                break
        down = [i for i, (o, up) in enumerate(s.obj_discard) if not up]
        for i in down:
            s.obj_discard[i] = [perm.pop(0), 0]
        s.obj_deck = perm
        for name in ("div_deck", "event_deck"):
            deck = sorted(getattr(s, name))
            setattr(s, name, [deck[int(j)] for j in rng.permutation(len(deck))])
        return s

    def state_schema(self) -> dict:
        """Field specs of a serialised state (:func:`.state_check.schema`); ``from_dict`` checks them."""
        from .state_check import schema

        return schema(self)

    def check_state(self, state: MonolithState) -> None:
        """Cross-field checks of a state read by ``from_dict`` (:func:`.state_check.cross_check`)."""
        from .state_check import cross_check

        cross_check(self, state)

    def check_invariants(self, state: MonolithState) -> None:
        """docs §9 invariants (see :mod:`monolith_envs.the_monolith.invariants`)."""
        from .invariants import check

        check(self, state)

    # ------------------------------------------------------------------ helpers
    def action_name(self, a: int) -> str:
        """e.g. ``slay(s=9,o=1)`` (docs §6.1)."""
        return action_name(self.off, int(a))

    def action_index(self, name: str) -> int:
        """Inverse of :meth:`action_name`."""
        return action_index(self.off, name)

    def phase_name(self, s: MonolithState) -> str:
        """Name of the state's phase (docs §2): SETUP, ORDER, ACTION, REST or GAME_OVER."""
        return Phase(s.phase).name


class _NoRng:
    """Stand-in when ``apply`` gets no rng: any draw raises (positions without chance need none)."""

    def _fail(self, *a, **k):
        raise ValueError("this action draws chance (tower lift or a reshuffle): pass an rng to apply()")

    integers = permutation = choice = random = _fail
